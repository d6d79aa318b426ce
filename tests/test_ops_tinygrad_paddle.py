"""Per-operation rules of tinygrad and Paddle (frameworks/tinygrad/, frameworks/paddle/). Expected
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
from promote_cli import frameworks, ops
from promote_cli.operands import PYTHON, ZERO_D, Operand

ROOT = Path(__file__).resolve().parent.parent

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


# Paddle's rules and quirks, each with why.
PADDLE = [
    ("sum", ["int32"], "int64"),  # sum makes bool and int32 int64, keeps the rest
    ("sum", ["bool"], "int64"),
    ("sum", ["int16"], "int16"),
    ("cumulative_sum", ["uint8"], "int64"),  # cumsum makes every integer int64
    ("mean", ["bool"], "bool"),  # mean keeps a bool or an integer
    ("divide", ["bool", "bool"], "bool"),
    ("divide", ["int8", "float"], "float32"),  # x / 1.0 is the operator's: float32
    ("atan2", ["int32", "int32"], "float64"),  # atan2 of integers is float64
    ("atan2", ["float16", "bfloat16"], "float32"),
    ("add", ["uint8", "S(int64)"], "uint8"),  # the 0-d rule of x + y
    ("floor_divide", ["uint8", "S(int8)"], "int16"),  # floor_divide: the table with a 0-d
    ("floor_divide", ["uint8", "int"], "uint8"),  # x // 1, the operator
    ("maximum", ["float16", "S(float64)"], "float64"),  # no 0-d rule outside x + y's ops
    ("where", ["int", "int"], "int64"),  # a Python int is an int64 tensor for where
    ("where", ["float16", "float"], "float32"),  # ... a Python float a float32 one
    ("divide", ["S(float64)", "complex"], "complex64"),  # x + 1j gives complex128
    ("add", ["S(float64)", "complex"], "complex128"),
    ("bitwise_and", ["int", "int16"], "int16"),  # 1 & x keeps the tensor's type
    ("bitwise_left_shift", ["uint8", "P(bool)"], "uint8"),
    ("matmul", ["float32", "int32"], "float32"),  # no promotion; this pair runs anyway
    ("abs", ["complex128"], "float64"),
    ("argmax", ["uint8"], "int64"),
]


@pytest.mark.parametrize(("op", "args", "want"), PADDLE)
def test_paddle_operations(op, args, want):
    assert promote_cli.promote_many(args, policy="paddle", op=op) == want


@pytest.mark.parametrize(
    ("op", "args", "rule"),
    [
        ("add", ["int8", "int16"], "dimensioned"),  # two tensors: float x float or complex
        ("maximum", ["int8", "S(int16)"], "dimensioned"),  # a 0-d one too, outside x + y's
        ("maximum", ["float32", "float"], ops.SIGNATURE),  # no Python scalar, no operator
        ("atan2", ["float32", "int"], ops.SIGNATURE),
        ("matmul", ["float32", "S(float32)"], ops.SHAPE),
        ("matmul", ["float64", "float32"], ops.SAME_DTYPE),  # no promotion at all
        ("where", ["int32", "int"], "dimensioned"),  # int32 with the int64 of a Python int
        ("bitwise_and", ["int8", "int"], ops.SIGNATURE),  # x & 1: tensors only
        ("bitwise_and", ["float32", "float32"], ops.REFUSES_TYPE),
        ("sqrt", ["bool"], ops.REFUSES_TYPE),  # no kernel for the whole kind: a refusal
        ("floor", ["complex64"], ops.REFUSES_TYPE),
        ("real", ["float32"], ops.REFUSES_TYPE),
    ],
)
def test_paddle_refusals_say_which_rule(op, args, rule):
    out = promote_cli.api.request("paddle", operands=args, op=op).outcome()
    assert out.refused and out.rule == rule, out


@pytest.mark.parametrize(
    ("op", "args", "want"),
    [
        ("add", ["float16", "float16"], "float16"),  # no float16 add kernel on the CPU
        ("subtract", ["int8", "int8"], "int8"),
        ("pow", ["bfloat16", "int"], "bfloat16"),  # the scalar pow kernel lacks bfloat16
        ("sqrt", ["float16"], "float16"),
        ("where", ["uint8", "uint8"], "uint8"),
    ],
)
def test_paddle_missing_kernels_answer_the_rule_as_gaps(op, args, want):
    out = promote_cli.api.request("paddle", operands=args, op=op).outcome()
    assert (out.result, out.rule) == (want, ops.NO_KERNEL), out


# --- against the installed frameworks -------------------------------------------------------


def operand(text: str) -> Operand:
    """``int8`` an array, ``S(int8)`` a 0-d one, ``int``/``float`` Python scalars."""
    if text in PYTHON_SCALARS:
        return Operand(PYTHON_SCALARS[text], PYTHON)
    if text.startswith("S("):
        return Operand(text[2:-1], ZERO_D)
    return Operand(text)


PYTHON_SCALARS = {"P(bool)": "bool", "int": "int*", "float": "float*", "complex": "complex*"}


def caller(policy: str):
    """The oracle's own call of an operation: the framework's dtype name, or "refused" (or
    "refused (no kernel)")."""
    from promote_cli.verify import Refused
    from promote_cli.verify.driver import oracle

    orc = oracle(policy)
    handle = orc.load()

    def call(op: str, *operands: str) -> str:
        rule = frameworks.operations(frameworks.get(policy)).rule(op)
        with orc.calling(handle, {}) as run:
            try:
                return run(rule.function, ops.VOCABULARY[op], [operand(x) for x in operands])
            except Refused as exc:
                return "refused (no kernel)" if exc.kernel else "refused"

    return call


@pytest.mark.conformance
def test_tinygrad_oracle_calls_the_methods():
    pytest.importorskip("tinygrad", reason="tinygrad is not installed (pip install tinygrad)")
    call = caller("tinygrad")
    assert call("sqrt", "int8") == "float32"
    assert call("sum", "uint8") == "uint32"
    assert call("round", "int8") == "float*"
    assert call("add", "int", "uint8") == "uint8"  # 1 + t, reflected
    assert call("bitwise_and", "float32", "float32") == "refused"  # realised
    assert call("bitwise_left_shift", "int", "uint32") == "int*"
    assert call("bitwise_left_shift", "int", "int8") == "refused"
    assert call("matmul", "float32", "float") == "refused"


@pytest.mark.conformance
def test_paddle_oracle_calls_the_functions_in_its_worker():
    # find_spec, not importorskip: importing Paddle here would crash a process holding TensorFlow.
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("paddle is not installed (pip install paddlepaddle)")
    call = caller("paddle")
    assert call("sqrt", "int8") == "float32"
    assert call("sum", "uint8") == "uint8"
    assert call("mean", "int32") == "int32"
    assert call("floor_divide", "uint8", "S(int8)") == "int16"
    assert call("add", "float16", "float16") == "refused (no kernel)"
    assert call("add", "int8", "int16") == "refused"
    assert call("where", "int", "int") == "int64"


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
        # 16 binary operations x (32**2 - 16) pairs, where x 32**2, 22 unary rows x 28 tensors.
        ("paddle", 17768, []),
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
    assert by_op["less"] == "Tensor.__lt__"
    paddle = header.split().index("paddle")
    assert {row.split()[0]: row.split()[paddle] for row in rows if row.strip()}["less"] == (
        "paddle.less_than"
    )
