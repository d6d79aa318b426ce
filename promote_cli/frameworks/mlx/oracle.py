"""The MLX oracle: ``mlx.core.add`` on arrays and Python scalars.

Operands are ``mx.zeros((2,), t)`` (0-d arrays are not special in MLX, and the policy does not
ask about them) and the Python values ``True``, ``1``, ``1.0``, ``1j``; the answer is the dtype
of ``mx.add(a, b)``. ``mx.result_type`` agrees on arrays but refuses Python scalars ("Inputs
must be arrays or dtypes"), so the operation itself is asked. MLX has no promotion options and
raises for no pair of its dtypes; a ``ValueError`` would be its refusal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.operands import PYTHON
from promote_cli.verify import PYTHON_VALUES, Refused, answered
from promote_cli.verify.protocol import OPERATION, PAIR, Asks, Cell, Question, in_process

RUNS = in_process("MLX is imported once and asked directly on its CPU stream")
ASKS = Asks(operations=True)
REFUSALS = (ValueError, RuntimeError, TypeError)


def load() -> Any:
    import mlx.core as mx

    return mx


def version(handle: Any) -> str:
    return handle.__version__


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """A pair: the dtype of ``mx.add(a, b)`` on ``mx.zeros((2,), t)`` and Python values. An
    operation: MLX's function on ``mx.ones((2,), t)`` and Python scalars, each result
    ``mx.eval``'d on the CPU so that a missing kernel would show (none does)."""
    mx = handle

    def dtype(name: str) -> Any:
        # MLX spells the bool dtype bool_; every other name is the canonical one.
        found = getattr(mx, "bool_" if name == "bool" else name, None)
        if not isinstance(found, mx.Dtype):
            raise Refused(f"MLX has no dtype {name}")
        return found

    def named(out: Any) -> str:
        # str(mx.int8) is "mlx.core.int8"; the bool dtype prints as "mlx.core.bool".
        return str(out.dtype).removeprefix("mlx.core.")

    def ask(q: Question) -> str:
        if q.kind == PAIR:
            a, b = (
                PYTHON_VALUES[x.dtype] if x.category == PYTHON else mx.zeros((2,), dtype(x.dtype))
                for x in q.operands
            )
            return named(mx.add(a, b))
        if q.kind == OPERATION:
            fn = getattr(mx, q.function.removeprefix("mx."))
            args = [
                PYTHON_VALUES[x.dtype] if x.category == PYTHON else mx.ones((2,), dtype(x.dtype))
                for x in q.operands
            ]
            condition = mx.ones((2,), dtype=mx.bool_)
            out = fn(condition, *args) if q.operation == "where" else fn(*args)
            mx.eval(out)
            return named(out)
        raise ValueError(f"MLX's oracle is not asked {q.kind}")

    with mx.stream(mx.cpu):
        return answered(questions, ask, REFUSALS)
