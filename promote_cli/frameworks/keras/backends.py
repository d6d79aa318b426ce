"""Keras's operations per backend, as measured (Keras 3.15.1, eager on the CPU; jax traced):
one table of rules, ``BASE``, what most backends do (each field of a rule is the majority's, or
its default where no three backends agree, the kind the most backends' own), and each
backend's differences from it, field by field (``Rule._replace``). A rule names its pair rule
(``pairs.py``) and its special case (``specials.py``) by key; a unary operation or a reduction
starts from the array's own dtype (``Operations.one_operand_pair``). What each backend does,
and why, is in ``operations.py``'s docstring.

An override to ``FLOATX`` is Keras's ``floatx`` itself, whatever it is set to (TensorFlow's
``ceil`` of an int64 is float16 under ``floatx=float16``): it is the kind ``INT_TO_DEFAULT``
applied to that type, which reads ``Maps.default_float`` under the setting asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.operands import DIMENSIONED
from promote_cli.rules import (
    ANY_VALUE,
    CHECKED,
    INT64_VALUE,
    REFUSES_OPERAND,
    D,
    Rule,
    with_operators,
)
from promote_cli.vocabulary import (
    FUNCTION,
    FUNCTIONS,
    INT_TO_DEFAULT,
    INT_TO_FLOAT,
    SAME,
    VOCABULARY,
    takes_one,
)

Rules = Mapping[str, Rule]
# Where a function the tables do not list is found: ``keras.ops.`` + its array API name.
NAMESPACE = "keras.ops."
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
# float32 for a bool and every integer (TensorFlow's and NumPy's mean, whatever floatx) ...
_INT_FLOAT32 = dict.fromkeys(
    ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"), "float32"
)
# ... and for torch's (it has no unsigned type but uint8), whatever floatx.
_TORCH_FLOAT32 = dict.fromkeys(("bool", "int8", "int16", "int32", "int64", "uint8"), "float32")
# The NumPy backend's 64-bit results made 32-bit (its reductions and square).
_TO_32 = {"complex128": "complex64", "float64": "float32", "int64": "int32", "uint64": "uint32"}

# What most backends do, where it departs from the operation's kind or its plain name
# (measured, as each backend below).
BASE: Rules = {
    "abs": Rule("keras.ops.absolute"),
    "atan2": Rule("keras.ops.arctan2", pair="converted", refuses=("complex64",), value=ANY_VALUE),
    "bitwise_and": Rule("keras.ops.bitwise_and", pair="converted"),
    "bitwise_left_shift": Rule("keras.ops.bitwise_left_shift", value=ANY_VALUE),
    "ceil": Rule("keras.ops.ceil", INT_TO_FLOAT, refuses=(*_COMPLEX, *_FLOAT8)),
    "cumulative_sum": Rule("keras.ops.cumsum", SAME, overrides={"bool": "int32"}),
    "divide": Rule("keras.ops.divide", value=ANY_VALUE),
    "equal": Rule("keras.ops.equal", value=ANY_VALUE),
    "exp": Rule("keras.ops.exp", INT_TO_DEFAULT),
    "floor": Rule("keras.ops.floor", INT_TO_FLOAT, refuses=(*_COMPLEX, *_FLOAT8)),
    "less": Rule("keras.ops.less", value=ANY_VALUE),
    "matmul": Rule("keras.ops.matmul", categories=_ARRAYS, special="int8_matmul"),
    "mean": Rule("keras.ops.mean", SAME, refuses=_FLOAT8),
    "negative": Rule("keras.ops.negative", refuses=("bool",)),
    "pow": Rule("keras.ops.power"),
    "remainder": Rule(
        "keras.ops.mod", pair="converted", overrides={"bool": "int32"}, value=ANY_VALUE
    ),
    "sin": Rule("keras.ops.sin", refuses=_FLOAT8),
    "square": Rule("keras.ops.square", overrides={"bool": "int32"}),
    "subtract": Rule("keras.ops.subtract", refuses=("bool",)),
}


def _differing(differences: Mapping[str, Mapping[str, Any]]) -> Rules:
    """``BASE`` (whole: a function it does not list is ``keras.ops.`` + its name, applying its
    kind) with a backend's ``differences``: for each operation, the fields whose value
    differs from the base rule's."""
    whole = {name: BASE.get(name) or Rule(f"{NAMESPACE}{name}") for name in FUNCTIONS}
    unknown = differences.keys() - whole.keys()
    assert not unknown, f"no such operation: {sorted(unknown)}"
    return {name: rule._replace(**differences.get(name, {})) for name, rule in whole.items()}


