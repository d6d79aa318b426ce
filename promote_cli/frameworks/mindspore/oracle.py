"""The MindSpore oracle: ``mindspore.ops`` in PyNative mode on CPU, in a worker process of its own.

MindSpore runs in a worker of its own (``RUNS``) for two reasons: its libraries clash with
Paddle's in one process (both ship a ``libdnnl.so.3``; the loader keeps the first, and Paddle's
lacks symbols MindSpore needs), and its import is large (~2.5 GB of libraries) for a tool that
otherwise stays light.

A pair: the dtype of ``ops.add(x, y)`` on ``ops.zeros((2,), t)`` and the Python values
``True``, ``1``, ``1.0``, ``1j`` (two Python scalars included: MindSpore makes them tensors). A
promotion refusal is a ``TypeError`` ("Type implicit conversion between UInt8 and UInt16 is not
supported", "Failed calling Add with ... complex"). ``ops.add`` has no bool kernel on CPU (a
type check: "For primitive[Add], the input argument[x] must be a type of {...}"); there a pair
is answered with the ``+`` operator, which computes bool + bool (Python scalars made 0-d
tensors first, which MindSpore does not treat specially). ``mindspore.ops`` has no n-ary
promotion function (``mindspore.numpy.result_type`` has NumPy-like rules no operation applies):
the ``result_type`` of three is a left fold of that pair on real tensors, each step's tensor
meeting the next operand. The chain is ``((a + b) + c)`` with the same step, Python scalars
added by Python first; a value (``int:300``) is asked as the chain (an int outside int64:
"Unable to cast Python instance of type <class 'int'> to C++ type 'long'"; a Tensor operator
raises ``SystemError: ... returned a result with an exception set`` caused by ``OverflowError: int
too big to convert``, a refusal too). An operation: the
rule's ``mindspore.ops`` function on ``ops.ones((2,), t)`` and Python scalars (``cumsum`` along
axis 0, ``where`` with a bool condition); an operator, Python's own on the same (``operated``:
``a += b`` records whether the name was rebound, which it always is; ``t == 1j`` is Python's
``False``, a Python bool).

PyNative runs operations asynchronously: an error would surface on a later call, blamed on the
wrong cell. The worker switches on ``mindspore.runtime.launch_blocking()`` and synchronises after
each operation. The MindSpore 2.10 wheel is built against NumPy 1.x: under NumPy 2 its first
operation with a Python scalar fails once (``SystemError``) and NumPy prints a warning banner;
``load`` makes that first call itself.

A missing CPU kernel is a gap (``missing_kernel``): "Select CPU operator", "does not support this
kernel data type", "KernelMod Init Failed" (whose types are in the C++ log, read by calling
again) and ``ops.add``'s type check; the message names the output type the dtype rule gave
("... output[[const vector]{Float32}]").
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.frameworks.mindspore.promotion import TYPES  # the types its oracle is asked about
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import (
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
    Gap,
    Question,
    Refusal,
    Result,
    Unobservable,
    first_line,
    in_worker,
    said,
)

RUNS = in_worker(
    "MindSpore's libraries clash with Paddle's in one process, and its import is ~2.5 GB",
    requires=("mindspore",),
    env={"GLOG_v": "3"},
)
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)
REFUSALS = (TypeError, RuntimeError, ValueError)

_KERNEL_GAP = "For primitive[Add], the input argument[x] must be a type of"
# How MindSpore's CPU says it has no kernel for the types its dtype rule gave (the message names
# that rule's output type: "... but get input[...], output[[const vector]{Float32}]").
_NO_KERNEL = (
    "Select CPU operator",
    "does not support this kernel data type",
    "KernelMod Init Failed",
    _KERNEL_GAP,
)
_NAMED_OUTPUT = (
    re.compile(r"output\[\[const vector\]\{(\w+)\}\]"),  # Select CPU operator[Exp] fail
    re.compile(r"and output\[(\w+)"),  # the same, from a kernel graph (Atan2)
    re.compile(r"output\((\w+)\)"),  # Reduce does not support this kernel data type
)


def load() -> Any:
    with contextlib.redirect_stderr(io.StringIO()):
        import mindspore as ms
        from mindspore import ops

        ms.set_device("CPU")
        ms.runtime.launch_blocking()
        # The NumPy 1.x wheel's first call with a Python scalar fails once; later ones work.
        with contextlib.suppress(SystemError):
            ops.add(ops.zeros((2,), ms.int32), 1.0)
    _CANONICAL.update({str(getattr(ms, n)): n for n in TYPES})
    return ms


def version(handle: Any) -> str:
    return str(handle.__version__)


def missing_kernel(text: str, question: Question) -> Gap | None:
    """MindSpore's CPU without the kernel, and the output type its message names, if any."""
    if not any(words in text for words in _NO_KERNEL):
        return None
    named = next((m.group(1) for r in _NAMED_OUTPUT if (m := r.search(text))), None)
    return Gap(first_line(text), _CANONICAL.get(named) if named else None)


