"""The checked-in ``tables/`` is what ``promote tables`` writes today, byte for byte, and that
output does not depend on the run (hash seed, working directory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from table_parsers import html_table, markdown_tables, rst_table

from promote_cli import __version__, policies
from promote_cli.docset import INDEX, documentation_set

REPO = Path(__file__).resolve().parents[1]
TABLES = REPO / "tables"
FIX = "run `promote tables` (or `python -m promote_cli tables`) and commit tables/"


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return documentation_set()


def test_tables_holds_exactly_the_generated_files(generated):
    on_disk = sorted(p.name for p in TABLES.iterdir() if p.is_file())
    assert on_disk == sorted(generated), FIX


def test_every_checked_in_file_is_fresh(generated):
    stale = [
        name
        for name in sorted(p.name for p in TABLES.iterdir() if p.is_file())
        if (TABLES / name).read_bytes() != generated.get(name, "").encode("utf-8")
    ]
    assert not stale, f"stale: {', '.join(stale)}; {FIX}"


def test_every_policy_has_its_three_files_and_they_parse(generated):
    for name in policies.names():
        n = len(policies.get(name).default_types)
        _, cells = html_table(generated[f"{name}.html"])
        assert len(cells) == n * n, name
        (md,) = markdown_tables(generated[f"{name}.md"])
        assert len(md.rows) == n, name
        rst = rst_table(generated[f"{name}.rst"])
        assert rst.messages == "" and len(rst.rows) == n, name


def test_index_links_every_file_and_states_version_and_options(generated):
    (table,) = markdown_tables(generated[INDEX])
    assert [row[0][0] for row in table.rows] == list(policies.names())
    assert f"promote {__version__}" in generated[INDEX]
    jax_row = next(r for r in table.rows if r[0][0] == "jax")
    assert "x64=true, strict=false" in [text for text, _ in jax_row]
    links = {line.split("](")[1].split(")")[0] for line in generated[INDEX].split("[")[1:]}
    assert links == set(generated) - {INDEX}


def test_the_checked_in_tables_pass_promote_tables_check():
    proc = subprocess.run(
        [sys.executable, "-m", "promote_cli", "tables", str(TABLES), "--check"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    assert proc.stdout == ""


def test_output_is_byte_identical_across_runs(tmp_path):
    # Two processes with different hash seeds and working directories write the same bytes.
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"run{seed}"
        work = tmp_path / f"cwd{seed}"
        work.mkdir()
        subprocess.run(
            [sys.executable, "-m", "promote_cli", "tables", str(out)],
            env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": seed},
            cwd=work,
            check=True,
            capture_output=True,
            timeout=120,
        )
        outs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert outs[0] == outs[1]
    assert all(b"\r" not in data for data in outs[0].values())


def test_table_formats_outside_tables_are_byte_identical_across_runs(tmp_path):
    # tables/ holds html, md, rst, dot and Mermaid; csv and json are checked here.
    outs = []
    for seed in ("1", "2"):
        run = {}
        for fmt in ("csv", "json"):
            done = subprocess.run(
                [sys.executable, "-m", "promote_cli", "table", "-p", "tensorflow", "-f", fmt],
                env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": seed},
                check=True,
                capture_output=True,
                timeout=60,
            )
            run[fmt] = done.stdout
        outs.append(run)
    assert outs[0] == outs[1]
    assert all(outs[0].values())
