"""A Python scalar's value in an operation or an operator (``promote op + uint8 int:300``): what
the framework does with it, per operation. Each expected value below was observed on the real
framework (numpy 2.4.6, torch 2.13.0, array-api-strict 2.6.1, mlx 0.32.4: the call in the
comment); every
valued cell is also compared with the checked-in measurements by
``tests/measured/test_measured.py``."""

from __future__ import annotations

import sys

import pytest

from promote_cli import promote
from promote_cli.errors import PromotionError


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # np.ones(2, np.uint8) + 300: OverflowError "Python integer 300 out of bounds for uint8"
        (("+", "uint8", "int:300", "-p", "numpy"), "OverflowError"),
        (("add", "uint8", "int:300", "-p", "numpy"), "OverflowError"),
        # a = np.ones(2, np.uint8); a += 300: the same OverflowError
        (("+=", "uint8", "int:300", "-p", "numpy"), "OverflowError"),
        # keras.ops.add(np.ones(2, np.uint8), 300) under KERAS_BACKEND=numpy: OverflowError
        (("add", "uint8", "int:300", "-p", "keras", "-O", "backend=numpy"), "OverflowError"),
        # np.ones(2, np.int8) ** -1: ValueError, integer powers take no negative exponent
        (("**", "int8", "int:-1", "-p", "numpy"), "Integers to negative integer powers"),
        (("pow", "bool", "int:-1", "-p", "numpy"), "Integers to negative integer powers"),
        # np.logical_and(np.ones(2, np.float32), 2**63): "Python int too large to convert to
        # C long", though the array is a float
        (("logical_and", "float32", "int:9223372036854775808", "-p", "numpy"), "int64"),
        # torch.ones(2, dtype=torch.uint8) // 256: 256 wraps to 0 in uint8: ZeroDivisionError
        (("//", "uint8", "int:256", "-p", "torch"), "ZeroDivisionError"),
        (("remainder", "int16", "int:2147483648", "-p", "torch"), "ZeroDivisionError"),
        # torch.ones(2, dtype=torch.uint8) ** 300: "value cannot be converted to type uint8_t
        # without overflow"; ** -1: "Integers to negative integer powers are not allowed"
        (("**", "uint8", "int:300", "-p", "torch"), "cannot be converted"),
        (("**", "int64", "int:-1", "-p", "torch"), "Integers to negative integer powers"),
        # torch.ones(2, dtype=torch.bool) / 2**63: bool and uint64 do not promote
        (("/", "bool", "int:9223372036854775808", "-p", "torch"), "uint64"),
        # xp.bitwise_left_shift(xp.ones(2, dtype=xp.int8), -1): "only defined for x2 >= 0"
        (("bitwise_left_shift", "int8", "int:-1", "-p", "array-api"), "x2 >= 0"),
        # xp.pow(xp.ones(2, dtype=xp.int16), -1): ValueError
        (("pow", "int16", "int:-1", "-p", "array-api"), "Integers to negative integer powers"),
        # mx.ones((2,), mx.uint8) * 300: "Converting 300 to uint8 would result in overflow"
        (("*", "uint8", "int:300", "-p", "mlx"), "would result in overflow"),
        # mx.logical_and(mx.ones((2,), mx.float32), 2**63): RuntimeError std::bad_cast
        (("logical_and", "float32", "int:9223372036854775808", "-p", "mlx"), "int64"),
    ],
)
def test_a_value_the_operation_refuses_is_refused_with_the_frameworks_reason(run, args, want):
    done = run("op", *args)
    assert done.exit_code == 1, done.output
    assert done.output.startswith("refused:") and want in done.output


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # np.ones(2, np.uint8) == 300 -> all False, a bool array: no OverflowError
        (("==", "uint8", "int:300", "-p", "numpy"), "bool"),
        (("less", "int:-1", "uint8", "-p", "numpy"), "bool"),
        (("equal", "int8", "int:18446744073709551616", "-p", "numpy"), "bool"),
        # np.logical_and(np.ones(2, np.uint8), 300) -> bool
        (("logical_and", "uint8", "int:300", "-p", "numpy"), "bool"),
        # np.divide(np.ones(2, bool), 2**63) -> float64 (np.add raises OverflowError)
        (("divide", "bool", "int:9223372036854775808", "-p", "numpy"), "float64"),
        # np.ones(2, np.float32) ** -1 -> float32
        (("**", "float32", "int:-1", "-p", "numpy"), "float32"),
        # torch.ones(2, dtype=torch.uint8) + 256 -> uint8 (wrapped, no error)
        (("+", "uint8", "int:256", "-p", "torch"), "uint8"),
        # torch.ones(2, dtype=torch.uint8) // 255 -> uint8
        (("//", "uint8", "int:255", "-p", "torch"), "uint8"),
        # 2**63 / torch.ones(2, dtype=torch.bool): the reciprocal (float32) times 2**63
        (("/", "int:9223372036854775808", "bool", "-p", "torch"), "float32"),
        # torch.ones(2, dtype=torch.float32) ** 2**63 -> float32
        (("**", "float32", "int:9223372036854775808", "-p", "torch"), "float32"),
        # xp.ones(2, dtype=xp.int8) << -1 -> int8: the operator does not check the shift
        (("<<", "int8", "int:-1", "-p", "array-api"), "int8"),
        # mx.logical_and(mx.ones((2,), mx.uint8), 300) -> bool
        (("logical_and", "uint8", "int:300", "-p", "mlx"), "bool"),
    ],
)
def test_a_value_the_operation_takes_gives_its_type(run, args, want):
    done = run("op", *args)
    assert done.exit_code == 0, done.output
    assert done.output.strip() == want


