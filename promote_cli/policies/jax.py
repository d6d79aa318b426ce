"""JAX: ``jax.numpy`` type promotion, a lattice.

Source: JAX's "Type promotion semantics" page (the seed's 15x15 table of
``jnp.promote_types``) and the lattice in ``jax/_src/dtypes.py`` (JAX 0.10.2), which also covers
what the page does not: int1/int2/int4 and their unsigned kin, the float4/float6/float8 families
(no edges above them, so JAX refuses to promote them with anything but themselves, bool and
weak scalars), and the weak types ``i*``, ``f*``, ``c*`` of Python scalars.

Options: ``x64`` (default true, as the seed table assumes) and ``strict``
(``jax_numpy_dtype_promotion='strict'``). With ``x64=false`` the answer is what JAX computes
without 64-bit mode: the x32 lattice (uint32 x int32 -> int32 rather than int64) and 64-bit
64-bit inputs and results narrowed to 32 bits, as ``jnp.result_type`` does.

Where it departs from its neighbours: unlike NumPy it never lets an integer widen a float
(i8 x f2 = f2, where NumPy gives float64), and uint64 x int meets at the weak float node.
JAX's ``result_type`` marks such a result weakly typed even when both inputs were strong;
``jnp.promote_types`` (and the seed table) report the plain dtype, and so does this policy for
two strong operands. A weak result is reported (``float*``) only when an operand was weak.
A Python ``bool`` is not weak in JAX: ``P(bool)`` is the ``bool`` dtype. 0-d arrays are not
special.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from promote_cli.dtypes import CATALOGUE
from promote_cli.engine import IDEMPOTENT, LATTICE, SYMMETRIC, Option, Outcome, Policy, refuse
from promote_cli.lattice import Lattice
from promote_cli.operands import PYTHON, Operand

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
_NARROW_INTS = ("int1", "int2", "int4", "uint1", "uint2", "uint4")
_SMALL_FLOATS = (
    "float4_e2m1fn",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e8m0fnu",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
)


def _standard_edges(x64: bool) -> dict[str, tuple[str, ...]]:
    edges = {
        "bool": ("int*",),
        "int*": ("uint8", "int8", *_NARROW_INTS),
        "uint8": ("int16", "uint16"),
        "uint16": ("int32", "uint32"),
        # Without x64, JAX avoids forming a 64-bit type from 32-bit inputs.
        "uint32": ("int64", "uint64") if x64 else ("int32", "uint64"),
        "uint64": ("float*",),
        "int8": ("int16",),
        "int16": ("int32",),
        "int32": ("int64",),
        "int64": ("float*",),
        "float*": (*_SMALL_FLOATS, "bfloat16", "float16", "complex*"),
        "bfloat16": ("float32",),
        "float16": ("float32",),
        "float32": ("float64", "complex64"),
        "float64": ("complex128",),
        "complex*": ("complex64",),
        "complex64": ("complex128",),
        "complex128": (),
    }
    edges.update({t: () for t in (*_NARROW_INTS, *_SMALL_FLOATS)})
    return edges


# JAX's types are the lattice's nodes, in catalogue order; the weak ones are Python scalars.
_STRONG = tuple(t for t in CATALOGUE if t in _standard_edges(x64=True) and not t.endswith("*"))
_INTS = tuple(t for t in _STRONG if CATALOGUE[t].is_integer)
_FLOATS = tuple(t for t in _STRONG if CATALOGUE[t].is_float)

_STRICT_EDGES = {
    "int*": ("float*", *_INTS),
    "float*": ("complex*", *_FLOATS),
    "complex*": ("complex64", "complex128"),
    **{t: () for t in _STRONG},
}


@cache
def lattice(x64: bool = True, strict: bool = False) -> Lattice:
    """The lattice for an option setting (x64 does not change the strict lattice)."""
    return Lattice(_STRICT_EDGES if strict else _standard_edges(x64))


# Without x64 JAX computes in 32 bits: a 64-bit result is narrowed.
_X32 = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
# A weak node reached from two strong inputs is materialised as JAX's default type.
_DEFAULT = {"int*": "int64", "float*": "float64", "complex*": "complex128"}

_SMALL_WHY = {
    "float8": "8-bit floats",
    "float6": "6-bit floats",
    "float4": "4-bit floats",
}


def _no_path_reason(nodes: Sequence[str], strict: bool) -> str:
    names = " and ".join(dict.fromkeys(nodes))
    if strict:
        return (
            f"{names} have no implicit promotion path under "
            "jax_numpy_dtype_promotion='strict'; cast explicitly"
        )
    for t in nodes:
        for prefix, what in _SMALL_WHY.items():
            if t.startswith(prefix):
                return f"{what} such as {t} do not promote implicitly in JAX; cast explicitly"
        if t in _NARROW_INTS:
            return f"1-, 2- and 4-bit integers such as {t} do not promote implicitly in JAX"
    return f"{names} have no common type in JAX's lattice"


class JaxPolicy(Policy):
    name = "jax"
    title = "JAX"
    source = "jax.numpy.promote_types / result_type (JAX 0.10.2 lattice; seed table)"
    notation_name = "jax"
    universe = (*_STRONG, "int*", "float*", "complex*")
    default_types = SEED_TYPES
    options = (
        Option("x64", "bool", True, "64-bit mode (jax_enable_x64); false narrows results to 32"),
        Option("strict", "bool", False, "jax_numpy_dtype_promotion='strict': no implicit mixing"),
    )
    categories = frozenset({"D", PYTHON})
    properties = frozenset({SYMMETRIC, IDEMPOTENT, LATTICE})
    compared_with = "numpy"  # the page greens the cells where numpy.promote_types differs

    def node(self, op: Operand) -> str:
        return op.dtype  # P(int) is "int*"; a Python bool is the bool dtype

    def lattice_for(self, opts: Mapping[str, Any]) -> Lattice:
        return lattice(bool(opts["x64"]), bool(opts["strict"]))

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return self.join([a, b], opts)

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """The least upper bound of all operands at once, as ``jnp.result_type`` computes it.

        A binary result that JAX marks weakly typed (uint64 x int8 meets at ``f*``) takes part
        in a further promotion as weak, so an n-ary result is not a fold of reported pairs."""
        lat = self.lattice_for(opts)
        nodes = [self.node(op) for op in operands]
        if not opts["x64"]:
            # Without x64 JAX truncates 64-bit inputs to 32 bits before promoting them.
            nodes = [_X32.get(n, n) for n in nodes]
        top = lat.lub(*nodes)
        if top is None:
            return refuse("lattice", _no_path_reason(nodes, bool(opts["strict"])))
        result = top
        if top.endswith("*") and not any(n.endswith("*") for n in nodes):
            result = _DEFAULT[top]
        if not opts["x64"]:
            result = _X32.get(result, result)
        return Outcome(result, "lattice", self._why(lat, nodes, top, result))

    def _why(self, lat: Lattice, nodes: Sequence[str], top: str, result: str) -> str:
        label = self.notation.label
        text = lat.explain(nodes, top, label)
        if result != top:
            text += f", which JAX materialises as {label(result)}"
        return text


POLICY = JaxPolicy()
