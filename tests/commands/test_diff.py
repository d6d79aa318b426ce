"""``promote diff``: the cells where two policies disagree, checked against what the seeds and
the frameworks' documents say the differences are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from seeds import ascend_table, jax_table

from promote_cli import frameworks
from promote_cli.api import request
from promote_cli.compare import diff, shared_types
from promote_cli.frameworks import get

ROOT = Path(__file__).resolve().parents[2]


def _cells(result) -> set[tuple[str, str]]:
    data = json.loads(result.stdout)
    return {(d["row"]["canonical"], d["col"]["canonical"]) for d in data["differences"]}


def test_ascend_departs_from_pytorch_in_exactly_the_26_cells_the_seeds_name(run):
    # The seeds: Ascend "refuses u16/u32/u64 with anything but themselves (PyTorch promotes them
    # with floats) and gives bf16 x c32 = c32 (PyTorch gives complex64)".
    floats = ("float32", "float16", "float64", "bfloat16")
    expected = {("bfloat16", "complex32"), ("complex32", "bfloat16")}
    for u in ("uint16", "uint32", "uint64"):
        for f in floats:
            expected |= {(u, f), (f, u)}
    assert len(expected) == 26

    result = run("diff", "ascend", "torch", "--format", "json")
    assert result.exit_code == 1
    assert _cells(result) == expected
    data = json.loads(result.stdout)
    assert (data["cells_compared"], data["cells_differing"]) == (256, 26)
    # Ascend's side of each cell is the seed table's cell.
    _, seed = ascend_table()
    label = frameworks.notation("ascend").label
    for d in data["differences"]:
        cell = seed[label(d["row"]["canonical"]), label(d["col"]["canonical"])]
        assert (d["left"]["label"] or "×") == cell


def test_the_list_has_one_line_per_cell_and_a_summary(run):
    result = run("diff", "ascend", "torch")
    lines = result.stdout.splitlines()
    assert sum(" x " in line for line in lines) == 26
    assert "u16 x f32   ascend refused  torch f32" in lines
    assert "ascend vs torch: 26 of 256 cells differ (16 types)" in lines
    assert any(line.startswith("only torch has: float8_e4m3fn") for line in lines)


def test_jax_departs_from_numpy_where_the_jax_page_marks_cells_green(run):
    # The page marks (class="d") the cells where jnp.promote_types differs from
    # numpy.promote_types, and every bf cell (NumPy has no bfloat16): drop those.
    _, cells = jax_table()
    read = frameworks.notation("jax").spellings()
    expected = {
        (read[r], read[c]) for (r, c), (_, green) in cells.items() if green and "bf" not in (r, c)
    }
    result = run("diff", "jax", "numpy", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["cells_compared"] == 14 * 14
    assert _cells(result) == expected
    assert set(data["only_right"]) == {"longdouble", "clongdouble"}


def test_identical_policies_exit_0(run):
    result = run("diff", "ascend", "ascend")
    assert result.exit_code == 0
    assert (
        result.stdout
        == "ascend (left) vs ascend (right): identical, all 256 cells of 16 types agree\n"
    )


def test_an_option_on_one_side_only(run):
    # A plain -O goes to each side that has it, so both run without x64: identical.
    assert run("diff", "jax", "jax", "-O", "x64=false").exit_code == 0
    result = run("diff", "tensorflow", "tensorflow", "-O", "right:mode=safe", "-f", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["right"]["options"] == {"mode": "safe", "ml_dtypes": "0.7", "function": False}
    # Every difference is a cell safe mode refuses; the guide's two examples are among them.
    assert all(d["right"]["result"] is None and d["left"]["result"] for d in data["differences"])
    pairs = {frozenset((d["row"]["canonical"], d["col"]["canonical"])) for d in data["differences"]}
    assert {frozenset(("int32", "float32")), frozenset(("int8", "uint32"))} <= pairs
    # flexible_dtypes marks 51 cells of its half table ALL; each shows up both ways round.
    assert data["cells_differing"] == 102


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-O", "nosuch=1"], "neither jax nor numpy has that option"),
        (["-O", "middle:x64=true"], "the prefix must be left: or right:"),
        (["-O", "right:x64=true"], "policy numpy has no option 'x64'"),
        (["-t", "i1,nosuch"], "unknown dtype 'nosuch'"),
        (["-t", ","], "--types needs at least one type"),
    ],
)
def test_bad_input_exits_2_with_one_line(run, args, message):
    result = run("diff", "jax", "numpy", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_types_narrow_the_grid(run):
    # In JAX's notation: i1 = int8, i2 = int16, f2 = float16. NumPy widens int16 x float16.
    assert run("diff", "jax", "numpy", "-t", "i1,f2").exit_code == 0
    result = run("diff", "jax", "numpy", "-t", "i2,f2", "-f", "json")
    assert result.exit_code == 1
    assert _cells(result) == {("int16", "float16"), ("float16", "int16")}


def test_table_format_is_a_square_grid(run):
    result = run("diff", "ascend", "torch", "--format", "table")
    lines = result.stdout.splitlines()
    header = lines[0].split()
    assert header[:4] == ["f32", "f16", "f64", "bf16"] and len(header) == 16
    rows = [line.split() for line in lines[1:17]]
    assert all(len(r) == 17 for r in rows)
    u16 = next(r for r in rows if r[0] == "u16")
    assert u16[1:5] == ["×/f32", "×/f16", "×/f64", "×/bf16"]
    assert sum(cell != "." for r in rows for cell in r[1:]) == 26


def test_core_function_compares_the_shared_universe():
    ascend, torch = get("ascend"), get("torch")
    assert shared_types(ascend, torch) == ascend.universe
    d = diff(request(ascend), request(torch))
    assert len(d.cells) == 26 and d.compared == 256
    assert "uint4" in d.only_right and d.only_left == ()


def test_diff_as_a_real_process():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "diff", "ascend", "torch"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 1
    assert "ascend vs torch: 26 of 256 cells differ (16 types)" in done.stdout
