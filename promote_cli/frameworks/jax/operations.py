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
Eagerly (``jit=false``, the default) a 0-d array of int8 to int64 or uint8 to uint64 is a
concrete exponent, which ``jnp.power`` takes as a Python int (``operator.index``) just the same:
``int16 ** S(int32)`` is int16, ``bool ** S(uint8)`` int32, and a Python scalar base keeps its
weak type (``2 ** S(int8)`` is ``int*``, ``True ** S(int8)`` int32); inside ``jax.jit``
(``jit=true``) the exponent is a tracer and promotes (int32, uint8, int8). A bool or a 1- to
4-bit integer 0-d exponent is not taken as an int either way. No other operation looks at a
0-d array, so only ``pow``, ``**`` and ``**=`` are asked about one (``zero_d``).
Those cases are ``specials.py``'s ``integer_pow``, and ``matmul``'s refusal of a bool with an
int1 (``lax.dot_general``'s argument check) its ``dot_general``; the maps are keyed by ``x64``.

Missing CPU kernels (XLA): arrays of int1, uint1, float6_e2m3fn and float6_e3m2fn fail every
function at run time; sums, products and cumulative sums of the 2- and 4-bit integers fail,
argmax of the 2-bit ones, and ``pow`` of two 2- or 4-bit integer arrays. ``promote`` answers
what the rule gives there and marks it ``no-kernel``.
"""

from __future__ import annotations

from promote_cli.frameworks.jax.promotion import POLICY
from promote_cli.operands import DIMENSIONED
from promote_cli.rules import (
    ANY_VALUE,
    REBINDS,
    BySetting,
    Maps,
    Operations,
    Operators,
    Rule,
    Updates,
    with_operators,
)

# Where a function the rules do not list is found: ``jnp.`` + its array API name.
NAMESPACE = "jnp."

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
    index_dtype="int64",
    default_float="float32",
)
_X32 = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},
    accumulate={"bool": "int32", "int": "int32", "uint": "uint32"},
    real={"complex64": "float32"},
    index_dtype="int32",
    default_float="float32",
)
# XLA on the CPU cannot run these at all; a function that refuses some of them first (the
# bitwise ones refuse floats, sqrt &co the 1- and 2-bit integers) lists only the rest.
NO_XLA = ("int1", "uint1", "float6_e2m3fn", "float6_e3m2fn")
_NO_XLA_INT, _NO_XLA_FLOAT = NO_XLA[:2], NO_XLA[2:]
_SUB_BYTE = ("int2", "int4", "uint2", "uint4")
_INT32 = {"bool": "int32"}  # no bool form: JAX casts the bool to int32, even with x64
# 1- and 2-bit integers have no float conversion: divide and mean keep them, sqrt &co refuse.
_KEEP = {t: t for t in ("int1", "uint1", "int2", "uint2")}
_NO_FLOAT = ("int1", "uint1", "int2", "uint2")
_BITWISE = ("float", "complex")


RULES = {
    "add": Rule("jnp.add", no_kernel=NO_XLA),
    "subtract": Rule("jnp.subtract", refuses=("bool",), no_kernel=NO_XLA),
    "multiply": Rule("jnp.multiply", no_kernel=NO_XLA),
    "divide": Rule(
        "jnp.divide",
        overrides=_KEEP,
        no_kernel=NO_XLA,
    ),
    "floor_divide": Rule(
        "jnp.floor_divide", refuses=("complex",), overrides=_INT32, no_kernel=NO_XLA
    ),
    "remainder": Rule("jnp.remainder", refuses=("complex",), overrides=_INT32, no_kernel=NO_XLA),
    "pow": Rule(
        "jnp.pow",
        overrides={**_INT32, "int*": "int32"},
        no_kernel=(*NO_XLA, *_SUB_BYTE),
        special="integer_pow",
        value=ANY_VALUE,
        value_special="integer_exponent",
    ),
    "maximum": Rule("jnp.maximum", no_kernel=NO_XLA),
    "minimum": Rule("jnp.minimum", no_kernel=NO_XLA),
    "equal": Rule("jnp.equal", no_kernel=NO_XLA),
    "less": Rule("jnp.less", no_kernel=NO_XLA),
    "logical_and": Rule("jnp.logical_and", no_kernel=NO_XLA),
    "bitwise_and": Rule("jnp.bitwise_and", refuses=_BITWISE, no_kernel=_NO_XLA_INT),
    "bitwise_left_shift": Rule(
        "jnp.bitwise_left_shift", refuses=_BITWISE, overrides=_INT32, no_kernel=_NO_XLA_INT
    ),
    "atan2": Rule("jnp.atan2", refuses=_NO_FLOAT, no_kernel=_NO_XLA_FLOAT),
    "matmul": Rule(
        "jnp.matmul", no_kernel=NO_XLA, categories=frozenset({DIMENSIONED}), special="dot_general"
    ),
    "negative": Rule("jnp.negative", refuses=("bool",), no_kernel=NO_XLA),
    "abs": Rule(
        "jnp.abs",
        refuses=("int2", "int4"),
        overrides={"int1": "int8"},
        no_kernel=NO_XLA,
    ),
    "sqrt": Rule("jnp.sqrt", refuses=_NO_FLOAT, no_kernel=_NO_XLA_FLOAT),
    "exp": Rule("jnp.exp", refuses=_NO_FLOAT, no_kernel=_NO_XLA_FLOAT),
    "log": Rule("jnp.log", refuses=_NO_FLOAT, no_kernel=_NO_XLA_FLOAT),
    "sin": Rule("jnp.sin", refuses=_NO_FLOAT, no_kernel=_NO_XLA_FLOAT),
    "floor": Rule("jnp.floor", refuses=("complex",), no_kernel=NO_XLA),
    "ceil": Rule("jnp.ceil", refuses=("complex",), no_kernel=NO_XLA),
    "round": Rule("jnp.round", refuses=("bool",), no_kernel=NO_XLA),
    "sign": Rule("jnp.sign", refuses=("bool",), no_kernel=NO_XLA),
    "square": Rule("jnp.square", overrides=_INT32, no_kernel=NO_XLA),
    "logical_not": Rule("jnp.logical_not", no_kernel=NO_XLA),
    "bitwise_invert": Rule("jnp.bitwise_invert", refuses=_BITWISE, no_kernel=_NO_XLA_INT),
    "real": Rule("jnp.real", no_kernel=NO_XLA),
    "imag": Rule("jnp.imag", no_kernel=NO_XLA),
    "isnan": Rule("jnp.isnan", no_kernel=NO_XLA),
    "sum": Rule("jnp.sum", no_kernel=(*NO_XLA, *_SUB_BYTE)),
    "prod": Rule("jnp.prod", no_kernel=(*NO_XLA, *_SUB_BYTE)),
    "mean": Rule("jnp.mean", overrides=_KEEP, no_kernel=NO_XLA),
    "max": Rule("jnp.max", no_kernel=NO_XLA),
    "argmax": Rule("jnp.argmax", refuses=("complex",), no_kernel=(*NO_XLA, "int2", "uint2")),
    "cumulative_sum": Rule("jnp.cumulative_sum", no_kernel=(*NO_XLA, *_SUB_BYTE)),
    "where": Rule("jnp.where", no_kernel=NO_XLA),
}

# jax.Array is immutable: ``a += b`` binds ``a`` to ``a + b``, a new array of the promoted
# type (``x.at[i].add`` is JAX's update, a function).
# ``+x`` (jnp.positive) takes a bool, which ``-x`` (jnp.negative) refuses.
OPERATORS = Operators(
    "jax.Array",
    Updates(REBINDS),
    rules={"+x": Rule("jax.Array.__pos__", no_kernel=NO_XLA)},
)

OPERATIONS = Operations(
    POLICY,
    _X64,
    with_operators(RULES, OPERATORS, NAMESPACE),
    "jax.numpy and jax.Array's operators in JAX 0.10.2 on the CPU, measured under every x64"
    " and strict setting",
    by_setting=BySetting(("x64",), maps={(True,): _X64, (False,): _X32}),
    operators=OPERATORS,
    values=True,
    zero_d=("pow",),
)
