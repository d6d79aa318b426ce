"""TensorFlow's own cases of a Python scalar's value (``Rule.value_special``), measured on
TensorFlow 2.21 with NumPy behaviour. ``SPECIALS`` names them for the rules (see
``operations.py``).

Where an operation promotes (``tnp``'s functions, ``+ - * / // % ** ==``) a Python int is
converted to int32 first, as ``+`` does (``Policy.check_value``: OverflowError outside int32;
a uint64 tensor refuses a negative int). The operators that do not promote (``!=``, the
orderings, ``& | ^``) convert the value to the tensor's dtype instead (``converted``), and
``*`` with a bool tensor casts both operands to int32 (``bool_multiplied``). Under
``mode=legacy`` every operator checks a value as its ``+`` does, and ``tnp``'s functions make it
a NumPy array first (``legacy_value`` and the others below)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get
from promote_cli.engine import Outcome, refuse
from promote_cli.frameworks.tensorflow.promotion import POLICY, unsigned_unconverted
from promote_cli.operands import PYTHON, Operand, int_value
from promote_cli.rules import SpecialFunction
from promote_cli.steps import value_refused

_INT64 = (-(2**63), 2**63)
# The dtypes whose conversion of a Python int goes through NumPy's int64 (the ints but
# uint64, bfloat16 and complex64): outside it "Can't convert Python sequence with
# out-of-range integer to Tensor"; uint64 takes [0, 2**64); float16/32/64 and complex128
# take any int (as a float).
_ANY_INT = ("float16", "float32", "float64", "complex128")
_FLOAT32_MAX = 3.4028234663852886e38


def _tensor_and_scalar(operands: Sequence[Operand]) -> tuple[Operand, Operand] | None:
    a, b = operands
    if a.category == PYTHON and a.value is not None and b.category != PYTHON:
        return b, a
    if b.category == PYTHON and b.value is not None and a.category != PYTHON:
        return a, b
    return None


def converted(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``uint8_tensor != 300``: an operator that does not promote converts a Python int to the
    tensor's dtype (``convert_to_tensor``), which takes any int that fits int64 (wrapping:
    ``uint8 != 300`` is bool), for uint64 any in [0, 2**64), for float16/32/64 and
    complex128 any int; a float is not checked."""
    found = _tensor_and_scalar(operands)
    if found is None:
        return None
    tensor, scalar = found
    value = int_value(scalar)
    if value is None or tensor.dtype in _ANY_INT:
        return None
    if tensor.dtype == "uint64":
        if 0 <= value < 2**64:
            return None
        return unsigned_unconverted(value)
    if _INT64[0] <= value < _INT64[1]:
        return None
    return refuse(
        "value",
        "TensorFlow raises ValueError: Can't convert Python sequence with out-of-range integer"
        f" to Tensor ({value} to {tensor.dtype}, through int64)",
    )


def bool_multiplied(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``bool_tensor * v``: both operands are cast to int32 and multiplied (a logical and), the
    Python scalar converted as it is first: an int that fits int64 is taken (``2**31`` too),
    a finite float beyond float32's range is refused (``1e300``; ``inf`` and complex values
    are taken). Another tensor's ``*`` checks the value as ``+`` does."""
    found = _tensor_and_scalar(operands)
    if found is None or found[0].dtype != "bool":
        return value_refused(POLICY, operands, opts)
    scalar = found[1]
    value = scalar.value
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and not _INT64[0] <= value < _INT64[1]:
        return refuse(
            "value",
            "TensorFlow raises ValueError: Can't convert Python sequence with out-of-range"
            f" integer to Tensor ({value})",
        )
    if isinstance(value, float) and value != float("inf") and abs(value) > _FLOAT32_MAX:
        return refuse(
            "value",
            "TensorFlow raises ValueError: Can't convert Python sequence with a value out of"
            f" range for a double-precision float ({value!r}, cast with the bool tensor to"
            " int32 through float32)",
        )
    return None


