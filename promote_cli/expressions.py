"""``promote expr``: what a few lines of array code give, node by node, under each policy.

The code is read with Python's ``ast`` (nothing is executed) into a :class:`Program`: its
nodes in the order Python evaluates them, each an operation of ``promote_cli.vocabulary`` (an
operator, an augmented assignment, a function of the array API called as ``sqrt(x)``,
``xp.sqrt(x)`` or through a framework's own namespace, a reduction method) or one of the few
array manipulations that keep or set the dtype (``.astype(T)``, ``.T``, indexing). Names are
bound to operands (``x=int8``; ``x=S(int8)`` a 0-d array); literals are Python scalars with
their values; arithmetic between Python scalars is Python's own and is done here, as Python
does it before any framework sees the result.

:func:`evaluate` answers a program under one policy and option setting: each node is the
operation's answer for the values its operands hold then (``walk.answer``, the same answer
``promote op`` gives), a refusal or a missing kernel stops the evaluation at the node that
raises. What an operation returns is an array of the answer's dtype: a 0-d array when every
array operand is 0-d (a reduction's result, an element taken by indexing), where the policy
tells 0-d arrays apart, and a dimensioned array otherwise.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from promote_cli.dtypes import is_weak
from promote_cli.engine import DECLINED, Outcome, Policy, ref, refuse
from promote_cli.errors import UsageError
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, Value
from promote_cli.record import Record

if TYPE_CHECKING:
    from promote_cli.framework import Expressions, Tensors
    from promote_cli.rules import Operations

# The rule of a node promote does not answer under a policy (a Python literal's value where
# the policy's operation is not checked against values, a 0-d operand its operation takes as a
# scalar: ``Expressions.scalar_ops``): its column stops there, unanswered.
UNANSWERED = "unanswered"

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

    found: dict[str, dict[str, str]] = {}
    for entry in frameworks.entries():
        for space in entry.expressions.namespaces:
            found.setdefault(space, {}).update(entry.expressions.aliases)
    return found


@cache
def _spellings() -> dict[str, str]:
    """Every framework's spellings at once: what a call without a namespace (``power(x, y)``)
    or through the array API's ``xp`` may be written in."""
    return {k: v for aliases in namespaces().values() for k, v in aliases.items()}


def checked() -> tuple[str, ...]:
    """The policies whose answers have been compared with the framework's own runs of random
    programs (``tests/test_expr.py``); the others compose answers whose intermediates are
    not checked, and are refused."""
    from promote_cli import frameworks

    return tuple(e.name for e in frameworks.entries() if e.expressions.checked)


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
        where = f"line {exc.lineno}, column {exc.offset}: " if exc.lineno else ""
        raise UsageError(f"{where}not Python: {exc.msg}") from None
    except (RecursionError, MemoryError):
        raise UsageError("the code is nested too deeply to read") from None
    return builder.program()


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
            raise self.fail(
                s, f"a {what} statement is not modelled: give expressions and assignments"
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
            return self.operator(e, _BINARY[type(e.op)], [e.left, e.right])
        if isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Not):
                raise self.fail(e, "'not' asks an array for its truth value: use logical_not(x)")
            return self.operator(e, _UNARY[type(e.op)], [e.operand])
        if isinstance(e, ast.Compare):
            if len(e.ops) != 1:
                raise self.fail(
                    e,
                    "a chained comparison is Python's 'and' of two, which asks an"
                    " array for its truth value: compare two at a time",
                )
            return self.operator(e, _COMPARE[type(e.ops[0])], [e.left, e.comparators[0]])
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

    found: Callable[..., Any] = getattr(operator, VOCABULARY[symbol].dunder)
    return found


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


# --- evaluation ---------------------------------------------------------------------------


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


class Step(Record):
    """A node's answer under one policy: the operand it gives (None once the evaluation has
    stopped: at the node that raised, ``outcome`` is the refusal or the missing kernel), and
    the operation's outcome (None for a name, a literal or a node after the stop)."""

    node: Node
    operand: Operand | None
    outcome: Outcome | None = None
    # The refusal the framework makes of this node only when its lazy graph is realised
    # (``Expressions.realised``): until then it builds ``operand`` and the line goes on.
    realised: Outcome | None = None


