"""The tinygrad policy: a lattice policy that departs from JAX's answers, with a tie-break order
where two types have no unique least bound. Expected values are tinygrad 0.14.0's
``least_upper_dtype`` (a Python scalar as ``dtypes.from_py`` reads it) and ``x + y`` as measured
(every cell against tinygrad itself is ``promote verify``'s conformance test)."""

from __future__ import annotations

import pytest

import promote_cli.api
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
        ("int", "float", "float*"),  # least_upper_dtype(weakint, weakfloat)
        ("P(bool)", "P(bool)", "bool"),
        ("uint8", "int:300", "uint8"),  # a Python int is weakint, whatever its value
        ("weakfloat", "float16", "float16"),  # a lazy weak tensor, as a chain makes one
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


def test_tinygrad_chain_carries_the_weak_tensor_a_python_scalar_makes():
    # (Tensor(int8) + 1.0) is a weakfloat tensor; + Tensor(float16) is float16 (issue 25).
    out = promote_cli.api.outcome(["int8", "float", "float16"], policy="tinygrad", chain=True)
    assert out.result == "float16"
    assert out.steps == (
        "{int8} + {float*} -> {float*} (a weakly typed array)",
        "{float*} (a weakly typed array) + {float16} -> {float16}",
    )


def test_tinygrad_chain_refuses_a_python_complex_only_when_it_meets_a_tensor():
    assert promote_many(["int", "complex"], policy="tinygrad", chain=True) == "complex*"
    with pytest.raises(PromotionError, match="no complex types"):
        promote_many(["int", "complex", "int8"], policy="tinygrad", chain=True)
