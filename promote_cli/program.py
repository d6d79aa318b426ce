"""``promote expr``'s code, read: a :class:`Program` of nodes, the same under every policy.

The code is read with Python's ``ast`` (nothing is executed) into a :class:`Program`: its
nodes in the order Python evaluates them, each an operation of ``promote_cli.vocabulary`` (an
operator, an augmented assignment, a function of the array API called as ``sqrt(x)``,
``xp.sqrt(x)`` or through a framework's own namespace, a reduction method) or one of the few
array manipulations that keep or set the dtype (``.astype(T)``, ``.T``, indexing). Names are
bound to operands (``x=int8``; ``x=S(int8)`` a 0-d array); literals are Python scalars with
their values; arithmetic between Python scalars is Python's own and is done here, as Python
does it before any framework sees the result. :func:`dimensions` says how many dimensions
each node's value has once its names are bound, which no framework changes.

``promote_cli.evaluation`` answers a program under a policy; ``promote_cli.exprtable`` is
``promote expr``'s table of the answers.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from promote_cli.errors import UsageError
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.record import Record

# What a node is (``Node.kind``).
NAME, LITERAL, OPERATION, ASTYPE, TRANSPOSE, INDEX = (
    "name",
    "literal",
    "operation",
    "astype",
    "transpose",
    "index",
)


@cache
def namespaces() -> dict[str, dict[str, str]]:
    """Each namespace a call may go through (``np``, ``jnp``, the array API's ``xp`` ...), as
    the frameworks declare them (``Framework.expressions``), with the spellings of the array
    API's functions it has (``np.power`` is ``pow``); a namespace two frameworks share
    (``ops``) has both's."""
    from promote_cli import frameworks

    spellings: dict[str, dict[str, str]] = {}
    for entry in frameworks.entries():
        for space in entry.expressions.namespaces:
            spellings.setdefault(space, {}).update(entry.expressions.aliases)
    return spellings


@cache
def _spellings() -> dict[str, str]:
    """Every framework's spellings at once: what a call without a namespace (``power(x, y)``)
    or through the array API's ``xp`` may be written in."""
    return {k: v for aliases in namespaces().values() for k, v in aliases.items()}


_BINARY = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
_COMPARE = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
}
_UNARY = {ast.USub: "-x", ast.UAdd: "+x", ast.Invert: "~x"}
# Python's comparisons that are no array operation: each asks Python a question of objects.
_UNMODELLED: dict[type[ast.AST], str] = {
    ast.Is: "'is' asks whether two objects are one, not an array operation: use x == y",
    ast.IsNot: "'is not' asks whether two objects are one, not an array operation: use x != y",
    ast.In: "'in' asks an array for the truth value of a search, not an array operation:"
    " it is not modelled",
    ast.NotIn: "'not in' asks an array for the truth value of a search, not an array"
    " operation: it is not modelled",
}
_METHODS = {"sum": "sum", "mean": "mean", "max": "max", "prod": "prod", "argmax": "argmax"}

_LARGEST = 1 << 4096  # a Python int promote computes with: far beyond every dtype's range


class Node(Record):
    """One step of a program: what it is (``kind``), its source text and where it starts (line
    and column, from 1), and for an operation its name in the vocabulary and the nodes of
    its operands (``args``, by index). A literal's ``value`` is its Python value; a name's is
    the name; ``astype``'s the dtype as written; a method's (``x.sum()``) the method's name."""

    number: int  # its place in the evaluation order
    kind: str
    text: str
    line: int
    column: int
    operation: str = ""
    args: tuple[int, ...] = ()
    value: Any = None
    binds: str = ""  # the name an assignment or augmented assignment binds


class Program(Record):
    """A parsed program: its nodes in evaluation order, the names it reads before assigning
    them (each must be bound), and the node whose value it ends with."""

    code: str
    nodes: tuple[Node, ...]
    reads: tuple[str, ...]
    final: int

    def shown(self) -> list[Node]:
        """The nodes a table shows: every one that computes something (not the names and
        literals it starts from)."""
        return [n for n in self.nodes if n.kind not in (NAME, LITERAL)]


def parse(code: str) -> Program:
    """``code`` as a :class:`Program`; a ``UsageError`` naming the line and column of the
    first thing it cannot model."""
    try:
        tree = ast.parse(code, mode="exec")
        builder = _Builder(code)
        if not tree.body:
            raise UsageError("no code: give an expression, such as 'x / 2 + w.sum()'")
        for statement in tree.body:
            builder.statement(statement)
    except SyntaxError as exc:
        # Python reports an int literal past its digit limit at column 0: find the literal
        line, column = _overlong(code) or (exc.lineno, exc.offset)
        where = f"line {line}, column {column}: " if line and column else ""
        where = where or (f"line {line}: " if line else "")
        raise UsageError(f"{where}not Python: {exc.msg}") from None
    except (RecursionError, MemoryError):
        raise UsageError("the code is nested too deeply to read") from None
    return builder.program()


