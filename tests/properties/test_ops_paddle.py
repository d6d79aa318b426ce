"""Paddle's operations (frameworks/paddle/operations.py): each rule and quirk, as measured on
Paddle 3.3.1 (CPU, eager), and the oracle that calls them in its worker (every cell against Paddle
itself is ``promote verify``'s conformance test, below)."""

from __future__ import annotations

import importlib.util

import pytest
from oracles import ask, operand, operation_caller, verify_json

from promote_cli import api, frameworks, promote_many
from promote_cli.rules import NO_KERNEL, REBINDS, REFUSES_TYPE, SAME_DTYPE, SHAPE, SIGNATURE
from promote_cli.verify.protocol import OPERATION, Question, Refusal, Result, operand_of
from promote_cli.vocabulary import INT_TO_FLOAT, SAME

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
    assert promote_many(args, policy="paddle", op=op) == want


@pytest.mark.parametrize(
    ("op", "args", "rule"),
    [
        ("add", ["int8", "int16"], "dimensioned"),  # two tensors: float x float or complex
        ("maximum", ["int8", "S(int16)"], "dimensioned"),  # a 0-d one too, outside x + y's
        ("maximum", ["float32", "float"], SIGNATURE),  # no Python scalar, no operator
        ("atan2", ["float32", "int"], SIGNATURE),
        ("matmul", ["float32", "S(float32)"], SHAPE),
        ("matmul", ["float64", "float32"], SAME_DTYPE),  # no promotion at all
        ("where", ["int32", "int"], "dimensioned"),  # int32 with the int64 of a Python int
        ("bitwise_and", ["int8", "int"], SIGNATURE),  # x & 1: tensors only
        ("bitwise_and", ["float32", "float32"], REFUSES_TYPE),
        ("sqrt", ["bool"], REFUSES_TYPE),  # no kernel for the whole kind: a refusal
        ("floor", ["complex64"], REFUSES_TYPE),
        ("real", ["float32"], REFUSES_TYPE),
    ],
)
def test_paddle_refusals_say_which_rule(op, args, rule):
    out = api.request("paddle", operands=args, op=op).outcome()
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
    out = api.request("paddle", operands=args, op=op).outcome()
    assert (out.result, out.rule) == (want, NO_KERNEL), out


# A Python int or float beside a tensor goes through Paddle's scale kernel, which has the half
# and narrow integer types the elementwise kernels lack (measured, Paddle 3.3.1, CPU).
@pytest.mark.parametrize(
    ("op", "args", "want", "rule"),
    [
        ("+", ["float16", "int"], "float16", SAME.value),  # float16_tensor + 1 runs
        ("+", ["int:300", "bfloat16"], "bfloat16", SAME.value),  # 300 + x too
        ("*", ["int8", "float"], "float32", SAME.value),  # promoted: a float kernel
        ("*", ["int8", "int"], "int8", SAME.value),
        ("-", ["int", "uint8"], "uint8", SAME.value),
        ("/", ["float16", "int"], "float16", INT_TO_FLOAT.value),  # x / 2 is scale(x, 0.5)
        ("/", ["int", "float16"], "float16", NO_KERNEL),  # 2 / x divides: no kernel
        ("+", ["float16", "bool:True"], "float16", NO_KERNEL),  # a bool is made a tensor
        ("+", ["float8_e4m3fn", "int"], "float8_e4m3fn", NO_KERNEL),  # scale lacks float8
    ],
)
def test_a_python_number_beside_a_tensor_runs_in_the_scale_kernel(op, args, want, rule):
    out = api.request("paddle", operands=args, op=op).outcome()
    assert (out.result, out.rule) == (want, rule), out


# Python's operators on paddle.Tensor, as measured (Paddle 3.3.1, CPU): where they differ from
# their functions, and a += b, which rebinds the name (paddle.Tensor has no __iadd__).
@pytest.mark.parametrize(
    ("op", "args", "want"),
    [
        ("@", ["int32", "float32"], "int32"),  # the right tensor cast to the left's type
        ("@", ["float64", "int8"], "float64"),  # paddle.matmul refuses both
        ("@", ["float64", "complex64"], "complex128"),  # complex promotes, as x + y
        ("+", ["float8_e4m3fn"], "float8_e4m3fn"),  # +x returns the tensor: no kernel to lack
        ("|", ["int", "int16"], "int16"),  # 1 | x is x.__ror__(1), as 1 & x
        ("+=", ["int32", "float"], "float32"),  # int32 += 1.5: a new float32 tensor
        ("/=", ["int32", "int32"], "float32"),
        ("+=", ["S(int32)", "int32"], "int32"),  # a 0-d name rebound to the [2] sum
        ("+=", ["int", "int8"], "int8"),  # Python rebinds: 1 + x
    ],
)
def test_paddle_operators_as_measured(op, args, want):
    assert promote_many(args, policy="paddle", op=op) == want


