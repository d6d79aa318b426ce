"""The PaddlePaddle oracle: the eager ``x + y`` on CPU tensors (dygraph mode), in a process of
its own.

Paddle runs in a fresh Python process (``python -m promote_cli.frameworks.paddle.oracle``) that
answers every cell of the policy, and every case of every operation ``promote verify`` asks
(``_operations``), and prints them as JSON; ``load`` starts it, ``answering`` and ``calling``
look the answers up. Paddle's libraries crash
(SIGSEGV) a process that has imported TensorFlow, and keep MindSpore from loading in one that
has imported Paddle.

Operands are ``paddle.zeros([2], t)``, ``paddle.zeros([], t)`` (0-d) and the Python values
``True``, ``1``, ``1.0``, ``1j``; the answer is the dtype of ``x + y`` (``paddle.add`` agrees on
tensors but refuses Python scalars). Two Python scalars are asked of ``paddle.add(x, y)``, which
raises ``ValueError`` ("argument 'x' (position 0) must be Tensor"). A promotion refusal is a
``TypeError`` ("(InvalidType) Type promotion only support ...", "Invalid enum data type for
type promote ...").

Missing CPU kernels are a documented gap, not a refusal: the CPU build has no ``add`` kernel
for float16 and bfloat16 and no ``scale``/``add`` kernel for the float8 types. Paddle promotes
first and then looks the kernel up, so its ``RuntimeError`` "(NotFound) The kernel with key (CPU,
Undefined(AnyLayout), float16) of kernel `add` is not registered" names the promoted dtype; the
oracle answers that dtype. Any other ``RuntimeError`` is not expected and propagates.
"""

from __future__ import annotations

import json
import operator
import os
import re
import sys
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Any

from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.ops import cell_key
from promote_cli.verify import (
    PYTHON_VALUES,
    Answer,
    Call,
    Refused,
    ask_all,
    looking_up,
    refusing,
    worker,
)

POLICY = "paddle"
FRAMEWORK = "paddle"
INSTALL = "paddlepaddle"
IN_CONFORMANCE_EXTRA = True
OPTIONS: tuple[str, ...] = ()

_MISSING_KERNEL = re.compile(r"\(NotFound\) The kernel with key \(CPU, [^,]+, (\w+)\) of kernel")
# Paddle logs through glog on import and prints C++ stacks into its messages.
_QUIET = {"GLOG_minloglevel": "3", "FLAGS_call_stack_level": "0"}


def load() -> Any:
    if find_spec("paddle") is None:
        raise ImportError("No module named 'paddle'")
    answers = worker("promote_cli.frameworks.paddle.oracle", env=_QUIET)
    if "import_error" in answers:
        raise ImportError(answers["import_error"])
    return answers


def version(handle: Any) -> str:
    return handle["version"]


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    yield looking_up(handle["cells"])


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """The worker's answers for every operation (see ``_operations``), looked up."""
    answers = handle["operations"]

    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        result, error = answers[operation.name][cell_key(operands)]
        if result is None:
            raise Refused(error or "refused")
        return result

    yield call


# A Python scalar is the operator's: paddle.add & co take tensors only.
_OPERATORS = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": operator.floordiv,
    "remainder": operator.mod,
    "pow": operator.pow,
    "equal": operator.eq,
    "less": operator.lt,
    "bitwise_and": operator.and_,
    "bitwise_left_shift": operator.lshift,
    "matmul": operator.matmul,
}


def _operations(paddle: Any, value: Any, canonical: Any) -> dict[str, Any]:
    """Every operation of the paddle policy on every case ``promote verify`` asks: the
    function on ``ones([2], t)``/``ones([], t)`` (``cumsum`` along axis 0, ``where`` with a
    bool condition), the operator where a Python scalar is one of the operands. A refusal is
    the first line of the error (a missing kernel's says so)."""
    from promote_cli import ops
    from promote_cli.frameworks.paddle.operations import OPERATIONS
    from promote_cli.verify.operations import cases, every_operand

    declared = OPERATIONS
    operands = every_operand(declared)
    condition = paddle.ones([2], dtype=paddle.bool)

    def run(name: str, function: str, case: Sequence[Operand]) -> str:
        args = [value(x) for x in case]
        scalar = any(x.category == PYTHON for x in case)
        fn = getattr(paddle, function.removeprefix("paddle."))
        try:
            if name == "where":
                out = fn(condition, *args)
            elif name == "cumulative_sum":
                out = fn(*args, 0)
            elif scalar and name in _OPERATORS:
                out = _OPERATORS[name](*args)
            else:
                out = fn(*args)
        except AttributeError as exc:  # atan2(x, 1): "'int' object has no attribute 'shape'"
            if not scalar:
                raise
            raise Refused(exc) from exc
        return canonical(out.dtype)

    answers: dict[str, Any] = {}
    for name, op in ops.VOCABULARY.items():
        function = declared.rule(name).function
        if function is None:
            continue
        cells: dict[str, list[str | None]] = {}
        for case in cases(declared, op, operands):
            try:
                cells[cell_key(case)] = [
                    refusing(TypeError, ValueError, RuntimeError)(run)(name, function, case),
                    None,
                ]
            except Refused as exc:
                cells[cell_key(case)] = [None, str(exc)]
        answers[name] = cells
    return answers


def _worker() -> dict[str, Any]:
    """Every cell of the policy, asked of Paddle (this process's)."""
    os.environ.update(_QUIET)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "No ccache found", about compiling extensions
            import paddle
    except ImportError as exc:
        return {"import_error": str(exc)}
    from promote_cli.frameworks.paddle.promotion import POLICY

    paddle.set_device("cpu")
    names = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16")
    names += ("float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2")
    # paddle.uint16 compares unequal to bfloat16 but prints as it: compare, never print.
    dtypes = {n: getattr(paddle, n) for n in names}

    def canonical(found: Any) -> str:
        return next(n for n, d in dtypes.items() if d == found)

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return paddle.zeros([] if op.category == ZERO_D else [2], dtype=dtypes[op.dtype])

    @refusing(TypeError, ValueError)
    def answer(a: Operand, b: Operand) -> str:
        x, y = operand(a), operand(b)
        if a.category == b.category == PYTHON:
            return canonical(paddle.add(x, y).dtype)
        try:
            return canonical((x + y).dtype)
        except RuntimeError as exc:
            gap = _MISSING_KERNEL.search(str(exc))
            if gap is None:
                raise
            return gap.group(1)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return paddle.ones([] if op.category == ZERO_D else [2], dtype=dtypes[op.dtype])

    return {
        "version": paddle.__version__,
        "cells": ask_all(POLICY.operands(), answer),
        "operations": _operations(paddle, value, canonical),
    }


if __name__ == "__main__":
    json.dump(_worker(), sys.stdout)