def test_the_python_api_takes_values_in_operations():
    assert promote("uint8", "int:300", policy="numpy", op="equal") == "bool"
    with pytest.raises(PromotionError, match="OverflowError"):
        promote("uint8", "int:300", policy="numpy", op="multiply")


def test_explain_names_the_value_step(run):
    done = run("op", "//", "uint8", "int:256", "-p", "torch", "--explain")
    last = done.output.splitlines()[-1]
    assert last.startswith("step: value (any, wrapped_divisor): ")


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # NumPy 1.26.4 (promotion=legacy), each call as run there on np.ones(2, t):
        # u8 * 300 is uint16 (np.multiply takes np.result_type, value-based)
        (("*", "uint8", "int:300"), "uint16"),
        # u8 // 300, u8 % 300, u8 << 300 are int16: their loop search meets 300 as int16
        (("//", "uint8", "int:300"), "int16"),
        (("remainder", "uint8", "int:300"), "int16"),
        (("<<", "uint8", "int:300"), "int16"),
        # a = u8; a += 300 stays uint8 in place (uint16 cast back same_kind)
        (("+=", "uint8", "int:300"), "uint8"),
        # np.ones(2, np.uint64) ** -1 is float64: the float loop takes a negative exponent
        (("**", "uint64", "int:-1"), "float64"),
        # np.arctan2(u8, -1) is float16: -1 is int8, which float16's loop takes
        (("atan2", "uint8", "int:-1"), "float16"),
        # u8 == 2**64 compares an object array in Python: bool
        (("==", "uint8", "int:18446744073709551616"), "bool"),
        # u8 / 300 is float64; np.ones(2, np.float16) * 70000.0 is float32
        (("/", "uint8", "int:300"), "float64"),
        (("*", "float16", "float:70000.0"), "float32"),
        # np.logical_and(u8, 2**63) is bool (2**63 is a uint64 array there)
        (("logical_and", "uint8", "int:9223372036854775808"), "bool"),
    ],
)
def test_numpy_1_26s_operations_take_a_value_as_measured(run, args, want):
    done = run("op", *args, "-p", "numpy", "-O", "promotion=legacy")
    assert done.exit_code == 0, done.output
    assert done.output.strip() == want


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # a = u8; a //= 300: UFuncTypeError, int16 output cast to uint8 under 'same_kind'
        (("//=", "uint8", "int:300"), "same_kind"),
        # np.ones(2, np.int8) ** -1: ValueError in the int8 loop
        (("**", "int8", "int:-1"), "Integers to negative integer powers"),
        # np.ones(2, np.complex64) < 2**64: TypeError, Python orders no complex and int
        (("<", "complex64", "int:18446744073709551616"), "'<' not supported"),
        # u8 * 2**64 is an object array, not a number type
        (("*", "uint8", "int:18446744073709551616"), "object array"),
        # np.ones(2, np.longdouble) & 2**64 crashes NumPy 1.26.4's process (SIGSEGV)
        (("&", "longdouble", "int:18446744073709551616"), "SIGSEGV"),
        ((">>=", "clongdouble", "int:-9223372036854775809"), "SIGSEGV"),
    ],
)
def test_numpy_1_26s_operations_refuse_a_value_as_measured(run, args, want):
    done = run("op", *args, "-p", "numpy", "-O", "promotion=legacy")
    assert done.exit_code == 1, done.output
    assert want in done.output
    assert len(done.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # jnp.ones(2, jnp.uint8) + 2**31 without jax_enable_x64: OverflowError "An overflow was
        # encountered while parsing an argument to a jitted computation" (int32, JAX's default)
        (("+", "uint8", "int:2147483648", "-p", "jax", "-O", "x64=false"), "OverflowError"),
        (("==", "uint8", "int:2147483648", "-p", "jax", "-O", "x64=false"), "OverflowError"),
        # 2**40 ** jnp.ones(2, jnp.int8) without x64: the base is converted, OverflowError
        (("**", "int:1099511627776", "int8", "-p", "jax", "-O", "x64=false"), "OverflowError"),
        # jnp.ones(2, jnp.int8) ** -1: TypeError "Integers cannot be raised to negative powers,
        # got integer_pow(int8[2], -1)"; a bool base is made int32 first
        (("**", "int8", "int:-1", "-p", "jax"), "Integers cannot be raised to negative powers"),
        (("pow", "bool", "int:-1", "-p", "jax"), "integer_pow(int32, -1)"),
        (("**=", "uint8", "int:-300", "-p", "jax"), "Integers cannot be raised"),
    ],
)
def test_a_value_jax_refuses_is_refused_with_its_reason(run, args, want):
    done = run("op", *args)
    assert done.exit_code == 1, done.output
    assert done.output.startswith("refused:") and want in done.output


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # jnp.ones(2, jnp.uint8) + 300 -> uint8: JAX wraps, it never checks the array's range
        (("+", "uint8", "int:300", "-p", "jax"), "u1 (uint8)"),
        # jnp.ones(2, jnp.int8) ** 2**64 -> int8, even without x64: lax.integer_pow takes the
        # Python int exponent unconverted
        (("**", "int8", "int:18446744073709551616", "-p", "jax", "-O", "x64=false"), "i1 (int8)"),
        # jnp.ones(2, jnp.float16) ** -1 -> float16
        (("**", "float16", "int:-1", "-p", "jax"), "f2"),
        # jnp.ones(2, jnp.int8) // 2**40 -> int8 with x64 (it fits int64)
        (("//", "int8", "int:1099511627776", "-p", "jax"), "i1 (int8)"),
    ],
)
def test_a_value_jax_takes_gives_its_type(run, args, want):
    done = run("op", *args)
    assert done.exit_code == 0, done.output
    assert done.output.strip() == want