@pytest.mark.parametrize("op", ["+=", "/=", "**=", "<<="])
def test_paddle_augmented_assignment_rebinds_the_name(op):
    out = api.request("paddle", operands=["int32", "int32"], op=op).outcome()
    assert out.rule == REBINDS, out


@pytest.mark.parametrize(
    ("op", "args", "rule"),
    [
        ("+", ["bool"], REFUSES_TYPE),  # paddle.positive: "The `+` operator, on a bool tensor"
        ("@", ["complex64", "int32"], REFUSES_TYPE),  # complex with float32/float64 only
        ("@", ["float32", "S(float32)"], SHAPE),
        ("+=", ["int32", "float32"], "dimensioned"),  # x + y refuses: nothing to rebind
        ("&=", ["int8", "int"], SIGNATURE),  # x & 1 calls bitwise_and, tensors only
    ],
)
def test_paddle_operator_refusals_say_which_rule(op, args, rule):
    out = api.request("paddle", operands=args, op=op).outcome()
    assert out.refused and out.rule == rule, out


def test_paddle_operator_gaps_are_the_left_tensors_kernel():
    # int8 @ int32 runs the int8 matmul kernel, which the CPU lacks; int32 @ int8 runs int32's.
    out = api.request("paddle", operands=["int8", "int32"], op="@").outcome()
    assert (out.result, out.rule) == ("int8", NO_KERNEL), out
    assert promote_many(["int32", "int8"], policy="paddle", op="@") == "int32"


# A Python int's value in an operation or operator, as measured (Paddle 3.3.1, CPU; every tensor
# type with 25 values on either side).
@pytest.mark.parametrize(
    ("op", "args", "want"),
    [
        # + - * take any int, wrapped into the tensor's type
        ("+", ["uint8", "int:18446744073709551616"], "uint8"),
        ("multiply", ["int:-9223372036854775809", "int8"], "int8"),
        ("-=", ["int16", "int:300"], "int16"),
        # t / v takes any int; only v / t converts it to a C long
        ("/", ["int32", "int:18446744073709551616"], "float32"),
        # the bitwise operators take uint64's range as well as int64's
        ("<<", ["int8", "int:18446744073709551615"], "int8"),
        ("bitwise_and", ["int:9223372036854775808", "int16"], "int16"),
        # a divisor that is not 0 once wrapped into the tensor's type
        ("//", ["int16", "int:256"], "int16"),
        ("//", ["bool", "int:256"], "int64"),
        # a negative exponent of a float tensor, or a negative base; an int64 tensor's
        # exponent 2**32 (a float32 exactly, and an int64)
        ("**", ["float32", "int:-1"], "float32"),
        ("**", ["int:-1", "int32"], "int32"),
        ("**", ["int64", "int:4294967296"], "int64"),
        ("**", ["float32", "int:18446744073709551616"], "float32"),
    ],
)
def test_paddle_operations_take_these_values(op, args, want):
    assert promote_many(args, policy="paddle", op=op) == want


@pytest.mark.parametrize(
    ("op", "args", "says"),
    [
        # ones([2], int32) ** -1 never returns (phi::PowKernel): refused, never asked unguarded;
        # nor ** (2**31 - 1), which float32 rounds to 2**31, negative as an int32
        ("**", ["int32", "int:-1"], "never returns"),
        ("**", ["int32", "int:2147483647"], "never returns"),
        ("**", ["int:9223372036854775808", "float32"], "does not fit int64"),
        ("pow", ["int64", "int:-128"], "never returns"),
        ("**=", ["bool", "int:-9223372036854775808"], "never returns"),
        # t == 2**64: SystemError "<method '__eq__' of 'Tensor' objects> returned a result with an
        # exception set" (OverflowError: int too big to convert)
        ("==", ["uint8", "int:18446744073709551616"], "int64"),
        ("<=", ["int:-9223372036854775809", "float32"], "int64"),
        ("%=", ["int32", "int:9223372036854775808"], "int64"),
        ("/", ["int:9223372036854775808", "int32"], "does not fit int64"),
        # 1 << 2**64: an object array, TypeError "dtype must be any of [bool, ...]"
        ("<<", ["int:18446744073709551616", "int8"], "int64 or uint64"),
        # uint8_tensor // 256 and int32_tensor % 2**32: InvalidArgumentError "Integer division by
        # zero" (256 is 0 in uint8)
        ("//", ["uint8", "int:256"], "division by zero"),
        ("%", ["int32", "int:4294967296"], "division by zero"),
        ("/", ["bool", "bool:False"], "division by zero"),
    ],
)
def test_paddle_refuses_these_values_in_its_words(op, args, says):
    out = api.request("paddle", operands=args, op=op).outcome()
    assert out.refused and out.rule == "value" and says in out.why, out


