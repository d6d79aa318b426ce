"""tinygrad's operations: one rule per function of the vocabulary (tinygrad 0.14.0).

Measured on tinygrad 0.14.0 over every operand pair of the tinygrad policy (tensors of its 17
types, Python scalars on either side) and checked by ``promote verify``. The output dtype is the
``.dtype`` of the lazy result: tinygrad decides it when it builds the graph. The bitwise
functions are the exception: a float AND or XOR is built lazily with the float dtype and refused
only when it is realised ("UOp verification failed"), so they were realised (``.data()`` on the
PYTHON device, which needs no compiler); those refusals are rules, not missing kernels.

Every function promotes with ``least_upper_dtype`` (the tinygrad policy) and applies its kind.
tinygrad's default float (``dtypes.default_float``, float32) is the float of every integer:
``div``, ``sqrt``, ``exp``, ``log``, ``sin`` and ``mean`` make a bool or an integer float32.
``sum`` and ``cumsum`` accumulate bool, 8- and 16-bit integers in int32/uint32 and keep 32- and
64-bit ones (``sum_acc_dtype``); ``prod`` does not accumulate (``prod`` of uint8 is uint8);
``argmax`` is int32. A weak result stays weak, as in the policy (``uint64 / int64`` is
``float*``). Quirks, each a consequence of how the method is written:

- ``div`` of a bool with a Python int (promoted ``int*``) is float32, not ``float*``: the weak
  int is cast to the default float before dividing;
- ``//`` and ``%`` of two bools are float32: a bool is not an integer for ``div``'s integer
  path, so it divides as floats (``div(rounding_mode="floor")``);
- ``floor`` and ``ceil`` of a bool are ``int*`` and ``round`` of a bool or an integer is
  ``float*``: they compute with Python constants (``b - 1``, ``x + 0.5``);
- ``neg``, ``abs``, ``sign``, ``square`` and ``pow`` of bools are bool (``neg`` is
  ``logical_not``);
- ``1 << t`` keeps the Python int's ``int*`` (a shift keeps its left operand's type) and is
  refused when realised unless ``t`` is uint32 (the shift amount must have the shifted type or
  uint32); ``t << 1`` is the tensor's type.

Operands and spellings. A Python scalar on the left is the reflected operator's (``1 + t`` is
``t.__radd__(1)``, the method with ``reverse=True``); ``maximum`` and ``minimum`` have no
reflected form and are asked as ``t.maximum(1)`` (the same dtype: they are symmetric);
``1 == t`` and ``1 < t`` are ``t == 1`` and ``t > 1``. ``matmul`` takes tensors only. tinygrad
has no ``logical_and`` (``&`` on bools is ``bitwise_and``), no ``atan2`` and no complex types
(no ``real``/``imag``): those are refused as absent. A Python scalar's value is
never checked against the tensor's type (``uint8 + 300`` is uint8, wrapped), but in two places,
each a ``value_special`` (measured with every tensor type and 25 values, both orders): a
negative Python int in a power with a bool or integer tensor, on either side, raises
"base needs to be float" (``negative_int_power``); and a shift ``t << v``/``t >> v`` whose count
Python's own ``<<`` cannot fold (tinygrad folds the shifted range in Python ints) raises
ValueError "negative shift count" or MemoryError (``shift_value_left``/``shift_value_right``).
tinygrad generates its kernels, so no kernel is missing; the PYTHON device's emulator cannot run
``pow`` of two integer tensors, which is why the dtypes are read lazily.

Operators (``OPERATORS``): each follows its function's rule but ``+t`` (``Tensor`` has no
``__pos__``); ``a op= b`` is ``a.assign(a op b)``, in place and refused unless the result has
``a``'s dtype (``SAME_ONLY``), but ``%=``, which Python rebinds (no ``__imod__``,
``Updates.rebinds``).

The rules below are data; ``where``'s two values promote as the policy's pair does (two Python
scalars included: ``where(c, 1, 2.0)`` is ``float*``), and ``1 << t`` is ``specials.py``'s
``left_operand_shift``, named by its rule.
"""

from __future__ import annotations

from promote_cli.dtypes import get as dtype
from promote_cli.frameworks.tinygrad.promotion import POLICY, TYPES
from promote_cli.operands import DIMENSIONED
from promote_cli.rules import SAME_ONLY, Maps, Operations, Operators, Rule, Updates, with_operators
from promote_cli.vocabulary import SAME

# Where a function the rules do not list is found: ``Tensor.`` + its array API name.
NAMESPACE = "Tensor."

