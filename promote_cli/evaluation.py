"""``promote expr``'s answers: a :class:`Program` evaluated under one policy, node by node.

:func:`evaluate` answers a program under one policy and option setting: each node is the
operation's answer for the values its operands hold then (``walk.answer``, the same answer
``promote op`` gives), a refusal or a missing kernel stops the evaluation at the node that
raises. What an operation returns is an array of the answer's dtype: a 0-d array when every
array operand is 0-d (a reduction's result, an element taken by indexing), where the policy
tells 0-d arrays apart, and a dimensioned array otherwise. A :class:`Question` (a program,
its bindings and the columns to answer it in, resolved by ``api.expr_request``) answers
under each of its columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from promote_cli.dtypes import is_weak
from promote_cli.engine import DECLINED, Outcome, Policy, ref, refuse
from promote_cli.errors import UsageError
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, Value
from promote_cli.program import (
    ASTYPE,
    INDEX,
    LITERAL,
    MATRIX,
    NAME,
    OPERATION,
    TRANSPOSE,
    Node,
    Program,
    dimensions,
)
from promote_cli.record import Record

if TYPE_CHECKING:
    from promote_cli.framework import Condition, Expressions, Tensors
    from promote_cli.rules import Operations

# The rule of a node promote does not answer under a policy (a Python literal's value where
# the policy's operation is not checked against values, a 0-d operand its operation takes as a
# scalar: ``Expressions.scalar_ops``): its column stops there, unanswered.
UNANSWERED = "unanswered"


def checked() -> tuple[str, ...]:
    """The policies whose answers have been compared with the framework's own runs of random
    programs (``tests/commands/test_expr.py``); the others compose answers whose intermediates are
    not checked, and are refused."""
    from promote_cli import frameworks

    return tuple(e.name for e in frameworks.entries() if e.expressions.checked)


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

    tensors = frame.declared.tensors_under(frame.opts)
    if tensors is None:
        return None
    if not tensors.policy:
        return _Backend(tensors, None)
    backend = frameworks.get(tensors.policy)
    return _Backend(tensors, _Frame.of(backend, backend.resolve_options(dict(tensors.options))))


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
            as_tensors = _scalar_as_tensor(name, given, declared)
            if isinstance(as_tensors, Outcome):
                return Step(node, None, as_tensors)
            values = list(values)
            for a, x in zip(node.args, as_tensors, strict=True):
                values[a] = x
            given = list(as_tensors)
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


def _scalar_as_tensor(
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
        array = x if x.category == PYTHON else Operand(policy.made(x.dtype, opts), category)
        return Step(node, array)
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
            refused = _condition_refused(_conditions(declared, opts), operands[0])
            if refused is not None:
                return Step(node, None, refused)
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


def _conditions(declared: Expressions, opts: Mapping[str, Any]) -> Condition:
    """The conditions the framework's ``where`` takes under ``opts``: its backend's where they
    differ (``Tensors.where``: Keras's OpenVINO backend), else its own."""
    tensors = declared.tensors_under(opts)
    if tensors is not None and tensors.where is not None:
        return tensors.where
    return declared.where


def _condition_refused(takes: Condition, condition: Operand) -> Outcome | None:
    """The refusal ``where`` makes of its ``condition`` as the framework measured does
    (``Condition``), before its two values promote; None where it takes it."""
    from promote_cli.rules import REFUSES_OPERAND

    if condition.category == PYTHON:
        kind = {bool: "bool", int: "int", float: "float", complex: "complex"}.get(
            type(condition.value), condition.dtype.rstrip("*")
        )
        if kind in takes.scalars:
            return None
        why = f"{takes.scalar} (the condition is a Python {kind})"
    elif takes.dtypes is not None and condition.dtype not in takes.dtypes:
        why = f"{takes.raises} (the condition is {ref(condition.dtype)})"
    else:
        return None
    return refuse(REFUSES_OPERAND, why)


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
        chained = policy.carried(operands[0], operands[-1], out, opts)
        if is_weak(chained.dtype):
            return Operand(chained.dtype, category)
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


def unanswered(step: Step) -> bool:
    """Whether ``step`` is a node promote does not answer under its column's policy (its own
    refusal here, or a question its rules decline: ``engine.DECLINED``)."""
    return step.outcome is not None and step.outcome.rule in (UNANSWERED, DECLINED)
