"""TensorFlow's operations: ``tf.experimental.numpy`` with NumPy behaviour (TensorFlow 2.21).

Measured on TensorFlow 2.21 with ``tnp.experimental_enable_numpy_behavior(
dtype_conversion_mode=...)`` in both modes, over every operand pair (tensors, Python scalars and
WeakTensors on either side), and checked by ``promote verify``. These are ``tnp``'s functions,
not TensorFlow's operators: ``a + b`` follows the tensorflow policy, ``tnp.add(a, b)`` does not.

Two pair rules live inside ``tnp``, and a rule names the one its function uses:

- ``tnp``'s arithmetic (``add`` ... ``atan2``, ``bitwise_and``) promotes with **NumPy's**
  ``np.result_type`` (NumPy 2, NEP 50, with ml_dtypes' bfloat16), whatever
  ``dtype_conversion_mode`` says: ``tnp.add(int32, float16)`` is float64 where ``a + b`` gives
  float16. A WeakTensor counts as its plain dtype there (``int8 + int32*`` is int32); bfloat16
  promotes only with bool, uint8, int8, float32, float64 and complex (``bfloat16 + 1.0`` is
  float64), and NumPy refuses the rest;
- ``equal``, ``less``, ``matmul`` and ``where`` promote with the tensorflow policy (so they
  depend on the mode); ``where`` returns its result as a tensor (a weak result comes out
  strong); ``logical_and`` casts each operand to bool and never promotes.

Maps: an integer becomes float32 (``sqrt``, ``exp``, ``log``, ``sin``, ``floor``, ``ceil``,
``mean``; bfloat16 too), but ``divide`` makes 32- and 64-bit integers float64. ``sum`` and
``prod`` accumulate in TensorFlow's default int, int32 (uint32 for small unsigned types, 64-bit
types keep theirs); ``cumsum`` accumulates unsigned types in int32, and uint64 in float32.
``tnp`` has no left shift: ``bitwise_left_shift`` is absent (``tf.bitwise.left_shift`` is
TensorFlow's own and takes one dtype). Refusals are TensorFlow's op registrations ("Value for
attr 'T' of int8 is not in the list of allowed values"): strings for nearly everything, ``pow``
of bool and unsigned types, ``atan2`` of integers, ``matmul`` of bool, int8, int16. Missing
kernels ("Could not find device for node"): ``matmul`` of unsigned types, ``floor_divide`` and
``round`` of complex.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.dtypes import is_weak
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.numpy import promotion as numpy_policy
from promote_cli.frameworks.tensorflow.promotion import POLICY
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.ops import (
    ACCUMULATE,
    ALWAYS_BOOL,
    COMPLEX_TO_FLOAT,
    INDEX,
    INT_TO_FLOAT,
    Maps,
    Operations,
    Rule,
)

MAPS = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},
    accumulate={
        "bool": "int32",
        "int": "int32",
        "uint": "uint32",
        "int64": "int64",
        "uint64": "uint64",
    },
    real={"complex64": "float32", "complex128": "float64"},
    index="int64",
    default_float="float32",
)

# bfloat16 in np.result_type (ml_dtypes): what it promotes to with each type it promotes with.
_BFLOAT16 = {
    "bool": "bfloat16",
    "uint8": "bfloat16",
    "int8": "bfloat16",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float64": "float64",
    "complex64": "complex64",
    "complex128": "complex128",
    "int*": "bfloat16",
    "float*": "float64",
    "complex*": "complex64",
}
_NUMPY = numpy_policy.POLICY


def _numpy_result_type(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``np.result_type`` as ``tnp``'s arithmetic calls it: a WeakTensor (``int32*``) as its
    plain dtype, a Python scalar weak (NEP 50), ml_dtypes' bfloat16 beside NumPy's types; two
    strings fall back to TensorFlow's own rule (string)."""
    a, b = (
        Operand(x.dtype.removesuffix("*"), DIMENSIONED) if _weak_tensor(x) else x for x in (a, b)
    )
    if "string" in (a.dtype, b.dtype):
        if a.dtype == b.dtype:
            return Outcome("string", "string", "two strings: TensorFlow's own rule")
        return refuse("numpy", f"NumPy has no promotion of {ref(a.dtype)} with {ref(b.dtype)}")
    if "bfloat16" in (a.dtype, b.dtype):
        other = b.dtype if a.dtype == "bfloat16" else a.dtype
        result = _BFLOAT16.get(other)
        if result is None:
            return refuse(
                "numpy", f"np.result_type has no promotion of {ref('bfloat16')} with {ref(other)}"
            )
        return Outcome(result, "numpy", f"np.result_type with ml_dtypes' bfloat16: {ref(result)}")
    return _NUMPY.promote(a, b, {})


def _weak_tensor(op: Operand) -> bool:
    return (
        op.category == PYTHON
        and is_weak(op.dtype)
        and op.dtype not in ("int*", "float*", "complex*")
    )


