"""The MindSpore oracle: ``mindspore.ops.add`` in PyNative mode on CPU, in a process of its own.

MindSpore runs in a fresh Python process (``python -m promote_cli.frameworks.mindspore.oracle``)
that answers every cell of the policy at once and prints them as JSON; ``load`` starts it. Two
reasons:
its libraries clash with Paddle's in one process (both ship a ``libdnnl.so.3``; the loader keeps
the first, and Paddle's lacks symbols MindSpore needs), and its import is large (~2.5 GB of
libraries) for a tool that otherwise stays light.

Operands are ``ops.zeros((2,), t)`` and the Python values ``True``, ``1``, ``1.0``, ``1j``; the
answer is the dtype of ``ops.add(x, y)`` (two Python scalars included: MindSpore makes them
tensors). A promotion refusal is a ``TypeError`` ("Type implicit conversion between UInt8 and
UInt16 is not supported", "Failed calling Add with ... complex").

PyNative runs operations asynchronously: an error would surface on a later call, blamed on the
wrong cell. The worker switches on ``mindspore.runtime.launch_blocking()`` and synchronises after
each operation. The MindSpore 2.10 wheel is built against NumPy 1.x: under NumPy 2 its first
operation with a Python scalar fails once (``SystemError``) and NumPy prints a warning banner;
the worker makes that first call itself, with stderr silenced.

A missing CPU kernel is a documented gap, not a refusal: ``ops.add`` has no bool kernel on CPU
(``TypeError`` "For primitive[Add], the input argument[x] must be a type of {...}"); there the
oracle answers with the ``+`` operator, which computes bool + bool (Python scalars made 0-d
tensors first, which MindSpore does not treat specially).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Any

from promote_cli.operands import PYTHON, Operand
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

POLICY = "mindspore"
FRAMEWORK = "mindspore"
INSTALL = "mindspore"
IN_CONFORMANCE_EXTRA = True
OPTIONS: tuple[str, ...] = ()

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
    if find_spec("mindspore") is None:
        raise ImportError("No module named 'mindspore'")
    answers = worker("promote_cli.frameworks.mindspore.oracle", env={"GLOG_v": "3"})
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
    """The worker's answers to every operation cell (``_operations``), looked up."""
    answers = handle["ops"]

    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        result, error, kernel, dtype = answers[operation.name][cell_key(operands)]
        if result is None:
            raise Refused(error, kernel=kernel, dtype=dtype)
        return result

    yield call


def _worker() -> dict[str, Any]:
    """Every cell of the policy, asked of MindSpore (this process's)."""
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            import mindspore as ms
            from mindspore import ops
        except ImportError as exc:
            return {"import_error": str(exc)}
        ms.set_device("CPU")
        ms.runtime.launch_blocking()
        # The NumPy 1.x wheel's first call with a Python scalar fails once; later ones work.
        with contextlib.suppress(SystemError):
            ops.add(ops.zeros((2,), ms.int32), 1.0)

    from promote_cli.frameworks.mindspore.promotion import POLICY

    names = ("bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
    names += ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
    dtypes = {n: getattr(ms, n) for n in names}

    def canonical(found: Any) -> str:
        return next(n for n, d in dtypes.items() if d == found)

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
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

    return {
        "version": ms.__version__,
        "cells": ask_all(POLICY.operands(), answer),
        "ops": _operations(ms, ops, dtypes, canonical),
    }


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


def _operations(ms: Any, ops: Any, dtypes: Mapping[str, Any], canonical: Any) -> dict:
    """Every operation cell ``promote verify`` asks, answered by the rule's ``mindspore.ops``
    function on ``ops.ones((2,), t)`` and Python scalars (``cumsum`` along axis 0, ``where``
    with a bool condition): ``{op: {cell: [result, error, kernel, named type]}}``."""
    from promote_cli.frameworks.mindspore.operations import OPERATIONS
    from promote_cli.ops import VOCABULARY
    from promote_cli.verify.operations import cases, every_operand

    rules = OPERATIONS
    every = every_operand(rules)
    condition = ops.ones((2,), ms.bool_)
    names = {str(d): n for n, d in dtypes.items()}  # MindSpore's spelling: Int64, BFloat16

    def value(op: Operand) -> Any:
        return (
            PYTHON_VALUES[op.dtype] if op.category == PYTHON else ops.ones((2,), dtypes[op.dtype])
        )

    def call(function: Any, name: str, case: Sequence[Operand]) -> Any:
        args = [value(x) for x in case]
        if name == "where":
            out = function(condition, *args)
        elif name == "cumulative_sum":
            out = function(*args, 0)
        else:
            out = function(*args)
        ms.runtime.synchronize()
        return out

    def again(function: Any, name: str, case: Sequence[Operand]) -> None:
        with contextlib.suppress(TypeError, RuntimeError, ValueError):
            call(function, name, case)

    def run(function: Any, name: str, case: Sequence[Operand]) -> list:
        try:
            out = call(function, name, case)
        except (TypeError, RuntimeError, ValueError) as exc:
            text = str(exc)
            if "KernelMod Init Failed" in text:  # the types are in the C++ log, not the message
                text += "\n" + _logged(lambda: again(function, name, case))
            kernel = any(words in text for words in _NO_KERNEL)
            named = next((m.group(1) for r in _NAMED_OUTPUT if (m := r.search(text))), None)
            found = names.get(named) if kernel and named else None
            first = text.strip().splitlines()[0] if text.strip() else ""
            return [None, f"{type(exc).__name__}: {first}", kernel, found]
        return [canonical(out.dtype), None, False, None]

    out: dict[str, dict[str, list]] = {}
    for name, operation in VOCABULARY.items():
        rule = rules.rule(name)
        if rule.function is None:
            continue
        function = getattr(ops, rule.function.removeprefix("ops."))
        asked = cases(rules, operation, every)
        out[name] = {cell_key(case): run(function, name, case) for case in asked}
    return out


if __name__ == "__main__":
    json.dump(_worker(), sys.stdout)