def _computed_in(value: int, dtype: str) -> str:
    """The integer type a tensor of ``dtype`` computes with the Python int ``value`` in: its
    own; a bool tensor's int8 for a Python bool (``tnp``'s integer functions compute two bools
    in int8), else the int the pair promotes to (int64, or int32 for the operators: the value,
    checked in int32 first, is the same in both)."""
    if dtype != "bool":
        return dtype
    return "int8" if isinstance(value, bool) else "int64"


def _wrapped(value: int, dtype: str) -> int:
    """``value`` wrapped into the integer type ``dtype`` computes in, as a tensor holds it."""
    info = get(_computed_in(value, dtype))
    bits = info.bits or 64
    wrapped = value % 2**bits
    return wrapped - 2**bits if info.kind == "int" and wrapped >= 2 ** (bits - 1) else wrapped


def _integer_operand(operands: Sequence[Operand]) -> tuple[Operand, int] | None:
    """An integer (or bool) tensor on the left and a valued Python int or bool on the right."""
    tensor, scalar = operands
    if tensor.category == PYTHON or scalar.category != PYTHON or scalar.value is None:
        return None
    value = scalar.value
    if not isinstance(value, int) or get(tensor.dtype).kind not in ("int", "uint", "bool"):
        return None
    return tensor, value  # a bool stays one, for the message (it is an int)


def negative_power(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``int_tensor ** -1``: Pow's integer kernel refuses a negative integer exponent
    (InvalidArgumentError: "Integers to negative integer powers are not allowed"), the
    exponent wrapped into the tensor's type first (``int8 ** 128`` is ``int8 ** -128``,
    refused; ``int8 ** -129`` is ``int8 ** 127``); the rule checks the value as ``+`` does
    first (``Rule.value``)."""
    found = _integer_operand(operands)
    if found is None or _wrapped(found[1], found[0].dtype) >= 0:
        return None
    return refuse(
        "value",
        "TensorFlow raises InvalidArgumentError: Integers to negative integer powers are not"
        f" allowed ({found[1]!r} is {_wrapped(found[1], found[0].dtype)} in"
        f" {_computed_in(found[1], found[0].dtype)})",
    )


def zero_divisor(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``uint8_tensor // 256``: an integer divisor is wrapped into the tensor's type (256 is 0
    in uint8, False is 0): FloorDiv and FloorMod raise InvalidArgumentError "Integer division
    by zero"; a float tensor divides by 0.0. The rule checks the value as ``+`` does first."""
    found = _integer_operand(operands)
    if found is None or _wrapped(found[1], found[0].dtype) != 0:
        return None
    return refuse(
        "value",
        "TensorFlow raises InvalidArgumentError: Integer division by zero"
        f" ({found[1]!r} is 0 in {_computed_in(found[1], found[0].dtype)})",
    )


def int32_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``tnp.logical_and``: each operand is cast to bool on its own, so a Python int is checked
    only as it becomes an int32 WeakTensor (``uint64`` and ``-1`` is bool)."""
    for scalar in operands:
        if scalar.category == PYTHON and scalar.value is not None:
            found = POLICY.check_value(scalar, None, opts)
            if found is not None:
                return found
    return None


def traced_zero_minus(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``256 - uint8_tensor`` inside ``tf.function``: a Python scalar on the left that is 0 in
    a uint8 or uint16 tensor (``256``, ``False``) makes ``0 - x``, which the graph's optimizer
    rewrites as ``Neg(x)``, and Neg admits no unsigned type: InvalidArgumentError ("Value for
    attr 'T' of uint8 is not in the list of allowed values"). Measured: uint32 and uint64
    take it (``False - uint32_tensor`` is uint32). Then the value as ``+`` checks it."""
    scalar, tensor = operands
    if scalar.category != PYTHON or scalar.value is None or tensor.category == PYTHON:
        return value_refused(POLICY, operands, opts)
    value = scalar.value
    unsigned = tensor.dtype in ("uint8", "uint16") and isinstance(value, int)
    if unsigned and _wrapped(int(value), tensor.dtype) == 0:  # type: ignore[arg-type]
        return refuse(
            "value",
            f"TensorFlow raises InvalidArgumentError inside tf.function: {value!r} is 0 in"
            f" {tensor.dtype}, and the graph's optimizer rewrites 0 - x as Neg, which admits"
            f" no {tensor.dtype}",
        )
    return value_refused(POLICY, operands, opts)


