"""The NumPy oracle: ``numpy.result_type``, with Python scalars as values (NEP 50).

A Python scalar is passed as a value (``True``, ``1``, ``1.0``, ``1j``), which is how NEP 50
sees it; a dtype as ``numpy.dtype``. Its one option, ``ml_dtypes``: when true, ml_dtypes is
imported and its types (``ml_dtypes.bfloat16`` ...) are dtypes; when false they are not NumPy's
(``np.dtype`` does not know their names, even once ml_dtypes is imported). NumPy's names for
long double (``float128`` on x86-64 Linux, ``float96`` elsewhere) are read back as
``longdouble``.
The chain adds real arrays of shape ``(2,)`` (NumPy 2 treats 0-d arrays alike); an
``OverflowError`` (a Python int that does not fit) is a refusal, an overflow to inf is not.
The spellings are every one- and two-part type code NumPy could read (with each byte-order
prefix) and its names.
"""

from __future__ import annotations

import string
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.frameworks.numpy.promotion import ML_TYPES
from promote_cli.frameworks.numpy.spellings import NUMPY_CODES, NUMPY_NAMES
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

POLICY = "numpy"
FRAMEWORK = "numpy"
INSTALL = "numpy"
IN_CONFORMANCE_EXTRA = False
OPTIONS: tuple[str, ...] = ("ml_dtypes",)

_SIZES = (1, 2, 3, 4, 6, 8, 10, 12, 16, 24, 32, 64, 128)
_CODES = (
    *string.ascii_letters,
    "?",
    *(f"{kind}{n}" for kind in "biufcsSUVaOMmT" for n in _SIZES),
)
_NAMES = (
    *NUMPY_NAMES,
    *[
        "float_",
        "complex_",
        "cfloat",
        "longfloat",
        "clongfloat",
        "int0",
        "uint0",
        "bool8",
        "float96",
        "complex192",
        "Float64",
        "Int8",
        "Bool",
        "string",
        "bytes",
        "str",
        "void",
        "object",
        "datetime64",
        "timedelta64",
        "M8[s]",
        "m8[s]",
        "bytes_",
        "str_",
    ],
)
# What verify asks np.dtype() about: every code bare and with each byte-order prefix, every
# name bare and with one. int, float and complex are Python scalar operands in promote.
SPELLINGS = tuple(
    dict.fromkeys(
        f"{prefix}{text}"
        for text in (*_CODES, *NUMPY_CODES, *_NAMES)
        for prefix in ("", "<", ">", "=", "|")
    )
)


def load() -> Any:
    import numpy as np

    return np


def version(handle: Any) -> str:
    return handle.__version__


def _dtype(np: Any, name: str, opts: Mapping[str, Any]) -> Any:
    """``np.dtype`` of a canonical name; an ml_dtypes type through ml_dtypes when the option
    is on (else NumPy has no such dtype)."""
    if opts.get("ml_dtypes"):
        import ml_dtypes

        if name in ML_TYPES:
            return np.dtype(getattr(ml_dtypes, name))
    elif name in ML_TYPES:
        raise Refused(f"NumPy has no dtype {name} without ml_dtypes")
    try:
        return np.dtype(name)
    except TypeError:
        raise Refused(f"NumPy has no dtype {name}") from None


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
        return _dtype(np, op.dtype, opts)

    @refusing(TypeError)  # numpy.exceptions.DTypePromotionError is a TypeError
    def answer(a: Operand, b: Operand) -> str:
        result = np.result_type(operand(a), operand(b))
        return platform_names.get(result, result.name)

    yield answer


def spelling(handle: Any, text: str) -> str:
    """The numeric type ``np.dtype(text)`` is, or ``Refused`` (NumPy raises or it is not a
    number)."""
    np = handle
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dt = np.dtype(text)
    except TypeError as exc:
        raise Refused(exc) from exc
    if dt.kind not in "biufc":
        raise Refused(f"np.dtype({text!r}) is {dt}, not a number")
    platform = {
        np.dtype(np.longdouble).name: "longdouble",
        np.dtype(np.clongdouble).name: "clongdouble",
    }
    return platform.get(dt.newbyteorder("=").name, dt.newbyteorder("=").name)


@contextmanager
def answering_many(handle: Any, opts: Mapping[str, Any]) -> Iterator[Many]:
    np = handle
    platform_names = {
        np.dtype(np.longdouble): "longdouble",
        np.dtype(np.clongdouble): "clongdouble",
    }

    def name(dt: Any) -> str:
        return platform_names.get(dt, dt.name)

    def dtype_or_value(op: Operand) -> Any:
        return python_value(op) if op.category == PYTHON else _dtype(np, op.dtype, opts)

    def array_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return np.zeros(2, _dtype(np, op.dtype, opts))

    @refusing_many(TypeError, OverflowError)
    def result_type(ops: Sequence[Operand]) -> str:
        return name(np.result_type(*map(dtype_or_value, ops)))

    @refusing_many(TypeError, OverflowError)
    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, array_or_value, lambda a, b: a + b)
        return name(out.dtype) if isinstance(out, np.ndarray) else python_result(out)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overflow to inf in a cast is not a refusal
        yield Many(result_type, chain)


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
