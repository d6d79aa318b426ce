"""The mlx and tinygrad policies: lattice policies that depart from JAX's answers. Expected values
are MLX 0.32.4's ``mx.add`` and tinygrad 0.14.0's ``x + y`` as measured for issue 14 (every
cell against the frameworks themselves is ``promote verify``'s conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import PromotionError, promote, promote_many
from promote_cli.errors import PolicyDefinitionError
from promote_cli.lattice import Lattice


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


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("uint64", "int64", "float*"),  # a weak float from two strong tensors
        ("int64", "fp8e4m3", "float8_e4m3fn"),  # fp8 sits above the weak float
        ("fp8e4m3", "fp8e5m2", "float16"),  # two least bounds: DType order takes float16
        ("fp8e5m2fnuz", "bfloat16", "bfloat16"),
        ("bfloat16", "float16", "float32"),
        ("uint32", "int8", "int64"),
        ("bool", "int", "int*"),  # a weak result stays weak
        ("int8", "float", "float*"),
        ("float16", "float", "float16"),
        ("char", "uchar", "int16"),  # tinygrad's C aliases
        ("uint", "half", "float16"),
    ],
)
def test_tinygrad_pairs(a, b, want):
    assert promote(a, b, policy="tinygrad") == want


@pytest.mark.parametrize(
    ("a", "b", "says"),
    [
        ("int8", "complex", "no complex types"),
        ("complex64", "int8", "no complex types"),
        ("int", "float", "only Python scalars"),
        ("float8_e4m3", "int8", "OCP E4M3FN"),  # tinygrad's fp8e4m3 is float8_e4m3fn
    ],
)
def test_tinygrad_refusals_say_why(a, b, says):
    with pytest.raises(PromotionError, match=says):
        promote(a, b, policy="tinygrad", notation="canonical")


def test_tinygrad_n_ary_is_one_least_bound_not_a_fold():
    # least_upper_dtype(fp8e4m3, fp8e5m2, bfloat16) = bfloat16; the fold gives float32.
    assert promote_many(["fp8e4m3", "fp8e5m2", "bfloat16"], policy="tinygrad") == "bfloat16"
    assert promote_many(["fp8e4m3", "fp8e5m2"], policy="tinygrad") == "float16"


def test_a_tie_break_order_must_list_every_node_above_the_nodes_below_it():
    edges = {"a": ("c", "d"), "b": ("c", "d"), "c": (), "d": ()}
    with pytest.raises(PolicyDefinitionError, match="no unique least bound"):
        Lattice(edges)
    assert Lattice(edges, tie_break=["a", "b", "d", "c"]).lub("a", "b") == "d"
    with pytest.raises(PolicyDefinitionError, match="puts c before a"):
        Lattice(edges, tie_break=["c", "a", "b", "d"])
    with pytest.raises(PolicyDefinitionError, match="every node"):
        Lattice(edges, tie_break=["a", "b", "c"])


def test_u64_x_i64_under_mlx_tinygrad_numpy_and_jax():
    # The four answers: numpy and jax (x64, promote_types) agree on float64.
    answers = {p: promote("uint64", "int64", policy=p) for p in ("mlx", "tinygrad", "numpy", "jax")}
    assert answers == {"mlx": "float32", "tinygrad": "float*", "numpy": "float64", "jax": "float64"}
    assert promote("uint64", "int64", policy="jax", x64="false") == "int32"