MAPS = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},  # dtypes.default_float
    accumulate={
        "bool": "int32",
        "int8": "int32",
        "int16": "int32",
        "uint8": "uint32",
        "uint16": "uint32",
        "int32": "int32",
        "uint32": "uint32",
        "int64": "int64",
        "uint64": "uint64",
    },
    real={},
    index_dtype="int32",
    default_float="float32",
)
_INTEGRAL = tuple(t for t in TYPES if dtype(t).kind in ("bool", "int", "uint"))
_BOOL_AS_FLOAT = {"bool": "float32"}  # a bool takes div's float path
_REVERSE = "a Python scalar on the left is the reflected operator's (reverse=True): the same rule"
_SWAPPED = "no reflected form: a Python scalar on the left is asked as t.{}(1), the same dtype"


RULES = {
    "add": Rule("Tensor.add", note=_REVERSE),
    "subtract": Rule("Tensor.sub", note=_REVERSE),
    "multiply": Rule("Tensor.mul", note=_REVERSE),
    "divide": Rule("Tensor.div", overrides={"int*": "float32"}, note=_REVERSE),
    "floor_divide": Rule(
        "Tensor.__floordiv__",
        overrides=_BOOL_AS_FLOAT,
        note="x // y, div(rounding_mode='floor'); tinygrad 0.14 has no idiv method",
    ),
    "remainder": Rule("Tensor.mod", overrides=_BOOL_AS_FLOAT, note=_REVERSE),
    "pow": Rule("Tensor.pow", value="any", value_special="negative_int_power", note=_REVERSE),
    "maximum": Rule("Tensor.maximum", note=_SWAPPED.format("maximum")),
    "minimum": Rule("Tensor.minimum", note=_SWAPPED.format("minimum")),
    "equal": Rule("Tensor.eq", note="1 == t is t == 1"),
    "less": Rule("Tensor.__lt__", note="x < y (no lt method); 1 < t is t > 1"),
    "logical_and": Rule(None, note="tinygrad has no logical_and; & on bool tensors is bitwise_and"),
    "bitwise_and": Rule("Tensor.bitwise_and", refuses=("float",), note=_REVERSE),
    "bitwise_left_shift": Rule(
        "Tensor.lshift",
        refuses=("bool", "float"),
        special="left_operand_shift",
        value="any",
        value_special="shift_value_left",
        note=_REVERSE,
    ),
    "atan2": Rule(None, note="tinygrad 0.14 has no atan2"),
    "matmul": Rule("Tensor.matmul", categories=frozenset({DIMENSIONED})),
    "negative": Rule("Tensor.neg"),
    "abs": Rule("Tensor.abs", SAME),
    "floor": Rule("Tensor.floor", overrides={"bool": "int*"}),
    "ceil": Rule("Tensor.ceil", overrides={"bool": "int*"}),
    "round": Rule("Tensor.round", overrides=dict.fromkeys(_INTEGRAL, "float*")),
    "bitwise_invert": Rule("Tensor.bitwise_not", refuses=("float",)),
    "real": Rule(None, note="tinygrad has no complex types"),
    "imag": Rule(None, note="tinygrad has no complex types"),
    "prod": Rule("Tensor.prod", SAME),
    "cumulative_sum": Rule("Tensor.cumsum"),
    "where": Rule(
        "Tensor.where",
        note="cond.where(x, y); two Python scalars promote with each other (least_upper_dtype)",
    ),
}

# ``a op= b`` is ``a.assign(a op b)`` (``Tensor.__iadd__`` ...): written into ``a`` in place, the
# same object, with no cast: ``assign`` refuses a result of any other dtype than ``a``'s ("assign
# dtype mismatch": ``int8 += int16``, ``int8 /= int8`` (float32), ``bool += 1`` (``int*``)). A weak
# result is first cast to ``least_upper_dtype`` of ``a`` and it, which is the result again: the
# operator's result is already at least ``a``'s type. ``Tensor`` has no ``__imod__``: ``a %= b``
# is Python's ``a = a % b``, a new tensor of ``%``'s dtype. Measured differences from the
# functions: ``+t`` (no ``__pos__``: TypeError) and the ``%=`` just said.
OPERATORS = Operators(
    "Tensor",
    Updates(SAME_ONLY, says="assign dtype mismatch", rebinds=("%=",)),
    rules={
        "+x": Rule(None, note="tinygrad's Tensor has no __pos__: +t raises TypeError"),
        ">>": RULES["bitwise_left_shift"]._replace(
            function="Tensor.__rshift__", value_special="shift_value_right"
        ),
        "%=": RULES["remainder"]._replace(
            function="Tensor.__mod__",
            note="Tensor has no __imod__: Python's a = a % b rebinds the name to a new tensor",
        ),
    },
)

OPERATIONS = Operations(
    POLICY,
    MAPS,
    with_operators(RULES, OPERATORS, NAMESPACE),
    "tinygrad 0.14.0's Tensor methods and operators, measured",
    operators=OPERATORS,
    values=True,
)
