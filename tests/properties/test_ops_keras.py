"""Keras's operations (promote_cli/frameworks/keras/): values measured with ``keras.ops`` on
Keras 3.15.1, eagerly on the CPU, per backend and floatx (research/ops13-keras; the jax backend's
by eager calls too, the ones its traced oracle was proven against), and the oracle that calls
every operation."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import NamedTuple

import pytest

import promote_cli
from promote_cli import frameworks
from promote_cli.errors import PromotionError
from promote_cli.rules import NO_KERNEL, REFUSES_TYPE
from promote_cli.vocabulary import FUNCTIONS, OPERATOR_FORMS, REDUCTION, UNARY, VOCABULARY

REFUSED = None
FLOATX = ("float32", "float16", "bfloat16")
# The five calls of tests/properties/test_ops.py, measured per backend under floatx float32,
# float16, bfloat16.
FIVE = {
    ("sqrt", ("int8",)): ("float32", "float16", "float16"),
    ("sum", ("uint8",)): ("uint32", "uint32", "uint32"),
    ("divide", ("int32", "int32")): ("float32", "float16", "float16"),
    ("mean", ("int32",)): ("float32", "float32", "float32"),
    ("argmax", ("float32",)): ("int32", "int32", "int32"),
}
# openvino makes an integer floatx itself (bfloat16), not floatx's width (float16).
FIVE_OPENVINO = {
    ("sqrt", ("int8",)): ("float32", "float16", "bfloat16"),
    ("sum", ("uint8",)): ("uint32", "uint32", "uint32"),
    ("divide", ("int32", "int32")): ("float32", "float16", "float16"),
    ("mean", ("int32",)): ("float32", "float16", "bfloat16"),
    ("argmax", ("float32",)): ("int32", "int32", "int32"),
}


def answer(op, args, **options):
    if VOCABULARY[op].arity in (UNARY, REDUCTION):
        return promote_cli.promote_many(list(args), policy="keras", op=op, **options)
    return promote_cli.promote(*args, policy="keras", op=op, **options)


def outcome(op, args, **options):
    return promote_cli.api.request("keras", operands=list(args), op=op, options=options).outcome()


@pytest.mark.parametrize("backend", ["tensorflow", "numpy"])
@pytest.mark.parametrize(("call", "want"), FIVE.items(), ids=[c[0] for c in FIVE])
def test_sqrt_sum_divide_mean_argmax_follow_floatx_on_tensorflow_and_numpy(backend, call, want):
    op, args = call
    for floatx, expected in zip(FLOATX, want, strict=True):
        got = answer(op, args, backend=backend, floatx=floatx)
        assert got == expected, f"{op}{args} backend={backend} floatx={floatx}"


@pytest.mark.parametrize(("call", "want"), FIVE_OPENVINO.items(), ids=[c[0] for c in FIVE])
def test_openvino_makes_integer_sqrt_and_mean_floatx_itself(call, want):
    op, args = call
    for floatx, expected in zip(FLOATX, want, strict=True):
        assert answer(op, args, backend="openvino", floatx=floatx) == expected, floatx


# torch: sums accumulate uint8 in int32 too, sqrt of a small integer is float32 whatever floatx.
FIVE_TORCH = {
    ("sqrt", ("int8",)): ("float32", "float32", "float32"),
    ("sum", ("uint8",)): ("int32", "int32", "int32"),
    ("divide", ("int32", "int32")): ("float32", "float32", "float32"),
    ("mean", ("int32",)): ("float32", "float32", "float32"),
    ("argmax", ("float32",)): ("int32", "int32", "int32"),
}


@pytest.mark.parametrize(("call", "want"), FIVE_TORCH.items(), ids=[c[0] for c in FIVE])
def test_torch_keeps_float32_whatever_floatx_and_sums_uint8_in_int32(call, want):
    op, args = call
    for floatx, expected in zip(FLOATX, want, strict=True):
        assert answer(op, args, backend="torch", floatx=floatx) == expected, floatx


# jax: jax.numpy's own float (float32) for sqrt, divide and mean of an integer, whatever floatx.
FIVE_JAX = {
    ("sqrt", ("int8",)): ("float32", "float32", "float32"),
    ("sum", ("uint8",)): ("uint32", "uint32", "uint32"),
    ("divide", ("int32", "int32")): ("float32", "float32", "float32"),
    ("mean", ("int32",)): ("float32", "float32", "float32"),
    ("argmax", ("float32",)): ("int32", "int32", "int32"),
}


@pytest.mark.parametrize(("call", "want"), FIVE_JAX.items(), ids=[c[0] for c in FIVE])
def test_jax_keeps_jax_numpys_float32_whatever_floatx(call, want):
    op, args = call
    for floatx, expected in zip(FLOATX, want, strict=True):
        assert answer(op, args, backend="jax", floatx=floatx) == expected, floatx


# (op, operands, backend, floatx, measured output or REFUSED, why it is worth pinning)
QUIRKS = [
    ("exp", ("int8",), "tensorflow", "bfloat16", "bfloat16", "exp casts to floatx itself"),
    ("sqrt", ("int8",), "tensorflow", "bfloat16", "float16", "sqrt: result_type(t, float), width"),
    ("ceil", ("int64",), "tensorflow", "bfloat16", "bfloat16", "int64 goes to floatx, int8 not"),
    ("ceil", ("int64",), "numpy", "bfloat16", "float16", "numpy: the width float for every int"),
    ("remainder", ("int8", int), "tensorflow", "float16", "int32", "1 converted strong: int32"),
    ("remainder", ("int8", int), "numpy", "float16", "int16", "1 converted: floatx's width"),
    ("remainder", ("int8", int), "numpy", "bfloat16", "float32", "astype(None): float64 -> f32"),
    ("remainder", ("int8", float), "tensorflow", "float16", "float32", "1.0 is float32 on tf"),
    ("add", ("int8", int), "numpy", "float16", "int8", "add keeps the scalar weak"),
    ("bitwise_left_shift", ("bool", int), "numpy", "float32", "int64", "np.left_shift(bool, 1)"),
    ("bitwise_left_shift", ("bool", bool), "numpy", "float32", "int8", "np.left_shift(bool, True)"),
    ("bitwise_left_shift", ("int8", bool), "tensorflow", "float32", REFUSED, "True -> int8 fails"),
    ("bitwise_left_shift", ("int8", int), "tensorflow", "float32", "int8", "1 is not converted"),
    ("matmul", ("int8", "int8"), "numpy", "float32", "int32", "numpy matches JAX's int8 matmul"),
    ("matmul", ("int8", "int8"), "tensorflow", "float32", "int8", "tensorflow does not"),
    ("equal", ("float8_e4m3fn", "int8"), "numpy", "float32", "bool", "np.equal, no conversion"),
    ("equal", ("float8_e4m3fn", "int8"), "tensorflow", "float32", REFUSED, "no float8 cast"),
    ("equal", ("uint8", bool), "tensorflow", "float32", "bool", "result_type, no conversion"),
    ("abs", ("float64",), "numpy", "float32", "float64", "a unary op keeps the array's dtype"),
    ("exp", ("float64",), "numpy", "float32", "float32", "but numpy's exp narrows it"),
    ("prod", ("int64",), "numpy", "float32", "int32", "numpy's prod narrows int64"),
    ("prod", ("int64",), "tensorflow", "float32", "int64", "tensorflow keeps it"),
    ("sum", ("uint64",), "numpy", "float32", "uint64", "sum keeps 64-bit accumulators"),
    ("negative", ("uint8",), "tensorflow", "float32", REFUSED, "tf registers no unsigned neg"),
    ("negative", ("uint8",), "numpy", "float32", "uint8", "numpy wraps around"),
    ("round", ("bool",), "numpy", "float32", "float16", "np.round of a bool"),
    ("square", ("bool",), "tensorflow", "float32", "int32", "a bool is squared as int32"),
    ("mean", ("float16",), "numpy", "float32", "float16", "mean keeps a float"),
    ("floor_divide", ("int8", float), "openvino", "bfloat16", "bfloat16", "int by float: floatx"),
    ("floor_divide", ("int8", int), "openvino", "float32", "int8", "a Python int takes x1's"),
    ("floor_divide", ("bool", "bool"), "openvino", "float32", "int32", "a bool x1 is int32"),
    ("where", ("int8", int), "openvino", "float32", "int8", "1 takes the tensor's dtype"),
    ("where", ("int8", float), "openvino", "float32", "float32", "1.0 does not: float32"),
    ("where", ("bool", int), "openvino", "float32", "int32", "nor with a bool tensor"),
    ("bitwise_and", ("int8", bool), "openvino", "float32", "int32", "True is an int32 constant"),
    ("remainder", ("int8", int), "openvino", "float32", "int32", "1 is an int32 constant"),
    ("add", ("int8", int), "openvino", "float32", "int8", "but add keeps it weak"),
    ("bitwise_left_shift", (int, "int8"), "openvino", "float32", "int8", "the tensor's dtype"),
    ("matmul", ("int8", "int8"), "openvino", "float32", "int32", "as numpy"),
    ("logical_and", ("float8_e5m2", "int8"), "openvino", "float32", "bool", "each made bool"),
    ("sqrt", ("float8_e4m3fn",), "openvino", "float32", "float8_e4m3fn", "openvino has float8"),
    ("add", ("complex64", "complex64"), "openvino", "float32", REFUSED, "and no complex"),
    ("divide", ("int8", float), "torch", "float16", "float32", "1.0 stays Python: torch's"),
    ("floor_divide", ("int8", float), "torch", "float16", "float16", "Keras's result_type"),
    ("bitwise_left_shift", ("bool", int), "torch", "float32", "int64", "1 stays a Python int"),
    ("subtract", ("bool", "int8"), "torch", "float32", "int8", "a bool is cast to int8"),
    ("subtract", ("bool", "bool"), "torch", "float32", REFUSED, "torch refuses bool - bool"),
    ("maximum", ("int8", "uint8"), "torch", "float32", "int16", "result_type, cast"),
    ("sqrt", ("int64",), "torch", "bfloat16", "bfloat16", "int64 becomes floatx"),
    ("exp", ("int8",), "torch", "bfloat16", "bfloat16", "exp makes any int floatx"),
    ("log", ("int8",), "torch", "bfloat16", "float32", "log does not"),
    ("sum", ("uint16",), "torch", "float32", "int32", "uint16 is stored as int32"),
    ("sqrt", ("uint64",), "torch", "float32", REFUSED, "uint64 cannot be stored"),
    ("equal", ("float16", "complex64"), "torch", "float32", "bool", "complex32 compared"),
    ("add", ("float16", "complex64"), "torch", "float32", "complex64", "arrays: no complex32"),
    ("sin", ("int8",), "jax", "bfloat16", "float16", "Keras's result_type(t, float): width"),
    ("exp", ("int8",), "jax", "bfloat16", "bfloat16", "exp casts to floatx itself"),
    ("log", ("uint16",), "jax", "float16", "float32", "jnp.log's own float"),
    ("ceil", ("int64",), "jax", "bfloat16", "float16", "int64 arrives int32: width float"),
    ("add", ("uint8", int), "jax", "float16", "uint8", "1 is weak"),
    ("add", ("uint8", int), "jax", "bfloat16", "float32", "astype(None): a strong float32"),
    ("where", ("uint8", int), "jax", "bfloat16", "uint8", "jnp.where gets 1 as given"),
    ("bitwise_left_shift", ("uint8", int), "jax", "bfloat16", "uint8", "1 is not converted"),
    ("bitwise_left_shift", ("bool", "bool"), "jax", "float32", "int32", "bools shift as int32"),
    ("remainder", ("bool", "bool"), "jax", "float32", "int32", "and divide as int32"),
    ("pow", ("uint32", "S(int64)"), "jax", "float32", "uint32", "concrete: lax.integer_pow"),
    ("pow", ("uint32", "int64"), "jax", "float32", "int32", "an array exponent promotes"),
    ("pow", ("bool", "S(int8)"), "jax", "bfloat16", "int32", "integer_pow of a bool base"),
    ("atan2", ("bfloat16", float), "jax", "float16", "float32", "1.0 converted: float32"),
    ("add", ("bfloat16", float), "jax", "float16", "bfloat16", "add keeps 1.0 weak"),
    ("atan2", ("int8", "int8"), "jax", "float16", "float16", "result_type with a float"),
    ("argmax", ("float8_e5m2",), "jax", "float32", REFUSED, "cast to result_type(t, f32)"),
    ("argmax", ("S(float8_e5m2)",), "jax", "float32", "int32", "a 0-d array is not cast"),
    ("argmax", ("complex64",), "jax", "float32", REFUSED, "lax.gt refuses complex (lowering)"),
    ("matmul", ("int8", "int8"), "jax", "float32", "int32", "preferred_element_type int32"),
    ("sum", ("uint64",), "jax", "float32", "uint32", "64-bit arrays are made 32-bit"),
    ("abs", ("float64",), "jax", "float32", "float32", "as float32"),
    ("sqrt", ("float8_e4m3fn",), "jax", "float32", "float8_e4m3fn", "jnp computes in float8"),
    ("mean", ("float8_e4m3fn",), "jax", "float32", REFUSED, "Keras's result_type refuses it"),
    ("add", ("float8_e4m3fn", int), "jax", "float32", "float8_e4m3fn", "1 weak: float8"),
    ("add", ("float8_e4m3fn", int), "jax", "bfloat16", REFUSED, "1 a strong float32"),
    ("round", ("bool",), "jax", "float32", REFUSED, "jnp.round refuses bool"),
]


@pytest.mark.parametrize(
    ("op", "args", "backend", "floatx", "want", "why"),
    QUIRKS,
    ids=[f"{q[0]}-{q[2]}" for q in QUIRKS],
)
def test_keras_quirks_come_out_as_measured(op, args, backend, floatx, want, why):
    if want is REFUSED:
        with pytest.raises(PromotionError):
            answer(op, args, backend=backend, floatx=floatx)
    else:
        assert answer(op, args, backend=backend, floatx=floatx) == want, why


def test_tensorflows_bool_add_and_complex_floor_divide_are_refusals_not_kernel_gaps():
    # AddV2 admits bool on no device; FloorDiv and Round register no complex kernel on any
    # device: refusals (issue 25), though keras.backend.result_type of two bools is bool
    out = outcome("add", ("bool", "bool"), backend="tensorflow")
    assert (out.result, out.rule) == (None, REFUSES_TYPE)
    assert promote_cli.promote("bool", "bool", policy="keras", backend="tensorflow") == "bool"
    with pytest.raises(PromotionError):
        answer("subtract", ("bool", "bool"), backend="tensorflow")
    for name in ("floor_divide", "round"):
        operands = ("complex64", "complex64") if name == "floor_divide" else ("complex64",)
        out = outcome(name, operands, backend="tensorflow")
        assert (out.result, out.rule) == (None, REFUSES_TYPE), name


def test_keras_names_its_own_functions():
    rules = frameworks.operations(frameworks.get("keras")).rules
    assert rules["remainder"].function == "keras.ops.mod"
    assert rules["cumulative_sum"].function == "keras.ops.cumsum"
    assert all(
        r.function and r.function.startswith("keras.ops.")
        for name, r in rules.items()
        if name in FUNCTIONS
    )
    # Keras has no array type of its own: its operators are the backend's, never its own
    assert all(rules[name].function is None for name in OPERATOR_FORMS)


def _installed(*modules):
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


@pytest.mark.conformance("keras")
def test_the_oracle_calls_every_operation_on_the_numpy_backend_without_a_mismatch():
    _installed("keras")
    from promote_cli.verify import driver

    report = driver.verify(frameworks.get("keras"), {"backend": "numpy"}, operations=True).ops
    assert report.mismatches == [], report.mismatches[:5]
    # and 16 binary operations x 17 array types x 25 values x both orders, per floatx
    assert len(report.cells) == 39 and report.total == 3 * (25_040 + 16 * 850)


def test_torchs_float8_multiply_is_a_gap_only_with_a_scalar_second():
    full = outcome("multiply", ("float8_e4m3fn", "float8_e4m3fn"), backend="torch")
    assert (full.result, full.rule) == ("float8_e4m3fn", "same")
    scalar = outcome("multiply", ("float8_e4m3fn", "S(int8)"), backend="torch")
    assert (scalar.result, scalar.rule) == ("float8_e4m3fn", NO_KERNEL)


@pytest.mark.conformance("keras")
def test_the_oracle_traces_every_operation_on_the_jax_backend_without_a_mismatch():
    _installed("keras", "jax")
    from promote_cli.verify import driver

    report = driver.verify(frameworks.get("keras"), {"backend": "jax"}, operations=True).ops
    assert report.mismatches == [], report.mismatches[:5]
    # and 16 binary operations x 17 array types x 25 values x both orders, per floatx
    assert report.total == 3 * (25_040 + 16 * 850)


# A Python scalar's value in every binary operation, on the jax backend (measured by the traced
# oracle with each array type and 25 values on either side, under each floatx): JAX makes a
# Python int a weak int32 array (no x64), so an int outside int32 raises whatever it meets, and
# one inside is not checked against the other array's type (under floatx=bfloat16 Keras makes
# a Python int or float a strong float32 first: ``multiply(uint8, 300)`` is float32 there).
@pytest.mark.parametrize(
    ("op", "args", "want"),
    [
        # keras.ops.multiply(uint8 array, 300) -> uint8: 300 is not checked against uint8
        ("multiply", ("uint8", "int:300"), "uint8"),
        ("equal", ("uint8", "int:300"), "bool"),
        ("bitwise_left_shift", ("int8", "int:300"), "int8"),
        ("pow", ("int8", "int:-1"), "int8"),
        ("maximum", ("float16", "float:1e+300"), "float16"),
        # keras.ops.divide(int8 array, 2**31): OverflowError "Python int 2147483648 too large to
        # convert to int32", and so for atan2 and logical_and, even of a float or bool array
        ("divide", ("int8", "int:2147483648"), REFUSED),
        ("atan2", ("bool", "int:2147483648"), REFUSED),
        ("logical_and", ("float32", "int:2147483648"), REFUSED),
    ],
)
def test_jax_takes_a_value_in_every_operation_checked_as_int32(op, args, want):
    for floatx in ("float32", "float16"):
        if want is REFUSED:
            with pytest.raises(PromotionError, match="too large to convert to int32"):
                answer(op, args, backend="jax", floatx=floatx)
        else:
            assert answer(op, args, backend="jax", floatx=floatx) == want


class raises(NamedTuple):
    """A measured refusal: TensorFlow's message matches ``match``."""

    match: str


