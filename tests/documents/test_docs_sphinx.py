"""The Sphinx extension as a documentation author meets it: a small project in RST and in MyST
using the directives, built by ``python -m sphinx -W`` (warnings are errors), and every cell of
the built page compared with what ``promote table --format json`` says."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from table_parsers import html_tables

pytest.importorskip("sphinx", reason="the docs extra is not installed (pip install -e '.[docs]')")

CONF = 'extensions = ["promote_cli.sphinx"]\n'
MYST_CONF = 'extensions = ["myst_parser", "promote_cli.sphinx"]\n'


class Build(NamedTuple):
    returncode: int
    stderr: str


def sphinx(src: Path, builder: str = "html", *extra: str, process: bool = False) -> Build:
    """``sphinx-build -W --keep-going -q``, in this process (fast) or, with ``process``, as the
    command a reader types."""
    argv = [
        "-N",  # no colour, whatever the environment (FORCE_COLOR) says: lines start with the path
        "-W",
        "--keep-going",
        "-q",
        "-b",
        builder,
        *extra,
        str(src),
        str(src / "_build" / builder),
    ]
    if process:
        done = subprocess.run(
            [sys.executable, "-m", "sphinx", *argv], capture_output=True, text=True, timeout=300
        )
        return Build(done.returncode, done.stderr)
    from sphinx.cmd.build import build_main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = build_main(argv)
    return Build(code, err.getvalue())


def project(tmp_path: Path, body: str, *, conf: str = CONF, name: str = "index.rst") -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(conf, encoding="utf-8")
    (src / name).write_text(body, encoding="utf-8")
    return src


def built(src: Path, builder: str = "html", *extra: str, process: bool = False) -> str:
    done = sphinx(src, builder, *extra, process=process)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr  # -q leaves only warnings, and there must be none
    # latex names its one file after the project
    pattern = {"html": "index.html", "text": "index.txt", "latex": "*.tex"}[builder]
    found = list((src / "_build" / builder).glob(pattern))
    assert found, sorted(p.name for p in (src / "_build" / builder).iterdir())
    return found[0].read_text(encoding="utf-8")


def expected(run, *args: str) -> dict:
    result = run("table", *args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def assert_same_cells(table, want: dict) -> None:
    """Every cell of a built table against ``promote table --format json``: the label (``×``
    for a refusal) and whether it is marked as differing."""
    cols = [c["label"] for c in want["columns"]]
    assert [text for text, _ in table.rows[0][1:]] == cols
    assert len(table.rows) == len(want["rows"]) + 1
    wrong = []
    for row, cells in zip(want["rows"], want["cells"], strict=True):
        for col, cell in zip(cols, cells, strict=True):
            text = cell["label"] if not cell["refused"] else "×"
            got = table.cells().get((row["label"], col))
            if got != (text, cell["differs"]):
                wrong.append(
                    f"{row['label']} x {col}: want {text} differs={cell['differs']}, {got}"
                )
    assert not wrong


def promotion_tables(page: str) -> list:
    return [t for t in html_tables(page) if "promotion-table" in t.classes]


def test_rst_promotion_table_equals_promote_table_json_cell_for_cell(tmp_path, run):
    src = project(tmp_path, "Types\n=====\n\n.. promotion-table:: jax\n")
    page = built(src, process=True)
    [table] = promotion_tables(page)
    assert_same_cells(table, expected(run, "--policy", "jax"))
    # the legend names what the highlight means, and the stylesheet paints it
    assert "highlighted: NumPy gives another type or none" in page
    css = (src / "_build" / "html" / "_static" / "promotion.css").read_text(encoding="utf-8")
    assert "#ccf2cc" in css and "promotion.css" in page


def test_myst_promotion_table_equals_promote_table_json_cell_for_cell(tmp_path, run):
    pytest.importorskip("myst_parser", reason="the docs extra is not installed")
    body = "# Types\n\n```{promotion-table} jax\n```\n"
    src = project(tmp_path, body, conf=MYST_CONF, name="index.md")
    [table] = promotion_tables(built(src))
    assert_same_cells(table, expected(run, "--policy", "jax"))


def test_every_option_means_what_the_table_flag_means(tmp_path, run):
    body = """Types
=====

.. promotion-table:: openvino
   :types: float16, bfloat16, float32, uint64, int8
   :options: promote_unsafe=true,
             u64_integer_promotion_target=float64
   :notation: canonical
   :diff-against: torch
