"""Every command's JSON speaks one vocabulary (promote_cli/schema.py, the README's "JSON output"):
the same head, and the same shapes for operands and outcomes wherever they appear."""

from __future__ import annotations

import ast
import json
import re
import shlex
from pathlib import Path

import pytest

HEAD = {"schema", "command"}
OPERAND = {"label", "canonical", "category"}
OUTCOME = {"result", "label", "refused", "rule", "reason", "unsafe_result", "materialised"}
# Names an earlier version used for the same facts: none may come back.
RETIRED = {
    *("refusal", "explanation", "result_label", "row_canonical", "col_canonical", "why"),
    "framework_error",  # a framework's refusal is an outcome like any other
}


def walk(node, path="$"):
    """Every (path, dict) in a JSON document."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{path}[{i}]")


def check_vocabulary(doc: dict, command: str) -> None:
    assert doc["schema"] == 1 and doc["command"] == command
    for path, obj in walk(doc):
        assert not RETIRED & set(obj), f"{path} uses a retired name: {RETIRED & set(obj)}"
        if "category" in obj:
            assert set(obj) >= OPERAND, f"{path} is an operand without {OPERAND - set(obj)}"
            assert obj["category"] in ("D", "S", "P"), path
        if "refused" in obj:
            assert set(obj) >= OUTCOME, f"{path} is an outcome without {OUTCOME - set(obj)}"
            assert obj["refused"] == (obj["result"] is None), path
            assert isinstance(obj["reason"], str) and obj["reason"], path
            assert isinstance(obj["rule"], str) and obj["rule"], f"{path}: a rule names who decided"
        for key, value in obj.items():
            # An answer is an outcome object, never a bare null or a marker standing for one.
            assert value not in ("×", "refused"), f"{path}.{key} spells a refusal as {value!r}"
            if key == "results":
                assert all(isinstance(x, dict) and "refused" in x for x in value), f"{path}.results"


COMMANDS = {
    "pair": ["pair", "S(i64)", "D(u8)", "-p", "openvino", "--json"],
    "pair-result": ["pair", "int", "f2", "bf", "--json"],
    "op": ["op", "divide", "int8", "uint8", "-p", "torch", "--json"],
    "op-refused": ["op", "mean", "int32", "-p", "array-api", "--json"],
    "ops": ["ops", "--json"],
    "table": ["table", "-p", "openvino", "-t", "f16,bf16,i8", "--json"],
    "table-format": ["table", "-p", "openvino", "-t", "f16,bf16,i8", "-f", "json"],
    "diff": ["diff", "jax", "numpy", "-t", "b1,u1,i1,f2,f4,bf", "--json"],
    "diff-format": ["diff", "jax", "numpy", "-t", "b1,u1,i1,f2,f4,bf", "-f", "json"],
    "policies": ["policies", "--json"],
    "verify": ["verify", "ascend", "--json"],
    "drift": ["drift", "ascend", "--json"],
    "check": ["check", "torch", "-t", "int32,bfloat16,S(int8),int", "--json"],
    # Its associative examples are refused on one side: each result is an outcome.
    "check-refused": ["check", "jax", "-t", "i1,u8,float4_e2m1fn", "--json"],
    "expr": [
        *("expr", "y = x.T[0]; y += w[1]; y.astype(float16) / w", "x=uint8", "w=int8"),
        *("-p", "numpy,torch", "--json"),
    ],
}
EXIT = {
    "expr": 1,
    "convert-refused": 1,
    "op-refused": 1,
    "diff": 1,
    "diff-format": 1,
    "check-refused": 1,
}


@pytest.fixture
def npy_pair(tmp_path):
    import ml_dtypes
    import numpy as np

    np.save(tmp_path / "a.npy", np.arange(3, dtype=np.float16))
    np.save(tmp_path / "b.npy", np.float32(2.5))  # a 0-d array: S(f4)
    np.save(tmp_path / "c.npy", np.zeros(3, ml_dtypes.bfloat16))  # OpenVINO refuses f16 x bf16
    return [str(tmp_path / n) for n in ("a.npy", "b.npy", "c.npy:bf16")]


@pytest.mark.parametrize("case", [*COMMANDS, "convert", "convert-refused"])
def test_every_command_speaks_the_one_json_vocabulary(case, run, npy_pair):
    args = {
        **COMMANDS,
        "convert": ["convert", *npy_pair[:2], "--dry-run", "--json"],
        "convert-refused": ["convert", npy_pair[0], npy_pair[2], "-p", "openvino", "--json"],
    }[case]
    result = run(*args)
    assert result.exit_code == EXIT.get(case, 0), result.stderr
    doc = json.loads(result.stdout)
    check_vocabulary(doc, args[0])


def test_a_refusal_and_a_result_have_the_same_shape(run):
    refused = json.loads(run("pair", "f16", "bf16", "-p", "openvino", "--json").stdout)
    answered = json.loads(run("pair", "f16", "f32", "-p", "openvino", "--json").stdout)
    assert refused["refused"] is True and refused["result"] is None and refused["label"] is None
    assert answered["refused"] is False and answered["label"] == "f32"
    assert set(refused) == set(answered)


def test_the_checker_rejects_a_retired_name():
    with pytest.raises(AssertionError, match="retired"):
        check_vocabulary({"schema": 1, "command": "pair", "refusal": "no"}, "pair")
    with pytest.raises(AssertionError, match="outcome without"):
        check_vocabulary({"schema": 1, "command": "pair", "x": {"refused": True}}, "pair")


def test_every_command_that_prints_json_takes_json(run):
    from promote_cli.cli import COMMANDS as ALL

    printing = {"pair", "op", "ops", "policies", "table", "diff", "check", "verify", "convert"}
    printing |= {"expr", "drift"}
    for name in ALL:
        helped = run(name, "--help").stdout
        assert ("--json" in helped) == (name in printing), name


def test_a_check_counterexample_gives_the_refusal_behind_a_refused_result(run):
    doc = json.loads(run("check", "jax", "-t", "i1,u8,float4_e2m1fn", "--json").stdout)
    [example, *_] = doc["properties"]["associative"]["examples"]
    left, right = example["results"]
    # (i1 x u8) x float4_e2m1fn: i1 x u8 meets at f8, which JAX will not promote with float4.
    assert left["refused"] and left["rule"] == "lattice" and "float4_e2m1fn" in left["reason"]
    assert right == {**right, "refused": False, "result": "float4_e2m1fn"}


def test_conflicting_json_and_format_are_a_usage_error(run):
    for args in (("table", "-p", "jax", "-f", "html"), ("diff", "jax", "numpy", "-f", "table")):
        result = run(*args, "--json")
        assert result.exit_code == 2 and "two formats" in result.stderr, args


# The rule values the JSON guide lists, each with the example that gives it.
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "json.md"
_ROW = re.compile(r"^\| (`[^|\n]+`) \|(?:[^|\n]*\|)+ `(promote [^`\n]+)` \|$", re.M)


def documented_rules() -> set[str]:
    """Every rule named in the guide's "Rule values" section (tables and prose)."""
    section = GUIDE.read_text(encoding="utf-8").split("## Rule values", 1)[1]
    return set(re.findall(r"`([a-z][a-z0-9_]*(?:-[a-z0-9]+)*)`", section))