def _overlong(code: str) -> tuple[int, int] | None:
    """Where ``code``'s first decimal int literal longer than Python's digit limit starts (line
    and column, from 1), or None."""
    import io
    import sys
    import tokenize

    limit = sys.get_int_max_str_digits()
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            digits = token.string.replace("_", "")
            if token.type == tokenize.NUMBER and digits.isdigit() and len(digits) > limit > 0:
                return token.start[0], token.start[1] + 1
    except (SyntaxError, tokenize.TokenError):
        return None
    return None


class _Builder:
    def __init__(self, code: str) -> None:
        self.code = code
        # A program on one line (every one verify draws) has each node's text at its offsets
        # into the line's UTF-8 bytes; ``ast.get_source_segment`` splits the whole code into
        # lines again for every node, which made parsing quadratic in the program's length.
        self.one_line = None if any(c in code for c in "\r\n\f") else code.encode("utf-8")
        self.nodes: list[Node] = []
        self.bound: dict[str, int] = {}  # a name's current node
        self.reads: list[str] = []
        self.last = -1

    def program(self) -> Program:
        return Program(self.code, tuple(self.nodes), tuple(self.reads), self.last)

    def fail(self, at: ast.AST, what: str) -> UsageError:
        line, col = getattr(at, "lineno", 1), getattr(at, "col_offset", 0) + 1
        return UsageError(f"line {line}, column {col}: {what}")

    def add(self, at: ast.expr | ast.stmt, kind: str, **fields: Any) -> int:
        if self.one_line is not None and at.end_col_offset is not None:
            text = self.one_line[at.col_offset : at.end_col_offset].decode("utf-8")
        else:
            text = ast.get_source_segment(self.code, at) or ""
        node = Node(
            len(self.nodes),
            kind,
            text,
            at.lineno,
            at.col_offset + 1,
            **fields,
        )
        self.nodes.append(node)
        self.last = node.number
        return node.number

    def statement(self, s: ast.stmt) -> None:
        if isinstance(s, ast.Expr):
            self.last = self.expression(s.value)
        elif isinstance(s, ast.Assign):
            if len(s.targets) != 1 or not isinstance(s.targets[0], ast.Name):
                raise self.fail(s, "assign to one name (y = ...), not to several or to a part")
            at = self.expression(s.value)
            self.bound[s.targets[0].id] = at
            self.nodes[at] = self.nodes[at]._replace(binds=s.targets[0].id)
            self.last = at
        elif isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                raise self.fail(s, "an augmented assignment to one name (x += ...)")
            from promote_cli.vocabulary import VOCABULARY

            symbol = _BINARY.get(type(s.op))
            if symbol is None:  # (every augmented operator has a binary one)
                raise self.fail(s, f"the operator {type(s.op).__name__} is not modelled")
            if f"{symbol}=" not in VOCABULARY:  # @=: NumPy refuses it unless a is square
                raise self.fail(s, f"the update {symbol}= is not modelled (write x = x {symbol} y)")
            left = self.name(s.target)
            right = self.expression(s.value)
            at = self.add(s, OPERATION, operation=symbol + "=", args=(left, right))
            self.nodes[at] = self.nodes[at]._replace(binds=s.target.id)
            self.bound[s.target.id] = at
        else:
            what = type(s).__name__.lower()
            article = "an" if what[0] in "aeiou" else "a"
            raise self.fail(
                s, f"{article} {what} statement is not modelled: give expressions and assignments"
            )

    def name(self, n: ast.Name) -> int:
        if n.id in self.bound:
            return self.bound[n.id]
        if n.id not in self.reads:
            self.reads.append(n.id)
        at = self.add(n, NAME, value=n.id)
        self.bound[n.id] = at
        return at

    def literal(self, e: ast.expr, value: Any) -> int:
        if isinstance(value, bool | int | float | complex):
            return self.add(e, LITERAL, value=value)
        raise self.fail(
            e,
            f"{type(value).__name__} literals are not modelled: give a Python"
            " bool, int, float or complex",
        )

    def expression(self, e: ast.expr) -> int:
        if isinstance(e, ast.Name):
            return self.name(e)
        if isinstance(e, ast.Constant):
            return self.literal(e, e.value)
        if isinstance(e, ast.BinOp):
            return self.operator(e, self.symbol(e, e.op, _BINARY), [e.left, e.right])
        if isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Not):
                raise self.fail(e, "'not' asks an array for its truth value: use logical_not(x)")
            return self.operator(e, self.symbol(e, e.op, _UNARY), [e.operand])
        if isinstance(e, ast.Compare):
            if len(e.ops) != 1:
                raise self.fail(
                    e,
                    "a chained comparison is Python's 'and' of two, which asks an"
                    " array for its truth value: compare two at a time",
                )
            symbol = self.symbol(e, e.ops[0], _COMPARE)
            return self.operator(e, symbol, [e.left, e.comparators[0]])
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Attribute) and e.attr in ("T", "mT"):
            base = self.expression(e.value)
            return self.add(e, TRANSPOSE, operation="." + e.attr, args=(base,))
        if isinstance(e, ast.Subscript):
            base = self.expression(e.value)
            index = e.slice
            items = index.elts if isinstance(index, ast.Tuple) else [index]
            if not all(_is_int_literal(i) for i in items):
                raise self.fail(
                    e, "index with integers only (x[0], x[1, 2]): an element, a 0-d array"
                )
            at = tuple(ast.literal_eval(i) for i in items)
            return self.add(e, INDEX, operation="[]", args=(base,), value=at)
        raise self.fail(
            e,
            f"{type(e).__name__} is not modelled: give operators, calls of the"
            " array API's functions, .astype(T), .sum(), .mean(), .max(), .T and"
            " x[i]",
        )

    def symbol(self, e: ast.expr, op: ast.AST, known: Mapping[Any, str]) -> str:
        """The vocabulary's symbol of ``op``, or a ``UsageError`` naming what is not modelled
        (``is``, ``in``: Python's own questions of objects, never an array's operation)."""
        found = known.get(type(op))
        if found is not None:
            return found
        what = _UNMODELLED.get(type(op), f"the operator {type(op).__name__} is not modelled")
        raise self.fail(e, what)

    def operator(self, e: ast.expr, symbol: str, operands: Sequence[ast.expr]) -> int:
        args = tuple(self.expression(x) for x in operands)
        values = [self.nodes[a] for a in args]
        if all(v.kind == LITERAL for v in values):  # Python's arithmetic, done here
            return self.add(e, LITERAL, value=self.python(e, symbol, [v.value for v in values]))
        return self.add(e, OPERATION, operation=symbol, args=args)

    def python(self, e: ast.expr, symbol: str, values: Sequence[Any]) -> Any:
        if _too_large(symbol, values):
            raise self.fail(e, "a Python int this large is not modelled")
        try:
            result = _python_operator(symbol)(*values)
        except (ArithmeticError, TypeError, ValueError) as exc:
            raise self.fail(e, f"Python raises {type(exc).__name__}: {exc}") from None
        if isinstance(result, int) and abs(result) > _LARGEST:
            raise self.fail(e, "a Python int this large is not modelled")
        return result

    def call(self, e: ast.Call) -> int:
        if e.keywords:
            raise self.fail(e, "keyword arguments are not modelled")
        f = e.func
        if isinstance(f, ast.Attribute) and f.attr == "astype":
            if len(e.args) != 1:
                raise self.fail(e, "astype takes one dtype: x.astype(float32)")
            base = self.expression(f.value)
            return self.add(
                e, ASTYPE, operation="astype", args=(base,), value=_dtype_text(e.args[0])
            )
        if (
            isinstance(f, ast.Attribute)
            and f.attr in _METHODS
            and _dotted(f.value) not in namespaces()
        ):
            if e.args:
                raise self.fail(e, f".{f.attr}() over every axis is modelled, without arguments")
            base = self.expression(f.value)
            return self.add(e, OPERATION, operation=_METHODS[f.attr], args=(base,), value=f.attr)
        name = _function(f)
        if name is None:
            raise self.fail(
                e,
                "call the array API's functions as sqrt(x), xp.sqrt(x) or"
                " through a framework's namespace (np., jnp., torch., tnp., mx.)",
            )
        from promote_cli.vocabulary import FUNCTIONS, VOCABULARY, takes_one

        if name not in FUNCTIONS:
            raise self.fail(
                e,
                f"{name} is not one of the {len(FUNCTIONS)} operations"
                " promote models (promote ops)",
            )
        args = tuple(self.expression(x) for x in e.args)
        want = 1 if takes_one(VOCABULARY[name]) else 3 if name == "where" else 2
        if len(args) != want:
            raise self.fail(e, f"{name} takes {want} argument{'s' if want > 1 else ''} here")
        return self.add(e, OPERATION, operation=name, args=args)


