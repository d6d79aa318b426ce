"""Keras's operations per backend, as measured (Keras 3.15.1, eager on the CPU; jax traced):
one table of rules for each backend, in the one form of ``promote_cli.rules.Rule``. A rule names
its pair rule (``pairs.py``) and its special case (``specials.py``) by key; a unary operation or
a reduction starts from the array's own dtype (``Operations.one_operand_pair``). What each
backend does, and why, is in ``operations.py``'s docstring.

An override to ``FLOATX`` is Keras's ``floatx`` itself, whatever it is set to (TensorFlow's
``ceil`` of an int64 is float16 under ``floatx=float16``): it is the kind ``INT_TO_DEFAULT``
applied to that type, which reads ``Maps.default_float`` under the setting asked.
"""

from __future__ import annotations

from collections.abc import Mapping

from promote_cli.operands import DIMENSIONED
from promote_cli.rules import ANY_VALUE, INT64_VALUE, REFUSES_OPERAND, D, Rule
from promote_cli.vocabulary import (
    ACCUMULATE,
    ALWAYS_BOOL,
    COMPLEX_TO_FLOAT,
    INDEX,
    INT_TO_DEFAULT,
    INT_TO_FLOAT,
    VOCABULARY,
    takes_one,
)

Rules = Mapping[str, Rule]
FLOATX = INT_TO_DEFAULT  # an override to floatx, whatever it is set to
_ARRAYS = frozenset({DIMENSIONED})
_FLOAT8 = ("float8_e4m3fn", "float8_e5m2")
_COMPLEX = ("complex64", "complex128")
# torch: no bitwise kernel for any float or complex type, the kind's refusal (as torch's own).
_FLOATS = (
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "float8_e4m3fn",
    "float8_e5m2",
    "complex32",
    "complex64",
    "complex128",
)
# jnp's own float for a bool or an integer (its default float without x64), whatever floatx.
_JNP_FLOAT = dict.fromkeys(
    ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"), "float32"
)