# --- NumPy 2: a Python int beyond float64's range, and beyond Python's 4,300 digits ----------

# 2 * int(max float64), the int of NumPy's own test (test_nep50_promotions.py); the smallest
# int Python's float() refuses (2**1024 - 2**970, halfway to 2**1024, rounds to it); and ints
# of 4,300 and 4,301 decimal digits (Python writes at most 4,300 at once).
TWICE_MAX = 2 * int(sys.float_info.max)
FLOOR = 2**1024 - 2**970
DIGITS_4300 = "9" * 4300
DIGITS_4301 = "9" * 4301
OVERFLOW = "NumPy raises OverflowError: int too large to convert to float"
LIMIT = "NumPy raises ValueError: Exceeds the limit (4300 digits)"


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # np.float64(1) + 2 * int(max float64): OverflowError "int too large to convert to
        # float" (promote answered float64); the same for every float and complex dtype
        (("+", "N(float64)", f"int:{TWICE_MAX}"), OVERFLOW),
        (("add", "complex128", f"int:{TWICE_MAX}"), OVERFLOW),
        (("*", "float16", f"int:{FLOOR}"), OVERFLOW),
        (("-", f"int:-{FLOOR}", "float32"), OVERFLOW),
        (("+", "clongdouble", f"int:{TWICE_MAX}"), OVERFLOW),
        # np.ones(2, np.longdouble) + int('9' * 4301): ValueError (the int goes through str)
        (("+", "longdouble", f"int:{DIGITS_4301}"), LIMIT),
        # np.divide and np.arctan2 convert the int to a double beside any array; the
        # comparisons beside a float or complex array
        (("divide", "int8", f"int:{FLOOR}"), OVERFLOW),
        (("/", "bool", f"int:{TWICE_MAX}"), OVERFLOW),
        (("atan2", f"int:{FLOOR}", "uint64"), OVERFLOW),
        (("==", "float16", f"int:{TWICE_MAX}"), OVERFLOW),
        (("less", f"int:{FLOOR}", "complex64"), OVERFLOW),
        # beside an integer array: "Python int too large to convert to C long", as before
        (("+", "int8", f"int:{DIGITS_4301}"), "NumPy raises OverflowError: Python int too large"),
    ],
)
def test_numpy_2_refuses_an_int_a_double_cannot_hold_where_it_converts_one(run, args, want):
    done = run("op", *args, "-p", "numpy")
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"refused: {want}")


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # the largest int float() rounds to max float64: float64, no error
        (("+", "float64", f"int:{FLOOR - 1}"), "float64"),
        # a long double takes any int of at most 4,300 digits (float128 on x86-64)
        (("+", "longdouble", f"int:{TWICE_MAX}"), "longdouble"),
        (("*", f"int:-{DIGITS_4300}", "longdouble"), "longdouble"),
        # a comparison beside an integer array takes any int: all False
        (("==", "uint64", f"int:{TWICE_MAX}"), "bool"),
        (("divide", "int64", f"int:{FLOOR - 1}"), "float64"),
    ],
)
def test_numpy_2_takes_an_int_a_double_holds_or_that_it_does_not_convert(run, args, want):
    done = run("op", *args, "-p", "numpy")
    assert done.exit_code == 0, done.output
    assert done.output.strip() == want


