"""The PyTorch oracle: ``torch.promote_types`` and ``torch.result_type``.

Two dimensioned operands are answered by ``torch.promote_types`` (PyTorch's table); any cell
with a 0-d tensor (``S(t)``, ``torch.zeros(())``) or a Python scalar (``True``, ``1``, ``1.0``,
``1j``) by ``torch.result_type`` on real tensors of shape ``(1,)`` and ``()``, where PyTorch's
categories (a lower-priority operand counts only when it is of a higher kind) apply. PyTorch has
no promotion options; its default dtype (float32) is left alone. Refusals are ``RuntimeError``
("Promotion for uint16, uint32, uint64 types is not supported", "... Float8 Types ...").
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.verify import PYTHON_VALUES, Answer, Call, Refused, refusing

POLICY = "torch"
FRAMEWORK = "torch"
INSTALL = "torch"
IN_CONFORMANCE_EXTRA = False
OPTIONS: tuple[str, ...] = ()


def load() -> Any:
    import torch

    return torch


def version(handle: Any) -> str:
    # "2.13.0+cpu": the local build tag says nothing about promotion.
    return handle.__version__.split("+")[0]


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    torch = handle

    def dtype(name: str) -> Any:
        found = getattr(torch, name, None)
        if not isinstance(found, torch.dtype):
            raise Refused(f"PyTorch has no dtype {name}")
        return found

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return torch.zeros(() if op.category == ZERO_D else (1,), dtype=dtype(op.dtype))

    @refusing(RuntimeError)
    def answer(a: Operand, b: Operand) -> str:
        if a.category == b.category == DIMENSIONED:
            result = torch.promote_types(dtype(a.dtype), dtype(b.dtype))
        else:
            result = torch.result_type(operand(a), operand(b))
        return str(result).removeprefix("torch.")

    # Making a complex32 tensor warns that ComplexHalf is experimental; the oracle only asks
    # for its dtype, and the warning would land in the user's report.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="ComplexHalf support is experimental")
        yield answer


# A Python scalar on the left: torch.add(1, t) raises TypeError, the operator answers (1 + t).
_OPERATORS = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": operator.floordiv,
    "remainder": operator.mod,
    "pow": operator.pow,
    "equal": operator.eq,
    "less": operator.lt,
    "bitwise_and": operator.and_,
    "bitwise_left_shift": operator.lshift,
}


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """torch's functions on ``torch.ones(2)``, ``torch.ones(())`` and Python scalars, on the
    CPU; ``cumsum`` along dim 0."""
    torch = handle
    condition = torch.ones(2, dtype=torch.bool)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return torch.ones(() if op.category == ZERO_D else 2, dtype=getattr(torch, op.dtype))

    @refusing(RuntimeError, TypeError, NotImplementedError, ValueError)
    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        fn = getattr(torch, function.removeprefix("torch."))
        args = [value(x) for x in operands]
        if operation.name == "where":
            out = fn(condition, *args)
        elif operation.name == "cumulative_sum":
            out = fn(*args, 0)
        elif operands[0].category == PYTHON and operation.name in _OPERATORS:
            out = _OPERATORS[operation.name](*args)
        else:
            out = fn(*args)
        return str(out.dtype).removeprefix("torch.")

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="ComplexHalf support is experimental")
        yield call