def rule_examples() -> list[tuple[set[str], list[str]]]:
    section = GUIDE.read_text(encoding="utf-8").split("## Rule values", 1)[1]
    return [
        (set(re.findall(r"`([^`]+)`", rules)), shlex.split(command)[1:])
        for rules, command in _ROW.findall(section)
    ]


def test_the_guide_has_an_example_for_almost_every_rule():
    examples = rule_examples()
    assert len(examples) >= 50
    assert {"table", "lattice", "value", "no-kernel", "no-operations"} <= set().union(
        *(rules for rules, _ in examples)
    )


@pytest.mark.parametrize(
    "rules, args", rule_examples(), ids=lambda x: "+".join(sorted(x)) if isinstance(x, set) else ""
)
def test_each_documented_rule_is_what_its_example_gives(rules, args, run):
    result = run(*args, "--json")
    assert result.exit_code in (0, 1), result.stderr
    assert json.loads(result.stdout)["rule"] in rules


def _rule_literals() -> set[str]:
    """The rule of every outcome and refusal the source spells as a literal: the second
    argument of ``Outcome(...)``, the first of ``refuse(...)``/``refusal(...)``, a ``rule=``
    keyword, or a module constant passed as one."""
    found: set[str] = set()
    for path in (Path(__file__).resolve().parents[2] / "promote_cli").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        consts = {
            target.id: node.value.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name) and isinstance(node.value.value, str)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            position = {"Outcome": 1, "refuse": 0, "refusal": 0}.get(name or "")
            args = [k.value for k in node.keywords if k.arg == "rule"]
            if not args and position is not None and len(node.args) > position:
                args = [node.args[position]]
            for arg in args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
                elif isinstance(arg, ast.Name) and arg.id in consts:
                    found.add(consts[arg.id])
    return found


def test_every_rule_the_code_can_give_is_documented():
    from promote_cli.vocabulary import Kind

    given = _rule_literals() | {kind.value for kind in Kind}
    assert len(given) > 40  # the scan finds the rules, not nothing
    assert given - documented_rules() == set()