# Measured: the kind, and the promoted types refused, without a kernel or with their own
# output, where TensorFlow's differ from the base.
TENSORFLOW = _differing(
    {
        "abs": dict(refuses=_FLOAT8),
        # AddV2 admits no bool on any device: a refusal (``promotion.ADDV2_BOOL``), not a gap.
        "add": dict(refuses=("bool",)),
        "argmax": dict(refuses=(*_COMPLEX, *_FLOAT8)),
        "atan2": dict(value_special="tf_converted_value"),
        "bitwise_and": dict(
            refuses=("bfloat16", "bool", "complex64", "float16", "float32", "float64"),
            value=ANY_VALUE,
            value_special="tf_converted_int64",
        ),
        "bitwise_invert": dict(
            refuses=("bfloat16", "bool", "float16", "float32", "float64", *_COMPLEX, *_FLOAT8)
        ),
        "bitwise_left_shift": dict(
            special="python_shift",
            pair="converted",
            refuses=("bfloat16", "bool", "complex64", "float16", "float32", "float64"),
            value_special="tf_shift_value",
        ),
        "ceil": dict(overrides={"int64": FLOATX}),
        "cumulative_sum": dict(refuses=_FLOAT8),
        "divide": dict(value_special="float_value"),
        "equal": dict(pair="declared", value_special="tf_converted_value"),
        "exp": dict(refuses=_FLOAT8),
        "floor": dict(overrides={"int64": FLOATX}),
        # FloorDiv and Round register no complex kernel on any device: refusals, not gaps.
        "floor_divide": dict(refuses=("bool", "complex64"), value_special="tf_floor_divide_value"),
        "imag": dict(refuses=_FLOAT8),
        "isnan": dict(refuses=(*_COMPLEX, *_FLOAT8)),
        "less": dict(
            pair="declared", refuses=("bool", "complex64"), value_special="tf_converted_value"
        ),
        "log": dict(refuses=_FLOAT8, overrides={"complex128": "complex64", "int64": FLOATX}),
        "logical_and": dict(pair="declared", value=ANY_VALUE, value_special="tf_converted_value"),
        "logical_not": dict(refuses=_FLOAT8),
        "matmul": dict(special=""),
        "max": dict(refuses=(*_COMPLEX, *_FLOAT8)),
        "maximum": dict(refuses=("bool", "complex64")),
        "mean": dict(overrides=_INT_FLOAT32),
        "minimum": dict(refuses=("bool", "complex64")),
        "multiply": dict(refuses=("bool",)),
        "negative": dict(refuses=("bool", "uint16", "uint32", "uint64", "uint8", *_FLOAT8)),
        "pow": dict(refuses=("bool",), value_special="tf_negative_power"),
        "prod": dict(refuses=_FLOAT8, overrides={"complex128": "complex64", "uint64": "uint32"}),
        "real": dict(refuses=("bool", *_FLOAT8)),
        "remainder": dict(refuses=("complex64",), value_special="tf_remainder_value"),
        "round": dict(refuses=("bool", *_FLOAT8, *_COMPLEX)),
        "sign": dict(refuses=("bool", "uint64", *_FLOAT8)),
        "sin": dict(overrides={"complex128": "complex64", "int64": FLOATX}),
        "sqrt": dict(refuses=_FLOAT8, overrides={"complex128": "complex64", "int64": FLOATX}),
        "square": dict(refuses=_FLOAT8),
        "sum": dict(refuses=_FLOAT8),
    }
)

