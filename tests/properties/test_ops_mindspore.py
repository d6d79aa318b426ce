"""MindSpore's operations (frameworks/mindspore/operations.py): five calls and each quirk, as
measured on MindSpore 2.10.0 (PyNative, CPU, ``mindspore.ops``), and the oracle that calls them in
its worker process."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from oracles import stand_in

import promote_cli
from promote_cli import api, frameworks
from promote_cli.cli import cli
from promote_cli.errors import PromotionError
from promote_cli.operands import Operand
from promote_cli.rules import NO_KERNEL, REBINDS
from promote_cli.verify import driver
from promote_cli.verify.driver import oracle
from promote_cli.verify.protocol import (
    OPERATION,
    Asks,
    Gap,
    Question,
    Refusal,
    Result,
    operand_of,
)

REFUSED = None
GAP = "no CPU kernel"  # the dtype rule's answer, but the CPU call raises


def answer(op, *args):
    """(dtype or REFUSED, whether the cell is a kernel gap) as ``promote op`` answers."""
    out = api.request("mindspore", operands=list(args), op=op).outcome()
    return out.result, out.rule == NO_KERNEL


# The five calls of tests/properties/test_ops.py, measured.
FIVE = [
    ("sqrt", ("int8",), "float32"),
    ("sum", ("uint8",), "int64"),
    ("divide", ("int32", "int32"), "float32"),
    ("mean", ("int32",), "int32"),  # MindSpore's mean keeps an integer type
    ("argmax", ("float32",), "int64"),
]


@pytest.mark.parametrize(("op", "args", "want"), FIVE, ids=[r[0] for r in FIVE])
def test_sqrt_sum_divide_mean_argmax_come_out_as_measured(op, args, want):
    assert answer(op, *args) == (want, False)


QUIRKS = [
    # (op, operands, measured dtype or REFUSED, a kernel gap?): why it is worth a row
    ("sum", ("uint16",), "uint16", False),  # only bool, signed ints and uint8 widen to int64
    ("prod", ("bool",), "int64", False),
    ("mean", ("bool",), REFUSED, False),  # "unsupported reduce operation for bool"
    ("cumulative_sum", ("bool",), REFUSED, False),
    ("abs", ("complex64",), "complex64", False),  # abs keeps the complex type
    ("real", ("complex128",), "float64", False),
    ("imag", ("int8",), "int8", False),  # imag of a real type is that type
    ("exp", ("int8",), REFUSED, False),  # Exp's type check leaves int8 out
    ("exp", ("int64",), "float32", True),  # allowed, and float32 by its rule: no CPU kernel
    ("log", ("uint16",), "uint16", True),  # log of a wide unsigned keeps it, by its rule
    ("atan2", ("int32", "int32"), "int32", True),  # atan2 of integers keeps them
    ("round", ("int8",), "int8", True),  # CPU Round: int32, int64 and floats only
    ("ceil", ("int32",), REFUSED, False),
    ("sign", ("uint8",), REFUSED, False),
    ("negative", ("uint8",), "uint8", False),
    ("add", ("bool", "bool"), "bool", True),  # ops.add has no bool kernel; + computes bool
    ("subtract", ("bool", "bool"), REFUSED, False),
    ("multiply", ("bool", "uint16"), REFUSED, False),  # Mul's promotion; add gives uint16
    ("divide", ("uint16", "uint16"), "float32", False),
    ("multiply", ("uint16", "int"), "uint16", True),  # add refuses; Mul's rule keeps uint16
    ("multiply", ("complex64", "float32"), "complex64", True),  # complex Mul: one type only
    ("multiply", ("complex64", "complex64"), "complex64", False),
    ("remainder", ("uint16", "bool"), REFUSED, False),  # its inner Mul refuses
    ("remainder", ("bool", "uint16"), "uint16", False),
    ("equal", ("int8", "int"), "bool", False),
    ("equal", ("int", "int8"), REFUSED, False),  # no Python scalar on the left
    ("equal", ("uint8", "uint16"), "bool", True),  # not converted, no mixed kernel
    ("less", ("float32", "bfloat16"), "bool", True),  # no bfloat16 comparison kernel
    ("less", ("complex64", "complex64"), "bool", True),
    ("logical_and", ("int8", "bool"), "bool", False),  # a Python bool is taken
    ("logical_and", ("int8", "int"), REFUSED, False),  # a Python int is not
    ("bitwise_left_shift", ("uint16", "int"), "uint16", False),  # add refuses this pair
    ("bitwise_left_shift", ("int32", "int64"), REFUSED, False),  # no promotion
    ("bitwise_left_shift", ("int8", "float"), REFUSED, False),
    ("matmul", ("int32", "int32"), "int32", False),
    ("matmul", ("int32", "int64"), REFUSED, False),
    ("matmul", ("float32", "float"), REFUSED, False),  # no Python scalar
    ("where", ("int", "float"), "float32", False),  # two Python scalars make a tensor
]


@pytest.mark.parametrize(
    ("op", "args", "want", "gap"), QUIRKS, ids=[f"{r[0]}-{'-'.join(r[1])}" for r in QUIRKS]
)
def test_quirks_as_measured(op, args, want, gap):
    assert answer(op, *args) == (want, gap)


# Python's operators on mindspore.Tensor, as measured (MindSpore 2.10, CPU), where they are not
# their ops function's: each Tensor method calls a primitive of its own.
OPERATORS = [
    ("+", ("bool", "bool"), "bool", False),  # Tensor.__add__ computes bool; ops.add has no kernel
    ("-", ("bool", "bool"), "bool", False),  # ops.sub refuses bool
    ("-=", ("bool", "bool"), REFUSED, False),  # ... and so does Tensor.__isub__
    ("-", ("uint32", "uint32"), "uint32", False),  # ops.sub has no uint32 kernel
    ("*", ("uint16", "int"), "uint16", False),  # ops.mul(t, 1) has no kernel here
    ("*=", ("uint16", "int"), "uint16", True),  # ... and Tensor.__imul__ is ops.mul
    ("*", ("complex64", "float"), "complex64", False),
    ("/", ("P(bool)", "bfloat16"), "bfloat16", True),  # True / t: __rtruediv__, no bfloat16
    ("%", ("uint16", "uint16"), REFUSED, False),  # Tensor.__mod__ refuses uint16/32/64
    ("%", ("bool", "bool"), "bool", True),
    ("&", ("int", "int8"), REFUSED, False),  # no __rand__
    ("<<", ("int32", "int"), REFUSED, False),  # no __lshift__ at all
    ("==", ("int", "int8"), "bool", False),  # 1 == t works, ops.equal(1, t) is refused
    ("==", ("uint16", "int"), "bool", False),
    ("==", ("int32", "complex"), "bool", False),  # Python's False, not a tensor
    ("!=", ("uint8", "uint16"), REFUSED, False),  # NotEqual promotes as add, refused here
    ("<", ("int", "uint16"), REFUSED, False),  # 1 < t is t > 1, which promotes as add
    (">", ("int", "uint16"), "bool", True),  # 1 > t is t < 1, ops.less's: no kernel
    (">", ("float32", "bfloat16"), "bool", False),  # promoted to float32, which has one
    ("~", ("int8",), "bool", False),  # ~t is logical_not
    ("+", ("bool",), "bool", False),  # +t; -t has no bool kernel
    ("+=", ("int8", "float"), "float32", False),  # a new float32 tensor, the name rebound
]


@pytest.mark.parametrize(
    ("op", "args", "want", "gap"), OPERATORS, ids=[f"{r[0]}-{'-'.join(r[1])}" for r in OPERATORS]
)
def test_operators_as_measured(op, args, want, gap):
    assert answer(op, *args) == (want, gap)


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^="])
def test_augmented_assignment_rebinds_the_name(op):
    out = api.request("mindspore", operands=["int32", "int32"], op=op).outcome()
    assert out.rule == REBINDS, out


def test_a_gap_says_which_operands_have_no_kernel():
    out = api.request("mindspore", operands=["uint8", "uint16"], op="equal").outcome()
    assert GAP in out.why
    assert "an array of {uint8} and an array of {uint16}" in out.why


def test_refusals_name_the_function():
    with pytest.raises(PromotionError, match=r"ops\.mean does not accept bool"):
        promote_cli.promote_many(["bool"], policy="mindspore", op="mean")
    with pytest.raises(PromotionError, match=r"ops\.equal refuses a Python scalar"):
        promote_cli.promote("int", "int8", policy="mindspore", op="equal")


def test_cli_answers_mindspore_operations():
    runner = CliRunner()
    done = runner.invoke(cli, ["op", "sum", "uint8", "-p", "mindspore"])
    assert (done.exit_code, done.output) == (0, "int64\n")
    done = runner.invoke(
        cli, ["table", "-p", "mindspore", "--op", "mean", "-t", "bool,int32,float16", "-f", "csv"]
    )
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[-1] == "mean(x),×,int32,float16"
    listing = runner.invoke(cli, ["ops"]).output.splitlines()
    column = listing[0].split().index("mindspore")  # its column, wherever the registry puts it
    row = next(x for x in listing if x.startswith("bitwise_invert")).split()
    assert row[column] == "ops.invert"


# verify's gap rule, without MindSpore: a missing kernel whose message names the policy's type
# is a gap, one naming another type is a mismatch.
@pytest.mark.parametrize(("named", "mismatches"), [("float32", 0), ("float64", 1), (None, 0)])
def test_verify_compares_the_type_a_missing_kernel_names(named, mismatches):
    exp = ("exp", (Operand("int64"),))
    told = {exp: Gap("TypeError: Select CPU operator[Exp] fail!", named)}
    fake = stand_in("mindspore", wrong=told, asks=Asks(operations=True))
    report = driver.verify(
        frameworks.get("mindspore"), load_oracle=lambda name: fake, operations=True
    ).ops
    assert len(report.mismatches) == mismatches
    if mismatches:
        (found,) = report.mismatches
        assert (found.op, found.promote, found.framework) == ("exp", "float32", None)


# The oracle: MindSpore itself, in its worker process (about 15 s).
@pytest.fixture(scope="module")
def worker():
    pytest.importorskip("mindspore", reason="mindspore is not installed")
    orc = oracle("mindspore")
    handle = orc.load()
    rules = frameworks.operations(frameworks.get("mindspore"))
    defaults = rules.policy.resolve_options()

    def function(op: str) -> str | None:
        return rules.rule(op, defaults).function

    def call(op: str, cell: str):
        operands = tuple(operand_of(key) for key in cell.split())
        [found] = orc.answer(
            handle,
            {},
            [Question(OPERATION, operands, op, function(op))],
        )
        return found

    yield call
    handle.close()


@pytest.mark.parametrize(
    ("op", "cell", "want"),
    [
        ("sqrt", "D(int8)", "float32"),
        ("sum", "D(uint8)", "int64"),
        ("divide", "D(int32) D(int32)", "float32"),
        ("mean", "D(int32)", "int32"),
        ("argmax", "D(float32)", "int64"),
        ("abs", "D(complex64)", "complex64"),
        ("bitwise_left_shift", "D(uint16) P(int*)", "uint16"),
    ],
)
def test_the_worker_calls_mindspore(worker, op, cell, want):
    assert worker(op, cell) == Result(want)


@pytest.mark.parametrize(
    ("op", "cell", "want"),
    [
        ("+=", "D(int32) P(float*)", Result("float32", rebound=True)),  # a new tensor
        ("*=", "D(float32) D(float64)", Result("float64", rebound=True)),
        ("==", "D(int32) P(complex*)", Result("bool")),  # Python's False
        ("~x", "D(int8)", Result("bool")),
    ],
)
def test_the_worker_applies_python_operators(worker, op, cell, want):
    assert worker(op, cell) == want


@pytest.mark.parametrize(
    ("op", "cell", "named"),
    [
        ("exp", "D(int64)", "float32"),  # from the message's output[...]
        ("round", "D(int8)", "int8"),  # from the C++ log
        ("equal", "D(uint8) D(uint16)", "bool"),
        ("add", "D(bool) D(bool)", None),  # a type check, which names no output
    ],
)
def test_the_worker_reads_the_type_a_missing_kernel_names(worker, op, cell, named):
    found = worker(op, cell)
    assert isinstance(found, Gap) and found.dtype == named
    assert found.message


# A Python int's value in an operation or operator (measured with each tensor type and 25 values
# on either side): every one converts it to a C++ long first, so one outside int64 is refused
# whatever it meets; inside int64 it is not looked at. The shift takes uint64's range as well.
@pytest.mark.parametrize(
    ("op", "args"),
    [
        # ops.mul(ops.ones((2,), ms.uint16), 2**63): RuntimeError "Unable to cast Python
        # instance of type <class 'int'> to C++ type 'long'" (without a value: no CPU kernel)
        ("multiply", ("uint16", "int:9223372036854775808")),
        # t == 2**63 on a uint16 tensor: SystemError caused by OverflowError "int too big to
        # convert" (t == 1 runs)
        ("==", ("uint16", "int:9223372036854775808")),
        # a *= -2**63 - 1, and 2**64 / t
        ("*=", ("uint8", "int:-9223372036854775809")),
        ("divide", ("int:18446744073709551616", "int8")),
        # ops.bitwise_left_shift(ops.ones((2,), ms.int8), 2**64): outside int64 and uint64
        ("bitwise_left_shift", ("int8", "int:18446744073709551616")),
    ],
)
def test_an_int_outside_int64_is_refused_by_every_operation(op, args):
    assert answer(op, *args) == (REFUSED, False)


@pytest.mark.parametrize(
    ("op", "args", "want"),
    [
        ("*", ("uint8", "int:300"), "uint8"),  # t * 300: wrapped, not checked
        ("add", ("int8", "int:-9223372036854775808"), "int8"),
        ("divide", ("int:9223372036854775807", "int8"), "float32"),
        ("add", ("float16", "float:1e+300"), "float16"),  # a float is never checked
        # ops.bitwise_left_shift(int8 tensor, 2**64 - 1) is int8: the shift reads it as uint64
        ("bitwise_left_shift", ("int8", "int:18446744073709551615"), "int8"),
        ("bitwise_left_shift", ("int:9223372036854775808", "int16"), "int16"),
    ],
)
def test_an_int_inside_int64_is_taken_and_the_shift_takes_uint64s_too(op, args, want):
    assert answer(op, *args) == (want, False)


def test_the_worker_refuses_a_tensor_operators_overflowing_int(worker):
    # t * 2**63: SystemError "<method '__mul__' of 'TensorPy' objects> returned a result with an
    # exception set", caused by OverflowError "int too big to convert": a refusal of the value
    found = worker("*", "D(uint8) int:9223372036854775808")
    assert isinstance(found, Refusal) and "int too big to convert" in found.message


def test_verify_against_mindspore_has_no_mismatch():
    pytest.importorskip("mindspore", reason="mindspore is not installed")
    report = driver.verify(frameworks.get("mindspore"), operations=True).ops
    assert report.mismatches == []
    # every function and operator (the shifts absent) on dimensioned and 0-d tensors and Python
    # scalars, with and without a Python scalar's value: 83,176 cells, 8,055 of them without a
    # CPU kernel (MindSpore 2.10.0, run here)
    assert (report.total, report.total_gaps) == (83176, 8055)
