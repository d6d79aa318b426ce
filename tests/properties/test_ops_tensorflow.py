"""TensorFlow's operators (frameworks/tensorflow/operations.py, ``OPERATORS``): ``tf.Tensor``'s
own methods with NumPy behaviour on, each fact as measured on TensorFlow 2.21 (both modes), and
the oracle applying Python's operator to real tensors (in a process of its own: enabling NumPy
behaviour cannot be undone)."""

from __future__ import annotations

import pytest
from oracles import printed_by

import promote_cli
from promote_cli.rules import ABSENT, NO_KERNEL, REBINDS, REFUSES_TYPE, SAME_DTYPE

# (operator, operands, options, what TensorFlow 2.21 gives), each observed on the real framework.
OPERATORS = [
    # A bool tensor's * casts both operands to int32 and the product back to bool.
    ("*", ["bool", "int8"], {}, "bool"),
    ("*", ["int8", "bool"], {}, "bool"),
    ("*", ["bool", "float64"], {}, "bool"),
    ("*", ["bool", "float"], {}, "bool"),
    # The operators promote with the tensorflow policy, not tnp's np.result_type.
    ("+", ["int32", "float16"], {}, "float16"),  # tnp.add gives float64
    ("+", ["int8", "int16"], {"mode": "safe"}, "int16"),
    ("+", ["bool", "int"], {}, "int32*"),  # a weak result stays weak
    ("-", ["int", "int8"], {}, "int8"),  # 1 - x: the reflected method
    ("/", ["int32", "int32"], {}, "float64"),  # _TRUEDIV_TABLE
    ("/", ["int16", "int16"], {}, "float32"),
    ("/", ["bool", "int"], {}, "float64*"),  # bool + 1 is int32*, divided: float64*
    ("==", ["int8", "int16"], {}, "bool"),  # == promotes ...
    ("==", ["int32", "P(bool)"], {}, "bool"),
    ("<", ["int8", "int"], {}, "bool"),  # ... the orderings convert a Python scalar
    ("!=", ["float16", "float"], {}, "bool"),
    ("&", ["int8", "int"], {}, "int8"),  # x & 1: the tensor's dtype
    ("&", ["bool", "bool"], {}, "bool"),  # logical_and
    ("^", ["uint64", "P(bool)"], {}, "uint64"),
    ("+x", ["bool"], {}, "bool"),  # NumPy behaviour's __pos__: the tensor itself
    ("+x", ["string"], {}, "string"),
    ("-x", ["int8"], {}, "int8"),
    ("@", ["int32", "float16"], {}, "float16"),
    # a += b rebinds the name to a + b's tensor, whatever its dtype
    ("+=", ["int8", "int16"], {}, "int16"),
    ("*=", ["bool", "int8"], {}, "bool"),
]


@pytest.mark.parametrize(("op", "args", "opts", "want"), OPERATORS)
def test_tensorflow_operators(op, args, opts, want):
    assert promote_cli.promote_many(args, policy="tensorflow", op=op, **opts) == want


@pytest.mark.parametrize(
    ("op", "args", "opts", "rule"),
    [
        # "Cannot convert True to EagerTensor of dtype uint8", in every operator
        ("==", ["uint8", "P(bool)"], {}, "operator"),
        ("*", ["int16", "P(bool)"], {}, "operator"),
        ("+", ["int32", "float16"], {"mode": "safe"}, "safe-mode"),
        ("+", ["bool", "bool"], {}, REFUSES_TYPE),  # AddV2 admits no bool
        ("/", ["bool", "bool"], {}, REFUSES_TYPE),  # _TRUEDIV_TABLE has no bool
        ("//", ["bool", "bool"], {}, REFUSES_TYPE),  # FloorDiv neither (bool // int8 runs)
        # != and the orderings do not promote: one dtype, or a Python scalar converted to it
        ("!=", ["uint8", "int8"], {}, SAME_DTYPE),
        ("<", ["int32", "int64*"], {}, SAME_DTYPE),  # a WeakTensor too
        ("<", ["int8", "float"], {}, "conversion"),  # 1.0 converts to no integer
        ("!=", ["bool", "int"], {}, "conversion"),  # 1 to no bool
        ("<", ["bool", "bool"], {}, REFUSES_TYPE),  # Less admits no bool
        ("&", ["int8", "int16"], {}, SAME_DTYPE),
        ("&", ["int", "int8"], {}, "operator"),  # and_ reads the Python int's .dtype
        ("&", ["float32", "float32"], {}, REFUSES_TYPE),
        ("<<", ["int8", "int8"], {}, ABSENT),  # tf.Tensor has no __lshift__
        (">>=", ["int8", "int8"], {}, ABSENT),
    ],
)
def test_tensorflow_operator_refusals_say_which_rule(op, args, opts, rule):
    out = promote_cli.api.request("tensorflow", options=opts, operands=args, op=op).outcome()
    assert out.refused and out.rule == rule, out


def test_augmented_assignment_rebinds_the_name():
    out = promote_cli.api.request("tensorflow", operands=["int8", "int16"], op="+=").outcome()
    assert (out.result, out.rule) == ("int16", REBINDS), out


def test_floor_division_of_complex_is_the_kernel_gap_of_floordiv():
    out = promote_cli.api.request("tensorflow", operands=["complex64", "int"], op="//").outcome()
    assert (out.result, out.rule) == ("complex64", NO_KERNEL), out


def test_op_star_of_bool_and_int8_answers_what_a_tensors_star_gives(run):
    # The acceptance test: bool_tensor * int8_tensor is a bool tensor.
    done = run("op", "*", "bool", "int8", "-p", "tensorflow")
    assert (done.exit_code, done.stdout) == (0, "b\n")


# --- against the installed framework --------------------------------------------------------

_ASK = """
import json, sys
from promote_cli.frameworks.tensorflow import oracle
from promote_cli.operands import PYTHON, Operand
from promote_cli.verify.protocol import OPERATION, Question, encode

cells = [
    ("*", ("bool", "int8")), ("==", ("uint8", "P(bool)")), ("+", ("int32", "float16")),
    ("!=", ("uint8", "int8")), ("&", ("int*", "int8")), ("+=", ("int8", "int16")),
    ("@", ("int32", "float16")), ("+x", ("bool",)),
]
def operand(t):
    return Operand(t[2:-1], PYTHON) if t.startswith("P(") else (
        Operand(t, PYTHON) if t.endswith("*") else Operand(t))
questions = [Question(OPERATION, tuple(map(operand, xs)), op, "tf.Tensor") for op, xs in cells]
handle = oracle.load()
print(json.dumps([encode(c) for c in oracle.answer(handle, {"mode": "all"}, questions)]))
"""


@pytest.mark.conformance("tensorflow")
def test_tensorflow_oracle_applies_pythons_operators_to_tensors():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    star, eq, plus, ne, amp, iadd, matmul, pos = printed_by(_ASK)
    assert (star, plus, matmul, pos) == ("bool", "float16", "float16", "bool")
    assert eq[0] == "refused" and "Cannot convert True" in eq[1]
    assert ne[0] == "refused" and "NotEqual" in ne[1]
    assert amp[0] == "refused" and "AttributeError" in amp[1]
    assert iadd == ["rebound", "int16"]  # a += b: a new tensor, bound to the name
