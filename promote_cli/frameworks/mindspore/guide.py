"""MindSpore: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="`mindspore.ops.add` (MindSpore 2.10, CPU), measured",
    kind="table + scalar rules",
    reproduces="`mindspore.ops.add` (MindSpore 2.10, PyNative, CPU)",
    operands="`D(t)`, Python scalars",
    nary=(
        "`mindspore.ops` has no n-ary function: a left fold of `ops.add` (not "
        "`mindspore.numpy.result_type`, NumPy-like rules no operation applies); `int int uint8` "
        "is int64 (`ops.add(1, 1)` is an int64 tensor)"
    ),
    chain="a fold with `ops.add`: `int int uint8` is uint8",
    asked=(
        "`ops.add` in PyNative mode on CPU, blocking launch (`+` where it has no bool kernel), on "
        "tensors of shape `(2,)` / `()` and Python values (a 0-d float16 or bfloat16 tensor with "
        "a dimensioned one of the other is not asked: MindSpore 2.10 dies of SIGSEGV there); a "
        "triple's `result_type` is a left fold of it (`mindspore.ops` has no n-ary function; "
        "`mindspore.numpy.result_type` is not asked); in a process of its own"
    ),
    tried="none",
)