class _Frame(Record):
    """A policy under one option setting, as ``evaluate`` answers a node with it: its rules,
    its arrays' types, whether it tells 0-d arrays apart, and its ``Expressions``."""

    policy: Policy
    opts: Mapping[str, Any]
    rules: Any  # rules.Operations
    zero_d: str  # ZERO_D where the policy tells 0-d arrays apart, else DIMENSIONED
    types: frozenset[str]
    declared: Expressions

    @classmethod
    def of(cls, policy: Policy, opts: Mapping[str, Any]) -> _Frame:
        zero_d, types, rules, declared = _framed(policy)
        return cls(policy, opts, rules, zero_d, types, declared)


@cache
def _framed(policy: Policy) -> tuple[str, frozenset[str], Any, Expressions]:
    """What a frame reads of ``policy`` whatever the options (once a policy: the random
    programs' offline comparison evaluates thousands)."""
    from promote_cli import frameworks

    operands = policy.operands()
    zero_d = ZERO_D if any(x.category == ZERO_D for x in operands) else DIMENSIONED
    types = frozenset(x.dtype for x in operands if x.category != PYTHON)
    return zero_d, types, frameworks.operations(policy), _declared(policy)


def evaluate(
    program: Program,
    bindings: Mapping[str, Operand],
    policy: Policy,
    opts: Mapping[str, Any],
) -> list[Step]:
    """Every node of ``program`` answered under ``policy`` and ``opts``, with the names bound
    to ``bindings`` (``astype``'s dtype read as the program was parsed). Evaluation stops at the
    first node that raises (its step holds the outcome; the steps after it hold none).

    Where the policy's framework has no array type of its own (``Expressions.tensors``:
    Keras), its functions are its own rules, and the operators, methods, ``astype``, ``.T``
    and indexing of the tensors they return are their backend's (:func:`_tensor_step`)."""
    missing = [n for n in program.reads if n not in bindings]
    if missing:
        raise UsageError(f"{missing[0]} is not bound: give {missing[0]}=TYPE (x=int8, x=S(int8))")
    dims = dimensions(program, bindings)
    own = _Frame.of(policy, opts)
    tensors = _tensors(own)
    values: list[Operand | None] = []
    steps: list[Step] = []
    stopped = False
    for node, d in zip(program.nodes, dims, strict=True):
        if stopped:
            steps.append(Step(node, None))
        elif tensors is not None and (node.kind == NAME or _on_tensor(node)):
            steps.append(_tensor_step(node, values, d, dims, own, tensors, bindings))
        else:
            steps.append(_in(own, node, values, d, dims, bindings))
        values.append(steps[-1].operand)
        stopped = stopped or (steps[-1].operand is None and steps[-1].outcome is not None)
    return _realised(steps)


def _realised(steps: list[Step]) -> list[Step]:
    """``steps`` as the line runs where a node is refused only when its graph is realised
    (``Step.realised``): once the line is built, the first such node raises, and the nodes
    after it give nothing; a node that raises as it is built raises first, and where that
    node is one promote does not answer, whether it raises first is not answered either."""
    deferred = next((i for i, s in enumerate(steps) if s.realised is not None), None)
    if deferred is None:
        return steps
    stop = next((s for s in steps if s.operand is None and s.outcome is not None), None)
    if stop is not None and not unanswered(stop):
        return steps
    when = steps[deferred].realised
    assert when is not None
    if stop is not None:  # whether the line after it raises first is not answered
        when = refuse(
            UNANSWERED,
            f"{when.why}, unless the code after it raises first, where promote does not answer",
        )
    return [
        *steps[:deferred],
        Step(steps[deferred].node, None, when),
        *(Step(s.node, None) for s in steps[deferred + 1 :]),
    ]


