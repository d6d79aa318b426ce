"""The PyTorch oracle: ``torch.promote_types`` and ``torch.result_type``.

Two dimensioned operands are answered by ``torch.promote_types`` (PyTorch's table); any cell
with a 0-d tensor (``S(t)``, ``torch.zeros(())``) or a Python scalar (``True``, ``1``, ``1.0``,
``1j``) by ``torch.result_type`` on real tensors of shape ``(1,)`` and ``()``, where PyTorch's
categories (a lower-priority operand counts only when it is of a higher kind) apply. PyTorch has
no promotion options; its default dtype (float32) is left alone. Refusals are ``RuntimeError``
("Promotion for uint16, uint32, uint64 types is not supported", "... Float8 Types ...").

A missing CPU kernel says "... not implemented for 'UInt16'" (a ``RuntimeError`` or
``NotImplementedError``): a gap, which names the kernel's type rather than the rule's output.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.options import not_installed_release
from promote_cli.verify import (
    OPERATORS,
    NotObservable,
    Refused,
    answered,
    chained,
    is_operator,
    operated,
    python_result,
    python_value,
)
from promote_cli.verify.protocol import (
    CHAIN,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    VALUE,
    Asks,
    Cell,
    Gap,
    Question,
    Unobservable,
    first_line,
    in_process,
)

RUNS = in_process("torch is imported once and asked directly; no option changes a global")
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)
REFUSALS = (RuntimeError, TypeError, NotImplementedError, ValueError, OverflowError)

# A Python scalar on the left: torch.add(1, t) raises TypeError, the operator answers (1 + t);
# torch.matmul of a Python scalar is asked as the function.
_OPERATORS = {name: op for name, op in OPERATORS.items() if name != "matmul"}
# bcomplex32 (torch >= 2.14) has no fill kernel ("fill_cpu" not implemented for 'BComplex32'):
# its ones are bfloat16 ones converted (a copy, which it has); torch.zeros makes it directly.
_FILLED_AS = {"bcomplex32": "bfloat16"}


def load() -> Any:
    import torch

    return torch


def version(handle: Any) -> str:
    # "2.13.0+cpu": the local build tag says nothing about promotion.
    return handle.__version__.split("+")[0]


def missing_kernel(text: str, question: Question) -> Gap | None:
    """PyTorch's "... not implemented for 'UInt16'" (its dispatcher found no kernel)."""
    return Gap(first_line(text)) if "not implemented for '" in text.lower() else None


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """A pair of dimensioned operands: ``torch.promote_types`` (PyTorch's table); any pair with
    a 0-d tensor (``torch.zeros(())``) or a Python scalar (``True``, ``1``, ``1.0``, ``1j``):
    ``torch.result_type`` on real tensors of shape ``(1,)`` and ``()``, where PyTorch's
    categories apply. ``result_type`` of three: ``torch.addcmul(a, b, c)`` on real CPU tensors,
    PyTorch's n-ary elementwise op (it takes no Python scalars, and a missing kernel hides its
    answer: unobservable). The chain: each step is ``torch.result_type`` of the real tensors (or
    Python numbers) that ``+`` gets, which is the dtype ``+`` computes before it looks for a
    kernel; the intermediate is a tensor of that dtype, dimensioned when either input was.
    An operation: the rule's ``torch`` function on ``torch.ones(2)``, ``torch.ones(())`` and
    Python scalars, on the CPU (``cumsum`` along dim 0; a Python scalar first takes the
    operator where the function refuses it)."""
    torch = handle
    # The release asked answers only where it is installed (verify asks the installed one).
    other = not_installed_release("torch", opts.get("release"))
    if other:
        return [Unobservable(other) for _ in questions]
    condition = torch.ones(2, dtype=torch.bool)

    def dtype(name: str) -> Any:
        found = getattr(torch, name, None)
        if not isinstance(found, torch.dtype):
            raise Refused(f"PyTorch has no dtype {name}")
        return found

    def tensor(op: Operand, fill: Any = torch.zeros, shape: tuple[int, ...] = (2,)) -> Any:
        return filled(torch, fill, () if op.category == ZERO_D else shape, dtype(op.dtype))

    def tensor_or_value(op: Operand) -> Any:
        return python_value(op) if op.category == PYTHON else tensor(op)

    def add(a: Any, b: Any) -> Any:
        tensors = [x for x in (a, b) if isinstance(x, torch.Tensor)]
        if not tensors:
            return a + b
        result = torch.result_type(a, b)
        shape = (2,) if any(t.dim() for t in tensors) else ()
        return torch.zeros(shape, dtype=result)

    def named(t: Any) -> str:
        return str(t).removeprefix("torch.")

    def pair(a: Operand, b: Operand) -> str:
        if a.category == b.category == DIMENSIONED:
            return named(torch.promote_types(dtype(a.dtype), dtype(b.dtype)))
        x, y = (
            python_value(op) if op.category == PYTHON else tensor(op, shape=(1,)) for op in (a, b)
        )
        return named(torch.result_type(x, y))

    def addcmul(ops: Sequence[Operand]) -> str:
        if any(op.category == PYTHON for op in ops):
            raise NotObservable("torch.addcmul takes no Python scalars")
        try:
            out = torch.addcmul(*map(tensor, ops))
        except (RuntimeError, NotImplementedError) as exc:
            if "not implemented for" in str(exc) or "not supported for" in str(exc):
                raise NotObservable(str(exc)) from None
            raise
        return named(out.dtype)

    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, tensor_or_value, add)
        return named(out.dtype) if isinstance(out, torch.Tensor) else python_result(out)

    def called(q: Question) -> str | Cell:
        args = [
            python_value(x) if x.category == PYTHON else tensor(x, torch.ones) for x in q.operands
        ]
        if is_operator(q.operation):
            return operated(q.operation, args, lambda out: named(out.dtype))
        fn = getattr(torch, q.function.removeprefix("torch."))
        if q.operation == "where":
            out = fn(condition, *args)
        elif q.operation == "cumulative_sum":
            out = fn(*args, 0)
        elif q.operands[0].category == PYTHON and q.operation in _OPERATORS:
            out = _OPERATORS[q.operation](*args)
        else:
            out = fn(*args)
        return named(out.dtype)

    def ask(q: Question) -> str | Cell:
        if q.kind == PAIR:
            return pair(*q.operands)
        if q.kind == RESULT_TYPE:
            return addcmul(q.operands)
        if q.kind in (CHAIN, VALUE):
            return chain(q.operands)
        if q.kind == OPERATION:
            return called(q)
        raise ValueError(f"PyTorch's oracle is not asked {q.kind}")

    # Making a complex32 (bcomplex32) tensor warns that ComplexHalf (BComplex32) is
    # experimental; the oracle only asks for its dtype, and the warning would land in the
    # user's report.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="ComplexHalf support is experimental")
        warnings.filterwarnings("ignore", message="BComplex32 support is experimental")
        return answered(questions, ask, REFUSALS, missing_kernel)


