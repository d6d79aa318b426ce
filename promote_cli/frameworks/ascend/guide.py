"""Ascend aclnn: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="Huawei CANN `aclnn` 互推导关系 table",
    kind="table",
    reproduces=(
        "the aclnn mutual type-deduction table (互推导关系) of Huawei CANN, as its documentation "
        "prints it"
    ),
    operands="`D(t)` only: no 0-d tensors apart, no Python scalars",
    nary="no n-ary function: the fold a graph of pairwise nodes computes",
    chain="the same fold (the sum of two 0-d inputs is 0-d)",
)
