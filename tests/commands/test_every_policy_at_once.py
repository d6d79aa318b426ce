"""One question under every framework at once, and a default that says so: ``pair`` and ``op``
with ``-p numpy,torch`` or ``-p all`` print a row per policy and option setting (canonical
names, so ``int8`` is one type in every row); ``table -p all --types ...`` a grid of policies x
pairs; a command that names no policy answers under JAX and says so on stderr, first."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from promote_cli import frameworks

# -p all: every policy of the registry, in its order
POLICIES = list(frameworks.names())

ROOT = Path(__file__).resolve().parents[2]
NOTE = "note: policy jax (the default; -p to choose)"


def grid(stdout: str) -> dict[str, str]:
    """``policy  answer`` rows (after the header) as {row title: answer}."""
    lines = stdout.splitlines()
    assert lines[0].split()[0] == "policy"
    width = len(lines[0]) - len(lines[0][6:].lstrip())  # where the answer column starts
    return {line[:width].strip(): line[width:] for line in lines[1:]}


def test_pair_under_all_policies_is_a_row_each_with_its_answer(run):
    done = run("pair", "int8", "uint8", "-p", "all")
    rows = grid(done.stdout)
    from promote_cli import frameworks

    assert list(rows) == list(frameworks.names())
    # int8 + uint8 meets at int16 wherever it is allowed; OpenVINO needs promote_unsafe and
    # Paddle promotes two tensors only float with float (both measured, their tables say so)
    assert rows["numpy"] == rows["torch"] == rows["jax"] == rows["mindspore"] == "int16"
    assert rows["openvino"].startswith("refused: signed and unsigned integers meet at int16")
    assert rows["paddle"].startswith("refused: Paddle promotes two tensors only float")
    assert done.exit_code == 1  # a refusal among the rows, as one policy's refusal exits 1
    assert done.stderr == ""  # the policies were named: no default to announce


def test_pair_rows_name_their_policies_and_read_canonical_names(run):
    done = run("pair", "int64", "float16", "-p", "numpy,torch,jax")
    assert done.exit_code == 0
    assert done.stdout.splitlines() == [
        "policy  int64 x float16",
        "numpy   float64",
        "torch   float16",
        "jax     float16",
    ]


def test_an_option_given_several_values_is_a_row_per_setting(run):
    done = run("pair", "int64", "int", "-p", "jax,numpy", "-O", "x64=true,false")
    rows = grid(done.stdout)
    assert list(rows) == ["jax", "jax x64=false", "numpy"]
    assert rows["jax"] == "int64" and rows["jax x64=false"] == "int32"
    assert rows["numpy"] == "int64"


def test_an_option_no_named_policy_has_is_refused_in_one_line(run):
    done = run("pair", "int8", "uint8", "-p", "numpy,torch", "-O", "x64=false")
    assert done.exit_code == 2
    assert "none of numpy, torch has no option 'x64'" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_pair_under_several_policies_in_json_holds_each_ones_own_object(run):
    done = run("pair", "int", "float16", "-p", "numpy,torch", "--json")
    doc = json.loads(done.stdout)
    assert doc["command"] == "pair" and doc["asked"] == "int x float16"
    single = json.loads(
        run("pair", "int", "float16", "-p", "torch", "-n", "canonical", "--json").stdout
    )
    assert doc["answers"][1] == single
    assert [(a["policy"], a["result"]) for a in doc["answers"]] == [
        ("numpy", "float16"),
        ("torch", "float16"),
    ]


def test_several_policies_with_explain_is_a_usage_error(run):
    done = run("pair", "int8", "uint8", "-p", "numpy,torch", "--explain")
    assert done.exit_code == 2 and "name one with -p" in done.stderr


def test_op_under_all_policies_says_which_declare_no_operations(run):
    done = run("op", "divide", "int32", "int32", "-p", "all")
    rows = grid(done.stdout)
    assert done.stdout.splitlines()[0].split(None, 1)[1] == "divide(int32, int32)"
    assert rows["numpy"] == "float64" and rows["torch"] == "float32"
    assert rows["tensorflow"] == "float64"  # tf.experimental.numpy's true division
    assert rows["array-api"] == "refused: xp.divide does not accept int32"
    assert rows["openvino"].startswith("not answered: OpenVINO has no per-operation rules")
    assert done.exit_code == 1


def test_op_several_policies_json_is_each_policys_op_json(run):
    doc = json.loads(run("op", "sum", "uint8", "-p", "torch,mlx,ascend", "--json").stdout)
    assert [(a["policy"], a["result"], a["rule"]) for a in doc["answers"]] == [
        ("torch", "int64", "accumulate"),
        ("mlx", "uint32", "accumulate"),
        ("ascend", None, "no-operations"),
    ]


def test_table_of_all_policies_is_one_grid_of_policies_by_pairs(run):
    done = run("table", "--policy", "all", "--types", "int8,uint8")
    lines = done.stdout.splitlines()
    # every policy answers int8 x uint8 as uint8 x int8: each unordered pair once
    assert re.split(r"\s{2,}", lines[0]) == [
        "policy",
        "int8 x int8",
        "int8 x uint8",
        "uint8 x uint8",
    ]
    every = len(POLICIES)
    rows = {line.split()[0]: line.split()[1:] for line in lines[1 : every + 1]}
    assert list(rows) == POLICIES
    assert rows["jax"] == ["int8", "int16", "uint8"]
    assert rows["openvino"] == ["int8", "×", "uint8"]
    assert rows["paddle"] == ["int8", "×", "uint8"]
    assert rows["onnx"] == ["int8", "×", "uint8"]  # ONNX promotes nothing
    assert lines[every + 1].startswith("×: refused (promote pair A B -p NAME says why)")
    assert done.exit_code == 0 and done.stderr == ""


def test_a_grid_with_weak_operands_says_what_a_star_means(run):
    done = run("table", "-p", "numpy,jax", "-t", "int,float32")
    assert done.stdout.splitlines()[1:3] == [
        "numpy   int64      float32        float32",
        "jax     int*       float32        float32",
    ]
    assert "a name with * is weak" in done.stdout


@pytest.mark.parametrize(
    ("extra", "flag"),
    [
        (["-f", "markdown"], "--format"),
        (["--op", "sqrt"], "--op"),
        (["-o", "x.md"], "-o"),
    ],
)
def test_a_grid_refuses_what_only_one_policys_table_has(run, extra, flag, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run("table", "-p", "numpy,torch", "-t", "int8", *extra)
    assert done.exit_code == 2 and f"{flag} applies to one policy's table" in done.stderr
    assert not (tmp_path / "x.md").exists()


def test_a_grid_needs_the_types(run):
    done = run("table", "-p", "all")
    assert done.exit_code == 2 and "--types int8,uint8" in done.stderr


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        (["pair", "int64", "float16"], "f2\n"),
        (["op", "sqrt", "int8"], "f4 (float32)\n"),
        (["expr", "x + y", "x=int8", "y=uint8"], "  code   jax\n  x + y  int16\n"),
    ],
)
def test_an_answer_from_the_default_policy_says_so_first_on_stderr(run, args, stdout):
    done = run(*args)
    assert done.stdout == stdout
    assert done.stderr.splitlines()[0] == NOTE


def test_the_default_note_comes_before_the_notation_note(run):
    done = run("pair", "i8", "u8")
    assert done.stderr.splitlines() == [NOTE, "note: read i8 as int64, u8 as uint64 (jax notation)"]
    assert done.stdout == "f8 (float64)\n"


def test_the_default_table_and_graph_say_so_too(run):
    assert run("table", "-t", "f2,f4").stderr == NOTE + "\n"
    assert run("graph").stderr == NOTE + "\n"


def test_a_named_policy_gets_no_note(run):
    assert run("pair", "int64", "float16", "-p", "jax").stderr == ""
    assert run("expr", "x + y", "x=int8", "y=uint8", "-p", "numpy").stderr == ""


def test_a_mistake_under_the_default_is_one_line_without_the_note(run):
    done = run("pair", "int8", "flaot16")
    assert done.exit_code == 2
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("promote: error:")


def test_every_policy_at_once_in_a_real_process():
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "pair", "int64", "float16", "-p", "all"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 1  # OpenVINO and Paddle refuse int64 x float16
    assert grid(done.stdout)["numpy"] == "float64"
    assert len(done.stdout.splitlines()) == 1 + len(POLICIES)  # the head, a row per policy
    default = subprocess.run(
        [sys.executable, "-m", "promote_cli", "pair", "int64", "float16"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert (default.stdout, default.stderr) == ("f2\n", NOTE + "\n")


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("pair", ["pair", "int8", "uint8", "-p", "all", "--json"]),
        ("op", ["op", "divide", "int32", "int32", "-p", "all", "--json"]),
        ("table", ["table", "-p", "all", "-t", "int8,uint8", "--json"]),
    ],
)
def test_several_policies_speak_the_one_json_vocabulary(run, command, args):
    from test_json_schema import check_vocabulary

    doc = json.loads(run(*args).stdout)
    check_vocabulary(doc, command)
    assert len(doc["answers"]) == len(POLICIES)
    for answer in doc["answers"]:
        check_vocabulary(answer, command)
    if command == "table":
        assert doc["pairs"] == ["int8 x int8", "int8 x uint8", "uint8 x uint8"]
        paddle = next(a for a in doc["answers"] if a["policy"] == "paddle")
        assert [r["result"] for r in paddle["results"]] == ["int8", None, "uint8"]
