"""JAX's operations: one rule per function of the vocabulary (``jax.numpy``, JAX 0.10.2, CPU).

Measured on JAX 0.10.2 under all four settings of ``x64`` and ``strict`` over every operand pair
(arrays of every JAX type, Python scalars on either side) and checked by ``promote verify``.
Every function promotes with the jax policy (its lattice, x64 narrowing, strict mode) and
applies its kind; the rule of an operation does not depend on the setting, only the maps do:
without x64 an integer becomes float32, sums accumulate in int32/uint32 and argmax is int32;
with x64 int64 and uint64 become float64 and sums accumulate in int64/uint64. ``mean`` and
``divide`` of an integer are its float (not a default float, as in NumPy). A bool becomes int32
where a function has no bool form (``floor_divide``, ``remainder``, ``pow``,
``bitwise_left_shift``, ``square``), even with x64. 2-bit integers are special: ``sqrt`` &co
refuse them, ``divide`` and ``mean`` keep them. A weak result (``float*``) stays weak.

``pow`` has a rule of its own (``jnp.power``): a Python int or bool exponent raises the base to
an integer power (``lax.integer_pow``), keeping the base's dtype (a bool base becomes int32) with
no promotion at all, strict mode included; a Python scalar base with an integer or bool exponent
array gives a strong result (``2.0 ** int8 array`` is float64 with x64, not the weak ``float*``).

Missing CPU kernels (XLA): arrays of int1, uint1, float6_e2m3fn and float6_e3m2fn fail every
function at run time; sums, products and cumulative sums of the 2- and 4-bit integers fail,
argmax of the 2-bit ones, and ``pow`` of two 2- or 4-bit integer arrays. ``promote`` answers
what the rule gives there and marks it ``no-kernel``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.jax.promotion import POLICY
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.ops import (
    ACCUMULATE,
    ALWAYS_BOOL,
    COMPLEX_TO_FLOAT,
    INDEX,
    INT_TO_FLOAT,
    NO_KERNEL,
    REFUSES_TYPE,
    Maps,
    Operations,
    Rule,
)

_X64 = Maps(
    inexact={
        "bool": "float32",
        "int": "float32",
        "uint": "float32",
        "int64": "float64",
        "uint64": "float64",
    },
    accumulate={"bool": "int64", "int": "int64", "uint": "uint64"},
    real={"complex64": "float32", "complex128": "float64"},
    index="int64",
    default_float="float32",
)
_X32 = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},
    accumulate={"bool": "int32", "int": "int32", "uint": "uint32"},
    real={"complex64": "float32"},
    index="int32",
    default_float="float32",
)
_NARROW = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}

# XLA on the CPU cannot run these at all.
_NO_XLA = ("int1", "uint1", "float6_e2m3fn", "float6_e3m2fn")
_SUB_BYTE = ("int2", "int4", "uint2", "uint4")
_INT32 = {"bool": "int32"}  # no bool form: JAX casts the bool to int32, even with x64
# 1- and 2-bit integers have no float conversion: divide and mean keep them, sqrt &co refuse.
_KEEP = {t: t for t in ("int1", "uint1", "int2", "uint2")}
_NO_FLOAT = (
    "int1",
    "uint1",
    "int2",
    "uint2",
)  # no bool form: JAX casts the bool to int32, even with x64
_BITWISE = ("float", "complex")


def _pow(operands: Sequence[Operand], ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
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
        if t in _NO_XLA:
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


def _dot(operands: Sequence[Operand], ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """``lax.dot_general`` refuses a bool with an int1 (its argument check), though they
    promote to int1."""
    if {x.dtype for x in operands} == {"bool", "int1"}:
        return refuse(REFUSES_TYPE, f"lax.dot_general refuses {ref('bool')} with {ref('int1')}")
    return None


RULES = {
    "add": Rule("jnp.add", no_kernel=_NO_XLA),
    "subtract": Rule("jnp.subtract", refuses=("bool",), no_kernel=_NO_XLA),
    "multiply": Rule("jnp.multiply", no_kernel=_NO_XLA),
    "divide": Rule(
        "jnp.divide",
        INT_TO_FLOAT,
        overrides=_KEEP,
        no_kernel=_NO_XLA,
    ),
    "floor_divide": Rule(
        "jnp.floor_divide", refuses=("complex",), overrides=_INT32, no_kernel=_NO_XLA
    ),
    "remainder": Rule("jnp.remainder", refuses=("complex",), overrides=_INT32, no_kernel=_NO_XLA),
    "pow": Rule(
        "jnp.pow",
        overrides={**_INT32, "int*": "int32"},
        no_kernel=(*_NO_XLA, *_SUB_BYTE),
        special=_pow,
    ),
    "maximum": Rule("jnp.maximum", no_kernel=_NO_XLA),
    "minimum": Rule("jnp.minimum", no_kernel=_NO_XLA),
    "equal": Rule("jnp.equal", ALWAYS_BOOL, no_kernel=_NO_XLA),
    "less": Rule("jnp.less", ALWAYS_BOOL, no_kernel=_NO_XLA),
    "logical_and": Rule("jnp.logical_and", ALWAYS_BOOL, no_kernel=_NO_XLA),
    "bitwise_and": Rule("jnp.bitwise_and", refuses=_BITWISE, no_kernel=_NO_XLA),
    "bitwise_left_shift": Rule(
        "jnp.bitwise_left_shift", refuses=_BITWISE, overrides=_INT32, no_kernel=_NO_XLA
    ),
    "atan2": Rule("jnp.atan2", INT_TO_FLOAT, refuses=_NO_FLOAT, no_kernel=_NO_XLA),
    "matmul": Rule(
        "jnp.matmul", no_kernel=_NO_XLA, categories=frozenset({DIMENSIONED}), special=_dot
    ),
    "negative": Rule("jnp.negative", refuses=("bool",), no_kernel=_NO_XLA),
    "abs": Rule(
        "jnp.abs",
        COMPLEX_TO_FLOAT,
        refuses=("int2", "int4"),
        overrides={"int1": "int8"},
        no_kernel=_NO_XLA,
    ),
    "sqrt": Rule("jnp.sqrt", INT_TO_FLOAT, refuses=_NO_FLOAT, no_kernel=_NO_XLA),
    "exp": Rule("jnp.exp", INT_TO_FLOAT, refuses=_NO_FLOAT, no_kernel=_NO_XLA),
    "log": Rule("jnp.log", INT_TO_FLOAT, refuses=_NO_FLOAT, no_kernel=_NO_XLA),
    "sin": Rule("jnp.sin", INT_TO_FLOAT, refuses=_NO_FLOAT, no_kernel=_NO_XLA),
    "floor": Rule("jnp.floor", refuses=("complex",), no_kernel=_NO_XLA),
    "ceil": Rule("jnp.ceil", refuses=("complex",), no_kernel=_NO_XLA),
    "round": Rule("jnp.round", refuses=("bool",), no_kernel=_NO_XLA),
    "sign": Rule("jnp.sign", refuses=("bool",), no_kernel=_NO_XLA),
    "square": Rule("jnp.square", overrides=_INT32, no_kernel=_NO_XLA),
    "logical_not": Rule("jnp.logical_not", ALWAYS_BOOL, no_kernel=_NO_XLA),
    "bitwise_invert": Rule("jnp.bitwise_invert", refuses=_BITWISE, no_kernel=_NO_XLA),
    "real": Rule("jnp.real", COMPLEX_TO_FLOAT, no_kernel=_NO_XLA),
    "imag": Rule("jnp.imag", COMPLEX_TO_FLOAT, no_kernel=_NO_XLA),
    "isnan": Rule("jnp.isnan", ALWAYS_BOOL, no_kernel=_NO_XLA),
    "sum": Rule("jnp.sum", ACCUMULATE, no_kernel=(*_NO_XLA, *_SUB_BYTE)),
    "prod": Rule("jnp.prod", ACCUMULATE, no_kernel=(*_NO_XLA, *_SUB_BYTE)),
    "mean": Rule("jnp.mean", INT_TO_FLOAT, overrides=_KEEP, no_kernel=_NO_XLA),
    "max": Rule("jnp.max", no_kernel=_NO_XLA),
    "argmax": Rule(
        "jnp.argmax", INDEX, refuses=("complex",), no_kernel=(*_NO_XLA, "int2", "uint2")
    ),
    "cumulative_sum": Rule("jnp.cumulative_sum", ACCUMULATE, no_kernel=(*_NO_XLA, *_SUB_BYTE)),
    "where": Rule("jnp.where", no_kernel=_NO_XLA),
}

OPERATIONS = Operations(
    POLICY,
    lambda opts: _X64 if opts["x64"] else _X32,
    RULES,
    "jax.numpy in JAX 0.10.2 on the CPU, measured under every x64 and strict setting",
)
