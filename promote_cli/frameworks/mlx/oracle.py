"""The MLX oracle: ``mx.result_type`` on arrays, ``mlx.core.add`` where a Python scalar is one.

Operands are ``mx.zeros((2,), t)`` (0-d arrays are not special in MLX, and the policy does not
ask about them) and Python values (``True``, ``1``, ``1.0``, ``1j``, or the value asked:
``300``). A pair of arrays is ``mx.result_type(a, b)``, MLX's promotion function; a pair with a
Python scalar, which ``mx.result_type`` refuses ("Inputs must be arrays or dtypes"), is the
dtype of ``mx.add(a, b)``, the binary operation, as ``np.result_type`` and
``torch.result_type`` answer for a Python scalar what their operators do. The ``result_type``
of three: ``mx.result_type(a, b, c)`` on arrays; with a Python scalar among them, a left fold of
those pairs on real arrays (the array each step gives meets the next operand). The chain:
``((a + b) + c)`` with ``mx.add``, Python scalars added by Python first; a value is asked as the
chain (MLX raises "Converting 300 to uint8 would result in overflow." and, for an int outside
int64, ``RuntimeError: std::bad_cast``).

MLX has no promotion options; a ``ValueError``, ``RuntimeError`` or ``TypeError`` is its
refusal (no missing CPU kernel was seen).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.operands import PYTHON, Operand
from promote_cli.verify import (
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
    Question,
    in_process,
)

RUNS = in_process("MLX is imported once and asked directly on its CPU stream")
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)
REFUSALS = (ValueError, RuntimeError, TypeError)


def load() -> Any:
    import mlx.core as mx

    return mx


def version(handle: Any) -> str:
    return handle.__version__


def _dtype(mx: Any, name: str) -> Any:
    # MLX spells the bool dtype bool_; every other name is the canonical one.
    found = getattr(mx, "bool_" if name == "bool" else name, None)
    if not isinstance(found, mx.Dtype):
        raise Refused(f"MLX has no dtype {name}")
    return found


def named(found: Any) -> str:
    # str(mx.int8) is "mlx.core.int8"; the bool dtype prints as "mlx.core.bool".
    return str(found).removeprefix("mlx.core.")


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """A pair and a triple: ``mx.result_type`` of arrays, ``mx.add`` with a Python scalar (a
    triple with one folds left: each step's array meets the next operand). The chain and a
    value: ``mx.add`` step by step. An operation: MLX's function on ``mx.ones((2,), t)`` and
    Python scalars. Every result is ``mx.eval``'d on the CPU, so that a missing kernel or a
    value MLX cannot convert would show."""
    mx = handle

    def dtype(name: str) -> Any:
        return _dtype(mx, name)

    def array_or_value(op: Operand) -> Any:
        return python_value(op) if op.category == PYTHON else mx.zeros((2,), dtype(op.dtype))

    def step(a: Any, b: Any) -> Any:
        """One promotion on real objects: ``mx.result_type`` of two arrays (an array of it
        made), else ``mx.add``; two Python scalars add in Python (the chain only)."""
        if isinstance(a, mx.array) and isinstance(b, mx.array):
            return mx.zeros((2,), mx.result_type(a, b))
        out = mx.add(a, b)
        mx.eval(out)
        return out

    def add(a: Any, b: Any) -> Any:
        if not isinstance(a, mx.array) and not isinstance(b, mx.array):
            return a + b
        out = mx.add(a, b)
        mx.eval(out)
        return out

    def result(out: Any) -> str:
        return named(out.dtype) if isinstance(out, mx.array) else python_result(out)

    def result_type(ops: Sequence[Operand]) -> str:
        values = [array_or_value(op) for op in ops]
        if all(isinstance(v, mx.array) for v in values):
            return named(mx.result_type(*values))
        acc = values[0]
        for v in values[1:]:
            acc = step(acc, v)
        return named(acc.dtype)

    def evaluated(out: Any) -> str:
        mx.eval(out)
        return named(out.dtype)

    def called(q: Question) -> str | Cell:
        args = [
            python_value(x) if x.category == PYTHON else mx.ones((2,), dtype(x.dtype))
            for x in q.operands
        ]
        if is_operator(q.operation):
            return operated(q.operation, args, evaluated)
        fn = getattr(mx, q.function.removeprefix("mx."))
        condition = mx.ones((2,), dtype=mx.bool_)
        out = fn(condition, *args) if q.operation == "where" else fn(*args)
        mx.eval(out)
        return named(out.dtype)

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            return result_type(q.operands)
        if q.kind in (CHAIN, VALUE):
            return result(chained(q.operands, array_or_value, add))
        if q.kind == OPERATION:
            return called(q)
        raise ValueError(f"MLX's oracle is not asked {q.kind}")

    with mx.stream(mx.cpu):
        return answered(questions, ask, REFUSALS)


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): ``mlx.core``'s
    arrays on the CPU stream (use inside ``configured(opts)``); each value is ``mx.eval``'d as
    its dtype is read, so that what MLX raises computing it shows at its node (MLX is lazy)."""

    value_errors = ()

    refusals = REFUSALS

    def __init__(self, mx: Any, opts: Mapping[str, Any]) -> None:
        self.mx = mx

    def configured(self, opts: Mapping[str, Any]) -> Any:
        return self.mx.stream(self.mx.cpu)

    @staticmethod
    def gap(text: str, question: Question) -> None:
        return None  # no missing CPU kernel was seen

    def array(self, dtype: str, ndim: int) -> Any:
        return self.mx.ones((2,) * ndim, _dtype(self.mx, dtype))

    def call(self, function: str, args: Sequence[Any]) -> Any:
        return getattr(self.mx, function.removeprefix("mx."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.astype(_dtype(self.mx, dtype))

    def dtype(self, x: Any) -> str:
        self.mx.eval(x)
        return named(x.dtype)
