"""The figures of the documentation that promote computes: the docs
site writes them when it is built (docs/figures.py, through docs/generate.py) and the guide's
pages include them, so none is copied by hand; the README keeps only its list of frameworks,
checked in tests/documents/test_readme.py."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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


# The guide's per-framework tables, each written from the registry: a row per framework (an
# option's table: a row per option), in the registry's order, and nothing else.
GUIDE_TABLES = [
    "policies-sources",
    "policies-reproduces",
    "policies-options",
    "pair-nary",
    "verify-asked",
]


def _first_column(table: str) -> list[str]:
    rows = table.splitlines()[2:]
    return [row.split(" | ")[0].removeprefix("| ").strip("`") for row in rows]


@pytest.mark.parametrize("name", GUIDE_TABLES)
def test_each_guide_table_has_a_row_per_framework_of_the_registry(name):
    from promote_cli import frameworks

    rows = _first_column(FIGURES.FIGURES[name]())
    if name == "policies-options":
        # a row per option: numpy's ml_dtypes and promotion, keras's backend and floatx ...
        want = [n for n in frameworks.names() for _ in frameworks.get(n).options]
        assert rows.count("keras") == 2 and "mlx" not in rows
    else:
        want = list(frameworks.names())
    assert rows == want


def test_the_notations_table_has_a_row_per_notation_with_the_labels_it_prints():
    from promote_cli import frameworks

    table = FIGURES.notation_labels()
    assert _first_column(table) == list(frameworks.notations().names())
    [jax] = [row for row in table.splitlines() if row.startswith("| `jax` |")]
    # JAX counts bytes: i8 is int64, and s1..s8 (its prose's) are read too
    assert "`i8`" in jax and "`s8`" in jax and "int64" not in jax


def test_an_option_default_in_the_guide_is_the_entrys_in_the_policys_notation():
    # OpenVINO's target is a dtype, printed in OpenVINO's notation; torch's release a choice
    options = FIGURES.policy_options()
    assert "| `openvino` | `u64_integer_promotion_target` | `f32` | the result of `u64`" in options
    assert "| `torch` | `release` | `2.13` | the torch release answered" in options
    assert "| `torch` | the n-ary elementwise ops" in FIGURES.pair_nary()


def test_a_framework_registered_for_a_test_has_its_row_in_every_guide_table(monkeypatch):
    from registry import forget, register

    with monkeypatch.context() as m:
        register(m, "abacus")
        for name in [*GUIDE_TABLES, "notations"]:
            rows = _first_column(FIGURES.FIGURES[name]())
            if name == "notations":  # its notation is the canonical names: no row of its own
                assert "abacus" not in rows
            else:
                assert rows[-1] == "abacus", name
    forget()


def test_a_framework_without_its_guide_rows_is_named_not_left_blank(monkeypatch):
    import sys

    from registry import forget, register

    from promote_cli import frameworks
    from promote_cli.errors import PolicyDefinitionError

    with monkeypatch.context() as m:
        register(m, "abacus")
        m.setitem(sys.modules, "promote_cli.frameworks.abacus.guide", None)
        with pytest.raises(PolicyDefinitionError, match=r"frameworks\.abacus has no guide\.py"):
            FIGURES.pair_nary()
        said = frameworks.guide("numpy")
        moved = said._replace(options=said.options[::-1])
        m.setitem(sys.modules, "promote_cli.frameworks.abacus.guide", type(sys)("g"))
        sys.modules["promote_cli.frameworks.abacus.guide"].GUIDE = moved
        with pytest.raises(
            PolicyDefinitionError,
            match="describes the options promotion, ml_dtypes, but its entry declares"
            " ml_dtypes, promotion",
        ):
            FIGURES.policy_options()
    forget()
