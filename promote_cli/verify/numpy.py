"""The NumPy oracle: ``numpy.result_type``, with Python scalars as values (NEP 50).

A Python scalar is passed as a value (``True``, ``1``, ``1.0``, ``1j``), which is how NEP 50
sees it; a dtype as ``numpy.dtype``. NumPy has no options. NumPy's names for long double
(``float128`` on x86-64 Linux, ``float96`` elsewhere) are read back as ``longdouble``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import PYTHON_VALUES, Answer, Call, Refused, refusing

POLICY = "numpy"
FRAMEWORK = "numpy"
INSTALL = "numpy"
IN_CONFORMANCE_EXTRA = False
OPTIONS: tuple[str, ...] = ()


def load() -> Any:
    import numpy as np

    return np


def version(handle: Any) -> str:
    return handle.__version__


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    np = handle
    platform_names = {
        np.dtype(np.longdouble): "longdouble",
        np.dtype(np.clongdouble): "clongdouble",
    }

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        try:
            return np.dtype(op.dtype)
        except TypeError:
            raise Refused(f"NumPy has no dtype {op.dtype}") from None

    @refusing(TypeError)  # numpy.exceptions.DTypePromotionError is a TypeError
    def answer(a: Operand, b: Operand) -> str:
        result = np.result_type(operand(a), operand(b))
        return platform_names.get(result, result.name)

    yield answer


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """NumPy's functions on ``np.ones(2, t)``, ``np.ones((), t)`` and Python scalars."""
    np = handle
    platform_names = {
        np.dtype(np.longdouble): "longdouble",
        np.dtype(np.clongdouble): "clongdouble",
    }
    condition = np.ones(2, bool)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return np.ones(() if op.category == ZERO_D else 2, np.dtype(op.dtype))

    @refusing(TypeError, ValueError)
    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        fn = getattr(np, function.removeprefix("np."))
        args = [value(x) for x in operands]
        out = fn(condition, *args) if operation.name == "where" else fn(*args)
        result = np.asarray(out).dtype
        return platform_names.get(result, result.name)

    with np.errstate(all="ignore"):
        yield call
