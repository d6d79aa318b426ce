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

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.frameworks.tinygrad import FRAMEWORK as ENTRY
from promote_cli.operands import PYTHON, Operand
from promote_cli.verify import PYTHON_VALUES, Answer, Call, Refused, refusing

POLICY = "tinygrad"
FRAMEWORK = "tinygrad"
INSTALL = "tinygrad"
IN_CONFORMANCE_EXTRA = True
OPTIONS: tuple[str, ...] = ()


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


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    Tensor, dtypes, Context = handle
    nota = ENTRY.declared_in
    canonical = _canonical(dtypes)

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        if op.dtype not in nota.label_map():
            raise Refused(f"tinygrad has no dtype {op.dtype}")
        return Tensor.zeros(2, dtype=getattr(dtypes, nota.label(op.dtype)))

    @refusing(RuntimeError)
    def answer(a: Operand, b: Operand) -> str:
        x, y = operand(a), operand(b)
        if a.category == b.category == PYTHON:
            try:
                Tensor.add(x, y)
            except AttributeError as exc:
                raise Refused(exc) from exc
        return canonical[(x + y).dtype]

    with Context(DEV="PYTHON"):
        yield answer


# A Python scalar on the left: the reflected operator where the method has no reverse=True.
_REFLECTED = {"__floordiv__": "__rfloordiv__", "__lt__": "__gt__"}
_SWAPPED = ("maximum", "minimum", "eq")  # no reflected form: t.maximum(1) (symmetric)
# Built lazily with a float dtype, refused only when realised (UOp verification).
_REALISED = ("bitwise_and", "bitwise_left_shift", "bitwise_invert")


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """tinygrad's Tensor methods on ``Tensor.ones(2, dtype=t)`` and Python scalars; the dtype is
    the lazy result's, except for the bitwise functions, realised (``.data()``) on the PYTHON
    device. A Python scalar on the left goes through ``reverse=True`` or the reflected
    operator; ``matmul``'s refusal of a Python scalar is an ``AttributeError``."""
    Tensor, dtypes, Context = handle
    nota = ENTRY.declared_in
    canonical = _canonical(dtypes)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return Tensor.ones(2, dtype=getattr(dtypes, nota.label(op.dtype)))

    def apply(name: str, operation: Any, args: list[Any]) -> Any:
        if operation.name == "where":
            return Tensor.ones(2, dtype=dtypes.bool).where(*args)
        if isinstance(args[0], Tensor):
            return getattr(Tensor, name)(*args)
        if name in _SWAPPED:
            return getattr(Tensor, name)(args[1], args[0])
        if name in _REFLECTED:
            return getattr(args[1], _REFLECTED[name])(args[0])
        return getattr(Tensor, name)(args[1], args[0], reverse=True)

    @refusing(RuntimeError)
    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        args = [value(x) for x in operands]
        try:
            out = apply(function.removeprefix("Tensor."), operation, args)
        except AttributeError as exc:
            if operation.name == "matmul" and any(x.category == PYTHON for x in operands):
                raise Refused(exc) from exc  # "'int' object has no attribute 'ndim'"
            raise
        if operation.name in _REALISED:
            out.data()
        return canonical[out.dtype]

    with Context(DEV="PYTHON"):
        yield call
