"""An oracle made of the user's own function: ``promote verify POLICY --oracle module:function``
proves a policy (a TOML file, typically) against ``function(a, b)``, the way the built-in
policies are proven against their frameworks.

``function`` is called with two operand spellings as ``promote pair`` reads them in canonical
notation (``"int8"``, ``"S(int8)"`` for a 0-d array, ``"int"``, ``"float"``, ``"complex"``,
``"P(bool)"`` for Python scalars) and returns a dtype: a canonical name or anything whose
``str()`` is one (``numpy.dtype``, ``torch.bfloat16``, ``ml_dtypes.bfloat16``). Any exception
it raises is its refusal. A function takes no options: each option stays at its default unless
``-O`` pins it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from promote_cli import frameworks
from promote_cli.engine import Policy
from promote_cli.errors import BadInputError, UsageError
from promote_cli.notations import read_dtype
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify.protocol import (
    Asks,
    Cell,
    Question,
    Refusal,
    Result,
    first_line,
    in_process,
)

_SCALARS = {"bool": "P(bool)", "int*": "int", "float*": "float", "complex*": "complex"}


def spell(op: Operand) -> str:
    """The spelling ``function`` receives for an operand."""
    if op.category == PYTHON:
        return _SCALARS.get(op.dtype, op.dtype)
    return f"S({op.dtype})" if op.category == ZERO_D else op.dtype


class FunctionOracle:
    """The ``Oracle`` protocol (``promote_cli.verify.protocol``) around ``module:function``:
    pairs only."""

    RUNS = in_process("the user's own function")
    ASKS = Asks()

    def __init__(self, spec: str, policy: Policy) -> None:
        module, sep, function = spec.partition(":")
        if not sep or not module or not function:
            raise UsageError(f"--oracle takes MODULE:FUNCTION, not {spec!r}")
        self.spec, self.module, self.function = spec, module, function
        self.FRAMEWORK = spec

    def load(self) -> Callable[..., Any]:
        try:
            module = importlib.import_module(self.module)
        except ImportError as exc:  # the user's own module: not a framework to skip
            raise UsageError(f"--oracle {self.spec}: cannot import {self.module} ({exc})") from None
        try:
            function = getattr(module, self.function)
        except AttributeError:
            raise UsageError(
                f"--oracle {self.spec}: {self.module} has no {self.function}"
            ) from None
        if not callable(function):
            raise UsageError(f"--oracle {self.spec}: {self.function} is not a function")
        return function

    def version(self, handle: Any) -> str:
        module = importlib.import_module(self.module)
        return str(getattr(module, "__version__", "")) or "(no __version__)"

    def answer(
        self, handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]
    ) -> list[Cell]:
        canonical = frameworks.notation("canonical")
        out: list[Cell] = []
        for q in questions:
            a, b = q.operands
            try:
                result = handle(spell(a), spell(b))
            except Exception as exc:  # the user's function refuses by raising anything
                out.append(Refusal(first_line(exc)))
                continue
            text = str(result).removeprefix("dtype(").strip("')\"")
            try:
                out.append(Result(read_dtype(text, canonical)))
            except UsageError:
                raise BadInputError(
                    f"--oracle {self.spec} returned {result!r} for {spell(a)} x {spell(b)},"
                    " which is not a dtype promote knows"
                ) from None
        return out
