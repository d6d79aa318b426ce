"""``promote table`` and ``promote tables`` through the CLI: formats, options, -o, --check, exit
codes; once as a real subprocess and once on a real terminal (a pty)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from seeds import ascend_table, jax_table
from table_parsers import html_table, markdown_tables, rst_table
from terminal import on_a_terminal

from promote_cli.render import FORMATS

REPO = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_jax_html_defaults_to_the_seed_table_with_numpy_green(run):
    result = run("table", "--policy", "jax", "--format", "html")
    assert result.exit_code == 0
    seed_header, seed_cells = jax_table()
    header, cells = html_table(result.stdout)
    assert header == seed_header
    wrong = [
        f"{k}: want {seed_cells[k]}, got {cells.get(k)}"
        for k in seed_cells
        if cells.get(k) != seed_cells[k]
    ]
    assert not wrong
    assert "promote table --policy jax --format html" in result.stdout  # the generator comment


def test_diff_against_none_and_another_policy(run):
    plain = run("table", "-p", "jax", "-f", "html", "--diff-against", "none")
    assert 'class="d"' not in plain.stdout
    _, cells = html_table(plain.stdout)
    assert cells["bf", "f2"] == ("f4", False)
    # JAX against itself: nothing differs.
    same = run("table", "-p", "jax", "-f", "html", "--diff-against", "jax")
    assert 'class="d"' not in same.stdout
    unknown = run("table", "-p", "jax", "-f", "html", "--diff-against", "nump")
    assert unknown.exit_code == 2
    assert "unknown policy 'nump'" in unknown.stderr and "did you mean 'numpy'" in unknown.stderr


def test_diff_against_default_is_not_a_marker_but_an_unknown_policy(run):
    # Leaving --diff-against out is how to get the policy's default comparison (numpy for jax).
    result = run("table", "-p", "jax", "-f", "html", "--diff-against", "default")
    assert result.exit_code == 2
    assert "unknown policy 'default'" in result.stderr


def test_ascend_markdown_matches_the_seed(run):
    result = run("table", "--policy", "ascend", "--format", "markdown")
    assert result.exit_code == 0
    (table,) = markdown_tables(result.stdout)
    seed_header, seed_cells = ascend_table()
    assert table.header[1:] == seed_header
    assert {k: t for k, (t, _) in table.cells().items()} == seed_cells


def test_types_notation_and_options(run):
    result = run("table", "-p", "jax", "-f", "json", "--types", "f2, bf,f4", "-n", "canonical")
    data = json.loads(result.stdout)
    assert [c["label"] for c in data["columns"]] == ["float16", "bfloat16", "float32"]
    assert data["cells"][0][1]["result"] == "float32"  # f2 x bf, the seed's f4
    opts = json.loads(run("table", "-p", "jax", "-f", "json", "-O", "x64=false").stdout)
    assert opts["options"] == {"x64": False, "strict": False, "jit": False}
    dup = run("table", "-p", "jax", "--types", "f2,float16")
    assert dup.exit_code == 2 and "twice" in dup.stderr
    bad = run("table", "-p", "jax", "-O", "x65=true")
    assert bad.exit_code == 2 and "no option 'x65'" in bad.stderr
    unknown = run("table", "-p", "jax", "--types", "f2,q9")
    assert unknown.exit_code == 2 and "q9" in unknown.stderr
    assert unknown.stderr.count("\n") == 1  # one line, no traceback


def test_rst_and_csv_through_the_cli(run):
    table = rst_table(run("table", "-p", "ascend", "-f", "rst").stdout)
    assert table.messages == "" and len(table.rows) == 16
    lines = run("table", "-p", "ascend", "-f", "csv").stdout.splitlines()
    assert lines[0].split(",")[1:] == ascend_table()[0] and len(lines) == 17


def test_output_file_and_format_from_its_suffix(run, tmp_path):
    target = tmp_path / "docs" / "ascend.md"
    target.parent.mkdir()  # it must exist (tests/commands/test_newcomer_mistakes.py)
    result = run("table", "-p", "ascend", "-o", str(target))
    assert result.exit_code == 0 and result.stdout == ""
    (table,) = markdown_tables(target.read_text(encoding="utf-8"))
    assert len(table.rows) == 16
    assert (
        target.read_text(encoding="utf-8") == run("table", "-p", "ascend", "-f", "markdown").stdout
    )
    assert [p.name for p in target.parent.iterdir()] == ["ascend.md"]  # no temp file left


def test_check_fresh_stale_and_missing(run, tmp_path):
    page = tmp_path / "jax.html"
    assert run("table", "-p", "jax", "-f", "html", "-o", str(page)).exit_code == 0
    fresh = run("table", "-p", "jax", "-f", "html", "--check", str(page))
    assert fresh.exit_code == 0 and fresh.stdout == ""
    assert "up to date" in fresh.stderr

    good = page.read_text(encoding="utf-8")
    stale_text = good.replace('<td class="d">f4</td>', "<td>f4</td>", 1)
    page.write_text(stale_text, encoding="utf-8")
    stale = run("table", "-p", "jax", "-f", "html", "--check", str(page))
    assert stale.exit_code == 1
    assert page.read_text(encoding="utf-8") == stale_text  # --check writes nothing
    assert stale.stdout.startswith(f"--- {page} (on disk)\n+++ {page} (generated)\n")
    removed = [ln for ln in stale.stdout.splitlines() if ln.startswith("-<")]
    added = [ln for ln in stale.stdout.splitlines() if ln.startswith("+<")]
    assert len(removed) == len(added) == 1 and '<td class="d">f4</td>' in added[0]
    assert "regenerate it with: promote table --policy jax --format html -o" in stale.stderr

    missing = run("table", "-p", "jax", "--check", str(tmp_path / "nope.md"))
    assert missing.exit_code == 1 and "(missing)" in missing.stdout
    assert not (tmp_path / "nope.md").exists()

    both = run("table", "-p", "jax", "-o", str(page), "--check", str(page))
    assert both.exit_code == 2


def test_check_a_markdown_file_with_options_and_types(run, tmp_path):
    args = [
        "table",
        "-p",
        "openvino",
        "-f",
        "markdown",
        "-O",
        "promote_unsafe=true",
        "--types",
        "u8,i8,f16",
    ]
    target = tmp_path / "ov.md"
    run(*args, "-o", str(target))
    assert run(*args, "--check", str(target)).exit_code == 0
    # The same table with other options is not this file.
    assert run(*args[:-4], "--types", "u8,i8,f16", "--check", str(target)).exit_code == 1


def test_template_option(run, tmp_path):
    mine = tmp_path / "mine.md.j2"
    mine.write_text(
        "{{ table.policy }} {{ table.rows | length }}x{{ table.columns | length }}"
        " {{ table.rows[0].cells[1].text }}.\n"
    )
    result = run("table", "-p", "jax", "--types", "f2,bf", "--template", str(mine))
    assert result.exit_code == 0 and result.stdout == "jax 2x2 f4.\n"
    broken = tmp_path / "broken.html.j2"
    broken.write_text("{{ table.nope }}\n")
    bad = run("table", "-p", "jax", "--template", str(broken))
    assert bad.exit_code == 2 and "broken.html.j2" in bad.stderr
    json_template = run("table", "-p", "jax", "-f", "json", "--template", str(mine))
    assert json_template.exit_code == 2 and "--template applies to" in json_template.stderr
    vague = tmp_path / "vague.j2"
    vague.write_text("x\n")
    unknown = run("table", "-p", "jax", "--template", str(vague))
    assert unknown.exit_code == 2 and "pass --format" in unknown.stderr
    assert run("table", "-p", "jax", "-f", "rst", "--template", str(vague)).stdout == "x\n"
    absent = run("table", "-p", "jax", "--template", str(tmp_path / "absent.j2"))
    assert absent.exit_code == 2


def test_standalone_only_for_html(run):
    page = run("table", "-p", "ascend", "-f", "html", "--standalone")
    assert page.exit_code == 0 and page.stdout.startswith("<!DOCTYPE html>")
    assert run("table", "-p", "ascend", "-f", "rst", "--standalone").exit_code == 2


def test_term_is_the_default_and_plain_when_not_a_terminal(run):
    result = run("table", "-p", "jax", "--types", "b1,bf")
    assert result.exit_code == 0
    assert not ANSI.search(result.stdout)
    assert "[bf]" in result.stdout and "┌" in result.stdout


def test_term_colours_on_a_real_terminal_unless_no_color():
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(REPO)
    args = ["table", "-p", "jax", "--types", "b1,bf"]
    coloured = on_a_terminal(args, env=env)
    assert ANSI.search(coloured) and "[bf]" not in coloured
    plain = on_a_terminal(args, env={**env, "NO_COLOR": "1"})
    assert not ANSI.search(plain) and "[bf]" in plain


def test_table_as_a_real_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "promote_cli", "table", "--policy", "jax", "--format", "html"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert html_table(proc.stdout) == jax_table()


def test_help_lists_both_commands(run):
    out = run("--help").stdout
    assert re.search(r"^\s+table\s", out, re.M) and re.search(r"^\s+tables\s", out, re.M)


def test_option_help_names_every_policy_and_notation(run):
    """The --policy and --notation help is written by hand (start-up stays light): it must keep
    up with the registry and the notation grid."""
    from promote_cli import frameworks

    out = " ".join(run("table", "--help").stdout.split())
    policy_help = out.partition("Whose rules:")[2].partition("--policy-file")[0]
    notation_help = out.partition("in this notation")[2].partition("-O, --option")[0]
    assert [n for n in frameworks.names() if n not in policy_help] == []
    assert [n for n in frameworks.notations().names() if n not in notation_help] == []


# --- promote tables ----------------------------------------------------------------------------


def test_tables_writes_checks_and_reports_stale_files(run, tmp_path):
    out = tmp_path / "tables"
    first = run("tables", str(out))
    assert first.exit_code == 0
    names = sorted(p.name for p in out.iterdir())
    assert "README.md" in names and {"jax.html", "jax.md", "jax.rst"} <= set(names)
    assert run("tables", str(out), "--check").exit_code == 0

    (out / "ascend.rst").write_text("edited by hand\n", encoding="utf-8")
    (out / "jax.md").unlink()
    stale = run("tables", str(out), "--check")
    assert stale.exit_code == 1
    assert "+++ " + str(out / "ascend.rst") + " (generated)" in stale.stdout
    assert "-edited by hand" in stale.stdout
    assert str(out / "jax.md") + " (missing)" in stale.stdout
    assert "2 of the files" in stale.stderr
    assert (out / "ascend.rst").read_text(encoding="utf-8") == "edited by hand\n"

    assert run("tables", str(out)).exit_code == 0
    assert run("tables", str(out), "--check").exit_code == 0


def test_tables_refuses_a_file_as_directory(run, tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    result = run("tables", str(f))
    assert result.exit_code == 2


def test_types_with_no_type_is_a_usage_error(run):
    result = run("table", "-p", "jax", "--types", " , ")
    assert result.exit_code == 2
    assert "--types needs at least one type" in result.stderr


def test_default_tables_mark_weak_types_as_python_scalars(run):
    doc = json.loads(run("table", "-p", "tensorflow", "-f", "json").stdout)
    text = json.dumps(doc)
    assert '"category": "D", "label": "i32*"' not in text.replace("\n", "")
    categories = {c["canonical"]: c["category"] for c in doc["columns"]}
    assert categories["int32*"] == "P" and categories["int32"] == "D"


def test_tables_check_of_a_missing_directory_is_one_error_line(run, tmp_path):
    result = run("tables", "--check", str(tmp_path / "nosuchdir"))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "nosuchdir: no such directory to check" in result.stderr


@pytest.mark.parametrize("flag", ["-o", "--check"])
@pytest.mark.parametrize("name", ["jax.xlsx", "jax"])
def test_an_unknown_suffix_without_format_is_an_error_naming_the_formats(run, tmp_path, flag, name):
    target = tmp_path / name
    result = run("table", "-p", "jax", flag, str(target))
    assert result.exit_code == 2
    assert f"cannot tell the format of {name}" in result.stderr
    assert f"--format ({', '.join(FORMATS)})" in result.stderr
    assert "html, markdown, rst, csv, " in result.stderr
    assert not target.exists()


def test_an_unknown_suffix_with_format_writes_that_format(run, tmp_path):
    target = tmp_path / "jax.xlsx"
    assert run("table", "-p", "jax", "-f", "csv", "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith(",b1,u1,")


def _term_grid(text: str) -> dict[tuple[str, str], str]:
    """Every cell of a box-drawn terminal table, printed whole or in column blocks:
    (row label, column label) -> the cell's text."""
    grid: dict[tuple[str, str], str] = {}
    columns: list[str] = []
    header_next = False
    for line in text.splitlines():
        if line.startswith("┌"):
            header_next = True
            continue
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        if header_next:
            columns, header_next = cells[1:], False
            continue
        for col, cell in zip(columns, cells[1:], strict=True):
            assert (cells[0], col) not in grid, f"{cells[0]} x {col} printed twice"
            grid[cells[0], col] = cell
    return grid


