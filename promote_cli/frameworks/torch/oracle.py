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
from promote_cli.verify import (
    PYTHON_VALUES,
    Answer,
    Call,
    Many,
    Refused,
    Unobservable,
    chained,
    python_result,
    python_value,
    refusing,
    refusing_many,
)

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


@contextmanager
def answering_many(handle: Any, opts: Mapping[str, Any]) -> Iterator[Many]:
    """``result_type``: ``torch.addcmul(a, b, c)`` on real CPU tensors, PyTorch's n-ary
    elementwise op (it takes no Python scalars and some dtypes have no kernel: unobservable).
    The chain: each step is ``torch.result_type`` of the real tensors (or Python numbers) that
    ``+`` gets, which is the dtype ``+`` computes before it looks for a kernel; the intermediate
    is a tensor of that dtype, dimensioned when either input was."""
    torch = handle

    def tensor(op: Operand) -> Any:
        found = getattr(torch, op.dtype, None)
        if not isinstance(found, torch.dtype):
            raise Refused(f"PyTorch has no dtype {op.dtype}")
        return torch.zeros(() if op.category == ZERO_D else (2,), dtype=found)

    def tensor_or_value(op: Operand) -> Any:
        return python_value(op) if op.category == PYTHON else tensor(op)

    def add(a: Any, b: Any) -> Any:
        tensors = [x for x in (a, b) if isinstance(x, torch.Tensor)]
        if not tensors:
            return a + b
        result = torch.result_type(a, b)
        shape = (2,) if any(t.dim() for t in tensors) else ()
        return torch.zeros(shape, dtype=result)

    @refusing_many(RuntimeError, OverflowError)
    def result_type(ops: Sequence[Operand]) -> str:
        if any(op.category == PYTHON for op in ops):
            raise Unobservable("torch.addcmul takes no Python scalars")
        try:
            out = torch.addcmul(*map(tensor, ops))
        except (RuntimeError, NotImplementedError) as exc:
            if "not implemented for" in str(exc) or "not supported for" in str(exc):
                raise Unobservable(str(exc)) from None
            raise
        return str(out.dtype).removeprefix("torch.")

    @refusing_many(RuntimeError, OverflowError)
    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, tensor_or_value, add)
        if not isinstance(out, torch.Tensor):
            return python_result(out)
        return str(out.dtype).removeprefix("torch.")

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="ComplexHalf support is experimental")
        yield Many(result_type, chain)


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
