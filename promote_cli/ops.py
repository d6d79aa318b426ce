"""Operations: the dtype a framework's ``divide``, ``sqrt``, ``sum`` or ``where`` returns.

The promotion table answers one question (the common type of two operands); an operation asks
another: what its output is. Every framework answers it the same way, as PyTorch spells out in
``ELEMENTWISE_TYPE_PROMOTION_KIND``: promote the operands with the policy's own rule (a unary
operation or a reduction promotes its operand with itself), then apply the operation's *kind*
to the promoted type. What differs between frameworks is data, one ``Rule`` per operation:

- the kind of each operation (NumPy's ``mean`` of an int is its default float, JAX's is the
  float of the integer's width), and the per-framework maps a kind reads (``Maps``);
- the types each operation refuses, by the promoted type's kind or name (``sqrt`` of an integer
  in the array API), or by an operand (PyTorch's ``subtract`` refuses any bool operand);
- the types for which a framework has no CPU kernel: the dtype rule answers, the call raises.
  ``promote`` gives the rule's answer and marks the cell ``no-kernel``; ``promote verify``
  counts such a cell as a gap when the framework raises for want of a kernel;
- a few single-type overrides (NumPy's ``square`` of a bool is int8) and operand forms the
  function does not take (``matmul`` of a 0-d array or a Python scalar);
- single cells, where the operands decide rather than their promotion (``Rule.cells``, keyed
  by the operands themselves: MindSpore's uint16 ``mul`` kernel takes two uint16 tensors, not
  one and a Python bool).

A declaration is data only: strings, tuples, mappings, ``Kind``s. What is a framework's own code
(a pair rule other than its policy's, such as TensorFlow's ``tnp`` calling NumPy's
``result_type``; a special case decided before the promotion, such as JAX's ``lax.integer_pow``)
is a small function in that framework's directory (``pairs.py``: ``PAIRS``; ``specials.py``:
``SPECIALS``), which a rule names by its key; each registry is imported once, on first use.
Declarations that depend on the options (JAX's maps on ``x64``, Keras's rules on its backend)
are data keyed by the option setting (``BySetting``).

``answer`` walks one ordered list of named steps, ``STEPS`` (as OpenVINO's promotion rules
are): each step reads a few fields of the rule and either decides the cell or lets the next one
go on. The outcome says which step decided (``Outcome.decided_by``), and ``promote op
--explain`` names it.

The vocabulary is the array API standard's function names; each framework declares one
``Rule`` per operation in ``promote_cli/frameworks/<name>/operations.py``, with the framework's
own function name (or none: the framework lacks it, and the operation is refused saying so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from functools import cache
from importlib import import_module
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.dtypes import is_weak
from promote_cli.engine import Matrix, Outcome, Policy, ref, refuse, remembered, remembered_as
from promote_cli.errors import UsageError, did_you_mean
from promote_cli.operands import (
    DIMENSIONED,
    NUMPY_SCALAR,
    PYTHON,
    PYTHON_VALUES,
    ZERO_D,
    Operand,
    Value,
    int_value,
    value_text,
)
from promote_cli.record import Record

BINARY, UNARY, REDUCTION, WHERE = "binary", "unary", "reduction", "where"


# How an operation is written: a function call, Python's operator on the framework's arrays
# (``a + b``, ``-a``), or an augmented assignment (``a += b``: the left name afterwards).
FUNCTION, OPERATOR, AUGMENTED = "function", "operator", "augmented"


class Operation(Record):
    name: str  # the array API's function name, or the operator (``+``, ``-x``, ``+=``)
    arity: str  # BINARY, UNARY, REDUCTION or WHERE (a bool condition and two value operands)
    summary: str
    syntax: str = FUNCTION  # FUNCTION, OPERATOR or AUGMENTED
    # An operator: the function of the vocabulary whose rule it follows unless its framework
    # declares otherwise (``Operators.rules``); ``a += b``: the operator it applies (``+``).
    like: str = ""
    dunder: str = ""  # an operator: the method Python calls on the left operand (``__add__``)


def _vocabulary(arity: str, text: str) -> dict[str, Operation]:
    out = {}
    for line in text.strip().splitlines():
        name, _, summary = line.partition(" ")
        out[name] = Operation(name, arity, summary.strip())
    return out


# Binary operators Python has no augmented assignment for (or the issue leaves out: ``@=``,
# which NumPy refuses for any ``a`` that is not square).
_NO_UPDATE = ("@", "==", "!=", "<", "<=", ">", ">=")


def _operators(text: str) -> dict[str, Operation]:
    """Python's operators, one line each: the name (``-x`` for unary minus), the method, the
    function whose rule it follows, and what it computes. Each binary one but ``@`` has its
    augmented form (``+=``) but the comparisons and ``@``, answered as the operator and then
    the update."""
    out = {}
    for line in text.strip().splitlines():
        name, dunder, like, summary = line.split(maxsplit=3)
        arity = UNARY if name.endswith("x") else BINARY
        out[name] = Operation(name, arity, summary, OPERATOR, like, dunder)
        if arity == BINARY and name not in _NO_UPDATE:
            update = f"{name}="
            out[update] = Operation(
                update,
                BINARY,
                f"x1 {update} x2: x1's name afterwards (updated in place, or rebound)",
                AUGMENTED,
                name,
                dunder.replace("__", "__i", 1),
            )
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
    # Python's operators on the framework's arrays; the function named second is the one whose
    # rule an operator follows until its framework's measurements say otherwise.
    **_operators(
        """
