"""NumPy's legacy promotion (``-O promotion=legacy``, NumPy <= 1.26's value-based casting) and the
operands it needs: ``N(t)`` NumPy scalars and 0-d arrays holding a value (``S(int64)=300``).

The legacy answers here are NumPy 1.26.4's, measured in its own environment (the checked-in
set ``measured/promotion-legacy/``, compared cell by cell in test_measured.py); the NEP 50
answers for the new operands are asked of the installed NumPy 2 below."""

from __future__ import annotations

import itertools

import pytest

from promote_cli import frameworks
from promote_cli.errors import UsageError
from promote_cli.operands import NUMPY_SCALAR, PYTHON, ZERO_D, Operand, label, parse
from promote_cli.shared import numpy_legacy as legacy
from promote_cli.verify import measured
from promote_cli.verify.protocol import Unobservable, operand_key, operand_of
from promote_cli.walk import answer

LEGACY = {"promotion": "legacy"}
CANONICAL = frameworks.notation("canonical")


def pair(run, *args):
    result = run("pair", *args)
    return result.exit_code, (result.stdout + result.stderr).strip()


# --- the acceptance facts (NumPy 1.26.4 legacy vs NumPy 2) ------------------------------


def test_uint8_with_python_int_300_is_uint16_legacy_and_refused_as_numpy_2_raises(run):
    assert pair(run, "uint8", "int:300", "-p", "numpy", "-O", "promotion=legacy") == (0, "uint16")
    code, said = pair(run, "uint8", "int:300", "-p", "numpy")
    assert code == 1
    assert "Python integer 300 out of bounds for uint8" in said


def test_float32_with_a_numpy_float64_scalar_keeps_float32_only_under_legacy(run):
    assert pair(run, "float32", "N(float64)", "-p", "numpy", "-O", "promotion=legacy") == (
        0,
        "float32",
    )
    assert pair(run, "float32", "N(float64)", "-p", "numpy") == (0, "float64")


def test_int8_with_a_0d_int64_holding_300_is_int16_legacy_and_int64_in_numpy_2(run):
    args = ("int8", "S(int64)=300", "-p", "numpy")
    assert pair(run, *args, "-O", "promotion=legacy") == (0, "int16")
    assert pair(run, *args) == (0, "int64")


@pytest.mark.parametrize(
    ("operands", "legacy"),
    [
        (("int8", "int:100"), "int8"),  # a small unsigned meets a signed type as int8
        (("int8", "int:200"), "int16"),  # uint8, not small: int8 x uint8
        (("uint8", "int:-1"), "int16"),  # int8 x uint8
        (("int8", "float"), "float64"),  # a float scalar outranks integer arrays
        (("float16", "float:70000.0"), "float32"),  # beyond (-65000, 65000): float32
        (("float16", "float:inf"), "float16"),  # not finite: float16
        (("float32", "complex"), "complex64"),  # float and complex are one kind
        (("int64", "int:18446744073709551615"), "float64"),  # a uint64 array: int64 x uint64
    ],
)
def test_legacy_values_as_numpy_1_26_casts_them(operands, legacy):
    assert frameworks.get("numpy").promote(*map(_read, operands), LEGACY).result == legacy


# NumPy 1.26.4, measured (np.result_type(np.ones(3, a), s) and np.ones(3, a) + s agree on
# each): a 0-d array or NumPy scalar counts as np.min_scalar_type of the value its dtype holds.
@pytest.mark.parametrize(
    ("array", "scalar", "legacy"),
    [
        # a long double that float64 holds counts as float64, not longdouble
        ("float16", "N(longdouble)=1e300", "float64"),
        ("float32", "S(longdouble)=1e300", "float64"),
        ("float16", "N(longdouble)=3.5e38", "float64"),
        ("float64", "S(longdouble)=-1e300", "float64"),
        ("float64", "N(longdouble)=1.7e308", "longdouble"),  # (-1.7e308, 1.7e308) is open
        ("float32", "N(clongdouble)=1e300", "complex128"),
        # the value as its dtype holds it: np.float32(3.5e38) is inf, np.int8(300) is 44
        ("float16", "N(float32)=3.5e38", "float16"),
        ("float16", "S(float32)=3.4028235e38", "float32"),  # float32's largest, finite
        ("int8", "N(int8)=300", "int8"),
        ("int8", "S(uint8)=-1", "int16"),  # 255
        ("int8", "N(int16)=70000", "int16"),  # 4464
    ],
)
def test_a_held_value_counts_as_its_dtype_holds_it(array, scalar, legacy):
    numpy = frameworks.get("numpy")
    ops = [_read(array), _read(scalar)]
    assert numpy.promote(*ops, LEGACY).result == legacy
    assert numpy.chain(ops, _opts(LEGACY)).result == legacy
    assert numpy.chain(ops[::-1], _opts(LEGACY)).result == legacy


