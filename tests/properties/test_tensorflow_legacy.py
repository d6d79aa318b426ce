"""TensorFlow's ``dtype_conversion_mode="legacy"`` (``-O mode=legacy``): TF-NumPy's promotion
before the new one, each fact as observed on TensorFlow 2.21 with NumPy 2.4 (``tnp.result_type``,
``tf.Tensor``'s operators and ``tnp``'s functions with NumPy behaviour enabled in that mode), and
the oracle asking a legacy-mode process of its own."""

from __future__ import annotations

import pytest
from oracles import printed_by

import promote_cli
from promote_cli import PromotionError
from promote_cli.rules import REFUSES_OPERAND, REFUSES_TYPE

# The facts below are TensorFlow 2.21's with ml_dtypes 0.6.0 beside it (measured there, the
# set measured/ml_dtypes-0.6); 0.7's differ where bfloat16 meets another type (LEGACY_07).
LEGACY = {"mode": "legacy", "ml_dtypes": "0.6"}
LEGACY_07 = {"mode": "legacy", "ml_dtypes": "0.7"}

# (operands, what tnp.result_type gives in legacy mode): np.result_type, NEP 50 with NumPy 2.
PAIRS = [
    (["int32", "float32"], "float64"),  # mode=all: float32
    (["int32", "float16"], "float64"),  # mode=all: float16
    (["uint64", "int8"], "float64"),  # mode=all: float64* (weak)
    (["uint8", "int8"], "int16"),
    (["int8", "float"], "float64"),  # a Python float with an integer: NumPy's default float
    (["float16", "float"], "float16"),
    (["uint8", "complex"], "complex128"),
    (["bool", "int"], "int64"),  # mode=all: int32*
    (["int", "float"], "float64"),  # two Python scalars: a plain float64, never weak
    (["bfloat16", "float"], "float64"),  # ml_dtypes' bfloat16 in np.result_type
    (["string", "int8"], "string"),  # NumPy's object, read back as string
]


@pytest.mark.parametrize(("operands", "want"), PAIRS)
def test_legacy_pairs_are_numpys_result_type(operands, want):
    assert promote_cli.promote(*operands, policy="tensorflow", **LEGACY) == want


def test_legacy_refuses_what_np_result_type_refuses():
    # DTypePromotionError: bfloat16 could not be promoted by int32
    with pytest.raises(PromotionError, match=r"np\.result_type"):
        promote_cli.promote("bfloat16", "int32", policy="tensorflow", **LEGACY)


@pytest.mark.parametrize(
    ("operands", "want"),
    [
        # measured with TensorFlow 2.21.0 and ml_dtypes 0.7.0 (verify -O mode=legacy)
        (["bfloat16", "int32"], "float64"),
        (["uint16", "bfloat16"], "float32"),
        (["bfloat16", "float16"], "float32"),
        (["bfloat16", "float"], "bfloat16"),  # a Python float keeps bfloat16 now (float64)
    ],
)
def test_legacy_mode_answers_as_numpy_with_ml_dtypes_0_7_where_bfloat16_meets_another(
    operands, want
):
    assert promote_cli.promote(*operands, policy="tensorflow", **LEGACY_07) == want


def test_legacy_mode_declines_three_operands_with_bfloat16_under_ml_dtypes_0_7():
    with pytest.raises(PromotionError, match="not modelled"):
        promote_cli.promote_many(["uint16", "bfloat16", "int8"], policy="tensorflow", **LEGACY_07)


def test_legacy_mode_has_no_weak_tensors():
    with pytest.raises(PromotionError, match="no WeakTensor"):
        promote_cli.promote("int32*", "int8", policy="tensorflow", **LEGACY)


def test_legacy_result_type_is_numpys_sequence_not_a_fold():
    # np.result_type(uint16, bfloat16, object) is object; with the string between, it raises
    many = promote_cli.promote_many
    assert many(["uint16", "bfloat16", "string"], policy="tensorflow", **LEGACY) == "string"
    with pytest.raises(PromotionError):
        many(["uint16", "string", "bfloat16"], policy="tensorflow", **LEGACY)


# (operands of the chain a + b, what the operator gives): the Python int converted to the
# promoted dtype through int64; uint64 has its own range, a float tensor takes any int.
VALUES = [
    (["uint8", "int:300"], "uint8"),  # mode=all refuses it (beyond int32)
    (["int32", "int:1099511627776"], "int32"),  # 2**40
    (["uint64", "int:9223372036854775808"], "uint64"),  # 2**63
    (["float16", "int:18446744073709551616"], "float16"),  # 2**64
]


