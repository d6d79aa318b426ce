"""The table model and its renderings, checked against the seed documents by parsing the
output (never by comparing whole strings)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from model import table_for
from seeds import ascend_table, jax_table
from table_parsers import html_table, markdown_tables, rst_table

from promote_cli import api, frameworks, render, tablemodel
from promote_cli.engine import Policy
from promote_cli.errors import BadInputError
from promote_cli.operands import Operand

REPO = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _grid_mismatches(want: dict, got: dict) -> list[str]:
    """One "row x col: want X, got Y" line per cell that differs."""
    return [
        f"{r} x {c}: want {want[r, c]!r}, got {got.get((r, c))!r}"
        for r, c in want
        if got.get((r, c)) != want[r, c]
    ]


# --- html --------------------------------------------------------------------------------------


def test_jax_html_is_the_seed_table_cell_for_cell_and_green_for_green():
    seed_header, seed_cells = jax_table()
    out = render.render(table_for("jax"), "html")
    header, cells = html_table(out)
    assert header == seed_header
    assert len(cells) == 15 * 15
    assert not _grid_mismatches(seed_cells, cells)


def test_jax_html_defaults_to_the_numpy_diff_and_bfloat16_is_always_different():
    table = table_for("jax")
    assert table.diff_against == "numpy"
    bf = [h.canonical for h in table.columns].index("bfloat16")
    for row in table.rows:
        # NumPy has no bfloat16, so every cell that involves it is different (the seed's rule).
        assert row.cells[bf].differs, row.header.label
        assert row.cells[bf].other is None


def test_html_fragment_has_the_seed_look():
    out = render.render(table_for("jax"), "html")
    assert '<table id="types">' in out
    assert "<html" not in out  # a fragment to embed, like the seed
    style = out[out.index("<style>") : out.index("</style>")]
    # The seed stylesheet's facts: the highlight colour, the striping, the bold first column.
    assert re.search(r"#types \.d \{\s*background-color: #ccf2cc;", style)
    assert re.search(r"#types tr:nth-child\(even\) \{background-color: #f2f2f2;\}", style)
    assert re.search(r"#types td:first-child \{[^}]*font-weight: bold;", style)
    first_row = out[out.index("<tr>") : out.index("</tr>")]
    assert first_row.count("<th>") == 16 and "<td" not in first_row


def test_standalone_html_is_a_page_with_title_legend_options_and_version():
    out = render.render(replace(table_for("jax"), command="promote table"), "html", standalone=True)
    assert out.lstrip().startswith("<!DOCTYPE html>")
    assert "<title>JAX type promotion</title>" in out
    assert "x64=true, strict=false" in out
    assert "promote 0.1.0" in out
    legend = out[out.index('<table class="legend">') :]
    # The collision hint lives in the legend: JAX's i8 is int64, which OpenVINO spells i64.
    assert re.search(
        r"<code>i8</code></td><td><code>int64</code></td><td>OpenVINO, TensorFlow: int8<", legend
    )
    _, cells = html_table(out)
    assert len(cells) == 225


def test_refused_cells_are_a_cross_with_the_reason_as_title():
    out = render.render(table_for("ascend"), "html")
    _, cells = html_table(out)
    assert cells["u16", "f32"] == ("×", False)
    assert re.search(r'<td title="[^"]+">×</td>', out)


# --- markdown ----------------------------------------------------------------------------------


def test_ascend_markdown_is_the_seed_table_cell_for_cell():
    seed_header, seed_cells = ascend_table()
    (table,) = markdown_tables(render.render(table_for("ascend"), "markdown"))
    assert table.header[1:] == seed_header
    assert len(table.rows) == 16 and all(len(r) == 17 for r in table.rows)
    got = {k: text for k, (text, _) in table.cells().items()}
    assert not _grid_mismatches(seed_cells, got)
    # Like the seed: centred columns, bold row labels, and no other bold (no diff by default).
    assert table.align == ["center"] * 17
    assert all(row[0][1] for row in table.rows)
    assert not any(bold for _, bold in table.cells().values())


def test_jax_markdown_bolds_exactly_the_seed_green_cells_with_a_legend():
    _, seed_cells = jax_table()
    out = render.render(table_for("jax"), "markdown")
    (table,) = markdown_tables(out)
    assert not _grid_mismatches(seed_cells, table.cells())
    assert re.search(r"^\*\*Bold\*\* cells differ from NumPy", out, re.M)


# --- rst ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", frameworks.names())
def test_rst_renders_with_docutils_without_a_single_message(name):
    pol = frameworks.get(name)
    table = rst_table(render.render(table_for(name), "rst"))
    assert table.messages == ""
    n = len(pol.default_types)
    assert len(table.header) == n + 1 and len(table.rows) == n
    assert all(len(r) == n + 1 for r in table.rows)
    assert table.stub_columns == 1
    assert [r[0][0] for r in table.rows] == [
        frameworks.notation_of(pol).label(t) for t in pol.default_types
    ]


def test_jax_rst_bolds_exactly_the_seed_green_cells():
    seed_header, seed_cells = jax_table()
    table = rst_table(render.render(table_for("jax"), "rst"))
    assert table.header[1:] == seed_header
    assert not _grid_mismatches(seed_cells, table.cells())


# --- csv, json ---------------------------------------------------------------------------------


def test_ascend_csv_is_the_seed_table():
    seed_header, seed_cells = ascend_table()
    rows = list(csv.reader(io.StringIO(render.render(table_for("ascend"), "csv"))))
    assert rows[0] == ["", *seed_header]
    assert len(rows) == 17
    got = {(r[0], c): text for r in rows[1:] for c, text in zip(rows[0][1:], r[1:], strict=True)}
    assert not _grid_mismatches(seed_cells, got)


def test_json_carries_policy_options_names_labels_refusals_and_diffs():
    data = json.loads(render.render(table_for("jax"), "json"))
    assert data["policy"] == "jax" and data["notation"] == "jax"
    assert data["options"] == {"x64": True, "strict": False, "jit": False}
    assert data["diff_against"] == "numpy"
    cols = data["columns"]
    assert [c["label"] for c in cols] == jax_table()[0]
    assert cols[8] == {"label": "i8", "canonical": "int64", "category": "D"}
    _, seed_cells = jax_table()
    labels = [c["label"] for c in cols]
    for i, row in enumerate(data["cells"]):
        for j, cell in enumerate(row):
            want_text, want_green = seed_cells[labels[i], labels[j]]
            assert (cell["label"], cell["differs"]) == (want_text, want_green), (i, j)
    # bf x f2 = float32 (the seed: bfloat16 and float16 meet at f4).
    assert data["cells"][9][10]["result"] == "float32"

    ascend = json.loads(render.render(table_for("ascend"), "json"))
    refused = ascend["cells"][7][0]  # u16 x f32: the seed's ×
    assert refused["label"] is None and refused["result"] is None and refused["reason"]
    assert ascend["options"] == {} and ascend["diff_against"] is None


# --- the diff ----------------------------------------------------------------------------------


def test_two_refusals_agree_and_a_refusal_against_an_answer_differs():
    same = table_for("ascend", diff_against="ascend")
    assert same.any_refused and not same.any_differs
    vs_numpy = table_for("ascend", ["u16", "f32"], diff_against="numpy")
    # Ascend refuses u16 x f32; NumPy gives float32.
    assert vs_numpy.rows[0].cells[1].refused and vs_numpy.rows[0].cells[1].differs
    assert vs_numpy.rows[0].cells[1].other == "float32"


def test_types_choose_rows_and_columns_in_order_and_notation_relabels():
    table = table_for("jax", ["f4", "bf", "f2"], notation=None)
    assert [h.label for h in table.columns] == ["f4", "bf", "f2"]
    assert table.rows[1].cells[2].text == "f4"  # bf x f2, the seed
    canonical = table_for("jax", ["f2", "bf"], notation="canonical")
    assert [h.label for h in canonical.columns] == ["float16", "bfloat16"]
    assert canonical.rows[0].cells[1].text == "float32"


# --- term --------------------------------------------------------------------------------------


def test_term_plain_brackets_the_different_cells_and_has_no_escapes():
    _, seed_cells = jax_table()
    out = render.render(table_for("jax"), "term", color=False)
    assert not ANSI.search(out)
    lines = [ln for ln in out.splitlines() if ln.startswith("│")]
    header = lines[0].strip("│").split("│")[1:]
    labels = [h.strip() for h in header]
    assert labels == jax_table()[0]
    for line in lines[1:]:
        cells = [c.strip() for c in line.strip("│").split("│")]
        for col, text in zip(labels, cells[1:], strict=True):
            want, green = seed_cells[cells[0], col]
            assert text == (f"[{want}]" if green else want), (cells[0], col)


def test_term_colour_marks_cells_with_escapes_not_brackets():
    out = render.render(table_for("jax", ["b1", "bf"]), "term", color=True)
    assert ANSI.search(out)
    assert "[bf]" not in ANSI.sub("", out)


# --- escaping ----------------------------------------------------------------------------------

HOSTILE = {
    "int8": '<script>alert("x")</script>',
    "int16": "a|b*_`c`_*",
    "float32": "- [x](javascript:1) ..",
}


@pytest.fixture
def hostile_table() -> tablemodel.Table:
    jax = frameworks.notation("jax")
    labels = {**jax.labels, **HOSTILE}
    nota = jax._replace(name="hostile", description="labels that break formats", labels=labels)
    pol = frameworks.get("jax")
    types = [Operand(t) for t in ("int8", "int16", "float32")]
    req = api.request(pol, notation=nota, operands=types)
    return tablemodel.build(req, diff_against=req.beside(frameworks.get("numpy")))


def test_html_escapes_hostile_labels(hostile_table):
    out = render.render(hostile_table, "html", standalone=True)
    assert "<script>" not in out and "&lt;script&gt;" in out
    header, cells = html_table(out)
    assert header == list(HOSTILE.values())
    assert cells[HOSTILE["int8"], HOSTILE["int16"]][0] == HOSTILE["int16"]


def test_markdown_keeps_hostile_labels_inside_their_cells(hostile_table):
    (table,) = markdown_tables(render.render(hostile_table, "markdown"))
    assert table.header[1:] == list(HOSTILE.values())
    assert len(table.rows) == 3 and all(len(r) == 4 for r in table.rows)
    assert table.rows[0][0] == (HOSTILE["int8"], True)


def test_rst_keeps_hostile_labels_inside_their_cells(hostile_table):
    table = rst_table(render.render(hostile_table, "rst"))
    assert table.messages == ""
    assert table.header[1:] == list(HOSTILE.values())
    assert [r[0][0] for r in table.rows] == list(HOSTILE.values())


def test_csv_quotes_hostile_labels(hostile_table):
    rows = list(csv.reader(io.StringIO(render.render(hostile_table, "csv"))))
    assert rows[0][1:] == list(HOSTILE.values()) and len(rows) == 4


def test_a_users_template_is_autoescaped_in_html(tmp_path):
    mine = tmp_path / "mine.html.j2"
    mine.write_text(
        "<h1>{{ table.title }}</h1>{% for c in table.columns %}<i>{{ c.label }}</i>{% endfor %}.\n"
    )
    table = replace(table_for("jax", ["f2"]), title="<img src=x onerror=alert(1)>")
    out = render.render(table, "html", template=mine)
    assert out == "<h1>&lt;img src=x onerror=alert(1)&gt;</h1><i>f2</i>.\n"


def test_template_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.md.j2"
    bad.write_text("ok\n{% for x in %}\n")
    with pytest.raises(BadInputError, match=r"bad\.md\.j2 line 2"):
        render.render(table_for("jax", ["f2"]), "markdown", template=bad)
    typo = tmp_path / "typo.md.j2"
    typo.write_text("{{ tabel.rows }}\n")
    with pytest.raises(BadInputError, match="'tabel' is undefined"):
        render.render(table_for("jax", ["f2"]), "markdown", template=typo)


# --- determinism, templates, imports -----------------------------------------------------------


def test_templates_come_from_the_checkout_here():
    assert Path(str(render.template_dir())) == REPO / "templates"
    for name in render.TEMPLATES.values():
        assert (REPO / "templates" / name).is_file()


def test_templates_are_found_inside_an_installed_package(tmp_path):
    # The wheel force-includes templates/ as promote_cli/templates (pyproject.toml); lay a
    # package out the same way, away from the checkout, and render from it.
    shutil.copytree(REPO / "promote_cli", tmp_path / "promote_cli")
    shutil.copytree(REPO / "templates", tmp_path / "promote_cli" / "templates")
    (tmp_path / "promote_cli" / "templates" / "table.md.j2").write_text("installed copy\n")
    code = (
        "from promote_cli import api, render, tablemodel; print(render.template_dir());"
        "table = tablemodel.build(api.request('jax', operands=['f2']));"
        "print(render.render(table, 'markdown'), end='')"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    where, text = proc.stdout.split("\n", 1)
    assert Path(where) == tmp_path / "promote_cli" / "templates"
    assert text == "installed copy\n"


@pytest.mark.parametrize(
    ("fmt", "absent"),
    [("json", ("jinja2", "rich")), ("markdown", ("rich",)), ("term", ("jinja2",))],
)
def test_formats_import_only_what_they_need(fmt, absent):
    code = (
        "import sys; from promote_cli import api, render, tablemodel;"
        f"render.render(tablemodel.build(api.request('jax')), {fmt!r});"
        f"print([m for m in {absent!r} if m in sys.modules])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout.strip() == "[]"


def test_build_uses_the_policy_through_its_public_promote():
    # A policy whose every answer is float64 gives a table of f8, whatever the types.
    class Flat(Policy):
        name, title, source, notation_name = "flat", "Flat", "a test", "jax"
        universe = default_types = ("int8", "float16")

        def decide(self, a, b, opts):
            from promote_cli.engine import Outcome

            return Outcome("float64", "flat", "always float64")

    table = tablemodel.build(api.request(Flat()))
    assert [[c.text for c in r.cells] for r in table.rows] == [["f8", "f8"], ["f8", "f8"]]
    assert not table.any_differs and table.diff_against is None


def test_weak_scalar_labels_survive_markdown_and_rst():
    # JAX's weak types print as i*, f*: a * that Markdown and rst must not read as emphasis.
    table = table_for("jax", ["i*", "f*", "f2"])
    (md,) = markdown_tables(render.render(table, "markdown"))
    rst = rst_table(render.render(table, "rst"))
    assert md.header[1:] == rst.header[1:] == ["i*", "f*", "f2"]
    # f* x f2 = f2 (a weak float takes the array's type, in JAX and NumPy alike).
    assert md.cells()["f*", "f2"] == rst.cells()["f*", "f2"] == ("f2", False)
    # i* x f* = f*, where NumPy makes two Python scalars float64: different, so bold.
    assert md.cells()["i*", "f*"] == rst.cells()["i*", "f*"] == ("f*", True)
    assert rst.messages == ""
