"""Per-operation rules of tinygrad and Paddle (policies/tinygrad_ops.py, paddle_ops.py). Expected
values are tinygrad 0.14.0's and Paddle 3.3.1's (CPU, eager) as measured for issue 13 (every
cell against the frameworks themselves is ``promote verify``'s conformance test, below)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import promote_cli
from promote_cli import ops, policies
from promote_cli.errors import PromotionError
from promote_cli.operands import PYTHON, ZERO_D, Operand

ROOT = Path(__file__).resolve().parent.parent
REFUSED = None

# The issue's five calls.
FIVE = [
    ("sqrt", ["int8"], {"tinygrad": "float32"}),
    ("sum", ["uint8"], {"tinygrad": "uint32"}),
    ("divide", ["int32", "int32"], {"tinygrad": "float32"}),
    ("mean", ["int32"], {"tinygrad": "float32"}),
    ("argmax", ["float32"], {"tinygrad": "int32"}),
]


@pytest.mark.parametrize(("op", "args", "want"), FIVE, ids=[r[0] for r in FIVE])
def test_the_issues_five_calls_as_measured(op, args, want):
    for policy, expected in want.items():
        if expected is REFUSED:
            with pytest.raises(PromotionError):
                promote_cli.promote_many(args, policy=policy, op=op)
        else:
            assert promote_cli.promote_many(args, policy=policy, op=op) == expected, policy


# tinygrad's quirks, each with why.
TINYGRAD = [
    ("prod", ["uint8"], "uint8"),  # prod does not accumulate; sum does
    ("sum", ["int16"], "int32"),
    ("sum", ["float16"], "float16"),  # accumulated in float32, cast back
    ("cumulative_sum", ["bool"], "int32"),
    ("divide", ["uint64", "int64"], "float*"),  # a weak float of two strong tensors stays weak
    ("divide", ["bool", "int"], "float32"),  # the weak int is cast to the default float
    ("floor_divide", ["bool", "bool"], "float32"),  # a bool takes div's float path
    ("remainder", ["bool", "bool"], "float32"),
    ("floor_divide", ["int8", "int8"], "int8"),
    ("floor", ["bool"], "int*"),  # b - 1 with a Python int
    ("round", ["int8"], "float*"),  # x + 0.5 with a Python float
    ("round", ["float16"], "float16"),
    ("negative", ["bool"], "bool"),  # neg of a bool is logical_not
    ("pow", ["bool", "bool"], "bool"),
    ("bitwise_left_shift", ["int", "uint32"], "int*"),  # a shift keeps its left operand's type
    ("bitwise_left_shift", ["int8", "int"], "int8"),
    ("where", ["int", "float"], "float*"),  # two Python scalars promote with each other
    ("where", ["P(bool)", "int"], "int*"),
    ("maximum", ["int", "uint8"], "uint8"),
    ("equal", ["float8_e4m3fn", "float8_e5m2"], "bool"),
]


@pytest.mark.parametrize(("op", "args", "want"), TINYGRAD)
def test_tinygrad_operations(op, args, want):
    assert promote_cli.promote_many(args, policy="tinygrad", op=op) == want


@pytest.mark.parametrize(
    ("op", "args", "rule"),
    [
        ("bitwise_and", ["float32", "float32"], ops.REFUSES_TYPE),  # refused when realised
        ("bitwise_and", ["int8", "float"], ops.REFUSES_TYPE),  # float* too
        ("bitwise_invert", ["bfloat16"], ops.REFUSES_TYPE),
        ("bitwise_left_shift", ["bool", "bool"], ops.REFUSES_TYPE),
        ("bitwise_left_shift", ["int", "int8"], ops.REFUSES_TYPE),  # 1 << t: amount not uint32
        ("matmul", ["float32", "float"], ops.SIGNATURE),
        ("logical_and", ["bool", "bool"], ops.ABSENT),
        ("atan2", ["float32", "float32"], ops.ABSENT),
        ("real", ["float32"], ops.ABSENT),
        ("add", ["float32", "complex"], "operand"),  # no complex types
    ],
)
def test_tinygrad_refusals_say_which_rule(op, args, rule):
    out = promote_cli.api.request("tinygrad", operands=args, op=op).outcome()
    assert out.refused and out.rule == rule, out


def test_tinygrad_weak_results_say_what_they_become():
    out = promote_cli.api.request("tinygrad", operands=["int8"], op="round").outcome()
    assert (out.result, out.materialised.dtype) == ("float*", "float32")


# --- against the installed frameworks -------------------------------------------------------


def operand(text: str) -> Operand:
    """``int8`` an array, ``S(int8)`` a 0-d one, ``int``/``float`` Python scalars."""
    if text in PYTHON_SCALARS:
        return Operand(PYTHON_SCALARS[text], PYTHON)
    if text.startswith("S("):
        return Operand(text[2:-1], ZERO_D)
    return Operand(text)


PYTHON_SCALARS = {"P(bool)": "bool", "int": "int*", "float": "float*", "complex": "complex*"}


def call(policy: str, op: str, *operands: str) -> str:
    """The oracle's own call of ``op``: the framework's dtype name, or "refused"."""
    from promote_cli.verify import Refused, oracle

    orc = oracle(policy)
    rule = policies.operations(policies.get(policy)).rule(op)
    with orc.calling(orc.load(), {}) as run:
        try:
            return run(rule.function, ops.VOCABULARY[op], [operand(x) for x in operands])
        except Refused:
            return "refused"


@pytest.mark.conformance
def test_tinygrad_oracle_calls_the_methods():
    pytest.importorskip("tinygrad", reason="tinygrad is not installed (pip install tinygrad)")
    assert call("tinygrad", "sqrt", "int8") == "float32"
    assert call("tinygrad", "sum", "uint8") == "uint32"
    assert call("tinygrad", "round", "int8") == "float*"
    assert call("tinygrad", "add", "int", "uint8") == "uint8"  # 1 + t, reflected
    assert call("tinygrad", "bitwise_and", "float32", "float32") == "refused"  # realised
    assert call("tinygrad", "bitwise_left_shift", "int", "uint32") == "int*"
    assert call("tinygrad", "bitwise_left_shift", "int", "int8") == "refused"
    assert call("tinygrad", "matmul", "float32", "float") == "refused"


def verify_json(policy: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "verify", "--require", "--json", policy],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [entry] = json.loads(done.stdout)["policies"]
    return entry["operations"]


@pytest.mark.conformance
@pytest.mark.parametrize(
    ("policy", "cells", "absent"),
    [
        # 14 binary operations x (21**2 - 16) pairs, where x 21**2, 21 unary rows x 17 types.
        ("tinygrad", 6731, ["logical_and", "atan2", "real", "imag"]),
    ],
)
def test_every_operation_matches_the_installed_framework(policy, cells, absent):
    # find_spec, not importorskip: importing Paddle here would crash a process holding TensorFlow.
    if importlib.util.find_spec(policy) is None:
        pytest.skip(f"{policy} is not installed (the conformance extra)")
    found = verify_json(policy)
    assert found["mismatches"] == [], found["mismatches"][:10]
    assert (sum(found["cells"].values()), found["absent"]) == (cells, absent)


def test_ops_lists_tinygrad_and_paddle_functions():
    from click.testing import CliRunner

    from promote_cli.cli import cli

    done = CliRunner().invoke(cli, ["ops"])
    assert done.exit_code == 0
    header, *rows = done.output.splitlines()
    column = header.split().index("tinygrad")
    by_op = {row.split()[0]: row.split()[column] for row in rows if row.strip()}
    assert by_op["bitwise_left_shift"] == "Tensor.lshift"
    assert by_op["logical_and"] == "-"  # tinygrad has none