NUMPY = _differing(
    {
        "argmax": dict(refuses=_FLOAT8),
        "atan2": dict(value_special="converted_value"),
        "bitwise_and": dict(
            refuses=("bfloat16", "complex64", "float16", "float32"),
            value=ANY_VALUE,
            value_special="converted_value",
        ),
        "bitwise_invert": dict(
            refuses=("bfloat16", "float16", "float32", "float64", *_COMPLEX, *_FLOAT8),
            overrides={"int64": "int32", "uint64": "uint32"},
        ),
        "bitwise_left_shift": dict(
            special="python_shift",
            pair="converted",
            refuses=("bfloat16", "complex64", "float16", "float32"),
            overrides={"bool": "int8"},
            value_special="numpy_shift_value",
        ),
        "ceil": dict(overrides={"float64": "float32"}),
        "cumulative_sum": dict(refuses=_FLOAT8, overrides={**_TO_32, "bool": "int32"}),
        "divide": dict(value_special="float_value"),
        "equal": dict(pair="raw", value_special="numpy_compared"),
        "exp": dict(refuses=_FLOAT8, overrides={"complex128": "complex64", "float64": "float32"}),
        "floor": dict(overrides={"float64": "float32"}),
        "floor_divide": dict(refuses=("complex64",), overrides={"bool": "int8"}),
        "less": dict(pair="raw", value_special="numpy_compared"),
        "log": dict(refuses=_FLOAT8, overrides={"complex128": "complex64", "float64": "float32"}),
        "logical_and": dict(pair="raw", value=INT64_VALUE),
        "mean": dict(overrides={**_INT_FLOAT32, "complex128": "complex64", "float64": "float32"}),
        "pow": dict(overrides={"bool": "int8"}, value_special="numpy_negative_power"),
        "prod": dict(refuses=_FLOAT8, overrides=_TO_32),
        "remainder": dict(refuses=("complex64",), value_special="converted_value"),
        "round": dict(overrides={"bool": "float16"}),
        "sign": dict(refuses=("bool",)),
        "sin": dict(overrides={"complex128": "complex64", "float64": "float32"}),
        "sqrt": dict(refuses=_FLOAT8, overrides={"complex128": "complex64", "float64": "float32"}),
        "square": dict(refuses=_FLOAT8, overrides={**_TO_32, "bool": "int32"}),
    }
)

OPENVINO = _differing(
    {
        "abs": dict(kind=SAME, refuses=_COMPLEX),
        "argmax": dict(refuses=_COMPLEX),
        "atan2": dict(value_special="converted_value"),
        "bitwise_and": dict(refuses=("bfloat16", "complex64", "float16", "float32")),
        "bitwise_invert": dict(
            refuses=("bfloat16", "float16", "float32", "float64", *_COMPLEX, *_FLOAT8)
        ),
        "bitwise_left_shift": dict(
            pair="tensor_typed",
            refuses=("bfloat16", "bool", "complex64", "float16", "float32"),
            value_special="ov_typed_value",
        ),
        "ceil": dict(kind=INT_TO_DEFAULT, refuses=_COMPLEX),
        "cumulative_sum": dict(refuses=_COMPLEX),
        "divide": dict(value_special="ov_typed_value"),
        "equal": dict(value_special="ov_typed_value"),
        "exp": dict(refuses=_COMPLEX),
        "floor": dict(kind=INT_TO_DEFAULT, refuses=_COMPLEX),
        "floor_divide": dict(
            pair="ov_floor_divide",
            refuses=_COMPLEX,
            value=ANY_VALUE,
            value_special="converted_value",
        ),
        "imag": dict(kind=SAME, refuses=_COMPLEX),
        "isnan": dict(refuses=_COMPLEX),
        "less": dict(value_special="ov_typed_value"),
        "log": dict(kind=INT_TO_DEFAULT, refuses=_COMPLEX),
        "logical_and": dict(
            kind=SAME, pair="each_bool", value=ANY_VALUE, value_special="converted_value"
        ),
        "logical_not": dict(refuses=_COMPLEX),
        "max": dict(refuses=_COMPLEX),
        "maximum": dict(refuses=("bool",)),
        "mean": dict(kind=INT_TO_DEFAULT, refuses=_COMPLEX),
        "minimum": dict(refuses=("bool",)),
        "negative": dict(refuses=("bool", *_COMPLEX)),
        "pow": dict(refuses=("bool",)),
        "prod": dict(refuses=_COMPLEX),
        "real": dict(kind=SAME, refuses=_COMPLEX),
        "remainder": dict(
            refuses=("bool", "complex64"), overrides={}, value_special="converted_value"
        ),
        "round": dict(refuses=_COMPLEX),
        "sign": dict(refuses=("bool", *_COMPLEX)),
        "sin": dict(kind=INT_TO_DEFAULT, refuses=_COMPLEX),
        "sqrt": dict(kind=INT_TO_DEFAULT, refuses=_COMPLEX),
        "square": dict(refuses=_COMPLEX),
        "subtract": dict(refuses=()),
        "sum": dict(refuses=_COMPLEX),
        "where": dict(pair="like_tensor", refuses=("complex64",)),
    }
)