"""
    [table] = promotion_tables(built(project(tmp_path, body)))
    want = expected(
        run,
        *("--policy", "openvino", "--notation", "canonical"),
        *("--types", "float16,bfloat16,float32,uint64,int8"),
        *("-O", "promote_unsafe=true", "-O", "u64_integer_promotion_target=float64"),
        *("--diff-against", "torch"),
    )
    assert_same_cells(table, want)
    assert any(d for row in want["cells"] for d in (c["differs"] for c in row))


def test_refused_cells_are_crosses_with_their_own_class(tmp_path, run):
    body = "T\n=\n\n.. promotion-table:: ascend\n   :types: u16, f32, bf16\n"
    [table] = promotion_tables(built(project(tmp_path, body)))
    assert_same_cells(table, expected(run, "-p", "ascend", "-t", "u16,f32,bf16"))
    u16 = next(r for r in table.rows if r[0][0] == "u16")
    assert u16[2] == ("×", ("refused",))  # u16 x f32: Ascend refuses


def test_raw_html_style_embeds_the_jax_page_fragment_with_unique_ids(tmp_path, run):
    body = """T
=

.. promotion-table:: jax
   :style: raw-html

.. promotion-table:: jax
   :types: f2, bf
   :style: raw-html
"""
    page = built(project(tmp_path, body))
    first, second = [t for t in html_tables(page) if t.attrs.get("id", "").startswith("types")]
    assert (first.attrs["id"], second.attrs["id"]) == ("types", "types-2")
    assert "#types-2 .d {" in page and "background-color: #ccf2cc" in page
    assert_same_cells(first, expected(run, "-p", "jax"))
    assert_same_cells(second, expected(run, "-p", "jax", "-t", "f2,bf"))


def test_text_and_latex_builders_mark_differing_cells_in_brackets(tmp_path):
    body = "T\n=\n\n.. promotion-table:: jax\n   :types: f2, bf\n\n.. promotion-diff:: jax numpy\n"
    src = project(tmp_path, body)
    text = built(src, "text")
    # f2 x bf is f4 in JAX and nothing in NumPy (no bfloat16): marked; f2 x f2 agrees.
    f2 = next(line.split("|")[1:-1] for line in text.splitlines() if line.startswith("| f2 "))
    assert [cell.strip() for cell in f2] == ["f2", "f2", "[f4]"]
    assert "[bracketed]: NumPy gives another type or none" in text
    assert "highlighted" not in text
    tex = built(src, "latex")
    assert "{[}f4{]}" in tex and "{[}bracketed{]}" in tex  # LaTeX escapes the brackets


def test_promotion_diff_lists_the_cells_promote_diff_reports(tmp_path, run):
    body = "T\n=\n\n.. promotion-diff:: ascend torch\n"
    page = built(project(tmp_path, body))
    [table] = [t for t in html_tables(page) if "promotion-diff-table" in t.classes]
    result = run("diff", "ascend", "torch", "--format", "json")
    want = json.loads(result.stdout)
    head = [("operands", ("head", "stub")), ("ascend", ("head",)), ("torch", ("head",))]
    assert table.rows[0] == head
    got = [tuple(text for text, _ in row) for row in table.rows[1:]]
    assert len(got) == want["cells_differing"] > 0
    for row, d in zip(got, want["differences"], strict=True):
        left = d["left"]["label"] or "refused"
        right = d["right"]["label"] or "refused"
        assert (row[0].startswith(d["row"]["label"]), row[1:]) == (True, (left, right)), row
    assert f"ascend vs torch: {want['cells_differing']} of {want['cells_compared']}" in page


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_promotion_lattice_is_drawn_by_graphviz(tmp_path):
    body = "T\n=\n\n.. promotion-lattice:: array-api\n"
    src = project(tmp_path, body, conf=CONF + 'graphviz_output_format = "svg"\n')
    page = built(src)
    assert 'class="graphviz promotion-lattice"' in page
    [svg] = (src / "_build" / "html" / "_images").glob("graphviz-*.svg")
    assert "float64" in svg.read_text(encoding="utf-8")


def test_parallel_build_is_allowed(tmp_path):
    src = project(tmp_path, "T\n=\n\n.. toctree::\n\n   a\n   b\n")
    for name, policy in (("a", "jax"), ("b", "numpy")):
        (src / f"{name}.rst").write_text(f"{name}\n=\n\n.. promotion-table:: {policy}\n")
    built(src, "html", "-j", "2")  # an extension that is not parallel-safe warns, and -W fails


def test_directive_errors_name_the_file_and_line_without_a_traceback(tmp_path):
    body = """Errors