# A Python scalar's value in every binary operation on the tensorflow backend, each cell as
# measured with keras.ops (Keras 3.15.1 on TensorFlow 2.21, eagerly, TensorFlow's scalar cache
# emptied first), the same under floatx=float32 and float16 unless a floatx is named.
@pytest.mark.parametrize(
    ("op", "args", "floatx", "want"),
    [
        # keras.ops.subtract(uint8 tensor, 300): 300 is made int32, then cast (wrapped) to uint8
        ("subtract", ("uint8", "int:300"), None, "uint8"),
        # the divisor is cast to the sum's dtype: 256 is 0 in uint8 (FloorDiv: division by zero)
        ("floor_divide", ("uint8", "int:256"), None, raises("Integer division by zero")),
        ("floor_divide", ("uint8", "int:255"), None, "uint8"),
        # bool // 65536: int32 under float32, int16 (65536 is 0) under float16
        ("floor_divide", ("bool", "int:65536"), "float32", "int32"),
        ("floor_divide", ("bool", "int:65536"), "float16", raises("Integer division by zero")),
        # the exponent wraps into int8: 128 is -128, -129 is 127
        ("pow", ("int8", "int:128"), None, raises("negative integer powers")),
        ("pow", ("int8", "int:-129"), None, "int8"),
        # mod makes each operand a tensor alone: 2**31 an int64 one, 256 an int32 one
        ("remainder", ("int8", "int:2147483648"), None, "int64"),
        ("remainder", ("uint8", "int:256"), None, "int32"),
        ("remainder", ("int8", "bool:False"), None, raises("Integer division by zero")),
        ("bitwise_and", ("bool", "int:2147483648"), None, "int64"),
        # each operand a tensor alone: a float beyond float32, an int beyond int64, raise
        ("equal", ("float64", "float:1e+300"), None, raises("out of range for a double-precision")),
        ("equal", ("uint8", "int:9223372036854775807"), None, "bool"),
        ("logical_and", ("float32", "float:inf"), None, "bool"),
        ("atan2", ("float32", "int:18446744073709551616"), None, raises("out-of-range integer")),
        # divide casts the int to its float, which takes any int
        ("divide", ("int8", "int:18446744073709551616"), "float32", "float32"),
        ("divide", ("int8", "int:18446744073709551616"), "float16", "float16"),
        # a shift amount is made a tensor of x's dtype: uint64 takes [0, 2**64)
        ("bitwise_left_shift", ("uint64", "int:9223372036854775808"), None, "uint64"),
        ("bitwise_left_shift", ("uint64", "int:-1"), None, raises("OverflowError")),
    ],
)
def test_tensorflow_takes_a_value_in_every_operation(op, args, floatx, want):
    for fx in (floatx,) if floatx else ("float32", "float16"):
        if isinstance(want, str):
            assert answer(op, args, backend="tensorflow", floatx=fx) == want
        else:
            with pytest.raises(PromotionError, match=want.match):
                answer(op, args, backend="tensorflow", floatx=fx)


