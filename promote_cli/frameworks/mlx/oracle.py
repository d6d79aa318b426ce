"""The MLX oracle: ``mlx.core.add`` on arrays and Python scalars.

Operands are ``mx.zeros((2,), t)`` (0-d arrays are not special in MLX, and the policy does not
ask about them) and the Python values ``True``, ``1``, ``1.0``, ``1j``; the answer is the dtype
of ``mx.add(a, b)``. ``mx.result_type`` agrees on arrays but refuses Python scalars ("Inputs
must be arrays or dtypes"), so the operation itself is asked. MLX has no promotion options and
raises for no pair of its dtypes; a ``ValueError`` would be its refusal.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.operands import PYTHON, Operand
from promote_cli.verify import PYTHON_VALUES, Answer, Call, Refused, refusing

POLICY = "mlx"
FRAMEWORK = "mlx"
INSTALL = "mlx[cpu]"
IN_CONFORMANCE_EXTRA = True
OPTIONS: tuple[str, ...] = ()


def load() -> Any:
    import mlx.core as mx

    return mx


def version(handle: Any) -> str:
    return handle.__version__


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    mx = handle

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        # MLX spells the bool dtype bool_; every other name is the canonical one.
        found = getattr(mx, "bool_" if op.dtype == "bool" else op.dtype, None)
        if not isinstance(found, mx.Dtype):
            raise Refused(f"MLX has no dtype {op.dtype}")
        return mx.zeros((2,), dtype=found)

    @refusing(ValueError)
    def answer(a: Operand, b: Operand) -> str:
        # str(mx.int8) is "mlx.core.int8"; the bool dtype prints as "mlx.core.bool".
        return str(mx.add(operand(a), operand(b)).dtype).removeprefix("mlx.core.")

    yield answer


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """MLX's functions on ``mx.ones((2,), t)`` and Python scalars, each result ``mx.eval``'d on
    the CPU so that a missing kernel would show."""
    mx = handle
    condition = mx.ones((2,), dtype=mx.bool_)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return mx.ones((2,), dtype=getattr(mx, "bool_" if op.dtype == "bool" else op.dtype))

    @refusing(ValueError, RuntimeError, TypeError)
    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        fn = getattr(mx, function.removeprefix("mx."))
        args = [value(x) for x in operands]
        out = fn(condition, *args) if operation.name == "where" else fn(*args)
        mx.eval(out)
        return str(out.dtype).removeprefix("mlx.core.")

    with mx.stream(mx.cpu):
        yield call
