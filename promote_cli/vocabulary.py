"""The vocabulary of operations: what ``promote op``, ``promote ops`` and ``promote expr`` can
ask, and the kinds an operation applies to the promoted type.

The functions are the array API standard's names (a block per arity: ``BINARY``, ``UNARY``,
``REDUCTION``, ``WHERE``); Python's operators on a framework's arrays (``a + b``, ``-a``) and
their augmented assignments (``a += b``) follow a function's rule unless a framework declares
otherwise. A *kind* (``Kind``, as PyTorch's ``ELEMENTWISE_TYPE_PROMOTION_KIND`` names them) is
what an operation makes of the promoted type; each framework says how it applies the kinds
(``rules.Maps``). This module knows no framework and no rule: the declarations (``rules``)
and the walk that answers a cell (``steps``, ``walk``) are above it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from promote_cli.errors import UsageError, did_you_mean
from promote_cli.record import Record

BINARY, UNARY, REDUCTION, WHERE = "binary", "unary", "reduction", "where"


# How an operation is written: a function call, Python's operator on the framework's arrays
# (``a + b``, ``-a``), or an augmented assignment (``a += b``: the left name afterwards).
FUNCTION, OPERATOR, AUGMENTED = "function", "operator", "augmented"


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


class Operation(Record):
    name: str  # the array API's function name, or the operator (``+``, ``-x``, ``+=``)
    arity: str  # BINARY, UNARY, REDUCTION or WHERE (a bool condition and two value operands)
    summary: str
    syntax: str = FUNCTION  # FUNCTION, OPERATOR or AUGMENTED
    # An operator: the function of the vocabulary whose rule it follows unless its framework
    # declares otherwise (``Operators.rules``); ``a += b``: the operator it applies (``+``).
    like: str = ""
    dunder: str = ""  # an operator: the method Python calls on the left operand (``__add__``)
    # What it makes of the promoted type, unless a framework's rule says otherwise
    # (``Rule.kind``); an operator's and its update's are the kind of the function it follows.
    kind: Kind = Kind.SAME


def _vocabulary(arity: str, text: str) -> dict[str, Operation]:
    """The functions of one arity, one line each: the name, its kind (``Kind``'s value), and
    what it computes."""
    out = {}
    for line in text.strip().splitlines():
        name, kind, summary = line.split(maxsplit=2)
        out[name] = Operation(name, arity, summary, kind=Kind(kind))
    return out


# Binary operators without an augmented form here: the comparisons, which Python has none for,
# and ``@=``, which NumPy refuses for any ``a`` that is not square.
_NO_UPDATE = ("@", "==", "!=", "<", "<=", ">", ">=")


def _operators(functions: Mapping[str, Operation], text: str) -> dict[str, Operation]:
    """Python's operators, one line each: the name (``-x`` for unary minus), the method, the
    function whose rule it follows, and what it computes. Each binary operator but ``@`` and
    the comparisons also has its augmented form (``+=``), answered as the operator and then
    the update."""
    out = {}
    for line in text.strip().splitlines():
        name, dunder, like, summary = line.split(maxsplit=3)
        arity = UNARY if name.endswith("x") else BINARY
        kind = functions[like].kind
        out[name] = Operation(name, arity, summary, OPERATOR, like, dunder, kind)
        if arity == BINARY and name not in _NO_UPDATE:
            update = f"{name}="
            out[update] = Operation(
                update,
                BINARY,
                f"x1 {update} x2: x1's name afterwards (updated in place, or rebound)",
                AUGMENTED,
                name,
                dunder.replace("__", "__i", 1),
                kind,
            )
    return out


# The array API's functions: a block per arity, a line per function (its name, its kind, and
# what it computes).
_FUNCTIONS: Mapping[str, Operation] = {
    **_vocabulary(
        BINARY,
        """
add                 same              x1 + x2
subtract            same              x1 - x2
multiply            same              x1 * x2
divide              int-to-float      true division, x1 / x2
floor_divide        same              x1 // x2
remainder           same              x1 % x2
pow                 same              x1 ** x2
maximum             same              the larger of x1 and x2
minimum             same              the smaller of x1 and x2
equal               always-bool       x1 == x2
less                always-bool       x1 < x2
logical_and         always-bool       x1 and x2, as truth values
bitwise_and         same              x1 & x2
bitwise_left_shift  same              x1 << x2
atan2               int-to-float      the angle of (x2, x1)
matmul              same              the matrix product x1 @ x2
""",
    ),
    **_vocabulary(
        UNARY,
        """
negative            same              -x
abs                 complex-to-float  |x|
sqrt                int-to-float      the square root
exp                 int-to-float      e ** x
log                 int-to-float      the natural logarithm
sin                 int-to-float      the sine
floor               same              rounded down
ceil                same              rounded up
round               same              rounded to the nearest integer
sign                same              -1, 0 or 1
square              same              x * x
logical_not         always-bool       not x, as a truth value
bitwise_invert      same              ~x
real                complex-to-float  the real part
imag                complex-to-float  the imaginary part
isnan               always-bool       whether x is NaN
""",
    ),
    **_vocabulary(
        REDUCTION,
        """
sum                 accumulate        the sum, with default arguments (the default accumulator)
prod                accumulate        the product, with default arguments
mean                int-to-float      the mean
max                 same              the largest element
argmax              index             the index of the largest element
cumulative_sum      accumulate        the running sum along the first axis
""",
    ),
    **_vocabulary(WHERE, "where  same  x1 where the condition holds, else x2"),
}
VOCABULARY: Mapping[str, Operation] = {
    **_FUNCTIONS,
    # Python's operators on the framework's arrays; the function named second is the one whose
    # rule an operator follows until its framework's measurements say otherwise.
    **_operators(
        _FUNCTIONS,
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
""",
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


def takes_one(op: Operation) -> bool:
    """A unary operation or a reduction: one array operand."""
    return op.arity in (UNARY, REDUCTION)
