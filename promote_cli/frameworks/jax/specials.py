"""JAX's own cases of its operations, decided before the promotion (``Rule.special``): what
``jax.numpy`` does that a promotion and a kind cannot say. Each is measured (see
``operations.py``); ``SPECIALS`` names them for the rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.jax.operations import NO_XLA
from promote_cli.frameworks.jax.promotion import POLICY
from promote_cli.operands import PYTHON, ZERO_D, Operand, int_value
from promote_cli.rules import NO_KERNEL, REFUSES_TYPE, SpecialFunction

_NARROW = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
# The 0-d arrays ``operator.index`` takes (not bool, not the sub-byte integers): eager, such an
# exponent is concrete and ``jnp.power`` takes it as a Python int.
_INDEX = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _integer_exponent(exponent: Operand, opts: Mapping[str, Any]) -> bool:
    """Whether ``jnp.power`` raises to the exponent as a Python int (``lax.integer_pow``): a
    Python int or bool, and eagerly (not under ``jax.jit``, where it is a tracer) a 0-d array
    of an integer type ``operator.index`` takes."""
    if exponent.category == PYTHON:
        return exponent.dtype in ("int*", "bool")
    return exponent.category == ZERO_D and not opts["jit"] and exponent.dtype in _INDEX


def integer_pow(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``jnp.power``'s own cases: an integer exponent it takes as a Python int (a Python int or
    bool; eagerly, a 0-d integer array too), a Python scalar base."""
    base, exponent = operands
    if _integer_exponent(exponent, opts) and base.category == PYTHON:
        # Eagerly, a Python scalar base raised to a 0-d integer array: the base made an array
        # (weak; a bool is the bool dtype), then lax.integer_pow.
        out = "int32" if base.dtype == "bool" else base.dtype
        return Outcome(
            out,
            "integer-pow",
            f"eagerly a 0-d {ref(exponent.dtype)} exponent is concrete and taken as a Python int"
            f" (lax.integer_pow): {ref(base.dtype)} raised to it is {ref(out)}",
        )
    if _integer_exponent(exponent, opts):
        t = base.dtype if opts["x64"] else _NARROW.get(base.dtype, base.dtype)
        if base.dtype not in POLICY.universe:
            return None
        out = "int32" if t == "bool" else t
        given = "a Python integer" if exponent.category == PYTHON else "eagerly, a 0-d integer"
        why = (
            f"{given} exponent raises {ref(t)} to an integer power (lax.integer_pow):"
            f" no promotion, {ref(out)}"
        )
        if t in NO_XLA:
            return Outcome(out, NO_KERNEL, f"{why}; but XLA on the CPU cannot run {ref(t)}")
        return Outcome(out, "integer-pow", why)
    if base.category == PYTHON and base.dtype != "bool" and exponent.category != PYTHON:
        promoted = POLICY.promote(base, exponent, opts)
        kind = dtype(exponent.dtype).kind
        # A float or complex base with a bool exponent stays weak; an int base does not.
        if (
            promoted.result is not None
            and promoted.result.endswith("*")
            and (kind in ("int", "uint") or promoted.result == "int*")
        ):
            out = POLICY.materialise(promoted.result, opts).dtype
            return Outcome(
                out,
                "scalar-base",
                f"a Python scalar base with an integer exponent is made an array first:"
                f" {ref(promoted.result)} becomes {ref(out)}",
            )
    return None


def integer_exponent(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """A Python int exponent's value (``lax.integer_pow`` takes it as it is, unconverted): any
    int is taken (``int8_array ** 2**64`` is int8 even without x64), but a negative one raises
    an integer or bool base (``TypeError: Integers cannot be raised to negative powers``); a
    float base takes it. A Python scalar base is converted as ``+`` converts it."""
    base, exponent = operands
    if base.category == PYTHON:
        return (
            POLICY.check_value(base, exponent.dtype, opts) if exponent.category != PYTHON else None
        )
    value = int_value(exponent)
    if value is None or value >= 0 or exponent.dtype == "bool":
        return None
    if dtype(base.dtype).kind not in ("bool", "int", "uint"):
        return None
    return refuse(
        "value",
        f"JAX raises TypeError: Integers cannot be raised to negative powers, got"
        f" integer_pow({'int32' if base.dtype == 'bool' else base.dtype}, {value})",
    )


def dot_general(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``lax.dot_general`` refuses a bool with an int1 (its argument check), though they
    promote to int1."""
    if {x.dtype for x in operands} == {"bool", "int1"}:
        return refuse(REFUSES_TYPE, f"lax.dot_general refuses {ref('bool')} with {ref('int1')}")
    return None


SPECIALS: Mapping[str, SpecialFunction] = {
    "integer_pow": integer_pow,
    "dot_general": dot_general,
    "integer_exponent": integer_exponent,
}