def _python_operator(symbol: str) -> Callable[..., Any]:
    """Python's own operator ``symbol`` (``+``, ``-x``), by its method in the vocabulary
    (``operator.__add__``): what Python does with two Python scalars before any framework."""
    from promote_cli.vocabulary import VOCABULARY

    python: Callable[..., Any] = getattr(operator, VOCABULARY[symbol].dunder)
    return python


def _too_large(symbol: str, values: Sequence[Any]) -> bool:
    """Whether Python's ``symbol`` on ``values`` would make an int beyond ``_LARGEST`` (checked
    before computing it: ``(2 ** 4096) ** 4096`` is a 16-million-bit number)."""
    if len(values) != 2 or not all(type(v) in (int, bool) for v in values):
        return False
    a, b = (int(v) for v in values)
    if symbol == "**":
        return b > 0 and abs(a) > 1 and abs(a).bit_length() * b > _LARGEST.bit_length()
    if symbol == "<<":
        return b > _LARGEST.bit_length()
    return False


def _is_int_literal(e: ast.expr) -> bool:
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        e = e.operand
    return isinstance(e, ast.Constant) and type(e.value) is int


def _dotted(e: ast.expr) -> str | None:
    """``a.b.c`` as text when it is a chain of names, else None."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        base = _dotted(e.value)
        return None if base is None else f"{base}.{e.attr}"
    return None


def _function(f: ast.expr) -> str | None:
    """The array API name a call's function stands for: ``sqrt``, ``xp.sqrt``, ``np.power``."""
    dotted = _dotted(f)
    if dotted is None:
        return None
    space, _, name = dotted.rpartition(".")
    if space and space not in namespaces():
        return None
    return (namespaces()[space] if space else _spellings()).get(name, name)


