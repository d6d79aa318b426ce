"""Paddle's own cases (``Rule.special``), decided before the promotion: what its functions do
with a Python scalar or mixed ``matmul`` operands that a promotion and a kind cannot say, each
measured (see ``operations.py``). ``SPECIALS`` names them for the rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.paddle.operations import MATMUL_MIXED
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.ops import NO_KERNEL, REFUSES_TYPE, SIGNATURE, SpecialFunction


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


SPECIALS: Mapping[str, SpecialFunction] = {
    "complex_scalar": complex_scalar,
    "scalar_pow": scalar_pow,
    "bitwise_scalar": bitwise_scalar,
    "and_scalar": and_scalar,
    "mixed_matmul": mixed_matmul,
}