def test_np_result_type_answers_two_python_scalars_of_any_size(run):
    # np.result_type(int('9' * 4301), 1.0) is float64: it never looks at the values
    done = run("pair", f"int:{DIGITS_4301}", "float", "-p", "numpy")
    assert (done.exit_code, done.output.strip()) == (0, "float64")
    # ... while Python's own int + float refuses it: OverflowError
    done = run("pair", "float64", f"int:{DIGITS_4301}", "float:1.0", "--chain", "-p", "numpy")
    assert done.exit_code == 1


@pytest.mark.parametrize("policy", ["jax", "torch", "tensorflow", "mlx", "keras", "paddle"])
def test_an_int_of_any_length_is_read_printed_and_refused_in_one_line(run, policy):
    # Python reads and writes at most 4,300 digits at once; promote reads the literal, and a
    # framework's reason quotes it whole (each refuses an int this large)
    done = run("op", "**", "int64", f"int:-{DIGITS_4301}", "-p", policy, "--json")
    assert done.exit_code == 1, done.output
    assert f'"label": "int:-{DIGITS_4301}"' in done.output
    assert "internal error" not in done.output
    assert sys.get_int_max_str_digits() == 4300  # lifted while the command ran, restored


def test_the_python_api_reads_an_int_literal_of_any_length():
    # under the caller's own limit: the literal is read in pieces, NumPy's reason quotes none
    with pytest.raises(PromotionError, match="int too large to convert to float"):
        promote("float64", f"int:{DIGITS_4301}", policy="numpy", op="add")