def _in(
    frame: _Frame,
    node: Node,
    values: Sequence[Operand | None],
    d: int | None,
    dims: Sequence[int | None],
    bindings: Mapping[str, Operand],
) -> Step:
    """``node`` answered under ``frame``, its operands as its policy sees them (0-d where it
    tells them apart)."""
    given = [_placed(values[a], dims[a], frame.zero_d) for a in node.args]
    category = frame.zero_d if d == 0 else DIMENSIONED
    return _step(node, given, d, dims, category, frame, bindings)


def _placed(x: Operand | None, d: int | None, zero_d: str) -> Operand | None:
    if x is None or x.category == PYTHON:
        return x
    return x._replace(category=zero_d if d == 0 else DIMENSIONED)


class _Backend(Record):
    """A framework's tensors under one setting (``Expressions.tensors``): the declaration, and
    the backend's frame where promote answers them by its rules."""

    declared: Tensors
    frame: _Frame | None


def _tensors(frame: _Frame) -> _Backend | None:
    """Whose tensors ``frame``'s functions return under its setting; None for a framework with
    arrays of its own."""
    from promote_cli import frameworks

    found = frame.declared.tensors_under(frame.opts)
    if found is None:
        return None
    if not found.policy:
        return _Backend(found, None)
    backend = frameworks.get(found.policy)
    return _Backend(found, _Frame.of(backend, backend.resolve_options(dict(found.options))))


def _on_tensor(node: Node) -> bool:
    """Whether ``node`` is the tensor's own (an operator, a method, ``astype``, ``.T``,
    indexing), not a function called through the framework's namespace."""
    from promote_cli.vocabulary import FUNCTION, VOCABULARY

    if node.kind in (ASTYPE, TRANSPOSE, INDEX):
        return True
    if node.kind != OPERATION:
        return False
    return VOCABULARY[node.operation].syntax != FUNCTION or isinstance(node.value, str)


def _tensor_step(
    node: Node,
    values: Sequence[Operand | None],
    d: int | None,
    dims: Sequence[int | None],
    own: _Frame,
    tensors: _Backend,
    bindings: Mapping[str, Operand],
) -> Step:
    """A name, or a tensor's own node, where the framework's functions return the backend's
    tensors: what was measured of those tensors (a type it makes no tensor of, an attribute or
    an operator they lack, two dtypes they refuse to mix), else the backend's rules where they
    hold, else not answered, saying why."""
    from promote_cli.rules import ABSENT, REFUSES_OPERAND, REFUSES_TYPE
    from promote_cli.vocabulary import AUGMENTED, VOCABULARY

    declared, frame = tensors.declared, tensors.frame
    if node.kind == NAME:
        if bindings[node.value].dtype in declared.unrun:
            why = f"{ref(bindings[node.value].dtype)}: {declared.unrun_why}"
            return Step(node, None, refuse(REFUSES_TYPE, why))
        return _in(own, node, values, d, dims, bindings)  # made as the framework makes it
    given = [values[a] for a in node.args]
    if node.kind == ASTYPE and declared.astype:
        return Step(node, None, refuse(ABSENT, declared.astype))
    if node.kind == TRANSPOSE and declared.transpose:
        return Step(node, None, refuse(ABSENT, declared.transpose))
    method = node.kind == OPERATION and isinstance(node.value, str)
    if method and declared.methods is not None and node.value not in declared.methods:
        what = f"the backend's tensors have no .{node.value}() method (AttributeError)"
        return Step(node, None, refuse(ABSENT, what))
    if node.kind == OPERATION and not method:
        op = VOCABULARY[node.operation]
        name = op.like if op.syntax == AUGMENTED else op.name
        if name in declared.absent:
            what = f"the backend's tensors have no {name} operator (TypeError)"
            return Step(node, None, refuse(ABSENT, what))
        arrays = {x.dtype for x in given if x is not None and x.category != PYTHON}
        if name in declared.mixed and len(arrays) == 2:
            return Step(node, None, refuse(REFUSES_OPERAND, declared.mixed_why))
        scalars = [x for x in given if x is not None and x.category == PYTHON]
        if declared.scalars and len(arrays) == 1 and len(given) == 2 and len(scalars) == 1:
            made = _scalar_made(name, given, declared)
            if isinstance(made, Outcome):
                return Step(node, None, made)
            values = list(values)
            for a, x in zip(node.args, made, strict=True):
                values[a] = x
            given = list(made)
        one = len(arrays) == 1 and all(x is not None and x.category != PYTHON for x in given)
        if declared.one_dtype and not one:
            return Step(node, None, refuse(UNANSWERED, declared.operators))
    if frame is None:
        if node.kind == INDEX:  # indexing keeps the dtype on every backend (measured)
            return _in(own, node, values, d, dims, bindings)
        return Step(node, None, refuse(UNANSWERED, declared.operators))
    measured = frame.rules.types
    if (
        node.kind == OPERATION
        and measured is not None
        and any(x is not None and x.category != PYTHON and x.dtype not in measured for x in given)
    ):
        # the backend's rules refuse a type they were not measured on: not its refusal
        why = f"{frame.policy.title}'s {frame.rules.outside}"
        return Step(node, None, refuse(UNANSWERED, why))
    return _in(frame, node, values, d, dims, bindings)


