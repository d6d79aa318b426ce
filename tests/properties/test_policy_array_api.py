"""The array-api policy: the standard's promotion tables and its rules for Python scalars, and
(when array-api-strict is installed) its 0-d arrays against result_type."""

from __future__ import annotations

import itertools

import pytest
from oracles import ask

from promote_cli import PromotionError, promote, promote_many
from promote_cli.frameworks import get
from promote_cli.operands import DIMENSIONED, ZERO_D, Operand
from promote_cli.verify.protocol import PAIR, Question, Result

# The standard's type codes ("not part of the standard"; they keep its tables readable).
CODES = {
    "i1": "int8",
    "i2": "int16",
    "i4": "int32",
    "i8": "int64",
    "u1": "uint8",
    "u2": "uint16",
    "u4": "uint32",
    "u8": "uint64",
    "f4": "float32",
    "f8": "float64",
    "c8": "complex64",
    "c16": "complex128",
}

# The four tables of the standard's "Type Promotion Rules", as printed there.
SPEC_TABLES = """
    i1  i2  i4  i8
i1  i1  i2  i4  i8
i2  i2  i2  i4  i8
i4  i4  i4  i4  i8
i8  i8  i8  i8  i8

    u1  u2  u4  u8
u1  u1  u2  u4  u8
u2  u2  u2  u4  u8
u4  u4  u4  u4  u8
u8  u8  u8  u8  u8

    u1  u2  u4
i1  i2  i4  i8
i2  i2  i4  i8
i4  i4  i4  i8
i8  i8  i8  i8

     f4   f8   c8   c16
f4   f4   f8   c8   c16
f8   f8   f8   c16  c16
c8   c8   c16  c8   c16
c16  c16  c16  c16  c16
"""


def spec_cells():
    for block in SPEC_TABLES.strip().split("\n\n"):
        header, *rows = [line.split() for line in block.splitlines()]
        for row in rows:
            for col, cell in zip(header, row[1:], strict=True):
                yield CODES[row[0]], CODES[col], CODES[cell]


@pytest.mark.parametrize(("a", "b", "want"), list(spec_cells()))
def test_the_standards_tables_both_ways_round(a, b, want):
    assert promote(a, b, policy="array-api") == want
    assert promote(b, a, policy="array-api") == want


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        ("uint64", "int8", "uint64 with a signed integer"),
        ("uint64", "int64", "uint64 with a signed integer"),
        ("int8", "float32", "between kinds"),
        ("bool", "int8", "between kinds"),
        ("bool", "float64", "between kinds"),
        ("uint8", "complex64", "between kinds"),
    ],
)
def test_what_the_standard_leaves_unspecified_is_refused_with_that_reason(a, b, why):
    with pytest.raises(PromotionError, match=why):
        promote(a, b, policy="array-api")


@pytest.mark.parametrize(
    ("operands", "want"),
    [
        # "Mixing arrays with Python scalars": the scalar takes the array's dtype ...
        (["bool", "P(bool)"], "bool"),
        (["int16", "int"], "int16"),
        (["uint64", "int"], "uint64"),
        (["float32", "int"], "float32"),
        (["float32", "float"], "float32"),
        (["complex64", "int"], "complex64"),
        (["complex128", "float"], "complex128"),
        (["complex64", "complex"], "complex64"),
        # ... and "1j <op> float32_array results in a complex64 array".
        (["float32", "complex"], "complex64"),
        (["float64", "complex"], "complex128"),
    ],
)
def test_python_scalars_per_the_standard(operands, want):
    assert promote_many(operands, policy="array-api") == want


@pytest.mark.parametrize(
    "operands",
    [
        ["int8", "float"],  # "not specified when mixing a Python float and an integer array"
        ["int8", "complex"],  # "not specificed when mixing complex scalars with integer arrays"
        ["int8", "P(bool)"],  # a bool scalar only with a bool array
        ["bool", "int"],  # an int scalar only with integer and floating arrays
        ["int", "float"],  # scalars alone: result_type needs an array or a dtype
    ],
)
def test_python_scalar_mixes_the_standard_leaves_open_are_refused(operands):
    with pytest.raises(PromotionError):
        promote_many(operands, policy="array-api")


def test_zero_dim_arrays_follow_the_same_rules():
    # "zero-dimensional arrays must be subject to the same type promotion rules"
    assert promote("float32", "S(float64)", policy="array-api") == "float64"


def test_types_the_standard_does_not_have_are_refused_saying_so():
    with pytest.raises(PromotionError, match="has no float16 data type"):
        promote("float16", "float32", policy="array-api")


@pytest.mark.conformance("array-api")
def test_zero_dim_arrays_agree_with_array_api_strict_in_every_cell():
    # verify's grid (test_verify) has no 0-d operands, since the policy declares no 0-d
    # category; ask the same oracle with them added, so S(t) == D(t) is the framework's word.
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed")
    pol = get("array-api")
    ops = pol.operands()
    ops += tuple(Operand(op.dtype, ZERO_D) for op in ops if op.category == DIMENSIONED)
    pairs = list(itertools.product(ops, repeat=2))
    cells = ask("array-api", [Question(PAIR, pair) for pair in pairs])
    problems = []
    for (a, b), cell in zip(pairs, cells, strict=True):
        want = cell.dtype if isinstance(cell, Result) else None
        got = pol.promote(a, b, {}).result
        if got != want:
            problems.append(f"{a} x {b}: want {want}, got {got}")
    assert problems == [], "\n".join(problems[:20])