======

.. promotion-table:: jaxx

.. promotion-table:: jax
   :options: x64=maybe

.. promotion-table:: jax
   :style: fancy

.. promotion-lattice:: numpy

.. promotion-diff:: jax
"""
    src = project(tmp_path, body)
    done = sphinx(src)
    assert done.returncode != 0
    err = done.stderr
    assert "Traceback" not in err
    index = str(src / "index.rst")
    want = {
        4: "unknown policy 'jaxx'",
        6: "option x64 takes true or false, not 'maybe'",
        9: "fancy",
        12: "numpy is not a lattice policy",
        14: "2 argument(s) required, 1 supplied",
    }
    messages = {}  # line -> the message (docutils' own ones span several lines)
    for block in err.split(f"{index}:")[1:]:
        line, _, message = block.partition(": ERROR: ")
        messages[int(line)] = message
    assert sorted(messages) == sorted(want), err
    for line, text in want.items():
        assert text in messages[line], f"line {line}: {messages[line]}"


# --- :op: an operation's output dtypes --------------------------------------------------------

OPS_PAGE = """Operations
==========

.. promotion-table:: torch
   :op: divide
   :types: int32, uint8, float16

.. promotion-table:: numpy
   :op: sqrt
   :types: int8, uint8, float32

.. promotion-diff:: numpy torch
   :op: divide
   :types: int32, float16
"""


@pytest.fixture(scope="module")
def ops_page(tmp_path_factory) -> str:
    return built(project(tmp_path_factory.mktemp("ops"), OPS_PAGE))


def test_op_table_of_a_binary_operation_is_its_matrix_of_outputs(ops_page, run):
    divide, _ = promotion_tables(ops_page)
    assert_same_cells(
        divide, expected(run, "-p", "torch", "--op", "divide", "-t", "int32,uint8,float16")
    )
    cells = divide.cells()
    # torch.divide is true division: int32 / int32 is float32, where int32 + int32 is int32
    assert cells[("int32", "int32")] == ("float32", False)
    assert cells[("uint8", "float16")] == ("float16", False)


def test_op_table_of_a_unary_operation_is_one_row_over_the_types(ops_page, run):
    _, sqrt = promotion_tables(ops_page)
    assert_same_cells(
        sqrt, expected(run, "-p", "numpy", "--op", "sqrt", "-t", "int8,uint8,float32")
    )
    head, *body = sqrt.rows
    assert len(body) == 1  # one row, whatever it is called
    by_column = dict(zip([text for text, _ in head[1:]], body[0][1:], strict=True))
    # np.sqrt picks the smallest float that holds the integer: float16 for 8 bits
    assert by_column["int8"] == ("float16", ())
    assert by_column["uint8"] == ("float16", ())
    assert by_column["float32"] == ("float32", ())


def test_op_diff_lists_the_cells_where_the_operations_disagree(ops_page, run):
    [table] = [t for t in html_tables(ops_page) if "promotion-diff-table" in t.classes]
    got = {row[0][0]: (row[1][0], row[2][0]) for row in table.rows[1:]}
    # np.divide of two int32 is float64, torch.divide's float32; float16 / float16 agree
    assert got["int32 x int32"] == ("float64", "float32")
    assert "float16 x float16" not in got
    want = json.loads(
        run("diff", "numpy", "torch", "--op", "divide", "-t", "int32,float16", "-f", "json").stdout
    )
    assert len(got) == want["cells_differing"] == 3


def test_myst_op_table_is_the_same_row(tmp_path, run):
    pytest.importorskip("myst_parser", reason="the docs extra is not installed")
    body = "# Ops\n\n```{promotion-table} numpy\n:op: sqrt\n:types: int8, float32\n```\n"
    src = project(tmp_path, body, conf=MYST_CONF, name="index.md")
    [table] = promotion_tables(built(src))
    assert_same_cells(table, expected(run, "-p", "numpy", "--op", "sqrt", "-t", "int8,float32"))
    assert [text for text, _ in table.rows[1][1:]] == ["float16", "float32"]


def test_op_errors_name_the_line_like_the_other_options(tmp_path):
    body = """Errors
======

.. promotion-table:: numpy
   :op: sqrtt

.. promotion-table:: openvino
   :op: add

.. promotion-diff:: numpy torch
   :op: divid