def test_a_python_int_numpy_1_makes_an_object_array_is_refused_under_legacy():
    out = frameworks.get("numpy").promote(_read("int8"), _read("int:18446744073709551616"), LEGACY)
    assert out.result is None
    assert "object array" in out.why


def test_the_n_ary_question_keeps_the_small_unsigned_mark_through_the_dtypes():
    # np.result_type(uint32, np.array(1, int16), int8) under legacy: int32 (measured).
    ops = [_read(x) for x in ("uint32", "S(int16)", "int8")]
    assert frameworks.get("numpy").result_type(ops, _opts(LEGACY)).result == "int32"


def test_a_chain_of_scalars_carries_a_numpy_scalar_with_its_value():
    # (np.int64(200) + np.int64(100)) + int8_array: np.int64(300) is uint16 by value: int16.
    numpy = frameworks.get("numpy")
    ops = [_read(x) for x in ("N(int64)=200", "N(int64)=100", "int8")]
    assert numpy.chain(ops, _opts(LEGACY)).result == "int16"
    small = [_read(x) for x in ("N(int64)=20", "N(int64)=10", "int8")]
    assert numpy.chain(small, _opts(LEGACY)).result == "int8"


def test_ml_dtypes_are_not_answered_under_legacy(run):
    code, said = pair(
        run, "bfloat16", "int8", "-p", "numpy", "-O", "promotion=legacy", "-O", "ml_dtypes=true"
    )
    assert code == 1
    assert "not measured under promotion=legacy" in said


def test_legacy_operations_call_numpy_1_26s_functions(run):
    result = run("op", "pow", "int8", "int8", "-p", "numpy", "-O", "promotion=legacy")
    assert result.exit_code == 0
    assert result.stdout.strip() == "int8"
    # NumPy 1.26's floor takes an integer to the float loop it fits (NumPy 2 keeps int8).
    floor = ("op", "floor", "uint16", "-p", "numpy")
    assert run(*floor, "-O", "promotion=legacy").stdout.strip() == "float32"
    assert run(*floor).stdout.strip() == "uint16"


# --- the operands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "operand", "printed"),
    [
        ("N(f8)", Operand("float64", NUMPY_SCALAR), "N(float64)"),
        ("S(int64)=300", Operand("int64", ZERO_D, 300), "S(int64)=300"),
        ("N(int64) = -1", Operand("int64", NUMPY_SCALAR, -1), "N(int64)=-1"),
        ("N(float32)=1e39", Operand("float32", NUMPY_SCALAR, 1e39), "N(float32)=1e+39"),
        ("S(bool)=true", Operand("bool", ZERO_D, True), "S(bool)=true"),
    ],
)
def test_numpy_scalars_and_held_values_are_read_printed_and_keyed_back(spelling, operand, printed):
    assert parse(spelling, CANONICAL) == operand
    assert label(operand, CANONICAL, plain=True) == printed
    assert operand_of(operand_key(operand)) == operand


@pytest.mark.parametrize(
    ("spelling", "message"),
    [
        ("D(int8)=3", r"only a 0-d array S\(t\)=VALUE or a NumPy scalar N\(t\)=VALUE holds"),
        ("S(int8)=abc", "is not a Python int literal"),
    ],
)
def test_a_value_where_none_is_held_is_a_usage_error(spelling, message):
    with pytest.raises(UsageError, match=message):
        parse(spelling, CANONICAL)


def test_a_framework_without_numpy_scalars_refuses_them_in_one_line(run):
    code, said = pair(run, "int8", "N(float64)", "-p", "jax")
    assert code == 1
    assert said.count("\n") == 0
    assert "JAX has no NumPy scalars (N(float64))" in said