# MindSpore's spelling of each type (Int64, BFloat16) -> its canonical name; filled by ``load``.
_CANONICAL: dict[str, str] = {}


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    ms = handle
    ops = ms.ops
    dtypes = {n: getattr(ms, n) for n in TYPES}
    condition = ops.ones((2,), ms.bool_)

    def canonical(found: Any) -> str:
        return next(n for n, d in dtypes.items() if d == found)

    def value(op: Operand, fill: Any) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return fill(() if op.category == ZERO_D else (2,), dtypes[op.dtype])

    def tensor(x: Any) -> Any:
        return x if isinstance(x, ms.Tensor) else ms.Tensor(x)

    def add(x: Any, y: Any) -> Any:
        """``ops.add(x, y)``; where it has no CPU kernel (bool), the ``+`` operator."""
        try:
            result = ops.add(x, y)
            ms.runtime.synchronize()
        except TypeError as exc:
            if _KERNEL_GAP not in str(exc):
                raise
            result = tensor(x) + tensor(y)
            ms.runtime.synchronize()
        return result

    def folded(operands: Sequence[Operand]) -> str:
        """A pair, and the n-ary question as a left fold of it (MindSpore's ``ops`` has no
        n-ary promotion function): each step's tensor meets the next operand."""
        acc = value(operands[0], ops.zeros)
        for op in operands[1:]:
            acc = add(acc, value(op, ops.zeros))
        return canonical(acc.dtype)

    def chain_add(x: Any, y: Any) -> Any:
        if not isinstance(x, ms.Tensor) and not isinstance(y, ms.Tensor):
            return x + y  # two Python scalars: Python adds them
        return add(x, y)

    def chain(operands: Sequence[Operand]) -> str:
        out = chained(operands, lambda op: value(op, ops.zeros), chain_add)
        return canonical(out.dtype) if isinstance(out, ms.Tensor) else python_result(out)

    def synchronised(out: Any) -> str:
        ms.runtime.synchronize()  # an asynchronous failure surfaces here, on its own cell
        # ``t == 1j`` is Python's False, not a tensor: Tensor.__eq__ compares no complex scalar
        return canonical(out.dtype) if isinstance(out, ms.Tensor) else python_result(out)

    def call(q: Question) -> Any:
        args = [value(x, ops.ones) for x in q.operands]
        if is_operator(q.operation):  # Python's operator itself, as user code writes it
            return operated(q.operation, args, synchronised)
        function = getattr(ops, q.function.removeprefix("ops."))
        if q.operation == "where":
            out = function(condition, *args)
        elif q.operation == "cumulative_sum":
            out = function(*args, 0)
        else:
            out = function(*args)
        ms.runtime.synchronize()
        return out

    def called(q: Question) -> str | Cell:
        try:
            out = call(q)
            return out if isinstance(out, Result) else canonical(out.dtype)
        except SystemError as exc:
            # A Tensor operator given a Python int outside int64 (``t * 2**63``): pybind11's
            # conversion raised OverflowError inside the method, which returned anyway; Python
            # reports that as a SystemError caused by the OverflowError. A refusal of the value.
            if not isinstance(exc.__cause__, OverflowError):
                raise
            return Refusal(f"{first_line(exc)} ({first_line(exc.__cause__)})")
        except REFUSALS as exc:
            text = said(exc)
            if "KernelMod Init Failed" in text:  # the types are in the C++ log, not the message
                text += "\n" + _logged(lambda: _again(call, q))
            return missing_kernel(text, q) or Refusal(first_line(exc))

    def ask(q: Question) -> str | Cell:
        if _ends_the_process(q.operands):
            return Unobservable(
                "not asked: MindSpore 2.10.0 ends the process (SIGSEGV) where a 0-d float16 or"
                " bfloat16 tensor meets a dimensioned tensor of the other"
            )
        if q.kind in (PAIR, RESULT_TYPE):
            return folded(q.operands)
        if q.kind in (CHAIN, VALUE):
            return chain(q.operands)
        if q.kind == OPERATION:
            return called(q)
        raise ValueError(f"MindSpore's oracle is not asked {q.kind}")

    return answered(questions, ask, REFUSALS, missing_kernel)