.. promotion-table:: numpy
   :op:
"""
    done = sphinx(project(tmp_path, body))
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    messages = _errors(done.stderr, tmp_path / "src" / "index.rst")
    want = {
        4: "unknown operation 'sqrtt'; did you mean 'sqrt'?",
        7: "OpenVINO has no per-operation rules",
        10: "unknown operation 'divid'; did you mean 'divide'?",
        13: 'invalid option value: (option: "op"',
    }
    assert sorted(messages) == sorted(want), done.stderr
    for line, text in want.items():
        assert text in messages[line], f"line {line}: {messages[line]}"


def test_op_diff_of_a_one_operand_operation_says_what_promote_diff_says(tmp_path, run):
    """Whatever ``promote diff --op sqrt`` answers (a refusal with exit 2, or the differing
    cells), the directive answers the same."""
    src = project(tmp_path, "T\n=\n\n.. promotion-diff:: numpy torch\n   :op: sqrt\n")
    done = sphinx(src)
    cli = run("diff", "numpy", "torch", "--op", "sqrt", "-f", "json")
    if cli.exit_code == 2:
        refusal = cli.stderr.strip().removeprefix("promote: error: ")
        assert done.returncode != 0
        assert _errors(done.stderr, src / "index.rst") == {4: f"promotion-diff: {refusal}"}
    else:
        assert done.returncode == 0, done.stderr
        want = json.loads(cli.stdout)
        assert want["cells_differing"] > 0  # np.sqrt(int8) is float16, torch's float32
        page = (src / "_build" / "html" / "index.html").read_text(encoding="utf-8")
        [table] = [t for t in html_tables(page) if "promotion-diff-table" in t.classes]
        assert len(table.rows) - 1 == want["cells_differing"]


def _errors(stderr: str, source: Path) -> dict[int, str]:
    """line -> the error message Sphinx printed for it (docutils' own ones span lines)."""
    messages = {}
    for block in stderr.split(f"{source}:")[1:]:
        line, _, message = block.partition(": ERROR: ")
        messages[int(line)] = message.strip().removesuffix(" [docutils]")
    return messages


def test_promotion_expr_shows_promote_exprs_table_node_by_node(tmp_path, run):
    body = (
        "T\n=\n\n.. promotion-expr:: x / 2 + w.sum()\n   :bind: x=int8 w=uint8\n"
        "   :policies: numpy,torch\n"
    )
    page = built(project(tmp_path, body))
    [table] = [t for t in html_tables(page) if "promotion-expr" in t.classes]
    got = [tuple(text for text, _ in row) for row in table.rows]
    # NumPy: int8 / 2 is float64, a uint8 sum uint64; PyTorch: float32 and int64
    assert got == [
        ("code", "numpy", "torch"),
        ("x / 2", "float64", "float32"),
        ("w.sum()", "uint64", "int64"),
        ("x / 2 + w.sum()", "float64", "float32"),
    ]
    marked = [any("d" in classes for _, classes in row) for row in table.rows]
    assert marked == [False, True, False, False]  # the node where they part
    assert "the policies part at x / 2: numpy float64, torch float32" in page
    result = run("expr", "x / 2 + w.sum()", "x=int8", "w=uint8", "-p", "numpy,torch", "--json")
    parts = json.loads(result.stdout)["parts_at"]
    assert json.loads(result.stdout)["nodes"][0]["index"] == parts


def test_promotion_expr_takes_statements_as_content_and_shows_a_refusal(tmp_path):
    body = "T\n=\n\n.. promotion-expr::\n   :bind: x=int8\n\n   x += 1.5\n   x * 2\n"
    page = built(project(tmp_path, body))
    [table] = [t for t in html_tables(page) if "promotion-expr" in t.classes]
    got = [tuple(text for text, _ in row) for row in table.rows]
    # numpy's same_kind casting and torch's canCast both refuse a float into an int8 array
    assert got == [
        ("code", "numpy", "torch"),
        ("x += 1.5", "raises", "raises"),
        ("x * 2", "·", "·"),
    ]
    assert "numpy raises at x += 1.5" in page


def test_promotion_expr_errors_name_the_line(tmp_path):
    body = "T\n=\n\n.. promotion-expr:: x +\n   :bind: x=int8\n\n.. promotion-expr:: y\n"
    done = sphinx(project(tmp_path, body))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "index.rst:4" in done.stderr and "index.rst:7" in done.stderr
    assert "y is not bound" in done.stderr
