"""The paddle policy: a table with category rules. Expected values are Paddle 3.3.1's eager
``x + y`` on CPU, as measured (every cell against Paddle itself is ``promote verify``'s
conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import PromotionError, promote, promote_many


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("float16", "float32", "float32"),  # float x float promote between tensors
        ("bfloat16", "float16", "float32"),
        ("int32", "complex64", "complex64"),  # anything x complex too
        ("float64", "complex64", "complex128"),
        ("float16", "float16", "float16"),  # the promotion, though CPU has no f16 add kernel
        ("S(uint8)", "S(int8)", "int16"),  # two 0-d tensors: the c10 table
        ("uint8", "S(int64)", "uint8"),  # a 0-d tensor of the same kind does not widen
        ("float16", "S(float64)", "float16"),
        ("int8", "S(float32)", "float32"),  # another kind: the table decides
        ("complex64", "S(float64)", "complex128"),  # float and complex are different kinds
        ("bool", "S(int8)", "int8"),  # bool belongs to no kind
        ("bool", "int", "int64"),
        ("int8", "float", "float32"),
        ("float64", "float", "float64"),
        ("float16", "complex", "complex64"),  # PyTorch: complex32
        ("float8_e4m3fn", "int", "float8_e4m3fn"),
    ],
)
def test_paddle_pairs(a, b, want):
    assert promote(a, b, policy="paddle") == want


@pytest.mark.parametrize(
    ("a", "b", "says"),
    [
        ("int32", "int64", "only float with float or with complex"),
        ("int8", "float32", "only float with float or with complex"),
        ("float8_e4m3fn", "float8_e5m2", "only float with float or with complex"),
        ("S(float8_e4m3fn)", "S(float8_e5m2)", "does not promote"),
        ("float8_e5m2", "complex", "does not promote"),
        ("uint16", "int8", "promote does not model"),
        ("int", "float", "two Python scalars"),
    ],
)
def test_paddle_refusals_say_why(a, b, says):
    with pytest.raises(PromotionError, match=says):
        promote(a, b, policy="paddle")


@pytest.mark.parametrize(
    ("ops", "want"),
    [
        (["uint8", "int:300"], "uint8"),  # Paddle 3.3.1 takes any Python int: it wraps
        (["int:18446744073709551616", "int8"], "int8"),
        (["bool", "int:18446744073709551616"], "int64"),
        (["int64", "int:-9223372036854775809"], "int64"),
        (["float16", "float:1e+300"], "float16"),
    ],
)
def test_paddle_never_looks_at_a_python_values_size(ops, want):
    for chain in (False, True):
        assert promote_many(ops, policy="paddle", chain=chain) == want


def test_paddle_n_ary_folds_x_plus_y_and_the_chain_adds_python_scalars_in_python():
    # paddle.add(1, 1.0) raises ("must be Tensor"); (1 + 1.0) + int8 is float32.
    with pytest.raises(PromotionError, match="two Python scalars"):
        promote_many(["int", "float", "int8"], policy="paddle")
    assert promote_many(["int", "float", "int8"], policy="paddle", chain=True) == "float32"