def _scalar_made(
    name: str, given: Sequence[Operand | None], declared: Tensors
) -> list[Operand | None] | Outcome:
    """A binary operator's Python scalar made a tensor of the other operand's dtype, as the
    backend's tensors do it (``Tensors.scalars``): the operands then, or the refusal where the
    scalar is not made one (or not answered, where that was not measured to hold)."""
    from promote_cli.rules import REFUSES_OPERAND

    (tensor,) = [x for x in given if x is not None and x.category != PYTHON]
    (scalar,) = [x for x in given if x is not None and x.category == PYTHON]
    if (name, tensor.dtype) in declared.scalar_unanswered:
        return refuse(UNANSWERED, declared.operators)
    kind = scalar.dtype.rstrip("*")
    fits = tensor.dtype in dict(declared.scalars).get(kind, ())
    value = scalar.value
    if fits and type(value) is int:
        bounds = {t: (lo, hi) for t, lo, hi in declared.int_ranges}
        lo, hi = bounds.get(tensor.dtype, (value, value + 1))
        fits = lo <= value < hi
    if not fits:
        what = f"{kind} {value!r}" if value is not None else kind
        return refuse(
            REFUSES_OPERAND,
            f"{declared.scalars_why}: the Python {what} is not made one of {ref(tensor.dtype)}",
        )
    return [x if x is tensor else tensor for x in given]


