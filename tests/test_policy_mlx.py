"""The mlx policy: a lattice policy that departs from JAX's answers. Expected values are MLX
0.32.4's ``mx.add`` as measured (every cell against MLX itself is ``promote verify``'s
conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import promote, promote_many


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
