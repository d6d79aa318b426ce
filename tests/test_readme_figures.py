"""The README's figures that promote computes are what it computes now (issue 11, item 9):
benchmarks/readme_figures.py prints each block, and this test fails when README.md's differs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _figures():
    spec = importlib.util.spec_from_file_location(
        "readme_figures", ROOT / "benchmarks" / "readme_figures.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIGURES = _figures()


@pytest.mark.parametrize("name", sorted(FIGURES.BLOCKS))
def test_readme_block_is_what_the_generator_prints(name):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = FIGURES.block_pattern(name).search(readme)
    assert found, f"README.md has no figures:{name} block"
    assert found.group(2) == FIGURES.BLOCKS[name](), (
        f"README.md's {name} block is stale; run: python benchmarks/readme_figures.py --write"
    )


def test_the_verify_table_counts_every_cell_verify_compares():
    from promote_cli import frameworks
    from promote_cli.verify import driver

    table = FIGURES.verify_cells()
    jax = frameworks.get("jax")
    # 4 option settings (x64 x strict) of 36 operands (32 types and 4 Python scalars), squared.
    assert len(driver.settings(jax, {})) == 4 and len(jax.operands()) == 36
    assert "| `jax` | `jax` | 4 | 36 | 5,184 |" in table
    assert "ascend" not in table  # nothing to install, nothing to verify


def test_the_readme_claims_no_stale_cell_counts():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "are counted here when the torch" not in readme
    assert "41,872 cells, 0 mismatches" not in readme
