"""JAX: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source=(
        "`jax.numpy.promote_types` / `result_type`: the lattice of JAX 0.10.2 and the table on "
        'JAX\'s "Type promotion semantics" page'
    ),
    kind="lattice",
    reproduces=(
        "`jax.numpy.promote_types` and `jnp.result_type` (JAX 0.10.2): the lattice, Python "
        "scalars as JAX's weak types"
    ),
    operands="`D(t)`, `S(t)` (a 0-d exponent of `**` only), Python scalars (weak)",
    nary="`jnp.result_type`: the lattice's least upper bound of all operands",
    chain=(
        "a fold whose intermediates keep JAX's weak flag (`uint64 + int8` is a weak float64 "
        "array, so `+ float16` gives float16); differs only where Python scalars meet first "
        "(`P(bool) P(bool) bool` is int64, weak; under strict, `P(bool) P(bool) int8` works)"
    ),
    asked=(
        "`jax._src.dtypes.result_type(a, b, return_weak_type_flag=True)`; Python scalars as "
        "`int`/`float`/`complex`/`bool`, dtypes through NumPy and ml_dtypes"
    ),
    tried=(
        "`x64` (`jax_enable_x64`) x `strict` (`jax_numpy_dtype_promotion`), set per setting and "
        "restored, x `jit`: an operation's arrays concrete (eager) or the trace's arguments (as "
        "in `jax.jit`); 0-d arrays are asked of `pow`, `**` and `**=` only"
    ),
    options=(
        (
            "x64",
            (
                "64-bit mode. `false` is JAX without `jax_enable_x64`: 64-bit inputs and results "
                "are narrowed to 32 bits and `uint32 x int32` stays `int32`"
            ),
        ),
        (
            "strict",
            "`jax_numpy_dtype_promotion='strict'`: only weak scalars promote implicitly",
        ),
        (
            "jit",
            (
                "`false` is eager JAX, a line at a prompt: `**` takes a 0-d integer exponent "
                "`S(t)` as a Python int (`lax.integer_pow`: `int16 ** S(int32)` is `int16`); "
                "`true` is inside `jax.jit`, where it is a tracer and promotes (`int32`). Nothing "
                "else differs"
            ),
        ),
    ),
)
