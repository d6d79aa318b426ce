"""Policies from TOML files: a lattice, a table, or a built-in policy with cells overridden;
usable wherever a policy name is (-p ./mine.toml, --policy-file); malformed files get one
line naming the file, the line and the fault (exit 2); verify --oracle proves one."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from promote_cli import api

MINE = """\
name = "myjax"
extends = "jax"

[cells]
"i1 x u1" = "i4"
"""

LATTICE = """\
name = "tiny"
title = "Tiny"
[lattice]
bool = ["int*"]
"int*" = ["int8", "uint8"]
uint8 = ["int16"]
int8 = ["int16"]
int16 = ["float32"]
[materialise]
"int*" = "int16"
"""

TABLE = """\
name = "tab"
types = ["bool", "int8", "float16"]
[table]
bool = ["bool"]
int8 = ["int8", "int8"]
float16 = ["float16", "×", "float16"]
"""


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in {"mine.toml": MINE, "tiny.toml": LATTICE, "tab.toml": TABLE}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def cells(run, *args):
    body = json.loads(run("table", *args, "-f", "json").output)
    return {
        (r["canonical"], c["canonical"]): cell["result"]
        for r, row in zip(body["rows"], body["cells"], strict=True)
        for c, cell in zip(body["columns"], row, strict=True)
    }


def test_a_file_extending_jax_with_one_cell_renders_jax_s_table_but_that_cell(files, run):
    ours, theirs = cells(run, "-p", "./mine.toml"), cells(run, "-p", "jax")
    changed = {k for k in ours if ours[k] != theirs[k]}
    # One cell of a symmetric table: int8 x uint8, and its mirror image with it.
    assert changed == {("int8", "uint8"), ("uint8", "int8")}
    assert ours["int8", "uint8"] == "int32" and theirs["int8", "uint8"] == "int16"


def test_diff_against_what_a_file_extends_shows_exactly_the_changed_cell(files, run):
    result = run("diff", "jax", "./mine.toml", "-f", "json")
    assert result.exit_code == 1
    body = json.loads(result.output)
    got = {
        (d["row"]["canonical"], d["col"]["canonical"], d["left"]["result"], d["right"]["result"])
        for d in body["differences"]
    }
    assert got == {("int8", "uint8", "int16", "int32"), ("uint8", "int8", "int16", "int32")}


def test_every_command_takes_a_policy_file(files, run, tmp_path):
    import numpy as np

    assert run("pair", "int8", "uint8", "-p", "./tiny.toml").output == "int16\n"
    assert run("pair", "int8", "uint8", "--policy-file", "tiny.toml").output == "int16\n"
    assert run("pair", "int8", "int", "-p", "./tiny.toml").output == "int8\n"
    assert run("pair", "int", "int", "-p", "./tiny.toml").output.startswith("int*")
    assert "int16 --> float32" in run("graph", "-p", "./tiny.toml", "-f", "mermaid").output
    assert run("check", "./tiny.toml").exit_code == 0
    assert run("check", "-p", "./tiny.toml").exit_code == 0
    assert run("check", "--policy-file", "tab.toml").exit_code == 0
    assert cells(run, "--policy-file", "tab.toml")["float16", "int8"] is None
    np.save(tmp_path / "a.npy", np.zeros(2, np.int8))
    np.save(tmp_path / "b.npy", np.zeros(2, np.uint8))
    out = run("convert", "a.npy", "b.npy", "-p", "./tiny.toml", "--dry-run", "--json")
    assert json.loads(out.output)["result"] == "int16"


def test_the_regenerating_command_names_the_file(files, run):
    first = run("table", "-p", "./tab.toml", "-f", "markdown").output.splitlines()[0]
    assert "promote table --policy tab.toml --format markdown" in first  # reads back the file


BAD = {
    "cycle": (
        'name = "c"\n[lattice]\nint8 = ["int16"]\nint16 = ["int8"]\n',
        "c.toml:3: lattice has a cycle through int8",
    ),
    "two least upper bounds": (
        'name = "t"\n[lattice]\nbool = ["int8", "uint8"]\nuint8 = ["int16", "float16"]\n'
        'int8 = ["int16", "float16"]\n',
        "t.toml:4: lattice: uint8 and int8 have no unique least bound",
    ),
    "unknown type": (
        'name = "u"\n[lattice]\nbool = ["int9"]\n',
        "u.toml:3: unknown type: unknown dtype 'int9'",
    ),
    "asymmetric cell": (
        'name = "a"\ntypes = ["bool", "int8"]\n[table]\nbool = ["bool", "int8"]\n'
        'int8 = ["bool", "int8"]\n',
        "a.toml:5: asymmetric cell in a table declared symmetric: int8 x bool = bool but"
        " bool x int8 = int8",
    ),
    "not TOML": ('name = "n"\n[lattice\n', "n.toml:2: not valid TOML"),
    "unknown key": ('name = "k"\nextend = "jax"\n', "k.toml:2: unknown key 'extend'"),
    "short row": (
        'name = "r"\ntypes = ["bool", "int8"]\n[table]\nbool = ["bool", "int8"]\nint8 = ["int8"]\n',
        "r.toml:5: row int8 has 1 cells, not 2",
    ),
    "weak type without materialise": (
        'name = "w"\n[lattice]\nbool = ["int*"]\n"int*" = ["int8"]\n',
        "w.toml:4: the weak type int* needs the dtype it becomes as an array",
    ),
    "unknown parent": ('name = "p"\nextends = "jaxx"\n', "p.toml:2: unknown policy 'jaxx'"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_malformed_file_is_one_line_with_its_file_line_and_fault(case, tmp_path, run):
    text, message = BAD[case]
    path = tmp_path / (message.split(".toml")[0] + ".toml")
    path.write_text(text, encoding="utf-8")
    result = run("pair", "int8", "int8", "-p", str(path))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"promote: error: {path.parent}/{message}"), lines[0]


def test_a_malformed_file_is_exit_2_from_a_real_process_too(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(BAD["cycle"][0], encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "promote_cli", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == f"promote: error: {path}:3: lattice has a cycle through int8\n"


ORACLE = textwrap.dedent(
    """
    import numpy as np

    def numpy_says(a, b):
        return np.promote_types(a, b)

    def off_by_one(a, b):
        return "int16" if {a, b} == {"bool", "int8"} else np.promote_types(a, b)
    """
)


def test_verify_oracle_proves_a_file_policy_against_the_user_s_function(files, run, monkeypatch):
    (files / "oracle16.py").write_text(ORACLE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(files))
    # The file refuses float16 x int8 where NumPy gives float16: two mismatching cells.
    refused = json.loads(
        run("verify", "./tab.toml", "--oracle", "oracle16:numpy_says", "--json").output
    )
    assert refused["ok"] is False and len(refused["policies"][0]["mismatches"]) == 2
    (files / "tab2.toml").write_text(TABLE.replace('"×"', '"float16"'), encoding="utf-8")
    agree = run("verify", "./tab2.toml", "--oracle", "oracle16:numpy_says", "--json")
    assert agree.exit_code == 0 and json.loads(agree.output)["policies"][0]["cells"] == 9
    wrong = run("verify", "./tab2.toml", "--oracle", "oracle16:off_by_one")
    assert wrong.exit_code == 1
    assert "bool x int8 -> promote says int8, framework says int16" in wrong.output
    assert run("verify", "./tab2.toml", "--oracle", "nosuchmodule:f").exit_code == 2
    assert run("verify", "./tab2.toml").exit_code == 2


def test_the_python_api_takes_a_file(files):
    assert api.promote("int8", "uint8", policy="./tiny.toml") == "int16"