# Measured: the kind, and the promoted types refused, without a kernel or with their own output.
TENSORFLOW: Rules = {
    "abs": Rule("keras.ops.absolute", COMPLEX_TO_FLOAT, refuses=_FLOAT8),
    # AddV2 admits no bool on any device: a refusal (``promotion.ADDV2_BOOL``), not a gap.
    "add": Rule("keras.ops.add", refuses=("bool",)),
    "argmax": Rule("keras.ops.argmax", INDEX, refuses=(*_COMPLEX, *_FLOAT8)),
    "atan2": Rule(
        "keras.ops.arctan2",
        INT_TO_FLOAT,
        refuses=("complex64",),
        pair="converted",
        value=ANY_VALUE,
        value_special="tf_converted_value",
    ),
    "bitwise_and": Rule(
        "keras.ops.bitwise_and",
        refuses=("bfloat16", "bool", "complex64", "float16", "float32", "float64"),
        pair="converted",
        value=ANY_VALUE,
        value_special="tf_converted_int64",
    ),
    "bitwise_invert": Rule(
        "keras.ops.bitwise_invert",
        refuses=("bfloat16", "bool", "float16", "float32", "float64", *_COMPLEX, *_FLOAT8),
    ),
    "bitwise_left_shift": Rule(
        "keras.ops.bitwise_left_shift",
        refuses=("bfloat16", "bool", "complex64", "float16", "float32", "float64"),
        pair="converted",
        special="python_shift",
        value=ANY_VALUE,
        value_special="tf_shift_value",
    ),
    "ceil": Rule(
        "keras.ops.ceil", INT_TO_FLOAT, refuses=(*_COMPLEX, *_FLOAT8), overrides={"int64": FLOATX}
    ),
    "cumulative_sum": Rule("keras.ops.cumsum", refuses=_FLOAT8, overrides={"bool": "int32"}),
    "divide": Rule("keras.ops.divide", INT_TO_FLOAT, value=ANY_VALUE, value_special="float_value"),
    "equal": Rule(
        "keras.ops.equal",
        ALWAYS_BOOL,
        pair="declared",
        value=ANY_VALUE,
        value_special="tf_converted_value",
    ),
    "exp": Rule("keras.ops.exp", INT_TO_DEFAULT, refuses=_FLOAT8),
    "floor": Rule(
        "keras.ops.floor", INT_TO_FLOAT, refuses=(*_COMPLEX, *_FLOAT8), overrides={"int64": FLOATX}
    ),
    # FloorDiv and Round register no complex kernel on any device: refusals, not gaps.
    "floor_divide": Rule(
        "keras.ops.floor_divide",
        refuses=("bool", "complex64"),
        value_special="tf_floor_divide_value",
    ),
    "imag": Rule("keras.ops.imag", COMPLEX_TO_FLOAT, refuses=_FLOAT8),
    "isnan": Rule("keras.ops.isnan", ALWAYS_BOOL, refuses=(*_COMPLEX, *_FLOAT8)),
    "less": Rule(
        "keras.ops.less",
        ALWAYS_BOOL,
        refuses=("bool", "complex64"),
        pair="declared",
        value=ANY_VALUE,
        value_special="tf_converted_value",
    ),
    "log": Rule(
        "keras.ops.log",
        INT_TO_FLOAT,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "int64": FLOATX},
    ),
    "logical_and": Rule(
        "keras.ops.logical_and",
        ALWAYS_BOOL,
        pair="declared",
        value=ANY_VALUE,
        value_special="tf_converted_value",
    ),
    "logical_not": Rule("keras.ops.logical_not", ALWAYS_BOOL, refuses=_FLOAT8),
    "matmul": Rule("keras.ops.matmul", categories=_ARRAYS),
    "max": Rule("keras.ops.max", refuses=(*_COMPLEX, *_FLOAT8)),
    "maximum": Rule("keras.ops.maximum", refuses=("bool", "complex64")),
    "mean": Rule(
        "keras.ops.mean",
        refuses=_FLOAT8,
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint16": "float32",
            "uint32": "float32",
            "uint64": "float32",
            "uint8": "float32",
        },
    ),
    "minimum": Rule("keras.ops.minimum", refuses=("bool", "complex64")),
    "multiply": Rule("keras.ops.multiply", refuses=("bool",)),
    "negative": Rule(
        "keras.ops.negative", refuses=("bool", "uint16", "uint32", "uint64", "uint8", *_FLOAT8)
    ),
    "pow": Rule("keras.ops.power", refuses=("bool",), value_special="tf_negative_power"),
    "prod": Rule(
        "keras.ops.prod",
        ACCUMULATE,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "uint64": "uint32"},
    ),
    "real": Rule("keras.ops.real", COMPLEX_TO_FLOAT, refuses=("bool", *_FLOAT8)),
    "remainder": Rule(
        "keras.ops.mod",
        refuses=("complex64",),
        overrides={"bool": "int32"},
        pair="converted",
        value=ANY_VALUE,
        value_special="tf_remainder_value",
    ),
    "round": Rule("keras.ops.round", refuses=("bool", *_FLOAT8, *_COMPLEX)),
    "sign": Rule("keras.ops.sign", refuses=("bool", "uint64", *_FLOAT8)),
    "sin": Rule(
        "keras.ops.sin",
        INT_TO_FLOAT,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "int64": FLOATX},
    ),
    "sqrt": Rule(
        "keras.ops.sqrt",
        INT_TO_FLOAT,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "int64": FLOATX},
    ),
    "square": Rule("keras.ops.square", refuses=_FLOAT8, overrides={"bool": "int32"}),
    "subtract": Rule("keras.ops.subtract", refuses=("bool",)),
    "sum": Rule("keras.ops.sum", ACCUMULATE, refuses=_FLOAT8),
    "where": Rule("keras.ops.where"),
}