def _step(
    node: Node,
    given: list[Operand | None],
    d: int | None,
    dims: Sequence[int | None],
    category: str,
    frame: _Frame,
    bindings: Mapping[str, Operand],
) -> Step:
    """``node`` answered under ``frame``: the operand it gives, or where it raises."""
    from promote_cli.rules import ABSENT, NO_KERNEL, REFUSES_OPERAND, REFUSES_TYPE, SHAPE
    from promote_cli.vocabulary import ALWAYS_BOOL, Kind
    from promote_cli.walk import answer

    policy, opts, declared = frame.policy, frame.opts, frame.declared
    if node.kind == NAME:
        x = bindings[node.value]
        made = x if x.category == PYTHON else Operand(policy.made(x.dtype, opts), category)
        return Step(node, made)
    if node.kind == LITERAL:
        return Step(node, _python(node.value))
    if (
        node.kind == OPERATION
        and node.operation in declared.keeps_0d
        and d == 0 == dims[node.args[0]]
    ):
        (kept,) = given  # a reduction of a 0-d array that returns it as it is
        assert kept is not None
        return Step(
            node,
            kept,
            Outcome(kept.dtype, Kind.SAME.value, "a 0-d array's reduction is the array"),
        )
    if node.operation in declared.scalar_ops and 0 in [dims[a] for a in node.args]:
        # a 0-d operand taken as a scalar, which the policy's rules do not model
        return Step(node, None, refuse(UNANSWERED, declared.scalar_ops_why))
    if node.kind == OPERATION and _lacks(declared, node):
        what = f"{policy.title}'s arrays have no .{node.value}() method (AttributeError)"
        return Step(node, None, refuse(ABSENT, f"{what}: call its function"))
    if node.kind == OPERATION:
        operands = [x for x in given if x is not None]
        if node.operation == "where":  # the condition picks; the two values promote
            operands = operands[1:]
        # A one-operand operation on a weak tensor (TensorFlow's: its rules' Python-scalar
        # operand) answers as on the array of its dtype, and returns a weak tensor of a
        # type it computes (not a bool, not an index).
        weak_in = (
            declared.weak_tensors
            and len(operands) == 1
            and operands[0].category == PYTHON
            and is_weak(operands[0].dtype)
        )
        if weak_in:
            operands = [Operand(operands[0].dtype.removesuffix("*"), category)]
        try:
            outcome, _ = answer(frame.rules, node.operation, operands, opts)
        except UsageError:
            if not any(x.value is not None for x in operands):
                raise
            # promote does not answer this node under this policy: the column stops here
            kind = next(type(x.value).__name__ for x in operands if x.value is not None)
            outcome = refuse(
                UNANSWERED,
                f"{policy.name}'s {node.operation} is not checked against a Python"
                f" {kind}'s value yet: bind the literal to a name of its kind"
                f" ({kind[0]}={kind})",
            )
        built = _built(declared, node, outcome, operands, frame.rules, opts)
        if built is not None and built.refused:  # what it builds raises first (a = a & b)
            outcome, built = built, None
        if built is not None:  # refused only when realised: the line goes on
            later = outcome._replace(why=f"built lazily, refused when realised: {outcome.why}")
            got = _result(node, operands, built, category, policy, opts)
            return Step(node, got, built, realised=later)
        if outcome.refused or outcome.rule == NO_KERNEL:
            return Step(node, None, outcome)
        if _float_inside(declared, node, dims, outcome):
            return Step(node, None, refuse(UNANSWERED, declared.float_inside_why))
        got = _result(node, operands, outcome, category, policy, opts)
        if weak_in and outcome.rule not in (ALWAYS_BOOL.value, Kind.INDEX.value):
            got = Operand(f"{got.dtype}*", PYTHON)
        return Step(node, got, outcome)
    if node.kind == ASTYPE:
        t, source = node.value, given[0]
        complex_to_real = (
            source is not None
            and source.dtype.startswith("complex")
            and not t.startswith("complex")
        )
        if t not in frame.types:
            return Step(
                node,
                None,
                refuse(REFUSES_TYPE, f"{policy.title} has no {t} under these options"),
            )
        if declared.complex_cast and complex_to_real:
            return Step(node, None, refuse(REFUSES_OPERAND, declared.complex_cast))
        return Step(node, Operand(policy.made(t, opts), category))
    if node.kind == TRANSPOSE and declared.transpose and d != MATRIX:
        return Step(node, None, refuse(SHAPE, declared.transpose))
    if node.kind == INDEX and declared.partial_index and d != 0:  # x[0] of a matrix: a row
        return Step(node, None, refuse(SHAPE, declared.partial_index))
    # TRANSPOSE and INDEX keep the dtype (a weak one too)
    (kept,) = given
    assert kept is not None
    if kept.category == PYTHON and is_weak(kept.dtype):
        # a weak tensor stays one under .T; TensorFlow's x[0] of one is a strong tensor
        strong = Operand(kept.dtype.removesuffix("*"), category)
        return Step(node, kept if node.kind == TRANSPOSE else strong)
    return Step(node, Operand(kept.dtype, category))


def _built(
    declared: Expressions,
    node: Node,
    outcome: Outcome,
    operands: Sequence[Operand],
    rules: Operations,
    opts: Mapping[str, Any],
) -> Outcome | None:
    """What ``node`` builds when its refusal ``outcome`` is one the framework makes only when
    the graph is realised (``Expressions.realised``), else None."""
    from promote_cli.vocabulary import Kind
    from promote_cli.walk import answer

    if not outcome.refused:
        return None
    for operation, decided_by, built in declared.realised:
        if operation == node.operation and outcome.decided_by == decided_by:
            if not built:  # the left operand's dtype (1 << t keeps the Python int's)
                return Outcome(operands[0].dtype, Kind.SAME.value, outcome.why)
            return answer(rules, built, operands, opts)[0]
    return None


