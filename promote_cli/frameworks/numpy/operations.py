"""NumPy's operations: one rule per function of the vocabulary (NumPy 2.4).

Measured on NumPy 2.4 over every operand pair (arrays, 0-d arrays, Python scalars on either
side), and checked by ``promote verify``. Every function promotes with ``numpy.result_type``
(NEP 50) and applies its kind; 0-d arrays behave as arrays. A ufunc with no loop for a type
casts it to the first loop it fits safely, which is what the maps say:

- ``inexact`` (``sqrt``, ``exp``, ``log``, ``sin``, ``atan2``): the float loop an integer fits,
  by width (bool, int8, uint8 -> float16; 16-bit -> float32; 32/64-bit -> float64), unlike
  torch and JAX; ``divide`` and ``mean`` of integers are float64 whatever the width (``true_divide``
  has integer loops returning float64).
- a bool, where a ufunc has no bool loop, becomes int8 (``floor_divide``, ``remainder``, ``pow``,
  ``bitwise_left_shift``, ``square``); ``round`` of a bool is float16.
- ``sum``, ``prod``, ``cumulative_sum`` of a bool or a signed integer accumulate in int64, of an
  unsigned one in uint64 (the platform's long and unsigned long on Linux x86-64).
- a binary INT_TO_FLOAT ufunc chooses its loop operand by operand: ``atan2(int8, uint8)`` is
  float16 (each fits float16), not the float of their promotion int16 (float32).

Refusals are the ufuncs' missing loops (``UFuncTypeError``): a bool for ``subtract``,
``negative``, ``sign``; complex for ``floor_divide``, ``remainder``, ``floor``, ``ceil``,
``atan2``; floats and complex for the bitwise functions. ``matmul`` takes no 0-d array or
Python scalar (a shape error). NumPy has no missing kernels.
"""

from __future__ import annotations

from promote_cli.frameworks.numpy.promotion import POLICY, TYPES
from promote_cli.operands import DIMENSIONED
from promote_cli.rules import (
    ANY_VALUE,
    IN_PLACE,
    INT64_VALUE,
    BySetting,
    Maps,
    Operations,
    Operators,
    Rule,
    Updates,
    with_operators,
)
from promote_cli.vocabulary import (
    INT_TO_DEFAULT,
    INT_TO_FLOAT,
)

# Where a function the rules do not list is found: ``np.`` + its array API name.
NAMESPACE = "np."

MAPS = Maps(
    inexact={
        "bool": "float16",
        "int8": "float16",
        "uint8": "float16",
        "int16": "float32",
        "uint16": "float32",
        "int": "float64",
        "uint": "float64",
    },
    accumulate={"bool": "int64", "int": "int64", "uint": "uint64"},
    real={"complex64": "float32", "complex128": "float64", "clongdouble": "longdouble"},
    index_dtype="int64",
    default_float="float64",
)
_INT8 = {"bool": "int8"}  # no bool loop: the bool is cast to the first integer loop, int8
_BITWISE = ("float", "complex")

RULES = {
    "subtract": Rule("np.subtract", refuses=("bool",)),
    "divide": Rule("np.divide", INT_TO_DEFAULT, value=ANY_VALUE, value_special="float_converted"),
    "floor_divide": Rule("np.floor_divide", refuses=("complex",), overrides=_INT8),
    "remainder": Rule("np.remainder", refuses=("complex",), overrides=_INT8),
    "pow": Rule("np.pow", overrides=_INT8, value_special="negative_power"),
    "equal": Rule("np.equal", value=ANY_VALUE, value_special="compared"),
    "less": Rule("np.less", value=ANY_VALUE, value_special="compared"),
    "logical_and": Rule("np.logical_and", value=INT64_VALUE),
    "bitwise_and": Rule("np.bitwise_and", refuses=_BITWISE),
    "bitwise_left_shift": Rule("np.bitwise_left_shift", refuses=_BITWISE, overrides=_INT8),
    "atan2": Rule(
        "np.atan2",
        refuses=("complex",),
        operandwise=True,
        value=ANY_VALUE,
        value_special="float_converted",
    ),
    "matmul": Rule("np.matmul", categories=frozenset({DIMENSIONED})),
    "negative": Rule("np.negative", refuses=("bool",)),
    "floor": Rule("np.floor", refuses=("complex",)),
    "ceil": Rule("np.ceil", refuses=("complex",)),
    "round": Rule("np.round", overrides={"bool": "float16"}),
    "sign": Rule("np.sign", refuses=("bool",)),
    "square": Rule("np.square", overrides=_INT8),
    "bitwise_invert": Rule("np.bitwise_invert", refuses=_BITWISE),
    "mean": Rule("np.mean", INT_TO_DEFAULT),
}