@pytest.mark.parametrize(("operands", "want"), VALUES)
def test_legacy_operator_converts_python_ints_through_int64(operands, want):
    assert promote_cli.promote_many(operands, policy="tensorflow", chain=True, **LEGACY) == want


@pytest.mark.parametrize(
    ("operands", "says"),
    [
        (["int8", "int:9223372036854775808"], "ValueError"),  # 2**63
        (["uint64", "int:-1"], "OverflowError"),
        (["uint64", "int:18446744073709551616"], "OverflowError"),  # 2**64
        (["complex64", "int:9223372036854775808"], "ValueError"),
    ],
)
def test_legacy_operator_refuses_ints_outside_the_conversion(operands, says):
    with pytest.raises(PromotionError, match=says):
        promote_cli.promote_many(operands, policy="tensorflow", chain=True, **LEGACY)


# (operator or function, operands, what TensorFlow 2.21 gives in legacy mode)
OPERATIONS = [
    ("+", ["int8", "int16"], "int16"),
    ("+", ["int32", "float16"], "float64"),
    ("+", ["string", "string"], "string"),
    ("!=", ["uint8", "int8"], "bool"),  # mode=all refuses: != does not promote there
    ("<", ["uint8", "int8"], "bool"),
    ("&", ["uint8", "int8"], "int16"),
    ("&", ["int", "uint8"], "uint8"),  # 1 & x: no AttributeError in legacy mode
    ("*", ["bool", "int8"], "int8"),  # mode=all: bool (the cast to int32 and back)
    ("/", ["int8", "int8"], "float32"),  # truediv's table
    ("+=", ["int8", "int16"], "int16"),
    ("add", ["int32", "float16"], "float64"),
    ("sqrt", ["int8"], "float64"),  # mode=all: float32
    ("sum", ["int8"], "int64"),  # mode=all: int32
    ("cumulative_sum", ["uint8"], "int64"),  # mode=all: int32
]


@pytest.mark.parametrize(("op", "args", "want"), OPERATIONS)
def test_legacy_operations(op, args, want):
    assert promote_cli.promote_many(args, policy="tensorflow", op=op, **LEGACY) == want


@pytest.mark.parametrize(
    ("op", "args", "rule"),
    [
        ("+", ["bool", "bool"], REFUSES_TYPE),  # AddV2 admits no bool, in every mode
        ("+", ["uint8", "P(bool)"], "operator"),  # Cannot convert True to EagerTensor of uint8
        ("+", ["string", "int8"], "operator"),  # Cast int8 to string is not supported
        ("equal", ["string", "int"], "operator"),
        ("add", ["int8", "int32*"], REFUSES_OPERAND),  # no WeakTensor
    ],
)
def test_legacy_operation_refusals_say_which_rule(op, args, rule):
    out = promote_cli.api.request("tensorflow", options=LEGACY, operands=args, op=op).outcome()
    assert out.refused and out.rule == rule, out


def test_diff_of_default_and_legacy_modes(run):
    done = run(
        "diff", "tensorflow", "tensorflow", "-O", "right:mode=legacy", "-O", "right:ml_dtypes=0.6"
    )
    assert done.stdout.splitlines()[-1] == (
        "tensorflow (left) vs tensorflow (right): 255 of 441 cells differ (21 types)"
    )


# --- against the installed framework --------------------------------------------------------

_ASK = """
import json
from promote_cli.frameworks.tensorflow import oracle
from promote_cli.operands import PYTHON, Operand, valued
from promote_cli.verify.protocol import CHAIN, OPERATION, PAIR, Question, encode

D = Operand
questions = [
    Question(PAIR, (D("int32"), D("float16"))),
    Question(PAIR, (D("bool"), Operand("int*", PYTHON))),
    Question(CHAIN, (D("uint8"), valued(300))),
    Question(CHAIN, (D("uint64"), valued(-1))),
    Question(OPERATION, (D("uint8"), D("int8")), "!=", "tf.Tensor.__ne__"),
    Question(OPERATION, (D("bool"), D("int8")), "*", "tf.Tensor.__mul__"),
]
handle = oracle.load()
print(json.dumps([encode(c) for c in oracle.answer(handle, {"mode": "legacy"}, questions)]))
"""


@pytest.mark.conformance("tensorflow")
def test_tensorflow_oracle_in_legacy_mode():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    pair, scalar, u8_300, u64_neg, ne, star = printed_by(_ASK)
    assert (pair, scalar, u8_300, ne, star) == ("float64", "int64", "uint8", "bool", "int8")
    assert u64_neg[0] == "refused" and "negative int to unsigned" in u64_neg[1]
