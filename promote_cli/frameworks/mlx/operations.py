"""MLX's operations: one rule per function of the vocabulary (MLX 0.32, CPU).

Measured on MLX 0.32.4 on ``mx.cpu`` (every result ``mx.eval``'d) over every operand pair
(arrays, Python scalars on either side) and checked by ``promote verify``. Every function
promotes with the mlx policy (``mx.add``'s rule) and applies its kind. MLX keeps integer and
bool types where others convert: ``floor``, ``round``, ``abs``, ``sign`` and ``square`` of an int
or a bool keep it, ``pow(bool, bool)`` is bool; only ``divide``, ``atan2``, ``sqrt``, ``exp``,
``log``, ``sin`` and ``mean`` make an integer float32 (int64 too). ``sum`` and ``prod`` widen bool,
8- and 16-bit integers to int32/uint32 and keep 32- and 64-bit ones; ``cumsum`` widens only bool
(to int32); ``argmax`` is uint32. ``left_shift`` of bools is uint8. ``matmul`` refuses integer
and bool results ("[matmul] Only inexact types are supported") and takes no Python scalar.
Refusals are rules (no missing CPU kernel was seen). Not modelled: a reduction of a 0-d array
does not accumulate (``sum`` of a 0-d uint8 is uint8), since 0-d arrays are not a category of
the mlx policy.
"""

from __future__ import annotations

from promote_cli.frameworks.mlx.promotion import POLICY
from promote_cli.operands import DIMENSIONED
from promote_cli.rules import (
    INT64_VALUE,
    REPLACES,
    Maps,
    Operations,
    Operators,
    Rule,
    Updates,
    with_operators,
)
from promote_cli.vocabulary import SAME

# Where a function the rules do not list is found: ``mx.`` + its array API name.
NAMESPACE = "mx."

MAPS = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},
    accumulate={
        "bool": "int32",
        "int8": "int32",
        "int16": "int32",
        "uint8": "uint32",
        "uint16": "uint32",
        "int32": "int32",
        "int64": "int64",
        "uint32": "uint32",
        "uint64": "uint64",
    },
    real={"complex64": "float32"},
    index_dtype="uint32",
    default_float="float32",
)
_BITWISE = ("float", "complex")

RULES = {
    "remainder": Rule("mx.remainder", refuses=("complex",)),
    "pow": Rule("mx.power"),
    "logical_and": Rule("mx.logical_and", value=INT64_VALUE),
    "bitwise_and": Rule("mx.bitwise_and", refuses=_BITWISE),
    "bitwise_left_shift": Rule("mx.left_shift", refuses=_BITWISE, overrides={"bool": "uint8"}),
    "atan2": Rule("mx.arctan2", refuses=("complex",)),
    "matmul": Rule(
        "mx.matmul", refuses=("bool", "int", "uint"), categories=frozenset({DIMENSIONED})
    ),
    "negative": Rule("mx.negative", refuses=("bool",)),
    "floor": Rule("mx.floor", refuses=("complex",)),
    "ceil": Rule("mx.ceil", refuses=("complex",)),
    "bitwise_invert": Rule("mx.bitwise_invert", refuses=_BITWISE),
    "cumulative_sum": Rule("mx.cumsum", SAME, overrides={"bool": "int32"}),
}

# ``a += b`` keeps the array object and swaps in the result: its dtype changes with it
# (``int8 += float32`` leaves a float32 array that every name for it sees).
# ``/=`` refuses an integer or bool array ("In place division cannot cast to non-floating point
# type"). The bitwise operators have no reflected method: ``1 & a`` raises TypeError, though
# ``mx.bitwise_and(1, a)`` works. ``+x`` takes a bool, which ``-x`` refuses.
OPERATORS = Operators(
    "mx.array",
    Updates(REPLACES, refuses_left={"/=": ("bool", "int", "uint")}),
    rules={"+x": Rule("mx.array.__pos__")},
    unreflected=("&", "|", "^", "<<", ">>"),
)

OPERATIONS = Operations(
    POLICY,
    MAPS,
    with_operators(RULES, OPERATORS, NAMESPACE),
    "MLX 0.32's functions and array operators on the CPU, measured",
    operators=OPERATORS,
    values=True,
)