def _as_bools(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``tnp.logical_and`` casts each operand to bool: there is nothing to promote."""
    for x in (a, b):
        if x.dtype == "string":
            return refuse("cast", f"TensorFlow cannot cast {ref('string')} to {ref('bool')}")
    return Outcome("bool", "cast", "each operand is cast to bool")


_NP = {"pair": _numpy_result_type, "pair_name": "np.result_type"}
_BF16 = {"bfloat16": "float32"}  # tnp's float functions compute bfloat16 in float32
_INT8 = {"bool": "int8"}

RULES = {
    "add": Rule("tnp.add", **_NP),
    "subtract": Rule("tnp.subtract", refuses=("bool", "string"), **_NP),
    "multiply": Rule("tnp.multiply", refuses=("string",), **_NP),
    "divide": Rule(
        "tnp.divide",
        INT_TO_FLOAT,
        refuses=("string",),
        overrides={t: "float64" for t in ("int32", "int64", "uint32", "uint64")},
        **_NP,
    ),
    "floor_divide": Rule(
        "tnp.floor_divide", refuses=("string",), no_kernel=("complex",), overrides=_INT8, **_NP
    ),
    "remainder": Rule("tnp.remainder", refuses=("complex", "string"), overrides=_INT8, **_NP),
    "pow": Rule("tnp.power", refuses=("bool", "uint", "string"), **_NP),
    "maximum": Rule("tnp.maximum", refuses=("complex", "string"), **_NP),
    "minimum": Rule("tnp.minimum", refuses=("complex", "string"), **_NP),
    "equal": Rule("tnp.equal", ALWAYS_BOOL),
    "less": Rule("tnp.less", ALWAYS_BOOL, refuses=("complex", "string")),
    "logical_and": Rule("tnp.logical_and", ALWAYS_BOOL, pair=_as_bools, pair_name="a cast to bool"),
    "bitwise_and": Rule("tnp.bitwise_and", refuses=("float", "complex", "string"), **_NP),
    "bitwise_left_shift": Rule(
        None, note="tnp has no left shift; tf.bitwise.left_shift takes one dtype only"
    ),
    "atan2": Rule("tnp.arctan2", refuses=("bool", "uint", "int", "complex", "string"), **_NP),
    "matmul": Rule(
        "tnp.matmul",
        refuses=("bool", "int8", "int16", "string"),
        no_kernel=("uint",),
        categories=frozenset({DIMENSIONED}),
    ),
    "negative": Rule("tnp.negative", refuses=("bool", "uint", "string")),
    "abs": Rule("tnp.abs", COMPLEX_TO_FLOAT, refuses=("bool", "uint", "string")),
    "sqrt": Rule("tnp.sqrt", INT_TO_FLOAT, refuses=("string",), overrides=_BF16),
    "exp": Rule("tnp.exp", INT_TO_FLOAT, refuses=("string",), overrides=_BF16),
    "log": Rule("tnp.log", INT_TO_FLOAT, refuses=("string",), overrides=_BF16),
    "sin": Rule("tnp.sin", INT_TO_FLOAT, refuses=("string",), overrides=_BF16),
    "floor": Rule("tnp.floor", INT_TO_FLOAT, refuses=("complex", "string"), overrides=_BF16),
    "ceil": Rule("tnp.ceil", INT_TO_FLOAT, refuses=("complex", "string"), overrides=_BF16),
    "round": Rule("tnp.round", refuses=("string",), no_kernel=("complex",)),
    "sign": Rule("tnp.sign", refuses=("bool", "uint", "string")),
    "square": Rule("tnp.square", refuses=("bool", "string")),
    "logical_not": Rule("tnp.logical_not", ALWAYS_BOOL, refuses=("string",)),
    "bitwise_invert": Rule("tnp.bitwise_not", refuses=("float", "complex", "string")),
    "real": Rule("tnp.real", COMPLEX_TO_FLOAT, refuses=("bool", "string")),
    "imag": Rule("tnp.imag", COMPLEX_TO_FLOAT),
    "isnan": Rule("tnp.isnan", ALWAYS_BOOL, refuses=("complex", "string")),
    "sum": Rule("tnp.sum", ACCUMULATE, refuses=("string",)),
    "prod": Rule("tnp.prod", ACCUMULATE, refuses=("string",)),
    "mean": Rule("tnp.mean", INT_TO_FLOAT, refuses=("string",)),
    "max": Rule("tnp.max", refuses=("complex", "string")),
    "argmax": Rule("tnp.argmax", INDEX, refuses=("complex", "string")),
    "cumulative_sum": Rule(
        "tnp.cumsum",
        ACCUMULATE,
        refuses=("bool", "string"),
        overrides={"uint8": "int32", "uint16": "int32", "uint32": "int32", "uint64": "float32"},
    ),
    "where": Rule("tnp.where", materialise=True),
}

OPERATIONS = Operations(
    POLICY,
    lambda opts: MAPS,
    RULES,
    "tf.experimental.numpy with NumPy behaviour (TensorFlow 2.21), measured in both modes",
)
