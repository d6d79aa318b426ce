"""``benchmarks/flip_rules.py`` works: a flipped rule cell is applied where the code reads it,
the offline check catches it, a flip that breaks the rules is counted apart, and the report
counts what it was given. (Its full run, every framework, is in docs/guide/measurements.md.)"""

from __future__ import annotations

import importlib.util
import multiprocessing
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def flip_rules():
    spec = importlib.util.spec_from_file_location("flip_rules", ROOT / "benchmarks/flip_rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["flip_rules"] = module  # the forked children find it by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules["flip_rules"]


@pytest.fixture(scope="module")
def pool():
    with multiprocessing.get_context("fork").Pool(1, maxtasksperchild=1) as p:
        yield p


def numpy_table_flip(flip_rules, what: str):
    """The flip of the numpy table whose description ends with ``what``."""
    found = [f for f in flip_rules.sites("numpy")["table cell"] if f.what.endswith(what)]
    assert len(found) == 1, [f.what for f in found]
    return found[0]


def test_a_flipped_table_cell_is_caught_by_the_measurements(flip_rules, pool):
    # Row i1 of NumPy's half table: b1 u1 u2 u4 u8 i1; its second cell is int8 x uint8.
    flip = numpy_table_flip(flip_rules, "_LOWER_HALF row i1, cell 2: i2 -> i4")
    assert "i1   i1   i4   i4" in flip.text()
    [outcome] = flip_rules.tried_in_children([flip], pool)
    assert outcome.status == flip_rules.CAUGHT
    assert outcome.detail == (
        "numpy uint8 x int8 under {'ml_dtypes': False, 'promotion': 'weak'}: measured int16,"
        " rules give int32"
    )


def test_a_flip_that_breaks_the_rules_is_malformed_not_tried(flip_rules, pool):
    good = numpy_table_flip(flip_rules, "_LOWER_HALF row i1, cell 2: i2 -> i4")
    text = Path(ROOT / good.file).read_text(encoding="utf-8")
    start = text.index("\nb1   b1\n") + 1
    short = good._replace(start=start, end=start + 7, new="b1   b1   b1", what="a row too long")
    [outcome] = flip_rules.tried_in_children([short], pool)
    assert outcome.status == flip_rules.MALFORMED
    assert "half table row 0 has 2 cells, not 1" in outcome.detail
    counted = flip_rules.tally([outcome])
    assert (counted.tried, counted.caught, counted.malformed) == (0, 0, 1)


def test_the_report_counts_each_framework_and_names_each_escape(flip_rules):
    flip = flip_rules.sites("mindspore")["table cell"][0]
    caught = flip_rules.Outcome(flip, flip_rules.CAUGHT, "a cell differs")
    escaped = flip_rules.Outcome(
        flip, flip_rules.ESCAPED, "bool x bool: int8 (the rules give bool)"
    )
    lines = flip_rules.report({"mindspore": flip_rules.tally([caught, escaped, caught])}, 1.0)
    assert lines[1].split() == ["mindspore", "3", "2", "1", "0,", "0"]
    assert lines[3] == f"ESCAPED {flip.file}: {flip.what}"


def test_a_short_run_flips_and_catches(flip_rules, capsys):
    assert flip_rules.main(["--flips", "3", "--framework", "mindspore", "--jobs", "1"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[1].split()[:4] == ["mindspore", "3", "3", "0"]


def test_an_uncaught_flip_is_probed_on_the_programs_too(flip_rules, pool):
    # What an escaped flip is compared on is every question of the enumeration, the random
    # programs (promote expr's) among them, each answered node by node.
    answers = pool.apply(flip_rules._task, ((None, "mindspore"),))
    programs = [a for a in answers if a.startswith("the program ")]
    # verify's seeded programs under MindSpore's one setting: 300, and 40 that call where
    assert len(programs) == 340
    head, _, nodes = programs[0].rpartition(": ")
    assert head.endswith("under {}") and nodes.startswith("[") and nodes.endswith("]")
