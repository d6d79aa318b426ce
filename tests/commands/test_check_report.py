"""``--check``'s report: the exit code and the summary follow from what it found, file by file."""

from __future__ import annotations

from pathlib import Path

import pytest

from promote_cli.cli._report import CheckReport

DOCS = Path("docs")
FIX = "promote tables docs"


def _report(same=(), stale=(), missing=(), unwanted=()) -> CheckReport:
    report = CheckReport(fix=FIX, directory=DOCS)
    for name in same:
        assert report.compare(DOCS / name, "text\n", "text\n") == ""
    for name in stale:
        assert report.compare(DOCS / name, "old\n", "new\n") != ""
    for name in missing:
        assert report.compare(DOCS / name, None, "new\n") != ""
    for name in unwanted:
        assert report.unwanted(DOCS / name) == f"{DOCS / name} is no longer generated"
    return report


def test_one_file_up_to_date_exits_0_and_is_named():
    report = CheckReport(fix="promote table -p jax -f html -o jax.html")
    assert report.compare(Path("jax.html"), "same\n", "same\n") == ""
    assert report.exit_code == 0
    assert report.summary() == "jax.html is up to date"


def test_a_directory_up_to_date_exits_0_and_counts_its_files():
    report = _report(same=["a.md", "b.md", "c.md"])
    assert report.exit_code == 0
    assert report.summary() == "the 3 files in docs are up to date"


@pytest.mark.parametrize(
    ("found", "summary"),
    [
        ({"stale": ["a.md"]}, "docs/a.md is stale; regenerate it with: promote tables docs"),
        ({"missing": ["a.md"]}, "docs/a.md is missing; regenerate it with: promote tables docs"),
        (
            {"unwanted": ["old.md"]},
            "docs/old.md is no longer generated; remove it with: promote tables docs",
        ),
    ],
    ids=["stale", "missing", "no-longer-generated"],
)
def test_one_file_out_of_date_exits_1_and_is_named_with_its_fix(found, summary):
    report = _report(same=["b.md", "c.md"], **found)
    assert report.exit_code == 1
    assert report.summary() == summary


def test_several_files_out_of_date_are_counted_with_correct_plurals():
    report = _report(same=["x.md"], stale=["a.md"], missing=["b.md", "c.md"])
    assert report.exit_code == 1
    assert report.summary() == (
        "3 of the files in docs are out of date: 1 file is stale (docs/a.md),"
        " 2 files are missing (docs/b.md, docs/c.md); regenerate them with: promote tables docs"
    )


def test_every_state_is_counted_once_in_the_summary():
    report = _report(stale=["a.md", "b.md"], missing=["c.md"], unwanted=["d.md", "e.md"])
    assert report.exit_code == 1
    assert report.summary() == (
        "5 of the files in docs are out of date: 2 files are stale (docs/a.md, docs/b.md),"
        " 1 file is missing (docs/c.md), 2 files are no longer generated (docs/d.md,"
        " docs/e.md); regenerate them with: promote tables docs"
    )


def test_many_files_are_counted_not_listed_and_named_in_one_style():
    # 247 names on one line helped nobody: the first few, as the diff's headers spell them
    # (files in a subdirectory too), then a count.
    report = _report(stale=["a.md", "ops/b.md", "c.md", "d.md", "e.md"])
    assert report.summary() == (
        "5 of the files in docs are out of date: 5 files are stale (docs/a.md, docs/ops/b.md,"
        " docs/c.md and 2 more); regenerate them with: promote tables docs"
    )


def test_the_diff_of_a_missing_file_says_missing_and_adds_every_line():
    report = CheckReport(fix=FIX)
    patch = report.compare(Path("t.md"), None, "one\ntwo\n")
    assert patch.splitlines() == [
        "--- t.md (missing)",
        "+++ t.md (generated)",
        "@@ -0,0 +1,2 @@",
        "+one",
        "+two",
    ]


def test_the_diff_marks_a_last_line_without_newline():
    report = CheckReport(fix=FIX)
    patch = report.compare(Path("t.md"), "one\n", "one\ntwo")
    assert patch.endswith("+two\n\\ No newline at end of file\n")
    assert report.exit_code == 1
