"""Questions promote declines (``engine.DECLINED``): the framework answers them by a rule promote
does not model, so ``op``, ``pair``, the API and ``verify`` say so instead of answering another
question. Every value below was measured on the live framework (MindSpore 2.10.0 on the CPU in
PyNative mode, TensorFlow 2.21.0), each crash and each first call in a fresh process."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import promote_cli
from promote_cli import api, frameworks
from promote_cli.cli import cli
from promote_cli.engine import DECLINED
from promote_cli.errors import PromotionError
from promote_cli.frameworks.mindspore.promotion import CRASH
from promote_cli.rules import D, S
from promote_cli.verify.compare import AGREE, DECLINES, MISMATCH, judged
from promote_cli.verify.protocol import OPERATION, PAIR, Question, Refusal, Result


def outcome(policy, op, *operands, **options):
    return api.request(policy, operands=list(operands), op=op, options=options).outcome()


# MindSpore's Mul and Div take a 0-d tensor as a scalar: ops.ones((2,), uint8) *
# Tensor(np.array(1, np.int64)) is uint8, ops.mul the same, ops.div(float16, 0-d float64)
# float16, ops.mul(0-d uint8, 1) int64 where 0-d uint8 * 1 is uint8.
@pytest.mark.parametrize(
    ("op", "a", "b"),
    [
        ("*", "uint8", "S(int64)"),
        ("multiply", "uint8", "S(int64)"),
        ("*=", "uint8", "S(int64)"),
        ("/", "float16", "S(float64)"),
        ("divide", "float16", "S(float64)"),
        ("multiply", "S(uint8)", "int"),
        ("*", "S(int64)", "uint8"),
    ],
)
def test_mindspore_mul_and_div_with_a_0d_tensor_are_declined(op, a, b):
    out = outcome("mindspore", op, a, b)
    assert out.refused and out.rule == DECLINED
    assert "0-d tensor as a scalar" in out.why


def test_mindspore_add_takes_a_0d_tensor_as_a_dimensioned_one():
    # measured: ops.add(uint8 tensor, 0-d int64 tensor) and + are int64, as two 1-d tensors
    assert outcome("mindspore", "+", "uint8", "S(int64)").result == "int64"
    assert outcome("mindspore", "add", "uint8", "S(int64)").result == "int64"
    assert promote_cli.promote("uint8", "S(int64)", policy="mindspore") == "int64"


def test_mindspore_mul_of_two_dimensioned_tensors_is_still_answered():
    # measured: ops.mul(uint8 tensor, int64 tensor) is int64
    assert outcome("mindspore", "*", "uint8", "int64").result == "int64"


def test_mindspore_op_declines_a_0d_tensor_in_mul_on_the_command_line():
    got = CliRunner().invoke(cli, ["op", "*", "uint8", "S(int64)", "-p", "mindspore"])
    assert got.exit_code == 1
    assert got.output.startswith("refused: MindSpore's Mul and Div take a 0-d tensor as a scalar")


def test_mindspore_api_declines_mul_with_a_0d_tensor():
    with pytest.raises(PromotionError):
        promote_cli.promote("uint8", "S(int64)", policy="mindspore", op="multiply")


# A 0-d float16 tensor left of a dimensioned bfloat16 one (or 0-d bfloat16, float16) ends the
# process with SIGSEGV in ops.add, sub, mul, div, remainder, floor_divide, pow, equal, maximum
# and their operators; ops.mul/div and * / of a float16 tensor and a 0-d bfloat16 one too.
# ops.add(bfloat16 tensor, 0-d float16) runs: float32.
def test_mindspore_a_0d_half_left_of_the_other_half_crashes_and_is_refused():
    for a, b in (("S(float16)", "bfloat16"), ("S(bfloat16)", "float16")):
        out = api.request("mindspore", operands=[a, b]).outcome()
        assert out.refused and out.rule == CRASH
        assert outcome("mindspore", "equal", a, b).rule == CRASH
    assert outcome("mindspore", "*", "float16", "S(bfloat16)").rule == CRASH
    assert promote_cli.promote("bfloat16", "S(float16)", policy="mindspore") == "float32"


def test_verify_counts_a_declined_question_as_declined_whatever_the_framework_says():
    policy = frameworks.get("mindspore")
    rules = frameworks.operations(policy)
    q = Question(OPERATION, (D("uint8"), S("int64")), "multiply", "ops.mul")
    assert judged(policy, rules, {}, q, Result("uint8")).status == DECLINES
    assert judged(policy, rules, {}, q, Refusal("no kernel")).status == DECLINES
    both = Question(OPERATION, (D("uint8"), D("int64")), "multiply", "ops.mul")
    assert judged(policy, rules, {}, both, Result("int64")).status == AGREE
    assert judged(policy, rules, {}, both, Result("uint8")).status == MISMATCH
    pair = Question(PAIR, (D("uint8"), S("int64")))
    assert judged(policy, rules, {}, pair, Result("int64")).status == AGREE


# TensorFlow: tf.ones([2], tf.uint64) + -1 in a fresh process raises (SystemError whose cause is
# OverflowError "can't convert negative int to unsigned"); the same call made again answers
# uint64 [0, 0] from the scalar cache; * -300 again uint64 [2**64 - 1, ...]; < -1 again bool.
# In legacy mode + 2**64 the same; in mode=all + 2**64 raises both times (int32's range).
@pytest.mark.parametrize("mode", ["all", "safe", "legacy"])
@pytest.mark.parametrize(
    ("op", "a", "b"),
    [
        ("+", "int:-1", "uint64"),
        ("+", "uint64", "int:-1"),
        ("add", "uint64", "int:-1"),
        ("*", "uint64", "int:-300"),
        ("<", "uint64", "int:-1"),
        ("<", "uint64", "int:18446744073709551616"),
    ],
)
def test_tensorflow_an_int_uint64_cannot_take_is_declined(mode, op, a, b):
    out = outcome("tensorflow", op, a, b, mode=mode)
    assert out.refused and out.rule == DECLINED
    assert "the same call made again" in out.why


def test_tensorflow_an_int_over_int32_in_mode_all_stays_refused():
    out = outcome("tensorflow", "+", "uint64", "int:18446744073709551616", mode="all")
    assert out.refused and out.rule != DECLINED
    legacy = outcome("tensorflow", "+", "uint64", "int:18446744073709551616", mode="legacy")
    assert legacy.rule == DECLINED


def test_tensorflow_chain_declines_a_negative_int_with_uint64():
    out = api.request("tensorflow", operands=["int:-1", "uint64"], chain=True).outcome()
    assert out.refused and out.rule == DECLINED


# Paddle 3.3.1: paddle.ones([2], paddle.uint32) raises (no full kernel), but
# paddle.cast(paddle.ones([2], "int32"), paddle.uint32) is a uint32 tensor: +x is uint32 (the
# tensor itself), -x, ~x, abs(x), x + x and x + 1 raise RuntimeError; the same for uint16 and
# uint64. promote does not model those types: every question about them is declined.
@pytest.mark.parametrize("t", ["uint16", "uint32", "uint64"])
def test_paddle_declines_its_unsigned_types_it_does_not_model(t):
    for op, operands in (("+x", [t]), ("-x", [t]), ("+", [t, t]), ("+", [t, "int"])):
        out = outcome("paddle", op, *operands)
        assert out.refused and out.rule == DECLINED
        assert "+x returns the tensor" in out.why
    with pytest.raises(PromotionError, match="promote does not model"):
        promote_cli.promote(t, "int8", policy="paddle")
