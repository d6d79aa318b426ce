"""The mindspore policy: Ascend's table with category rules. Expected values are MindSpore
2.10.0's ``ops.add`` on CPU, as measured (every cell against MindSpore itself is ``promote
verify``'s conformance test)."""

from __future__ import annotations

import pytest

from promote_cli import PromotionError, promote, promote_many
from promote_cli.frameworks.ascend import promotion as ascend
from promote_cli.frameworks.mindspore import promotion as mindspore


def test_mindspore_is_the_ascend_table_but_for_bool_with_wide_unsigned_types():
    for t in mindspore.TYPES:
        for u in mindspore.TYPES:
            theirs = ascend.TABLE.cells[t, u]
            mine = mindspore.TABLE.cells[t, u]
            if {t, u} in ({"bool", "uint16"}, {"bool", "uint32"}, {"bool", "uint64"}):
                assert (theirs, mine) == (None, u if t == "bool" else t)
            else:
                assert mine == theirs, (t, u)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("bool", "uint32", "uint32"),
        ("bool", "bool", "bool"),  # ops.add has no CPU bool kernel; + answers bool
        ("int8", "uint8", "int16"),
        ("S(int8)", "int64", "int64"),  # 0-d tensors are not special
        ("bool", "int", "int64"),
        ("uint8", "int", "uint8"),
        ("int32", "float", "float32"),
        ("bfloat16", "float", "bfloat16"),
        ("uint16", "P(bool)", "uint16"),
        ("int", "int", "int64"),  # ops.add(1, 2) is an int64 tensor
        ("int", "float", "float32"),
    ],
)
def test_mindspore_pairs(a, b, want):
    assert promote(a, b, policy="mindspore") == want


@pytest.mark.parametrize(
    ("a", "b", "says"),
    [
        ("uint16", "int8", "does not convert"),
        ("uint16", "int", "int64"),  # a Python int is an int64 tensor to uint16
        ("uint64", "float", "float32"),
        ("float32", "complex", "no Python complex"),
        ("complex32", "complex64", "no complex32"),
        ("float8_e4m3fn", "float32", "cannot make a CPU tensor"),
    ],
)
def test_mindspore_refusals_say_why(a, b, says):
    with pytest.raises(PromotionError, match=says):
        promote(a, b, policy="mindspore", notation="canonical")


def test_mindspore_n_ary_is_a_left_fold():
    assert promote_many(["bool", "uint8", "int8"], policy="mindspore") == "int16"
    with pytest.raises(PromotionError, match="folded left"):
        promote_many(["bool", "uint16", "int8"], policy="mindspore")


def test_diff_ascend_mindspore_shows_exactly_bool_with_wide_unsigned_and_complex32(run):
    result = run("diff", "ascend", "mindspore")
    assert result.exit_code == 1, result.stderr  # 1: the policies differ
    lines = result.stdout.splitlines()
    cells = [line.split()[:3] for line in lines if " x " in line]
    pairs = {(a, b) for a, _, b in cells}
    assert pairs == {(x, y) for u in ("u16", "u32", "u64") for x, y in (("bool", u), (u, "bool"))}
    assert all("ascend refused" in line for line in lines if " x " in line)
    assert "ascend vs mindspore: 6 of 225 cells differ (15 types)" in lines
    assert "only ascend has: c32" in lines


# Python values, as MindSpore 2.10.0's ops.add on CPU answers them (measured in both orders):
# a Python int becomes a C++ long first, whatever it meets; inside int64 nothing is checked.
@pytest.mark.parametrize(
    "ops",
    [
        ["int8", "int:9223372036854775808"],
        ["int:9223372036854775808", "int8"],
        ["float32", "int:18446744073709551616"],
        ["int64", "int:-9223372036854775809"],
        ["bool", "int:18446744073709551615"],
    ],
)
def test_mindspore_refuses_any_python_int_outside_int64(ops):
    for chain in (False, True):
        with pytest.raises(PromotionError, match="Unable to cast Python instance"):
            promote_many(ops, policy="mindspore", chain=chain)


@pytest.mark.parametrize(
    ("ops", "want"),
    [
        (["uint8", "int:300"], "uint8"),  # wraps
        (["int8", "int:-9223372036854775808"], "int8"),
        (["int8", "int:9223372036854775807"], "int8"),
        (["bool", "int:4294967296"], "int64"),
        (["float16", "float:1e+300"], "float16"),
    ],
)
def test_mindspore_takes_python_ints_inside_int64_whatever_their_value(ops, want):
    for chain in (False, True):
        assert promote_many(ops, policy="mindspore", chain=chain) == want


def test_mindspore_n_ary_folds_ops_add_and_the_chain_adds_python_scalars_in_python():
    # ops.add(ops.add(1, 1), uint8) is int64 (ops.add(1, 1) is an int64 tensor);
    # (1 + 1) + uint8 is uint8.
    assert promote_many(["int", "int", "uint8"], policy="mindspore") == "int64"
    assert promote_many(["int", "int", "uint8"], policy="mindspore", chain=True) == "uint8"
