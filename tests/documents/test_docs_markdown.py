"""The Markdown extension as an MkDocs user meets it: a small MkDocs project whose page holds
``::: promote table --policy jax``, built by ``mkdocs build --strict``, and every cell of the
built page compared with ``promote table --format json``; plain Python-Markdown for the rest."""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from table_parsers import html_tables
from test_docs_sphinx import assert_same_cells, expected

markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")


def convert(text: str) -> str:
    return markdown.markdown(text, extensions=["promote_cli.markdown"])


def mkdocs(tmp_path: Path, page: str) -> subprocess.CompletedProcess:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Types\nmarkdown_extensions:\n  - promote_cli.markdown\n", encoding="utf-8"
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_mkdocs_page_table_equals_promote_table_json_cell_for_cell(tmp_path, run):
    done = mkdocs(tmp_path, "# Types\n\n::: promote table --policy jax\n\nAfter the table.\n")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    [table] = [t for t in html_tables(page) if t.attrs.get("id") == "types"]
    assert_same_cells(table, expected(run, "--policy", "jax"))
    assert "<p>After the table.</p>" in page
    # The legend the Sphinx directive prints: what rows and columns are, the highlight, and
    # the key to labels another notation reads otherwise (JAX counts bytes: i8 is int64).
    legend = page[page.index('<div class="promotion-legend">') :]
    assert "rows are the first operand, columns the second" in legend
    assert "highlighted: NumPy gives another type or none" in legend
    assert "i8 = int64" in legend and "u1 = uint8" in legend


def test_the_legend_is_the_sphinx_directives_line_for_line():
    from promote_cli.asking import table as model
    from promote_cli.render import legend_lines

    page = convert("::: promote table -p torch --op sum,sqrt\n")
    table = model("torch", None, None, None, (), fmt="html", op="sum,sqrt")
    for line in legend_lines(table, diff_marker="highlighted"):
        assert f"<p>{html.escape(line)}</p>" in page


def test_a_diff_of_an_operation_names_it_in_its_summary():
    page = convert("::: promote diff numpy torch --op divide -t int32,float16\n")
    assert "<p>numpy vs torch, divide: 3 of 4 cells differ (2 types)</p>" in page


def test_a_diff_block_takes_the_cells_promote_diff_compares():
    # NumPy 1.26.4's legacy promotion changes no cell of two arrays (NEP 50 is about scalars),
    # and 1,760 of the 9,025 cells with scalars and values (measured: nep50.json)
    legacy = "::: promote diff numpy numpy -O right:promotion=legacy"
    page = convert(f"{legacy} --cells types\n")
    assert "all 256 cells of 16 types agree" in page
    page = convert(f"{legacy}\n")
    assert "1760 of 9025 cells differ" in page


def test_mkdocs_stops_with_one_line_naming_the_block(tmp_path):
    done = mkdocs(tmp_path, "# Types\n\n::: promote table --policy jaxx\n")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "Error reading page 'index.md'" in done.stderr
    assert "`::: promote table --policy jaxx`: unknown policy 'jaxx'" in done.stderr


def test_the_block_is_what_promote_table_prints_with_its_flags(run):
    args = ["-p", "openvino", "-t", "f16,bf16,f32", "-O", "promote_unsafe=true"]
    page = convert("::: promote table " + " ".join(args) + " --diff-against torch\n")
    printed = run("table", *args, "--diff-against", "torch", "--format", "html").stdout
    assert page.startswith(f'<div class="promotion">{printed}<div class="promotion-legend">')


def test_each_table_on_a_page_gets_its_own_id_and_the_page_one_stylesheet(run):
    page = convert("::: promote table -p jax -t f2,bf\n\ntext\n\n::: promote table -p jax\n")
    first, second = html_tables(page)
    assert (first.attrs["id"], second.attrs["id"]) == ("types", "types-2")
    # one <style> for both, each rule for both ids
    assert page.count("<style>") == 1 and "  #types .d, #types-2 .d {" in page
    assert_same_cells(second, expected(run, "-p", "jax"))
    # a new page starts counting again
    assert 'id="types"' in convert("::: promote table -p jax -t f2\n")


def test_diff_block_lists_the_cells_promote_diff_reports(run):
    page = convert("::: promote diff jax numpy -t 'i*,f2,i8'\n")
    [table] = html_tables(page)
    assert "promotion-diff-table" in table.classes
    want = json.loads(run("diff", "jax", "numpy", "-t", "i*,f2,i8", "-f", "json").stdout)
    got = [tuple(text for text, _ in row) for row in table.rows[1:]]
    # each answer is the label, spelled out where another notation reads it differently
    assert [(row[1].split(" (")[0], row[2].split(" (")[0]) for row in got] == [
        (d["left"]["label"] or "refused", d["right"]["label"] or "refused")
        for d in want["differences"]
    ]
    assert got[0][0] == "i* x i*"  # a weak type's star is text, not emphasis


def test_graph_block_is_inline_svg_or_mermaid(run):
    mermaid = convert("::: promote graph -p array-api --format mermaid\n")
    assert mermaid.startswith('<div class="promotion-lattice"><pre class="mermaid">---')
    assert "flowchart LR" in mermaid
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    svg = convert("::: promote graph -p array-api\n")
    assert svg.startswith('<div class="promotion-lattice"><svg')
    assert ">float64<" in svg


