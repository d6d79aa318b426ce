"""NEP 50's diff (``promote diff numpy numpy -O right:promotion=legacy``) against NumPy 1.26.4,
offline: ``measured/promotion-legacy/nep50.json`` holds every cell of the diff's default operand
set asked in NumPy 1.26.4's ``legacy``, ``weak`` and ``weak_and_warn`` states (``python -m
promote_cli.frameworks.numpy.nep50 --python ...``). The issue's acceptance: the diff of the two
promotion states equals the cells whose answer NumPy 1.26.4 changes between them, measured, not
derived from the warning."""

from __future__ import annotations

import json
import os

import pytest

from promote_cli.api import request
from promote_cli.compare import OPERANDS, TYPES, VALUES, diff, diff_operands
from promote_cli.frameworks.numpy import nep50
from promote_cli.operands import NUMPY_SCALAR, PYTHON, ZERO_D, Operand, valued

U64_MAX = 2**64 - 1
WARNING = (
    "UserWarning: result dtype changed due to the removal of value-based promotion from NumPy."
)


def requests():
    """The two sides: numpy at its default (weak) and under promotion=legacy."""
    return request("numpy"), request("numpy", options={"promotion": "legacy"})


@pytest.fixture(scope="module")
def measured() -> nep50.Measurement:
    return nep50.load()


@pytest.fixture(scope="module")
def weak_legacy_diff():
    weak, legacy = requests()
    return diff(weak, legacy)


def _answer(out) -> str:
    return "refused" if out.refused else out.result


def test_the_measurement_is_numpy_1_26_4_on_the_diffs_own_operands(measured):
    assert measured.version == "1.26.4"
    assert measured.operands == diff_operands(*requests(), VALUES)
    assert len(measured.cells) == len(measured.operands) ** 2 == 95**2


def test_the_diff_lists_exactly_the_cells_numpy_1_26_4_changes_between_its_states(
    measured, weak_legacy_diff
):
    listed = {(c.row, c.col) for c in weak_legacy_diff.cells}
    changed = {(c.row, c.col) for c in measured.changed()}
    assert listed == changed
    assert len(changed) == 1760


def test_each_side_answers_every_cell_as_numpy_1_26_4_does_in_that_state(measured):
    weak, legacy = requests()
    wrong = [
        (side, c.row, c.col)
        for c in measured.cells.values()
        for side, req, said in (("weak", weak, c.weak), ("legacy", legacy, c.legacy))
        if _answer(req.cell(c.row, c.col)) != nep50._answer(said)
    ]
    assert wrong == []


def test_what_the_issue_names(measured):
    cells = measured.cells
    u8, i64, u64 = Operand("uint8"), Operand("int64"), Operand("uint64")
    # uint8_array + 300: uint16 under NumPy 1.x, an OverflowError under NEP 50, warned.
    c = cells[u8, valued(300)]
    assert (c.legacy, c.weak.split(":")[:2]) == ("uint16", ["refused", " OverflowError"])
    assert c.warnings == (f"{WARNING} Changed from uint16 to uint8.",)
    # int64_array + 2**64-1: float64, then an OverflowError; NumPy does not warn.
    c = cells[i64, valued(U64_MAX)]
    assert c.legacy == "float64" and c.weak.startswith("refused: OverflowError")
    assert c.changes and not c.warns
    # uint64 with a huge Python int held in a 0-d array or NumPy scalar: uint64 in both states,
    # and warned ("Changed from float64 to uint64", a change np.result_type alone would see).
    for held in (Operand("uint64", ZERO_D), Operand("uint64", NUMPY_SCALAR)):
        c = cells[held, valued(2**63)]
        assert (c.legacy, c.weak) == ("uint64", "uint64")
        assert c.warnings == (f"{WARNING} Changed from float64 to uint64.",)
    # ... but not a dimensioned uint64 array: unchanged and silent.
    c = cells[u64, valued(2**63)]
    assert (c.legacy, c.weak, c.warns) == ("uint64", "uint64", False)
    # float32_array + np.float64(1): float32, then float64, warned.
    c = cells[Operand("float32"), Operand("float64", NUMPY_SCALAR)]
    assert (c.legacy, c.weak, c.warns) == ("float32", "float64", True)
    # int8_array + S(int64)=300: int16, then int64.
    c = cells[Operand("int8"), Operand("int64", ZERO_D, 300)]
    assert (c.legacy, c.weak) == ("int16", "int64")


