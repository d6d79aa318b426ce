"""Operations: the dtype a framework's ``divide``, ``sqrt``, ``sum`` or ``where`` returns.

The promotion table answers one question (the common type of two operands); an operation asks
another: what its output is. Every framework answers it the same way, as PyTorch spells out in
``ELEMENTWISE_TYPE_PROMOTION_KIND``: promote the operands with the policy's own rule (a unary
operation or a reduction promotes its operand with itself), then apply the operation's *kind*
to the promoted type. What differs between frameworks is data:

- the kind of each operation (NumPy's ``mean`` of an int is its default float, JAX's is the
  float of the integer's width), and the per-framework maps a kind reads (``Maps``);
- the types each operation refuses, by the promoted type's kind or name (``sqrt`` of an integer
  in the array API), or by an operand (PyTorch's ``subtract`` refuses any bool operand);
- the types for which a framework has no CPU kernel: the dtype rule answers, the call raises.
  ``promote`` gives the rule's answer and marks the cell ``no-kernel``; ``promote verify``
  counts such a cell as a gap when the framework raises for want of a kernel;
- a few single-type overrides (NumPy's ``square`` of a bool is int8) and operand forms the
  function does not take (``matmul`` of a 0-d array or a Python scalar);
- single cells, where the operands decide rather than their promotion (``Rule.cells``:
  MindSpore's uint16 ``mul`` kernel takes two uint16 tensors, not one and a Python bool).

The vocabulary is the array API standard's function names; each policy declares one ``Rule``
per operation in ``promote_cli/policies/<name>_ops.py``, with the framework's own function name
(or none: the framework lacks it, and the operation is refused saying so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from promote_cli.dtypes import get as dtype
from promote_cli.dtypes import is_weak
from promote_cli.engine import Matrix, Outcome, Policy, ref, refuse
from promote_cli.errors import UsageError, did_you_mean
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, value_text

BINARY, UNARY, REDUCTION, WHERE = "binary", "unary", "reduction", "where"


class Operation(NamedTuple):
    name: str  # the array API's function name
    arity: str  # BINARY, UNARY, REDUCTION or WHERE (a bool condition and two value operands)
    summary: str


def _vocabulary(arity: str, text: str) -> dict[str, Operation]:
    out = {}
    for line in text.strip().splitlines():
        name, _, summary = line.partition(" ")
        out[name] = Operation(name, arity, summary.strip())
    return out


VOCABULARY: Mapping[str, Operation] = {
    **_vocabulary(
        BINARY,
        """
add                 x1 + x2
subtract            x1 - x2
multiply            x1 * x2
divide              true division, x1 / x2
floor_divide        x1 // x2
remainder           x1 % x2
pow                 x1 ** x2
maximum             the larger of x1 and x2
minimum             the smaller of x1 and x2
equal               x1 == x2
less                x1 < x2
logical_and         x1 and x2, as truth values
bitwise_and         x1 & x2
bitwise_left_shift  x1 << x2
atan2               the angle of (x2, x1)
matmul              the matrix product x1 @ x2
""",
    ),
    **_vocabulary(
        UNARY,
        """
negative            -x
abs                 |x|
sqrt                the square root
exp                 e ** x
log                 the natural logarithm
sin                 the sine
floor               rounded down
ceil                rounded up
round               rounded to the nearest integer
sign                -1, 0 or 1
square              x * x
logical_not         not x, as a truth value
bitwise_invert      ~x
real                the real part
imag                the imaginary part
isnan               whether x is NaN
""",
    ),
    **_vocabulary(
        REDUCTION,
        """
