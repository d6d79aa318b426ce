"""PaddlePaddle's operations: one rule per function of the vocabulary (Paddle 3.3.1, CPU, eager).

Measured on Paddle 3.3.1 (CPU build, dygraph mode) over every operand pair of the paddle policy
(dimensioned and 0-d tensors of its 14 types, Python scalars on either side) and checked by
``promote verify``. Paddle promotes per function, not once: ``phi/common/type_promotion.h``
applies the 0-d rule of ``x + y`` only to its ``support_promotion_ops`` (add, subtract,
multiply, divide, remainder, pow, equal, less_than ...); the other functions promote two tensors
of different types only float x float and x complex, 0-d or not. So each rule names its pair
(``pairs.py``: ``tensors_only``, ``table_with_zero_d``):

- the paddle policy (``x + y``): ``add``, ``subtract``, ``multiply``, ``divide``,
  ``remainder``, ``pow``, ``equal``, ``less_than``, the unary functions and reductions;
- tensors only, a 0-d tensor like any other: ``maximum``, ``minimum``, ``logical_and``,
  ``atan2`` (none takes a Python scalar), and ``where``, which makes a Python scalar a tensor of
  its default dtype first (bool, int64, float32, complex64: ``where(c, int32 tensor, 1)`` is
  refused, ``where(c, 1, 2)`` is int64, ``where(c, True, 1)`` refused);
- ``floor_divide``: a 0-d tensor always promotes by the table (``uint8 // 0-d int8`` is int16,
  where ``+`` keeps uint8).

Python scalars. ``paddle.add`` & co take tensors only; a Python scalar is answered by the operator
(``x + 1``, ``1 + x``, ``x // 1``, ``x ** 1``, ``x == 1``, ``x < 1``), as the paddle policy is, on
either side (what the operators do beyond that are ``specials.py``'s cases). ``bitwise_and`` and
``bitwise_left_shift`` keep the tensor's type with a Python bool or int and refuse a float
(``x & 1`` is refused, only ``1 & x`` is taken); ``matmul`` takes no Python scalar and no 0-d
tensor. Paddle's own quirks, as measured: ``divide``, ``remainder`` and ``pow`` of a 0-d float64 or
complex128 tensor with a Python complex are complex64; ``divide`` of two bools is bool; ``atan2`` of
integers is float64; ``sum`` makes bool and int32 int64 and keeps every other type (``sum`` of uint8
is uint8), ``cumsum`` makes every integer int64; ``mean`` of an integer or a bool keeps it (``mean``
of int32 is int32); ``argmax`` is int64. ``matmul`` does not promote: two types are refused, except
the pairs in ``MATMUL_MIXED``, which run the kernel of one operand on the other's buffer and return
its type (``float32 @ int32`` is float32, ``int32 @ float32`` refused).

Missing CPU kernels ("(NotFound) The kernel with key (CPU, ..., float16) of kernel `add` is not
registered"): where a kind has kernels but a width does not (uint8, int8, int16, float16,
bfloat16, float8), the rule's dtype is the answer, marked ``no-kernel``; where a whole kind has
none (bool in arithmetic, complex in ordering and rounding, floats in bitwise functions, real
types in ``real``/``imag``), the function refuses that kind. The float8 types have kernels for
almost nothing. uint16/32/64 and complex32 are not paddle-policy types.

Operators (``OPERATORS``): each follows its function (the functions' Python-scalar cells are
already the operator's) except ``x @ y`` (``Tensor.__matmul__`` casts the right tensor to the
left's type: ``pairs.left_operand``) and ``+x`` (``paddle.positive`` refuses bool and calls no
kernel). ``a += b`` rebinds: ``paddle.Tensor`` has no ``__iadd__``.
"""

from __future__ import annotations

from promote_cli.frameworks.paddle.promotion import POLICY
from promote_cli.operands import DIMENSIONED, ZERO_D
from promote_cli.rules import (
    ANY_VALUE,
    INT64_VALUE,
    REBINDS,
    Maps,
    Operations,
    Operators,
    Rule,
    Updates,
    with_operators,
)
from promote_cli.vocabulary import SAME

# Where a function the rules do not list is found: ``paddle.`` + its array API name.
NAMESPACE = "paddle."

MAPS = Maps(
    inexact={"int": "float32", "uint": "float32"},  # a bool is refused wherever this applies
    accumulate={
        "bool": "int64",
        "uint8": "uint8",
        "int8": "int8",
        "int16": "int16",
        "int32": "int64",
        "int64": "int64",
    },
    real={"complex64": "float32", "complex128": "float64"},
    index_dtype="int64",
    default_float="float32",
)
_FLOAT8 = ("float8_e4m3fn", "float8_e5m2")
_SMALL_INT = ("uint8", "int8", "int16")
_HALF = ("float16", "bfloat16")
_NARROW = (*_SMALL_INT, *_HALF, *_FLOAT8)  # the widths CPU kernels most often lack
_ARRAYS = frozenset({DIMENSIONED, ZERO_D})
_OPERATOR = "a Python scalar is the operator's (x + 1, 1 + x), as the paddle policy is"