def test_the_figures_the_docs_quote(measured):
    assert nep50.figures(measured) == {
        "cells": 9025,
        "operands": 95,
        "changed": 1760,
        "warned": 1560,
        "silent": 200,
        "warned_unchanged": 64,
    }


def test_a_long_double_numpy_scalar_with_an_int_int64_does_not_hold_raises_under_legacy(
    measured,
):
    # Measured: np.longdouble(1) + 2**63 raises TypeError in NumPy 1.26's legacy state.
    legacy = request("numpy", options={"promotion": "legacy"})
    for dtype in ("longdouble", "clongdouble"):
        scalar = Operand(dtype, NUMPY_SCALAR)
        for value in (2**63, U64_MAX):
            assert measured.cells[scalar, valued(value)].legacy.startswith("refused: TypeError")
            assert legacy.cell(scalar, valued(value)).refused
            assert legacy.policy.chain([valued(value), scalar], legacy.options).refused
        assert legacy.cell(Operand(dtype, ZERO_D), valued(2**63)).result == dtype


def test_the_default_cells_are_values_only_where_values_count():
    weak, legacy = requests()
    assert diff_operands(weak, legacy) == diff_operands(weak, legacy, VALUES)
    assert diff_operands(request("jax"), request("numpy")) == diff_operands(
        request("jax"), request("numpy"), TYPES
    )
    every = diff_operands(weak, legacy, OPERANDS)
    assert {op.category for op in every} == {"D", "S", "N", "P"}
    assert not any(op.value is not None for op in every)
    assert valued(300) in diff_operands(weak, legacy, VALUES)
    assert Operand("int64", ZERO_D, 300) in diff_operands(weak, legacy, VALUES)


def test_a_valued_cell_the_weak_side_refuses_shows_refused(run):
    out = run("diff", "numpy", "numpy", "-O", "right:promotion=legacy", "-t", "u1,int:300")
    assert out.exit_code == 1
    assert "uint8 x int:300  numpy (left) refused  numpy (right) uint16  NumPy 1.26.4 warns" in (
        out.stdout
    )


def test_diff_json_marks_each_cell_and_the_warned_cells_that_agree(run):
    out = run(
        "diff",
        "numpy",
        "numpy",
        "-O",
        "right:promotion=legacy",
        "-t",
        f"i8,u8,int:{U64_MAX},S(u8)",
        "--json",
    )
    doc = json.loads(out.stdout)
    by_cell = {(d["row"]["label"], d["col"]["label"]): d for d in doc["differences"]}
    silent = by_cell["int64", f"int:{U64_MAX}"]
    assert silent["left"]["refused"] and silent["right"]["result"] == "float64"
    assert silent["warned"] is False and "warning" not in silent
    assert "weak_and_warn" in doc["warned_by"]
    agreeing = {(d["row"]["label"], d["col"]["label"]) for d in doc["warned_agreeing"]}
    assert agreeing == {(f"int:{U64_MAX}", "S(uint64)"), ("S(uint64)", f"int:{U64_MAX}")}


def test_a_cell_outside_the_measurement_is_said_not_measured(run):
    out = run("diff", "numpy", "numpy", "-O", "right:promotion=legacy", "-t", "u1,int:1000")
    assert "not measured" in out.stdout
    assert (
        json.loads(
            run(
                "diff",
                "numpy",
                "numpy",
                "-O",
                "right:promotion=legacy",
                "-t",
                "u1,int:1000",
                "-f",
                "json",
            ).stdout
        )["differences"][0]["warned"]
        is None
    )


def test_every_format_of_the_default_diff(run):
    for fmt in ("list", "table", "json"):
        out = run("diff", "numpy", "numpy", "-O", "right:promotion=legacy", "-f", fmt)
        assert out.exit_code == 1
    doc = json.loads(out.stdout)
    assert doc["cells_compared"] == 9025 and doc["cells_differing"] == 1760
    assert sum(d["warned"] for d in doc["differences"]) == 1560
    assert len(doc["warned_agreeing"]) == 64