sum                 the sum, with default arguments (the default accumulator)
prod                the product, with default arguments
mean                the mean
max                 the largest element
argmax              the index of the largest element
cumulative_sum      the running sum along the first axis
""",
    ),
    **_vocabulary(WHERE, "where  x1 where the condition holds, else x2"),
}


def operation(name: str) -> Operation:
    """The vocabulary entry called ``name``; an unknown name is a usage error with a hint."""
    try:
        return VOCABULARY[name]
    except KeyError:
        hint = did_you_mean(name, VOCABULARY) or " (see `promote ops`)"
        raise UsageError(f"unknown operation {name!r}{hint}") from None


# Kinds: what an operation does to the promoted type, as PyTorch's _prims_common names them.
SAME = "same"  # the promoted type
ALWAYS_BOOL = "always-bool"  # bool
INT_TO_FLOAT = "int-to-float"  # bool/integer -> the framework's float for it (Maps.inexact)
INT_TO_DEFAULT = "int-to-default"  # bool/integer -> the default float (Maps.default_float)
COMPLEX_TO_FLOAT = "complex-to-float"  # complex -> its component float (Maps.real)
ACCUMULATE = "accumulate"  # bool/integer -> the accumulator (Maps.accumulate)
INDEX = "index"  # the index type (Maps.index)
KINDS = {
    SAME: "the promoted type",
    ALWAYS_BOOL: "bool",
    INT_TO_FLOAT: "a bool or integer becomes the framework's float for it",
    INT_TO_DEFAULT: "a bool or integer becomes the default float",
    COMPLEX_TO_FLOAT: "a complex type becomes its component float",
    ACCUMULATE: "a bool or integer sums in the framework's accumulator",
    INDEX: "the framework's index type",
}

# Why a cell is refused (Outcome.rule), and the one answer that is not a refusal but a gap. A
# policy without operations refuses as "no-operations" (``frameworks.operations``).
REFUSES_TYPE, REFUSES_OPERAND, SHAPE, SIGNATURE, ABSENT, SAME_DTYPE = (
    "op-refuses",
    "op-refuses-operand",
    "shape",
    "signature",
    "absent",
    "same-dtype",
)
NO_KERNEL = "no-kernel"  # the dtype rule's answer, but the framework has no CPU kernel for it
ROW = "op"  # the category of a table row that names an operation (see ``row_matrix``)


class Maps(NamedTuple):
    """The per-framework tables the kinds read. Keys are canonical type names or kinds (``bool``,
    ``int``, ``uint``, ``float``, ``complex``); a type name wins over its kind."""

    inexact: Mapping[str, str]  # INT_TO_FLOAT: the float a bool or an integer becomes
    accumulate: Mapping[str, str]  # ACCUMULATE: sum's accumulator for a bool or an integer
    real: Mapping[str, str]  # COMPLEX_TO_FLOAT: complex -> component float
    index: str  # INDEX: argmax's type
    default_float: str  # INT_TO_DEFAULT


def lookup(table: Mapping[str, Any], t: str) -> Any:
    """``table``'s entry for the type ``t``: by its name, else by its kind."""
    if t in table:
        return table[t]
    return table.get(dtype(t).kind)


def matches(keys: Sequence[str], t: str) -> bool:
    return t in keys or dtype(t).kind in keys


# A pair rule other than the policy's own (TensorFlow's tnp arithmetic uses NumPy's).
Pair = Callable[[Operand, Operand, Mapping[str, Any]], Outcome]
# A rule of one framework's own that decides some cells before the promotion (JAX's pow with a
# Python scalar): the outcome, or None to let the declared rule decide.
Special = Callable[[Sequence[Operand], "Operations", Mapping[str, Any]], Outcome | None]


class Rule(NamedTuple):
    """One operation of one framework, as data: its function, its kind, what it refuses."""

    function: str | None  # the framework's own spelling; None: the framework has no such function
    kind: str = SAME
    refuses: tuple[str, ...] = ()  # promoted types (or kinds) the function refuses (a dtype rule)
    no_kernel: tuple[str, ...] = ()  # promoted types (or kinds) with no CPU kernel: a gap
    overrides: Mapping[str, str] = {}  # promoted type -> output where the kind does not hold
    refuses_operand: tuple[str, ...] = ()  # array operand types (or kinds), or P(bool)
    categories: frozenset[str] | None = None  # operand categories taken (None: all)
    pair: Pair | None = None  # the pair rule, when not the policy's own
    pair_name: str = ""  # how an explanation names ``pair``
    same_dtype: bool = False  # no promotion between arrays: two dtypes are refused
    # INT_TO_FLOAT applied to each array operand, then promoted (NumPy's ufunc loop choice);
    # a Python scalar is promoted first, as NEP 50 resolves it before the loop is chosen.
    operandwise: bool = False
    materialise: bool = False  # a weak result comes out as the array it becomes
    special: Special | None = None
    # Cells decided by the operands themselves, not by their promotion (MindSpore's CPU has a
    # uint16 kernel of mul for two uint16 tensors but none for a uint16 tensor and a Python
    # bool): ``cell_key`` -> NO_KERNEL (the rule's answer, a gap) or REFUSES_OPERAND.
    cells: Mapping[str, str] = {}
    note: str = ""  # anything a reader must know: which spelling answers a scalar on the left