def filled(torch: Any, fill: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    """``fill(shape)`` (``torch.ones``, ``torch.zeros``) of the torch dtype ``dtype``."""
    real = _FILLED_AS.get(str(dtype).removeprefix("torch."))
    if real is None:
        return fill(shape, dtype=dtype)
    return fill(shape, dtype=getattr(torch, real)).to(dtype)


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): PyTorch's CPU
    tensors; ``x.astype(t)`` is ``x.to(t)``, PyTorch's cast."""

    value_errors = ("ZeroDivisionError",)  # integer division and remainder by zero

    refusals = REFUSALS

    @staticmethod
    def configured(opts: Mapping[str, Any]) -> AbstractContextManager[None]:
        """Nothing to set: the options change no setting of the framework's own."""
        return nullcontext()

    def __init__(self, torch: Any, opts: Mapping[str, Any]) -> None:
        self.torch = torch

    @staticmethod
    def gap(text: str, question: Question) -> Gap | None:
        return missing_kernel(text, question)

    def array(self, dtype: str, ndim: int) -> Any:
        return filled(self.torch, self.torch.ones, (2,) * ndim, getattr(self.torch, dtype))

    def call(self, function: str, args: Sequence[Any]) -> Any:
        return getattr(self.torch, function.removeprefix("torch."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.to(getattr(self.torch, dtype))

    def dtype(self, x: Any) -> str:
        return str(x.dtype).removeprefix("torch.")
