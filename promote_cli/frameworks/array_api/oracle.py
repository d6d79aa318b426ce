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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import (
    PYTHON_VALUES,
    Answer,
    Call,
    Many,
    Refused,
    chained,
    python_result,
    python_value,
    refusing,
    refusing_many,
)

POLICY = "array-api"
FRAMEWORK = "array-api-strict"
INSTALL = "array-api-strict"
IN_CONFORMANCE_EXTRA = True
OPTIONS: tuple[str, ...] = ()


def load() -> Any:
    import array_api_strict

    return array_api_strict


def version(handle: Any) -> str:
    return f"{handle.__version__} (array API {handle.__array_api_version__})"


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    xp = handle
    dtypes = xp.__array_namespace_info__().dtypes()
    names = {dt: name for name, dt in dtypes.items()}

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        if op.dtype not in dtypes:
            raise Refused(f"the array API has no dtype {op.dtype}")
        dt = dtypes[op.dtype]
        return xp.zeros((), dtype=dt) if op.category == ZERO_D else dt

    @refusing(TypeError, ValueError)
    def answer(a: Operand, b: Operand) -> str:
        return names[xp.result_type(operand(a), operand(b))]

    yield answer


@contextmanager
def answering_many(handle: Any, opts: Mapping[str, Any]) -> Iterator[Many]:
    """``result_type`` of all operands at once; the chain with ``+`` on real arrays of shape
    ``(2,)``. A float overflowing to inf warns and is not a refusal."""
    xp = handle
    dtypes = xp.__array_namespace_info__().dtypes()
    names = {dt: name for name, dt in dtypes.items()}

    def dtype(op: Operand) -> Any:
        if op.dtype not in dtypes:
            raise Refused(f"the array API has no dtype {op.dtype}")
        return dtypes[op.dtype]

    def dtype_or_value(op: Operand) -> Any:
        return python_value(op) if op.category == PYTHON else dtype(op)

    def array_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return xp.zeros(() if op.category == ZERO_D else (2,), dtype=dtype(op))

    errors = (TypeError, ValueError, OverflowError)

    @refusing_many(*errors)
    def result_type(ops: Sequence[Operand]) -> str:
        return names[xp.result_type(*map(dtype_or_value, ops))]

    @refusing_many(*errors)
    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, array_or_value, lambda a, b: a + b)
        return names[out.dtype] if hasattr(out, "dtype") else python_result(out)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield Many(result_type, chain)


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """array-api-strict's functions on ``xp.ones(2)``, ``xp.ones(())`` and Python scalars."""
    xp = handle
    dtypes = xp.__array_namespace_info__().dtypes()
    names = {dt: name for name, dt in dtypes.items()}
    condition = xp.ones(2, dtype=xp.bool)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return xp.ones(() if op.category == ZERO_D else 2, dtype=dtypes[op.dtype])

    # matmul reads a Python scalar's .dtype (AttributeError): array-api-strict's refusal.
    @refusing(TypeError, ValueError, AttributeError)
    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        fn = getattr(xp, function.removeprefix("xp."))
        args = [value(x) for x in operands]
        out = fn(condition, *args) if operation.name == "where" else fn(*args)
        return names[out.dtype]

    yield call
