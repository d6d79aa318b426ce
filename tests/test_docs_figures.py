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


def test_the_check_summary_is_what_promote_check_summary_prints(run):
    assert FIGURES.check_summary() == run("check", "--summary").stdout


def test_the_verify_table_counts_every_cell_verify_compares():
    from promote_cli import frameworks
    from promote_cli.verify import driver

    table = FIGURES.verify_cells()
    jax = frameworks.get("jax")
    # 4 option settings (x64 x strict) of 36 operands (32 types and 4 Python scalars), squared.
    assert len(driver.settings(jax, {})) == 4 and len(jax.operands()) == 36
    assert "| `jax` | `jax` | 4 | 36 | 5,184 |" in table
    assert "ascend" not in table  # nothing to install, nothing to verify


def test_the_last_run_is_a_kept_measurement_of_every_policy():
    from promote_cli import frameworks

    run = json.loads(FIGURES.VERIFIED.read_text(encoding="utf-8"))
    assert run["verify"]["command"] == "verify" and run["verify"]["require"] is True
    assert [p["policy"] for p in run["verify"]["policies"]] == list(frameworks.names())
    table = FIGURES.last_run()
    assert "0 mismatches" in table.splitlines()[-1]


@pytest.mark.parametrize("stale", ["are counted here when the torch", "41,872 cells, 0 mismatches"])
def test_the_guide_claims_no_stale_cell_counts(stale):
    for page in (DOCS / "guide").glob("*.md"):
        assert stale not in page.read_text(encoding="utf-8"), page.name
