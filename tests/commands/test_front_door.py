"""The first five minutes: what a new user types first, and the small things that lost
people there. Bare ``promote``, names in the wrong case, one policy's listing, a dry run over
existing outputs, the pre-commit hook where there is no tables/."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_bare_promote_prints_the_usage_formatted_and_exits_0(run):
    result = run()
    assert result.exit_code == 0
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "Usage: promote [OPTIONS] COMMAND [ARGS]..."
    assert "Commands:" in lines and any(line.split()[:1] == ["pair"] for line in lines)
    assert "\\n" not in result.stdout and "error" not in result.stdout
    assert result.stdout == run("--help").stdout


def test_bare_promote_as_a_real_process():
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Usage: promote [OPTIONS] COMMAND [ARGS]...\n\n")


@pytest.mark.parametrize(
    ("args", "suggestion"),
    [
        (["pair", "u8", "i8", "-p", "JAX"], "did you mean 'jax'?"),
        (["pair", "u8", "i8", "-p", "Array-API"], "did you mean 'array-api'?"),
        (["pair", "u8", "i8", "-n", "NUMPY"], "did you mean 'numpy'?"),
        (["op", "SQRT", "int8", "-p", "numpy"], "did you mean 'sqrt'?"),
        (["pair", "u8", "i8", "-O", "X64=false"], "did you mean 'x64'?"),
    ],
)
def test_a_name_in_the_wrong_case_gets_a_suggestion(run, args, suggestion):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.rstrip().endswith(suggestion)


def test_policies_name_lists_only_that_policy(run):
    result = run("policies", "torch")
    assert result.exit_code == 0
    assert result.stdout.startswith("torch: PyTorch (")
    assert "\njax:" not in result.stdout
    both = json.loads(run("policies", "jax", "numpy", "--json").stdout)
    assert [p["name"] for p in both["policies"]] == ["jax", "numpy"]
    assert run("policies", "jaxx").exit_code == 2


def test_ops_policy_lists_one_policys_rules(run):
    result = run("ops", "--policy", "torch")
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[2:]}
    assert rows["divide"][:4] == ["divide", "binary", "torch.true_divide", "int-to-float"]
    assert rows["subtract"][-4:] == ["bool", "operand,", "P(bool)", "operand"]
    assert "int-to-float: a bool or integer becomes the framework's float for it" in result.stdout
    data = json.loads(run("ops", "-p", "keras", "-O", "backend=torch", "--json").stdout)
    assert data["options"]["backend"] == "torch"
    by_name = {op["name"]: op for op in data["operations"]}
    assert by_name["sum"]["function"] == "keras.ops.sum"
    # a policy without operations says why (a refusal, exit 1); -O alone needs a policy
    none = run("ops", "-p", "openvino")
    assert none.exit_code == 1 and "no per-operation rules" in none.stderr
    assert run("ops", "-O", "backend=jax").exit_code == 2


def test_convert_dry_run_previews_over_existing_outputs(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    np.save("a.npy", np.arange(4, dtype=np.int32))
    np.save("b.npy", np.ones(2, np.float16))
    assert run("convert", "a.npy", "b.npy").exit_code == 0
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    result = run("convert", "a.npy", "b.npy", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "--force would replace a.promoted.npy, b.promoted.npy (they exist; without --force,"
        " convert refuses to replace them)"
    )
    report = json.loads(run("convert", "a.npy", "b.npy", "--dry-run", "--json").stdout)
    assert [f["replaces"] for f in report["files"]] == [True, True]
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before
    # the run itself still refuses without --force
    refused = run("convert", "a.npy", "b.npy")
    assert refused.exit_code == 2 and "pass --force to replace it" in refused.stderr


def test_the_tables_hook_explains_where_there_is_no_tables_dir(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("tables", "--check")  # what `pre-commit try-repo ... promote-tables` runs
    assert result.exit_code == 2
    assert "no DIR given, and ./tables does not exist: nothing to check" in result.stderr
    assert "args: [docs/tables]" in result.stderr
    named = run("tables", "--check", "docs/tables")
    assert "docs/tables: no such directory to check" in named.stderr


def test_the_pre_commit_hooks_point_to_a_page_that_exists():
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    [(page, section)] = re.findall(r"see (docs/\S+\.md), \"([^\"]+)\"", hooks)
    text = (ROOT / page).read_text(encoding="utf-8")
    assert re.search(rf"^#+ {re.escape(section)}$", text, re.M), (page, section)
