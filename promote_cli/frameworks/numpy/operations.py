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
from promote_cli.ops import (
    ACCUMULATE,
    ALWAYS_BOOL,
    COMPLEX_TO_FLOAT,
    IN_PLACE,
    INDEX,
    INT_TO_DEFAULT,
    INT_TO_FLOAT,
    Maps,
    Operations,
    Operators,
    Rule,
    Updates,
    with_operators,
)

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
    "add": Rule("np.add"),
    "subtract": Rule("np.subtract", refuses=("bool",)),
    "multiply": Rule("np.multiply"),
    "divide": Rule("np.divide", INT_TO_DEFAULT),
    "floor_divide": Rule("np.floor_divide", refuses=("complex",), overrides=_INT8),
    "remainder": Rule("np.remainder", refuses=("complex",), overrides=_INT8),
    "pow": Rule("np.pow", overrides=_INT8),
    "maximum": Rule("np.maximum"),
    "minimum": Rule("np.minimum"),
    "equal": Rule("np.equal", ALWAYS_BOOL),
    "less": Rule("np.less", ALWAYS_BOOL),
    "logical_and": Rule("np.logical_and", ALWAYS_BOOL),
    "bitwise_and": Rule("np.bitwise_and", refuses=_BITWISE),
    "bitwise_left_shift": Rule("np.bitwise_left_shift", refuses=_BITWISE, overrides=_INT8),
    "atan2": Rule("np.atan2", INT_TO_FLOAT, refuses=("complex",), operandwise=True),
    "matmul": Rule("np.matmul", categories=frozenset({DIMENSIONED})),
    "negative": Rule("np.negative", refuses=("bool",)),
    "abs": Rule("np.abs", COMPLEX_TO_FLOAT),
    "sqrt": Rule("np.sqrt", INT_TO_FLOAT),
    "exp": Rule("np.exp", INT_TO_FLOAT),
    "log": Rule("np.log", INT_TO_FLOAT),
    "sin": Rule("np.sin", INT_TO_FLOAT),
    "floor": Rule("np.floor", refuses=("complex",)),
    "ceil": Rule("np.ceil", refuses=("complex",)),
    "round": Rule("np.round", overrides={"bool": "float16"}),
    "sign": Rule("np.sign", refuses=("bool",)),
    "square": Rule("np.square", overrides=_INT8),
    "logical_not": Rule("np.logical_not", ALWAYS_BOOL),
    "bitwise_invert": Rule("np.bitwise_invert", refuses=_BITWISE),
    "real": Rule("np.real", COMPLEX_TO_FLOAT),
    "imag": Rule("np.imag", COMPLEX_TO_FLOAT),
    "isnan": Rule("np.isnan", ALWAYS_BOOL),
    "sum": Rule("np.sum", ACCUMULATE),
    "prod": Rule("np.prod", ACCUMULATE),
    "mean": Rule("np.mean", INT_TO_DEFAULT),
    "max": Rule("np.max"),
    "argmax": Rule("np.argmax", INDEX),
    "cumulative_sum": Rule("np.cumulative_sum", ACCUMULATE),
    "where": Rule("np.where"),
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

OPERATIONS = Operations(
    POLICY,
    MAPS,
    with_operators(RULES, OPERATORS),
    "NumPy 2.4's ufuncs, reductions and ndarray operators, measured",
    valued=("+",),  # the chain's operator: its values are measured as the chain
    # Measured on NumPy's own dtypes under both settings of ml_dtypes; an ml_dtypes type's
    # operations are not (its ufunc loops are ml_dtypes' own: bfloat16 + float16 is float32).
    types=tuple(TYPES),
    outside="NumPy's operations are measured on its own dtypes, not on ml_dtypes' types:"
    " promote pair answers their promotion",
    operators=OPERATORS,
)
