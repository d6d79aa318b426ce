"""The Python array API oracle: ``array_api_strict.result_type``.

array-api-strict implements the standard and nothing more, so what it refuses is what the
standard leaves undefined (mixed kinds, uint64 with signed integers, Python ``int`` with a bool
array ...). Dtypes are those its inspection API lists (``__array_namespace_info__().dtypes()``);
a Python scalar is passed as a value (``True``, ``1``, ``1.0``, ``1j``), which ``result_type``
accepts from API version 2024.12 on; a 0-d operand, should the policy declare one, as a 0-d
array. Refusals are ``TypeError`` (no promotion) and ``ValueError`` (two Python scalars: the
standard needs at least one array or dtype). The version reported includes the API version the
library implements by default.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from promote_cli.operands import PYTHON, ZERO_D, Operand
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

RUNS = in_process("array-api-strict is a small pure-Python library with no global state")
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)
# matmul reads a Python scalar's .dtype (AttributeError): array-api-strict's refusal.
REFUSALS = (TypeError, ValueError, OverflowError, AttributeError)


def load() -> Any:
    import array_api_strict

    return array_api_strict


def version(handle: Any) -> str:
    return f"{handle.__version__} (array API {handle.__array_api_version__})"


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """A pair and ``result_type``: ``xp.result_type`` of dtypes, 0-d arrays and Python
    scalars; the chain: ``+`` on real arrays of shape ``(2,)`` (a float overflowing to inf
    warns and is no refusal); an operation: the rule's ``xp`` function on ``xp.ones(2)``,
    ``xp.ones(())`` and Python scalars. A pure-Python library has no missing kernels."""
    xp = handle
    dtypes = xp.__array_namespace_info__().dtypes()
    names = {dt: name for name, dt in dtypes.items()}
    condition = xp.ones(2, dtype=xp.bool)

    def dtype(op: Operand) -> Any:
        if op.dtype not in dtypes:
            raise Refused(f"the array API has no dtype {op.dtype}")
        return dtypes[op.dtype]

    def dtype_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return xp.zeros((), dtype=dtype(op)) if op.category == ZERO_D else dtype(op)

    def array_or_value(op: Operand, fill: Any = xp.zeros) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return fill(() if op.category == ZERO_D else (2,), dtype=dtype(op))

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            return names[xp.result_type(*map(dtype_or_value, q.operands))]
        if q.kind in (CHAIN, VALUE):
            out = chained(q.operands, array_or_value, lambda a, b: a + b)
            return names[out.dtype] if hasattr(out, "dtype") else python_result(out)
        if q.kind == OPERATION:
            args = [array_or_value(x, xp.ones) for x in q.operands]
            if is_operator(q.operation):
                return operated(q.operation, args, lambda out: names[out.dtype])
            fn = getattr(xp, q.function.removeprefix("xp."))
            out = fn(condition, *args) if q.operation == "where" else fn(*args)
            return names[out.dtype]
        raise ValueError(f"array-api-strict's oracle is not asked {q.kind}")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return answered(questions, ask, REFUSALS)


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): array-api-strict's
    arrays; ``x.astype(t)`` is the standard's ``xp.astype(x, t)``."""

    # NumPy's, underneath: the ones an expression makes can be a negative integer exponent
    value_errors = ("Integers to negative integer powers are not allowed",)

    # and the IndexError of an index the standard does not specify (x[0] of a matrix)
    refusals = (*REFUSALS, IndexError)

    @staticmethod
    def configured(opts: Mapping[str, Any]) -> AbstractContextManager[None]:
        """Nothing to set: the options change no setting of the framework's own."""
        return nullcontext()

    def __init__(self, xp: Any, opts: Mapping[str, Any]) -> None:
        self.xp = xp
        self.dtypes = xp.__array_namespace_info__().dtypes()
        self.names = {dt: name for name, dt in self.dtypes.items()}

    @staticmethod
    def gap(text: str, question: Question) -> None:
        return None  # a pure-Python library has no missing kernels

    def array(self, dtype: str, ndim: int) -> Any:
        return self.xp.ones((2,) * ndim, dtype=self.dtypes[dtype])

    def call(self, function: str, args: Sequence[Any]) -> Any:
        return getattr(self.xp, function.removeprefix("xp."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return self.xp.astype(x, self.dtypes[dtype])

    def dtype(self, x: Any) -> str:
        return self.names[x.dtype]
