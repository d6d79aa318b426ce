"""Every cell of the two seed tables, and every example of the OpenVINO spec."""

from __future__ import annotations

import pytest
from seeds import (
    ascend_table,
    jax_table,
    openvino_attribute_defaults,
    openvino_examples,
    openvino_ir_examples,
)

from promote_cli import PromotionError, frameworks, promote
from promote_cli.api import outcome
from promote_cli.engine import matrix
from promote_cli.frameworks import get
from promote_cli.operands import Operand


def _grid_diff(policy: str, header, expected) -> list[str]:
    """Per-cell differences between the policy's default matrix and a seed table."""
    pol = get(policy)
    m = matrix(pol, None, None, pol.resolve_options())
    label = frameworks.notation(pol.notation_name).label
    assert [label(op.dtype) for op in m.rows] == header, "rows are in the seed's order"
    problems = []
    for i, row in enumerate(m.rows):
        for j, col in enumerate(m.cols):
            cell = m.cell(i, j)
            got = "×" if cell.refused else label(cell.result)
            want = expected[label(row.dtype), label(col.dtype)]
            if got != want:
                problems.append(f"{label(row.dtype)} x {label(col.dtype)}: want {want}, got {got}")
    return problems


def test_jax_default_table_is_the_seed_table_cell_for_cell():
    header, cells = jax_table()
    assert len(cells) == 225
    assert _grid_diff("jax", header, {k: text for k, (text, _) in cells.items()}) == []


def test_ascend_table_is_the_seed_table_cell_for_cell():
    header, cells = ascend_table()
    assert len(cells) == 256
    assert _grid_diff("ascend", header, cells) == []


def test_ascend_refuses_exactly_the_crossed_cells():
    _, cells = ascend_table()
    # u16, u32, u64 promote only with themselves: every cell but the 13x13 block of the other
    # types and the three diagonal cells is refused.
    assert sum(v == "×" for v in cells.values()) == 16 * 16 - 13 * 13 - 3
    ascend = get("ascend")
    m = matrix(ascend, None, None, ascend.resolve_options())
    assert sum(c.refused for row in m.cells for c in row) == 84
    with pytest.raises(PromotionError, match="u32 and f16"):
        promote("u32", "f16", policy="ascend")


# The spec spells the two float8 types "f8m4e3" and "f8m5e3" in one example; OpenVINO's element
# types are f8e4m3 and f8e5m2.
_SPEC_TYPO = {"f8m4e3": "f8e4m3", "f8m5e3": "f8e5m2"}
# The element types and IR precisions of OpenVINO's spec, written out here rather than read from
# promote's notation.
OV = {
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "i16": "int16",
    "i32": "int32",
    "u8": "uint8",
    "FP32": "float32",
    "I64": "int64",
}
_UNSAFE = {"promote_unsafe": True}
# Where the implementation needs more than the spec's heading says: S(i64) x D(u8) -> u8 is listed
# under pytorch_scalar_promotion=true, but i64 does not fit u8, so (as the example's own note says,
# "rules of safe promotion apply") it also needs promote_unsafe=true.
_ALSO_NEEDS = {("S(i64)", "D(u8)"): _UNSAFE}


def _example_id(e: dict) -> str:
    return f"{e['lhs']}-{e['rhs']}"


EXAMPLES = openvino_examples()
RAISING = [e for e in EXAMPLES if e["raises_with"] is not None]


def _types(e: dict) -> tuple[str, str]:
    return _SPEC_TYPO.get(e["lhs"], e["lhs"]), _SPEC_TYPO.get(e["rhs"], e["rhs"])


def test_the_spec_lists_two_default_six_unsafe_and_two_pytorch_examples():
    groups = [(tuple(e["attributes"].items()), e["raises_with"] is not None) for e in EXAMPLES]
    assert groups.count(((), False)) == 2
    assert groups.count(((("promote_unsafe", True),), True)) == 6
    assert groups.count(((("pytorch_scalar_promotion", True),), False)) == 2
    assert len(groups) == 10


@pytest.mark.parametrize("example", EXAMPLES, ids=_example_id)
def test_openvino_gives_each_spec_example_under_its_attributes(example):
    a, b = _types(example)
    opts = {**example["attributes"], **_ALSO_NEEDS.get((a, b), {})}
    assert promote(a, b, policy="openvino", **opts) == OV[example["result"]]


@pytest.mark.parametrize("example", RAISING, ids=_example_id)
def test_openvino_unsafe_examples_raise_in_safe_mode_and_say_the_unsafe_result(example):
    a, b = _types(example)
    with pytest.raises(PromotionError) as info:
        promote(a, b, policy="openvino", **example["raises_with"])
    assert f"promote_unsafe=true would give {example['result']}" in info.value.reason


def test_openvino_pytorch_scalar_example_of_one_kind_needs_promote_unsafe():
    with pytest.raises(PromotionError, match="would give u8"):
        promote("S(i64)", "D(u8)", policy="openvino", pytorch_scalar_promotion=True)


def test_openvino_pytorch_scalar_example_of_mixed_kinds_ignores_the_ranks():
    # Mixed kinds follow the general rules, with or without pytorch_scalar_promotion.
    assert promote("S(f16)", "D(i8)", policy="openvino") == "float16"


def test_openvino_attribute_defaults_are_the_spec_defaults():
    from promote_cli.frameworks.openvino.promotion import Attributes

    spec = openvino_attribute_defaults()
    target = OV[spec["u64_integer_promotion_target"]]
    assert Attributes()._asdict() == {**spec, "u64_integer_promotion_target": target}