def test_table_block_with_op_is_what_promote_table_op_prints(run):
    args = ["-p", "numpy", "--op", "sqrt", "-t", "int8,float32"]
    page = convert("::: promote table " + " ".join(args) + "\n")
    printed = run("table", *args, "--format", "html").stdout
    assert page.startswith(f'<div class="promotion">{printed}')
    # what a cell is, as the Sphinx directive's legend says it
    assert "each cell is what np.sqrt returns for an array of the column&#x27;s type" in page
    [table] = html_tables(page)
    head, *body = table.rows
    assert len(body) == 1  # a unary operation: one row
    by_column = dict(zip([text for text, _ in head[1:]], body[0][1:], strict=True))
    assert by_column["int8"][0] == "float16"  # np.sqrt(int8) is float16
    assert by_column["float32"][0] == "float32"


def test_op_blocks_give_the_matrix_and_the_differing_cells_of_a_binary_operation():
    matrix = convert("::: promote table -p torch --op divide -t int32,float16\n")
    [table] = html_tables(matrix)
    assert table.cells()[("int32", "int32")][0] == "float32"  # torch.divide is true division
    page = convert("::: promote diff numpy torch --op divide -t int32,float16\n")
    [table] = html_tables(page)
    got = {row[0][0]: (row[1][0], row[2][0]) for row in table.rows[1:]}
    assert got["int32 x int32"] == ("float64", "float32")
    assert "float16 x float16" not in got


@pytest.mark.parametrize(
    "block, message",
    [
        ("::: promote table --format csv", "a page shows the html table; drop --format"),
        ("::: promote table -o t.html", "-o has no meaning in a page"),
        ("::: promote table --bogus", "No such option"),
        ("::: promote tabel", "no block `promote tabel`"),
        ("::: promote graph -p numpy", "numpy is not a lattice policy"),
        ("::: promote diff jax", "Missing argument 'POLICY2'"),
        ("::: promote table -t 'f2", "No closing quotation"),
        ("::: promote table -p numpy --op sqrtt", "unknown operation 'sqrtt'; did you mean"),
        ("::: promote table -p openvino --op add", "OpenVINO has no per-operation rules"),
        ("::: promote diff numpy torch --op divid", "unknown operation 'divid'"),
        ("::: promote expr 'x +' x=int8", "line 1"),
        ("::: promote expr y x=int8", "y is not bound"),
        ("::: promote expr x x=int8 --explain", "drop --explain"),
    ],
)
def test_bad_blocks_raise_one_clear_error(block, message):
    with pytest.raises(ValueError) as info:
        convert(f"# T\n\n{block}\n")
    text = str(info.value)
    assert text.startswith(f"`{block}`: ") and message in text and "\n" not in text


def test_other_triple_colon_lines_are_left_alone():
    assert convert("::: mkdocstrings.target\n") == "<p>::: mkdocstrings.target</p>"


@pytest.mark.parametrize("verb", ["table", "graph", "diff", "expr"])
def test_a_block_reads_the_flags_of_the_command_of_its_name(verb):
    from importlib import import_module

    from promote_cli.markdown import _grammar

    command = import_module(f"promote_cli.cli.{verb}").command
    flags = {o for p in command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")}
    grammar = {o for action in _grammar(verb)._actions for o in action.option_strings}
    assert grammar == flags | {"-h", "--help"}  # a block reads --help to refuse it


def test_operator_blocks_give_augmented_assignment_and_where_frameworks_part():
    # a = np.ones(2, np.uint8); a += np.ones(2, np.int8): refused (same_kind); torch: uint8
    matrix = convert("::: promote table -p numpy --op += -t uint8,int8\n")
    assert "the dtype of x1 after x1 += x2 (np.ndarray.__iadd__)" in matrix
    [table] = html_tables(matrix)
    assert table.cells()[("int8", "uint8")][0] == "int8"
    assert table.cells()[("uint8", "int8")][0] == "×"
    page = convert("::: promote diff numpy torch --op += -t uint8,int8\n")
    [table] = html_tables(page)
    got = {row[0][0]: (row[1][0], row[2][0]) for row in table.rows[1:]}
    assert got["uint8 x int8"] == ("refused", "uint8")


def test_expr_block_is_promote_exprs_table_node_by_node(run):
    page = convert("::: promote expr 'x / 2 + w.sum()' x=int8 w=uint8 -p numpy,torch\n")
    [table] = html_tables(page)
    assert "promotion-expr" in table.classes
    got = [tuple(text for text, _ in row) for row in table.rows]
    # NumPy: int8 / 2 is float64, a uint8 sum uint64; PyTorch: float32 and int64
    assert got == [
        ("code", "numpy", "torch"),
        ("x / 2", "float64", "float32"),
        ("w.sum()", "uint64", "int64"),
        ("x / 2 + w.sum()", "float64", "float32"),
    ]
    marked = [[("d" in classes) for _, classes in row[1:]] for row in table.rows[1:]]
    assert marked == [[True, True], [False, False], [False, False]]
    said = run("expr", "x / 2 + w.sum()", "x=int8", "w=uint8", "-p", "numpy,torch").stdout
    note = "&gt; the policies part at x / 2: numpy float64, torch float32"
    assert note in page and html.unescape(note) in said


def test_expr_block_takes_options_per_policy():
    page = convert("::: promote expr 'x + 1.5' x=int8 -p numpy,torch -O numpy:promotion=legacy\n")
    [table] = html_tables(page)
    head = [text for text, _ in table.rows[0]]
    assert head == ["code", "numpy promotion=legacy", "torch"]
