"""PaddlePaddle: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="eager `x + y` (PaddlePaddle 3.3, CPU): `phi/common/type_promotion.h`, measured",
    kind="table + category rules",
    reproduces="eager `x + y` (PaddlePaddle 3.3, CPU)",
    operands="`D(t)`, `S(t)`, Python scalars",
    nary=(
        "no n-ary function its users call: a left fold of `x + y` (0-d while every input so far "
        'was); two Python scalars are refused (`paddle.add(1, 1.0)`: "must be Tensor")'
    ),
    chain="a fold with `+`: `int float int8` is float32 (`1 + 1.0` is Python's)",
    asked=(
        "`x + y` on CPU tensors of shape `[2]` / `[]` and Python values; `paddle.add` for two "
        "Python scalars; a triple's `result_type` is a left fold of that pair (Paddle has no "
        "n-ary function); where the CPU lacks an `add` kernel the dtype its message names stands "
        "for the sum (a gap); operations with Python values, a power of an integer tensor by a "
        "Python int first in a forked copy killed after 3 s (Paddle's integer pow can loop for "
        "ever); in a process of its own"
    ),
    tried="none",
)