+   __add__       add                 x1 + x2
-   __sub__       subtract            x1 - x2
*   __mul__       multiply            x1 * x2
/   __truediv__   divide              x1 / x2
//  __floordiv__  floor_divide        x1 // x2
%   __mod__       remainder           x1 % x2
**  __pow__       pow                 x1 ** x2
@   __matmul__    matmul              x1 @ x2
&   __and__       bitwise_and         x1 & x2
|   __or__        bitwise_and         x1 | x2
^   __xor__       bitwise_and         x1 ^ x2
<<  __lshift__    bitwise_left_shift  x1 << x2
>>  __rshift__    bitwise_left_shift  x1 >> x2
==  __eq__        equal               x1 == x2
!=  __ne__        equal               x1 != x2
<   __lt__        less                x1 < x2
<=  __le__        less                x1 <= x2
>   __gt__        less                x1 > x2
>=  __ge__        less                x1 >= x2
-x  __neg__       negative            -x
+x  __pos__       negative            +x
~x  __invert__    bitwise_invert      ~x
"""
    ),
}
# How a unary operator is also written: ``promote op - int8`` (one operand) is ``-x``.
UNARY_SPELLINGS = {"-": "-x", "+": "+x", "~": "~x"}
# The array API's functions alone (the documentation set has a table and a page for each),
# and Python's operators and augmented assignments.
FUNCTIONS: Mapping[str, Operation] = {n: o for n, o in VOCABULARY.items() if o.syntax == FUNCTION}
OPERATOR_FORMS: Mapping[str, Operation] = {
    n: o for n, o in VOCABULARY.items() if o.syntax != FUNCTION
}


def operation(name: str, operands: int = 0) -> Operation:
    """The vocabulary entry called ``name``; an unknown name is a usage error with a hint.
    Given the number of ``operands``, ``-`` and ``+`` with one are the unary operators, and
    ``~`` is ``~x`` always."""
    if name == "~" or (operands == 1 and name in UNARY_SPELLINGS):
        name = UNARY_SPELLINGS[name]
    try:
        return VOCABULARY[name]
    except KeyError:
        hint = did_you_mean(name, VOCABULARY) or " (see `promote ops`)"
        raise UsageError(f"unknown operation {name!r}{hint}") from None


class Kind(Enum):
    """What an operation does to the promoted type, as PyTorch's ``_prims_common`` names them.
    An ``Outcome`` names its kind by the value (``int-to-float``)."""

    SAME = "same"  # the promoted type
    ALWAYS_BOOL = "always-bool"  # bool
    INT_TO_FLOAT = "int-to-float"  # bool/integer -> the framework's float for it (Maps.inexact)
    INT_TO_DEFAULT = "int-to-default"  # bool/integer -> the default float (Maps.default_float)
    COMPLEX_TO_FLOAT = "complex-to-float"  # complex -> its component float (Maps.real)
    ACCUMULATE = "accumulate"  # bool/integer -> the accumulator (Maps.accumulate)
    INDEX = "index"  # the index type (Maps.index_dtype)


SAME, ALWAYS_BOOL, INT_TO_FLOAT, INT_TO_DEFAULT = (
    Kind.SAME,
    Kind.ALWAYS_BOOL,
    Kind.INT_TO_FLOAT,
    Kind.INT_TO_DEFAULT,
)
COMPLEX_TO_FLOAT, ACCUMULATE, INDEX = Kind.COMPLEX_TO_FLOAT, Kind.ACCUMULATE, Kind.INDEX
KINDS: Mapping[Kind, str] = {
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
UPDATE_REFUSED = "update-refused"  # ``a op= b``: the result cannot be cast back into ``a``
NO_KERNEL = "no-kernel"  # the dtype rule's answer, but the framework has no CPU kernel for it
# A cell of ``Rule.cells`` that reaches a kernel where the promoted type has none (the call
# takes another way: PyTorch's ``1j / float16_tensor`` is ``reciprocal`` then a complex ``mul``)
RUNS = "runs"
ROW = "op"  # the category of a table row that names an operation (see ``row_matrix``)


class Maps(Record):
    """The per-framework tables the kinds read. Keys are canonical type names or kinds (``bool``,
    ``int``, ``uint``, ``float``, ``complex``); a type name wins over its kind."""

    inexact: Mapping[str, str]  # INT_TO_FLOAT: the float a bool or an integer becomes
    accumulate: Mapping[str, str]  # ACCUMULATE: sum's accumulator for a bool or an integer
    real: Mapping[str, str]  # COMPLEX_TO_FLOAT: complex -> component float
    index_dtype: str  # INDEX: argmax's type
    default_float: str  # INT_TO_DEFAULT


def lookup(table: Mapping[str, Any], t: str) -> Any:
    """``table``'s entry for the type ``t``: by its name, else by its kind."""
    if t in table:
        return table[t]
    return table.get(dtype(t).kind)


def matches(keys: Sequence[str], t: str) -> bool:
    """Whether the type ``t`` is among ``keys``, by its name or its kind."""
    return bool(keys) and (t in keys or dtype(t).kind in keys)


def D(t: str) -> Operand:
    """An array of ``t``, as a cell of ``Rule.cells`` names its operand: ``(D("uint16"),
    P("bool"))`` is ``promote op NAME 'D(uint16)' 'P(bool)'``."""
    return Operand(t, DIMENSIONED)


def S(t: str) -> Operand:
    """A 0-d array of ``t`` (see ``D``)."""
    return Operand(t, ZERO_D)


def P(t: str) -> Operand:
    """A Python scalar: ``P("bool")``, ``P("int*")``, ``P("float*")``, ``P("complex*")``."""
    return Operand(t, PYTHON)


# A cell as ``Rule.cells`` keys it: its operands (category and dtype), in the call's order.
Cell = tuple[Operand, ...]


class Rule(Record):
    """One operation of one framework, as data: its function, its kind, what it refuses. The
    comment on each field names the step of ``STEPS`` that reads it."""

    function: str | None  # absent: the framework's own spelling; None: it has no such function
    kind: Kind = SAME  # kind: what the operation makes of the promoted type
    categories: frozenset[str] | None = None  # takes: operand categories taken (None: all)
    # refuses-operand: array operand types (or kinds) refused, and Python scalars (``P("bool")``)
    refuses_operand: tuple[str | Operand, ...] = ()
    # cells, no-kernel: cells decided by the operands themselves, not by their promotion
    # (MindSpore's CPU has a uint16 kernel of mul for two uint16 tensors but none for a uint16
    # tensor and a Python bool): REFUSES_OPERAND (a refusal), NO_KERNEL (a gap) or RUNS (a
    # kernel is reached although the promoted type is in ``no_kernel``).
    cells: Mapping[Cell, str] = {}
    special: str = ""  # special: a key of the framework's SPECIALS, deciding some cells first
    pair: str = ""  # promote: a key of the framework's PAIRS ("": the policy's own promotion)
    same_dtype: bool = False  # same-dtype: no promotion between arrays: two dtypes are refused
    refuses: tuple[str, ...] = ()  # refuses: promoted types (or kinds) the function refuses
    # override: promoted type -> output where the kind does not hold: a type, or another kind
    # applied instead (Keras's ``int64`` -> ``INT_TO_DEFAULT``: floatx, whatever it is set to)
    overrides: Mapping[str, str | Kind] = {}
    # operandwise: INT_TO_FLOAT applied to each array operand, then promoted (NumPy's ufunc
    # loop choice); a Python scalar is promoted first, as NEP 50 resolves it before the loop.
    operandwise: bool = False
    materialise: bool = False  # materialise: a weak result comes out as the array it becomes
    # value: how a Python scalar's value is checked against the other operand (CHECKED, as the
    # framework's ``+`` converts it; ANY_VALUE, not at all; INT64_VALUE, as an int64), then
    # ``value_special`` (a key of the framework's SPECIALS, given the valued operands) where the
    # operation does something of its own with some values (NumPy's negative integer powers)
    value: str = "checked"
    value_special: str = ""
    no_kernel: tuple[str, ...] = ()  # no-kernel: promoted types (or kinds) with no CPU kernel
    # no-kernel: by promoted type (or kind) of ``no_kernel``, the operands' categories, in the
    # call's order, where it has no kernel (a type not listed: all): PyTorch's float8 ``mul``
    # has a kernel unless its second operand is one number, a 0-d tensor or a Python scalar
    # (which ``1 * t``, ``t.__rmul__(1)``, passes second too); its bcomplex32 ``mul`` has none
    no_kernel_categories: Mapping[str, frozenset[tuple[str, ...]]] = {}
    no_kernel_operand: tuple[str, ...] = ()  # no-kernel: array operand types with no kernel
    # no-kernel: promoted types whose kernel takes two arrays of that very type only (no cast
    # is inserted to reach it, 0-d or not): any other operands promoting to one are a gap
    no_kernel_mixed: tuple[str, ...] = ()
    # no-kernel: promotions, by the rule that made them (``Outcome.rule`` of the pair), that
    # reach no kernel (MindSpore's comparisons of two types it does not convert)
    no_kernel_promotions: tuple[str, ...] = ()
    # no-kernel: the sides ("left", "right") on which a Python int or float beside an array is
    # taken by a scalar kernel instead, which has every type but ``no_scalar_kernel``'s (Paddle's
    # scale: ``float16_tensor + 1`` runs where ``float16_tensor + float16_tensor`` has no kernel)
    scalar_kernel: tuple[str, ...] = ()
    no_scalar_kernel: tuple[str, ...] = ()
    # no-kernel: Python scalar values, by side ("left", "right"), with which the call returns
    # before any kernel: no gap there (PyTorch's pow fills for an exponent of 0 or a base of 1
    # and copies for an exponent of 1). A bool matches a bool only (PyTorch's ``True ** t``
    # reaches the kernel); a Python scalar given no value is ``PYTHON_VALUES``'s (1 for an int)
    skips_kernel: Mapping[str, tuple[Value, ...]] = {}
    # no-kernel: of those values, by side, the ones that fill the result (PyTorch's pow: an
    # exponent of 0, a base of 1; an exponent of 1 copies), and the promoted types that have no
    # fill kernel for a dimensioned result (torch 2.14's bcomplex32, "fill_cpu" not
    # implemented): such a fill reaches that missing kernel, and ``no_kernel`` decides
    fills: Mapping[str, tuple[Value, ...]] = {}
    no_fill: tuple[str, ...] = ()
    note: str = ""  # anything a reader must know: which spelling answers a scalar on the left


