"""tinygrad: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="`tinygrad.dtype.least_upper_dtype` over `promo_lattice` (tinygrad 0.14)",
    kind="lattice with a tie-break",
    reproduces="`least_upper_dtype` over `promo_lattice` (tinygrad 0.14)",
    operands="`D(t)`, Python `bool`, `int`, `float`",
    nary=(
        "`least_upper_dtype`: one least upper bound over all operands, a Python scalar as "
        "`dtypes.from_py` reads it (`fp8e4m3 fp8e5m2 bfloat16` is bfloat16)"
    ),
    chain=(
        "a fold whose intermediates are lazy tensors that stay weak (`int8 + 1.0` is a weakfloat "
        "tensor, so `+ float16` gives float16); `fp8e4m3 fp8e5m2 bfloat16` is float32"
    ),
    asked=(
        "`tinygrad.dtype.least_upper_dtype` on its dtypes, a Python scalar as `dtypes.from_py` "
        "reads it; the chain and values: the dtype of a lazy `(a + b) + c` (never realised, so no "
        'compiler is needed), tensors made under `Context(DEV="PYTHON")`'
    ),
    tried="none",
)