# matmul does not promote; these pairs of different types run anyway (measured) and return
# the type of the operand whose kernel ran; every other pair of different types is refused.
MATMUL_MIXED = {
    ("float32", "int32"): "float32",
    ("float32", "int64"): "float32",
    **{(t, "complex64"): "complex64" for t in ("uint8", "int16", *_HALF, "float32")},
    **{("complex64", t): "complex64" for t in ("uint8", "int16", *_HALF, "float32")},
    **{(t, "complex128"): "complex128" for t in ("uint8", "int16", *_HALF, "float32", "float64")},
    **{("complex128", t): "complex128" for t in ("uint8", "int16", *_HALF, "float32", "float64")},
}


# x + 1, 1 - x, 2 * x: Paddle's scale kernel takes a Python int or float (not a bool, made a
# tensor), and has every type but float8: float16_tensor + 1 runs, float16 + float16 has no kernel.
_BOTH_SIDES = ("left", "right")

RULES = {
    "add": Rule(
        "paddle.add",
        no_kernel=(*_HALF, *_FLOAT8),
        scalar_kernel=_BOTH_SIDES,
        no_scalar_kernel=_FLOAT8,
        note=_OPERATOR,
        value=ANY_VALUE,
    ),
    "subtract": Rule(
        "paddle.subtract",
        refuses=("bool",),
        no_kernel=("uint8", "int8", "float16", *_FLOAT8),
        scalar_kernel=_BOTH_SIDES,
        no_scalar_kernel=_FLOAT8,
        note=_OPERATOR,
        value=ANY_VALUE,
    ),
    "multiply": Rule(
        "paddle.multiply",
        no_kernel=(*_SMALL_INT, "float16", *_FLOAT8),
        scalar_kernel=_BOTH_SIDES,
        no_scalar_kernel=_FLOAT8,
        note=_OPERATOR,
        value=ANY_VALUE,
    ),
    "divide": Rule(
        "paddle.divide",
        overrides={"bool": "bool"},
        no_kernel=(*_HALF, *_FLOAT8),
        # x / 2 is scale(x, 1/2); 2 / x divides, whose kernel lacks x's half types
        scalar_kernel=("right",),
        no_scalar_kernel=_FLOAT8,
        special="complex_scalar",
        note=_OPERATOR,
        value=ANY_VALUE,
        value_special="divide_value",
    ),
    "floor_divide": Rule(
        "paddle.floor_divide",
        refuses=("bool", "complex"),
        no_kernel=_FLOAT8,
        pair="table_with_zero_d",
        note=_OPERATOR,
        value=INT64_VALUE,
        value_special="zero_divisor",
    ),
    "remainder": Rule(
        "paddle.remainder",
        refuses=("bool",),
        no_kernel=_NARROW,
        special="complex_scalar",
        note=_OPERATOR,
        value=INT64_VALUE,
        value_special="zero_divisor",
    ),
    "pow": Rule(
        "paddle.pow",
        refuses=("bool",),
        no_kernel=(*_SMALL_INT, "float16", *_FLOAT8),
        special="scalar_pow",
        note=_OPERATOR,
        value=ANY_VALUE,
        value_special="power_value",
    ),
    "maximum": Rule(
        "paddle.maximum",
        refuses=("bool", "complex"),
        no_kernel=(*_SMALL_INT, "float16", *_FLOAT8),
        categories=_ARRAYS,
        pair="tensors_only",
    ),
    "minimum": Rule(
        "paddle.minimum",
        refuses=("bool", "complex"),
        no_kernel=(*_SMALL_INT, "float16", *_FLOAT8),
        categories=_ARRAYS,
        pair="tensors_only",
    ),
    "equal": Rule("paddle.equal", no_kernel=_FLOAT8, note=_OPERATOR, value=INT64_VALUE),
    "less": Rule("paddle.less_than", no_kernel=_FLOAT8, note=_OPERATOR, value=INT64_VALUE),
    "logical_and": Rule(
        "paddle.logical_and",
        no_kernel=("uint8", *_HALF, *_FLOAT8),
        categories=_ARRAYS,
        pair="tensors_only",
    ),
    "bitwise_and": Rule(
        "paddle.bitwise_and",
        refuses=("float", "complex"),
        same_dtype=True,
        special="and_scalar",
        note="1 & x is x.__rand__(1); x & 1 calls paddle.bitwise_and, which refuses it",
        value=ANY_VALUE,
        value_special="bitwise_value",
    ),
    "bitwise_left_shift": Rule(
        "paddle.bitwise_left_shift",
        refuses=("bool", "float", "complex"),
        same_dtype=True,
        special="bitwise_scalar",
        note="a Python scalar is the operator's (x << 1, 1 << x)",
        value=ANY_VALUE,
        value_special="bitwise_value",
    ),
    "atan2": Rule(
        "paddle.atan2",
        SAME,
        overrides={t: "float64" for t in (*_SMALL_INT, "int32", "int64")},
        refuses=("bool", "complex"),
        no_kernel=(*_SMALL_INT, "bfloat16", *_FLOAT8),
        categories=_ARRAYS,
        pair="tensors_only",
    ),
    "matmul": Rule(
        "paddle.matmul",
        refuses=("bool",),
        no_kernel=_NARROW,
        same_dtype=True,
        categories=frozenset({DIMENSIONED}),
        special="mixed_matmul",
    ),
    "negative": Rule("paddle.neg", no_kernel=_FLOAT8),
    "abs": Rule("paddle.abs", refuses=("bool",), no_kernel=_NARROW),
    "sqrt": Rule("paddle.sqrt", refuses=("bool",), no_kernel=(*_HALF, *_FLOAT8)),
    "exp": Rule("paddle.exp", refuses=("bool",), no_kernel=(*_SMALL_INT, "bfloat16", *_FLOAT8)),
    "log": Rule("paddle.log", refuses=("bool",), no_kernel=(*_SMALL_INT, *_FLOAT8)),
    "sin": Rule("paddle.sin", refuses=("bool",), no_kernel=(*_HALF, *_FLOAT8)),
    "floor": Rule("paddle.floor", refuses=("bool", "complex"), no_kernel=_FLOAT8),
    "ceil": Rule("paddle.ceil", refuses=("bool", "complex"), no_kernel=_FLOAT8),
    "round": Rule("paddle.round", refuses=("bool",), no_kernel=_NARROW),
    "sign": Rule("paddle.sign", refuses=("bool",), no_kernel=(*_HALF, *_FLOAT8)),
    "square": Rule("paddle.square", refuses=("bool",), no_kernel=_NARROW),
    "logical_not": Rule("paddle.logical_not", no_kernel=("uint8", *_HALF, *_FLOAT8)),
    "bitwise_invert": Rule("paddle.bitwise_not", refuses=("float", "complex")),
    "real": Rule("paddle.real", refuses=("bool", "int", "uint", "float")),
    "imag": Rule("paddle.imag", refuses=("bool", "int", "uint", "float")),
    "isnan": Rule("paddle.isnan", refuses=("bool",), no_kernel=(*_SMALL_INT, *_FLOAT8)),
    "sum": Rule("paddle.sum", no_kernel=_FLOAT8),
    "prod": Rule("paddle.prod", SAME, refuses=("bool",), no_kernel=_NARROW),
    "mean": Rule("paddle.mean", SAME, no_kernel=_NARROW),
    "max": Rule("paddle.max", refuses=("bool", "complex"), no_kernel=_NARROW),
    "argmax": Rule(
        "paddle.argmax",
        refuses=("bool", "complex"),
        no_kernel=("int8", *_HALF, *_FLOAT8),
    ),
    "cumulative_sum": Rule(
        "paddle.cumsum",
        overrides=dict.fromkeys(_SMALL_INT, "int64"),
        refuses=("bool",),
        no_kernel=(*_HALF, *_FLOAT8),
        note="axis=0",
    ),
    "where": Rule(
        "paddle.where",
        no_kernel=_NARROW,
        pair="tensors_only",
    ),
}