# A Python int's value in every binary operation on numpy, openvino and torch, each cell as
# measured with keras.ops (Keras 3.15.1, eagerly): one case of each kind of behaviour.
@pytest.mark.parametrize(
    ("backend", "floatx", "op", "args", "want"),
    [
        # numpy: keras.ops.add makes 300 an array of the sum's uint8: OverflowError
        ("numpy", "float32", "add", ("uint8", "int:300"), REFUSED),
        # mod, arctan2, bitwise_and make the int an array on its own: int32 (int16 under
        # float16), so 300 fits and 2**31 raises; under bfloat16 it is a float64 array first
        ("numpy", "float32", "remainder", ("uint8", "int:300"), "int32"),
        ("numpy", "float32", "remainder", ("uint8", "int:2147483648"), REFUSED),
        ("numpy", "float16", "remainder", ("uint8", "int:300"), "int16"),
        ("numpy", "float16", "remainder", ("uint8", "int:2147483648"), REFUSED),
        ("numpy", "bfloat16", "remainder", ("uint8", "int:2147483648"), "float32"),
        ("numpy", "float32", "atan2", ("int8", "int:2147483648"), REFUSED),
        # NumPy's own comparisons take any int beside its numbers, an int64 beside a bool
        ("numpy", "float32", "equal", ("uint8", "int:18446744073709551616"), "bool"),
        ("numpy", "float32", "equal", ("bool", "int:9223372036854775808"), REFUSED),
        ("numpy", "float32", "logical_and", ("float32", "int:9223372036854775808"), REFUSED),
        # divide makes the int an array of its float: only bfloat16 (ml_dtypes) refuses
        ("numpy", "float32", "divide", ("uint8", "int:18446744073709551616"), "float32"),
        ("numpy", "float32", "divide", ("bfloat16", "int:18446744073709551616"), REFUSED),
        # an integer power refuses a negative exponent; a shift checks it against x's dtype
        ("numpy", "float32", "pow", ("int8", "int:-1"), REFUSED),
        ("numpy", "float32", "pow", ("int:-1", "int8"), "int8"),
        ("numpy", "float32", "bitwise_left_shift", ("bool", "int:2147483648"), "int64"),
        ("numpy", "float32", "bitwise_left_shift", ("uint8", "int:300"), REFUSED),
        ("numpy", "float32", "bitwise_left_shift", ("int:300", "uint8"), "int32"),
        # openvino: a constant of its own takes [-2**63, 2**64), whatever the array
        ("openvino", "float32", "remainder", ("float32", "int:18446744073709551616"), REFUSED),
        ("openvino", "float32", "atan2", ("float32", "int:4294967296"), "float32"),
        # a constant of the tensor's element type: uint64 refuses from 2**63, bool takes any
        ("openvino", "float32", "equal", ("uint64", "int:9223372036854775808"), REFUSED),
        ("openvino", "float32", "equal", ("bool", "int:18446744073709551616"), "bool"),
        ("openvino", "float32", "divide", ("uint64", "int:9223372036854775808"), REFUSED),
        ("openvino", "float32", "divide", ("int64", "int:9223372036854775808"), "float32"),
        # torch: an int outside int32 is a 0-d int64 tensor, so a bool array with it is int64
        ("torch", "float32", "add", ("bool", "int:2147483648"), "int64"),
        ("torch", "float32", "multiply", ("bool", "int:2147483648"), "int64"),
        ("torch", "float32", "add", ("int8", "int:300"), "int8"),
        # maximum makes the int a tensor of result_type: c10's overflow check
        ("torch", "float32", "maximum", ("int8", "int:128"), REFUSED),
        ("torch", "float32", "maximum", ("int8", "int:127"), "int8"),
        ("torch", "float32", "maximum", ("uint8", "int:-129"), "uint8"),
        ("torch", "float32", "maximum", ("int64", "int:2147483648"), REFUSED),
        ("torch", "float32", "maximum", ("float16", "int:18446744073709551616"), "float16"),
        # an integer divisor that is 0 in the computed dtype: ZeroDivisionError
        ("torch", "float32", "remainder", ("uint8", "int:256"), REFUSED),
        ("torch", "float32", "remainder", ("int8", "bool:false"), REFUSED),
        ("torch", "float32", "remainder", ("uint8", "int:255"), "uint8"),
        ("torch", "float32", "floor_divide", ("uint8", "int:256"), REFUSED),
        # a Python int kept a Python scalar: [-2**63, 2**64), beside a bool [-2**63, 2**63)
        ("torch", "float32", "floor_divide", ("int:9223372036854775808", "uint8"), "uint8"),
        ("torch", "float32", "divide", ("int8", "int:18446744073709551615"), "float32"),
        ("torch", "float32", "divide", ("int8", "int:18446744073709551616"), REFUSED),
        ("torch", "float32", "divide", ("bool", "int:9223372036854775808"), REFUSED),
        ("torch", "float32", "bitwise_left_shift", ("int8", "int:18446744073709551615"), "int8"),
    ],
)
def test_numpy_openvino_torch_take_a_value_in_every_operation_as_measured(
    backend, floatx, op, args, want
):
    if want is REFUSED:
        with pytest.raises(PromotionError):
            answer(op, args, backend=backend, floatx=floatx)
    else:
        assert answer(op, args, backend=backend, floatx=floatx) == want


