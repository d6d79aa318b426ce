"""tinygrad's operations (frameworks/tinygrad/operations.py): each quirk, as measured on tinygrad
0.14.0 (CPU), and the oracle that calls them (every cell against tinygrad itself is ``promote
verify``'s conformance test, below)."""

from __future__ import annotations

import importlib.util

import pytest
from oracles import operation_caller, verify_json

import promote_cli
from promote_cli import ops

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


# --- against the installed framework --------------------------------------------------------


@pytest.mark.conformance
def test_tinygrad_oracle_calls_the_methods():
    pytest.importorskip("tinygrad", reason="tinygrad is not installed (pip install tinygrad)")
    call = operation_caller("tinygrad")
    assert call("sqrt", "int8") == "float32"
    assert call("sum", "uint8") == "uint32"
    assert call("round", "int8") == "float*"
    assert call("add", "int", "uint8") == "uint8"  # 1 + t, reflected
    assert call("bitwise_and", "float32", "float32") == "refused"  # realised
    assert call("bitwise_left_shift", "int", "uint32") == "int*"
    assert call("bitwise_left_shift", "int", "int8") == "refused"
    assert call("matmul", "float32", "float") == "refused"


@pytest.mark.conformance
def test_every_tinygrad_operation_matches_the_installed_framework():
    if importlib.util.find_spec("tinygrad") is None:
        pytest.skip("tinygrad is not installed (the conformance extra)")
    found = verify_json("tinygrad")
    assert found["mismatches"] == [], found["mismatches"][:10]
    # 14 binary operations x (21**2 - 16) pairs, where x 21**2, 21 unary rows x 17 types.
    absent = ["logical_and", "atan2", "real", "imag"]
    assert (sum(found["cells"].values()), found["absent"]) == (6731, absent)


def test_ops_lists_tinygrad_functions(run):
    done = run("ops")
    assert done.exit_code == 0
    header, *rows = done.output.splitlines()
    column = header.split().index("tinygrad")
    by_op = {row.split()[0]: row.split()[column] for row in rows if row.strip()}
    assert by_op["bitwise_left_shift"] == "Tensor.lshift"
    assert by_op["logical_and"] == "-"  # tinygrad has none
    assert by_op["less"] == "Tensor.__lt__"