def test_other_diffs_carry_no_marks(run):
    doc = json.loads(run("diff", "jax", "numpy", "-t", "u1,i1", "--json").stdout)
    assert "warned_by" not in doc
    out = run("diff", "numpy", "numpy", "-O", "right:promotion=legacy", "--cells", "types")
    assert out.exit_code == 0  # the 256 type cells do not change: NEP 50 is about scalars
    assert "NumPy 1.26.4 warns on 0 of the 0 differing cells" in out.stdout


def test_cells_and_types_together_are_a_usage_error(run):
    out = run("diff", "numpy", "numpy", "--cells", "types", "-t", "u1")
    assert out.exit_code == 2


def test_the_python_scalars_of_the_set_are_verify_values():
    from promote_cli.verify.cases import VALUES as ASKED

    weak, legacy = requests()
    pythons = [op for op in diff_operands(weak, legacy) if op.category == PYTHON]
    assert [op.value for op in pythons if op.value is not None] == list(ASKED)


def test_the_migration_page_shows_the_measurement_as_it_is():
    # python -m promote_cli.frameworks.numpy.nep50 --write-docs rewrites it.
    text = nep50.DOCS.read_text(encoding="utf-8")
    assert nep50.rewritten(text) == text
    assert "**1,760** change" in text and "silent on **200**" in text


def test_the_check_docs_entry_point_says_when_the_page_is_fresh(capsys):
    assert nep50.main(["--check-docs"]) == 0
    assert nep50.main(["--measure"]) == 2


def test_the_page_groups_every_change_once(measured):
    page = nep50.page(measured)
    row = next(line for line in page.splitlines() if line.startswith("| **every change**"))
    assert row == "| **every change** | | **1,760** | **1,560** | **200** |"
    # every silent change holds a Python int int64 does not hold (2**63 and up, below -2**63)
    assert "every one of them has a Python int int64 does not hold" in page


@pytest.mark.skipif(
    not os.environ.get("PROMOTE_NUMPY1_PYTHON"),
    reason="set PROMOTE_NUMPY1_PYTHON to an interpreter with numpy 1.26 to measure live",
)
def test_measure_asks_numpy_1_26_through_the_probe(tmp_path):
    python = os.environ["PROMOTE_NUMPY1_PYTHON"]
    ops = (Operand("uint8"), valued(300), Operand("int64", ZERO_D, 300))
    out = tmp_path / "nep50.json"
    assert nep50.measure(python, ops, out) == "wrote nep50.json: NumPy 1.26.4, 9 cells"
    found = nep50.load(out)
    c = found.cells[Operand("uint8"), valued(300)]
    assert c.legacy == "uint16"
    assert c.weak == "refused: OverflowError: Python integer 300 out of bounds for uint8"
    assert c.warnings == (f"{WARNING} Changed from uint16 to uint8.",)
    c = found.cells[Operand("uint8"), Operand("int64", ZERO_D, 300)]
    assert (c.legacy, c.weak) == ("uint16", "int64")
    assert nep50.measure(python, ops, out).startswith("nep50.json: unchanged")


@pytest.mark.skipif(
    not os.environ.get("PROMOTE_NUMPY1_PYTHON"),
    reason="set PROMOTE_NUMPY1_PYTHON to an interpreter with numpy 1.26 to measure live",
)
def test_promote_measure_under_legacy_measures_the_checked_in_cells_again():
    # What `promote measure numpy -O promotion=legacy --python PATH` runs after the legacy set:
    # the checked-in file is what NumPy 1.26.4 answers now (it keeps its date), and no other
    # setting names a states module.
    from promote_cli.cli.measure import _states

    python = os.environ["PROMOTE_NUMPY1_PYTHON"]
    assert _states("numpy", {"promotion": "legacy"}, python) == [
        "nep50.json: unchanged (NumPy 1.26.4, 9,025 cells)"
    ]
    assert _states("numpy", {"promotion": "weak"}, python) == []
