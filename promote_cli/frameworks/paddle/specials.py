"""Paddle's own cases (``Rule.special``), decided before the promotion: what its functions do
with a Python scalar or mixed ``matmul`` operands that a promotion and a kind cannot say, each
measured (see ``operations.py``). ``SPECIALS`` names them for the rules."""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.paddle.operations import MATMUL_MIXED
from promote_cli.operands import PYTHON, ZERO_D, Operand, int_value
from promote_cli.rules import NO_KERNEL, REFUSES_TYPE, SIGNATURE, SpecialFunction


def complex_scalar(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``divide``, ``remainder``, ``pow``: a 0-d float64 or complex128 tensor with a Python
    complex is complex64 (``+`` gives complex128)."""
    kinds = {(x.category, x.dtype) for x in operands}
    if (PYTHON, "complex*") in kinds and kinds & {(ZERO_D, "float64"), (ZERO_D, "complex128")}:
        return Outcome(
            "complex64",
            "complex-scalar",
            "a Python complex with a 0-d float64 or complex128 tensor gives complex64 here"
            " (measured; x + 1j gives complex128)",
        )
    return None


def scalar_pow(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``x ** 1`` of a bfloat16 tensor runs the scalar ``pow`` kernel, which has no bfloat16."""
    base, exponent = operands
    if (
        base.dtype == "bfloat16"
        and base.category != PYTHON
        and exponent.dtype in ("int*", "float*")
    ):
        return Outcome(
            "bfloat16",
            NO_KERNEL,
            f"{ref('bfloat16')} ** a Python scalar keeps {ref('bfloat16')}; but Paddle has no CPU"
            " kernel of the scalar pow for it: the call raises there (a gap, not a promotion rule)",
        )
    return complex_scalar(operands, opts)


def bitwise_scalar(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``x << 1``, ``1 << x``: a Python bool or int with an integer tensor keeps the tensor's
    type; any other scalar or tensor type is refused."""
    a, b = operands
    if PYTHON not in (a.category, b.category):
        return None
    scalar, tensor = (a, b) if a.category == PYTHON else (b, a)
    if scalar.dtype in ("bool", "int*") and dtype(tensor.dtype).kind in ("int", "uint"):
        return Outcome(tensor.dtype, "scalar", "a Python bool or int keeps the tensor's type")
    return refuse(
        REFUSES_TYPE,
        f"Paddle's bitwise functions take only a Python bool or int with an integer tensor,"
        f" not a {ref(scalar.dtype)} with {ref(tensor.dtype)}",
    )


def and_scalar(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``1 & x`` is ``x.__rand__(1)``; ``x & 1`` calls ``bitwise_and(x, 1)``, which takes
    tensors only. A bool tensor keeps bool."""
    a, b = operands
    if b.category == PYTHON and a.category != PYTHON:
        return refuse(SIGNATURE, "x & 1 calls paddle.bitwise_and, which takes tensors only")
    if a.category == PYTHON and a.dtype in ("bool", "int*") and b.dtype == "bool":
        return Outcome("bool", "scalar", "a Python bool or int keeps the tensor's type")
    return bitwise_scalar(operands, opts)


def mixed_matmul(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    a, b = operands
    found = MATMUL_MIXED.get((a.dtype, b.dtype))
    if found is None:
        return None
    return Outcome(
        found,
        "mixed-kernel",
        f"matmul does not promote; {ref(a.dtype)} @ {ref(b.dtype)} runs the {ref(found)} kernel"
        " anyway (measured)",
    )


# Values (``Rule.value_special``), measured with every tensor type and 25 values on either side.
_INT64 = range(-(2**63), 2**63)
_INT64_OR_UINT64 = range(-(2**63), 2**64)
_SYSTEM_ERROR = (
    "Paddle converts it to a C long and returns anyway: SystemError ... returned a result with"
    " an exception set (OverflowError: int too big to convert)"
)


def _scalar_value(x: Operand) -> int | None:
    """A valued Python int's value, a bool's as 0 or 1 (None for any other operand)."""
    if x.category == PYTHON and x.dtype == "bool" and isinstance(x.value, bool):
        return int(x.value)
    return int_value(x)


def _zero_divisor(tensor: Operand, divisor: Operand, function: str) -> Outcome | None:
    """An integer (or bool) tensor divided by a Python int or bool that is 0 once wrapped into
    the type the two compute in (the tensor's; int64 for a bool tensor and an int):
    ``uint8_tensor // 256``, ``int32_tensor % 2**32``, ``bool_tensor / False``."""
    value = _scalar_value(divisor)
    if tensor.category == PYTHON or value is None:
        return None
    computed = "int64" if tensor.dtype == "bool" and divisor.dtype == "int*" else tensor.dtype
    bits = dtype(computed).bits
    if dtype(computed).kind not in ("bool", "int", "uint") or bits is None:
        return None
    if value % 2**bits:
        return None
    return refuse(
        "value",
        f"{function} of {ref(tensor.dtype)} by {divisor.value!r}, which is 0 in {ref(computed)}:"
        " Paddle raises InvalidArgumentError: Integer division by zero",
    )


def divide_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``x / v`` takes any Python int (``int32_tensor / 2**64`` is float32); ``v / x``
    (``Tensor.__rtruediv__``) converts it to a C long first, so one outside int64 is refused.
    ``bool_tensor / False`` divides bools by zero."""
    a, b = operands
    value = int_value(a)
    if value is not None and value not in _INT64:
        return refuse("value", f"{value} / a tensor: {value} does not fit int64; {_SYSTEM_ERROR}")
    if a.dtype == "bool" and b.dtype == "bool":
        return _zero_divisor(a, b, "divide")
    return None


def zero_divisor(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``floor_divide``, ``remainder`` (``x // v``, ``x % v``) of an integer tensor by a Python
    int or bool that is 0 in the tensor's type; the int is checked as an int64 first
    (``Rule.value``)."""
    a, b = operands
    return _zero_divisor(a, b, "floor_divide or remainder")


def bitwise_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """The bitwise operators take a Python int that fits int64 or uint64 (``1 << int8`` of
    ``2**64 - 1`` is int8); one outside both is made an ``object`` array and refused (TypeError:
    "dtype must be any of [bool, float16, ...], but received object")."""
    for scalar in operands:
        value = int_value(scalar)
        if value is not None and value not in _INT64_OR_UINT64:
            return refuse(
                "value",
                f"Paddle's bitwise operators take a Python int that fits int64 or uint64, which"
                f" {value} does not: TypeError: dtype must be any of [bool, ...], but received"
                " object",
            )
    return None


def _as_float32(value: int) -> float:
    """``value`` rounded to a float32, as Paddle's pow takes its exponent (inf beyond it)."""
    try:
        return float(struct.unpack("f", struct.pack("f", float(value)))[0])
    except OverflowError:
        return math.inf if value > 0 else -math.inf  # (copysign would make the int a float)


def power_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``pow``, ``**``, ``**=`` with a Python int. On the left (``v ** t``,
    ``Tensor.__rpow__``) it is converted to a C long: one outside int64 is refused. As the
    exponent of an int32, int64 or bool tensor it is made a float32 and then the integer type,
    and Paddle's integer pow kernel (``phi::PowKernel``) never returns when that is negative:
    ``int32_tensor ** -1``, and ``** (2**31 - 1)``, which float32 rounds to 2**31 (int64 from
    ``2**63 - 2**38``). promote refuses it rather than hang; ``promote verify`` runs each such
    power in a forked copy of its worker and kills it after a few seconds. The narrower
    integers have no pow kernel (a gap); a float tensor takes any exponent."""
    base, exponent = operands
    value = int_value(base)
    if value is not None and value not in _INT64:
        return refuse("value", f"{value} ** a tensor: {value} does not fit int64; {_SYSTEM_ERROR}")
    value = int_value(exponent)
    if base.category == PYTHON or value is None or base.dtype not in ("bool", "int32", "int64"):
        return None
    computed = "int32" if base.dtype == "int32" else "int64"
    as_float = _as_float32(value)
    if 0 <= as_float < 2 ** (dtype(computed).bits - 1):  # type: ignore[operator]
        return None
    return refuse(
        "value",
        f"{ref(base.dtype)} ** {value}: the exponent, made a float32 ({as_float:g}) and then"
        f" {ref(computed)}, is negative or out of range, and Paddle's integer pow kernel never"
        " returns for it (the call hangs)",
    )


SPECIALS: Mapping[str, SpecialFunction] = {
    "complex_scalar": complex_scalar,
    "scalar_pow": scalar_pow,
    "bitwise_scalar": bitwise_scalar,
    "and_scalar": and_scalar,
    "mixed_matmul": mixed_matmul,
    "divide_value": divide_value,
    "zero_divisor": zero_divisor,
    "bitwise_value": bitwise_value,
    "power_value": power_value,
}
