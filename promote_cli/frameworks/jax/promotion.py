"""JAX: ``jax.numpy`` type promotion, a lattice.

Source: JAX's "Type promotion semantics" page (the seed's 15x15 table of
``jnp.promote_types``) and the lattice in ``jax/_src/dtypes.py`` (JAX 0.10.2), which also covers
what the page does not: int1/int2/int4 and their unsigned kin, the float4/float6/float8 families
(no edges above them, so JAX refuses to promote them with anything but themselves, bool and
weak scalars), and the weak types ``i*``, ``f*``, ``c*`` of Python scalars.

Options: ``x64`` (default true, as the seed table assumes), ``strict``
(``jax_numpy_dtype_promotion='strict'``) and ``jit`` (default false: eager, a line at a prompt;
true: inside ``jax.jit``, where every array is a tracer; it changes only ``**``'s answers).
With ``x64=false`` the answer is what JAX computes without 64-bit mode: the x32 lattice
(uint32 x int32 -> int32 rather than int64) and 64-bit inputs and results narrowed to 32 bits,
as ``jnp.result_type`` does.

Where it departs from its neighbours: unlike NumPy it never lets an integer widen a float
(i8 x f2 = f2, where NumPy gives float64), and uint64 x int meets at the weak float node.
JAX's ``result_type`` marks such a result weakly typed even when both inputs were strong;
``jnp.promote_types`` (and the seed table) report the plain dtype, and so does this policy for
two strong operands. A weak result is reported (``float*``) only when an operand was weak.
A Python ``bool`` is not weak in JAX: ``P(bool)`` is the ``bool`` dtype. 0-d arrays are not
special in a promotion (only eagerly as ``**``'s exponent: ``operations.py``).

The two n-ary questions: ``jnp.result_type(a, b, c)`` is the least upper bound of all operands
at once; a chain ``(a + b) + c`` is a fold in which each intermediate array keeps JAX's weak
flag (``uint64 + int8`` is a weakly typed float64 array, so ``(u8 + i1) + f2`` is float16, as
the bound is), so the two differ only where two Python scalars meet in Python first:
``True + True + bool_array`` is int64 (the Python int 2 is weak) while ``result_type(True,
True, bool)`` is bool, and under strict promotion ``True + True + int8`` is int8 where
``result_type(True, True, int8)`` raises.

Python scalar values: JAX converts a Python int to its default integer, int64 with x64 and
int32 without, and raises ``OverflowError`` when it does not fit, whatever the array's dtype;
it never checks the value against the array's dtype (``uint8 + 300`` wraps silently to uint8,
though JAX's docs once said it raises). ``jnp.result_type`` never looks at values: a valued
operand asks about the operation, so promote refuses in both questions.
"""

from __future__ import annotations

from promote_cli.frameworks.jax import FRAMEWORK
from promote_cli.shared.jax_lattice import JaxLattice


class JaxPolicy(JaxLattice, framework=FRAMEWORK):
    """The jax policy: JAX's promotion (``promote_cli/shared/jax_lattice.py``)."""

    compared_with = "numpy"  # the page greens the cells where numpy.promote_types differs


POLICY = JaxPolicy()