# A promotion of a framework's own (its ``pairs.py``), and a special case (its ``specials.py``):
# the outcome, or None to let the declared rule decide.
PairFunction = Callable[[Operand, Operand, Mapping[str, Any]], Outcome]
SpecialFunction = Callable[[Sequence[Operand], Mapping[str, Any]], "Outcome | None"]


class Pair(Record):
    """A pair rule of a framework's own, in its ``PAIRS`` under the key ``Rule.pair`` names
    (the function's own name)."""

    promote: PairFunction
    text: str  # how ``--explain`` names it: "np.result_type", "the array's own dtype"


class BySetting(Record):
    """Declarations that depend on the options, as data: the maps and the rules under each
    setting of ``options`` (keyed by their values, in that order). A mapping left empty is the
    same under every setting (``Operations.maps`` or ``Operations.rules``)."""

    options: tuple[str, ...]
    maps: Mapping[tuple[Any, ...], Maps] = {}
    rules: Mapping[tuple[Any, ...], Mapping[str, Rule]] = {}
    # The types the operations are asked about under each setting, where a setting's universe
    # adds some (torch 2.14's bcomplex32); empty: ``Operations.types`` of the default operands.
    types: Mapping[tuple[Any, ...], tuple[str, ...]] = {}

    def key(self, opts: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(map(opts.__getitem__, self.options))


# How ``a op= b`` lands on the name ``a`` (``Updates.how``).
REBINDS = "rebinds"  # Python binds the name to the operator's result, a new array
IN_PLACE = "in-place"  # the result is written back into ``a``'s array, cast to its dtype
SAME_ONLY = "same-only"  # in place, only when the result is ``a``'s dtype (array API, tinygrad)
REPLACES = "replaces"  # ``a``'s array object takes the result, its dtype changing (MLX)


class Updates(Record):
    """How a framework's augmented assignment (``a += b``) lands (``how``):

    - REBINDS: the name is bound to the operator's result, a new array (immutable arrays:
      JAX, TensorFlow);
    - IN_PLACE: the result is cast back into the left array (NumPy, PyTorch) when its kind
      ranks no higher than the array's: ``ranks`` lists the kinds (``bool``, ``uint``,
      ``int``, ``float``, ``complex``) from the lowest, a group per rank; a result of a higher
      rank is refused (``int8 += float32``);
    - SAME_ONLY: in place only when the result's dtype is the array's, no cast (the array API
      standard: an in-place operator never changes ``a``'s dtype; tinygrad's ``assign``); any
      other is refused;
    - REPLACES: the array object itself takes the result, dtype and all (MLX: every other
      name for that array sees the new dtype).

    A Python scalar on the left is always rebound (Python's ``x = x + a``), as is an operator
    the array type has no in-place method for (``rebinds``); an update in place of a 0-d array
    by a larger one is refused (the shape does not fit)."""

    how: str  # REBINDS, IN_PLACE, SAME_ONLY or REPLACES
    ranks: tuple[tuple[str, ...], ...] = ()  # IN_PLACE: the kinds from the lowest rank
    says: str = ""  # IN_PLACE: how the framework names the check ("casting rule 'same_kind'")
    # Augmented operators that refuse a left array of these types or kinds, whatever the
    # result (MLX's ``/=`` of an integer array: "In place division cannot cast to
    # non-floating point type").
    refuses_left: Mapping[str, tuple[str, ...]] = {}
    # In place: the augmented operators the array type has no in-place method for (``%=``
    # without ``__imod__``): Python falls back to ``a = a % b`` and rebinds the name.
    rebinds: tuple[str, ...] = ()


_NO_UPDATES = Updates(REBINDS)


class Operators(Record):
    """A framework's operators (``a + b``, ``-a``, ``a += b``) as data: the array type whose
    methods they are, how its augmented assignment lands, and the operators whose rule is not
    the one of the function they follow (``Operation.like``): measured differences only."""

    array: str  # how explanations name the array type: ``np.ndarray``, ``torch.Tensor``
    updates: Updates
    rules: Mapping[str, Rule] = {}  # an operator's own rule, where it is not its function's
    # Operators the array type has no reflected method for (``__rand__``): a Python scalar on
    # the left raises TypeError (MLX's ``1 & a``), in the augmented form too.
    unreflected: tuple[str, ...] = ()
    note: str = ""

    def sentences(self) -> list[str]:
        """What ``promote ops --policy`` says of them, a sentence each."""
        u = self.updates
        how = {
            REBINDS: "binds the name to the result, a new array",
            IN_PLACE: "writes the result back into a's array, in its dtype, unless its kind"
            f" ranks higher ({u.says})",
            SAME_ONLY: f"updates a's array in place when the result is a's dtype ({u.says})",
            REPLACES: "gives a's array object the result, dtype and all",
        }[u.how]
        out = [f"operators: the methods of {self.array}; a += b {how}"]
        out += [
            f"{name} refuses a left array of {', '.join(kinds)}"
            for name, kinds in u.refuses_left.items()
        ]
        if u.rebinds:
            listed = " ".join(u.rebinds)
            out.append(f"{listed}: no in-place method, so Python rebinds the name (a = a op b)")
        if self.unreflected:
            listed = " ".join(self.unreflected)
            out.append(f"no reflected method for {listed}: a Python scalar on the left raises")
        return out


def with_operators(rules: Mapping[str, Rule], operators: Operators | None) -> dict[str, Rule]:
    """``rules`` (one per function of the vocabulary) with a rule for each operator: its own
    (``Operators.rules``), else its function's under the operator's name
    (``np.ndarray.__add__``); ``a += b`` follows ``a + b``'s. Without ``operators`` every
    operator is absent (Keras: its functions take the backend's tensors, whose operators are
    the backend's)."""
    out = dict(rules)
    for op in VOCABULARY.values():
        if op.syntax == FUNCTION:
            continue
        if operators is None:
            out[op.name] = Rule(
                None,
                note="it has no array type of its own: its functions take and return the"
                " backend's arrays, whose operators are the backend's (promote expr -p keras"
                " answers them on each backend)",
            )
            continue
        own = operators.rules.get(op.name)
        if own is not None:
            out[op.name] = own
            continue
        operator = op if op.syntax == OPERATOR else VOCABULARY[op.like]
        found = operators.rules.get(operator.name) or rules[operator.like]
        # A rebinding update runs the operator itself (Python's a = a + b): name its method.
        updates = operators.updates
        rebinds = updates.how == REBINDS or op.name in updates.rebinds
        dunder = operator.dunder if rebinds else op.dunder
        function = f"{operators.array}.{dunder}" if found.function is not None else None
        out[op.name] = found._replace(function=function)
    return out


class Operations(Record):
    """A policy's per-operation declarations: the maps, one rule per operation of the
    vocabulary, and what depends on the options (``by_setting``); data only."""

    policy: Policy
    maps: Maps  # the default setting's (or every setting's) maps
    rules: Mapping[str, Rule]  # the default setting's (or every setting's); names the functions
    source: str  # where the rules come from, and what was measured
    # The types an operation takes, when not every type of the policy's universe: the rest
    # are refused with ``outside`` (PyTorch's 1- to 7-bit shells are storage, not arithmetic).
    types: tuple[str, ...] | None = None
    outside: str = ""
    by_setting: BySetting | None = None
    # The pair a unary operation or a reduction starts from, when not the policy's promotion of
    # the operand with itself: a key of PAIRS (Keras: the array's own dtype, as stored).
    one_operand_pair: str = ""
    # Python's operators on the framework's arrays, and how its augmented assignment lands
    # (None: the framework has no array type of its own, and every operator is absent).
    operators: Operators | None = None
    # Every binary operation, operator and augmented assignment takes a Python scalar's value
    # (``int:300``): its answer for the types, unless its rule's value check refuses the value
    # (step ``value``: ``Rule.value``, ``Rule.value_special``); measured
    # (``Asks.operation_values``). Without it (a framework whose operations were measured for
    # types only), a value in an operation is a usage error: a question not measured.
    values: bool = False
    # The settings (keys of ``by_setting``) under which a Python scalar's value takes part in
    # the promotion itself (NumPy 1.26's value-based casting: ``uint8_array * 300`` is
    # uint16): every step sees the value, not the value step alone.
    values_promote: tuple[tuple[Any, ...], ...] = ()
    # The operations (functions; their operators and updates follow) asked about 0-d arrays,
    # when a 0-d array changes only their answers (JAX: eagerly, ``jnp.power`` takes a 0-d
    # integer exponent as a Python int); None: every operation, as the policy's categories say.
    zero_d: tuple[str, ...] | None = None

    def takes_zero_d(self, op: Operation) -> bool:
        """Whether ``op`` is asked about 0-d arrays (``zero_d``)."""
        if self.zero_d is None:
            return True
        while op.syntax != FUNCTION:  # a += b follows a + b, which follows add
            op = VOCABULARY[op.like]
        return op.name in self.zero_d

    def setting(self, opts: Mapping[str, Any]) -> tuple[Mapping[str, Rule], Maps, bool]:
        """The rules and the maps under the option setting ``opts``, and whether a Python
        scalar's value takes part in the promotion there (``values_promote``): the setting
        looked up once."""
        by = self.by_setting
        if by is None:
            return self.rules, self.maps, False
        key = by.key(opts)
        return (
            by.rules[key] if by.rules else self.rules,
            by.maps[key] if by.maps else self.maps,
            key in self.values_promote,
        )

    def rule(self, name: str) -> Rule:
        return self.rules[operation(name).name]

    def operands(self, opts: Mapping[str, Any] | None = None) -> tuple[Operand, ...]:
        """The operands the operations are asked about under ``opts`` (None: the default
        options): the policy's under the default options, but the types no operation takes;
        under a setting whose types ``by_setting`` declares, that setting's operands of those
        types."""
        by, types, opts_asked = self.by_setting, self.types, None
        if opts is not None and by is not None and by.types:
            types, opts_asked = by.types[by.key(opts)], opts
        return tuple(
            x
            for x in self.policy.operands(opts_asked)
            if types is None or x.category == PYTHON or x.dtype in types
        )

    @property
    def updates(self) -> Updates:
        """How ``a += b`` lands (a framework without operators answers none)."""
        return self.operators.updates if self.operators is not None else _NO_UPDATES

    def under(self, opts: Mapping[str, Any]) -> Mapping[str, Rule]:
        """The rules under the option setting ``opts``."""
        return self.setting(opts)[0]

    def maps_under(self, opts: Mapping[str, Any]) -> Maps:
        """The maps under the option setting ``opts``."""
        return self.setting(opts)[1]

    def pair_of(self, rule: Rule, op: Operation) -> Pair | None:
        """The pair rule ``rule`` names for ``op`` (None: the policy's own promotion)."""
        name = rule.pair or (self.one_operand_pair if takes_one(op) else "")
        return pairs(self.policy.package)[name] if name else None

    def promotion_text(self, rule: Rule, op: Operation) -> str:
        """How ``--explain`` names the promotion ``op`` starts from under ``rule``."""
        found = self.pair_of(rule, op)
        return found.text if found is not None else f"{self.policy.name}'s promotion"


@cache
def pairs(package: str) -> Mapping[str, Pair]:
    """The pair rules of the framework in ``package`` (``PAIRS`` of its ``pairs.py``, if it has
    one), as its rules name them; imported once."""
    found: Mapping[str, Pair] = _registry(f"{package}.pairs", "PAIRS")
    return found


@cache
def specials(package: str) -> Mapping[str, SpecialFunction]:
    """The special cases of the framework in ``package`` (``SPECIALS`` of its ``specials.py``,
    if it has one), as its rules name them; imported once."""
    found: Mapping[str, SpecialFunction] = _registry(f"{package}.specials", "SPECIALS")
    return found


def _registry(module: str, attribute: str) -> Mapping[str, Any]:
    try:
        found = import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:  # the module exists but something it imports does not
            raise
        return {}
    registry: Mapping[str, Any] = getattr(found, attribute)
    return registry


_CATEGORY_TEXT = {
    DIMENSIONED: "an array",
    ZERO_D: "a 0-d array",
    PYTHON: "a Python scalar",
    NUMPY_SCALAR: "a NumPy scalar",
}


def _apply(kind: Kind, t: str, maps: Maps) -> str | None:
    """The kind applied to the promoted type ``t`` (None: the map has no entry for it)."""
    if kind == ALWAYS_BOOL:
        return "bool"
    if kind == INDEX:
        return maps.index_dtype
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


def operand_key(key: str | Operand) -> str:
    """How ``Rule.refuses_operand``'s key is written: an array type or kind as it is, a Python
    scalar as ``P(bool)``."""
    return key if isinstance(key, str) else f"{key.category}({key.dtype})"


def cell_key(operands: Sequence[Operand]) -> str:
    """How an oracle's worker names a cell in the answers it sends back: ``D(uint16) P(bool)``."""
    return " ".join(f"{x.category}({x.dtype})" for x in operands)


def _operand_text(op: Operand) -> str:
    if op.category == PYTHON:
        return "a Python bool" if op.dtype == "bool" else f"a Python scalar ({ref(op.dtype)})"
    return f"{_CATEGORY_TEXT[op.category]} of {ref(op.dtype)}"


def _operands_text(operands: Sequence[Operand]) -> str:
    return " and ".join(map(_operand_text, operands))


# Where a cell is asked: the operations, the option setting, the operation's rule and the maps
# under that setting, and the operation (``answer`` looks the setting up once).
_At = tuple["Operations", Mapping[str, Any], "Rule", "Maps", "Operation"]


class _Cell:
    """One answer in the making: what the steps read, and what the earlier ones found."""

    __slots__ = (
        "a",
        "b",
        "by",
        "cell",
        "maps",
        "op",
        "operands",
        "ops",
        "opts",
        "out",
        "pair",
        "promoted",
        "rule",
        "t",
        "valued",
        "values",
        "why",
    )

    def __init__(
        self, at: _At, valued: tuple[Operand, ...], operands: tuple[Operand, ...], values: bool
    ) -> None:
        self.ops, self.opts, self.rule, self.maps, self.op = at
        # The steps see ``operands``: the types alone (a Python scalar's value is seen by the
        # value step, in ``valued``), or the values too where every step sees them
        # (``Operations.values_promote``). ``values``: a value for the value step.
        self.valued, self.operands, self.values = valued, operands, values
        self.a, self.b = operands[0], operands[-1]
        self.cell: str | None = None  # the verdict ``Rule.cells`` gives these operands
        self.pair: PairFunction = self.ops.policy.promote
        self.promoted: Outcome | None = None
        self.t = ""  # the promoted type
        self.out: str | None = None  # the output, once a step has decided it
        self.why = ""
        self.by = ""  # the step that decided the output


def _absent(c: _Cell) -> Outcome | None:
    if c.rule.function is None:
        what = "function" if c.op.syntax == FUNCTION else "operator"
        title = c.ops.policy.title
        return refuse(ABSENT, f"{title} has no {c.op.name} {what} ({c.rule.note})")
    return None


def _values_taken(c: _Cell) -> None:
    """``UsageError`` for a Python scalar's value the operation does not check."""
    for x in c.valued:
        if x.value is not None and not (c.ops.values and c.op.arity == BINARY):
            kind = type(x.value).__name__
            raise UsageError(
                f"{c.op.name} is not checked against a Python scalar's value: give {kind}"
                f" rather than {kind}:{value_text(x.value)}"
            )


def _takes(c: _Cell) -> Outcome | None:
    name, rule = c.op.name, c.rule
    if c.values:
        _values_taken(c)
    one, categories = takes_one(c.op), rule.categories
    for x in c.operands:
        if one and x.category == PYTHON:
            raise UsageError(f"{name} takes an array, not a Python scalar: give D(t) or S(t)")
        if categories is not None and x.category not in categories:
            why = SHAPE if x.category != PYTHON else SIGNATURE
            return refuse(why, f"{rule.function} does not take {_operand_text(x)}")
    return None


def _reflected(c: _Cell) -> Outcome | None:
    op, operators = c.op, c.ops.operators
    if op.syntax == FUNCTION or operators is None or c.a.category != PYTHON:
        return None
    operator = op if op.syntax == OPERATOR else VOCABULARY[op.like]
    if operator.name not in operators.unreflected:
        return None
    reflected = operator.dunder.replace("__", "__r", 1)
    return refuse(
        SIGNATURE,
        f"{operators.array} has no {reflected}: Python raises TypeError for {_operand_text(c.a)}"
        f" on the left of {operator.name}",
    )


def _outside(c: _Cell) -> Outcome | None:
    types = c.ops.types
    for x in c.operands:
        if types is not None and x.category != PYTHON and x.dtype not in types:
            return refuse(REFUSES_OPERAND, f"{c.ops.outside} ({ref(x.dtype)})")
    return None


def _refuses_operand(c: _Cell) -> Outcome | None:
    refused = c.rule.refuses_operand
    if not refused:
        return None
    arrays = [t for t in refused if isinstance(t, str)]
    for x in c.operands:
        if x in refused if x.category == PYTHON else matches(arrays, x.dtype):
            return refuse(REFUSES_OPERAND, f"{c.rule.function} refuses {_operand_text(x)}")
    return None


def _cells(c: _Cell) -> Outcome | None:
    if not c.rule.cells:
        return None
    operands = c.operands
    if c.values and operands is c.valued:  # every step sees the values: key by the types
        operands = tuple(x.typed() for x in operands)
    c.cell = c.rule.cells.get(tuple(operands))
    if c.cell == REFUSES_OPERAND:
        given = _operands_text(c.operands)
        return refuse(REFUSES_OPERAND, f"{c.rule.function} refuses {given} (measured)")
    return None


def _special(c: _Cell) -> Outcome | None:
    if not c.rule.special:
        return None
    found = specials(c.ops.policy.package)[c.rule.special](c.operands, c.opts)
    # A special answers for the types; a value the operation refuses is still refused (JAX's
    # integer power takes an int8 base, not with a negative Python int exponent).
    if found is not None and not found.refused:
        return _value(c) or found
    return found


def _promote(c: _Cell) -> Outcome | None:
    found = c.ops.pair_of(c.rule, c.op)
    if found is not None:
        # the framework's own pair takes the policy's operands only (Policy.promote refuses
        # the rest itself): a type or category outside it is refused as promote refuses it (a
        # weakly typed array, which Keras's expressions meet on JAX, is the pair's to answer;
        # a Python scalar's weak type is the policy's to refuse, as in ``promote pair``)
        for x in (c.a, c.b):
            array = x.category != PYTHON
            outside = None if array and is_weak(x.dtype) else c.ops.policy.normalise(x, c.opts)
            if isinstance(outside, Outcome):
                return outside
        c.pair = found.promote
        c.promoted = remembered(c.pair, c.a, c.b, c.opts)
    else:  # Policy.promote, which keeps its own answers
        c.promoted = c.pair(c.a, c.b, c.opts)
    if c.promoted.refused:
        return c.promoted
    c.t = c.promoted.result  # type: ignore[assignment]
    return None


# How an operation checks a Python scalar's value (``Rule.value``).
CHECKED = "checked"  # as the framework's ``+`` converts it (``Policy.check_value``)
ANY_VALUE = "any"  # not at all: any value is taken (NumPy's ``uint8_array == 300``)
INT64_VALUE = "int64"  # any int that fits int64, whatever the other operand (a C long)


def value_refused(
    policy: Policy, operands: Sequence[Operand], opts: Mapping[str, Any]
) -> Outcome | None:
    """What the framework's ``+`` on ``operands`` (``Policy.chain``: its operator, then
    ``check_value``) refuses for a Python scalar's value and not for the types alone (None:
    nothing): how CHECKED checks a value, and what a value special may ask."""
    given = policy.chain(operands, opts)
    bare = [x.typed() for x in operands]
    if given.refused and not policy.chain(bare, opts).refused:
        return given._replace(steps=())
    return None


def _value(c: _Cell) -> Outcome | None:
    if not c.values:  # no Python scalar's value
        return None
    rule, policy = c.rule, c.ops.policy
    if rule.value == CHECKED:
        found = value_refused(policy, c.valued, c.opts)
        if found is not None:
            return found
    if rule.value == INT64_VALUE:
        for scalar in c.valued:
            value = int_value(scalar)
            if value is not None and not -(2**63) <= value < 2**63:
                return refuse(
                    "value",
                    f"{rule.function} takes a Python int as an int64 (a C long), which"
                    f" {value_text(value)}"
                    f" does not fit: {policy.title} raises",
                )
    if rule.value_special:
        return specials(policy.package)[rule.value_special](c.valued, c.opts)
    return None


def _same_dtype(c: _Cell) -> Outcome | None:
    a, b = c.a, c.b
    if c.rule.same_dtype and a.category != PYTHON != b.category and a.dtype != b.dtype:
        return refuse(
            SAME_DTYPE,
            f"{c.rule.function} does not promote: its operands must have one dtype"
            f" ({ref(a.dtype)} and {ref(b.dtype)} differ)",
        )
    return None


def _refuses(c: _Cell) -> Outcome | None:
    if matches(c.rule.refuses, c.t):
        return refuse(REFUSES_TYPE, f"{c.rule.function} does not accept {ref(c.t)}")
    return None


def _override(c: _Cell) -> Outcome | None:
    given = c.rule.overrides.get(c.t)
    if c.out is not None or given is None:
        return None
    out = _apply(given, c.t, c.maps) if isinstance(given, Kind) else given
    if out is None:
        return _no_result(c)
    c.out, c.by = out, "override"
    c.why = f"{c.rule.function} of {ref(c.t)} gives {ref(out)} (an exception to its kind)"
    return None


def _operandwise(c: _Cell) -> Outcome | None:
    rule = c.rule
    if c.out is not None or not rule.operandwise or rule.kind != INT_TO_FLOAT:
        return None
    if PYTHON in (c.a.category, c.b.category):
        return None
    maps = c.maps
    lifted = [
        Operand(_apply(INT_TO_FLOAT, x.dtype, maps) or x.dtype, x.category) for x in c.operands
    ]
    c.out = c.pair(lifted[0], lifted[1], c.opts).result
    floats = " and ".join(ref(x.dtype) for x in lifted)
    c.why = f"{rule.function} lifts each operand to its float ({floats}): {ref(c.out)}"  # type: ignore[arg-type]
    c.by = "operandwise"
    return None


def _kind(c: _Cell) -> Outcome | None:
    if c.out is not None:
        return None
    out = _apply(c.rule.kind, c.t, c.maps)
    if out is None:
        return _no_result(c)
    c.out, c.by = out, "kind"
    c.why = f"{ref(c.t)} -> {ref(out)}: {KINDS[c.rule.kind]}"
    return None


def _no_result(c: _Cell) -> Outcome:
    return refuse(REFUSES_TYPE, f"{c.rule.function} has no result type for {ref(c.t)}")


def _materialise(c: _Cell) -> Outcome | None:
    if c.rule.materialise and c.out is not None and is_weak(c.out):
        c.out = c.ops.policy.materialise(c.out, c.opts).dtype
        c.why += f"; {c.rule.function} returns it as an array of {ref(c.out)}"
    return None


def _any_array_of(types: Sequence[str], operands: Sequence[Operand]) -> bool:
    return any(x.category != PYTHON and matches(types, x.dtype) for x in operands)


def _no_kernel(c: _Cell) -> Outcome | None:
    rule, a, b, t = c.rule, c.a, c.b, c.t
    if _scalar_kernel(c) or c.cell == RUNS or _skips_kernel(c):
        return None
    alone = PYTHON not in (a.category, b.category) and a.dtype == b.dtype == t
    by_operands = (
        c.cell == NO_KERNEL
        or (t in rule.no_kernel_mixed and not alone)
        or (c.promoted is not None and c.promoted.rule in rule.no_kernel_promotions)
        or (bool(rule.no_kernel_operand) and _any_array_of(rule.no_kernel_operand, c.operands))
    )
    forms = lookup(rule.no_kernel_categories, t)
    by_type = matches(rule.no_kernel, t) and (
        forms is None or tuple(x.category for x in c.operands) in forms
    )
    if not by_operands and not by_type:
        return None
    given = _operands_text(c.operands) if by_operands else ref(t)
    return Outcome(
        c.out,
        NO_KERNEL,
        f"{c.why}; but {c.ops.policy.title} has no CPU kernel of {rule.function} for {given}:"
        " the call raises there (a gap, not a promotion rule)",
    )


# The Python scalars a scalar kernel takes (``Rule.scalar_kernel``): a bool is made a tensor.
_SCALAR_KERNEL_TAKES = ("int*", "float*")


def _scalar_kernel(c: _Cell) -> bool:
    """Whether a Python int or float on a side of ``Rule.scalar_kernel``, beside an array, is
    taken by a scalar kernel that has the promoted type."""
    sides = c.rule.scalar_kernel
    if not sides or len(c.operands) != 2 or matches(c.rule.no_scalar_kernel, c.t):
        return False
    a, b = c.operands
    return any(
        side in sides
        and x.category == PYTHON
        and x.dtype in _SCALAR_KERNEL_TAKES
        and other.category != PYTHON
        for side, x, other in (("left", a, b), ("right", b, a))
    )


def _skips_kernel(c: _Cell) -> bool:
    """Whether a Python scalar's value (``PYTHON_VALUES``' without one) on a side of
    ``Rule.skips_kernel`` returns before any kernel; the reason is added to the cell's why."""
    skips = c.rule.skips_kernel
    if not skips or len(c.valued) != 2:
        return False
    for side, x in zip(("left", "right"), c.valued, strict=True):
        if x.category != PYTHON or side not in skips:
            continue
        value = PYTHON_VALUES[x.dtype] if x.value is None else x.value
        if _among(value, skips[side]) and not _unfilled(c, side, value):
            given = "" if x.value is not None else f" ({_operand_text(x)} given no value)"
            c.why += (
                f"; {value!r} on the {side}{given} returns before any kernel: no gap (other"
                " values reach the kernel)"
            )
            return True
    return False


def _among(value: Value, values: Sequence[Value]) -> bool:
    """Whether ``value`` is one of ``values`` (a bool only as a bool)."""
    return any(value == v and isinstance(value, bool) == isinstance(v, bool) for v in values)


def _unfilled(c: _Cell, side: str, value: Value) -> bool:
    """Whether ``value`` on ``side`` fills a dimensioned result of a type with no fill kernel
    (``Rule.fills``, ``Rule.no_fill``)."""
    dimensioned = any(x.category == DIMENSIONED for x in c.valued)
    return (
        dimensioned and matches(c.rule.no_fill, c.t) and _among(value, c.rule.fills.get(side, ()))
    )


class Step(Record):
    """One step of ``answer``: its name (``Outcome.decided_by``, ``--explain``), what it looks
    at, the check itself (the outcome that decides the cell, or None to go on), and whether it
    can decide or change anything for a rule (``applies``: the operations, the rule, the
    operation, and whether a Python scalar's value is seen); a step that cannot is left out of
    that rule's walk (``walk_of``), as its check would return None at once."""

    name: str
    says: str
    check: Callable[[_Cell], Outcome | None]
    applies: Callable[[Operations, Rule, Operation, bool], bool] = lambda ops, r, op, v: True


# The order in which a rule's fields apply: the first step that returns an outcome decides.
# ``override``, ``operandwise`` and ``kind`` each may set the output (the first that applies);
# ``materialise`` and ``no-kernel`` then look at it; a cell no step decided is the output.
STEPS: tuple[Step, ...] = (
    Step(
        "absent",
        "the framework has no such function (Rule.function is None)",
        _absent,
        lambda ops, rule, op, values: rule.function is None,
    ),
    Step(
        "takes",
        "an operand form the function does not take (Rule.categories)",
        _takes,
        lambda ops, rule, op, values: values or takes_one(op) or rule.categories is not None,
    ),
    Step(
        "reflected",
        "a Python scalar left of an operator the array does not reflect (Operators.unreflected)",
        _reflected,
        lambda ops, rule, op, values: op.syntax != FUNCTION and ops.operators is not None,
    ),
    Step(
        "outside",
        "a type no operation takes (Operations.types)",
        _outside,
        lambda ops, rule, op, values: ops.types is not None,
    ),
    Step(
        "refuses-operand",
        "an operand the function refuses (Rule.refuses_operand)",
        _refuses_operand,
        lambda ops, rule, op, values: bool(rule.refuses_operand),
    ),
    Step(
        "cells",
        "a cell refused for its operands themselves (Rule.cells)",
        _cells,
        lambda ops, rule, op, values: bool(rule.cells),
    ),
    Step(
        "special",
        "a case of the framework's own, before promoting (Rule.special)",
        _special,
        lambda ops, rule, op, values: bool(rule.special),
    ),
    Step("promote", "the promotion (the policy's, or Rule.pair): its refusal", _promote),
    Step(
        "same-dtype",
        "two arrays of different dtypes, where nothing promotes",
        _same_dtype,
        lambda ops, rule, op, values: rule.same_dtype,
    ),
    Step(
        "refuses",
        "a promoted type the function refuses (Rule.refuses)",
        _refuses,
        lambda ops, rule, op, values: bool(rule.refuses),
    ),
    Step(
        "value",
        "a Python scalar's value the operation refuses (Rule.value_special, Rule.value)",
        _value,
        lambda ops, rule, op, values: values,
    ),
    Step(
        "override",
        "a promoted type whose output is not its kind's (Rule.overrides)",
        _override,
        lambda ops, rule, op, values: bool(rule.overrides),
    ),
    Step(
        "operandwise",
        "each operand lifted to its float, then promoted",
        _operandwise,
        lambda ops, rule, op, values: rule.operandwise and rule.kind == INT_TO_FLOAT,
    ),
    Step("kind", "the operation's kind applied to the promoted type (Rule.kind, Maps)", _kind),
    Step(
        "materialise",
        "a weak result returned as the array it becomes",
        _materialise,
        lambda ops, rule, op, values: rule.materialise,
    ),
    Step("no-kernel", "the dtype rule's answer, but no CPU kernel runs it: a gap", _no_kernel),
)
# Not a step of the walk: ``a op= b`` lands the operator's outcome on ``a`` (``_update``).
UPDATE_STEP = Step(
    "update",
    "the operator's result landed on the left name: rebound, or cast back into the array in"
    " place (Operators.updates)",
    lambda c: None,
)
STEP = {s.name: s for s in (*STEPS, UPDATE_STEP)}


def answer(
    ops: Operations, name: str, operands: Sequence[Operand], opts: Mapping[str, Any]
) -> tuple[Outcome, Outcome | None]:
    """The output of operation ``name`` on ``operands`` (one for a unary operation or a
    reduction, two for a binary one or ``where``'s value operands), and the promotion it
    started from (None when it was refused before promoting): the first of ``STEPS`` to
    decide, named in the outcome's ``decided_by``."""
    op = operation(name, len(operands))
    want = 1 if op.arity in (UNARY, REDUCTION) else 2
    if len(operands) != want:
        raise UsageError(
            f"{name} takes {want} operand{'s' if want > 1 else ''}"
            f"{' (the two values; the condition is a bool array)' if op.arity == WHERE else ''},"
            f" not {len(operands)}"
        )
    rules, maps, values_promote = ops.setting(opts)
    rule = rules[op.name]
    at = (ops, opts, rule, maps, op)  # where the cell is: what every step of its walk reads
    given = tuple(operands)
    # one operand or two (checked above): the first and the last are all of them
    if given[0].value is None and given[-1].value is None:
        out, promoted = _walk(at, given, given, False)
    elif values_promote:  # every step sees the values
        out, promoted = _walk(at, given, given, True)
    else:
        out, promoted = _walk_valued(at, given)
    if op.syntax == AUGMENTED:
        out = _update(ops, op, operands, out, rule)
    return out, promoted


def _walk(
    at: _At, valued: tuple[Operand, ...], operands: tuple[Operand, ...], values: bool
) -> tuple[Outcome, Outcome | None]:
    """The steps of the rule's walk (``walk_of``) in order on one cell (``operands``, their
    values in ``valued``; ``values``: a value for the value step): the first that decides
    it, else the output found."""
    ops, opts, rule, _, op = at
    cell = _Cell(at, valued, operands, values)
    for name, _, check, _ in walk_of(ops, rule, op, values):
        decided = check(cell)
        if decided is not None:
            return decided._replace(decided_by=name), cell.promoted
    out = cell.out
    materialised = ops.policy.materialise(out, opts) if out is not None and is_weak(out) else None
    return Outcome(out, rule.kind.value, cell.why, None, materialised, (), cell.by), cell.promoted


def walk_of(ops: Operations, rule: Rule, op: Operation, values: bool) -> tuple[Step, ...]:
    """The steps of ``STEPS`` that ``rule`` walks for ``op``: those that can decide or change
    a cell of it (``Step.applies``), in their order. Kept while ``remembering`` runs (the
    operations and the rule are kept with it, so their ids name them alone)."""
    return remembered_as(
        ("walk of", id(ops), id(rule), op.name, values),
        lambda: (ops, rule, tuple(s for s in STEPS if s.applies(ops, rule, op, values))),
    )[2]


@cache
def _before_value(steps: tuple[Step, ...]) -> tuple[frozenset[str], Step]:
    """The steps before ``value``, which see the operands' types alone (one that decides a
    cell decides it whatever a Python scalar's value; ``special`` aside: its answer is still
    value-checked), and the value step."""
    at = [s.name for s in steps].index("value")
    return frozenset(s.name for s in steps[:at]), steps[at]


def _walk_valued(at: _At, valued: tuple[Operand, ...]) -> tuple[Outcome, Outcome | None]:
    """``_walk`` on a cell with a Python scalar's value, which only the value step sees: the
    walk of its types (kept while ``remembering`` runs, so the cells of one type and many
    values walk once), then the value step where that walk went past it."""
    ops, opts, rule, _, op = at
    bare = tuple(x.typed() for x in valued)
    if rule.skips_kernel:  # the value decides whether a kernel is reached: walked with it
        return _walk(at, valued, bare, True)
    cell = _Cell(at, valued, bare, True)
    if rule.function is not None:  # else refused by the first step, ``absent``
        _values_taken(cell)  # the second step's first check, ``takes``
    # ``ops`` is kept in the answer: alive as long as the memory is, its id names it alone.
    _, out, promoted = remembered_as(
        ("walk", id(ops), op, bare, *opts.items()),
        lambda: (ops, *_walk(at, bare, bare, False)),
    )
    blind, value = _before_value(STEPS)
    by = out.decided_by
    if by in blind and (by != "special" or out.refused):
        return out, promoted
    found = value.check(cell)
    if found is None:
        return out, promoted
    return found._replace(decided_by="special" if by == "special" else "value"), promoted


def _update(
    ops: Operations, op: Operation, operands: Sequence[Operand], out: Outcome, rule: Rule
) -> Outcome:
    """``a op= b``: the operator's outcome ``out``, landed on the name ``a`` as the framework's
    ``Updates`` say: rebound to it (also where the array type has no in-place method for
    ``op``), or cast back into ``a``'s array (refused when its kind ranks above ``a``'s, or,
    SAME_ONLY, when it is not ``a``'s dtype; or when ``a`` is 0-d and the result is not)."""
    left, right = operands
    if out.refused:
        return out
    updates = ops.updates
    # A kernel gap stays one, decided by its step: the call raises whatever the update does.
    gap = out.rule == NO_KERNEL
    fallback = op.name in updates.rebinds
    if updates.how == REBINDS or left.category == PYTHON or fallback:
        who = "Python" if left.category == PYTHON or fallback else ops.policy.title
        lacking = ""
        if fallback and ops.operators is not None and left.category != PYTHON:
            lacking = f" ({ops.operators.array} has no {op.dunder})"
        return out._replace(
            rule=out.rule if gap else REBINDS,
            why=f"{out.why}; {who} binds the name to the result, a new array{lacking}",
            decided_by=out.decided_by if gap else UPDATE_STEP.name,
        )
    result = out.materialised.dtype if out.materialised is not None else out.result
    assert result is not None
    if matches(updates.refuses_left.get(op.name, ()), left.dtype):
        return refuse(
            UPDATE_REFUSED, f"{rule.function} refuses {_operand_text(left)} on its left"
        )._replace(decided_by=UPDATE_STEP.name)
    if updates.how == REPLACES:
        return out._replace(
            result=result,
            rule=out.rule if gap else REPLACES,
            why=f"{out.why}; the {ref(left.dtype)} array object takes the result, dtype and"
            " all (every name for it sees the change)",
            materialised=None,
            decided_by=out.decided_by if gap else UPDATE_STEP.name,
        )
    if left.category == ZERO_D and right.category == DIMENSIONED:
        return refuse(
            SHAPE,
            f"{rule.function} writes the result back into the 0-d array, which cannot hold"
            " the shape of the array on the right",
        )._replace(decided_by=UPDATE_STEP.name)
    if (
        result != left.dtype
        if updates.how == SAME_ONLY
        else _rank(updates, result) > _rank(updates, left.dtype)
    ):
        return refuse(
            UPDATE_REFUSED,
            f"{rule.function} cannot write its {ref(result)} result into the"
            f" {ref(left.dtype)} array ({updates.says})",
        )._replace(decided_by=UPDATE_STEP.name)
    return out._replace(
        result=left.dtype,
        rule=out.rule if gap else IN_PLACE,
        why=f"{out.why}; written back into the {ref(left.dtype)} array, in place",
        materialised=None,
        decided_by=out.decided_by if gap else UPDATE_STEP.name,
    )


def _rank(updates: Updates, t: str) -> int:
    kind = dtype(t).kind
    return next(i for i, group in enumerate(updates.ranks) if kind in group)


def takes_one(op: Operation) -> bool:
    """A unary operation or a reduction: one array operand."""
    return op.arity in (UNARY, REDUCTION)


def operands_of(
    rules: Operations, op: Operation, opts: Mapping[str, Any] | None = None
) -> tuple[Operand, ...]:
    """The operands ``op`` is asked about under ``rules`` and ``opts`` (``Operations.operands``);
    a unary operation or a reduction takes arrays only."""
    found = rules.operands(opts)
    return tuple(x for x in found if x.category != PYTHON) if takes_one(op) else found


# Group words ``--op`` takes for every one-operand operation of an arity, in vocabulary order.
GROUPS: Mapping[str, str] = {"unary": UNARY, "reductions": REDUCTION}


def named(spec: str, operands: int = 0) -> tuple[Operation, ...]:
    """The operations ``spec`` names: one name (``divide``; ``-`` with one of ``operands`` is
    unary minus), or a comma list of one-operand operations and group words (``sqrt,exp,sum``,
    ``unary``, ``unary,reductions``), each once, in the order given. A binary operation or
    ``where`` in a list is a usage error: a list is a table's rows, and a row is one
    operation applied to one array."""
    words = [w.strip() for w in spec.split(",")]
    if any(not w for w in words):
        raise UsageError(f"--op {spec!r}: an empty name in the list")
    if len(words) == 1 and words[0] not in GROUPS:
        return (operation(words[0], operands),)
    found: dict[str, Operation] = {}
    for word in words:
        if word in GROUPS:
            found.update((o.name, o) for o in FUNCTIONS.values() if o.arity == GROUPS[word])
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


class Asked(Record):
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
        """The operands a table of these operations asks about by default (0-d arrays where
        one of them tells them apart: ``Operations.zero_d``)."""
        found = operands_of(self.rules, self.operations[0])
        if any(self.rules.takes_zero_d(op) for op in self.operations):
            return found
        return tuple(x for x in found if x.category != ZERO_D)


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