# ``a += b`` writes the result back into ``a`` under the ufunc's ``casting='same_kind'``: a
# result of a kind that ranks above ``a``'s (bool < uint < int < float < complex) is refused.
OPERATORS = Operators(
    "np.ndarray",
    Updates(
        IN_PLACE,
        (("bool",), ("uint",), ("int",), ("float",), ("complex",)),
        "casting rule 'same_kind'",
    ),
)

# ``-O promotion=legacy`` is NumPy 1.26.4 (measured there): the same rules but for the names
# NumPy 2 added (np.pow, np.atan2, np.bitwise_left_shift, np.bitwise_invert are np.power,
# np.arctan2, np.left_shift, np.invert there; np.cumulative_sum is np.cumsum) and floor and
# ceil, which take integers to the float loop they fit (NumPy 2 keeps the integer type). A
# Python scalar's value takes part in the promotion (``values_promote``): the ufuncs that search
# their loops meet a scalar beside an array by its value (``searched_*``: uint8 // 300 is
# int16), which also refuses a negative exponent in an integer loop alone; a comparison runs an
# object array (an int beyond int64 and uint64) in Python (``object_*``); logical_and takes any
# int (2**63 is a uint64 array, not a C long).
LEGACY_RULES = {
    **RULES,
    "floor_divide": RULES["floor_divide"]._replace(special="searched_floor_divide"),
    "remainder": RULES["remainder"]._replace(special="searched_remainder"),
    "pow": Rule("np.power", overrides=_INT8, special="searched_power"),
    "equal": Rule("np.equal", value=ANY_VALUE, special="object_compared"),
    "less": Rule("np.less", value=ANY_VALUE, special="object_ordered"),
    "logical_and": Rule("np.logical_and", value=ANY_VALUE),
    "bitwise_and": RULES["bitwise_and"]._replace(special="searched_bitwise_and"),
    "bitwise_left_shift": Rule(
        "np.left_shift", refuses=_BITWISE, overrides=_INT8, special="searched_left_shift"
    ),
    "atan2": Rule(
        "np.arctan2",
        refuses=("complex",),
        operandwise=True,
        special="searched_arctan2",
    ),
    "bitwise_invert": Rule("np.invert", refuses=_BITWISE),
    "cumulative_sum": Rule("np.cumsum"),
    "floor": Rule("np.floor", INT_TO_FLOAT, refuses=("complex",)),
    "ceil": Rule("np.ceil", INT_TO_FLOAT, refuses=("complex",)),
}
_BY_PROMOTION = {
    "weak": with_operators(RULES, OPERATORS, NAMESPACE),
    "legacy": with_operators(LEGACY_RULES, OPERATORS, NAMESPACE),
}

OPERATIONS = Operations(
    POLICY,
    MAPS,
    _BY_PROMOTION["weak"],
    "NumPy 2.4's ufuncs, reductions and ndarray operators, measured; under promotion=legacy"
    " NumPy 1.26.4's",
    # Measured on NumPy's own dtypes under both settings of ml_dtypes; an ml_dtypes type's
    # operations are not (its ufunc loops are ml_dtypes' own: bfloat16 + float16 is float32).
    types=tuple(TYPES),
    outside="NumPy's operations are measured on its own dtypes, not on ml_dtypes' types:"
    " promote pair answers their promotion",
    operators=OPERATORS,
    values=True,
    values_promote=(("legacy",),),  # NumPy 1.26's value-based casting
    by_setting=BySetting(
        ("promotion",),
        rules={(promotion,): rules for promotion, rules in _BY_PROMOTION.items()},
    ),
)
