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
Under ``promotion=legacy`` (NumPy 1.26, ``--python``) a Python int beyond int64 and uint64 is an
object array: an object result, or the object loop's own AttributeError or MemoryError
(``True.arctan2``, ``1 << 2**64``), is a refusal; a bitwise operation of such an int and a long
double array crashes NumPy 1.26.4 (SIGSEGV, ``legacy.crashes``) and is not called: unobservable.
"""

from __future__ import annotations

import string
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from promote_cli.frameworks.numpy.promotion import ML_TYPES
from promote_cli.frameworks.numpy.spellings import NUMPY_CODES, NUMPY_NAMES
from promote_cli.operands import NUMPY_SCALAR, PYTHON, ZERO_D, Operand
from promote_cli.options import not_installed_release
from promote_cli.shared.numpy_legacy import crashes, object_int, value_of
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
    SPELLING,
    VALUE,
    Asks,
    Cell,
    Question,
    Unobservable,
    in_process,
)

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
# What np.dtype() is asked about: every code bare and with each byte-order prefix, every
# name bare and with one. int, float and complex are Python scalar operands in promote.
SPELLINGS = tuple(
    dict.fromkeys(
        f"{prefix}{text}"
        for text in (*_CODES, *NUMPY_CODES, *_NAMES)
        for prefix in ("", "<", ">", "=", "|")
    )
)

RUNS = in_process("NumPy imports in a few milliseconds and keeps no global promotion state")
ASKS = Asks(
    nary=True, operations=True, operation_values=True, spellings=SPELLINGS, expressions=True
)
# NumPy's refusals: DTypePromotionError and UFuncTypeError are TypeErrors; a Python int that does
# not fit raises OverflowError; some functions raise ValueError for the operands they refuse.
REFUSALS = (TypeError, ValueError, OverflowError)


def load() -> Any:
    import numpy as np

    return np


def version(handle: Any) -> str:
    """NumPy's version, and ml_dtypes' (its option's answers are theirs together)."""
    try:
        import ml_dtypes
    except ImportError:
        return str(handle.__version__)
    return f"{handle.__version__} (ml_dtypes {ml_dtypes.__version__})"


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """``np.result_type`` of dtypes (a Python scalar as a value, NEP 50's view) for a pair and
    the n-ary question; real ``a + b`` on arrays of shape ``(2,)`` for the chain (NumPy 2 treats
    0-d arrays alike; an overflow to inf is no refusal); the operation's ``np`` function on
    ``np.ones(2, t)``, ``np.ones((), t)`` and Python scalars; ``np.dtype(text)`` for a
    spelling. NumPy has every kernel: no gaps."""
    np = handle
    platform = {np.dtype(np.longdouble): "longdouble", np.dtype(np.clongdouble): "clongdouble"}
    condition = np.ones(2, bool)

    def name(dt: Any) -> str:
        return platform.get(dt, dt.name)

    def scalar(op: Operand) -> Any:
        """A 0-d array or a NumPy scalar holding the operand's value (1 without one)."""
        dt = _dtype(np, op.dtype, opts)
        held = np.array(value_of(op), dt)
        return held if op.category == ZERO_D else held[()]

    def dtype_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return scalar(op) if op.category in (ZERO_D, NUMPY_SCALAR) else _dtype(np, op.dtype, opts)

    def array_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        if op.category in (ZERO_D, NUMPY_SCALAR):
            return scalar(op)
        return np.zeros(2, _dtype(np, op.dtype, opts))

    def named(out: Any) -> str:
        dt = out if isinstance(out, np.dtype) else np.asarray(out).dtype
        if dt.kind == "O":  # NumPy 1.x: a Python int beyond uint64 is an object array
            raise Refused(f"NumPy made an object array (dtype {dt}), not a number type")
        return name(dt)

    def called(q: Question) -> str | Cell:
        if legacy and crashes(q.operation, q.operands):
            return Unobservable(
                f"NumPy {np.__version__} crashes (SIGSEGV) on a long double's {q.operation}"
                " with a Python int it holds only in an object array: not called"
            )
        args = [
            python_value(x)
            if x.category == PYTHON
            else np.ones(() if x.category == ZERO_D else 2, _dtype(np, x.dtype, opts))
            for x in q.operands
        ]
        try:
            if is_operator(q.operation):
                return operated(q.operation, args, lambda out: named(np.asarray(out)))
            fn = getattr(np, q.function.removeprefix("np."), None)
            if fn is None:  # an older NumPy (verify --python): np.pow is NumPy 2's
                raise Refused(f"NumPy {np.__version__} has no {q.function}")
            out = fn(condition, *args) if q.operation == "where" else fn(*args)
        except (AttributeError, MemoryError) as exc:
            # NumPy 1.x's object loop calls each element's own method (True.arctan2) or
            # Python's (1 << 2**64): its errors are the call's, on an object array only.
            if not (legacy and any(map(object_int, q.operands))):
                raise
            raise Refused(f"NumPy's object loop raised {type(exc).__name__}: {exc}") from None
        return named(out)

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            return named(np.result_type(*map(dtype_or_value, q.operands)))
        if q.kind in (CHAIN, VALUE):
            out = chained(q.operands, array_or_value, lambda a, b: a + b)
            return named(out) if isinstance(out, (np.ndarray, np.generic)) else python_result(out)
        if q.kind == OPERATION:
            return called(q)
        if q.kind == SPELLING:
            return _spelling(np, q.text)
        raise ValueError(f"NumPy's oracle is not asked {q.kind}")

    legacy = opts.get("promotion") == "legacy"
    if legacy and not hasattr(np, "_set_promotion_state"):
        why = (
            f"NumPy {np.__version__} has no legacy promotion (np._set_promotion_state is NumPy"
            " 1.24-1.26's): ask one with --python"
        )
        return [Unobservable(why) for _ in questions]
    other = not_installed_release("ml_dtypes", opts.get("ml_dtypes"))
    if other:
        # Another environment (``verify --python``) without ml_dtypes, or with another release
        # than the setting asks: that setting cannot be asked there, and is said to be so.
        return [Unobservable(other) for _ in questions]
    with _promotion_state(np, opts), warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # overflow to inf in a cast is not a refusal
        return answered(questions, ask, REFUSALS)


@contextmanager
def _promotion_state(np: Any, opts: Mapping[str, Any]) -> Iterator[None]:
    """NumPy 1.24-1.26 (``verify --python``) in the promotion state the option names:
    ``weak`` (NEP 50; their default is ``legacy``) or ``legacy``, restored after. NumPy 2 has
    only NEP 50."""
    setter = getattr(np, "_set_promotion_state", None)
    if setter is None:
        yield
        return
    before = np._get_promotion_state()
    setter(opts.get("promotion", "weak"))
    try:
        yield
    finally:
        setter(before)


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


def _spelling(np: Any, text: str) -> str:
    """The numeric type ``np.dtype(text)`` is, or a refusal (NumPy raises or it is not a
    number)."""
    dt = np.dtype(text)
    if dt.kind not in "biufc":
        raise Refused(f"np.dtype({text!r}) is {dt}, not a number")
    platform = {
        np.dtype(np.longdouble).name: "longdouble",
        np.dtype(np.clongdouble).name: "clongdouble",
    }
    return platform.get(dt.newbyteorder("=").name, dt.newbyteorder("=").name)


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): NumPy's arrays."""

    value_errors = ("Integers to negative integer powers are not allowed",)

    refusals = REFUSALS

    @staticmethod
    def configured(opts: Mapping[str, Any]) -> AbstractContextManager[None]:
        """Nothing to set: the options change no setting of the framework's own."""
        return nullcontext()

    def __init__(self, np: Any, opts: Mapping[str, Any]) -> None:
        self.np, self.opts = np, opts
        self.platform = {
            np.dtype(np.longdouble): "longdouble",
            np.dtype(np.clongdouble): "clongdouble",
        }

    @staticmethod
    def gap(text: str, question: Question) -> None:
        return None  # NumPy has every kernel

    def array(self, dtype: str, ndim: int) -> Any:
        return self.np.ones((2,) * ndim, _dtype(self.np, dtype, self.opts))

    def call(self, function: str, args: Sequence[Any]) -> Any:
        return getattr(self.np, function.removeprefix("np."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.astype(_dtype(self.np, dtype, self.opts))

    def dtype(self, x: Any) -> str:
        dt = self.np.asarray(x).dtype
        return self.platform.get(dt, dt.name)
