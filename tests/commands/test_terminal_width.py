"""Every command at home in 80 columns: on an 80-column terminal no line of any
command's --help, nor of a representative run of each command, is wider than the terminal; piped,
the same output keeps each record whole on one line (for grep and cut). Run on a real
pseudo-terminal (tests/terminal.py), as a user at a terminal meets them.

Left out on purpose: what is a file format rather than a report (``table -f html|markdown|rst|
csv|json``, ``graph``'s DOT and Mermaid, ``--json``, the unified diff of a file's contents that
``--check`` prints): wrapping those would break what they are for."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from terminal import REPO, run_on_a_terminal

from promote_cli.cli import COMMANDS
from promote_cli.fit import cells

WIDTH = 80
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

HELP = [["--help"], *([name, "--help"] for name in COMMANDS)]
RUNS = [
    ["ops"],
    ["ops", "--policy", "keras", "-O", "backend=torch"],
    ["policies"],
    ["policies", "ascend", "numpy"],
    ["pair", "f16", "bf16", "--policy", "openvino"],
    ["pair", "f16", "bf16", "--policy", "openvino", "--explain"],
    ["pair", "i8", "u8", "f2", "--chain", "--explain"],
    ["op", "divide", "i32", "i32", "-p", "torch", "--explain"],
    ["op", "sum", "uint8", "-p", "keras", "-O", "backend=openvino", "--explain"],
    ["table", "--policy", "jax"],
    ["table", "-p", "torch", "--mark", "lossy"],
    ["table", "-p", "jax", "--op", "unary,reductions"],
    ["diff", "jax", "numpy", "-f", "table"],
    ["diff", "numpy", "torch", "--op", "divide", "-f", "table"],
    ["diff", "numpy", "torch", "--op", "divide"],
    ["diff", "jax", "torch", "--lossy"],
    ["diff", "numpy", "mlx", "--op", "reductions", "-f", "table"],
    ["check", "jax"],
    ["check", "torch", "--categories", "-e", "3"],
    ["expr", "x / 2 + w.sum()", "x=int8", "w=uint8", "-p", "numpy,torch,jax,mlx", "--explain"],
    # a column not answered: the note saying why is the longest line expr prints
    ["expr", "y = ~pow(x, w); y + 1", "x=uint32", "w=int32", "-p", "tinygrad,numpy"],
    ["verify", "numpy", "--no-ops"],  # its progress bar (on stderr) too
    ["verify", "ascend"],
    ["graph", "-p", "numpy"],  # not a lattice: one error line
    ["pair", "u8", "i8", "-p", "JAX"],  # an unknown name, with the list and a suggestion
]


def _shown(text: str) -> list[str]:
    """The lines a terminal shows; a progress bar redrawn with carriage returns is each of its
    states (every one must fit)."""
    return [part for line in ANSI.sub("", text).split("\n") for part in line.split("\r")]


def _too_wide(text: str, width: int = WIDTH) -> list[str]:
    return [line for line in _shown(text) if cells(line) > width]


@pytest.mark.parametrize("args", HELP, ids=" ".join)
def test_help_fits_80_columns(args):
    code, shown, _ = run_on_a_terminal(args, columns=WIDTH, stderr_too=True)
    assert code == 0
    assert _too_wide(shown) == []


@pytest.mark.parametrize("args", RUNS, ids=" ".join)
def test_a_run_fits_80_columns(args, tmp_path):
    code, shown, _ = run_on_a_terminal(args, columns=WIDTH, stderr_too=True, cwd=tmp_path)
    assert code in (0, 1, 2), shown
    assert shown.strip()
    assert _too_wide(shown) == []


@pytest.mark.parametrize("args", [["ops"], ["check", "jax"], ["pair", "--help"]], ids=" ".join)
def test_columns_80_wins_over_a_wider_terminal(args):
    code, shown, _ = run_on_a_terminal(args, columns=200, env={"COLUMNS": "80"}, stderr_too=True)
    assert code in (0, 1)
    assert _too_wide(shown) == []


def _npy_pair(directory: Path) -> None:
    np.save(directory / "a.npy", np.arange(1000, dtype=np.float16))
    np.save(directory / "b.npy", np.arange(10, dtype=np.float32))


@pytest.mark.parametrize("columns", [80, 100, 160])
def test_convert_fits_and_pads_nothing(tmp_path, columns):
    _npy_pair(tmp_path)
    for extra in ([], ["--dry-run"]):  # the second run previews over the outputs it wrote
        code, shown, _ = run_on_a_terminal(
            ["convert", "a.npy", "b.npy", *extra], columns=columns, stderr_too=True, cwd=tmp_path
        )
        assert code == 0, shown
        assert _too_wide(shown, columns) == []
        assert [line for line in _shown(shown) if line != line.rstrip()] == []
    assert "--force would replace a.promoted.npy, b.promoted.npy" in " ".join(_shown(shown))


def test_convert_prints_the_plain_table_where_only_it_fits(tmp_path):
    # Two tiny files whose boxed table is wider than 80 columns and whose plain one is not.
    np.save(tmp_path / "c.npy", np.zeros(3, np.float16))
    np.save(tmp_path / "d.npy", np.zeros(2, np.float32))
    code, shown, _ = run_on_a_terminal(
        ["convert", "c.npy", "d.npy", "-p", "numpy", "--dry-run"], columns=WIDTH, cwd=tmp_path
    )
    assert code == 0
    lines = _shown(shown)
    assert lines[1].split() == ["input", "dtype", "shape", "bytes", "action", "output", "bytes"]
    assert "┃" not in shown and _too_wide(shown) == []


@pytest.mark.slow
def test_tables_check_fits(run, tmp_path):
    assert run("tables", str(tmp_path / "t")).exit_code == 0  # the set to check, in-process
    for args in (["tables", "--check", "t"], ["tables", "--check"]):  # fresh; no ./tables
        os.chdir(tmp_path)
        code, shown, _ = run_on_a_terminal(args, columns=WIDTH, stderr_too=True, cwd=tmp_path)
        assert code in (0, 2)
        assert _too_wide(shown) == [], args


def _piped(*args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", *args], capture_output=True, text=True, env=env
    )
    return done.stdout


def test_piped_output_keeps_each_record_on_one_line():
    # One operation, every policy's function: one line, for grep.
    [divide] = [line for line in _piped("ops").splitlines() if line.startswith("divide ")]
    assert {"np.divide", "torch.true_divide", "tnp.divide", "ops.div"} <= set(divide.split())
    refusal = _piped("pair", "f16", "bf16", "--policy", "openvino")
    assert refusal.count("\n") == 1 and "(promote_unsafe=true would give f32)" in refusal
    grid = _piped("diff", "numpy", "torch", "--op", "divide", "-f", "table").splitlines()
    assert not grid[0].startswith("columns") and len(grid[0].split()) == 14


def test_verify_s_summary_and_listed_cells_fit(tmp_path):
    """A run that mismatches: its summary, its examples, its listed cells and the line saying
    how many were left out all fit, a long cell broken across lines."""
    (tmp_path / "tab.toml").write_text(
        'name = "tab"\ntypes = ["bool", "int8", "float16"]\n[table]\nbool = ["bool"]\n'
        'int8 = ["int8", "int8"]\nfloat16 = ["float16", "float16", "float16"]\n',
        encoding="utf-8",
    )
    # A framework that says complex128 whatever it is asked: nine cells wrong, one rule.
    (tmp_path / "wrongly.py").write_text(
        "def says(a, b):\n    return 'complex128'\n", encoding="utf-8"
    )
    args = ["verify", "./tab.toml", "--oracle", "wrongly:says", "--limit", "2"]
    code, shown, _ = run_on_a_terminal(args, columns=WIDTH, stderr_too=True, cwd=tmp_path)
    assert code == 1, shown
    assert _too_wide(shown) == []
    said = " ".join(" ".join(_shown(shown)).split())
    assert "tab mismatches by promote's rule (1 cause, up to 3 examples each):" in said
    assert "9 pairs: promote's rule table" in said
    assert "tab: 7 more mismatching cells not listed (--limit all lists every one;" in said
    assert said.endswith("1 of 1 policy has mismatches: 9 pair cells compared, 9 mismatches")
