"""The MindSpore oracle: ``mindspore.ops.add`` in PyNative mode on CPU.

Operands are ``ops.zeros((2,), t)`` and the Python values ``True``, ``1``, ``1.0``, ``1j``; the
answer is the dtype of ``ops.add(x, y)`` (two Python scalars included: MindSpore makes them
tensors). A promotion refusal is a ``TypeError`` ("Type implicit conversion between UInt8 and
UInt16 is not supported", "Failed calling Add with ... complex").

PyNative runs operations asynchronously: an error would surface on a later call, blamed on the
wrong cell. The oracle switches on ``mindspore.runtime.launch_blocking()`` and synchronises after
each operation. The MindSpore 2.10 wheel is built against NumPy 1.x: under NumPy 2 its first
operation with a Python scalar fails once (``SystemError``) and NumPy prints a warning banner;
``load`` makes that first call itself, with stderr silenced.

A missing CPU kernel is a documented gap, not a refusal: ``ops.add`` has no bool kernel on CPU
(``TypeError`` "For primitive[Add], the input argument[x] must be a type of {...}"); there the
oracle answers with the ``+`` operator, which computes bool + bool (Python scalars made 0-d
tensors first, which MindSpore does not treat specially).

MindSpore must be imported before Paddle in one process: both ship a ``libdnnl.so.2``, the
dynamic loader keeps the first, and Paddle's lacks symbols MindSpore needs. ``promote verify``
lists mindspore before paddle; ``load`` says so when the order was the other one.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from promote_cli.operands import PYTHON, Operand
from promote_cli.verify import PYTHON_VALUES, Answer, Refused, refusing

POLICY = "mindspore"
FRAMEWORK = "mindspore"
OPTIONS: tuple[str, ...] = ()

_KERNEL_GAP = "For primitive[Add], the input argument[x] must be a type of"


def load() -> Any:
    os.environ.setdefault("GLOG_v", "3")  # MindSpore's C++ logging, on stderr otherwise
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            import mindspore
            from mindspore import ops
        except ImportError as exc:
            if "paddle" in sys.modules and "undefined symbol" in str(exc):
                # Both wheels ship libdnnl.so.2 and the loader keeps the first one loaded;
                # Paddle's lacks symbols MindSpore needs (MindSpore's serves both).
                raise ImportError(
                    "MindSpore cannot load after Paddle in one process (their libdnnl.so.2"
                    " clash); verify mindspore before paddle, or on its own"
                ) from exc
            raise

        mindspore.set_device("CPU")
        mindspore.runtime.launch_blocking()
        # The NumPy 1.x wheel's first call with a Python scalar fails once; later ones work.
        with contextlib.suppress(SystemError):
            ops.add(ops.zeros((2,), mindspore.int32), 1.0)
    return mindspore, ops


def version(handle: Any) -> str:
    return handle[0].__version__


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    ms, ops = handle
    names = ("bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
    names += ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
    dtypes = {n: getattr(ms, n) for n in names}

    def canonical(found: Any) -> str:
        return next(n for n, d in dtypes.items() if d == found)

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        if op.dtype not in dtypes:
            raise Refused(f"MindSpore cannot make a CPU tensor of {op.dtype}")
        return ops.zeros((2,), dtypes[op.dtype])

    def tensor(x: Any) -> Any:
        return x if isinstance(x, ms.Tensor) else ms.Tensor(x)

    @refusing(TypeError)
    def answer(a: Operand, b: Operand) -> str:
        x, y = operand(a), operand(b)
        try:
            result = ops.add(x, y)
            ms.runtime.synchronize()
        except TypeError as exc:
            if _KERNEL_GAP not in str(exc):
                raise
            result = tensor(x) + tensor(y)
            ms.runtime.synchronize()
        return canonical(result.dtype)

    yield answer