# torch's maximum and minimum: two float8 operands of one dtype reach no kernel; a Python int
# is made a tensor of keras.backend.result_type, which torch refuses where it overflows.
_TORCH_EXTREMUM = dict(
    special="float8_same",
    pair="declared",
    refuses=("complex64",),
    value=ANY_VALUE,
    value_special="torch_cast_value",
)

TORCH = _differing(
    {
        "add": dict(value_special="torch_large_int", no_kernel=_FLOAT8),
        "argmax": dict(refuses=_COMPLEX, no_kernel=_FLOAT8),
        "atan2": dict(value=CHECKED),
        "bitwise_and": dict(pair="torch_tensors", refuses=_FLOATS, value_special="torch_large_int"),
        "bitwise_invert": dict(refuses=_FLOATS),
        "bitwise_left_shift": dict(
            special="torch_shift",
            pair="torch_tensors",
            refuses=_FLOATS,
            value_special="torch_shift_value",
            no_kernel=("bool",),
        ),
        "ceil": dict(overrides={"float64": "float32", "int64": FLOATX}),
        "cumulative_sum": dict(
            overrides={
                "bool": "int32",
                "complex128": "complex64",
                "float64": "float32",
                "int64": "int32",
            },
            no_kernel=_FLOAT8,
        ),
        "divide": dict(
            kind=SAME,
            pair="torch_kept",
            overrides=_TORCH_FLOAT32,
            value_special="torch_kept_value",
            no_kernel=("complex32", *_FLOAT8),
        ),
        "equal": dict(pair="torch_tensors", value=CHECKED),
        "exp": dict(no_kernel=_FLOAT8),
        "floor": dict(overrides={"float64": "float32", "int64": FLOATX}),
        "floor_divide": dict(
            special="float8_same",
            pair="declared",
            refuses=("complex64",),
            value=ANY_VALUE,
            value_special="torch_floor_divide_value",
            no_kernel=("bool",),
        ),
        "imag": dict(
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
            )
        ),
        "less": dict(
            pair="torch_tensors", refuses=("complex32", *_COMPLEX), value=CHECKED, no_kernel=_FLOAT8
        ),
        "log": dict(kind=SAME, overrides=_TORCH_FLOAT32, no_kernel=_FLOAT8),
        "logical_and": dict(pair="torch_tensors", no_kernel=("complex32", *_FLOAT8)),
        "logical_not": dict(no_kernel=_FLOAT8),
        "matmul": dict(
            overrides={"complex128": "complex64", "float64": "float32", "int64": "int32"},
            no_kernel=_FLOAT8,
        ),
        "max": dict(refuses=_COMPLEX, no_kernel=_FLOAT8),
        "maximum": _TORCH_EXTREMUM,
        "mean": dict(overrides=_TORCH_FLOAT32),
        "minimum": _TORCH_EXTREMUM,
        "multiply": dict(special="float8_by_scalar", value_special="torch_large_int"),
        "negative": dict(no_kernel=_FLOAT8),
        "pow": dict(
            pair="torch_tensors",
            value_special="torch_large_int",
            no_kernel=("bool", "complex32", *_FLOAT8),
        ),
        "prod": dict(
            overrides={"complex128": "complex64", "float64": "float32", "int64": "int32"},
            no_kernel=_FLOAT8,
        ),
        "remainder": dict(
            special="float8_mod",
            pair="torch_tensors",
            refuses=("complex32", *_COMPLEX, *_FLOAT8),
            value=CHECKED,
            value_special="torch_remainder_value",
        ),
        "round": dict(refuses=_COMPLEX, no_kernel=("bool", *_FLOAT8)),
        "sign": dict(refuses=_COMPLEX, no_kernel=_FLOAT8),
        "sin": dict(kind=SAME, refuses=(), overrides=_TORCH_FLOAT32, no_kernel=_FLOAT8),
        "sqrt": dict(
            kind=INT_TO_DEFAULT,
            overrides={
                "bool": "float32",
                "int16": "float32",
                "int32": "float32",
                "int8": "float32",
                "uint8": "float32",
            },
            no_kernel=_FLOAT8,
        ),
        "square": dict(no_kernel=_FLOAT8),
        "subtract": dict(pair="torch_subtract", value_special="torch_large_int", no_kernel=_FLOAT8),
        "sum": dict(no_kernel=_FLOAT8),
    }
)