def _float_inside(
    declared: Expressions, node: Node, dims: Sequence[int | None], outcome: Outcome
) -> bool:
    """Whether ``node`` is an operation of two arrays that the framework computes in float
    inside its lazy graph for a bool or integer answer (``Expressions.float_inside``)."""
    from promote_cli.dtypes import get

    if node.operation not in declared.float_inside or outcome.result is None:
        return False
    arrays = all(dims[a] is not None for a in node.args)
    return arrays and get(outcome.result).kind in ("bool", "int", "uint")


def _lacks(declared: Expressions, node: Node) -> bool:
    """Whether ``node`` calls a method (``x.sum()``) the framework's arrays do not have."""
    methods = declared.methods
    return isinstance(node.value, str) and methods is not None and node.value not in methods


def _declared(policy: Policy) -> Expressions:
    """What ``policy``'s framework declares of its expressions (nothing for a policy promote
    does not register: a policy file)."""
    from promote_cli import frameworks
    from promote_cli.framework import Expressions

    try:
        return frameworks.entry(policy.name).expressions
    except UsageError:
        return Expressions()


def _python(value: Value) -> Operand:
    kind = {bool: "bool", int: "int*", float: "float*", complex: "complex*"}[type(value)]
    return Operand(kind, PYTHON, value)


def _result(
    node: Node,
    operands: Sequence[Operand],
    out: Outcome,
    category: str,
    policy: Policy,
    opts: Mapping[str, Any],
) -> Operand:
    """The array an operation returns: of the answer's dtype and the node's ``category``.
    Where the framework keeps a weak flag on the array (JAX's ``int8_array + 1.0``), an
    operation that returns its promoted type returns it weak, as the chain question carries
    it (``Policy.carried``); another weak answer is the array it becomes."""
    from promote_cli.vocabulary import BINARY, REDUCTION, UNARY, VOCABULARY, Kind

    op = VOCABULARY[node.operation]
    declared = _declared(policy)
    if declared.weak_tensors and out.result is not None and is_weak(out.result):
        return Operand(out.result, PYTHON)  # the weak tensor it returns, as its rules name it
    weak = out.result is not None and is_weak(out.result)
    if declared.weak_arrays and weak and out.result and op.arity != REDUCTION:
        return Operand(out.result, category)  # an array of the weak type (tinygrad's weakint)
    kept = declared.weak_kept and op.arity == UNARY and is_weak(operands[0].dtype)
    if kept and weak and out.result:
        return Operand(out.result, category)  # JAX's weak float64 squared: a weak float64
    if op.arity == BINARY and out.rule == Kind.SAME.value:
        carried = policy.carried(operands[0], operands[-1], out, opts)
        if is_weak(carried.dtype):
            return Operand(carried.dtype, category)
    if (
        out.result is not None
        and weak
        and out.materialised is None
        and any(x.dtype == out.result for x in operands)
    ):
        # it keeps its weakly typed array's type, flag and all (JAX's integer_pow: the weak
        # array ``maximum(y, 1j)`` to the power -3 is weak complex)
        return Operand(out.result, category)
    t = out.materialised.dtype if out.materialised is not None else out.result
    assert t is not None and not is_weak(t)
    return Operand(t, category)


# --- the question, resolved -----------------------------------------------------------------


class Column(Record):
    """One policy under one option setting: a column of ``promote expr``'s table."""

    policy: Policy
    options: Mapping[str, Any]
    changed: tuple[str, ...]  # ``NAME=VALUE`` of each option not at its default

    @property
    def title(self) -> str:
        return " ".join([self.policy.name, *self.changed])


class Question(Record):
    """A program, its names' operands and the columns to answer it in: resolved once
    (``request``), answered by :meth:`answers`."""

    program: Program
    bindings: Mapping[str, Operand]
    columns: tuple[Column, ...]

    def answers(self) -> list[list[Step]]:
        """Each column's steps, node by node."""
        return [evaluate(self.program, self.bindings, c.policy, c.options) for c in self.columns]