NUMPY: Rules = {
    "abs": Rule("keras.ops.absolute", COMPLEX_TO_FLOAT),
    "add": Rule("keras.ops.add"),
    "argmax": Rule("keras.ops.argmax", INDEX, refuses=_FLOAT8),
    "atan2": Rule(
        "keras.ops.arctan2",
        INT_TO_FLOAT,
        refuses=("complex64",),
        pair="converted",
        value=ANY_VALUE,
        value_special="converted_value",
    ),
    "bitwise_and": Rule(
        "keras.ops.bitwise_and",
        refuses=("bfloat16", "complex64", "float16", "float32"),
        pair="converted",
        value=ANY_VALUE,
        value_special="converted_value",
    ),
    "bitwise_invert": Rule(
        "keras.ops.bitwise_invert",
        refuses=("bfloat16", "float16", "float32", "float64", *_COMPLEX, *_FLOAT8),
        overrides={"int64": "int32", "uint64": "uint32"},
    ),
    "bitwise_left_shift": Rule(
        "keras.ops.bitwise_left_shift",
        refuses=("bfloat16", "complex64", "float16", "float32"),
        overrides={"bool": "int8"},
        pair="converted",
        special="python_shift",
        value=ANY_VALUE,
        value_special="numpy_shift_value",
    ),
    "ceil": Rule(
        "keras.ops.ceil",
        INT_TO_FLOAT,
        refuses=(*_COMPLEX, *_FLOAT8),
        overrides={"float64": "float32"},
    ),
    "cumulative_sum": Rule(
        "keras.ops.cumsum",
        refuses=_FLOAT8,
        overrides={
            "bool": "int32",
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
            "uint64": "uint32",
        },
    ),
    "divide": Rule("keras.ops.divide", INT_TO_FLOAT, value=ANY_VALUE, value_special="float_value"),
    "equal": Rule(
        "keras.ops.equal",
        ALWAYS_BOOL,
        pair="raw",
        value=ANY_VALUE,
        value_special="numpy_compared",
    ),
    "exp": Rule(
        "keras.ops.exp",
        INT_TO_DEFAULT,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "floor": Rule(
        "keras.ops.floor",
        INT_TO_FLOAT,
        refuses=(*_COMPLEX, *_FLOAT8),
        overrides={"float64": "float32"},
    ),
    "floor_divide": Rule(
        "keras.ops.floor_divide", refuses=("complex64",), overrides={"bool": "int8"}
    ),
    "imag": Rule("keras.ops.imag", COMPLEX_TO_FLOAT),
    "isnan": Rule("keras.ops.isnan", ALWAYS_BOOL),
    "less": Rule(
        "keras.ops.less",
        ALWAYS_BOOL,
        pair="raw",
        value=ANY_VALUE,
        value_special="numpy_compared",
    ),
    "log": Rule(
        "keras.ops.log",
        INT_TO_FLOAT,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "logical_and": Rule("keras.ops.logical_and", ALWAYS_BOOL, pair="raw", value=INT64_VALUE),
    "logical_not": Rule("keras.ops.logical_not", ALWAYS_BOOL),
    "matmul": Rule("keras.ops.matmul", categories=_ARRAYS, special="int8_matmul"),
    "max": Rule("keras.ops.max"),
    "maximum": Rule("keras.ops.maximum"),
    "mean": Rule(
        "keras.ops.mean",
        refuses=_FLOAT8,
        overrides={
            "bool": "float32",
            "complex128": "complex64",
            "float64": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint16": "float32",
            "uint32": "float32",
            "uint64": "float32",
            "uint8": "float32",
        },
    ),
    "minimum": Rule("keras.ops.minimum"),
    "multiply": Rule("keras.ops.multiply"),
    "negative": Rule("keras.ops.negative", refuses=("bool",)),
    "pow": Rule(
        "keras.ops.power", overrides={"bool": "int8"}, value_special="numpy_negative_power"
    ),
    "prod": Rule(
        "keras.ops.prod",
        ACCUMULATE,
        refuses=_FLOAT8,
        overrides={
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
            "uint64": "uint32",
        },
    ),
    "real": Rule("keras.ops.real", COMPLEX_TO_FLOAT),
    "remainder": Rule(
        "keras.ops.mod",
        refuses=("complex64",),
        overrides={"bool": "int32"},
        pair="converted",
        value=ANY_VALUE,
        value_special="converted_value",
    ),
    "round": Rule("keras.ops.round", overrides={"bool": "float16"}),
    "sign": Rule("keras.ops.sign", refuses=("bool",)),
    "sin": Rule(
        "keras.ops.sin",
        INT_TO_FLOAT,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "sqrt": Rule(
        "keras.ops.sqrt",
        INT_TO_FLOAT,
        refuses=_FLOAT8,
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "square": Rule(
        "keras.ops.square",
        refuses=_FLOAT8,
        overrides={
            "bool": "int32",
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
            "uint64": "uint32",
        },
    ),
    "subtract": Rule("keras.ops.subtract", refuses=("bool",)),
    "sum": Rule("keras.ops.sum", ACCUMULATE),
    "where": Rule("keras.ops.where"),
}

OPENVINO: Rules = {
    "abs": Rule("keras.ops.absolute", refuses=_COMPLEX),
    "add": Rule("keras.ops.add"),
    "argmax": Rule("keras.ops.argmax", INDEX, refuses=_COMPLEX),
    "atan2": Rule(
        "keras.ops.arctan2",
        INT_TO_FLOAT,
        refuses=("complex64",),
        pair="converted",
        value=ANY_VALUE,
        value_special="converted_value",
    ),
    "bitwise_and": Rule(
        "keras.ops.bitwise_and",
        refuses=("bfloat16", "complex64", "float16", "float32"),
        pair="converted",
    ),
    "bitwise_invert": Rule(
        "keras.ops.bitwise_invert",
        refuses=("bfloat16", "float16", "float32", "float64", *_COMPLEX, *_FLOAT8),
    ),
    "bitwise_left_shift": Rule(
        "keras.ops.bitwise_left_shift",
        refuses=("bfloat16", "bool", "complex64", "float16", "float32"),
        pair="tensor_typed",
        value=ANY_VALUE,
        value_special="ov_typed_value",
    ),
    "ceil": Rule("keras.ops.ceil", INT_TO_DEFAULT, refuses=_COMPLEX),
    "cumulative_sum": Rule("keras.ops.cumsum", refuses=_COMPLEX, overrides={"bool": "int32"}),
    "divide": Rule(
        "keras.ops.divide", INT_TO_FLOAT, value=ANY_VALUE, value_special="ov_typed_value"
    ),
    "equal": Rule("keras.ops.equal", ALWAYS_BOOL, value=ANY_VALUE, value_special="ov_typed_value"),
    "exp": Rule("keras.ops.exp", INT_TO_DEFAULT, refuses=_COMPLEX),
    "floor": Rule("keras.ops.floor", INT_TO_DEFAULT, refuses=_COMPLEX),
    "floor_divide": Rule(
        "keras.ops.floor_divide",
        refuses=_COMPLEX,
        pair="ov_floor_divide",
        value=ANY_VALUE,
        value_special="converted_value",
    ),
    "imag": Rule("keras.ops.imag", refuses=_COMPLEX),
    "isnan": Rule("keras.ops.isnan", ALWAYS_BOOL, refuses=_COMPLEX),
    "less": Rule("keras.ops.less", ALWAYS_BOOL, value=ANY_VALUE, value_special="ov_typed_value"),
    "log": Rule("keras.ops.log", INT_TO_DEFAULT, refuses=_COMPLEX),
    "logical_and": Rule(
        "keras.ops.logical_and",
        pair="each_bool",
        value=ANY_VALUE,
        value_special="converted_value",
    ),
    "logical_not": Rule("keras.ops.logical_not", ALWAYS_BOOL, refuses=_COMPLEX),
    "matmul": Rule("keras.ops.matmul", categories=_ARRAYS, special="int8_matmul"),
    "max": Rule("keras.ops.max", refuses=_COMPLEX),
    "maximum": Rule("keras.ops.maximum", refuses=("bool",)),
    "mean": Rule("keras.ops.mean", INT_TO_DEFAULT, refuses=_COMPLEX),
    "minimum": Rule("keras.ops.minimum", refuses=("bool",)),
    "multiply": Rule("keras.ops.multiply"),
    "negative": Rule("keras.ops.negative", refuses=("bool", *_COMPLEX)),
    "pow": Rule("keras.ops.power", refuses=("bool",)),
    "prod": Rule("keras.ops.prod", ACCUMULATE, refuses=_COMPLEX),
    "real": Rule("keras.ops.real", refuses=_COMPLEX),
    "remainder": Rule(
        "keras.ops.mod",
        refuses=("bool", "complex64"),
        pair="converted",
        value=ANY_VALUE,
        value_special="converted_value",
    ),
    "round": Rule("keras.ops.round", refuses=_COMPLEX),
    "sign": Rule("keras.ops.sign", refuses=("bool", *_COMPLEX)),
    "sin": Rule("keras.ops.sin", INT_TO_DEFAULT, refuses=_COMPLEX),
    "sqrt": Rule("keras.ops.sqrt", INT_TO_DEFAULT, refuses=_COMPLEX),
    "square": Rule("keras.ops.square", refuses=_COMPLEX, overrides={"bool": "int32"}),
    "subtract": Rule("keras.ops.subtract"),
    "sum": Rule("keras.ops.sum", ACCUMULATE, refuses=_COMPLEX),
    "where": Rule("keras.ops.where", refuses=("complex64",), pair="like_tensor"),
}

TORCH: Rules = {
    "abs": Rule("keras.ops.absolute", COMPLEX_TO_FLOAT),
    "add": Rule("keras.ops.add", no_kernel=_FLOAT8, value_special="torch_large_int"),
    "argmax": Rule("keras.ops.argmax", INDEX, refuses=_COMPLEX, no_kernel=_FLOAT8),
    "atan2": Rule("keras.ops.arctan2", INT_TO_FLOAT, refuses=("complex64",), pair="converted"),
    "bitwise_and": Rule(
        "keras.ops.bitwise_and",
        refuses=_FLOATS,
        pair="torch_tensors",
        value_special="torch_large_int",
    ),
    "bitwise_invert": Rule("keras.ops.bitwise_invert", refuses=_FLOATS),
    "bitwise_left_shift": Rule(
        "keras.ops.bitwise_left_shift",
        refuses=_FLOATS,
        no_kernel=("bool",),
        pair="torch_tensors",
        special="torch_shift",
        value=ANY_VALUE,
        value_special="torch_shift_value",
    ),
    "ceil": Rule(
        "keras.ops.ceil",
        INT_TO_FLOAT,
        refuses=(*_COMPLEX, *_FLOAT8),
        overrides={"float64": "float32", "int64": FLOATX},
    ),
    "cumulative_sum": Rule(
        "keras.ops.cumsum",
        no_kernel=_FLOAT8,
        overrides={
            "bool": "int32",
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
        },
    ),
    "divide": Rule(
        "keras.ops.divide",
        no_kernel=("complex32", *_FLOAT8),
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
        pair="torch_kept",
        value=ANY_VALUE,
        value_special="torch_kept_value",
    ),
    "equal": Rule("keras.ops.equal", ALWAYS_BOOL, pair="torch_tensors"),
    "exp": Rule("keras.ops.exp", INT_TO_DEFAULT, no_kernel=_FLOAT8),
    "floor": Rule(
        "keras.ops.floor",
        INT_TO_FLOAT,
        refuses=(*_COMPLEX, *_FLOAT8),
        overrides={"float64": "float32", "int64": FLOATX},
    ),
    "floor_divide": Rule(
        "keras.ops.floor_divide",
        refuses=("complex64",),
        no_kernel=("bool",),
        pair="declared",
        special="float8_same",
        value=ANY_VALUE,
        value_special="torch_floor_divide_value",
    ),
    "imag": Rule(
        "keras.ops.imag",
        COMPLEX_TO_FLOAT,
        refuses=(
            "bfloat16",
            "bool",
            "float16",
            "float32",
            "float64",
            "int16",
            "int32",
            "int64",
            "int8",
            "uint8",
            *_FLOAT8,
        ),
    ),
    "isnan": Rule("keras.ops.isnan", ALWAYS_BOOL),
    "less": Rule(
        "keras.ops.less",
        ALWAYS_BOOL,
        refuses=("complex32", *_COMPLEX),
        no_kernel=_FLOAT8,
        pair="torch_tensors",
    ),
    "log": Rule(
        "keras.ops.log",
        no_kernel=_FLOAT8,
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "logical_and": Rule(
        "keras.ops.logical_and",
        ALWAYS_BOOL,
        no_kernel=("complex32", *_FLOAT8),
        pair="torch_tensors",
    ),
    "logical_not": Rule("keras.ops.logical_not", ALWAYS_BOOL, no_kernel=_FLOAT8),
    "matmul": Rule(
        "keras.ops.matmul",
        no_kernel=_FLOAT8,
        overrides={"complex128": "complex64", "float64": "float32", "int64": "int32"},
        categories=_ARRAYS,
        special="int8_matmul",
    ),
    "max": Rule("keras.ops.max", refuses=_COMPLEX, no_kernel=_FLOAT8),
    "maximum": Rule(
        "keras.ops.maximum",
        refuses=("complex64",),
        pair="declared",
        special="float8_same",
        value=ANY_VALUE,
        value_special="torch_cast_value",
    ),
    "mean": Rule(
        "keras.ops.mean",
        refuses=_FLOAT8,
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "minimum": Rule(
        "keras.ops.minimum",
        refuses=("complex64",),
        pair="declared",
        special="float8_same",
        value=ANY_VALUE,
        value_special="torch_cast_value",
    ),
    "multiply": Rule(
        "keras.ops.multiply", special="float8_by_scalar", value_special="torch_large_int"
    ),
    "negative": Rule("keras.ops.negative", refuses=("bool",), no_kernel=_FLOAT8),
    "pow": Rule(
        "keras.ops.power",
        no_kernel=("bool", "complex32", *_FLOAT8),
        pair="torch_tensors",
        value_special="torch_large_int",
    ),
    "prod": Rule(
        "keras.ops.prod",
        ACCUMULATE,
        no_kernel=_FLOAT8,
        overrides={"complex128": "complex64", "float64": "float32", "int64": "int32"},
    ),
    "real": Rule("keras.ops.real", COMPLEX_TO_FLOAT),
    "remainder": Rule(
        "keras.ops.mod",
        refuses=("complex32", *_COMPLEX, *_FLOAT8),
        overrides={"bool": "int32"},
        pair="torch_tensors",
        special="float8_mod",
        value_special="torch_remainder_value",
    ),
    "round": Rule("keras.ops.round", refuses=_COMPLEX, no_kernel=("bool", *_FLOAT8)),
    "sign": Rule("keras.ops.sign", refuses=_COMPLEX, no_kernel=_FLOAT8),
    "sin": Rule(
        "keras.ops.sin",
        no_kernel=_FLOAT8,
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "sqrt": Rule(
        "keras.ops.sqrt",
        INT_TO_DEFAULT,
        no_kernel=_FLOAT8,
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "square": Rule("keras.ops.square", no_kernel=_FLOAT8, overrides={"bool": "int32"}),
    "subtract": Rule(
        "keras.ops.subtract",
        refuses=("bool",),
        no_kernel=_FLOAT8,
        pair="torch_subtract",
        value_special="torch_large_int",
    ),
    "sum": Rule("keras.ops.sum", ACCUMULATE, no_kernel=_FLOAT8),
    "where": Rule("keras.ops.where"),
}

# Measured by tracing (the oracle); 64-bit types arrive made 32-bit.
JAX: Rules = {
    "abs": Rule("keras.ops.absolute", COMPLEX_TO_FLOAT),
    "add": Rule("keras.ops.add"),
    "argmax": Rule(
        "keras.ops.argmax",
        INDEX,
        refuses=("complex",),
        cells={(D("float8_e4m3fn"),): REFUSES_OPERAND, (D("float8_e5m2"),): REFUSES_OPERAND},
    ),
    "atan2": Rule("keras.ops.arctan2", INT_TO_FLOAT, pair="converted"),
    "bitwise_and": Rule("keras.ops.bitwise_and", refuses=("float", "complex")),
    "bitwise_invert": Rule("keras.ops.bitwise_invert", refuses=("float", "complex")),
    "bitwise_left_shift": Rule(
        "keras.ops.bitwise_left_shift",
        refuses=("float", "complex"),
        overrides={"bool": "int32"},
        pair="jax_shift",
    ),
    "ceil": Rule("keras.ops.ceil", INT_TO_FLOAT, refuses=("complex", *_FLOAT8)),
    "cumulative_sum": Rule("keras.ops.cumsum", overrides={"bool": "int32"}),
    "divide": Rule("keras.ops.divide", overrides=_JNP_FLOAT),
    "equal": Rule("keras.ops.equal", ALWAYS_BOOL),
    "exp": Rule("keras.ops.exp", INT_TO_DEFAULT),
    "floor": Rule("keras.ops.floor", INT_TO_FLOAT, refuses=("complex", *_FLOAT8)),
    "floor_divide": Rule(
        "keras.ops.floor_divide", refuses=("complex",), overrides={"bool": "int32"}
    ),
    "imag": Rule("keras.ops.imag", COMPLEX_TO_FLOAT),
    "isnan": Rule("keras.ops.isnan", ALWAYS_BOOL),
    "less": Rule("keras.ops.less", ALWAYS_BOOL),
    "log": Rule("keras.ops.log", overrides=_JNP_FLOAT),
    "logical_and": Rule("keras.ops.logical_and", ALWAYS_BOOL),
    "logical_not": Rule("keras.ops.logical_not", ALWAYS_BOOL),
    "matmul": Rule("keras.ops.matmul", categories=_ARRAYS, special="int8_matmul"),
    "max": Rule("keras.ops.max"),
    "maximum": Rule("keras.ops.maximum"),
    "mean": Rule("keras.ops.mean", refuses=_FLOAT8, overrides=_JNP_FLOAT),
    "minimum": Rule("keras.ops.minimum"),
    "multiply": Rule("keras.ops.multiply"),
    "negative": Rule("keras.ops.negative", refuses=("bool",)),
    "pow": Rule("keras.ops.power", overrides={"bool": "int32"}, special="integer_pow"),
    "prod": Rule("keras.ops.prod", ACCUMULATE),
    "real": Rule("keras.ops.real", COMPLEX_TO_FLOAT),
    "remainder": Rule("keras.ops.mod", refuses=("complex",), overrides={"bool": "int32"}),
    "round": Rule("keras.ops.round", refuses=("bool",)),
    "sign": Rule("keras.ops.sign", refuses=("bool",)),
    "sin": Rule("keras.ops.sin", INT_TO_FLOAT, refuses=_FLOAT8),
    "sqrt": Rule("keras.ops.sqrt", overrides=_JNP_FLOAT),
    "square": Rule("keras.ops.square", overrides={"bool": "int32"}),
    "subtract": Rule("keras.ops.subtract", refuses=("bool",)),
    "sum": Rule("keras.ops.sum", ACCUMULATE),
    "where": Rule("keras.ops.where", pair="jnp_as_given"),
}


def _from_add(rules: Rules) -> Rules:
    """Each two-operand rule that names no pair rule starts from ``keras.ops.add``'s promotion
    (``added``): the keras policy's own pairs are ``keras.backend.result_type``, which the
    operations do not apply."""
    return {
        name: rule if rule.pair or takes_one(VOCABULARY[name]) else rule._replace(pair="added")
        for name, rule in rules.items()
    }


# The rules under each backend (the option ``backend``).
BY_BACKEND: Mapping[str, Rules] = {
    "tensorflow": _from_add(TENSORFLOW),
    "numpy": _from_add(NUMPY),
    "openvino": _from_add(OPENVINO),
    "torch": _from_add(TORCH),
    "jax": _from_add(JAX),
}
