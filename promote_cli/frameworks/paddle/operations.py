"""PaddlePaddle's operations: one rule per function of the vocabulary (Paddle 3.3.1, CPU, eager).

Measured on Paddle 3.3.1 (CPU build, dygraph mode) over every operand pair of the paddle policy
(dimensioned and 0-d tensors of its 14 types, Python scalars on either side) and checked by
``promote verify``. Paddle promotes per function, not once: ``phi/common/type_promotion.h``
applies the 0-d rule of ``x + y`` only to its ``support_promotion_ops`` (add, subtract,
multiply, divide, remainder, pow, equal, less_than ...); the other functions promote two tensors
of different types only float x float and x complex, 0-d or not. So each rule names its pair:

- the paddle policy (``x + y``): ``add``, ``subtract``, ``multiply``, ``divide``,
  ``remainder``, ``pow``, ``equal``, ``less_than``, the unary functions and reductions;
- tensors only, a 0-d tensor like any other: ``maximum``, ``minimum``, ``logical_and``,
  ``atan2`` (none takes a Python scalar), and ``where``, which makes a Python scalar a tensor of
  its default dtype first (bool, int64, float32, complex64: ``where(c, int32 tensor, 1)`` is
  refused, ``where(c, 1, 2)`` is int64, ``where(c, True, 1)`` refused);
- ``floor_divide``: a 0-d tensor always promotes by the table (``uint8 // 0-d int8`` is int16,
  where ``+`` keeps uint8).

Python scalars. ``paddle.add`` & co take tensors only; a Python scalar is answered by the
operator (``x + 1``, ``1 + x``, ``x // 1``, ``x ** 1``, ``x == 1``, ``x < 1``), as the paddle
policy is, on either side. ``bitwise_and`` and ``bitwise_left_shift`` keep the tensor's type
with a Python bool or int and refuse a float (``x & 1`` is refused, only ``1 & x`` is taken);
``matmul`` takes no Python scalar and no 0-d tensor. Paddle's own quirks, as measured:
``divide``, ``remainder`` and ``pow`` of a 0-d float64 or complex128 tensor with a Python
complex are complex64; ``divide`` of two bools is bool; ``atan2`` of integers is float64;
``sum`` makes bool and int32 int64 and keeps every other type (``sum`` of uint8 is uint8),
``cumsum`` makes every integer int64; ``mean`` of an integer or a bool keeps it (``mean`` of
int32 is int32); ``argmax`` is int64. ``matmul`` does not promote: two types are refused, except
the pairs in ``_MATMUL_MIXED``, which run the kernel of one operand on the other's buffer and
return its type (``float32 @ int32`` is float32, ``int32 @ float32`` refused).

Missing CPU kernels ("(NotFound) The kernel with key (CPU, ..., float16) of kernel `add` is not
registered"): where a kind has kernels but a width does not (uint8, int8, int16, float16,
bfloat16, float8), the rule's dtype is the answer, marked ``no-kernel``; where a whole kind has
none (bool in arithmetic, complex in ordering and rounding, floats in bitwise functions, real
types in ``real``/``imag``), the function refuses that kind. The float8 types have kernels for
almost nothing. uint16/32/64 and complex32 are not paddle-policy types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.paddle.promotion import POLICY
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.ops import (
    ACCUMULATE,
    ALWAYS_BOOL,
    COMPLEX_TO_FLOAT,
    INDEX,
    INT_TO_FLOAT,
    NO_KERNEL,
    REFUSES_TYPE,
    SIGNATURE,
    Maps,
    Operations,
    Rule,
)

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
    index="int64",
    default_float="float32",
)
_FLOAT8 = ("float8_e4m3fn", "float8_e5m2")
_SMALL_INT = ("uint8", "int8", "int16")
_HALF = ("float16", "bfloat16")
_NARROW = (*_SMALL_INT, *_HALF, *_FLOAT8)  # the widths CPU kernels most often lack
_ARRAYS = frozenset({DIMENSIONED, ZERO_D})
_OPERATOR = "a Python scalar is the operator's (x + 1, 1 + x), as the paddle policy is"
# A Python scalar as where() makes it a tensor: its default dtype.
_SCALAR_TENSOR = {"bool": "bool", "int*": "int64", "float*": "float32", "complex*": "complex64"}


def _tensors(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Two tensors as the functions outside ``support_promotion_ops`` promote them: a 0-d
    tensor is like any other (float x float and x complex only); a Python scalar is a tensor of
    its default dtype."""

    def tensor(x: Operand) -> Operand:
        return Operand(_SCALAR_TENSOR[x.dtype] if x.category == PYTHON else x.dtype)

    return POLICY.promote(tensor(a), tensor(b), opts)


