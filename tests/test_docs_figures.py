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


def test_a_framework_added_since_the_kept_run_joins_it_at_the_end():
    # CONTRIBUTING.md's last step for a new framework: verified.py --write NAME
    script = _verified_script()
    kept = _run(10, "", _entry("jax", 1.0), _entry("mlx", 1.0))
    now = script.updated(kept, _run(5, "", _entry("onnx", 3.0)), ["onnx"], "2026-12-08")
    assert [p["policy"] for p in now["verify"]["policies"]] == ["jax", "mlx", "onnx"]
    assert now["verify"]["policies"][-1]["seconds"] == 3.0 and now["verify"]["ok"] is True


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
