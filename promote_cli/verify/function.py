"""An oracle made of the user's own function: ``promote verify POLICY --oracle module:function``
proves a policy (a TOML file, typically) against ``function(a, b)``, the way the built-in
policies are proven against their frameworks.

``function`` is called with two operand spellings as ``promote pair`` reads them in canonical
notation (``"int8"``, ``"S(int8)"`` for a 0-d array, ``"int"``, ``"float"``, ``"complex"``,
``"P(bool)"`` for Python scalars) and returns a dtype: a canonical name or anything whose
``str()`` is one (``numpy.dtype``, ``torch.bfloat16``, ``ml_dtypes.bfloat16``). Any exception
it raises is its refusal. A function takes no options: each option stays at its default unless
``-O`` pins it.

The function is the user's code, so it runs in a process of its own (``promote_cli.worker``):
what it prints goes to stderr, never into promote's output (``--json`` stays one object), and
an import that fails, a ``sys.exit``, a crash, an answer that is no dtype or whose ``str()``
raises, or no answer within the timeout, is the oracle's failure: one line naming it and the
cell it was asked, exit 2 (:class:`OracleFailed`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    Runs,
    first_line,
)
from promote_cli.worker import EXITED, RAISED, TIMED_OUT, Reply, Worker

# NumPy prints its long double types by their size on the machine (``str(np.dtype("longdouble"))``
# is ``float128`` on x86-64 Linux, ``float96`` on 32-bit x86); it has no other types of those
# names, so each is the long double (where long double is double, NumPy prints ``float64``, and
# the answer is read as float64).
_NUMPY_LONG_DOUBLE = {
    "float96": "longdouble",
    "float128": "longdouble",
    "complex192": "clongdouble",
    "complex256": "clongdouble",
}

# How long the oracle may take to be imported, and to answer one cell.
TIMEOUT = 60.0

_SCALARS = {"bool": "P(bool)", "int*": "int", "float*": "float", "complex*": "complex"}


def spell(op: Operand) -> str:
    """The spelling ``function`` receives for an operand."""
    if op.category == PYTHON:
        return _SCALARS.get(op.dtype, op.dtype)
    return f"S({op.dtype})" if op.category == ZERO_D else op.dtype


class OracleFailed(BadInputError):
    """The user's oracle could not answer (exit 2): its import raised, it ended its process,
    crashed, hung, or answered something that is no dtype."""


class FunctionOracle:
    """The ``Oracle`` protocol (``promote_cli.verify.protocol``) around ``module:function``:
    pairs only, asked in a worker process; a context manager, which ends that process."""

    ASKS = Asks()

    def __init__(self, spec: str, policy: Policy, *, timeout: float = TIMEOUT) -> None:
        module, sep, function = spec.partition(":")
        if not (sep and _dotted(module) and function.isidentifier()):
            raise UsageError(
                f"--oracle takes MODULE:FUNCTION, a module Python imports by its name"
                f" (`import MODULE`) and a function in it, not {spec!r}"
            )
        self.spec, self.module, self.function = spec, module, function
        self.timeout = timeout
        self.RUNS = Runs(True, "the user's own code, kept apart from promote's", timeout=timeout)
        self.FRAMEWORK = spec
        self._worker: Worker | None = None

    def __enter__(self) -> FunctionOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._worker is not None:
            self._worker.close()

    def load(self) -> Worker:
        if self._worker is None:
            self._worker = Worker(self.module, timeout=self.timeout)
        worker = self._worker
        if not worker.ready.ok:
            raise OracleFailed(
                f"--oracle {self.spec}: cannot import {self.module}: {self._what(worker.ready)}"
            )
        found = worker.get(self.function)
        if not found.ok:
            raise OracleFailed(f"--oracle {self.spec}: {self._what(found)}")
        if not found.callable:
            raise UsageError(f"--oracle {self.spec}: {self.function} is not a function")
        return worker

    def version(self, handle: Worker) -> str:
        found = handle.get("__version__")
        return (found.text if found.ok else "") or "(no __version__)"

    def answer(
        self, handle: Worker, opts: Mapping[str, Any], questions: Sequence[Question]
    ) -> list[Cell]:
        canonical = frameworks.notation("canonical")
        out: list[Cell] = []
        for q in questions:
            a, b = q.operands
            asked = f"{spell(a)} x {spell(b)}"
            reply = handle.call(self.function, spell(a), spell(b))
            if reply.kind == RAISED:  # the user's function refuses by raising anything
                out.append(Refusal(first_line(reply.error)))
                continue
            if not reply.ok:
                raise OracleFailed(f"--oracle {self.spec}, asked {asked}: {self._what(reply)}")
            text = reply.text.removeprefix("dtype(").strip("')\"")
            text = _NUMPY_LONG_DOUBLE.get(text, text)
            try:
                out.append(Result(read_dtype(text, canonical)))
            except UsageError:
                raise OracleFailed(
                    f"--oracle {self.spec} returned {_short(reply.text)!r} for {asked},"
                    " which is not a dtype promote knows"
                ) from None
        return out

    def _what(self, reply: Reply) -> str:
        """What went wrong, in words."""
        if reply.kind == TIMED_OUT:
            return f"no answer within {self.timeout:g} s (--timeout SECONDS allows more)"
        if reply.kind == EXITED:
            code = reply.exit_code or 0
            if code < 0:
                return f"its process was killed by {_signal_name(-code)} (a crash?)"
            return f"it ended its process (exit code {code}) instead of answering"
        return _short(reply.error)


def _dotted(module: str) -> bool:
    return all(part.isidentifier() for part in module.split("."))


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
