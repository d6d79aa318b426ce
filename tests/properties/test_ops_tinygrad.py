"""tinygrad's operations (frameworks/tinygrad/operations.py): each quirk, as measured on tinygrad
0.14.0 (CPU), and the oracle that calls them (every cell against tinygrad itself is ``promote
verify``'s conformance test, below)."""

from __future__ import annotations

import importlib.util

import pytest
from oracles import ask, operand, operation_caller, verify_json

import promote_cli
import promote_cli.api
from promote_cli import frameworks
from promote_cli.rules import ABSENT, IN_PLACE, REBINDS, REFUSES_TYPE, SIGNATURE, UPDATE_REFUSED
from promote_cli.verify.protocol import OPERATION, Question
from promote_cli.vocabulary import SAME

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
        ("bitwise_and", ["float32", "float32"], REFUSES_TYPE),  # refused when realised
        ("bitwise_and", ["int8", "float"], REFUSES_TYPE),  # float* too
        ("bitwise_invert", ["bfloat16"], REFUSES_TYPE),
        ("bitwise_left_shift", ["bool", "bool"], REFUSES_TYPE),
        ("bitwise_left_shift", ["int", "int8"], REFUSES_TYPE),  # 1 << t: amount not uint32
        ("matmul", ["float32", "float"], SIGNATURE),
        ("logical_and", ["bool", "bool"], ABSENT),
        ("atan2", ["float32", "float32"], ABSENT),
        ("real", ["float32"], ABSENT),
        ("add", ["float32", "complex"], "operand"),  # no complex types
    ],
)
def test_tinygrad_refusals_say_which_rule(op, args, rule):
    out = promote_cli.api.request("tinygrad", operands=args, op=op).outcome()
    assert out.refused and out.rule == rule, out


# Python's operators and a += b, as measured on tinygrad 0.14.0: (operator, operands, dtype of
# the result or of the name afterwards, how it landed).
OPERATORS = [
    ("+=", ["int16", "int8"], "int16", IN_PLACE),  # a.assign(a + b): the same tensor
    ("+=", ["int8", "int"], "int8", IN_PLACE),
    ("+=", ["float16", "float"], "float16", IN_PLACE),
    ("**=", ["bool", "bool"], "bool", IN_PLACE),
    ("%=", ["int8", "int16"], "int16", REBINDS),  # no __imod__: a = a % b, a new tensor
    ("%=", ["bool", "bool"], "float32", REBINDS),  # a bool takes div's float path
    ("+=", ["int", "int8"], "int8", REBINDS),  # a Python int on the left: x = x + t
    ("<<=", ["int", "uint32"], "int*", REBINDS),  # 1 << t keeps the Python int's int*
    (">>", ["int", "uint32"], "int*", "shift-left-operand"),  # >> as << does
    ("-x", ["bool"], "bool", SAME.value),  # -t of a bool is logical_not
    ("|", ["bool", "bool"], "bool", SAME.value),
]


@pytest.mark.parametrize(("op", "args", "want", "landed"), OPERATORS)
def test_tinygrad_operators_and_updates(op, args, want, landed):
    out = promote_cli.api.request("tinygrad", operands=args, op=op).outcome()
    assert (out.result, out.rule) == (want, landed)


@pytest.mark.parametrize(
    ("op", "args", "rule"),
    [
        # assign does not cast: "assign dtype mismatch dtypes.char != dtypes.short"
        ("+=", ["int8", "int16"], UPDATE_REFUSED),
        ("/=", ["int8", "int8"], UPDATE_REFUSED),  # the quotient is float32
        ("+=", ["bool", "int"], UPDATE_REFUSED),  # bool + 1 is int*
        ("*=", ["uint64", "int64"], UPDATE_REFUSED),  # float*, weak even so
        ("&=", ["float32", "int8"], REFUSES_TYPE),  # & refuses it before the update
        ("+x", ["int8"], ABSENT),  # no __pos__: "bad operand type for unary +: 'Tensor'"
        ("@", ["int", "float32"], SIGNATURE),  # 1 @ t: "'int' object has no attribute"
    ],
)
def test_tinygrad_operator_refusals_say_which_rule(op, args, rule):
    out = promote_cli.api.request("tinygrad", operands=args, op=op).outcome()
    assert out.refused and out.rule == rule, out


def test_tinygrad_update_refusal_names_assign():
    out = promote_cli.api.request("tinygrad", operands=["int8", "int16"], op="+=").outcome()
    assert "int8" in out.why and "int16" in out.why and "assign dtype mismatch" in out.why


def test_tinygrad_operators_name_their_methods():
    rules = promote_cli.frameworks.operations(promote_cli.frameworks.get("tinygrad")).rules
    assert rules["+="].function == "Tensor.__iadd__"
    assert rules["%="].function == "Tensor.__mod__"  # what Python calls without __imod__
    assert rules["+x"].function is None


def test_tinygrad_weak_results_say_what_they_become():
    out = promote_cli.api.request("tinygrad", operands=["int8"], op="round").outcome()
    assert (out.result, out.materialised.dtype) == ("float*", "float32")


# --- against the installed framework --------------------------------------------------------


@pytest.mark.conformance("tinygrad")
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
    assert call("+=", "int16", "int8") == "int16"
    assert call("+=", "int8", "int16") == "refused"  # assign dtype mismatch
    assert call("+x", "int8") == "refused"  # TypeError: no __pos__
    assert call("&=", "float16", "float") == "refused"  # realised: UOp verification
    assert call("%=", "bool", "bool") == "float32"


@pytest.mark.conformance("tinygrad")
def test_tinygrad_augmented_assignment_updates_in_place_but_modulo():
    pytest.importorskip("tinygrad", reason="tinygrad is not installed (pip install tinygrad)")
    rules = frameworks.operations(frameworks.get("tinygrad"))
    defaults = rules.policy.resolve_options()

    def function(op: str) -> str | None:
        return rules.rule(op, defaults).function

    asked = [
        Question(OPERATION, (operand("int16"), operand("int8")), op, function(op))
        for op in ("+=", "%=")
    ]
    added, modulo = ask("tinygrad", asked)
    assert (added.dtype, added.rebound) == ("int16", False)  # the same tensor, assigned
    assert (modulo.dtype, modulo.rebound) == ("int16", True)  # a = a % b


@pytest.mark.conformance("tinygrad")
def test_every_tinygrad_operation_matches_the_installed_framework():
    if importlib.util.find_spec("tinygrad") is None:
        pytest.skip("tinygrad is not installed (the conformance extra)")
    found = verify_json("tinygrad")
    assert found["mismatches"] == [], found["mismatches"][:10]
    # 14 binary operations and 31 binary operators (19 and 12 updates) x (21**2 - 16) pairs,
    # where x 21**2, 20 unary rows (functions and reductions) and 2 unary operators x 17 types.
    absent = ["logical_and", "atan2", "real", "imag", "+x"]
    assert (sum(found["cells"].values()), found["absent"]) == (19940, absent)


def test_ops_lists_tinygrad_functions(run):
    done = run("ops")
    assert done.exit_code == 0
    header, *rows = done.output.splitlines()
    column = header.split().index("tinygrad")
    by_op = {row.split()[0]: row.split()[column] for row in rows if row.strip()}
    assert by_op["bitwise_left_shift"] == "Tensor.lshift"
    assert by_op["logical_and"] == "-"  # tinygrad has none
    assert by_op["less"] == "Tensor.__lt__"
