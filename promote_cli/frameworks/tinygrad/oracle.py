"""The tinygrad oracle: ``tinygrad.dtype.least_upper_dtype`` and real ``x + y`` on tensors.

A pair and the n-ary ``result_type``: ``least_upper_dtype`` of the operands' dtypes, tinygrad's
public promotion function; a Python scalar is the dtype ``dtypes.from_py`` gives it, as Tensor
arithmetic reads it (``True`` bool, an int ``weakint``, a float ``weakfloat``; ``1j`` raises
``RuntimeError``, "Could not infer dtype of 1j"). The chain and a valued Python scalar: real
``(a + b) + c`` on ``Tensor.zeros(2, dtype=t)`` and the Python values (two Python scalars added
by Python; a Python scalar on the left goes through ``Tensor.__radd__``). The sums stay lazy:
``.dtype`` is the promotion (realising every cell would take minutes on the PYTHON device), and
a lazy weak tensor (``Tensor(int8) + 1.0``) is what the next step adds. Tensors are made on the
PYTHON device (``Context(DEV="PYTHON")``, restored afterwards) so that no C compiler is looked
for. ``calling`` proves the operations the same way, realising only the bitwise functions (see
there). A weak result is reported as tinygrad reports it (``dtypes.weakint``/``weakfloat`` are
``int*``/``float*``).

An operator is Python's operator itself (``operated``), realised where its function is (the
bitwise ones); ``a op= b`` is recorded with whether the name still holds ``a`` (``assign``) or
a new tensor (``%=``: no ``__imod__``).

Refusals: a Python complex raises ``RuntimeError``, and so do ``assign`` ("assign dtype
mismatch") and a float shift; an operator the ``Tensor`` lacks raises ``TypeError`` (``+t``), and
``1 @ t`` ``AttributeError``; a shift by a Python int whose count tinygrad cannot fold in
Python ints raises Python's ``ValueError`` ("negative shift count") or ``MemoryError``, refusals
for the shifts alone. An operation on two Python scalars is never asked. tinygrad generates its
kernels, so no kernel is missing for any dtype.

Programs (``Primitives``, for ``promote expr``) are built lazily node by node, then realised at
the end as code that reads its results does (``Primitives.realise``), on the PYTHON device.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from promote_cli.frameworks.tinygrad import FRAMEWORK as ENTRY
from promote_cli.operands import PYTHON
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
    Refusal,
    Unobservable,
    first_line,
    in_process,
)

RUNS = in_process("tinygrad's tensors stay lazy on its PYTHON device: no compiler, no state")
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)
REFUSALS = (RuntimeError,)

# A Python scalar on the left: the reflected operator where the method has no reverse=True.
_REFLECTED = {"__floordiv__": "__rfloordiv__", "__lt__": "__gt__"}
_SWAPPED = ("maximum", "minimum", "eq")  # no reflected form: t.maximum(1) (symmetric)
# Built lazily with a float dtype, refused only when realised (UOp verification).
_REALISED = ("bitwise_and", "bitwise_left_shift", "bitwise_invert")
# The operators that are bitwise functions, realised for the same reason (and their updates).
_REALISED_OPERATORS = ("&", "|", "^", "<<", ">>", "~x", "&=", "|=", "^=", "<<=", ">>=")
# A shift by a Python int: tinygrad folds the shifted range in Python ints (``vmin << count``),
# so a negative count raises Python's ValueError and a count of 2**63 or more MemoryError.
_SHIFTS = ("bitwise_left_shift", "<<", ">>", "<<=", ">>=")
_NEGATIVE_SHIFT = "negative shift count"


def load() -> Any:
    from tinygrad import Tensor, dtypes
    from tinygrad.dtype import least_upper_dtype
    from tinygrad.helpers import Context

    return Tensor, dtypes, Context, least_upper_dtype


def version(handle: Any) -> str:
    from importlib.metadata import version as installed

    return installed("tinygrad")  # tinygrad has no __version__


def _canonical(dtypes: Any) -> dict[Any, str]:
    """tinygrad's dtypes by canonical name; its attribute names are the tinygrad notation's
    labels (fp8e4m3 is float8_e4m3fn), its weak types int* and float*."""
    nota = ENTRY.declared_in
    canonical = {getattr(dtypes, nota.label(t)): t for t in nota.label_map()}
    canonical.update({dtypes.weakint: "int*", dtypes.weakfloat: "float*"})
    return canonical


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """A pair and ``result_type``: ``least_upper_dtype`` of the dtypes, a Python scalar as
    ``dtypes.from_py(value)``. The chain and a value: the dtype of the lazy ``(a + b) + c`` on
    ``Tensor.zeros(2, dtype=t)`` and Python values (Python adds two Python scalars itself). An
    operation: tinygrad's Tensor method on ``Tensor.ones(2, dtype=t)`` and Python scalars; the
    dtype is the lazy result's, except for the bitwise functions, realised (``.data()``). A
    Python scalar on the left goes through ``reverse=True`` or the reflected operator.
    ``AttributeError`` is a refusal only where a Python scalar has nothing to work on
    (``matmul`` of one); anywhere else it is a bug here."""
    Tensor, dtypes, Context, least_upper_dtype = handle
    nota = ENTRY.declared_in
    canonical = _canonical(dtypes)

    def dtype_of(x: Any) -> Any:
        if x.category == PYTHON:
            return dtypes.from_py(python_value(x))
        if x.dtype not in nota.label_map():
            raise Refused(f"tinygrad has no dtype {x.dtype}")
        return getattr(dtypes, nota.label(x.dtype))

    def value(x: Any, fill: Any) -> Any:
        if x.category == PYTHON:
            return python_value(x)
        return fill(2, dtype=dtype_of(x))

    def result_type(q: Question) -> str:
        return canonical[least_upper_dtype(*map(dtype_of, q.operands))]

    def chain(q: Question) -> str:
        out = chained(q.operands, lambda x: value(x, Tensor.zeros), lambda a, b: a + b)
        return canonical[out.dtype] if isinstance(out, Tensor) else python_result(out)

    def apply(name: str, operation: str, args: list[Any]) -> Any:
        if operation == "where":
            return Tensor.ones(2, dtype=dtypes.bool).where(*args)
        if isinstance(args[0], Tensor):
            return getattr(Tensor, name)(*args)
        if name in _SWAPPED:
            return getattr(Tensor, name)(args[1], args[0])
        if name in _REFLECTED:
            return getattr(args[1], _REFLECTED[name])(args[0])
        return getattr(Tensor, name)(args[1], args[0], reverse=True)

    def realised(operation: str, out: Any) -> str:
        if operation in _REALISED_OPERATORS:
            out.data()
        return canonical[out.dtype]

    def operator(q: Question, args: list[Any]) -> Cell:
        """Python's operator itself; what it raises for want of a method is a refusal:
        ``TypeError`` (``+t``: Tensor has no ``__pos__``) and, for ``@``, ``AttributeError``
        (``1 @ t``: "'int' object has no attribute 'ndim'")."""
        try:
            return operated(q.operation, args, lambda out: realised(q.operation, out))
        except TypeError as exc:
            raise Refused(exc) from exc
        except AttributeError as exc:
            if q.operation == "@" and any(x.category == PYTHON for x in q.operands):
                raise Refused(exc) from exc
            raise

    def called(q: Question) -> str | Cell:
        """A shift by a Python int's value that Python's own ``<<`` cannot compute (tinygrad
        folds ``vmin << count`` as it builds the graph) is refused in Python's words: ``ValueError``
        ("negative shift count") and ``MemoryError`` (a count of 2**63 or more). Either raised
        anywhere else is a bug here."""
        try:
            return operated_or_called(q)
        except ValueError as exc:
            if q.operation in _SHIFTS and str(exc) == _NEGATIVE_SHIFT:
                raise Refused(f"ValueError: {exc}") from exc
            raise
        except MemoryError as exc:
            if q.operation in _SHIFTS:
                raise Refused("MemoryError: the shift count is too large for a Python int") from exc
            raise

    def operated_or_called(q: Question) -> str | Cell:
        args = [value(x, Tensor.ones) for x in q.operands]
        if is_operator(q.operation):
            return operator(q, args)
        try:
            out = apply(q.function.removeprefix("Tensor."), q.operation, args)
        except AttributeError as exc:
            if q.operation == "matmul" and any(x.category == PYTHON for x in q.operands):
                raise Refused(exc) from exc  # "'int' object has no attribute 'ndim'"
            raise
        if q.operation in _REALISED:
            out.data()
        return canonical[out.dtype]

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            return result_type(q)
        if q.kind in (CHAIN, VALUE):
            return chain(q)
        if q.kind == OPERATION:
            return called(q)
        raise ValueError(f"tinygrad's oracle is not asked {q.kind}")

    with Context(DEV="PYTHON"):
        return answered(questions, ask, REFUSALS)


# Where the PYTHON device's emulator runs a kernel: what it raises there (an integer pow of two
# tensors: "memoryview: invalid type for format 'q'") is the emulator's, not tinygrad's graph's.
_EMULATOR = "ops_python.py"


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``), as tinygrad code
    runs: each line builds its graph lazily (a node's dtype is the lazy tensor's), and the
    code that uses the results realises them (``.numpy()``, ``.tolist()``): :meth:`realise`
    reads each name the program assigns and its final value with ``.tolist()``, at the end,
    on the PYTHON device (use inside ``configured(opts)``). ``Tensor``'s methods are its
    functions (``Tensor.add(x, y)``); ``astype`` is ``x.cast(T)`` (a Tensor has no
    ``astype``)."""

    value_errors = ("cannot convert float NaN to integer",)

    # IndexError: .T of a tensor that is not a matrix; TypeError: +t (no __pos__); ValueError
    # and MemoryError: a shift by a Python int tinygrad cannot fold (see ``answer``)
    refusals = (*REFUSALS, IndexError, TypeError, ValueError, MemoryError)

    def __init__(self, handle: Any, opts: Mapping[str, Any]) -> None:
        self.Tensor, dtypes, self.Context, _ = handle
        self.canonical = _canonical(dtypes)
        nota = ENTRY.declared_in
        self.dtypes = {t: getattr(dtypes, nota.label(t)) for t in nota.label_map()}

    def configured(self, opts: Mapping[str, Any]) -> Any:
        return self.Context(DEV="PYTHON")

    @staticmethod
    def gap(text: str, question: Question) -> None:
        return None  # tinygrad generates its kernels: none is missing

    def array(self, dtype: str, ndim: int) -> Any:
        return self.Tensor.ones((2,) * ndim, dtype=self.dtypes[dtype])

    def call(self, function: str, args: Sequence[Any]) -> Any:
        return getattr(self.Tensor, function.removeprefix("Tensor."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.cast(self.dtypes[dtype])

    def dtype(self, x: Any) -> str:
        if not isinstance(x, self.Tensor):
            return python_result(x)
        return self.canonical[x.dtype]  # the lazy tensor's: decided as the graph is built

    def realise(
        self,
        targets: Sequence[Any],
        computed: Sequence[int],
        rebuild: Callable[[], Sequence[Any]],
    ) -> tuple[int, Cell] | None:
        """Read ``targets`` (the program's results: the names assigned, in order, then its
        final value) with ``.tolist()``, which realises each: None when they realise;
        else the node that makes the graph fail and its record: the first node ``computed``
        (not a name: an update rewrites its name's tensor) whose own value, in the program
        built afresh (``rebuild``: nothing realised), fails when it is realised alone. A
        failure in the PYTHON device's emulator, which runs what tinygrad compiled, says
        nothing of tinygrad's graph: that program is ``Unobservable``."""
        failure = self._failure([t for t in targets if isinstance(t, self.Tensor)])
        if failure is None:
            return None
        values = rebuild()
        for at in computed:
            if isinstance(values[at], self.Tensor):
                found = self._failure([values[at]])
                if found is not None:
                    return at, found
                values = rebuild()  # realising one value rewrites the graphs built on it
        return len(values) - 1, failure

    def _failure(self, tensors: Sequence[Any]) -> Cell | None:
        try:
            # read, as code that uses them does: .realize() first would differ (a weak tensor
            # is computed only when read; -square(y / y) of float16 realised then read fails,
            # "UOp verification failed ... Ops.EXPAND", read alone it does not)
            for t in tensors:
                t.tolist()
        except (RuntimeError, TypeError, ValueError, KeyError) as exc:
            said = first_line(f"{type(exc).__name__}: {exc}")
            frames = traceback.extract_tb(exc.__traceback__)
            if any(f.filename.endswith(_EMULATOR) for f in frames):
                return Unobservable(f"the PYTHON device's emulator cannot run it: {said}")
            if isinstance(exc, KeyError) or any(w in said for w in self.value_errors):
                # a pow by a huge constant (x ** 2**63, x ** 1e300) raises KeyError in
                # tinygrad's scheduler, a NaN cast to an integer ValueError: the values'
                return Unobservable(f"the values raise: {said}")
            return Refusal(f"fails when realised: {said}")
        return None
