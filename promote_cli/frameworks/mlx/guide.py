"""MLX: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="`mlx.core.add` (MLX 0.32), measured",
    kind="JAX's lattice, weak bounds materialised",
    reproduces="`mlx.core.add` (MLX 0.32)",
    operands="`D(t)`, Python scalars",
    nary=(
        "`mx.result_type` on arrays, a left fold (`uint64 int8 float16` is float32, `float16 "
        "uint64 int8` float16); it refuses Python scalars, so a pair with one is `mx.add`'s "
        "answer (as `np.result_type` and `torch.result_type` answer for a Python scalar what "
        "their operators do) and three or more fold those pairs: `int int uint8` is int32 "
        "(`mx.add(1, 1)` is an int32 array)"
    ),
    chain=(
        "a fold with `mx.add`: `int int uint8` is uint8 (`1 + 1` is a Python int); `uint8 + "
        'int:300` is refused in both ("Converting 300 to uint8 would result in overflow")'
    ),
    asked=(
        "`mx.result_type` of `mx.zeros((2,), t)` arrays; `mx.add` where a Python scalar or value "
        "is an operand (`mx.result_type` refuses them; a triple with one folds those pairs left); "
        "the chain and values with `mx.add`, each result `mx.eval`'d"
    ),
    tried="none",
)
