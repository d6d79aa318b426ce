"""Beyond pairs: the two n-ary questions, valued Python scalars, NumPy's spellings, OpenVINO's
dynamic. Expected values were measured on the installed frameworks (numpy 2.4.6, jax 0.10.2,
torch 2.13.0, tensorflow 2.21, array-api-strict 2.6.1, openvino 2026.4.1, tinygrad 0.14.0)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from promote_cli import frameworks
from promote_cli.api import outcome, promote_many
from promote_cli.errors import PromotionError, UsageError
from promote_cli.notations import read_dtype
from promote_cli.operands import PYTHON, Operand, parse


def ask(ops, policy, chain=False, **options):
    out = outcome(ops, policy=policy, chain=chain, **options)
    return "refused" if out.refused else out.result


@pytest.mark.parametrize(
    ("policy", "ops", "options", "result_type", "chain", "why"),
    [
        ("numpy", ["int8", "uint8", "float16"], {}, "float16", "float32", "float16 ranks highest"),
        ("numpy", ["int16", "uint16", "float16"], {}, "float32", "float64", "f2 promotes each"),
        ("numpy", ["bool", "int", "uint8"], {}, "uint8", "int64", "bool array + 1 is int64"),
        ("numpy", ["P(bool)", "int", "uint8"], {}, "uint8", "uint8", "True + 1 is a Python int"),
        ("numpy", ["P(bool)", "P(bool)", "bool"], {}, "bool", "int64", "True + True is 2"),
        ("jax", ["P(bool)", "P(bool)", "bool"], {}, "bool", "int*", "Python adds the bools"),
        ("jax", ["P(bool)", "P(bool)", "int8"], {"strict": True}, "refused", "int8", "strict"),
        ("jax", ["uint64", "int8", "float16"], {}, "float16", "float16", "the weak flag is kept"),
        ("torch", ["int32", "S(complex128)", "bfloat16"], {}, "complex64", "complex128", "dims"),
        ("torch", ["uint8", "S(complex32)", "S(float32)"], {}, "complex64", "complex32", "0-d"),
        ("torch", ["int8", "S(float8_e4m3fn)", "float64"], {}, "float64", "refused", "f8 x f8"),
        ("tensorflow", ["uint8", "P(bool)", "int8"], {}, "int16", "refused", "True to uint8"),
        ("tensorflow", ["bool", "bool", "int8"], {}, "int8", "refused", "no bool AddV2"),
        ("array-api", ["P(bool)", "P(bool)", "int8"], {}, "refused", "int8", "Python first"),
        ("array-api", ["bool", "bool", "bool"], {}, "bool", "refused", "+ takes numbers"),
        ("openvino", ["i8", "u8", "f32"], {"promote_unsafe": True}, "float32", "float32", "fold"),
        ("tinygrad", ["int8", "float", "float16"], {}, "float16", "float16", "weak tensor"),
        ("tinygrad", ["fp8e4m3", "fp8e5m2", "bfloat16"], {}, "bfloat16", "float32", "one lub"),
        ("tinygrad", ["uint64", "int64", "fp8e5m2"], {}, "float8_e5m2", "float8_e5m2", "weak"),
        ("tinygrad", ["bool", "int", "float"], {}, "float*", "float*", "weak int, weak float"),
        ("tinygrad", ["P(bool)", "int", "uint8"], {}, "uint8", "uint8", "1 + True is 2"),
    ],
)
def test_the_two_questions_answer_as_the_framework_does(
    policy, ops, options, result_type, chain, why
):
    assert ask(ops, policy, **options) == result_type, why
    assert ask(ops, policy, chain=True, **options) == chain, why


def test_a_chain_of_python_scalars_alone_is_a_python_scalar():
    assert ask(["P(bool)", "P(bool)"], "numpy", chain=True) == "int*"
    assert ask(["int", "complex"], "torch", chain=True) == "complex*"


def test_promote_many_asks_the_chain_question_when_told():
    assert promote_many(["int8", "uint8", "float16"], policy="numpy") == "float16"
    assert promote_many(["int8", "uint8", "float16"], policy="numpy", chain=True) == "float32"


def test_a_chain_explains_each_step():
    out = outcome(["uint64", "int8", "float16"], policy="jax", chain=True)
    assert out.steps == (
        "{uint64} + {int8} -> {float*} (a weakly typed array)",
        "{float*} (a weakly typed array) + {float16} -> {float16}",
    )


@pytest.mark.parametrize(
    ("spelling", "want"),
    [
        ("int:300", Operand("int*", PYTHON, 300)),
        ("P(int:-1)", Operand("int*", PYTHON, -1)),
        ("int:0x7f", Operand("int*", PYTHON, 127)),
        ("float:1e300", Operand("float*", PYTHON, 1e300)),
        ("complex:1e300j", Operand("complex*", PYTHON, 1e300j)),
        ("bool:true", Operand("bool", PYTHON, True)),
        ("int", Operand("int*", PYTHON)),
    ],
)
def test_valued_python_scalars_are_read(spelling, want):
    assert parse(spelling, frameworks.notation("canonical")) == want


def test_a_malformed_value_is_a_usage_error():
    with pytest.raises(UsageError, match="not a Python int literal"):
        parse("int:3.5", frameworks.notation("canonical"))


@pytest.mark.parametrize(
    ("policy", "ops", "options", "reason"),
    [
        ("numpy", ["uint8", "int:300"], {}, "Python integer 300 out of bounds for uint8"),
        ("numpy", ["uint64", "int:-1"], {}, "Python integer -1 out of bounds for uint64"),
        ("numpy", ["bool", "int:9223372036854775808"], {}, "too large to convert to C long"),
        ("jax", ["float32", "int:2147483648"], {"x64": False}, "too large to convert to int32"),
        ("torch", ["float32", "int:18446744073709551616"], {}, "int too big to convert"),
        ("torch", ["bool", "int:9223372036854775808"], {}, "uint64"),
        ("tensorflow", ["int64", "int:2147483648"], {}, "too large to convert to np.int32"),
        ("array-api", ["int8", "int:128"], {}, "within the bounds of the dtype"),
    ],
)
def test_a_value_the_operation_raises_for_is_refused_with_the_frameworks_reason(
    policy, ops, options, reason
):
    for chain in (False, True):
        with pytest.raises(PromotionError, match=reason):
            promote_many(ops, policy=policy, chain=chain, **options)


@pytest.mark.parametrize(
    ("policy", "ops", "want"),
    [
        ("numpy", ["bool", "int:300"], "int64"),  # bool arrays give int64, 300 fits
        ("numpy", ["float16", "int:2147483648"], "float16"),  # inf with a warning
        ("jax", ["uint8", "int:300"], "uint8"),  # JAX wraps silently
        ("torch", ["int8", "int:9223372036854775808"], "int8"),  # a uint64 number, lower kind
        ("tensorflow", ["uint8", "int:300"], "uint8"),
        ("tinygrad", ["uint8", "int:300"], "uint8"),  # tinygrad wraps silently
        ("tinygrad", ["int:300", "uint8"], "uint8"),
        ("tinygrad", ["int32", "float:1e300"], "float*"),
        ("tinygrad", ["bool", "int:1267650600228229401496703205376"], "int*"),
    ],
)
def test_values_that_fit_or_are_not_checked_give_the_dtype(policy, ops, want):
    assert promote_many(ops, policy=policy, chain=True) == want


def test_tensorflow_refuses_a_negative_int_with_uint64_in_either_order_and_mode():
    # What a fresh process sees; TensorFlow's scalar cache can make a later call answer uint64.
    for mode in ("all", "safe"):
        assert ask(["uint64", "int:-1"], "tensorflow", chain=True, mode=mode) == "refused"
        assert ask(["int:-1", "uint64"], "tensorflow", chain=True, mode=mode) == "refused"
    assert ask(["uint64", "int:1"], "tensorflow", chain=True) == "uint64"


NUMPY = frameworks.notation("numpy")


@pytest.mark.parametrize(
    ("spelling", "want"),
    [
        ("b", "int8"),
        ("B", "uint8"),
        ("?", "bool"),
        ("h", "int16"),
        ("L", "uint64"),
        ("e", "float16"),
        ("g", "longdouble"),
        ("G", "clongdouble"),
        ("f16", "longdouble"),
        ("c8", "complex64"),
        ("c32", "clongdouble"),
        ("<f2", "float16"),
        (">i8", "int64"),
        ("|u1", "uint8"),
        ("float128", "longdouble"),
        ("complex256", "clongdouble"),
        ("intp", "int64"),
    ],
)
def test_numpy_spellings_read_as_np_dtype_reads_them(spelling, want):
    assert read_dtype(spelling, NUMPY) == want
    assert promote_many([spelling, spelling], policy="numpy") == want


@pytest.mark.parametrize(
    "spelling", ["i16", "f32", "c64", "E", "S1", "U32", "<float64", "Float64", "cfloat", "s8"]
)
def test_numpy_shaped_spellings_numpy_refuses_are_usage_errors(spelling):
    with pytest.raises(UsageError):
        read_dtype(spelling, NUMPY)
    with pytest.raises(UsageError):
        promote_many([spelling, "int8"], policy="numpy")


def test_other_notations_keep_their_reading():
    assert read_dtype("b", frameworks.notation("tensorflow")) == "bool"
    assert read_dtype("f16", frameworks.notation("openvino")) == "float16"


def test_openvino_dynamic_is_an_input_and_a_target():
    assert promote_many(["dynamic", "i8"], policy="openvino") == "dynamic"
    assert promote_many(["S(dynamic)", "f32"], policy="openvino", promote_unsafe=True) == "dynamic"
    for target in ("dynamic", "nf4", "string", "f8e8m0"):
        got = promote_many(
            ["u64", "i8"],
            policy="openvino",
            promote_unsafe=True,
            u64_integer_promotion_target=target,
        )
        assert got == read_dtype(target, frameworks.notation("openvino"))


def test_the_acceptance_commands_as_a_user_types_them():
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "promote_cli", "pair", *args, "-p", "numpy"],
            capture_output=True,
            text=True,
        )

    assert run("int8", "uint8", "float16").stdout == "float16\n"
    done = run("b", "u1")
    assert (done.stdout, done.returncode) == ("int16\n", 0)
    assert "read b as int8" in done.stderr
    assert run("f16", "f8").stdout == "longdouble\n"
    refused = run("uint8", "int:300")
    assert refused.returncode == 1
    assert "Python integer 300 out of bounds for uint8" in refused.stdout
    chain = run("int8", "uint8", "float16", "--chain", "--explain")
    assert "step 1: int8 + uint8 -> int16" in chain.stdout
    assert "step 2: int16 + float16 -> float32" in chain.stdout
    assert run("i16", "i8").returncode == 2


def test_the_tinygrad_chain_acceptance_command_as_a_user_types_it():
    # (Tensor(int8) + 1.0) + Tensor(float16) is float16 on tinygrad 0.14.0 (issue 25).
    args = ["pair", "int8", "float", "float16", "-p", "tinygrad", "--chain"]
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", *args], capture_output=True, text=True
    )
    assert (done.stdout, done.returncode) == ("float16\n", 0)
