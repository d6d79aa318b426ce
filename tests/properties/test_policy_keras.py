"""The keras policy: ``keras.backend.result_type`` for pairs and n-ary promotion, and
``keras.ops.add`` per backend and floatx for the operation, the chain and Python values.
Expected values are Keras 3.15.1's as measured on each backend (every cell against Keras
itself, every backend and floatx, is ``promote verify``'s conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import PromotionError, frameworks, promote, promote_many
from promote_cli.frameworks.keras.operations import OPERATIONS
from promote_cli.frameworks.keras.promotion import BACKENDS, FLOATX
from promote_cli.walk import answer


@pytest.mark.parametrize(
    ("a", "b", "backend", "floatx", "want"),
    [
        # tensorflow (Keras's default): the declared result_type, 64-bit ints and floats kept.
        ("uint64", "int8", "tensorflow", "float32", "float32"),  # the weak float, at floatx
        ("uint64", "int8", "tensorflow", "float16", "float16"),
        ("int64", "int64", "tensorflow", "float32", "int64"),
        ("uint64", "uint64", "tensorflow", "float32", "uint32"),  # uint64 always narrows
        ("int8", "float", "tensorflow", "bfloat16", "float16"),  # Keras reads floatx's width
        # numpy: each tensor is narrowed first, then promoted.
        ("uint64", "int8", "numpy", "float32", "int32"),
        ("float64", "float64", "numpy", "float32", "float32"),
        ("int8", "complex", "numpy", "bfloat16", "float32"),  # astype(None): 1j -> float64
        # openvino: the declared rule, narrowed as everywhere but TensorFlow.
        ("int64", "float16", "openvino", "float32", "float16"),
        # jax: jnp.add without x64.
        ("uint32", "int32", "jax", "float32", "int32"),
        ("int8", "int", "jax", "float32", "int8"),
        ("int8", "int", "jax", "bfloat16", "float32"),  # every Python scalar becomes float32
        ("float8_e4m3fn", "int8", "jax", "float32", "float8_e4m3fn"),
        # torch: torch.add on stored tensors, with PyTorch's categories.
        ("int8", "S(int64)", "torch", "float32", "int8"),
        ("S(int8)", "S(int64)", "torch", "float32", "int64"),
        ("uint16", "int8", "torch", "float32", "int32"),  # uint16 is stored as int32
        ("int8", "float", "torch", "bfloat16", "bfloat16"),  # a Python float is S(floatx)
        ("float8_e4m3fn", "float8_e4m3fn", "torch", "float32", "float8_e4m3fn"),  # a gap
    ],
)
def test_keras_ops_add(a, b, backend, floatx, want):
    assert promote(a, b, policy="keras", op="add", backend=backend, floatx=floatx) == want


@pytest.mark.parametrize(
    ("a", "b", "backend", "says"),
    [
        ("float8_e4m3fn", "float8_e4m3fn", "tensorflow", "float8"),
        ("P(bool)", "complex64", "tensorflow", "cannot convert a Python bool"),
        ("complex64", "int8", "openvino", "no complex types"),
        ("uint64", "int8", "torch", "cannot store uint64"),
        ("bool", "bool", "tensorflow", "does not accept bool"),  # AddV2: a refusal, not a gap
        ("float8_e4m3fn", "float16", "jax", "do not promote implicitly"),
        ("float8_e5m2", "P(bool)", "numpy", "float8"),
    ],
)
def test_keras_ops_add_refusals_say_why(a, b, backend, says):
    with pytest.raises(PromotionError, match=says):
        promote(a, b, policy="keras", op="add", backend=backend)


def test_keras_defaults_are_keras_own_and_every_backend_and_floatx_is_an_option():
    keras = frameworks.get("keras")
    assert keras.resolve_options() == {"backend": "tensorflow", "floatx": "float32"}
    options = {o.name: o.choices for o in keras.options}
    assert (
        set(options["backend"])
        == set(BACKENDS)
        == {
            "tensorflow",
            "jax",
            "torch",
            "numpy",
            "openvino",
        }
    )
    assert set(options["floatx"]) == set(FLOATX) == {"float32", "float16", "bfloat16"}


def test_zero_d_tensors_matter_only_to_keras_ops_add_on_the_torch_backend():
    keras = frameworks.get("keras")
    for backend in BACKENDS:
        opts = keras.resolve_options({"backend": backend})

        def added(a, b, opts=opts):
            return answer(OPERATIONS, "add", (a, b), opts)[0].result

        operands = keras.operands()
        zero_d = [a for a in operands if a.category == "S"]
        differ = [
            (a, b)
            for a in zero_d
            for b in operands
            if added(a, b) != added(a._replace(category="D"), b)
        ]
        assert bool(differ) == (backend == "torch"), backend
        # keras.backend.result_type is given dtypes: a 0-d array is never special there
        assert all(
            keras.promote(a, b, opts).result
            == keras.promote(a._replace(category="D"), b, opts).result
            for a in zero_d
            for b in operands
        ), backend


# --- issue 25: promotion is keras.backend.result_type, the operation keras.ops.add ---------


@pytest.mark.parametrize(
    ("operands", "backend", "want"),
    [
        # measured: keras.backend.result_type(...) in Keras 3.15.1 on each backend
        (["bfloat16", "complex128"], "torch", "complex64"),
        (["uint64", "int8"], "numpy", "float32"),  # keras.ops.add gives int32 there
        (["uint64", "int8"], "jax", "float32"),  # jnp.add without x64 gives int32
        (["int64", "int64"], "torch", "int32"),  # 64-bit narrowed but on TensorFlow
        (["int64", "int64"], "tensorflow", "int64"),
        (["int8", "int"], "torch", "int8"),
        (["P(bool)", "P(bool)"], "jax", "bool"),
        (["int", "float"], "numpy", "float32"),
        (["int32", "float", "float16"], "torch", "float16"),  # one least upper bound
        (["uint8", "int8", "float16"], "jax", "float16"),
    ],
)
def test_pair_and_promote_many_answer_keras_backend_result_type(operands, backend, want):
    assert promote_many(operands, policy="keras", backend=backend) == want


def test_bfloat16_complex128_on_torch_is_complex64_by_result_type_and_complex128_by_add():
    assert promote("bfloat16", "complex128", policy="keras", backend="torch") == "complex64"
    got = promote("bfloat16", "complex128", policy="keras", op="add", backend="torch")
    assert got == "complex128"


def test_a_chain_on_keras_on_jax_keeps_jax_weak_flag():
    # keras.ops.add(keras.ops.add(int32, 1.0), float16) is float16: the first sum is a weakly
    # typed float32 array; the chain answers the weak type (float16 is what the next step saw)
    chain = ["int32", "float", "float16"]
    assert promote_many(chain, policy="keras", backend="jax", chain=True) == "float16"
    assert promote_many(["int32", "float"], policy="keras", backend="jax", chain=True) == "float*"
    assert promote_many(chain, policy="keras", backend="torch", chain=True) == "float32"


@pytest.mark.parametrize(
    ("a", "b", "backend", "want"),
    [
        # measured: keras.ops.add(keras.ops.ones((2,), a), value) in Keras 3.15.1
        ("uint8", "int:300", "numpy", None),  # OverflowError: out of bounds for uint8
        ("bool", "int:2147483648", "numpy", None),  # out of bounds for int32
        ("uint8", "int:300", "torch", "uint8"),
        ("bool", "int:2147483648", "torch", "int64"),  # torch.as_tensor makes it int64
        ("S(uint8)", "int:2147483648", "torch", "int64"),  # 0-d uint8 with 0-d int64
        ("int8", "int:9223372036854775808", "torch", None),  # "Overflow when unpacking"
        ("uint8", "int:300", "jax", "uint8"),
        ("bool", "int:2147483648", "jax", None),  # too large to convert to int32
        ("uint8", "int:300", "tensorflow", "uint8"),
        ("bool", "int:2147483648", "tensorflow", "int32"),
        ("int8", "int:9223372036854775808", "tensorflow", None),  # out-of-range integer
        ("float32", "int:9223372036854775808", "tensorflow", "float32"),
        ("int8", "int:9223372036854775808", "openvino", "int8"),
        ("int8", "int:18446744073709551616", "openvino", None),  # too large for a C long
        ("float16", "float:1e300", "numpy", "float16"),
    ],
)
def test_python_values_through_keras_ops_add(a, b, backend, want):
    asked = [
        lambda: promote(a, b, policy="keras", op="add", backend=backend),
        lambda: promote_many([a, b], policy="keras", chain=True, backend=backend),
        lambda: promote_many([b, a], policy="keras", chain=True, backend=backend),
    ]
    for ask in asked:
        if want is None:
            with pytest.raises(PromotionError):
                ask()
        else:
            assert ask() == want


def test_every_keras_operation_takes_a_value_on_each_backend_its_own_way():
    # keras.ops.subtract(uint8 tensor, 300) with KERAS_BACKEND=tensorflow: uint8 (300 made an
    # int32 tensor, then cast to uint8), measured
    assert promote("uint8", "int:300", policy="keras", op="subtract", backend="tensorflow") == (
        "uint8"
    )
    # keras.ops.subtract(uint8 array, 300) with KERAS_BACKEND=numpy: OverflowError, measured
    with pytest.raises(PromotionError, match="OverflowError"):
        promote("uint8", "int:300", policy="keras", op="subtract", backend="numpy")


def test_bool_plus_bool_on_tensorflow_is_a_refusal_not_a_kernel_gap():
    # keras.ops.add(bool, bool) raises: AddV2 admits bool on no device
    with pytest.raises(PromotionError, match="AddV2"):
        promote_many(["bool", "bool"], policy="keras", chain=True)
    keras = frameworks.get("keras")
    opts = keras.resolve_options({})
    bools = [op for op in keras.operands() if op.dtype == "bool"]
    out = answer(OPERATIONS, "add", (bools[0], bools[0]), opts)[0]
    assert out.refused and out.rule == "op-refuses"
    # result_type itself has no kernel to miss
    assert promote("bool", "bool", policy="keras") == "bool"


def test_float16_plus_a_python_complex_on_torch_is_a_complex32_tensor():
    # keras.ops.add(float16, 1j) returns a torch.complex32 tensor, which Keras cannot name
    assert promote("float16", "complex", policy="keras", op="add", backend="torch") == "complex32"
    chain = ["float16", "complex"]
    assert promote_many(chain, policy="keras", chain=True, backend="torch") == "complex32"
    assert promote("float16", "complex", policy="keras", backend="torch") == "complex64"
