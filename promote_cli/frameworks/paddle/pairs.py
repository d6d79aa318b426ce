"""Paddle's pair rules other than its policy's (``Rule.pair``): Paddle promotes per function,
and only its ``support_promotion_ops`` apply the 0-d rule of ``x + y``. ``PAIRS`` names them
for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.paddle.promotion import POLICY
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.rules import REFUSES_TYPE, Pair

# A Python scalar as where() makes it a tensor: its default dtype.
_SCALAR_TENSOR = {"bool": "bool", "int*": "int64", "float*": "float32", "complex*": "complex64"}


def tensors_only(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Two tensors as the functions outside ``support_promotion_ops`` promote them: a 0-d
    tensor is like any other (float x float and x complex only); a Python scalar is a tensor of
    its default dtype."""

    def tensor(x: Operand) -> Operand:
        return Operand(_SCALAR_TENSOR[x.dtype] if x.category == PYTHON else x.dtype)

    return POLICY.promote(tensor(a), tensor(b), opts)


def table_with_zero_d(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``floor_divide``: with a 0-d tensor of another type, the table decides."""
    if PYTHON in (a.category, b.category) or a.dtype == b.dtype:
        return POLICY.promote(a, b, opts)
    if ZERO_D in (a.category, b.category):
        return POLICY.lookup(a.dtype, b.dtype)
    return POLICY.promote(a, b, opts)


def left_operand(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``x @ y`` (``Tensor.__matmul__``, not ``paddle.matmul``): two real tensors run the left
    one's kernel on the right cast to its type (``int32 @ float32`` is int32, ``[1, 2] @ [1.5,
    1.5]`` is 3); a complex one promotes with float32 and float64 only, as ``x + y`` does."""
    kinds = {dtype(a.dtype).kind, dtype(b.dtype).kind}
    if "complex" not in kinds:
        return Outcome(a.dtype, "left-operand", "the right tensor is cast to the left's type")
    if {a.dtype, b.dtype} <= {"float32", "float64", "complex64", "complex128"}:
        return POLICY.promote(a, b, opts)
    return refuse(
        REFUSES_TYPE,
        f"x @ y takes a complex tensor with a float32, float64 or complex one only, not"
        f" {ref(a.dtype)} @ {ref(b.dtype)}",
    )


PAIRS: Mapping[str, Pair] = {
    "tensors_only": Pair(
        tensors_only, "tensors only (no 0-d rule), a Python scalar as a tensor of its default dtype"
    ),
    "table_with_zero_d": Pair(table_with_zero_d, "promoteTypes with any 0-d tensor"),
    "left_operand": Pair(
        left_operand, "the left tensor's type (a complex one: x + y's, with float32 or float64)"
    ),
}