class Operations(NamedTuple):
    """A policy's per-operation declarations: the maps (per option setting) and one rule per
    operation of the vocabulary."""

    policy: Policy
    maps: Callable[[Mapping[str, Any]], Maps]
    rules: Mapping[str, Rule]
    source: str  # where the rules come from, and what was measured
    # The types an operation takes, when not every type of the policy's universe: the rest
    # are refused with ``outside`` (PyTorch's 1- to 7-bit shells are storage, not arithmetic).
    types: tuple[str, ...] | None = None
    outside: str = ""
    # When the rules themselves (not only the maps) depend on the options (Keras: one backend
    # computes an output dtype where another defers to its framework): the rules under a
    # setting. ``rules`` (the default setting's) names the functions.
    setting: Callable[[Mapping[str, Any]], Mapping[str, Rule]] | None = None

    def rule(self, name: str) -> Rule:
        return self.rules[operation(name).name]

    def under(self, opts: Mapping[str, Any]) -> Mapping[str, Rule]:
        """The rules under the option setting ``opts``."""
        return self.rules if self.setting is None else self.setting(opts)


_CATEGORY_TEXT = {DIMENSIONED: "an array", ZERO_D: "a 0-d array", PYTHON: "a Python scalar"}


def _apply(kind: str, t: str, maps: Maps) -> str | None:
    """The kind applied to the promoted type ``t`` (None: the map has no entry for it)."""
    if kind == ALWAYS_BOOL:
        return "bool"
    if kind == INDEX:
        return maps.index
    k = dtype(t).kind
    if is_weak(t):  # a Python scalar decided the promotion: the result stays weak
        if kind in (INT_TO_FLOAT, INT_TO_DEFAULT) and k == "int":
            return "float*"
        return "float*" if kind == COMPLEX_TO_FLOAT and k == "complex" else t
    integral = k in ("bool", "int", "uint")
    if kind == INT_TO_FLOAT and integral:
        return lookup(maps.inexact, t)
    if kind == INT_TO_DEFAULT and integral:
        return maps.default_float
    if kind == ACCUMULATE and integral:
        return lookup(maps.accumulate, t)
    if kind == COMPLEX_TO_FLOAT and k == "complex":
        return lookup(maps.real, t)
    return t


def cell_key(operands: Sequence[Operand]) -> str:
    """How ``Rule.cells`` names a cell: ``D(uint16) P(bool)``."""
    return " ".join(f"{x.category}({x.dtype})" for x in operands)


def _operand_text(op: Operand) -> str:
    if op.category == PYTHON:
        return "a Python bool" if op.dtype == "bool" else f"a Python scalar ({ref(op.dtype)})"
    return f"{_CATEGORY_TEXT[op.category]} of {ref(op.dtype)}"