# Measured by tracing (the oracle); 64-bit types arrive made 32-bit.
JAX = _differing(
    {
        "argmax": dict(
            cells={(D("float8_e4m3fn"),): REFUSES_OPERAND, (D("float8_e5m2"),): REFUSES_OPERAND},
            refuses=("complex",),
        ),
        "atan2": dict(refuses=(), value=CHECKED),
        "bitwise_and": dict(pair="", refuses=("float", "complex")),
        "bitwise_invert": dict(refuses=("float", "complex")),
        "bitwise_left_shift": dict(
            pair="jax_shift",
            refuses=("float", "complex"),
            overrides={"bool": "int32"},
            value=CHECKED,
        ),
        "ceil": dict(refuses=("complex", *_FLOAT8)),
        "divide": dict(kind=SAME, overrides=_JNP_FLOAT, value=CHECKED),
        "equal": dict(value=CHECKED),
        "floor": dict(refuses=("complex", *_FLOAT8)),
        "floor_divide": dict(refuses=("complex",), overrides={"bool": "int32"}),
        "less": dict(value=CHECKED),
        "log": dict(kind=SAME, overrides=_JNP_FLOAT),
        "mean": dict(overrides=_JNP_FLOAT),
        "pow": dict(special="integer_pow", overrides={"bool": "int32"}),
        "remainder": dict(pair="", refuses=("complex",), value=CHECKED),
        "round": dict(refuses=("bool",)),
        "sign": dict(refuses=("bool",)),
        "sqrt": dict(kind=SAME, overrides=_JNP_FLOAT),
        "where": dict(pair="jnp_as_given"),
    }
)


def _from_add(rules: Rules) -> Rules:
    """Each two-operand function that names no pair rule starts from ``keras.ops.add``'s
    promotion (``added``): the keras policy's own pairs are ``keras.backend.result_type``,
    which the operations do not apply."""
    return {
        name: rule
        if rule.pair or rule.function is None or takes_one(op) or op.syntax != FUNCTION
        else rule._replace(pair="added")
        for name, rule in rules.items()
        for op in (VOCABULARY[name],)
    }


# The rules under each backend (the option ``backend``). Keras has no array type of its own:
# keras.ops take and return the backend's tensors, whose operators are the backend's
# (``promote op + ... -p torch``). Every operator is absent.
BY_BACKEND: Mapping[str, Rules] = {
    backend: _from_add(with_operators(rules, None, NAMESPACE))
    for backend, rules in (
        ("tensorflow", TENSORFLOW),
        ("numpy", NUMPY),
        ("openvino", OPENVINO),
        ("torch", TORCH),
        ("jax", JAX),
    )
}
