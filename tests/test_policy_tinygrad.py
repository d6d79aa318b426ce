"""The tinygrad policy: a lattice policy that departs from JAX's answers, with a tie-break order
where two types have no unique least bound. Expected values are tinygrad 0.14.0's ``x + y`` as
measured (every cell against tinygrad itself is ``promote verify``'s conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import PromotionError, promote, promote_many
from promote_cli.errors import PolicyDefinitionError
from promote_cli.lattice import Lattice


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
