"""The special cases of Keras's operations (``Rule.special``), decided before the promotion:
what a backend does that its pair rule and the kind cannot say, each measured (see
``operations.py``). ``SPECIALS`` names them for the rules (``backends.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.keras.convert import FLOAT8, convert, storage, width
from promote_cli.frameworks.keras.pairs import added, converted, declared, torch_tensors
from promote_cli.frameworks.keras.promotion import torch_result_type, value_in
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, int_value
from promote_cli.rules import NO_KERNEL, SpecialFunction

_SHIFTABLE = frozenset({"uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"})
# The dtypes TensorFlow converts a Python 1 or True to (float8: no cast at all).
_TF_TAKES = {
    "int*": _SHIFTABLE | {"bfloat16", "float16", "float32", "float64", "complex64", "complex128"},
    "bool": frozenset(
        {"uint64", "int32", "int64", "bool", "float16", "float32", "float64", "complex128"}
    ),
}


def python_shift(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's and tensorflow's ``bitwise_left_shift(x, y)`` with a Python int or bool ``y``:
    ``y`` is not converted, the backend shifts ``x`` (converted) by it, in ``x``'s dtype."""
    x, y = operands
    if y.category != PYTHON or y.dtype not in ("int*", "bool") or x.category == PYTHON:
        return None
    backend = opts["backend"]
    made = convert(x, backend, opts["floatx"])
    if isinstance(made, Outcome):
        return made
    t, amount = made.dtype, "True" if y.dtype == "bool" else "1"
    why = f"a Python {amount} is not converted: {ref(t)} is shifted by it"
    if backend == "tensorflow":
        if t not in _TF_TAKES[y.dtype]:
            return refuse("conversion", f"TensorFlow cannot convert {amount} to {ref(t)}")
        if t not in _SHIFTABLE:
            return refuse("op-refuses", f"tf.bitwise.left_shift does not accept {ref(t)}")
        return Outcome(t, "python-shift", why)
    if t == "bool":  # NumPy's own left_shift of a bool array by a Python int or bool
        out = "int64" if y.dtype == "int*" else "int8"
        return Outcome(out, "python-shift", f"{why}: np.left_shift gives {ref(out)}")
    if t not in _SHIFTABLE:
        return refuse("op-refuses", f"np.left_shift does not accept {ref(t)}")
    return Outcome(t, "python-shift", why)


