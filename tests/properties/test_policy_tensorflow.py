"""The tensorflow policy: the examples of TensorFlow's "TF-NumPy Type Promotion" guide, and
(when TensorFlow is installed) every cell of its flexible_dtypes table."""

from __future__ import annotations

import itertools

import pytest

from promote_cli import PromotionError, promote, promote_many
from promote_cli.frameworks import get
from promote_cli.frameworks.tensorflow.promotion import POLICY, all_only

# The guide's examples, in its notation; the result is the same in both modes unless noted.
GUIDE = [
    (["i32", "f32"], "f32", "all"),  # allowed in ALL mode, refused in SAFE mode
    (["i8", "u32"], "i64", "all"),  # bit-widening: ALL mode only
    (["i8", "i32"], "i32", "safe"),  # "the first common child of i8 and i32 is i32"
    (["u64", "f16"], "f16", "all"),  # "between u64 and f16 would be f16"
    (["i64", "f16"], "f16", "all"),  # tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16)
    (["float", "f16"], "f16", "safe"),  # tf.constant(1.2) + tf.constant(3.1, tf.float16)
    (["i8", "int", "f16"], "f16", "all"),  # tf.add(tf.add(a, b), c) with a int8, b = 1
    (["int", "i8", "f16"], "f16", "all"),  # tf.add(tf.add(b, a), c)
    (["f16", "i8", "int"], "f16", "all"),  # np.array(3.2, f16) + tf.constant(1, i8) + 50
    (["i16", "f32"], "f32", "safe"),  # tf.constant(5, tf.int16) - tf.constant(1, tf.float32)
]


@pytest.mark.parametrize(("operands", "want", "least_mode"), GUIDE)
def test_guide_examples(operands, want, least_mode):
    # The guide's names, written out rather than read through promote's notation.
    want = {"f16": "float16", "f32": "float32", "i32": "int32", "i64": "int64"}[want]
    assert promote_many(operands, policy="tensorflow") == want
    if least_mode == "safe":
        assert promote_many(operands, policy="tensorflow", mode="safe") == want


@pytest.mark.parametrize("pair", [("i32", "f32"), ("i8", "u32"), ("i64", "f16")])
def test_safe_mode_refuses_what_the_guide_calls_risky(pair):
    with pytest.raises(PromotionError, match="dtype_conversion_mode='safe' disallows"):
        promote(*pair, policy="tensorflow", mode="safe")


@pytest.mark.parametrize(
    ("scalar", "weak"), [("int", "int32*"), ("float", "float32*"), ("complex", "complex128*")]
)
def test_python_scalars_are_the_guides_weak_types(scalar, weak):
    # "Python int is inferred as i32*, float as f32*, complex as c128*"; two alike stay weak.
    assert promote(scalar, scalar, policy="tensorflow") == weak


def test_weak_types_are_spelled_as_the_guide_spells_them(run):
    result = run("pair", "i32*", "f32*", "--policy", "tensorflow")
    assert (result.exit_code, result.stdout) == (0, "f32* (weak; float32)\n")
    result = run("pair", "i8", "u8", "--policy", "tensorflow")
    assert result.stdout == "i16\n"


def test_all_only_marks_are_pairs_of_distinct_lattice_nodes():
    nodes = set(POLICY.lattice.edges)
    assert all(len(p) == 2 and p <= nodes for p in all_only())


def test_types_outside_the_table_are_refused():
    with pytest.raises(PromotionError, match="no int4"):
        promote("int4", "int8", policy="tensorflow")
    with pytest.raises(PromotionError, match="does not convert"):
        promote("string", "i32", policy="tensorflow")
    assert promote("string", "string", policy="tensorflow") == "string"


def test_every_cell_against_installed_tensorflow():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    from tensorflow.python.framework import flexible_dtypes as fd

    from promote_cli.operands import Operand

    pol = get("tensorflow")
    problems = []
    cells = [
        (a, b, *cell) for a, row in fd._BINARY_DTYPE_RES_FULL.items() for b, cell in row.items()
    ]
    assert len(cells) == 20 * 20 + 1  # TensorFlow's 20 types and weak types, and string
    for a, b, result, mode in cells:
        names = [t[0].name + ("*" if t[1] else "") for t in (a, b, result)]
        ops = [Operand(n, "P" if n.endswith("*") else "D") for n in names[:2]]
        for setting in ("all", "safe"):
            want = names[2] if setting == "all" or mode.name == "SAFE" else None
            got = pol.promote(*ops, pol.resolve_options({"mode": setting})).result
            if got != want:
                problems.append(f"{names[0]} x {names[1]} ({setting}): want {want}, got {got}")
    assert problems == [], "\n".join(problems[:20])


def test_lattice_gives_every_pair_a_result_but_string():
    nodes = [n for n in POLICY.lattice.edges if n != "string"]
    for a, b in itertools.product(nodes, repeat=2):
        assert POLICY.lattice.lub(a, b) is not None, (a, b)