# --- against the installed framework --------------------------------------------------------


@pytest.mark.conformance("paddle")
def test_paddle_oracle_calls_the_functions_in_its_worker():
    # find_spec, not importorskip: importing Paddle here would crash a process holding TensorFlow.
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("paddle is not installed (pip install paddlepaddle)")
    call = operation_caller("paddle")
    assert call("sqrt", "int8") == "float32"
    assert call("sum", "uint8") == "uint8"
    assert call("mean", "int32") == "int32"
    assert call("floor_divide", "uint8", "S(int8)") == "int16"
    assert call("add", "float16", "float16") == "refused (no kernel)"
    assert call("add", "int8", "int16") == "refused"
    assert call("where", "int", "int") == "int64"
    assert call("@", "int32", "float32") == "int32"
    assert call("+x", "bool") == "refused"


@pytest.mark.conformance("paddle")
def test_paddle_oracle_sees_a_plus_equals_b_rebind_the_name():
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("paddle is not installed (pip install paddlepaddle)")
    rules = frameworks.operations(frameworks.get("paddle"))
    rule = rules.rule("+=", rules.policy.resolve_options())
    asked = Question(OPERATION, (operand("int32"), operand("float")), "+=", rule.function)
    assert ask("paddle", [asked]) == [Result("float32", rebound=True)]


@pytest.mark.conformance("paddle")
def test_paddle_oracle_refuses_a_hanging_power_and_paddles_systemerror():
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("paddle is not installed (pip install paddlepaddle)")
    rules = frameworks.operations(frameworks.get("paddle"))
    defaults = rules.policy.resolve_options()

    def function(op: str) -> str | None:
        return rules.rule(op, defaults).function

    def asked(op: str, *operands: str) -> Question:
        return Question(
            OPERATION,
            tuple(operand_of(x) for x in operands),
            op,
            function(op),
        )

    hang, overflow, zero, taken = ask(
        "paddle",
        [
            asked("**", "D(int32)", "int:-1"),  # killed in its forked copy after 5 s
            asked("==", "D(uint8)", "int:18446744073709551616"),
            asked("//", "D(uint8)", "int:256"),
            asked("+", "D(uint8)", "int:18446744073709551616"),
        ],
    )
    assert isinstance(hang, Refusal) and "never returns" in hang.message
    assert isinstance(overflow, Refusal) and "int too big to convert" in overflow.message
    assert isinstance(zero, Refusal) and "Integer division by zero" in zero.message
    assert taken == Result("uint8")


@pytest.mark.conformance("paddle")
def test_every_paddle_operation_matches_the_installed_framework():
    # find_spec, not importorskip: importing Paddle here would crash a process holding TensorFlow.
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("paddle is not installed (the conformance extra)")
    found = verify_json("paddle")
    assert found["mismatches"] == [], found["mismatches"][:10]
    # 16 binary functions and 31 binary operators (19, and 12 augmented) x (32**2 - 16) pairs,
    # where x 32**2, 22 unary functions and 3 unary operators x 28 tensors.
    assert (sum(found["cells"].values()), found["absent"]) == (49100, [])
    # and every binary function and operator (47) with each tensor type and 25 Python values in
    # both orders (700 each): 32,900 valued cells
    assert sum(found["values"].values()) == 32900


def test_ops_lists_paddle_functions(run):
    done = run("ops")
    assert done.exit_code == 0
    header, *rows = done.output.splitlines()
    column = header.split().index("paddle")
    by_op = {row.split()[0]: row.split()[column] for row in rows if row.strip()}
    assert by_op["less"] == "paddle.less_than"
