"""PyTorch's own cases of a Python scalar's value (``Rule.value_special``), measured on torch
2.13 (CPU). ``SPECIALS`` names them for the rules (see ``operations.py``).

A Python scalar reaches a kernel as a C++ ``Scalar`` (an int64, or a uint64 for an int in
[2**63, 2**64), a double, a complex double; ints outside both raise OverflowError in the
binding: ``Policy.check_value``). What a kernel then does with it depends on the operation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get
from promote_cli.engine import Outcome, refuse
from promote_cli.frameworks.torch.promotion import POLICY
from promote_cli.operands import PYTHON, Operand
from promote_cli.rules import SpecialFunction
from promote_cli.steps import value_refused

# The largest finite value of the floats a scalar exponent is converted to (``pow``).
_FLOAT_MAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38}


def _number(x: Operand) -> int | float | complex | None:
    """A valued Python scalar's value (a bool as the int it is), else None."""
    if x.category != PYTHON or x.value is None:
        return None
    value: int | float | complex = x.value
    return value


def _promoted(array: Operand, scalar: Operand, opts: Mapping[str, Any]) -> str | None:
    found = POLICY.promote(array, scalar.typed(), opts)
    return None if found.refused else found.result


def wrapped_divisor(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``int_tensor // 256``: an integer kernel takes the divisor cast to its type, wrapping
    (256 is 0 in uint8, 2**31 is 0 in int16, False is 0): a divisor that wraps to 0 raises
    ZeroDivisionError. A float result divides by the value as it is."""
    found = value_refused(POLICY, operands, opts)
    if found is not None:
        return found
    array, divisor = operands
    value = _number(divisor)
    if array.category == PYTHON or value is None or isinstance(value, (float, complex)):
        return None
    t = _promoted(array, divisor, opts)
    if t is None or get(t).kind not in ("int", "uint"):
        return None
    if int(value) % 2 ** (get(t).bits or 64) == 0:
        return refuse(
            "value",
            f"PyTorch raises ZeroDivisionError: the divisor {value!r} cast to {t} (wrapping) is 0",
        )
    return None


def exponent(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``tensor ** -1`` and ``uint8_tensor ** 300``: a scalar exponent is converted to the
    result's type, checked: a negative int is refused for an integer result ("Integers to
    negative integer powers are not allowed"); for an integer result an int in [2**63, 2**64)
    does not fit int64 (checked first) and an int outside its range does not fit it, nor a
    number beyond float16's or bfloat16's largest finite value ("value cannot be converted to
    type ... without overflow"). A scalar base (``2 ** tensor``) is converted as ``+``
    converts it."""
    found = value_refused(POLICY, operands, opts)
    if found is not None:
        return found
    base, power = operands
    value = _number(power)
    if base.category == PYTHON or value is None or isinstance(value, (bool, complex)):
        return None  # a bool exponent (0 or 1) fits every type
    t = _promoted(base, power, opts)
    if t is None:
        return None
    kind = get(t).kind
    integral = kind in ("bool", "int", "uint")
    if integral and isinstance(value, int) and value < 0:
        return refuse(
            "value",
            "PyTorch raises RuntimeError: Integers to negative integer powers are not allowed.",
        )
    if kind in ("int", "uint") and isinstance(value, int):
        if value >= 2**63:  # a uint64 Scalar, checked against int64 first
            return _overflow(value, "int64")
        bits = get(t).bits or 64
        low, high = (
            (0, 2**bits - 1) if kind == "uint" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        )
        if not low <= value <= high:
            return _overflow(value, t)
    largest = _FLOAT_MAX.get(t)
    if largest is not None and abs(value) != float("inf") and abs(value) > largest:
        return _overflow(value, t)
    return None


def _overflow(value: float, t: str) -> Outcome:
    return refuse(
        "value",
        f"PyTorch raises RuntimeError: value cannot be converted to type {t} without overflow"
        f" ({value!r}, the exponent)",
    )


def reciprocal(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``2**63 / bool_tensor``: ``Tensor.__rtruediv__`` is ``tensor.reciprocal() * value``, so
    a scalar on the left meets the reciprocal's type (a bool or an integer tensor's is
    float32), not the tensor's; on the right it is converted as ``+`` converts it."""
    left, right = operands
    if left.category != PYTHON:
        return value_refused(POLICY, operands, opts)
    kind = get(right.dtype).kind
    inverse = right if kind in ("float", "complex") else Operand("float32", right.category)
    return value_refused(POLICY, (left, inverse if right.category != PYTHON else right), opts)


SPECIALS: Mapping[str, SpecialFunction] = {
    "wrapped_divisor": wrapped_divisor,
    "exponent": exponent,
    "reciprocal": reciprocal,
}
