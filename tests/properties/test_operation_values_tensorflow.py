"""A Python scalar's value in TensorFlow's operations and operators (``promote op + uint8
int:300 -p tensorflow``): each expected value below was observed on TensorFlow 2.21 with NumPy
behaviour on (``tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=...)``, the call
in the comment); every valued cell is also compared with the checked-in measurements by
``tests/measured/test_measured.py``."""

from __future__ import annotations

import pytest

from promote_cli import promote
from promote_cli.errors import PromotionError

LEGACY = ("-O", "mode=legacy")


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # tf.ones([2], tf.uint8) + 2**31 and tnp.add(...): OverflowError "Python int 2147483648
        # too large to convert to np.int32" (a Python int is an int32 WeakTensor first)
        (("+", "uint8", "int:2147483648"), "np.int32"),
        (("add", "int:2147483648", "float64"), "np.int32"),
        (("+=", "int64", "int:4294967296"), "np.int32"),
        # tf.ones([2], tf.uint64) * -1: SystemError, its cause OverflowError "can't convert
        # negative int to unsigned"
        (("*", "uint64", "int:-1"), "negative int to unsigned"),
        # tf.ones([2], tf.uint8) != 2**63: ValueError "Can't convert Python sequence with
        # out-of-range integer to Tensor" (converted to the tensor's dtype through int64)
        (("!=", "uint8", "int:9223372036854775808"), "out-of-range integer"),
        (("&", "int32", "int:-9223372036854775809"), "out-of-range integer"),
        # tf.ones([2], tf.uint64) < -1: OverflowError
        (("<", "uint64", "int:-1"), "negative int to unsigned"),
        # tf.ones([2], tf.bool) * 1e300: ValueError "Can't convert Python sequence with a value
        # out of range for a double-precision float"
        (("*", "bool", "float:1e300"), "out of range for a double-precision float"),
        (("*", "int:9223372036854775808", "bool"), "out-of-range integer"),
        # tf.ones([2], tf.int64) ** -1 and tnp.power: InvalidArgumentError "Integers to
        # negative integer powers are not allowed"
        (("**", "int64", "int:-1"), "Integers to negative integer powers"),
        (("pow", "int32", "int:-1"), "Integers to negative integer powers"),
        # tf.ones([2], tf.int8) ** 128: the exponent wraps into int8 (-128) first
        (("**", "int8", "int:128"), "Integers to negative integer powers"),
        (("pow", "bool", "int:-1"), "Integers to negative integer powers"),
        # tnp.floor_divide(tf.ones([2], tf.uint8), 256): InvalidArgumentError "Integer division
        # by zero" (256 wraps to 0 in uint8); False is 0 too
        (("floor_divide", "uint8", "int:256"), "Integer division by zero"),
        (("%", "int32", "bool:false"), "Integer division by zero"),
        # mode=legacy: tf.ones([2], tf.uint8) + 2**63: ValueError (through int64)
        (("+", "uint8", "int:9223372036854775808", *LEGACY), "out-of-range integer"),
        # mode=legacy: tnp.add(tf.ones([2], tf.float32), 2**64): SystemError, its cause
        # OverflowError (NumPy makes 2**64 an object array), where the operator + takes it
        (("add", "float32", "int:18446744073709551616", *LEGACY), "object array"),
        # mode=legacy: tnp.floor_divide(tf.ones([2], tf.int8), 2**63): InvalidArgumentError
        # "Integer division by zero" (NumPy's uint64 2**63, wrapped into int8: 0)
        (("floor_divide", "int8", "int:9223372036854775808", *LEGACY), "division by zero"),
        (("//=", "uint8", "int:256", *LEGACY), "Integer division by zero"),
        (("pow", "int8", "int:128", *LEGACY), "Integers to negative integer powers"),
        # mode=legacy: tnp.logical_and(tf.ones([2], tf.float64), 1e300): ValueError "Can't
        # convert Python sequence with a value out of range for a double-precision float"
        (("logical_and", "float64", "float:1e300", *LEGACY), "double-precision float"),
    ],
)
def test_a_value_tensorflow_refuses_is_refused_with_its_reason(run, args, want):
    done = run("op", *args, "-p", "tensorflow")
    assert done.exit_code == 1, done.output
    assert done.output.startswith("refused:") and want in done.output


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # tf.ones([2], tf.uint8) + 300 -> uint8 (wrapped: int32 fits, no error)
        (("+", "uint8", "int:300"), "u8"),
        (("multiply", "int:-129", "int8"), "i8"),
        # tf.ones([2], tf.float16) + 1e300 -> float16 (a float is not checked)
        (("+", "float16", "float:1e300"), "f16"),
        # tf.ones([2], tf.uint8) != 2**31 -> bool: converted to uint8, any int64 is taken
        (("!=", "uint8", "int:2147483648"), "b"),
        (("<=", "int:-9223372036854775808", "int16"), "b"),
        # tf.ones([2], tf.float16) > 2**64 -> bool: a float tensor takes any int
        ((">", "float16", "int:18446744073709551616"), "b"),
        # tf.ones([2], tf.bool) * 2**31 -> bool: both cast to int32 (a logical and)
        (("*", "bool", "int:2147483648"), "b"),
        # -1 ** tf.ones([2], tf.int64) -> int64: the base may be negative; int8 ** -129 is
        # int8 ** 127 (wrapped)
        (("**", "int:-1", "int64"), "i64"),
        (("**", "int8", "int:-129"), "i8"),
        # 256 // tf.ones([2], tf.uint8) -> uint8: the tensor is the divisor
        (("//", "int:256", "uint8"), "u8"),
        # tnp.logical_and(tf.ones([2], tf.uint64), -1) -> bool: each operand cast to bool alone
        (("logical_and", "uint64", "int:-1"), "b"),
        # mode=legacy: tf.ones([2], tf.uint8) + 2**31 -> uint8 (converted through int64)
        (("+", "uint8", "int:2147483648", *LEGACY), "u8"),
        # mode=legacy: tf.ones([2], tf.uint8) * 300 and tnp.multiply -> uint8
        (("*", "uint8", "int:300", *LEGACY), "u8"),
        (("multiply", "uint8", "int:300", *LEGACY), "u8"),
        # mode=legacy: tnp.add(tf.ones([2], tf.int8), 2**63) -> int8 (NumPy's uint64, wrapped),
        # where tf.ones([2], tf.int8) + 2**63 raises
        (("add", "int8", "int:9223372036854775808", *LEGACY), "i8"),
        (("pow", "int8", "int:9223372036854775808", *LEGACY), "i8"),
        (("equal", "uint8", "int:18446744073709551615", *LEGACY), "b"),
        (("remainder", "int16", "int:18446744073709551615", *LEGACY), "i16"),
        # mode=legacy: tf.ones([2], tf.float32) + 2**64 -> float32 (a float tensor takes any int)
        (("+", "float32", "int:18446744073709551616", *LEGACY), "f32"),
        (("logical_and", "uint64", "int:-1", *LEGACY), "b"),
    ],
)
def test_a_value_tensorflow_takes_gives_its_type(run, args, want):
    done = run("op", *args, "-p", "tensorflow")
    assert done.exit_code == 0, done.output
    assert done.output.split()[0] == want  # in the tensorflow notation (u8 (uint8))


def test_the_python_api_takes_values_in_tensorflow_operations():
    assert promote("uint8", "int:2147483648", policy="tensorflow", op="!=") == "bool"
    with pytest.raises(PromotionError, match=r"np\.int32"):
        promote("uint8", "int:2147483648", policy="tensorflow", op="equal")