def answer(
    ops: Operations, name: str, operands: Sequence[Operand], opts: Mapping[str, Any]
) -> tuple[Outcome, Outcome | None]:
    """The output of operation ``name`` on ``operands`` (one for a unary operation or a
    reduction, two for a binary one or ``where``'s value operands), and the promotion it
    started from (None when it was refused before promoting)."""
    op = operation(name)
    want = 1 if op.arity in (UNARY, REDUCTION) else 2
    if len(operands) != want:
        raise UsageError(
            f"{name} takes {want} operand{'s' if want > 1 else ''}"
            f"{' (the two values; the condition is a bool array)' if op.arity == WHERE else ''},"
            f" not {len(operands)}"
        )
    policy = ops.policy
    rule = ops.under(opts)[op.name]
    if rule.function is None:
        return refuse(ABSENT, f"{policy.title} has no {name} function ({rule.note})"), None
    for x in operands:
        if x.value is not None:  # measured per operation for types only, never for values
            kind = type(x.value).__name__
            raise UsageError(
                f"{name} is not checked against a Python scalar's value: give {kind} rather"
                f" than {kind}:{value_text(x.value)}"
            )
        if op.arity in (UNARY, REDUCTION) and x.category == PYTHON:
            raise UsageError(f"{name} takes an array, not a Python scalar: give D(t) or S(t)")
        if rule.categories is not None and x.category not in rule.categories:
            why = SHAPE if x.category != PYTHON else SIGNATURE
            return refuse(why, f"{rule.function} does not take {_operand_text(x)}"), None
    for x in operands:
        if ops.types is not None and x.category != PYTHON and x.dtype not in ops.types:
            return refuse(REFUSES_OPERAND, f"{ops.outside} ({ref(x.dtype)})"), None
    for x in operands:
        key = "P(bool)" if x.category == PYTHON and x.dtype == "bool" else x.dtype
        if key in rule.refuses_operand or (
            x.category != PYTHON and matches(rule.refuses_operand, x.dtype)
        ):
            return refuse(REFUSES_OPERAND, f"{rule.function} refuses {_operand_text(x)}"), None
    cell = rule.cells.get(cell_key(operands))
    if cell == REFUSES_OPERAND:
        given = " and ".join(_operand_text(x) for x in operands)
        return refuse(REFUSES_OPERAND, f"{rule.function} refuses {given} (measured)"), None
    a, b = operands[0], operands[-1]
    if rule.special is not None:
        decided = rule.special(operands, ops, opts)
        if decided is not None:
            return decided, None
    pair = rule.pair or policy.promote
    promoted = pair(a, b, opts)
    if promoted.refused:
        return promoted, promoted
    if rule.same_dtype and a.category != PYTHON != b.category and a.dtype != b.dtype:
        return refuse(
            SAME_DTYPE,
            f"{rule.function} does not promote: its operands must have one dtype"
            f" ({ref(a.dtype)} and {ref(b.dtype)} differ)",
        ), promoted
    t: str = promoted.result  # type: ignore[assignment]
    maps = ops.maps(opts)
    if matches(rule.refuses, t):
        return refuse(REFUSES_TYPE, f"{rule.function} does not accept {ref(t)}"), promoted
    if t in rule.overrides:
        out = rule.overrides[t]
        why = f"{rule.function} of {ref(t)} gives {ref(out)} (an exception to its kind)"
    elif rule.operandwise and rule.kind == INT_TO_FLOAT and PYTHON not in (a.category, b.category):
        lifted = [
            Operand(_apply(INT_TO_FLOAT, x.dtype, maps) or x.dtype, x.category) for x in operands
        ]
        out = pair(lifted[0], lifted[1], opts).result  # type: ignore[assignment]
        floats = " and ".join(ref(x.dtype) for x in lifted)
        why = f"{rule.function} lifts each operand to its float ({floats}): {ref(out)}"
    else:
        out = _apply(rule.kind, t, maps)  # type: ignore[assignment]
        if out is None:
            return refuse(
                REFUSES_TYPE, f"{rule.function} has no result type for {ref(t)}"
            ), promoted
        why = f"{ref(t)} -> {ref(out)}: {KINDS[rule.kind]}"
    if rule.materialise and is_weak(out):
        out = policy.materialise(out, opts).dtype
        why += f"; {rule.function} returns it as an array of {ref(out)}"
    if matches(rule.no_kernel, t) or cell == NO_KERNEL:
        given = ref(t) if cell != NO_KERNEL else " and ".join(map(_operand_text, operands))
        return Outcome(
            out,
            NO_KERNEL,
            f"{why}; but {policy.title} has no CPU kernel of {rule.function} for {given}:"
            " the call raises there (a gap, not a promotion rule)",
        ), promoted
    result = Outcome(out, rule.kind, why)
    if is_weak(out):
        result = result._replace(materialised=policy.materialise(out, opts))
    return result, promoted


def takes_one(op: Operation) -> bool:
    """A unary operation or a reduction: one array operand."""
    return op.arity in (UNARY, REDUCTION)


def operands_of(rules: Operations, op: Operation) -> tuple[Operand, ...]:
    """The operands ``op`` is asked about under ``rules``: the policy's, but the types no
    operation takes; a unary operation or a reduction takes arrays only."""
    types = rules.types
    found = tuple(
        x
        for x in rules.policy.operands()
        if types is None or x.category == PYTHON or x.dtype in types
    )
    return tuple(x for x in found if x.category != PYTHON) if takes_one(op) else found


