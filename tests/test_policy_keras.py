"""The keras policy: ``keras.ops.add`` per backend and floatx. Expected values are Keras 3.15.1's
as measured on each backend (every cell against Keras itself, every backend and
floatx, is ``promote verify``'s conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import PromotionError, frameworks, promote
from promote_cli.frameworks.keras.promotion import BACKENDS, FLOATX


@pytest.mark.parametrize(
    ("a", "b", "backend", "floatx", "want"),
    [
        # tensorflow (Keras's default): the declared result_type, 64-bit ints and floats kept.
        ("uint64", "int8", "tensorflow", "float32", "float32"),  # the weak float, at floatx
        ("uint64", "int8", "tensorflow", "float16", "float16"),
        ("int64", "int64", "tensorflow", "float32", "int64"),
        ("uint64", "uint64", "tensorflow", "float32", "uint32"),  # uint64 always narrows
        ("bool", "bool", "tensorflow", "float32", "bool"),  # no CPU bool kernel: a gap
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
def test_keras_add(a, b, backend, floatx, want):
    assert promote(a, b, policy="keras", backend=backend, floatx=floatx) == want


@pytest.mark.parametrize(
    ("a", "b", "backend", "says"),
    [
        ("float8_e4m3fn", "float8_e4m3fn", "tensorflow", "float8"),
        ("P(bool)", "complex64", "tensorflow", "cannot convert a Python bool"),
        ("complex64", "int8", "openvino", "no complex types"),
        ("uint64", "int8", "torch", "cannot store uint64"),
        ("float16", "complex", "torch", "no complex32"),
        ("float8_e4m3fn", "float16", "jax", "do not promote implicitly"),
        ("float8_e5m2", "P(bool)", "numpy", "float8"),
    ],
)
def test_keras_refusals_say_why(a, b, backend, says):
    with pytest.raises(PromotionError, match=says):
        promote(a, b, policy="keras", backend=backend)


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


def test_zero_d_tensors_matter_only_on_the_torch_backend():
    keras = frameworks.get("keras")
    for backend in BACKENDS:
        opts = keras.resolve_options({"backend": backend})
        differ = [
            (a, b)
            for a in keras.operands()
            for b in keras.operands()
            if a.category == "S"
            and keras.promote(a, b, opts).result
            != keras.promote(a._replace(category="D"), b, opts).result
        ]
        assert bool(differ) == (backend == "torch"), backend