def torch_shift(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``bitwise_left_shift(x, y)`` with a Python int or bool ``y``: ``y`` stays a
    Python scalar, so torch promotes ``x`` with it (a bool ``x`` by ``1`` is int64)."""
    x, y = operands
    if y.category != PYTHON or y.dtype not in ("int*", "bool") or x.category == PYTHON:
        return None
    stored = storage(x, "torch")
    if isinstance(stored, Outcome):
        return stored
    out = torch_result_type([Operand(stored, x.category), y])
    if out.result is None:
        return out
    t = out.result
    if dtype(t).kind in ("float", "complex"):
        return refuse("op-refuses", f"torch.bitwise_left_shift does not accept {ref(t)}")
    why = f"a Python {y.dtype.rstrip('*')} shift stays a Python scalar: {out.why}"
    if t == "bool":
        return Outcome(t, NO_KERNEL, f"{why}; torch has no CPU kernel of bool left shift")
    return Outcome(t, "python-shift", why)


def float8_by_scalar(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's float8 ``multiply`` has a kernel for two full tensors only: with a 0-d tensor or
    a Python scalar second it has none ("mul_cpu_reduced_float" not implemented)."""
    x, y = operands
    out = torch_tensors(x, y, opts)
    if out.result in FLOAT8 and y.category != DIMENSIONED:
        return Outcome(out.result, NO_KERNEL, f"{out.why}; no CPU kernel of float8 by a scalar")
    return None


def float8_same(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch runs ``floor_divide``, ``maximum``, ``minimum``, ``remainder`` of two float8
    operands of one dtype before Keras looks at the dtypes, and has no CPU kernel for it."""
    x, y = operands
    if x.dtype == y.dtype and x.dtype in FLOAT8:
        return Outcome(
            x.dtype, NO_KERNEL, f"torch has no CPU kernel for {ref(x.dtype)} (a gap, not a rule)"
        )
    return None


def float8_mod(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``mod``: Keras's ``result_type`` refuses a float8 operand beside another dtype;
    two of one float8 dtype reach torch, which has no CPU kernel for them."""
    decided = float8_same(operands, opts)
    if decided is None and any(x.dtype in FLOAT8 for x in operands):
        return refuse("float8", "Keras has no implicit conversion from float8 types")
    return decided


def int8_matmul(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's, openvino's and torch's matmul of two int8 arrays is int32 (Keras aligns it with
    JAX)."""
    if all(x.dtype == "int8" for x in operands):
        return Outcome("int32", "int8-matmul", "int8 @ int8 is int32 (Keras matches JAX)")
    return None


def integer_pow(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """jax's ``power(x1, x2)`` with ``x2`` a 0-d integer or bool array: ``jnp.power`` sees a
    concrete integer exponent and takes ``lax.integer_pow``, so the result is ``x1``'s dtype as
    converted (bool: int32), whatever ``x2``'s."""
    x1, x2 = operands
    if x2.category != ZERO_D or dtype(x2.dtype).kind not in ("bool", "int", "uint"):
        return None
    t = convert(x1, "jax", opts["floatx"])
    if isinstance(t, Outcome):
        return t
    out = "int32" if t.dtype == "bool" else t.dtype
    return Outcome(
        out, "integer-pow", f"a concrete integer exponent: lax.integer_pow keeps x1's {ref(out)}"
    )


# --- Python scalar values (``Rule.value_special``): where a backend makes a Python int a tensor
# of another dtype than ``keras.ops.add``'s sum (``Rule.value`` "checked"), each measured.
# ml_dtypes' types and bool: NumPy's comparisons take a Python int as an int64 beside them.
_NUMPY_INT64_BESIDE = frozenset({"bool", "bfloat16", *FLOAT8})


def _valued(operands: Sequence[Operand]) -> list[tuple[int, Operand, Operand]]:
    """Each Python int carrying a value, with the operand beside it."""
    a, b = operands
    found = []
    for scalar, other in ((a, b), (b, a)):
        value = int_value(scalar)
        if value is not None:
            found.append((value, scalar, other))
    return found


def converted_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``remainder``, ``atan2``, ``bitwise_and`` (numpy, openvino): each operand is made a tensor
    on its own first (``convert_to_tensor``), so a Python int must fit the dtype it is made
    alone: numpy's ``floatx`` width of int (int32; int16 under float16), openvino's constant
    (``[-2**63, 2**64)``); under ``floatx=bfloat16`` numpy makes it a float64 array first,
    which takes any int."""
    backend, floatx = opts["backend"], opts["floatx"]
    if backend == "numpy" and floatx == "bfloat16":
        return None
    for value, scalar, _ in _valued(operands):
        made = convert(scalar.typed(), backend, floatx)
        if isinstance(made, Outcome):
            continue  # refused for its type, whatever its value
        found = value_in(value, made.dtype, backend)
        if found is not None:
            return found._replace(why=f"{found.why} (the int is made a tensor on its own)")
    return None


def float_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's ``divide``: a Python int is made a tensor of the float the division computes in
    (``result_type(x1, x2, float)``): only a bfloat16 one refuses an int outside
    ``[-2**63, 2**64)`` (ml_dtypes)."""
    backend, floatx = opts["backend"], opts["floatx"]
    for value, _, other in _valued(operands):
        made = convert(other, backend, floatx)
        if isinstance(made, Outcome):
            continue
        t = made.dtype if dtype(made.dtype).kind in ("float", "complex") else width(floatx)
        found = value_in(value, t, backend)
        if found is not None:
            return found
    return None


def numpy_compared(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's ``equal``, ``less``: NumPy's own comparison on the operands as given takes any
    Python int beside NumPy's numbers, but as an int64 beside a bool or an ml_dtypes array."""
    for value, _, other in _valued(operands):
        beside = other.category != PYTHON and other.dtype in _NUMPY_INT64_BESIDE
        if beside and not -(2**63) <= value < 2**63:
            return refuse(
                "value",
                f"NumPy raises OverflowError: Python int {value} too large to convert to"
                f" C long (beside a {ref(other.dtype)} array it is taken as an int64)",
            )
    return None


def numpy_shift_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's ``bitwise_left_shift(x, y)``: a Python int ``y`` is not converted, NumPy's
    ``left_shift`` checks it against ``x``'s dtype (a bool ``x``: int64); a Python int ``x``
    is made a tensor on its own (``converted_value``)."""
    x, y = operands
    value = int_value(y)
    if value is None or x.category == PYTHON:
        return converted_value(operands, opts)
    made = convert(x, "numpy", opts["floatx"])
    if isinstance(made, Outcome):
        return None
    t = "int64" if made.dtype == "bool" else made.dtype
    if dtype(t).kind not in ("int", "uint"):
        return None
    return value_in(value, t, "numpy")


def numpy_negative_power(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's ``power``: an integer power refuses a negative Python int exponent (NumPy's
    ValueError), a bool base included (its power is computed in an integer type)."""
    base, exponent = operands
    value = int_value(exponent)
    if value is None or value >= 0 or base.category == PYTHON:
        return None
    computed = added(base, exponent.typed(), opts)
    if computed.result is None or dtype(computed.result).kind not in ("bool", "int", "uint"):
        return None
    return refuse(
        "value", "NumPy raises ValueError: Integers to negative integer powers are not allowed."
    )


def ov_typed_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """openvino's ``divide``, ``equal``, ``less``, ``bitwise_left_shift``: a Python int is made a
    constant of the tensor's element type: an integer one refuses an int outside
    ``[-2**63, 2**64)``, a uint64 one any int from ``2**63`` (OpenVINO reads it as an int64);
    a bool or float one takes any int."""
    for value, _, other in _valued(operands):
        if other.category == PYTHON or dtype(other.dtype).kind not in ("int", "uint"):
            continue
        high = 2**63 if other.dtype == "uint64" else 2**64
        if not -(2**63) <= value < high:
            return refuse(
                "value",
                f"OpenVINO raises OverflowError: Python int {value} does not convert to a"
                f" {ref(other.dtype)} constant",
            )
    return None


# torch: a Python int is made a 0-d tensor (``torch.as_tensor``): int32, int64 outside int32
# (Keras's ``convert_to_tensor``); one kept a Python scalar torch takes in ``[-2**63, 2**64)``.
_INT32 = (-(2**31), 2**31)
_KEPT = (-(2**63), 2**64)


def _bits(t: str) -> int:
    return dtype(t).bits or 0


def _torch_int64(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's promotion with a Python int outside int32: Keras makes it a 0-d int64 tensor
    (not int32), which a bool array or a 0-d integer one takes (``bool`` with ``2**31`` is
    int64), as ``keras.ops.add`` does."""
    bare = [x.typed() for x in operands]
    typed = added(bare[0], bare[1], opts)
    valued = added(operands[0], operands[1], opts)
    if valued.refused or valued.result == typed.result:
        return None
    return valued._replace(
        why=f"Keras makes a Python int outside {ref('int32')} a 0-d {ref('int64')} tensor:"
        f" {valued.why}",
    )


def _kept(value: int, other: Operand) -> Outcome | None:
    """A Python int kept a Python scalar: torch takes it in ``[-2**63, 2**64)``, beside a bool
    tensor as an int64 (its default integer)."""
    high = 2**63 if other.category != PYTHON and other.dtype == "bool" else _KEPT[1]
    if _KEPT[0] <= value < high:
        return None
    return refuse("value", f"torch raises RuntimeError: Python int {value} does not fit a Scalar")


def _divisor(operands: Sequence[Operand]) -> int | None:
    """The value of a Python int or bool divisor (the second operand) beside an array."""
    x, y = operands
    if x.category == PYTHON or y.category != PYTHON:
        return None
    if y.dtype == "bool" and isinstance(y.value, bool):
        return int(y.value)
    return int_value(y)


def _zero_divisor(
    value: int, t: str, says: str = "torch raises ZeroDivisionError"
) -> Outcome | None:
    """An integer division by ``value`` made ``t``: zero once wrapped into ``t``'s bits."""
    if dtype(t).kind not in ("int", "uint") or value % 2 ** _bits(t):
        return None
    return refuse("value", f"{says}: the divisor {value} is 0 as {ref(t)}")


def torch_large_int(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``add``, ``subtract``, ``multiply``, ``pow``, ``bitwise_and``: a Python int
    outside int32 is a 0-d int64 tensor, so a bool array with it is int64 (``keras.ops.add``'s
    check, "checked", refuses one outside int64 first)."""
    return _torch_int64(operands, opts)


def torch_remainder_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``mod``: as ``torch_large_int``, and an integer remainder by a Python int that is
    0 in the computed dtype raises ZeroDivisionError (``uint8 % 256``, ``int8 % False``)."""
    large = torch_large_int(operands, opts)
    if large is not None:
        return large
    divisor = _divisor(operands)
    if divisor is None:
        return None
    bare = [x.typed() for x in operands]
    if int_value(operands[1]) is not None and not _INT32[0] <= divisor < _INT32[1]:
        bare[1] = Operand("int64", ZERO_D)
    computed = torch_tensors(bare[0], bare[1], opts)
    if computed.result is None:
        return None
    t = "int32" if computed.result == "bool" else computed.result
    return _zero_divisor(divisor, t)


def torch_kept_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``divide``: Keras keeps a Python int a Python scalar, which torch takes in
    ``[-2**63, 2**64)``."""
    for value, _, other in _valued(operands):
        found = _kept(value, other)
        if found is not None:
            return found
    return None


def torch_shift_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``bitwise_left_shift(x, y)``: a Python int ``y`` stays a Python scalar
    (``[-2**63, 2**64)``); a Python int ``x`` is made a tensor (``torch_large_int``, refused
    outside int64)."""
    x, y = operands
    if int_value(y) is not None and x.category != PYTHON:
        return _kept(int_value(y), x)  # type: ignore[arg-type]
    value = int_value(x)
    if value is None:
        return None
    if not -(2**63) <= value < 2**63:
        return refuse("value", f"torch raises ValueError: Overflow when unpacking long ({value})")
    return _torch_int64(operands, opts)


def _c10_overflows(value: int, t: str) -> bool:
    """c10's ``overflows``: a signed type takes its range, an unsigned one also the negatives
    down to ``-max`` (two's complement wrapping)."""
    bits = _bits(t)
    if dtype(t).kind == "uint":
        top = 2**bits - 1
        return value > top or value < -top
    return not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)


def torch_cast_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``maximum``, ``minimum``: Keras makes a Python int a tensor of
    ``keras.backend.result_type`` (``convert_to_tensor(x, dtype)``), which torch refuses where
    the int overflows an integer dtype (``maximum(int8, 128)``); a float one takes any."""
    bare = [x.typed() for x in operands]
    computed = declared(bare[0], bare[1], opts)
    t = computed.result
    if t is None or dtype(t).kind not in ("int", "uint"):
        return None
    for value, _, _ in _valued(operands):
        if _c10_overflows(value, t):
            return refuse(
                "value",
                f"torch raises RuntimeError: value cannot be converted to type {ref(t)} without"
                f" overflow ({value}: Keras makes it a tensor of result_type's {ref(t)})",
            )
    return None


def torch_floor_divide_value(
    operands: Sequence[Operand], opts: Mapping[str, Any]
) -> Outcome | None:
    """torch's ``floor_divide``: Keras keeps a Python int a Python scalar (``[-2**63, 2**64)``);
    an integer tensor divided by one that is 0 in its dtype raises ZeroDivisionError."""
    for value, _, other in _valued(operands):
        found = _kept(value, other)
        if found is not None:
            return found
    divisor = _divisor(operands)
    if divisor is None:
        return None
    stored = storage(operands[0], "torch")
    if isinstance(stored, Outcome):
        return None
    return _zero_divisor(divisor, "int64" if stored == "bool" else stored)


# tensorflow: ``tf.convert_to_tensor`` of a Python scalar alone (no dtype) makes an int int32,
# int64 outside int32 and raises outside int64; a float float32, raising beyond its range
# (``inf`` is taken).
_INT64 = (-(2**63), 2**63)
_FLOAT32_MAX = 3.4028234663852886e38
_TF_RAISES = "TensorFlow raises InvalidArgumentError: Integer division by zero"


def _tf_alone(scalar: Operand) -> Outcome | None:
    """A valued Python int or float made a tensor on its own by TensorFlow: the refusal, else
    None (an int outside int32 is then an int64 tensor: ``_tf_int64``)."""
    value = scalar.value
    if scalar.category != PYTHON or isinstance(value, bool):
        return None
    if isinstance(value, int) and not _INT64[0] <= value < _INT64[1]:
        return refuse(
            "value",
            "TensorFlow raises ValueError: Can't convert Python sequence with out-of-range"
            f" integer to Tensor ({value}, made a tensor on its own)",
        )
    if isinstance(value, float) and abs(value) != float("inf") and abs(value) > _FLOAT32_MAX:
        return refuse(
            "value",
            "TensorFlow raises ValueError: Can't convert Python sequence with a value out of"
            f" range for a double-precision float ({value!r}, made a float32 tensor on its own)",
        )
    return None


def tf_converted_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """tensorflow's ``atan2``, ``equal``, ``less``, ``logical_and`` (``tf.cast``): each operand is
    made a tensor on its own first, so a Python int must fit int64 (any tensor: ``atan2(float32,
    2**64)`` raises) and a finite float float32 (``equal(float64, 1e300)`` raises)."""
    for scalar in operands:
        found = _tf_alone(scalar)
        if found is not None:
            return found
    return None


def _tf_int64(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``converted``'s promotion where a Python int outside int32 is made an int64 tensor (not
    int32): ``remainder(int8, 2**31)`` is int64, ``remainder(int8, 1)`` int32."""
    refused = tf_converted_value(operands, opts)
    if refused is not None:
        return refused
    made = [
        Operand("int64")
        if (v := int_value(x)) is not None and not _INT32[0] <= v < _INT32[1]
        else x
        for x in operands
    ]
    if made == list(operands):
        return None
    bare = [x.typed() for x in operands]
    typed = converted(bare[0], bare[1], opts)
    valued = converted(made[0], made[1], opts)
    if valued.refused or valued.result == typed.result:
        return None
    return valued._replace(
        why=f"TensorFlow makes a Python int outside {ref('int32')} an {ref('int64')} tensor:"
        f" {valued.why}"
    )


def tf_converted_int64(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """tensorflow's ``bitwise_and``: each operand made a tensor on its own
    (``tf_converted_value``), a Python int outside int32 an int64 one (``bool & 2**31`` is
    int64)."""
    return _tf_int64(operands, opts)


def tf_remainder_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """tensorflow's ``mod``: as ``tf_converted_int64``, and an integer remainder by a Python int
    or bool that is 0 in the computed dtype raises (FloorMod): only ``False`` (and 0) here, as
    the divisor is computed in int32 or int64 (``remainder(uint8, 256)`` is int32, 0 nowhere)."""
    found = _tf_int64(operands, opts)
    if found is not None:
        return found
    divisor = _divisor(operands)
    if divisor is None:
        return None
    bare = [x.typed() for x in operands]
    if int_value(operands[1]) is not None and not _INT32[0] <= divisor < _INT32[1]:
        bare[1] = Operand("int64")
    computed = converted(bare[0], bare[1], opts)
    if computed.result is None:
        return None
    t = "int32" if computed.result == "bool" else computed.result
    return _zero_divisor(divisor, t, _TF_RAISES)


def tf_floor_divide_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """tensorflow's ``floor_divide``: a Python int divisor is made a tensor of the sum's dtype
    (``tf.cast``, wrapping), so an integer one that wraps to 0 there raises (FloorDiv):
    ``floor_divide(uint8, 256)``, ``floor_divide(bool, 2**16)`` under ``floatx=float16``
    (int16)."""
    divisor = _divisor(operands)
    if divisor is None:
        return None
    bare = [x.typed() for x in operands]
    computed = added(bare[0], bare[1], opts)
    if computed.result is None:
        return None
    return _zero_divisor(divisor, computed.result, _TF_RAISES)


def tf_negative_power(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """tensorflow's ``power(x1, x2)``: a Python int exponent is made a tensor of the sum's
    dtype (an unsigned one computes in int32), wrapping, and an integer Pow refuses a negative
    exponent (``power(int8, 128)``: 128 is -128 in int8; ``power(uint8, 255)`` is taken)."""
    base, exponent = operands
    value = int_value(exponent)
    if value is None or base.category == PYTHON:
        return None
    computed = added(base, exponent.typed(), opts)
    t = computed.result
    if t is None or dtype(t).kind not in ("int", "uint"):
        return None
    t = "int32" if dtype(t).kind == "uint" else t
    bits = _bits(t)
    wrapped = value % 2**bits
    if wrapped < 2 ** (bits - 1):
        return None
    return refuse(
        "value",
        "TensorFlow raises InvalidArgumentError: Integers to negative integer powers are not"
        f" allowed ({value} is {wrapped - 2**bits} as {ref(t)})",
    )


def tf_shift_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """tensorflow's ``bitwise_left_shift(x, y)``: a Python int ``y`` is not converted by Keras;
    ``tf.bitwise.left_shift`` makes it a tensor of ``x``'s dtype, which takes any int64, and
    for uint64 ``[0, 2**64)``; a Python int ``x`` is made a tensor on its own
    (``tf_converted_int64``)."""
    x, y = operands
    value = int_value(y)
    if value is None or x.category == PYTHON:
        return _tf_int64(operands, opts)
    low, high = (0, 2**64) if x.dtype == "uint64" else _INT64
    if low <= value < high:
        return None
    return refuse(
        "value",
        f"TensorFlow raises OverflowError: Python int {value} does not convert to the"
        f" {ref(x.dtype)} tensor's dtype",
    )


SPECIALS: Mapping[str, SpecialFunction] = {
    "python_shift": python_shift,
    "torch_shift": torch_shift,
    "float8_by_scalar": float8_by_scalar,
    "float8_same": float8_same,
    "float8_mod": float8_mod,
    "int8_matmul": int8_matmul,
    "integer_pow": integer_pow,
    "converted_value": converted_value,
    "float_value": float_value,
    "numpy_compared": numpy_compared,
    "numpy_shift_value": numpy_shift_value,
    "numpy_negative_power": numpy_negative_power,
    "ov_typed_value": ov_typed_value,
    "torch_large_int": torch_large_int,
    "torch_remainder_value": torch_remainder_value,
    "torch_kept_value": torch_kept_value,
    "torch_shift_value": torch_shift_value,
    "torch_cast_value": torch_cast_value,
    "torch_floor_divide_value": torch_floor_divide_value,
    "tf_converted_value": tf_converted_value,
    "tf_converted_int64": tf_converted_int64,
    "tf_remainder_value": tf_remainder_value,
    "tf_floor_divide_value": tf_floor_divide_value,
    "tf_negative_power": tf_negative_power,
    "tf_shift_value": tf_shift_value,
}
