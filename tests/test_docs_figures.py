"""The figures of the documentation that promote computes: the docs
site writes them when it is built (docs/figures.py, through docs/generate.py) and the guide's
pages include them, so none is copied by hand; the README keeps only its list of frameworks,
checked in tests/test_readme.py."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _figures():
    spec = importlib.util.spec_from_file_location("figures", DOCS / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIGURES = _figures()
INCLUDE = re.compile(r"^```\{include\} \.\./_generated/figures/([\w-]+)\.md$", re.M)


def _included() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for page in (DOCS / "guide").glob("*.md"):
        for name in INCLUDE.findall(page.read_text(encoding="utf-8")):
            found.setdefault(name, []).append(page.name)
    return found


def test_every_included_figure_is_one_the_build_writes():
    included = _included()
    assert set(included) <= set(FIGURES.FIGURES)
    # each figure but the README's own list is shown somewhere in the guide
    assert set(FIGURES.FIGURES) - set(FIGURES.README_BLOCKS) <= set(included)


def test_the_build_writes_every_figure(site):
    # The run's own docs build (``site``) wrote them, through docs/generate.py, which removes
    # whatever it did not write: asked of that build, not computed again (12 s of CPU).
    written = (DOCS / "_generated" / "figures").glob("*.md")
    assert sorted(p.stem for p in written) == sorted(FIGURES.FIGURES)
    assert (
        (DOCS / "_generated" / "figures" / "check-summary.md")
        .read_text(encoding="utf-8")
        .startswith("<!-- promote check --summary: start -->")
    )


def _summary_rows(text):
    """``promote check --summary``'s table: each row's name and its cells by column."""
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return {
        cells[0].strip("`"): dict(zip(head[1:], cells[1:], strict=True))
        for cells in ([c.strip() for c in line.strip("|").split("|")] for line in lines[2:])
    }


def test_the_check_summary_counts_what_the_seed_table_and_the_declarations_say(run):
    # The figure is ``promote check --summary`` (FIGURES.check_summary calls it); what it
    # says is held here to what promote does not compute: the Ascend seed document's table,
    # each policy's declared properties, and the number of cases of n operands.
    from seeds import ascend_table

    from promote_cli import frameworks

    rows = _summary_rows(run("check", "--summary").stdout)
    # a row per policy, and one with every operand category where it has more than arrays
    assert set(rows) == {
        f"{name}{suffix}"
        for name in frameworks.names()
        for suffix in ("", " --categories")
        if not suffix or {x.category for x in frameworks.get(name).operands()} != {"D"}
    }
    declares = {"symmetric": ("commutative",), "idempotent": ("idempotent",)}
    declares["lattice"] = ("associative", "lattice", "monotone")
    for name, row in rows.items():
        n = int(row["operands"])
        for column, cases in (("associative", n**3), ("total", n**2)):
            count = re.fullmatch(r"(?:\*\*)?(?:yes|no: ([\d,]+) of ([\d,]+))(?:\*\*)?", row[column])
            assert count is not None, (name, column, row[column])
            if count.group(2):
                assert int(count.group(2).replace(",", "")) == cases, (name, column)
        policy = frameworks.get(name.split()[0])
        bold = {column for column, cell in row.items() if cell.startswith("**")}
        assert bold == {c for p in policy.properties for c in declares.get(p, (p,))}, name
    # Ascend's 16 x 16 table, read from the seed document: its refusals (×) and the triples
    # whose two groupings differ, a refusal refusing whatever it meets
    labels, cells = ascend_table()

    def times(a, b):
        return None if a is None or b is None or cells[a, b] == "×" else cells[a, b]

    refused = sum(1 for cell in cells.values() if cell == "×")
    regrouped = sum(
        1
        for a in labels
        for b in labels
        for c in labels
        if times(times(a, b), c) != times(a, times(b, c))
    )
    assert rows["ascend"]["operands"] == str(len(labels)) == "16"
    assert rows["ascend"]["total"] == f"no: {refused} of 256"
    assert rows["ascend"]["associative"] == f"no: {regrouped} of 4,096"


def test_the_verify_table_counts_every_cell_verify_compares():
    from promote_cli import frameworks
    from promote_cli.verify import driver

    table = FIGURES.verify_cells()
    jax = frameworks.get("jax")
    # 8 option settings (x64 x strict x jit) of 68 operands (32 types as arrays and as 0-d
    # arrays, and 4 Python scalars), squared.
    assert len(driver.settings(jax, {})) == 8 and len(jax.operands()) == 68
    assert "| `jax` | `jax` | 8 | 68 | 36,992 |" in table
    assert "ascend" not in table  # nothing to install, nothing to verify


def test_the_last_run_is_a_kept_measurement_of_every_policy():
    from promote_cli import frameworks

    run = json.loads(FIGURES.VERIFIED.read_text(encoding="utf-8"))
    assert run["verify"]["command"] == "verify" and run["verify"]["require"] is True
    assert [p["policy"] for p in run["verify"]["policies"]] == list(frameworks.names())
    table = FIGURES.last_run()
    assert "0 mismatches" in table.splitlines()[-1]


def _verified_script():
    import sys

    sys.path.insert(0, str(DOCS))  # as the script itself puts it, to import figures
    spec = importlib.util.spec_from_file_location("verified", ROOT / "benchmarks/verified.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entry(policy: str, seconds: float, mismatches: tuple = ()) -> dict:
    return {
        "policy": policy,
        "status": "mismatch" if mismatches else "verified",
        "framework": policy,
        "version": "1.0",
        "option_settings": 1,
        "cells": 4,
        "mismatches": list(mismatches),
        "operations": {"cells": {"add": 10}, "gaps": {}, "seconds": 1.0},
        "import_seconds": 0.5,
        "seconds": seconds,
    }


def _run(wall: int, note: str, *entries: dict) -> dict:
    ok = all(e["status"] == "verified" for e in entries)
    return {"wall_seconds": wall, "note": note, "verify": {"ok": ok, "policies": list(entries)}}


def test_a_run_of_some_policies_replaces_their_rows_and_says_when():
    script = _verified_script()
    kept = _run(2723, "shared", _entry("jax", 55.0), _entry("keras", 96.0), _entry("mlx", 2.0))
    again = _run(612, "", _entry("keras", 400.0))
    now = script.updated(kept, again, ["keras"], "2026-11-28")
    assert [p["policy"] for p in now["verify"]["policies"]] == ["jax", "keras", "mlx"]
    assert [p["seconds"] for p in now["verify"]["policies"]] == [55.0, 400.0, 2.0]
    assert now["wall_seconds"] == 2723 and now["verify"]["ok"] is True
    lines = FIGURES.last_run(now).splitlines()
    assert lines[-2] == (
        "On 2026-11-28, `keras` verified again, in 612 s wall: their rows are that run's, the"
        " others the full run's."
    )
    assert lines[-1] == (
        "12 pair cells and 30 operation cells, 0 mismatches; the full run took 2,723 s wall"
        " (shared)."
    )


def test_a_run_again_of_a_policy_the_kept_run_lacks_is_refused():
    script = _verified_script()
    kept = _run(10, "", _entry("jax", 1.0))
    with pytest.raises(ValueError, match="no entry for mlx"):
        script.updated(kept, _run(5, "", _entry("jax", 1.0)), ["mlx"], "2026-11-28")


def test_a_mismatch_in_a_run_again_makes_the_kept_run_not_ok():
    script = _verified_script()
    kept = _run(10, "", _entry("jax", 1.0), _entry("mlx", 1.0))
    now = script.updated(kept, _run(5, "", _entry("mlx", 1.0, ("x",))), ["mlx"], "2026-11-28")
    assert now["verify"]["ok"] is False
    assert "1 mismatches" in FIGURES.last_run(now).splitlines()[-1]


@pytest.mark.parametrize("stale", ["are counted here when the torch", "41,872 cells, 0 mismatches"])
def test_the_guide_claims_no_stale_cell_counts(stale):
    for page in (DOCS / "guide").glob("*.md"):
        assert stale not in page.read_text(encoding="utf-8"), page.name
