"""The mlx policy: a lattice policy that departs from JAX's answers. Expected values are MLX
0.32.4's ``mx.add`` as measured (every cell against MLX itself is ``promote verify``'s
conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import PromotionError, promote, promote_many


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("uint64", "int64", "float32"),  # meet at the weak float, materialised as 32-bit
        ("uint64", "int8", "float32"),
        ("int64", "int64", "int64"),  # 64-bit types are kept (JAX without x64 narrows)
        ("float64", "complex64", "complex64"),  # no complex128 in MLX
        ("bfloat16", "float16", "float32"),
        ("int8", "float16", "float16"),  # an integer never widens a float (as in JAX)
        ("bool", "int", "int32"),  # P(int) is int*: with bool it becomes int32
        ("int8", "int", "int8"),
        ("int8", "float", "float32"),  # weak float results are materialised (JAX: f*)
        ("float64", "complex", "complex64"),
        ("int", "float", "float32"),  # mx.add(1, 1.0) is a float32 array
        ("P(bool)", "P(bool)", "bool"),
    ],
)
def test_mlx_pairs(a, b, want):
    assert promote(a, b, policy="mlx") == want


def test_mlx_n_ary_is_a_left_fold_and_so_depends_on_the_order():
    # mx.result_type(u64, i8, f16) = float32, mx.result_type(f16, u64, i8) = float16.
    assert promote_many(["uint64", "int8", "float16"], policy="mlx") == "float32"
    assert promote_many(["float16", "uint64", "int8"], policy="mlx") == "float16"


def test_u64_x_i64_under_mlx_tinygrad_numpy_and_jax():
    # Four frameworks, three answers; numpy and jax (x64, promote_types) agree on float64.
    answers = {p: promote("uint64", "int64", policy=p) for p in ("mlx", "tinygrad", "numpy", "jax")}
    assert answers == {"mlx": "float32", "tinygrad": "float*", "numpy": "float64", "jax": "float64"}
    assert promote("uint64", "int64", policy="jax", x64="false") == "int32"


# Python values, as MLX 0.32.4's mx.add raises for them on the CPU (measured both orders).
@pytest.mark.parametrize(
    ("ops", "says"),
    [
        (["uint8", "int:300"], "Converting 300 to uint8 would result in overflow"),
        (["int:300", "uint8"], "Converting 300 to uint8 would result in overflow"),
        (["int8", "int:128"], "Converting 128 to int8 would result in overflow"),
        (["uint32", "int:-1"], "Converting -1 to uint32 would result in overflow"),
        (["int32", "int:2147483648"], "Converting 2147483648 to int32"),
        (["int64", "int:9223372036854775808"], "std::bad_cast"),  # outside int64: any array
        (["float32", "int:-9223372036854775809"], "std::bad_cast"),
        (["bool", "int:18446744073709551615"], "std::bad_cast"),
    ],
)
def test_mlx_refuses_a_python_int_its_array_cannot_hold_in_both_questions(ops, says):
    for chain in (False, True):
        with pytest.raises(PromotionError, match=says):
            promote_many(ops, policy="mlx", chain=chain)


@pytest.mark.parametrize(
    ("ops", "want"),
    [
        (["int8", "int:-128"], "int8"),
        (["uint64", "int:-1"], "uint64"),  # uint64 takes any int64, negatives too
        (["uint64", "int:-9223372036854775808"], "uint64"),
        (["bool", "int:4294967296"], "int32"),  # the int32 result is not checked
        (["float16", "int:9223372036854775807"], "float16"),
        (["float16", "float:1e+300"], "float16"),  # floats are never checked
        (["int8", "float:inf"], "float32"),
    ],
)
def test_mlx_takes_the_python_values_that_fit(ops, want):
    for chain in (False, True):
        assert promote_many(ops, policy="mlx", chain=chain) == want


def test_mlx_pair_uint8_int_300_is_refused_as_mlx_refuses_it(run):
    result = run("pair", "uint8", "int:300", "-p", "mlx")
    assert result.exit_code == 1
    assert "Converting 300 to uint8 would result in overflow" in result.stdout


def test_mlx_result_type_with_python_scalars_folds_what_mx_add_does_the_chain_adds_in_python():
    # mx.add(mx.add(1, 1), uint8) is int32 (mx.add(1, 1) is an int32 array);
    # mx.add(1 + 1, uint8) is uint8 (the Python int 2 is weak).
    assert promote_many(["int", "int", "uint8"], policy="mlx") == "int32"
    assert promote_many(["int", "int", "uint8"], policy="mlx", chain=True) == "uint8"
