"""JAX's promotion: the type lattice of ``jax/_src/dtypes.py`` (with x64, without it, and under
``jax_numpy_dtype_promotion='strict'``), its weak types and how it materialises them, as
``jnp.result_type`` answers. The ``jax`` policy is this (its module says where it comes from and
where it departs from its neighbours); Keras's jax backend adds with ``jnp.add`` on arrays made
without x64, so it lives here, below both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from promote_cli.dtypes import CATALOGUE, get, is_weak
from promote_cli.engine import Materialised, Outcome, ref, refuse
from promote_cli.lattice import Lattice, LatticePolicy, read_edges
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, int_value
from promote_cli.shared.jax_names import COLUMN

SEED_TYPES = (
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)

# Each type and the types directly above it, in JAX's notation (types it has no short label
# for under their canonical names), as jax/_src/dtypes.py declares them with x64 on.
_EDGES = """
b1     i*
i*     u1 i1 int1 int2 int4 uint1 uint2 uint4
u1     i2 u2
u2     i4 u4
u4     i8 u8
u8     f*
i1     i2
i2     i4
i4     i8
i8     f*
f*     float4_e2m1fn float6_e2m3fn float6_e3m2fn float8_e3m4 float8_e4m3 float8_e8m0fnu
       float8_e4m3b11fnuz float8_e4m3fn float8_e4m3fnuz float8_e5m2 float8_e5m2fnuz bf f2 c*