def _dtype_text(e: ast.expr) -> str:
    """The canonical dtype ``astype`` is given (``float32``, ``np.float32``, ``'float32'``),
    read once, as the program is parsed."""
    from promote_cli import frameworks
    from promote_cli.notations import read_dtype

    where = f"line {e.lineno}, column {e.col_offset + 1}: "
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        written = e.value
    else:
        dotted = _dotted(e)
        if dotted is None:
            raise UsageError(f"{where}astype takes a dtype: float32, np.float32 or 'float32'")
        written = dotted.rpartition(".")[2]
    try:
        return read_dtype(written, frameworks.notation("canonical"))
    except UsageError as exc:
        raise UsageError(f"{where}{exc}") from None


# The dimensions of a bound array: a 2 x 2 matrix (``x[i]`` is then a row, ``x[i, j]`` an
# element, ``x @ y`` a matrix), or 0-d.
MATRIX = 2


def dimensions(program: Program, bindings: Mapping[str, Operand]) -> list[int | None]:
    """How many dimensions each node's value has (None: a Python scalar), the same under every
    framework; a ``UsageError`` where the shapes make the code raise everywhere (``@`` of a 0-d
    array, too many indices) or where promote does not model them."""
    from promote_cli.vocabulary import AUGMENTED, OPERATOR, REDUCTION, VOCABULARY

    dims: list[int | None] = []
    for node in program.nodes:
        given = [dims[a] for a in node.args]
        arrays = [d for d in given if d is not None]
        where = f"line {node.line}, column {node.column}: "
        if node.kind == NAME:
            x = bindings[node.value]
            d: int | None = None if x.category == PYTHON else 0 if x.category == ZERO_D else MATRIX
        elif node.kind == LITERAL:
            d = None
        elif node.kind == INDEX:
            (base,) = given
            count = len(node.value)
            if base is None or count > base:
                has = "a Python scalar" if base is None else f"an array of {base} dimensions"
                raise UsageError(f"{where}{count} indices into {has}: Python raises")
            if any(not -MATRIX <= i < MATRIX for i in node.value):
                raise UsageError(f"{where}an index out of a bound array's 2 x 2: Python raises")
            d = base - count
        elif node.kind in (ASTYPE, TRANSPOSE):
            if given[0] is None:
                raise UsageError(f"{where}a Python scalar has no {node.operation}")
            d = given[0]
        else:
            op = VOCABULARY[node.operation]
            name = op.like if op.syntax == OPERATOR else op.name.rstrip("=")
            if op.syntax == AUGMENTED:
                name = VOCABULARY[op.like].like
            if op.arity == REDUCTION and name != "cumulative_sum":
                d = 0
            elif name == "cumulative_sum":
                if given[0] != 1:
                    raise UsageError(
                        f"{where}cumulative_sum of an array of {given[0]} dimensions needs an"
                        " axis, which promote does not model: take a row first (x[0])"
                    )
                d = 1
            elif name == "matmul":
                if len(arrays) != 2 or 0 in arrays:
                    raise UsageError(f"{where}@ takes two arrays of 1 or 2 dimensions")
                d = max(0, arrays[0] + arrays[1] - 2)
            else:
                d = max(arrays) if arrays else None
            if op.syntax == AUGMENTED and given[0] is not None and d != given[0]:
                raise UsageError(
                    f"{where}an augmented assignment whose right side has more dimensions than"
                    " its left is not modelled"
                )
        dims.append(d)
    return dims
