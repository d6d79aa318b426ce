"""The tinygrad oracle: the dtype of a real ``x + y`` on tinygrad tensors.

Operands are ``Tensor.zeros(2, dtype=t)`` and the Python values ``True``, ``1``, ``1.0``,
``1j`` (a Python scalar on the left goes through ``Tensor.__radd__``). The sum stays lazy: its
``.dtype`` is the promotion (realising every cell would take minutes on the PYTHON device).
Tensors are made on the PYTHON device (``Context(DEV="PYTHON")``, restored afterwards) so that
no C compiler is looked for. ``calling`` proves the operations the same way, realising only the
bitwise functions (see there). A weak result is reported as tinygrad reports it
(``dtypes.weakint``/``weakfloat`` are ``int*``/``float*``).

Refusals: a Python complex raises ``RuntimeError`` ("Could not infer dtype of 1j"); two Python
scalars are asked of ``Tensor.add(x, y)``, which has nothing to work on and raises
``AttributeError`` ("'int' object has no attribute '_binop'"); that one error is a refusal only
for that pair. tinygrad generates its kernels, so no kernel is missing for any dtype.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.frameworks.tinygrad import FRAMEWORK as ENTRY
from promote_cli.operands import PYTHON
from promote_cli.verify import PYTHON_VALUES, Refused, answered
from promote_cli.verify.protocol import OPERATION, PAIR, Asks, Cell, Question, in_process

RUNS = in_process("tinygrad's tensors stay lazy on its PYTHON device: no compiler, no state")
ASKS = Asks(operations=True)
REFUSALS = (RuntimeError,)

# A Python scalar on the left: the reflected operator where the method has no reverse=True.
_REFLECTED = {"__floordiv__": "__rfloordiv__", "__lt__": "__gt__"}
_SWAPPED = ("maximum", "minimum", "eq")  # no reflected form: t.maximum(1) (symmetric)
# Built lazily with a float dtype, refused only when realised (UOp verification).
_REALISED = ("bitwise_and", "bitwise_left_shift", "bitwise_invert")


def load() -> Any:
    from tinygrad import Tensor, dtypes
    from tinygrad.helpers import Context

    return Tensor, dtypes, Context


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
    """A pair: the dtype of a lazy ``x + y`` on ``Tensor.zeros(2, dtype=t)`` and Python values
    (two Python scalars are asked of ``Tensor.add(x, y)``, which has nothing to work on). An
    operation: tinygrad's Tensor method on ``Tensor.ones(2, dtype=t)`` and Python scalars; the
    dtype is the lazy result's, except for the bitwise functions, realised (``.data()``). A
    Python scalar on the left goes through ``reverse=True`` or the reflected operator.
    ``AttributeError`` is a refusal only where a Python scalar has nothing to work on (two of
    them, ``matmul`` of one); anywhere else it is a bug here."""
    Tensor, dtypes, Context = handle
    nota = ENTRY.declared_in
    canonical = _canonical(dtypes)

    def value(x: Any, fill: Any) -> Any:
        if x.category == PYTHON:
            return PYTHON_VALUES[x.dtype]
        if x.dtype not in nota.label_map():
            raise Refused(f"tinygrad has no dtype {x.dtype}")
        return fill(2, dtype=getattr(dtypes, nota.label(x.dtype)))

    def pair(q: Question) -> str:
        x, y = (value(op, Tensor.zeros) for op in q.operands)
        if all(op.category == PYTHON for op in q.operands):
            try:
                Tensor.add(x, y)
            except AttributeError as exc:
                raise Refused(exc) from exc
        return canonical[(x + y).dtype]

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

    def called(q: Question) -> str:
        args = [value(x, Tensor.ones) for x in q.operands]
        try:
            out = apply(q.function.removeprefix("Tensor."), q.operation, args)
        except AttributeError as exc:
            if q.operation == "matmul" and any(x.category == PYTHON for x in q.operands):
                raise Refused(exc) from exc  # "'int' object has no attribute 'ndim'"
            raise
        if q.operation in _REALISED:
            out.data()
        return canonical[out.dtype]

    def ask(q: Question) -> str:
        if q.kind == PAIR:
            return pair(q)
        if q.kind == OPERATION:
            return called(q)
        raise ValueError(f"tinygrad's oracle is not asked {q.kind}")

    with Context(DEV="PYTHON"):
        return answered(questions, ask, REFUSALS)