# mode=legacy: tnp's functions make a Python scalar a NumPy array first (``np.array``), then a
# tensor cast to the promoted type. NumPy makes an int in [2**63, 2**64) a uint64 array (so
# every tensor takes it, wrapped: ``tnp.add(int8, 2**63)`` is int8) and one from 2**64 an
# object array, which TensorFlow cannot convert (even beside a float tensor).
_UINT64_ONLY = (2**63, 2**64)


def _legacy_array(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``tnp.add(int8, 2**63)`` under ``mode=legacy``: a Python int in ``[2**63, 2**64)`` is
    taken whatever the tensor, one from ``2**64`` refused whatever it is; any other value is
    checked as ``+`` checks it (``int8`` and ``-2**63 - 1``: ValueError; a float tensor takes
    it)."""
    values = [v for v in map(int_value, operands) if v is not None]
    for value in values:
        if value >= _UINT64_ONLY[1]:
            return refuse(
                "value",
                f"TensorFlow raises OverflowError: NumPy makes {value} an object array, which"
                " does not convert to a tensor",
            )
    if any(_UINT64_ONLY[0] <= v for v in values):
        return None
    return value_refused(POLICY, operands, opts)


def legacy_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``mode=legacy``'s ``tnp`` functions: the value made a NumPy array first
    (``_legacy_array``)."""
    return _legacy_array(operands, opts)


def legacy_zero_divisor(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``tnp.floor_divide``, ``tnp.remainder`` under ``mode=legacy``: the value made a NumPy
    array first (``_legacy_array``), then wrapped into the tensor's type (``zero_divisor``:
    ``floor_divide(int8, 2**63)`` divides by zero)."""
    return _legacy_array(operands, opts) or zero_divisor(operands, opts)


def legacy_negative_power(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``tnp.power`` under ``mode=legacy``: the value made a NumPy array first
    (``_legacy_array``), then wrapped into the tensor's type (``negative_power``:
    ``power(int8, 2**63)`` is int8, ``power(int8, 2**64 - 1)`` a negative power)."""
    return _legacy_array(operands, opts) or negative_power(operands, opts)


def legacy_bools(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``tnp.logical_and`` under ``mode=legacy``: each operand is made a bool tensor on its own,
    whatever the other: an int in ``[-2**63, 2**64)`` is taken (a uint64 tensor takes ``-1``),
    a finite float beyond float32's range is not (``1e300``, even beside a float64 tensor)."""
    for scalar in operands:
        value = scalar.value
        if scalar.category != PYTHON or isinstance(value, bool):
            continue
        if isinstance(value, int) and value >= _UINT64_ONLY[1]:
            return _legacy_array([scalar], opts)
        if isinstance(value, int) and value < _INT64[0]:
            return refuse(
                "value",
                "TensorFlow raises ValueError: Can't convert Python sequence with out-of-range"
                f" integer to Tensor ({value})",
            )
        if isinstance(value, float) and abs(value) != float("inf") and abs(value) > _FLOAT32_MAX:
            return refuse(
                "value",
                "TensorFlow raises ValueError: Can't convert Python sequence with a value out of"
                f" range for a double-precision float ({value!r}, made a bool tensor on its own)",
            )
    return None


SPECIALS: Mapping[str, SpecialFunction] = {
    "converted": converted,
    "bool_multiplied": bool_multiplied,
    "traced_zero_minus": traced_zero_minus,
    "negative_power": negative_power,
    "zero_divisor": zero_divisor,
    "int32_value": int32_value,
    "legacy_value": legacy_value,
    "legacy_zero_divisor": legacy_zero_divisor,
    "legacy_negative_power": legacy_negative_power,
    "legacy_bools": legacy_bools,
}
