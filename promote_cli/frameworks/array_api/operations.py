"""The array API standard's operations, as array-api-strict 2.6 enforces them (API 2025.12).

Each function of the standard states its output dtype and the dtype categories it accepts;
array-api-strict refuses the rest ("Only floating-point dtypes are allowed in sqrt"). There is
no int-to-float kind at all: ``divide``, ``sqrt``, ``exp``, ``log``, ``sin``, ``atan2`` and
``mean`` refuse integers and bools. ``sum``, ``prod`` and ``cumulative_sum`` accumulate an
integer in the default integer of its signedness (int64, uint64); ``argmax`` is int64.
Measured on array-api-strict 2.6.1 over every operand pair (arrays, Python scalars on either
side) and checked by ``promote verify``.

Where array-api-strict departs from the standard, this follows array-api-strict and says so:
``matmul`` promotes with NumPy's rule, not the standard's (``matmul(int8, float32)`` is float32,
where ``xp.result_type`` refuses; a bool operand is refused); ``maximum``, ``minimum`` and
``less`` check the categories of their *array* operands only, so ``maximum(float32 array, 1j)``
is complex64. ``where`` refuses two Python scalars. Nothing is refused for want of a kernel.

The rules below are data; ``matmul``'s NumPy promotion is ``pairs.py``'s ``numpy_promote_types``
and ``where``'s refusal of two scalars ``specials.py``'s ``one_scalar``, named by the rules.
"""

from __future__ import annotations

from promote_cli.frameworks.array_api.promotion import POLICY
from promote_cli.operands import DIMENSIONED
from promote_cli.rules import SAME_ONLY, Maps, Operations, Operators, Rule, Updates, with_operators
from promote_cli.vocabulary import SAME

# Where a function the rules do not list is found: ``xp.`` + its array API name.
NAMESPACE = "xp."

MAPS = Maps(
    inexact={},  # the standard never turns an integer into a float
    accumulate={"int": "int64", "uint": "uint64"},
    real={"complex64": "float32", "complex128": "float64"},
    index_dtype="int64",
    default_float="float64",
)


_SHIFTS = ("bool", "float", "complex")
_INTEGRAL = ("bool", "int", "uint")
_REAL = (
    "bool",
    "complex",
)  # "real numeric": no bool, no complex_SHIFTS = ("bool", "float", "complex")

RULES = {
    "add": Rule("xp.add", refuses=("bool",)),
    "subtract": Rule("xp.subtract", refuses=("bool",)),
    "multiply": Rule("xp.multiply", refuses=("bool",)),
    "divide": Rule("xp.divide", SAME, refuses=_INTEGRAL),
    "floor_divide": Rule("xp.floor_divide", refuses=_REAL),
    "remainder": Rule("xp.remainder", refuses=_REAL),
    "pow": Rule("xp.pow", refuses=("bool",), value_special="negative_power"),
    "maximum": Rule("xp.maximum", refuses_operand=_REAL),
    "minimum": Rule("xp.minimum", refuses_operand=_REAL),
    "less": Rule("xp.less", refuses_operand=_REAL),
    "logical_and": Rule("xp.logical_and", refuses=("int", "uint", "float", "complex")),
    "bitwise_and": Rule("xp.bitwise_and", refuses=("float", "complex")),
    "bitwise_left_shift": Rule(
        "xp.bitwise_left_shift", refuses=_SHIFTS, value_special="negative_shift"
    ),
    "atan2": Rule("xp.atan2", SAME, refuses=(*_INTEGRAL, "complex")),
    "matmul": Rule(
        "xp.matmul",
        refuses_operand=("bool",),
        categories=frozenset({DIMENSIONED}),
        pair="numpy_promote_types",
    ),
    "negative": Rule("xp.negative", refuses=("bool",)),
    "abs": Rule("xp.abs", refuses=("bool",)),
    "sqrt": Rule("xp.sqrt", SAME, refuses=_INTEGRAL),
    "exp": Rule("xp.exp", SAME, refuses=_INTEGRAL),
    "log": Rule("xp.log", SAME, refuses=_INTEGRAL),
    "sin": Rule("xp.sin", SAME, refuses=_INTEGRAL),
    "floor": Rule("xp.floor", refuses=_REAL),
    "ceil": Rule("xp.ceil", refuses=_REAL),
    "round": Rule("xp.round", refuses=("bool",)),
    "sign": Rule("xp.sign", refuses=("bool",)),
    "square": Rule("xp.square", refuses=("bool",)),
    "logical_not": Rule("xp.logical_not", refuses=("int", "uint", "float", "complex")),
    "bitwise_invert": Rule("xp.bitwise_invert", refuses=("float", "complex")),
    "real": Rule("xp.real", refuses=("bool",)),
    "imag": Rule("xp.imag", refuses=("bool", "int", "uint", "float")),
    "isnan": Rule("xp.isnan", refuses=("bool",)),
    "sum": Rule("xp.sum", refuses=("bool",)),
    "prod": Rule("xp.prod", refuses=("bool",)),
    "mean": Rule("xp.mean", SAME, refuses=_INTEGRAL),
    "max": Rule("xp.max", refuses=_REAL),
    "argmax": Rule("xp.argmax", refuses=_REAL),
    "cumulative_sum": Rule("xp.cumulative_sum", refuses=("bool",)),
    "where": Rule("xp.where", special="one_scalar"),
}

# The standard's in-place operators never change ``x1``'s dtype: array-api-strict raises
# ("Cannot perform __iadd__ with dtypes int8 and int16") unless the result is ``x1``'s dtype.
# ``@`` promotes by the standard (``xp.matmul`` lets NumPy promote: int8 @ float32 is float32
# there, refused here).
OPERATORS = Operators(
    "Array",
    Updates(SAME_ONLY, says="an in-place operator keeps x1's dtype"),
    rules={
        "@": Rule(
            "Array.__matmul__", refuses_operand=("bool",), categories=frozenset({DIMENSIONED})
        ),
        # ``x << -1`` and ``x >> -1`` do not check the shift, as xp.bitwise_left_shift does
        "<<": Rule("Array.__lshift__", refuses=_SHIFTS),
        ">>": Rule("Array.__rshift__", refuses=_SHIFTS),
    },
)

OPERATIONS = Operations(
    POLICY,
    MAPS,
    with_operators(RULES, OPERATORS, NAMESPACE),
    "the array API standard (2025.12) as array-api-strict 2.6 enforces it, measured",
    operators=OPERATORS,
    values=True,
)
