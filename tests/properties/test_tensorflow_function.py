"""TensorFlow's ``function`` option: an operation inside ``tf.function`` (its tensors traced with
their dtype and shape, Python scalars constants of the trace) rather than eagerly. Each fact as
TensorFlow 2.21.0 gave it, eagerly and traced, in the same process (the oracle's
``asked(..., in_function=...)``); the whole measured set is ``measured/function-true/``, compared
with the rules by ``test_measured.py``."""

from __future__ import annotations

import pytest
from oracles import printed_by

import promote_cli
from promote_cli import PromotionError

EAGER, TRACED = {"function": False}, {"function": True}

# (operation, operands, what TensorFlow 2.21.0 gives eagerly, inside tf.function); None: refused
CELLS = [
    # A Python int becomes an int32 WeakTensor inside tf.function in every operator: a bool
    # tensor's * (eagerly: cast to int32 through int64) and the operators that do not promote
    # (eagerly: converted to the tensor's dtype) check it as + does.
    ("*", ["bool", "int:2147483648"], "bool", None),
    ("*", ["int:-2147483649", "bool"], "bool", None),
    ("!=", ["uint8", "int:2147483648"], "bool", None),
    ("<", ["int8", "int:4294967296"], "bool", None),
    ("&", ["int64", "int:2147483648"], "int64", None),
    ("*=", ["bool", "int:2147483648"], "bool", None),
    # ... and a float is not checked there (eagerly a bool tensor's * refuses one beyond float32)
    ("*", ["bool", "float:1e300"], None, "bool"),
    # A Python bool converts to every dtype inside tf.function ("Cannot convert True to
    # EagerTensor" is the eager conversion's)
    ("==", ["uint8", "P(bool)"], None, "bool"),
    ("+", ["int8", "P(bool)"], None, "int8"),
    ("*", ["P(bool)", "complex64"], None, "complex64"),
    ("!=", ["bfloat16", "bool:true"], None, "bool"),
    # 0 - x of a uint8/uint16 tensor is Neg inside tf.function (no unsigned Neg): 256 is 0
    ("-", ["int:256", "uint8"], "uint8", None),
    ("subtract", ["bool:false", "uint16"], "uint16", None),
    ("-", ["bool:false", "uint32"], None, "uint32"),  # uint32 takes it (eagerly: no bool)
    # What does not change: + checks an int as an int32 both ways; the functions promote alike
    ("+", ["uint8", "int:2147483648"], None, None),
    ("+", ["int32", "float16"], "float16", "float16"),
    ("add", ["int32", "float16"], "float64", "float64"),
    ("//", ["uint8", "int:256"], None, None),  # 256 is 0 in uint8: a zero divisor both ways
]


@pytest.mark.parametrize(("op", "operands", "eager", "traced"), CELLS)
def test_each_cell_as_tensorflow_gives_it_eagerly_and_inside_tf_function(
    op, operands, eager, traced
):
    for opts, want in ((EAGER, eager), (TRACED, traced)):
        if want is None:
            with pytest.raises(PromotionError):
                promote_cli.promote_many(operands, policy="tensorflow", op=op, **opts)
        else:
            got = promote_cli.promote_many(operands, policy="tensorflow", op=op, **opts)
            assert got == want, f"{op} {operands} under {opts}"


def test_logical_and_of_a_string_and_a_python_scalar_is_declined_inside_tf_function():
    # bool with False or 1j (x and False is folded), refused with True: the pair sees no value
    with pytest.raises(PromotionError, match=r"not modelled: inside tf\.function"):
        promote_cli.promote_many(
            ["string", "bool:false"], policy="tensorflow", op="logical_and", **TRACED
        )
    with pytest.raises(PromotionError, match="cannot cast"):
        promote_cli.promote_many(
            ["string", "bool:false"], policy="tensorflow", op="logical_and", **EAGER
        )


def test_function_under_legacy_mode_is_not_modelled_and_says_so():
    with pytest.raises(PromotionError, match="not modelled under mode=legacy") as refused:
        promote_cli.promote("int8", "int16", policy="tensorflow", mode="legacy", function=True)
    assert refused.value.rule == "declined"  # verify counts it declined, never compared


# --- against the installed framework --------------------------------------------------------

_ASK = """
import json
from promote_cli.frameworks.tensorflow import oracle
from promote_cli.operands import PYTHON, Operand, valued
from promote_cli.verify.protocol import OPERATION, Question, encode

def operand(t):
    if ":" in t:
        kind, _, text = t.partition(":")
        return valued({"int": int, "float": float}[kind](text))
    return Operand(t[2:-1], PYTHON) if t.startswith("P(") else Operand(t)
cells = [
    ("*", ("bool", "int:2147483648")), ("==", ("uint8", "P(bool)")),
    ("floor_divide", ("complex64", "complex64")), ("matmul", ("uint8", "uint8")),
    ("+=", ("int8", "int16")), ("add", ("int32", "float16")),
]
def function(op):
    return "tnp." + op if op[0].isalpha() else "tf.Tensor"
questions = [Question(OPERATION, tuple(map(operand, xs)), op, function(op)) for op, xs in cells]
handle = oracle.load()
print(json.dumps([[encode(c) for c in oracle.asked(handle, {"mode": "all"}, questions, f)]
                  for f in (False, True)]))
"""


@pytest.mark.conformance("tensorflow")
def test_the_oracle_asks_each_cell_eagerly_and_inside_tf_function():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    eager, traced = printed_by(_ASK)
    assert eager[0] == "bool" and traced[0][0] == "refused" and "int32" in traced[0][1]
    assert eager[1][0] == "refused" and traced[1] == "bool"
    # no CPU kernel reads as a gap both ways ("No OpKernel was registered" when traced), and
    # where no device has one (MatMul of uint8) as a refusal
    assert eager[2][0] == traced[2][0] == "gap"
    assert eager[3][0] == traced[3][0] == "refused"
    assert eager[4] == traced[4] == ["rebound", "int16"]
    assert eager[5] == traced[5] == "float64"