def _table_zero_d(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``floor_divide``: with a 0-d tensor of another type, the table decides."""
    if PYTHON in (a.category, b.category) or a.dtype == b.dtype:
        return POLICY.promote(a, b, opts)
    if ZERO_D in (a.category, b.category):
        return POLICY.lookup(a.dtype, b.dtype)
    return POLICY.promote(a, b, opts)


def _complex_scalar(
    operands: Sequence[Operand], ops: Operations, opts: Mapping[str, Any]
) -> Outcome | None:
    """``divide``, ``remainder``, ``pow``: a 0-d float64 or complex128 tensor with a Python
    complex is complex64 (``+`` gives complex128)."""
    kinds = {(x.category, x.dtype) for x in operands}
    if (PYTHON, "complex*") in kinds and kinds & {(ZERO_D, "float64"), (ZERO_D, "complex128")}:
        return Outcome(
            "complex64",
            "complex-scalar",
            "a Python complex with a 0-d float64 or complex128 tensor gives complex64 here"
            " (measured; x + 1j gives complex128)",
        )
    return None


def _pow(operands: Sequence[Operand], ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """``x ** 1`` of a bfloat16 tensor runs the scalar ``pow`` kernel, which has no bfloat16."""
    base, exponent = operands
    if (
        base.dtype == "bfloat16"
        and base.category != PYTHON
        and exponent.dtype in ("int*", "float*")
    ):
        return Outcome(
            "bfloat16",
            NO_KERNEL,
            f"{ref('bfloat16')} ** a Python scalar keeps {ref('bfloat16')}; but Paddle has no CPU"
            " kernel of the scalar pow for it: the call raises there (a gap, not a promotion rule)",
        )
    return _complex_scalar(operands, ops, opts)


def _bitwise_scalar(
    operands: Sequence[Operand], ops: Operations, opts: Mapping[str, Any]
) -> Outcome | None:
    """``x << 1``, ``1 << x``: a Python bool or int with an integer tensor keeps the tensor's
    type; any other scalar or tensor type is refused."""
    a, b = operands
    if PYTHON not in (a.category, b.category):
        return None
    scalar, tensor = (a, b) if a.category == PYTHON else (b, a)
    if scalar.dtype in ("bool", "int*") and dtype(tensor.dtype).kind in ("int", "uint"):
        return Outcome(tensor.dtype, "scalar", "a Python bool or int keeps the tensor's type")
    return refuse(
        REFUSES_TYPE,
        f"Paddle's bitwise functions take only a Python bool or int with an integer tensor,"
        f" not a {ref(scalar.dtype)} with {ref(tensor.dtype)}",
    )


def _and_scalar(
    operands: Sequence[Operand], ops: Operations, opts: Mapping[str, Any]
) -> Outcome | None:
    """``1 & x`` is ``x.__rand__(1)``; ``x & 1`` calls ``bitwise_and(x, 1)``, which takes
    tensors only. A bool tensor keeps bool."""
    a, b = operands
    if b.category == PYTHON and a.category != PYTHON:
        return refuse(SIGNATURE, "x & 1 calls paddle.bitwise_and, which takes tensors only")
    if a.category == PYTHON and a.dtype in ("bool", "int*") and b.dtype == "bool":
        return Outcome("bool", "scalar", "a Python bool or int keeps the tensor's type")
    return _bitwise_scalar(operands, ops, opts)


# matmul does not promote; these pairs of different types run anyway (measured) and return
# the type of the operand whose kernel ran; every other pair of different types is refused.
_MATMUL_MIXED = {
    ("float32", "int32"): "float32",
    ("float32", "int64"): "float32",
    **{(t, "complex64"): "complex64" for t in ("uint8", "int16", *_HALF, "float32")},
    **{("complex64", t): "complex64" for t in ("uint8", "int16", *_HALF, "float32")},
    **{(t, "complex128"): "complex128" for t in ("uint8", "int16", *_HALF, "float32", "float64")},
    **{("complex128", t): "complex128" for t in ("uint8", "int16", *_HALF, "float32", "float64")},
}


def _matmul(
    operands: Sequence[Operand], ops: Operations, opts: Mapping[str, Any]
) -> Outcome | None:
    a, b = operands
    found = _MATMUL_MIXED.get((a.dtype, b.dtype))
    if found is None:
        return None
    return Outcome(
        found,
        "mixed-kernel",
        f"matmul does not promote; {ref(a.dtype)} @ {ref(b.dtype)} runs the {ref(found)} kernel"
        " anyway (measured)",
    )


RULES = {
    "add": Rule("paddle.add", no_kernel=(*_HALF, *_FLOAT8), note=_OPERATOR),
    "subtract": Rule(
        "paddle.subtract",
        refuses=("bool",),
        no_kernel=("uint8", "int8", "float16", *_FLOAT8),
        note=_OPERATOR,
    ),
    "multiply": Rule(
        "paddle.multiply", no_kernel=(*_SMALL_INT, "float16", *_FLOAT8), note=_OPERATOR
    ),
    "divide": Rule(
        "paddle.divide",
        INT_TO_FLOAT,
        overrides={"bool": "bool"},
        no_kernel=(*_HALF, *_FLOAT8),
        special=_complex_scalar,
        note=_OPERATOR,
    ),
    "floor_divide": Rule(
        "paddle.floor_divide",
        refuses=("bool", "complex"),
        no_kernel=_FLOAT8,
        pair=_table_zero_d,
        pair_name="promoteTypes with any 0-d tensor",
        note=_OPERATOR,
    ),
    "remainder": Rule(
        "paddle.remainder",
        refuses=("bool",),
        no_kernel=_NARROW,
        special=_complex_scalar,
        note=_OPERATOR,
    ),
    "pow": Rule(
        "paddle.pow",
        refuses=("bool",),
        no_kernel=(*_SMALL_INT, "float16", *_FLOAT8),
        special=_pow,
        note=_OPERATOR,
    ),
    "maximum": Rule(
        "paddle.maximum",
        refuses=("bool", "complex"),
        no_kernel=(*_SMALL_INT, "float16", *_FLOAT8),
        categories=_ARRAYS,
        pair=_tensors,
        pair_name="tensors only (no 0-d rule)",
    ),
    "minimum": Rule(
        "paddle.minimum",
        refuses=("bool", "complex"),
        no_kernel=(*_SMALL_INT, "float16", *_FLOAT8),
        categories=_ARRAYS,
        pair=_tensors,
        pair_name="tensors only (no 0-d rule)",
    ),
    "equal": Rule("paddle.equal", ALWAYS_BOOL, no_kernel=_FLOAT8, note=_OPERATOR),
    "less": Rule("paddle.less_than", ALWAYS_BOOL, no_kernel=_FLOAT8, note=_OPERATOR),
    "logical_and": Rule(
        "paddle.logical_and",
        ALWAYS_BOOL,
        no_kernel=("uint8", *_HALF, *_FLOAT8),
        categories=_ARRAYS,
        pair=_tensors,
        pair_name="tensors only (no 0-d rule)",
    ),
    "bitwise_and": Rule(
        "paddle.bitwise_and",
        refuses=("float", "complex"),
        same_dtype=True,
        special=_and_scalar,
        note="1 & x is x.__rand__(1); x & 1 calls paddle.bitwise_and, which refuses it",
    ),
    "bitwise_left_shift": Rule(
        "paddle.bitwise_left_shift",
        refuses=("bool", "float", "complex"),
        same_dtype=True,
        special=_bitwise_scalar,
        note="a Python scalar is the operator's (x << 1, 1 << x)",
    ),
    "atan2": Rule(
        "paddle.atan2",
        overrides={t: "float64" for t in (*_SMALL_INT, "int32", "int64")},
        refuses=("bool", "complex"),
        no_kernel=(*_SMALL_INT, "bfloat16", *_FLOAT8),
        categories=_ARRAYS,
        pair=_tensors,
        pair_name="tensors only (no 0-d rule)",
    ),
    "matmul": Rule(
        "paddle.matmul",
        refuses=("bool",),
        no_kernel=_NARROW,
        same_dtype=True,
        categories=frozenset({DIMENSIONED}),
        special=_matmul,
    ),
    "negative": Rule("paddle.neg", no_kernel=_FLOAT8),
    "abs": Rule("paddle.abs", COMPLEX_TO_FLOAT, refuses=("bool",), no_kernel=_NARROW),
    "sqrt": Rule("paddle.sqrt", INT_TO_FLOAT, refuses=("bool",), no_kernel=(*_HALF, *_FLOAT8)),
    "exp": Rule(
        "paddle.exp", INT_TO_FLOAT, refuses=("bool",), no_kernel=(*_SMALL_INT, "bfloat16", *_FLOAT8)
    ),
    "log": Rule("paddle.log", INT_TO_FLOAT, refuses=("bool",), no_kernel=(*_SMALL_INT, *_FLOAT8)),
    "sin": Rule("paddle.sin", INT_TO_FLOAT, refuses=("bool",), no_kernel=(*_HALF, *_FLOAT8)),
    "floor": Rule("paddle.floor", refuses=("bool", "complex"), no_kernel=_FLOAT8),
    "ceil": Rule("paddle.ceil", refuses=("bool", "complex"), no_kernel=_FLOAT8),
    "round": Rule("paddle.round", refuses=("bool",), no_kernel=_NARROW),
    "sign": Rule("paddle.sign", refuses=("bool",), no_kernel=(*_HALF, *_FLOAT8)),
    "square": Rule("paddle.square", refuses=("bool",), no_kernel=_NARROW),
    "logical_not": Rule("paddle.logical_not", ALWAYS_BOOL, no_kernel=("uint8", *_HALF, *_FLOAT8)),
    "bitwise_invert": Rule("paddle.bitwise_not", refuses=("float", "complex")),
    "real": Rule("paddle.real", COMPLEX_TO_FLOAT, refuses=("bool", "int", "uint", "float")),
    "imag": Rule("paddle.imag", COMPLEX_TO_FLOAT, refuses=("bool", "int", "uint", "float")),
    "isnan": Rule(
        "paddle.isnan", ALWAYS_BOOL, refuses=("bool",), no_kernel=(*_SMALL_INT, *_FLOAT8)
    ),
    "sum": Rule("paddle.sum", ACCUMULATE, no_kernel=_FLOAT8),
    "prod": Rule("paddle.prod", refuses=("bool",), no_kernel=_NARROW),
    "mean": Rule("paddle.mean", no_kernel=_NARROW),
    "max": Rule("paddle.max", refuses=("bool", "complex"), no_kernel=_NARROW),
    "argmax": Rule(
        "paddle.argmax",
        INDEX,
        refuses=("bool", "complex"),
        no_kernel=("int8", *_HALF, *_FLOAT8),
    ),
    "cumulative_sum": Rule(
        "paddle.cumsum",
        ACCUMULATE,
        overrides=dict.fromkeys(_SMALL_INT, "int64"),
        refuses=("bool",),
        no_kernel=(*_HALF, *_FLOAT8),
        note="axis=0",
    ),
    "where": Rule(
        "paddle.where",
        no_kernel=_NARROW,
        pair=_tensors,
        pair_name="tensors only, a Python scalar as a tensor of its default dtype",
    ),
}

OPERATIONS = Operations(
    POLICY, lambda opts: MAPS, RULES, "Paddle 3.3.1's functions on the CPU (eager), measured"
)