bf     f4
f2     f4
f4     f8 c4
f8     c8
c*     c4
c4     c8
c8
int1
int2
int4
uint1
uint2
uint4
float4_e2m1fn
float6_e2m3fn
float6_e3m2fn
float8_e3m4
float8_e4m3
float8_e8m0fnu
float8_e4m3b11fnuz
float8_e4m3fn
float8_e4m3fnuz
float8_e5m2
float8_e5m2fnuz
"""
# Without x64, JAX avoids forming a 64-bit type from 32-bit inputs.
_X32_EDGES = """
u4     i4 u8
"""

_STANDARD = read_edges(_EDGES, COLUMN)
# JAX's types are the lattice's nodes, in catalogue order; the weak ones are Python scalars.
_STRONG = tuple(t for t in CATALOGUE if t in _STANDARD and not is_weak(t))


def _strict_edges() -> dict[str, tuple[str, ...]]:
    """jax_numpy_dtype_promotion='strict': each weak type sits directly under every strong type
    of its kind (and the weak complex under the weak float's complex types); no strong type is
    above another."""
    ints = tuple(t for t in _STRONG if get(t).is_integer)
    floats = tuple(t for t in _STRONG if get(t).is_float)
    return {
        "int*": ("float*", *ints),
        "float*": ("complex*", *floats),
        "complex*": ("complex64", "complex128"),
        **{t: () for t in _STRONG},
    }


@cache
def lattice(x64: bool = True, strict: bool = False) -> Lattice:
    """The lattice for an option setting (x64 does not change the strict lattice); checked by
    the tests, not on every run (``Lattice``)."""
    if strict:
        return Lattice(_strict_edges(), check=False)
    if x64:
        return Lattice(_STANDARD, check=False)
    return Lattice({**_STANDARD, **read_edges(_X32_EDGES, COLUMN)}, check=False)


# Without x64 JAX computes in 32 bits: a 64-bit result is narrowed.
_X32 = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
# A weak node reached from two strong inputs is materialised as JAX's default type.
_DEFAULT = {"int*": "int64", "float*": "float64", "complex*": "complex128"}


class JaxLattice(LatticePolicy):
    """JAX's promotion, as the jax policy and Keras's jax backend apply it (under the option
    setting given: ``x64``, ``strict``)."""

    name = "jax"
    title = "JAX"
    declared_in = COLUMN
    edges = _EDGES
    universe = (*_STRONG, "int*", "float*", "complex*")
    default_types = SEED_TYPES
    # 0-d arrays promote as arrays do; they are told apart for jnp.power, which eagerly takes
    # a 0-d integer exponent as a Python int (``jit``, ``specials.integer_pow``).
    categories = frozenset({"D", ZERO_D, PYTHON})

    def lattice_for(self, opts: Mapping[str, Any]) -> Lattice:
        return lattice(bool(opts["x64"]), bool(opts["strict"]))

    def materialise(self, weak: str, opts: Mapping[str, Any]) -> Materialised:
        """A weak type becomes JAX's default type of its kind (``jnp.asarray(1.0)``): 64-bit
        with x64, 32-bit without."""
        if opts["x64"]:
            return Materialised(_DEFAULT[weak], "with x64")
        return Materialised(_X32[_DEFAULT[weak]], "without x64")

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """The least upper bound of all operands at once, as ``jnp.result_type`` computes it.

        A binary result that JAX marks weakly typed (uint64 x int8 meets at ``f*``) takes part
        in a further promotion as weak, so an n-ary result is not a fold of reported pairs."""
        return self.least_bound(operands, opts)

    def carried(self, a: Operand, b: Operand, out: Outcome, opts: Mapping[str, Any]) -> Operand:
        """The array ``a + b`` gave keeps JAX's weak flag, which ``result_type`` sets whenever
        the bound is a weak node, also for two strong inputs (``uint64 + int8``)."""
        top = self.lattice_for(opts).lub(*self.nodes([a, b], opts))
        if top is not None and is_weak(top):
            return Operand(top, DIMENSIONED)
        return super().carried(a, b, out, opts)

    def made(self, dtype: str, opts: Mapping[str, Any]) -> str:
        """Without x64 JAX makes a 64-bit array 32-bit (``jnp.ones(2, jnp.int64)`` and
        ``x.astype(jnp.complex128)`` are int32 and complex64, with a warning)."""
        return dtype if opts["x64"] else _X32.get(dtype, dtype)

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """A Python int must fit JAX's default integer (int64 with x64, int32 without)."""
        value = int_value(scalar)
        if value is None or against is None:
            return None
        bits = 64 if opts["x64"] else 32
        if -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            return None
        return refuse(
            "value",
            f"JAX raises OverflowError: Python int {scalar.value} too large to convert to"
            f" int{bits}, JAX's default integer {'with' if opts['x64'] else 'without'} x64",
        )

    def nodes(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> list[str]:
        # P(int) is "int*"; a Python bool is the bool dtype. Without x64 JAX truncates 64-bit
        # inputs to 32 bits before promoting them.
        nodes = [self.node(op) for op in operands]
        return nodes if opts["x64"] else [_X32.get(n, n) for n in nodes]

    def bounded(
        self, lat: Lattice, nodes: Sequence[str], top: str, opts: Mapping[str, Any]
    ) -> Outcome:
        result = top
        if is_weak(top) and not any(is_weak(n) for n in nodes):
            result = _DEFAULT[top]
        if not opts["x64"]:
            result = _X32.get(result, result)
        why = lat.explain(nodes, top)
        if result != top:
            why += f", which JAX materialises as {ref(result)}"
        return Outcome(result, "lattice", why)

    def why_unbounded(
        self, nodes: Sequence[str], operands: Sequence[Operand], opts: Mapping[str, Any]
    ) -> str:
        if opts["strict"]:
            return (
                f"{' and '.join(map(ref, dict.fromkeys(nodes)))} have no implicit promotion"
                " path under jax_numpy_dtype_promotion='strict'; cast explicitly"
            )
        for t in (get(n) for n in nodes if not is_weak(n)):
            if t.is_float and t.bits < 16:  # type: ignore[operator]
                return (
                    f"{t.bits}-bit floats such as {ref(t.name)} do not promote implicitly in JAX;"
                    " cast explicitly"
                )
            if t.is_integer and t.bits < 8:  # type: ignore[operator]
                return (
                    f"1-, 2- and 4-bit integers such as {ref(t.name)} do not promote"
                    " implicitly in JAX"
                )
        return super().why_unbounded(nodes, operands, opts)
