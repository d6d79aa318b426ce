"""The PaddlePaddle oracle: the eager ``x + y`` on CPU tensors (dygraph mode), in a worker process
of its own.

Paddle's libraries crash (SIGSEGV) a process that has imported TensorFlow, and keep MindSpore from
loading in one that has imported Paddle: it runs in a worker of its own (``RUNS``).

A pair: the dtype of ``x + y`` on ``paddle.zeros([2], t)``, ``paddle.zeros([], t)`` (0-d) and the
Python values ``True``, ``1``, ``1.0``, ``1j`` (``paddle.add`` agrees on tensors but refuses
Python scalars). Two Python scalars are asked of ``paddle.add(x, y)``, which raises
``ValueError`` ("argument 'x' (position 0) must be Tensor"). Paddle has no n-ary promotion
function: the ``result_type`` of three is a left fold of that pair on real tensors, each step's
tensor (0-d while every input so far was) meeting the next operand. The chain is
``((a + b) + c)`` with ``+``, Python scalars added by Python first; a value (``int:300``) is
asked as the chain (Paddle takes any Python int, ``2**64`` included). A promotion refusal is a
``TypeError`` ("(InvalidType) Type promotion only support ...", "Invalid enum data type for type
promote ..."). An operation: the rule's function on ``ones([2], t)``/``ones([], t)``
(``cumsum`` along axis 0, ``where`` with a bool condition), the operator where a Python scalar
is one of the operands; Python's operator itself for an operator (``operated``: ``a += b``
records whether the name was rebound, which it always is: ``paddle.Tensor`` has no ``__iadd__``).
A Python scalar's value is passed as it is (``Asks.operation_values``). Three of Paddle's answers
to a value are not its exceptions of a rule, and are read here: a power of an int32, int64 or
bool tensor by some Python ints never returns (``phi::PowKernel`` loops for ever), so every power
of an integer tensor by a Python int runs first in a forked copy of the worker and is refused
when it does not return in ``_HANG`` seconds; a Tensor method given an int outside int64 raises
``SystemError`` caused by ``OverflowError`` ("int too big to convert"); and an integer division
by a Python int that is 0 in the tensor's type raises ``EnforceNotMet`` (not exported, not one of
``REFUSALS``) "InvalidArgumentError: Integer division by zero". Each is a refusal.

A missing CPU kernel is a gap, not a refusal: the CPU build has no ``add`` kernel for float16
and bfloat16 and no ``scale``/``add`` kernel for the float8 types. Paddle promotes first and then
looks the kernel up, so for ``add`` its ``RuntimeError`` "(NotFound) The kernel with key (CPU,
Undefined(AnyLayout), float16) of kernel `add` is not registered" names the sum's dtype: the type
the dtype rule gave.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import warnings
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import Any

from promote_cli.frameworks.paddle.promotion import TYPES  # the types its oracle is asked about
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import (
    OPERATORS,
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
    Gap,
    Question,
    first_line,
    in_worker,
)

RUNS = in_worker(
    "Paddle's libraries crash a process holding TensorFlow's and keep MindSpore's from loading",
    requires=("paddle",),
    # Paddle logs through glog on import and prints C++ stacks into its messages.
    env={"GLOG_minloglevel": "3", "FLAGS_call_stack_level": "0"},
)
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)
REFUSALS = (TypeError, ValueError, RuntimeError)
# ``x ** v`` of an int32, int64 or bool tensor never returns when ``v``, made a float32 and then
# the integer type, is negative (``-1``, and ``2**31 - 1``, which float32 rounds to 2**31)
# (phi::PowKernel loops for ever): every such power with a Python int exponent is tried in a
# forked copy of the worker first, given ``_HANG`` seconds once a power that returns has run in
# the same copy.
_POWERS = ("pow", "**", "**=")
_INTEGERS = ("bool", "uint8", "int8", "int16", "int32", "int64")
_HANG = 3.0
_NEVER_RETURNS = "Paddle's integer pow kernel never returns for this exponent"
# ``uint8_tensor // False``, ``int32_tensor % 2**32``: the int wrapped into the tensor's type is 0.
_ZERO_DIVISOR = "InvalidArgumentError: Integer division by zero"

_MISSING_KERNEL = re.compile(r"\(NotFound\) The kernel with key \(CPU, [^,]+, (\w+)\) of kernel")


def load() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "No ccache found", about compiling extensions
        import paddle
    paddle.set_device("cpu")
    return paddle


def version(handle: Any) -> str:
    return str(handle.__version__)


def missing_kernel(text: str, question: Question) -> Gap | None:
    """Paddle's unregistered kernel; for ``add`` (a pair asks ``x + y``) its key names the
    sum's dtype. Another operation's key names the kernel's type, not always its output's."""
    if "the kernel with key (" not in text.lower():
        return None
    found = _MISSING_KERNEL.search(text)
    add = question.kind == PAIR or question.operation in ("add", "+", "+=")
    return Gap(first_line(text), found.group(1) if add and found else None)


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    paddle = handle
    # paddle.uint16 compares unequal to bfloat16 but prints as it: compare, never print.
    dtypes = {n: getattr(paddle, n) for n in TYPES}
    condition = paddle.ones([2], dtype=paddle.bool)

    def canonical(found: Any) -> str:
        return next(n for n, d in dtypes.items() if d == found)

    def tensor(op: Operand, fill: Any) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return fill([] if op.category == ZERO_D else [2], dtype=dtypes[op.dtype])

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return paddle.zeros([] if op.category == ZERO_D else [2], dtype=dtypes[op.dtype])

    def plus(x: Any, y: Any, missing: list[str]) -> Any:
        """``x + y`` on real objects. Where the CPU has no ``add`` kernel for the sum's dtype,
        which Paddle's message names (the promotion is done when the kernel is looked up), a
        tensor of that dtype stands for the sum and the message is kept in ``missing``."""
        if not isinstance(x, paddle.Tensor) and not isinstance(y, paddle.Tensor):
            return x + y  # two Python scalars: Python adds them
        try:
            return x + y
        except RuntimeError as exc:
            found = _MISSING_KERNEL.search(str(exc))
            if found is None or found.group(1) not in dtypes:
                raise
            missing.append(str(exc))
            shapes = [v.shape for v in (x, y) if isinstance(v, paddle.Tensor)]
            return paddle.zeros([2] if any(shapes) else [], dtype=dtypes[found.group(1)])

    def result(out: Any, missing: list[str]) -> str | Cell:
        if not isinstance(out, paddle.Tensor):
            return python_result(out)
        if missing:  # the dtype rule's answer, no kernel to compute it
            return Gap(first_line(missing[0]), canonical(out.dtype))
        return canonical(out.dtype)

    def folded(operands: Sequence[Operand]) -> str | Cell:
        """A pair, and the n-ary question as a left fold of it (Paddle has no n-ary promotion
        function): each step's tensor, 0-d while every input so far was, meets the next. Two
        Python scalars are asked of ``paddle.add``, which refuses them."""
        acc, missing = operand(operands[0]), list[str]()
        for op in operands[1:]:
            right = operand(op)
            if not isinstance(acc, paddle.Tensor) and not isinstance(right, paddle.Tensor):
                acc = paddle.add(acc, right)
            else:
                acc = plus(acc, right, missing)
        return result(acc, missing)

    def chain(operands: Sequence[Operand]) -> str | Cell:
        missing: list[str] = []
        out = chained(operands, operand, lambda x, y: plus(x, y, missing))
        return result(out, missing)

    def called(q: Question) -> str | Cell:
        """The operation called; a power that may never return tried in a forked copy first
        (``returns``); a Tensor method given a Python int outside int64 (``t == 2**64``) raises
        ``SystemError: ... returned a result with an exception set`` caused by ``OverflowError:
        int too big to convert`` (Paddle converts it to a C long and returns anyway): a
        refusal of the value."""
        if integer_power(q) and not returns(lambda: call(q)):
            raise Refused(f"{_NEVER_RETURNS} (no answer in {_HANG:g} s; the process was killed)")
        try:
            return call(q)
        except SystemError as exc:
            if not isinstance(exc.__cause__, OverflowError):
                raise
            raise Refused(f"{first_line(exc)} ({first_line(exc.__cause__)})") from exc
        except Exception as exc:  # paddle.EnforceNotMet, which Paddle does not export
            if type(exc).__name__ != "EnforceNotMet" or _ZERO_DIVISOR not in str(exc):
                raise
            raise Refused(f"EnforceNotMet: {_ZERO_DIVISOR}") from exc

    def call(q: Question) -> str | Cell:
        args = [tensor(x, paddle.ones) for x in q.operands]
        scalar = any(x.category == PYTHON for x in q.operands)
        try:
            if is_operator(q.operation):  # Python's operator itself, as user code writes it
                return operated(q.operation, args, lambda out: canonical(out.dtype))
            fn = getattr(paddle, q.function.removeprefix("paddle."))
            if q.operation == "where":
                out = fn(condition, *args)
            elif q.operation == "cumulative_sum":
                out = fn(*args, 0)
            elif scalar and q.operation in OPERATORS:  # paddle.add & co take tensors only
                out = OPERATORS[q.operation](*args)
            else:
                out = fn(*args)
        except AttributeError as exc:  # atan2(x, 1): "'int' object has no attribute 'shape'"
            if not scalar:
                raise
            raise Refused(exc) from exc
        return canonical(out.dtype)

    def integer_power(q: Question) -> bool:
        """An integer or bool tensor to the power of a Python int: the powers that may hang."""
        if q.operation not in _POWERS:
            return False
        base, exponent = q.operands
        return base.category != PYTHON and base.dtype in _INTEGERS and exponent.dtype == "int*"

    def returns(run: Any) -> bool:
        """Whether ``run()`` returns (or raises) in a forked copy of this process, given
        ``_HANG`` seconds once ``ones([2], int32) ** 2`` has returned in that copy (so a slow
        start or a fork that cannot compute is not taken for a hang: it stops the run)."""
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the copy: report the control, then the call; never return into the worker
            try:
                os.close(read)
                _ = paddle.ones([2], dtype=paddle.int32) ** 2
                os.write(write, b"c")
                with contextlib.suppress(BaseException):  # raising is returning: asked again
                    run()
                os.write(write, b"r")
            finally:
                os._exit(0)
        os.close(write)
        try:
            seen = b""
            while b"r" not in seen:
                wait = _HANG if b"c" in seen else 120.0
                if not select.select([read], [], [], wait)[0]:
                    break
                chunk = os.read(read, 8)
                if not chunk:
                    break
                seen += chunk
        finally:
            os.close(read)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        if b"c" not in seen:
            raise ChildProcessError("the forked copy of Paddle's worker did not compute ones ** 2")
        return b"r" in seen

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            return folded(q.operands)
        if q.kind in (CHAIN, VALUE):
            return chain(q.operands)
        if q.kind == OPERATION:
            return called(q)
        raise ValueError(f"Paddle's oracle is not asked {q.kind}")

    return answered(questions, ask, REFUSALS, missing_kernel)


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): Paddle's tensors of
    ones on the CPU, its functions (``cumulative_sum`` along axis 0) and Python's operators on
    them."""

    # The arrays are ones: ~x of a bool one is zeros, a divisor its kernels refuse.
    value_errors = ("Integer division by zero",)

    def __init__(self, paddle: Any, opts: Mapping[str, Any]) -> None:
        self.paddle = paddle
        # EnforceNotMet: what its C++ kernels raise (an integer division by zero), a class
        # pybind11 registers under no module attribute: taken from one such error
        self.refusals = (*REFUSALS, _enforce_not_met(paddle))
        # paddle.uint16 compares unequal to bfloat16 but prints as it: compare, never print
        self.dtypes = {n: getattr(paddle, n) for n in TYPES}

    @staticmethod
    def configured(opts: Mapping[str, Any]) -> Any:
        return nullcontext()  # its worker set the device

    @staticmethod
    def gap(text: str, question: Question) -> Gap | None:
        return missing_kernel(text, question)

    def array(self, dtype: str, ndim: int) -> Any:
        return self.paddle.ones([2] * ndim, dtype=self.dtypes[dtype])

    def call(self, function: str, args: Sequence[Any]) -> Any:
        fn = getattr(self.paddle, function.removeprefix("paddle."))
        return fn(*args, 0) if function == "paddle.cumsum" else fn(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.astype(self.dtypes[dtype])

    def dtype(self, x: Any) -> str:
        return next(n for n, d in self.dtypes.items() if d == x.dtype)


def _enforce_not_met(paddle: Any) -> type[BaseException]:
    """The class of the exceptions Paddle's C++ kernels raise (``paddle.EnforceNotMet``, which
    no module holds as an attribute): an integer division by zero's."""
    ints = paddle.ones([1], dtype=paddle.int32)
    try:
        ints // paddle.zeros([1], dtype=paddle.int32)
    except Exception as exc:  # the one kind it raises, whose class is wanted
        if type(exc).__name__ == "EnforceNotMet":
            return type(exc)
        raise
    raise RuntimeError("Paddle divided an integer by zero without raising")
