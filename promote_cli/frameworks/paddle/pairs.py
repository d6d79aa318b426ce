"""Paddle's pair rules other than its policy's (``Rule.pair``): Paddle promotes per function,
and only its ``support_promotion_ops`` apply the 0-d rule of ``x + y``. ``PAIRS`` names them
for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.engine import Outcome
from promote_cli.frameworks.paddle.promotion import POLICY
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.ops import Pair

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


PAIRS: Mapping[str, Pair] = {
    "tensors_only": Pair(
        tensors_only, "tensors only (no 0-d rule), a Python scalar as a tensor of its default dtype"
    ),
    "table_with_zero_d": Pair(table_with_zero_d, "promoteTypes with any 0-d tensor"),
}