# paddle.Tensor has no in-place operator methods (no ``__iadd__``): ``a += b`` is Python's
# ``a = a + b``, the name rebound to a new tensor of the operator's dtype (``int32 += 1.5`` is
# float32).
OPERATORS = Operators(
    "paddle.Tensor",
    Updates(REBINDS),
    rules={
        # ``x @ y`` is Tensor.__matmul__, not paddle.matmul: two real tensors of different
        # types are not refused, the right one is cast to the left's type (int32 @ float32 is
        # int32); a complex one promotes with float32/float64 only. Kernels: int32, int64,
        # float32, float64 and complex (a bool or narrow left tensor is a gap).
        "@": Rule(
            "paddle.Tensor.__matmul__",
            refuses=("bool",),
            no_kernel=_NARROW,
            categories=frozenset({DIMENSIONED}),
            pair="left_operand",
        ),
        # ``+x`` is paddle.positive, which refuses a bool tensor by its own check ("The `+`
        # operator, on a bool tensor is not supported") and returns any other tensor as it is,
        # with no kernel to lack (float8 included).
        "+x": Rule("paddle.Tensor.__pos__", refuses=("bool",)),
    },
)

OPERATIONS = Operations(
    POLICY,
    MAPS,
    with_operators(RULES, OPERATORS, NAMESPACE),
    "Paddle 3.3.1's functions and Tensor operators on the CPU (eager), measured",
    operators=OPERATORS,
    values=True,
)
