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
from promote_cli.operands import PYTHON, Operand, int_value
from promote_cli.ops import NO_KERNEL, REFUSES_TYPE, SpecialFunction

_NARROW = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}


def integer_pow(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``jnp.power``'s own cases: a Python int or bool exponent, a Python scalar base."""
    base, exponent = operands
    if (
        exponent.category == PYTHON
        and exponent.dtype in ("int*", "bool")
        and base.category != PYTHON
    ):
        t = base.dtype if opts["x64"] else _NARROW.get(base.dtype, base.dtype)
        if base.dtype not in POLICY.universe:
            return None
        out = "int32" if t == "bool" else t
        why = (
            f"a Python integer exponent raises {ref(t)} to an integer power (lax.integer_pow):"
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
