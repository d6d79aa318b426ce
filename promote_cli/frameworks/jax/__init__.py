"""JAX: ``jax.numpy``'s type promotion, a lattice with weak types (``promotion.py``)."""

from promote_cli.framework import (
    CLASS_NAMED,
    NUMPY_SPELLINGS,
    Condition,
    DTypeObjects,
    Expressions,
    Framework,
)
from promote_cli.options import Option
from promote_cli.shared.jax_names import COLUMN

FRAMEWORK = Framework(
    name="jax",
    title="JAX",
    source="jax.numpy.promote_types and result_type in JAX 0.10.2: the lattice in"
    " jax/_src/dtypes.py and the table on JAX's “Type promotion semantics” page",
    version="0.10.2",
    notation="jax",
    prefixes=("jax.numpy", "jnp"),
    dtype_objects=(DTypeObjects("jax", CLASS_NAMED),),  # jnp.int8
    column=COLUMN,
    options=(
        Option("x64", "bool", True, "64-bit mode (jax_enable_x64); false narrows results to 32"),
        Option("strict", "bool", False, "jax_numpy_dtype_promotion='strict': no implicit mixing"),
        Option(
            "jit",
            "bool",
            False,
            "inside jax.jit: a 0-d integer array is traced, so ** promotes (false: eager)",
        ),
    ),
    install="jax",
    in_extra=True,
    expressions=Expressions(
        namespaces=("jnp", "jax.numpy"),
        aliases=NUMPY_SPELLINGS,
        checked=True,
        # every array and Python scalar is read as truth values.
        where=Condition(
            measured="JAX 0.10.2, 2026-12-07",
        ),
        # XLA makes no float6 array on the CPU ("Invalid XLA PrimitiveType"), and JAX 0.10.2's
        # caches take int1, uint1 and bool arrays of one shape for one another
        # (jnp.ones((2, 2), int1) made after jnp.ones((2, 2), bool) is a bool array).
        unrun=("float6_e2m3fn", "float6_e3m2fn", "int1", "uint1"),
        weak_kept=True,
    ),
)