# What a table's cell shows where a column has stopped: the node that raised (or that promote
# does not answer under the column's policy), and the nodes after it.
RAISES, STOPPED, UNKNOWN, GAP = "raises", "·", "?", "no kernel"


def shown(step: Step) -> str:
    """A node's cell in a table: its dtype, ``raises``, ``no kernel``, ``?`` where it is not
    answered, or ``·`` after a stop."""
    if step.operand is not None:
        return step.operand.dtype
    if step.outcome is None:
        return STOPPED
    if unanswered(step):
        return UNKNOWN
    return GAP if step.outcome.rule == "no-kernel" else RAISES


class Row(Record):
    """A row of ``promote expr``'s table: a node that computes something (its number), its code
    (an assignment's with its name), each column's cell, and whether the policies part there."""

    number: int
    code: str
    cells: tuple[str, ...]
    parts: bool


def rows(question: Question, answers: Sequence[Sequence[Step]]) -> list[Row]:
    """The table's rows in evaluation order (the terminal's, the docs' directives')."""
    parts = parting(answers)
    out = []
    for i, node in enumerate(question.program.nodes):
        if node.kind in (NAME, LITERAL):
            continue
        text = " ".join(node.text.split())
        if node.binds and not node.operation.endswith("="):
            text = f"{node.binds} = {text}"
        out.append(Row(i, text, tuple(shown(a[i]) for a in answers), i == parts))
    return out


def notes(question: Question, answers: Sequence[Sequence[Step]]) -> list[str]:
    """The sentences under the table: where each column raised and why, then where the
    policies part (or that they agree)."""
    from promote_cli import frameworks

    if not question.program.shown():  # a name or a literal alone: no operation runs
        return ["no node computes: the code names a value and applies no operation to it"]
    nota = frameworks.notation("canonical")
    out = []
    for column, a in zip(question.columns, answers, strict=True):
        stop = next((s for s in a if s.operand is None and s.outcome is not None), None)
        if stop is not None and stop.outcome is not None:
            where = " ".join(stop.node.text.split())
            does = "is not answered" if unanswered(stop) else "raises"
            out.append(f"{column.title} {does} at {where}: {stop.outcome.text(nota)}")
    parts = parting(answers)
    titles = [c.title for c in question.columns]
    if parts is not None:
        node = question.program.nodes[parts]
        said = ", ".join(f"{t} {shown(a[parts])}" for t, a in zip(titles, answers, strict=True))
        out.append(f"> the policies part at {' '.join(node.text.split())}: {said}")
    elif len(titles) > 1 and any(unanswered(s) for a in answers for s in a):
        out.append("the policies agree on every node answered under each")
    elif len(titles) > 1:
        out.append("the policies agree on every node")
    return out


def parting(answers: Sequence[Sequence[Step]]) -> int | None:
    """The index of the first node whose answers differ between the columns (a refusal and a
    dtype differ; two refusals agree), or None when they never part. A column unanswered at
    a node (``UNANSWERED``) takes no part from there on."""
    known = set(range(len(answers)))  # the columns answered so far
    for i, row in enumerate(zip(*answers, strict=True)):
        if row[0].node.kind in (NAME, LITERAL):
            continue
        known -= {k for k, s in enumerate(row) if unanswered(s)}
        if len(known) < 2:
            return None
        seen = {_verdict(row[k]) for k in known}
        if len(seen) > 1:
            return i
    return None


def unanswered(step: Step) -> bool:
    """Whether ``step`` is a node promote does not answer under its column's policy (its own
    refusal here, or a question its rules decline: ``engine.DECLINED``)."""
    return step.outcome is not None and step.outcome.rule in (UNANSWERED, DECLINED)


def _verdict(step: Step) -> tuple[str, str]:
    if step.operand is not None:
        return ("value", step.operand.dtype)
    if step.outcome is not None:
        return ("raises", "")
    return ("stopped", "")