def _ends_the_process(operands: Sequence[Operand]) -> bool:
    """Whether a 0-d float16 (bfloat16) tensor and a dimensioned bfloat16 (float16) one are
    among ``operands``, in any order: MindSpore 2.10.0 dies of SIGSEGV in most such calls
    (``promotion.crashes``), which would end the worker. A 0-d tensor of either type comes
    only from a 0-d operand of it (a Python float makes float32)."""
    zero_d = {x.dtype for x in operands if x.category == ZERO_D}
    arrays = {x.dtype for x in operands if x.category not in (ZERO_D, PYTHON)}
    return any(t in zero_d and u in arrays for t, u in _HALF_PAIRS)


_HALF_PAIRS = (("float16", "bfloat16"), ("bfloat16", "float16"))


def _again(call: Any, q: Question) -> None:
    with contextlib.suppress(*REFUSALS):
        call(q)


def _logged(again: Any) -> str:
    """What MindSpore's C++ side logs (file descriptor 2) while ``again()`` runs."""
    import os
    import tempfile

    with tempfile.TemporaryFile() as log:
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        try:
            again()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        log.seek(0)
        return log.read().decode(errors="replace")


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): ``mindspore.ops``'s
    functions and Python's operators on tensors of ones, in PyNative mode on the CPU, each
    node synchronised as its dtype is read (so that an asynchronous failure shows at its own
    node); ``cumulative_sum`` along axis 0."""

    value_errors = ()

    # SystemError: a Tensor operator given a Python int outside int64, whose cause is
    # pybind11's OverflowError (see ``answer``)
    refusals = (*REFUSALS, SystemError)

    def __init__(self, ms: Any, opts: Mapping[str, Any]) -> None:
        self.ms = ms
        self.dtypes = {n: getattr(ms, n) for n in TYPES}

    @staticmethod
    def configured(opts: Mapping[str, Any]) -> Any:
        return contextlib.nullcontext()  # its worker set the device and blocking launches

    @staticmethod
    def gap(text: str, question: Question) -> Gap | None:
        return missing_kernel(text, question)

    def array(self, dtype: str, ndim: int) -> Any:
        return self.ms.ops.ones((2,) * ndim, self.dtypes[dtype])

    def call(self, function: str, args: Sequence[Any]) -> Any:
        fn = getattr(self.ms.ops, function.removeprefix("ops."))
        return fn(*args, 0) if function == "ops.cumsum" else fn(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.astype(self.dtypes[dtype])

    def dtype(self, x: Any) -> str:
        self.ms.runtime.synchronize()
        if not isinstance(x, self.ms.Tensor):  # t == 1j: Python's False
            return python_result(x)
        return next(n for n, d in self.dtypes.items() if d == x.dtype)