def test_a_framework_that_ignores_values_refuses_a_held_value(run):
    code, said = pair(run, "int8", "S(int64)=300", "-p", "torch")
    assert code == 1
    assert "does not look at a 0-d array's value: write S(int64)" in said


def test_numpy_2_refuses_a_held_integer_its_dtype_cannot_hold(run):
    code, said = pair(run, "int8", "S(int8)=300", "-p", "numpy")
    assert code == 1
    assert "Python integer 300 out of bounds for int8" in said


def test_weak_enumeration_is_unchanged_and_legacy_adds_0d_arrays_and_numpy_scalars():
    numpy = frameworks.get("numpy")
    weak = numpy.operands({"ml_dtypes": False, "promotion": "weak"})
    legacy = numpy.operands({"ml_dtypes": False, "promotion": "legacy"})
    assert {op.category for op in weak} == {"D", PYTHON}
    assert len(weak) == 20 and len(legacy) == 16 * 3 + 4


def test_verify_enumerates_legacy_only_when_pinned():
    from promote_cli.verify.cases import settings

    numpy = frameworks.get("numpy")
    assert [s["promotion"] for s in settings(numpy)] == ["weak", "weak"]
    # ml_dtypes is not measured under legacy: the one setting is without it.
    assert settings(numpy, {"promotion": "legacy"}) == [{"ml_dtypes": False, "promotion": "legacy"}]


# --- NEP 50's view of the new operands, asked of the installed NumPy 2 ---------------------------


def test_numpy_2_treats_numpy_scalars_and_0d_arrays_as_arrays_of_their_dtype():
    np = pytest.importorskip("numpy")
    if np.__version__.startswith("1."):
        pytest.skip(f"NumPy {np.__version__} is not NumPy 2")
    numpy = frameworks.get("numpy")
    opts = _opts({})
    types = [t for t in numpy.universe]
    made = {
        "D": lambda t: np.zeros(2, t),
        "S": lambda t: np.ones((), t),
        "N": lambda t: np.ones((), t)[()],
    }
    wrong = []
    for (ca, ta), (cb, tb) in itertools.product(itertools.product("DSN", types), repeat=2):
        a, b = made[ca](np.dtype(ta)), made[cb](np.dtype(tb))
        want = _name(np, (a + b).dtype)
        mine = numpy.chain([Operand(ta, ca), Operand(tb, cb)], opts).result
        if want != mine:
            wrong.append(f"{ca}({ta}) + {cb}({tb}): numpy {want}, policy {mine}")
    assert wrong == []


def _name(np, dt):
    return {np.dtype(np.longdouble): "longdouble", np.dtype(np.clongdouble): "clongdouble"}.get(
        dt, dt.name
    )


def _read(text: str) -> Operand:
    return parse(text, frameworks.notation("numpy"))


def _opts(given):
    return frameworks.get("numpy").resolve_options(given)


def test_an_unknown_promotion_is_a_usage_error():
    with pytest.raises(UsageError, match="option promotion takes one of weak, legacy"):
        _opts({"promotion": "nep50"})


def test_the_cells_that_crash_numpy_1_26_are_exactly_those_measured_unobservable():
    # np.ones(2, np.longdouble) & 2**64 (and | ^ << >>, either side, 2**64 and -2**63 - 1, long
    # double and complex long double) killed NumPy 1.26.4's process with SIGSEGV: the oracle
    # does not call them, so the checked-in set holds them as unobservable, and promote refuses
    # them naming the crash.
    found = measured.read(frameworks.entry("numpy"), "operations", "promotion-legacy")
    assert found is not None
    unobservable = {
        (q.operation, q.operands) for _, q, cell in found.cells if isinstance(cell, Unobservable)
    }
    crashing = {
        (q.operation, q.operands)
        for _, q, _ in found.cells
        if legacy.crashes(q.operation, q.operands)
    }
    assert unobservable == crashing
    assert len(crashing) == 96
    ops = frameworks.operations(frameworks.get("numpy"))
    for operation, operands in crashing:
        out, _ = answer(ops, operation, operands, {"ml_dtypes": False, **LEGACY})
        assert out.refused and "SIGSEGV" in out.why, (operation, operands)