def _expected_grid(run, policy: str) -> dict[tuple[str, str], str]:
    doc = json.loads(run("table", "-p", policy, "-f", "json").stdout)
    return {
        (r["label"], c["label"]): (
            "×" if cell["refused"] else f"[{cell['label']}]" if cell["differs"] else cell["label"]
        )
        for r, row in zip(doc["rows"], doc["cells"], strict=True)
        for c, cell in zip(doc["columns"], row, strict=True)
    }


@pytest.mark.parametrize(("policy", "columns"), [("jax", 80), ("torch", 80), ("torch", 120)])
def test_a_narrow_terminal_gets_column_blocks_that_fit_with_every_cell(run, policy, columns):
    env = {**os.environ, "NO_COLOR": "1"}
    out = on_a_terminal(["table", "-p", policy], columns=columns, env=env)
    assert max(len(line) for line in out.splitlines()) <= columns
    assert "columns 1-" in out  # it did need blocks
    assert _term_grid(out) == _expected_grid(run, policy)


def test_a_wide_terminal_gets_the_one_table(run):
    # The environment without COLUMNS (a shell may export it): the terminal's width decides.
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    out = on_a_terminal(["table", "-p", "jax"], columns=200, env={**env, "NO_COLOR": "1"})
    assert "columns 1-" not in out and out.count("┌") == 1
    assert _term_grid(out) == _expected_grid(run, "jax")


def test_piped_output_is_the_one_wide_table_whatever_the_terminal_says(run):
    wide = run("table", "-p", "torch", env={"COLUMNS": "80"}).stdout
    assert wide.count("┌") == 1 and max(len(line) for line in wide.splitlines()) > 300
    assert _term_grid(wide) == _expected_grid(run, "torch")
