"""``promote table --mark lossy`` (a second highlight and its legend line in every format) and
``promote diff --lossy`` (which side loses what)."""

from __future__ import annotations

import csv
import io
import json

import pytest

TYPES = ["-p", "torch", "-t", "int32,bfloat16,float16,uint8"]
# torch: int32 x bfloat16 -> bfloat16 and int32 x float16 -> float16 lose int32 values;
# uint8 fits both floats, and bfloat16 x float16 -> float32 holds both.
LOSSY = {("int32", "bfloat16"), ("bfloat16", "int32"), ("int32", "float16"), ("float16", "int32")}


def grid(run, fmt):
    return run("table", *TYPES, "--mark", "lossy", "-f", fmt).output


def test_json_marks_exactly_the_lossy_cells_with_an_example(run):
    body = json.loads(grid(run, "json"))
    assert body["marks"] == ["lossy"]
    marked = {
        (r["canonical"], c["canonical"]): cell
        for r, row in zip(body["rows"], body["cells"], strict=True)
        for c, cell in zip(body["columns"], row, strict=True)
        if cell["lossy"]
    }
    assert set(marked) == LOSSY
    assert marked["int32", "bfloat16"]["losses"] == "int32 257 -> bfloat16 256"


def test_csv_marks_the_lossy_cells_with_a_dagger(run):
    rows = list(csv.reader(io.StringIO(grid(run, "csv"))))
    header = rows[0][1:]
    daggers = {
        (row[0], header[j]) for row in rows[1:] for j, cell in enumerate(row[1:]) if "†" in cell
    }
    assert daggers == LOSSY


@pytest.mark.parametrize("fmt", ["markdown", "rst", "term"])
def test_text_formats_mark_the_cells_and_explain_the_mark(run, fmt):
    text = grid(run, fmt)
    assert text.count("bfloat16†") == 2 and text.count("float16†") == 4  # bfloat16† too
    legend = [line for line in text.splitlines() if "cannot hold every value of an input" in line]
    assert len(legend) == 1


def test_html_outlines_the_lossy_cells_with_the_example_as_title(run):
    text = grid(run, "html")
    assert text.count('class="l"') == 4
    assert 'title="int32 257 -&gt; bfloat16 256"' in text
    assert "#types .l {" in text and '<p class="legend">' in text


def test_without_the_mark_nothing_changes(run):
    plain = run("table", *TYPES, "-f", "markdown").output
    assert "†" not in plain and "cannot hold" not in plain
    assert "lossy" not in json.loads(run("table", *TYPES, "-f", "json").output)["cells"][0][0]


def test_diff_lossy_says_which_side_loses_which_input(run):
    result = run("diff", "jax", "numpy", "-t", "int32,float16", "-n", "canonical", "--lossy")
    line = next(x for x in result.output.splitlines() if x.startswith("int32 x float16"))
    assert "jax float16 (loses int32: int32 2049 -> float16 2048)" in line
    assert line.rstrip().endswith("numpy float64")  # float64 holds every int32
    body = json.loads(
        run(
            "diff",
            "jax",
            "numpy",
            "-t",
            "int32,float16",
            "-n",
            "canonical",
            "--lossy",
            "-f",
            "json",
        ).output
    )
    first = body["differences"][0]
    assert first["left_loses"] == [{"input": "a", "example": "int32 2049 -> float16 2048"}]
    assert first["right_loses"] == []