# Group words ``--op`` takes for every one-operand operation of an arity, in vocabulary order.
GROUPS: Mapping[str, str] = {"unary": UNARY, "reductions": REDUCTION}


def named(spec: str) -> tuple[Operation, ...]:
    """The operations ``spec`` names: one name (``divide``), or a comma list of one-operand
    operations and group words (``sqrt,exp,sum``, ``unary``, ``unary,reductions``), each once,
    in the order given. A binary operation or ``where`` in a list is a usage error: a list is
    a table's rows, and a row is one operation applied to one array."""
    words = [w.strip() for w in spec.split(",")]
    if any(not w for w in words):
        raise UsageError(f"--op {spec!r}: an empty name in the list")
    if len(words) == 1 and words[0] not in GROUPS:
        return (operation(words[0]),)
    found: dict[str, Operation] = {}
    for word in words:
        if word in GROUPS:
            found.update((o.name, o) for o in VOCABULARY.values() if o.arity == GROUPS[word])
            continue
        op = operation(word)
        if not takes_one(op):
            raise UsageError(
                f"--op {spec}: {word} takes two operands; a list of operations (one row each)"
                f" takes unary operations and reductions only: ask `--op {word}` on its own"
            )
        found.setdefault(op.name, op)
    return tuple(found.values())


def canonical_spec(spec: str) -> str:
    """``spec`` as the command line that regenerates a table spells it: the words as given,
    stripped, each once."""
    return ",".join(dict.fromkeys(w.strip() for w in spec.split(",")))


class Asked(NamedTuple):
    """The operations a request asks about (``--op``), resolved once: one operation, whose
    output is each answer, or several one-operand operations, one table row each."""

    spec: str  # as ``--op`` spells it, canonically (``sqrt,exp``; a group word as given)
    operations: tuple[Operation, ...]
    rules: Operations  # the policy's declarations

    @property
    def one(self) -> Operation | None:
        """The operation asked, when the request names exactly one (not a list or a group)."""
        if len(self.operations) == 1 and self.spec not in GROUPS:
            return self.operations[0]
        return None

    @property
    def rows(self) -> bool:
        """Whether a table's rows are operations (one-operand ones), not operands."""
        return self.one is None or takes_one(self.operations[0])

    def single(self) -> Operation:
        """The one operation asked; a list answers no single question (a usage error)."""
        if self.one is None:
            raise UsageError(
                f"--op {self.spec} names {len(self.operations)} operations, one row each of"
                " `promote table --op`; ask about one operation at a time"
            )
        return self.one

    def rule(self, op: Operation, opts: Mapping[str, Any]) -> Rule:
        """The rule of ``op`` under the option setting ``opts``."""
        return self.rules.under(opts)[op.name]

    def answer(
        self, operands: Sequence[Operand], opts: Mapping[str, Any], op: Operation | None = None
    ) -> tuple[Outcome, Outcome | None]:
        """The output of ``op`` (default: the one asked) and the promotion it started from."""
        return answer(self.rules, (op or self.single()).name, operands, opts)

    def cell(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """A table cell of the one operation: ``op(a)`` or ``op(a, b)``."""
        op = self.single()
        return self.answer((a,) if takes_one(op) else (a, b), opts, op)[0]

    def operands(self) -> tuple[Operand, ...]:
        """The operands a table of these operations asks about by default."""
        return operands_of(self.rules, self.operations[0])


def row_matrix(
    asked: Asked, cols: Sequence[Operand], opts: Mapping[str, Any], policy: Policy
) -> Matrix:
    """A table of one-operand operations: one row per operation (an ``Operand`` of category
    ``op`` named after it), one column per array operand of ``cols``, each cell the
    operation's output for an array of that type."""
    arrays = tuple(x for x in cols if x.category != PYTHON)
    cells = tuple(tuple(asked.answer((c,), opts, op)[0] for c in arrays) for op in asked.operations)
    heads = tuple(Operand(op.name, ROW) for op in asked.operations)
    return Matrix(policy, opts, heads, arrays, cells)