def test_numpy_add_of_uint8_and_300_is_numpys_overflow_error():
    # promote op add uint8 int:300 -p keras -O backend=numpy (issue 25's example)
    found = outcome("add", ("uint8", "int:300"), backend="numpy")
    assert found.refused and "OverflowError" in found.why
    found = outcome("remainder", ("uint8", "int:300"), backend="numpy")
    assert found.result == "int32"


def _repeated_runs(paths, length: int = 6) -> dict[tuple[str, ...], list[str]]:
    """Every run of ``length`` code lines (blank lines and comments aside) found more than once
    in ``paths``, with where each starts."""
    seen: dict[tuple[str, ...], list[str]] = {}
    for path in paths:
        lines = [
            (number, line.strip())
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if line.strip() and not line.strip().startswith("#")
        ]
        for i in range(len(lines) - length + 1):
            run = tuple(text for _, text in lines[i : i + length])
            seen.setdefault(run, []).append(f"{path.name}:{lines[i][0]}")
    return {run: where for run, where in seen.items() if len(where) > 1}


def test_no_rule_table_is_repeated_in_the_keras_directory():
    # The five backends were five near-copies of one table (31 repeated runs of six lines):
    # now one base and each backend's differences.
    keras = Path(promote_cli.__file__).parent / "frameworks" / "keras"
    assert _repeated_runs(sorted(keras.glob("*.py"))) == {}


def test_the_repeated_run_finder_finds_a_repeated_run(tmp_path):
    text = "\n".join(f'    "op{i}": Rule("keras.ops.op{i}"),' for i in range(6))
    (tmp_path / "a.py").write_text(f"A = {{\n{text}\n}}\n", encoding="utf-8")
    (tmp_path / "b.py").write_text(f"# B\nB = {{\n{text}\n}}\n", encoding="utf-8")
    found = _repeated_runs([tmp_path / "a.py", tmp_path / "b.py"])
    assert ["a.py:2", "b.py:3"] in found.values()  # the six rules, a comment line apart
