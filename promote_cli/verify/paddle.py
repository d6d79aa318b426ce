"""The PaddlePaddle oracle: the eager ``x + y`` on CPU tensors (dygraph mode), in a process of
its own.

Paddle runs in a fresh Python process (``python -m promote_cli.verify.paddle``) that answers
every cell of the policy and prints them as JSON; ``load`` starts it. Paddle's libraries crash
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
import os
import re
import sys
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Any

from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import PYTHON_VALUES, Answer, ask_all, looking_up, refusing, worker

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
    answers = worker("promote_cli.verify.paddle", env=_QUIET)
    if "import_error" in answers:
        raise ImportError(answers["import_error"])
    return answers


def version(handle: Any) -> str:
    return handle["version"]


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    yield looking_up(handle["cells"])


def _worker() -> dict[str, Any]:
    """Every cell of the policy, asked of Paddle (this process's)."""
    os.environ.update(_QUIET)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "No ccache found", about compiling extensions
            import paddle
    except ImportError as exc:
        return {"import_error": str(exc)}
    from promote_cli import policies

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

    return {
        "version": paddle.__version__,
        "cells": ask_all(policies.get("paddle").operands(), answer),
    }


if __name__ == "__main__":
    json.dump(_worker(), sys.stdout)
