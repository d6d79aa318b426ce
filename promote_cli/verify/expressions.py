"""``promote expr`` against the frameworks: a program run for real, node by node, and random
programs to run.

:func:`run` evaluates a parsed program (``promote_cli.program``) on a framework's own
arrays, as the code would run: names bound to arrays of ones (a 2 x 2 matrix, or 0-d),
Python's operators applied to them, the framework's function for each call (the function its
rules name under the setting asked), the array's own method for ``x.sum()`` (AttributeError
where it has none), ``astype``, ``.T`` and indexing. Each node gives a record
(``protocol.Cell``): the dtype of its value, or the refusal or missing kernel it raised; the
nodes after one that raised give none. An oracle provides the framework's few primitives
(:class:`Primitives`); nothing here imports a framework.

:func:`programs` draws random programs, seeded: operators, calls, literals, methods and
in-place updates, nested up to a depth, over the types a policy has.

``promote verify`` and ``promote measure`` ask them as the oracle protocol's EXPRESSION
questions (:func:`questions`: ``PROGRAMS`` per option setting), each answered by :func:`answer`
with a record per node (``protocol.Nodes``) and judged by :func:`judge` against
``promote expr``'s answer, node by node.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from promote_cli import evaluation
from promote_cli.errors import UsageError
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.program import (
    ASTYPE,
    INDEX,
    LITERAL,
    NAME,
    TRANSPOSE,
    Node,
    Program,
    dimensions,
    parse,
)
from promote_cli.record import Record
from promote_cli.verify import SYNTAX, Detect, Refused, answered, is_operator
from promote_cli.verify.protocol import (
    EXPRESSION,
    Cell,
    Nodes,
    Question,
    Refusal,
    Result,
    Unobservable,
)

if TYPE_CHECKING:
    from promote_cli.engine import Policy
    from promote_cli.rules import Operations

# Random programs per option setting, drawn with ``SEED``: what ``promote verify`` runs and
# ``promote measure`` keeps (about 100 KB a setting in a measurement file).
PROGRAMS = 300
SEED = 24
# And as many more programs again that call ``where`` with a condition of any type (a name of
# each type, an integer or float expression, a comparison's bool), drawn apart so that the
# others stay as measured: where a framework raises at a condition that is not bool.
WHERE_PROGRAMS = 40
# A question's operands are bound to these names, in order.
NAMES = ("x", "y", "z")


class Primitives(Protocol):
    """What :func:`run` needs of a framework. A framework of lazy graphs also has
    ``realise(targets, computed, rebuild)``: the program's results read as code uses them, and
    the node a failure is at with its record (None: they realise); see tinygrad's oracle. A
    framework that runs a program inside its compiler under some setting (JAX's ``jit``) has
    ``within(build)``: what ``build()`` returns, built there (the records, the values)."""

    refusals: tuple[type[BaseException], ...]  # the exceptions that are its refusals
    gap: Detect  # which of them is a missing kernel
    # What the values computed raise, whatever the dtypes (the arrays are ones: an expression
    # can make a zero divisor or a negative integer exponent of them): the messages' words. Such
    # a program says nothing about promotion (``Unobservable``).
    value_errors: tuple[str, ...]

    def array(self, dtype: str, ndim: int) -> Any:
        """An array of ones of the canonical ``dtype``, 2 x 2 (``ndim`` 2) or 0-d."""

    def call(self, function: str, args: Sequence[Any]) -> Any:
        """The framework's ``function`` (as its rules name it: ``np.add``) on ``args``."""

    def astype(self, x: Any, dtype: str) -> Any:
        """``x`` cast to the canonical ``dtype``, as code writes it for this framework."""

    def dtype(self, x: Any) -> str:
        """The canonical name of ``x``'s dtype."""

    def configured(self, opts: Mapping[str, Any]) -> AbstractContextManager[Any]:
        """The framework set as the option setting ``opts`` says, while the programs run
        (JAX's x64); a framework without such settings enters nothing."""


def run(
    program: Program,
    bindings: Mapping[str, Operand],
    functions: Mapping[str, str],
    prims: Primitives,
) -> list[Cell | None]:
    """A record per node of ``program`` as the framework computes it (None for a name, a
    literal, and every node after one that raised); ``functions`` names the framework's
    function for each operation called. A framework whose arrays are lazy graphs realised
    when code uses them (``prims.realise``: tinygrad) is then asked to realise the program's
    results: a failure there is the record of the node it names, and the nodes after it
    have none."""
    within = getattr(prims, "within", None)
    if within is not None:
        return within(lambda: _built(program, bindings, functions, prims))[0]
    cells, values = _built(program, bindings, functions, prims)
    realise = getattr(prims, "realise", None)
    if realise is None or any(c is not None and not isinstance(c, Result) for c in cells):
        return cells  # (a node raised as the line was built: nothing is realised)
    targets = [values[n.number] for n in program.nodes if n.number == program.final or n.binds]
    computed = [i for i, c in enumerate(cells) if c is not None]
    failed = realise(targets, computed, lambda: _built(program, bindings, functions, prims)[1])
    if failed is None:
        return cells
    at, cell = failed
    return [*cells[:at], cell, *[None] * (len(cells) - at - 1)]


def _built(
    program: Program,
    bindings: Mapping[str, Operand],
    functions: Mapping[str, str],
    prims: Primitives,
) -> tuple[list[Cell | None], list[Any]]:
    """The records of :func:`run` as each node is built, and each node's value."""
    dims = dimensions(program, bindings)
    values: list[Any] = []
    cells: list[Cell | None] = []
    stopped = False
    for node, d in zip(program.nodes, dims, strict=True):
        if stopped:
            values.append(None)
            cells.append(None)
            continue
        args = [values[a] for a in node.args]
        if node.kind == NAME:
            x = bindings[node.value]
            values.append(
                x.value if x.category == PYTHON else prims.array(x.dtype, 0 if d == 0 else 2)
            )
            cells.append(None)
            continue
        if node.kind == LITERAL:
            values.append(node.value)
            cells.append(None)
            continue
        found: dict[str, Any] = {}

        def ask(
            q: Question, node: Node = node, args: list[Any] = args, found: dict = found
        ) -> str | Cell:
            out = _apply(node, args, functions, prims)
            found["value"] = out
            if node.operation.endswith("=") and is_operator(node.operation):
                return Result(prims.dtype(out), rebound=out is not args[0])
            return prims.dtype(out)

        (cell,) = answered([_QUESTION], ask, prims.refusals, prims.gap)
        if isinstance(cell, Refusal) and any(e in cell.message for e in prims.value_errors):
            cell = Unobservable(f"the values raise: {cell.message}")
        cells.append(cell)
        values.append(found.get("value"))
        stopped = not isinstance(cell, Result)
    return cells, values


# ``answered`` takes questions; a node's is only passed through to the gap detection.
_QUESTION = Question("operation", (Operand("bool"),), operation="expression")


def _apply(node: Node, args: list[Any], functions: Mapping[str, str], prims: Primitives) -> Any:
    if node.kind == ASTYPE:
        return prims.astype(args[0], node.value)  # canonical: read when parsed
    if node.kind == TRANSPOSE:
        return args[0].T
    if node.kind == INDEX:
        return args[0][node.value if len(node.value) > 1 else node.value[0]]
    if is_operator(node.operation):
        return SYNTAX[node.operation](*args)
    if isinstance(node.value, str):  # a method: x.sum()
        method = getattr(args[0], node.value, None)
        if method is None:
            raise Refused(f"AttributeError: {type(args[0]).__name__} has no .{node.value}()")
        return method()
    function = functions.get(node.operation)
    if function is None:  # the framework has none (tinygrad's logical_and): code cannot call it
        raise Refused(f"AttributeError: no function for {node.operation}")
    return prims.call(function, args)


def agrees(step: evaluation.Step, cell: Cell | None, materialise: Callable[[str], str]) -> bool:
    """Whether the model's ``step`` and the framework's ``cell`` for one node agree: the same
    dtype (a weak one as the array it is), or both raising; the nodes after one that raised
    have neither."""
    if cell is None:
        computed = step.node.kind not in (NAME, LITERAL)
        return not computed or (step.operand is None and step.outcome is None)
    if isinstance(cell, Result):
        if step.operand is None:
            return False  # raising (a refusal, or a gap claimed) where the framework ran
        t = step.operand.dtype
        if cell.dtype.endswith("*"):  # a weak type as the framework reports it (tinygrad's)
            return t == cell.dtype
        return (materialise(t) if t.endswith("*") else t) == cell.dtype
    return step.operand is None and step.outcome is not None


# --- the oracle protocol's EXPRESSION questions ------------------------------------------------


def checked(policy: Policy) -> bool:
    """Whether ``promote expr`` answers under ``policy`` (its answers are checked against its
    framework's runs): the policies verify asks programs of."""
    return policy.file is None and policy.name in evaluation.checked()


def questions(
    policy: Policy, rules: Operations, opts: Mapping[str, Any], count: int = PROGRAMS
) -> list[Question]:
    """``count`` random programs under the setting ``opts`` (seeded: the same draw for every
    setting with the same types), and ``WHERE_PROGRAMS`` calling ``where`` after them when
    ``count`` is ``PROGRAMS``: names bound to arrays of the types the policy's operations
    take under it (0-d ones where the policy tells them apart), literals where its operations
    take values; each question carries the framework's function of every operation its
    program calls (``function``: ``name=function`` words)."""
    from promote_cli import frameworks
    from promote_cli.vocabulary import FUNCTIONS

    operands = policy.operands(opts)
    types = sorted({x.dtype for x in operands if x.category != PYTHON})
    if rules.types is not None:  # the types its operations were measured on
        types = [t for t in types if t in rules.types]
    expressions = frameworks.entry(policy.name).expressions
    unrun = expressions.unrun  # the arrays it cannot make
    tensors = expressions.tensors_under(opts)
    if tensors is not None:  # and those its backend's tensors cannot be under opts
        unrun += tensors.unrun
    types = [t for t in types if t not in unrun]
    zero_d = any(x.category == ZERO_D for x in operands)
    under = {
        n: r.function
        for n, r in rules.under(opts).items()
        if n in FUNCTIONS and r.function is not None
    }
    literals = bool(rules.values and not expressions.no_literals)
    drawn = programs(SEED, count, types, zero_d, literals=literals)
    if count == PROGRAMS:
        drawn += where_programs(SEED, WHERE_PROGRAMS, types, zero_d, literals=literals)
    return [
        question(code, tuple(bindings[n] for n in NAMES if n in bindings), under)
        for code, bindings in drawn
    ]


def question(code: str, operands: Sequence[Operand], functions: Mapping[str, Any]) -> Question:
    """The EXPRESSION question of the program ``code`` with its names bound to ``operands``:
    ``functions`` (every operation's function under a setting) names those it calls."""
    called = {
        n.operation: functions[n.operation] for n in parse(code).nodes if n.operation in functions
    }
    words = " ".join(f"{k}={v}" for k, v in called.items())
    return Question(EXPRESSION, tuple(operands), function=words, text=code)


def answered_by(
    orc: Any, handle: Any, opts: Mapping[str, Any], asked: Sequence[Question]
) -> list[Cell]:
    """``orc``'s records for ``asked`` under ``opts`` (``protocol.asking``'s ``answer``): its
    ``answer``, but a batch of programs (EXPRESSION) is run on its ``Primitives`` when it has
    them (an oracle in a worker routes them so in its own process)."""
    prims = getattr(orc, "Primitives", None)
    if prims is not None and asked and asked[0].kind == EXPRESSION:
        made = prims(handle, opts)
        with made.configured(opts):
            return answer(made, asked)
    cells: list[Cell] = orc.answer(handle, opts, asked)
    return cells


def answer(prims: Primitives, asked: Sequence[Question]) -> list[Cell]:
    """Each program run on ``prims``: a record per node (``Nodes``)."""
    import warnings

    out: list[Cell] = []
    for q in asked:
        program = parse(q.text)
        bindings = dict(zip(NAMES, q.operands, strict=False))
        functions = dict(w.split("=", 1) for w in q.function.split())
        with warnings.catch_warnings():  # what the arrays' values warn (a zero divisor ...)
            warnings.simplefilter("ignore")
            out.append(Nodes(tuple(run(program, bindings, functions, prims))))
    return out


class Judged(Record):
    """A program's verdict: the nodes compared, and the first that differs (its text, what
    promote says and what the framework did; "" when all agree); ``skipped`` when its values
    raised (a zero divisor: nothing said about promotion)."""

    nodes: int
    node: str = ""
    promote: str = ""
    framework: str = ""
    skipped: bool = False


def judge(policy: Policy, opts: Mapping[str, Any], q: Question, cell: Cell) -> Judged:
    """``promote expr``'s answer to the program ``q`` against the framework's ``cell``, node by
    node (:func:`agrees`), up to the first that differs or a gap promote claims (a missing
    kernel: the program is not followed further; where the framework ran, it differs)."""
    from promote_cli.verify.protocol import encode

    if not isinstance(cell, Nodes) or any(isinstance(c, Unobservable) for c in cell.cells):
        return Judged(0, skipped=True)
    program = parse(q.text)
    steps = evaluation.evaluate(program, dict(zip(NAMES, q.operands, strict=False)), policy, opts)

    def materialise(t: str) -> str:
        return policy.materialise(t, opts).dtype

    compared = 0
    for step, c in zip(steps, cell.cells, strict=True):
        if step.node.kind in (NAME, LITERAL):
            continue
        if evaluation.unanswered(step):
            break  # a node promote does not answer under this policy: nothing to compare
        compared += 1
        if step.outcome is not None and step.outcome.rule == "no-kernel":
            if isinstance(c, Result):  # a gap claimed where the kernel runs
                return Judged(compared, step.node.text, "raises (no-kernel)", str(encode(c)))
            break  # the gap: the program is not followed further
        if not agrees(step, c, materialise):
            mine = step.operand.dtype if step.operand else "raises"
            if step.operand is None and step.outcome is not None:
                mine = f"raises ({step.outcome.rule})"
            theirs = "nothing" if c is None else str(encode(c))
            return Judged(compared, step.node.text, mine, theirs)
    return Judged(compared)


# --- random programs --------------------------------------------------------------------------

_BINARY = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>")
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_UNARY_CALLS = ("abs", "sqrt", "exp", "negative", "floor", "sign", "square", "logical_not")
_BINARY_CALLS = ("add", "multiply", "divide", "maximum", "equal", "logical_and", "pow", "atan2")
_LITERALS = (0, 1, 2, 3, -1, 127, 200, 300, -129, 2**31, 2**63, 1.5, -0.5, 1e300, True, 1j)


def programs(
    seed: int, count: int, types: Sequence[str], zero_d: bool, depth: int = 4, literals: bool = True
) -> list[tuple[str, dict[str, Operand]]]:
    """``count`` random programs (code and bindings), drawn with ``seed``: two or three names
    bound to arrays of ``types`` (some 0-d where the policy tells them apart), an expression
    nested up to ``depth``, sometimes after an assignment or an in-place update. Each parses
    and has valid shapes (``program.dimensions``)."""
    rng = random.Random(seed)
    out: list[tuple[str, dict[str, Operand]]] = []
    while len(out) < count:
        names = ["x", "y", "z"][: rng.choice((2, 3))]
        bindings = {
            n: Operand(rng.choice(list(types)), ZERO_D if zero_d and rng.random() < 0.2 else "D")
            for n in names
        }
        expression = _expression(rng, names, depth, literals)
        shape = rng.random()
        if shape < 0.15:
            # (not of the name updated: an update from a view of its own array is refused
            # for the aliasing, which promote does not model)
            update = _expression(rng, names[1:], 2, literals)
            code = f"{names[0]} {rng.choice(_BINARY)}= {update}; {expression}"
        elif shape < 0.25:
            first = _expression(rng, names, 2, literals)
            code = f"w = {first}; {_expression(rng, [*names, 'w'], depth, literals)}"
        else:
            code = expression
        try:
            program = parse(code)
            dimensions(program, bindings)
        except UsageError:
            continue
        out.append((code, bindings))
    return out


def where_programs(
    seed: int, count: int, types: Sequence[str], zero_d: bool, literals: bool = True
) -> list[tuple[str, dict[str, Operand]]]:
    """``count`` random programs that call ``where(c, x1, x2)``, drawn with ``seed`` apart from
    :func:`programs`: three names bound to arrays of ``types`` (some 0-d where the policy tells
    them apart); the condition a name of any of them, an expression of them (an integer, a
    float) or a comparison (bool); the values expressions of them; the call alone or inside
    an operation. Each parses and has valid shapes."""
    rng = random.Random(f"where {seed}")
    out: list[tuple[str, dict[str, Operand]]] = []
    while len(out) < count:
        bindings = {
            n: Operand(rng.choice(list(types)), ZERO_D if zero_d and rng.random() < 0.2 else "D")
            for n in NAMES
        }
        pick = rng.random()
        if pick < 0.5:
            condition = rng.choice(NAMES)
        elif pick < 0.8:
            condition = _expression(rng, NAMES, 2, literals)
        else:
            condition = f"({rng.choice(NAMES)} {rng.choice(_COMPARE)} {rng.choice(NAMES)})"
        values = [_expression(rng, NAMES, 2, literals) for _ in range(2)]
        code = f"where({condition}, {values[0]}, {values[1]})"
        if rng.random() < 0.3:
            code = f"({code} {rng.choice(_BINARY)} {rng.choice(NAMES)})"
        try:
            dimensions(parse(code), bindings)
        except UsageError:
            continue
        out.append((code, bindings))
    return out


def _expression(rng: random.Random, names: Sequence[str], depth: int, literals: bool) -> str:
    if depth <= 1 or rng.random() < 0.2:
        return rng.choice(names)
    pick = rng.random()
    inner = _expression(rng, names, depth - 1, literals)
    if pick < 0.35:
        other = (
            repr(rng.choice(_LITERALS))
            if literals and rng.random() < 0.3
            else _expression(rng, names, depth - 1, literals)
        )
        left, right = (inner, other) if rng.random() < 0.7 else (other, inner)
        return f"({left} {rng.choice(_BINARY)} {right})"
    if pick < 0.45:
        return f"({inner} {rng.choice(_COMPARE)} {_expression(rng, names, depth - 1, literals)})"
    if pick < 0.55:
        return f"{rng.choice(('-', '~', '+'))}{inner}"
    if pick < 0.7:
        return f"{rng.choice(_UNARY_CALLS)}({inner})"
    if pick < 0.82:
        other = _expression(rng, names, depth - 1, literals)
        return f"{rng.choice(_BINARY_CALLS)}({inner}, {other})"
    if pick < 0.9:
        return f"{inner}.{rng.choice(('sum()', 'max()', 'mean()', 'T'))}"
    if pick < 0.95:
        return f"{inner}[{rng.choice(('0', '1, 0', '-1'))}]"
    return f"{inner}.astype({rng.choice(('float32', 'int16', 'uint8', 'bool', 'float64'))})"