@pytest.mark.parametrize("example", openvino_ir_examples(), ids=lambda e: e["title"])
def test_openvino_ir_examples(example):
    a, b = example["inputs"]
    out, out_again = example["outputs"]
    assert out == out_again, "both outputs have the common type"
    assert promote(a, b, policy="openvino", **example["attributes"]) == OV[out]


def test_openvino_u64_integer_promotion_target_is_any_element_type():
    opts = {**_UNSAFE, "u64_integer_promotion_target": "f64"}
    assert promote("u64", "i8", policy="openvino", **opts) == "float64"


def test_openvino_refuses_its_unsupported_element_types_by_name():
    for t in ("nf4", "u3", "u6", "u2", "f4e2m1", "f8e8m0", "string"):
        with pytest.raises(PromotionError, match="does not support element type"):
            promote(t, "f32", policy="openvino")
    with pytest.raises(PromotionError, match="OpenVINO has no complex64"):
        promote("complex64", "f32", policy="openvino")


@pytest.mark.parametrize(
    ("a", "b", "opts", "want", "reason"),
    [
        ("u4", "i4", {"x64": False}, "int32", "x32 lattice: uint32 x int32 stays 32-bit"),
        ("u4", "i4", {}, "int64", "the seed table"),
        ("i*", "f*", {}, "float*", "a weak float stays weak"),
        ("i*", "u1", {}, "uint8", "a weak int takes the strong type"),
        ("int", "bool", {}, "int*", "bool sits below the weak int"),
        ("P(bool)", "i1", {}, "int8", "a Python bool is the bool dtype in JAX"),
        ("f2", "float", {}, "float16", "weak floats never widen a float"),
        ("u8", "i8", {"x64": False}, "int32", "64-bit inputs are truncated without x64"),
        ("float8_e4m3fn", "bool", {}, "float8_e4m3fn", "bool is below every type"),
        ("int4", "int", {}, "int4", "weak int is below the narrow ints"),
        ("i4", "i*", {"strict": True}, "int32", "strict still allows weak types"),
    ],
)
def test_jax_beyond_the_seed(a, b, opts, want, reason):
    assert promote(a, b, policy="jax", **opts) == want, reason


@pytest.mark.parametrize(
    ("a", "b", "opts", "match"),
    [
        ("i4", "f4", {"strict": True}, "strict"),
        ("float8_e4m3fn", "float8_e5m2", {}, "8-bit floats"),
        ("float8_e4m3fn", "f2", {}, "8-bit floats"),
        ("int4", "i1", {}, "4-bit integers"),
        ("float4_e2m1fn", "f4", {}, "4-bit floats"),
    ],
)
def test_jax_refusals(a, b, opts, match):
    with pytest.raises(PromotionError, match=match):
        promote(a, b, policy="jax", **opts)


@pytest.mark.parametrize(
    ("a", "b", "want", "reason"),
    [
        # From NumPy's documentation of promote_types / NEP 50.
        ("f4", "i2", "float32", "int16 fits float32"),
        ("i1", "u1", "int16", "signed and unsigned meet in a wider signed type"),
        ("u8", "i8", "float64", "no integer holds both"),
        ("int8", "int", "int8", "NEP 50: a Python int does not widen"),
        ("int8", "float", "float64", "NEP 50: a Python float brings float64"),
        ("float32", "complex", "complex64", "NEP 50: complex keeps float32's precision"),
        ("bool", "int", "int64", "bool has a lower kind than a Python int"),
    ],
)
def test_numpy_examples(a, b, want, reason):
    assert promote(a, b, policy="numpy", notation="numpy") == want, reason


def test_numpy_is_not_associative_so_result_type_and_the_chain_differ():
    from promote_cli.api import promote_many

    left = promote(promote("int8", "uint8", policy="numpy"), "float16", policy="numpy")
    right = promote("int8", promote("uint8", "float16", policy="numpy"), policy="numpy")
    assert (left, right) == ("float32", "float16")
    # np.result_type(np.int8, np.uint8, np.float16) is float16 (NumPy 2.4.6): float16 has the
    # highest type number and promotes each operand; (int8 + uint8) + float16 is float32.
    assert promote_many(["int8", "uint8", "float16"], policy="numpy") == "float16"
    assert promote_many(["int8", "uint8", "float16"], policy="numpy", chain=True) == "float32"


def test_matrix_cells_are_outcomes_of_the_pair_rule():
    pol = get("openvino")
    opts = pol.resolve_options({"promote_unsafe": "true"})
    m = matrix(pol, [Operand("int8"), Operand("uint8")], None, opts)
    assert [[c.result for c in row] for row in m.cells] == [
        ["int8", "int16"],
        ["int16", "uint8"],
    ]


def test_a_left_fold_carries_only_the_categories_it_has_seen():
    opts = {"pytorch_scalar_promotion": True}
    # S(i8) x S(i16) is a 0-d i16; S(i16) x D(u8) is refused in safe mode. A later dimensioned
    # operand must not turn the 0-d intermediate into a dimensioned one.
    alone = outcome(["S(i16)", "D(u8)"], policy="openvino", **opts)
    folded = outcome(["S(i8)", "S(i16)", "D(u8)"], policy="openvino", **opts)
    assert alone.refused and folded.refused
    assert folded.unsafe_result == alone.unsafe_result == "uint8"
