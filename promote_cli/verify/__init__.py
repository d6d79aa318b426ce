"""Asking the installed frameworks themselves: ``promote verify`` (ask, then compare with the
policy) and ``promote measure`` (ask, then write the answers down as package data).

- ``protocol``: the questions, the typed records a framework answers, and the ``Oracle``
  protocol each ``promote_cli/frameworks/<name>/oracle.py`` follows;
- ``cases``: the one enumeration of what is asked (option settings, pairs, triples drawn with
  ``SEED``, valued Python scalars, every case of every operation, NumPy's spellings);
- ``compare``: the policy's answer to a question, and whether a record agrees with it;
- ``workers``: an oracle that runs in a worker process of its own (``promote_cli.worker``'s
  protocol: JSON lines on the child's stdin, typed records back, a timeout and its exit code);
- ``driver``: ``promote verify``, and ``oracle(name)``, the oracle of a policy;
  ``function``: the user's ``--oracle`` function; ``measured``: ``promote measure`` and the
  offline comparison with its files.

This module holds what oracle modules share: turning the framework's exceptions into records
(``answered``), Python scalars as values, and importing OpenVINO without its telemetry (its
oracle's, and Keras's on the openvino backend). It imports nothing of the frameworks (they
import it).
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.operands import PYTHON_VALUES, Operand
from promote_cli.verify.protocol import (
    Cell,
    Gap,
    NotObservable,
    Oracle,
    Question,
    Refusal,
    Refused,
    Result,
    Unobservable,
    first_line,
    said,
)

# The vocabulary's binary operations as Python's operators: what a framework's oracle calls
# when its function takes no Python scalar where the operator does (``1 + t``).
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
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

# Python's operators, by the vocabulary's names for them (``promote_cli.vocabulary``): what an
# oracle applies to the framework's arrays for an operator's cell (``operated``).
SYNTAX: dict[str, Callable[..., Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "@": operator.matmul,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "-x": operator.neg,
    "+x": operator.pos,
    "~x": operator.invert,
    "+=": operator.iadd,
    "-=": operator.isub,
    "*=": operator.imul,
    "/=": operator.itruediv,
    "//=": operator.ifloordiv,
    "%=": operator.imod,
    "**=": operator.ipow,
    "&=": operator.iand,
    "|=": operator.ior,
    "^=": operator.ixor,
    "<<=": operator.ilshift,
    ">>=": operator.irshift,
}

_AUGMENTED = {name for name in SYNTAX if name.endswith("=")} - {"==", "!=", "<=", ">="}


@contextmanager
def openvino_telemetry_declined() -> Iterator[None]:
    """Around ``import openvino``: OpenVINO decides at import whether to send telemetry
    (``openvino_telemetry``: a GA4 event from a forked process, unless a consent file in
    ``~/intel`` declines) and skips it when ``CI=true``. Verifying sends nothing anywhere, so
    the variable is set for the import only, and put back; the decision is not made again."""
    before = os.environ.get("CI")
    os.environ["CI"] = "true"
    try:
        yield
    finally:
        if before is None:
            del os.environ["CI"]
        else:
            os.environ["CI"] = before


def is_operator(operation: str) -> bool:
    """Whether the operation asked is Python's operator (``+``, ``-x``, ``+=``), not a
    function of the framework."""
    return operation in SYNTAX


def operated(operation: str, args: Sequence[Any], dtype_of: Callable[[Any], str]) -> Cell:
    """Python's operator ``operation`` applied to ``args`` (the framework's arrays and Python
    scalars, in order), as user code writes it; the record is ``dtype_of`` its result. For
    ``a op= b`` that is the left name's afterwards, and whether it was bound to a new object
    (``Result.rebound``) rather than the array updated in place."""
    out = SYNTAX[operation](*args)
    rebound = operation in _AUGMENTED and out is not args[0]
    return Result(dtype_of(out), rebound=rebound)


# How a framework tells a missing kernel from a refusal: given the exception's text (``Type:
# message``, every line) and the question, the gap, or None for a refusal.
Detect = Callable[[str, Question], "Gap | None"]


def no_gap(text: str, question: Question) -> Gap | None:
    """A framework that generates its kernels (or is asked no operations) has no gaps."""
    return None


def answered(
    questions: Iterable[Question],
    ask: Callable[[Question], str | Cell],
    refusals: tuple[type[BaseException], ...],
    gap: Detect = no_gap,
) -> list[Cell]:
    """The records for ``questions``, each ``ask(question)``: a dtype name (or a record), a
    ``Refused``/``NotObservable`` the oracle raises itself, or one of the framework's own
    exceptions ``refusals``: a gap where ``gap`` says so, else a refusal. Anything else
    raised is a bug in the oracle and propagates."""
    out: list[Cell] = []
    for q in questions:
        try:
            found = ask(q)
        except Refused as exc:  # the oracle's own words (or the exception it wraps)
            out.append(Refusal(first_line(exc.args[0] if exc.args else "refused")))
        except NotObservable as exc:
            out.append(Unobservable(first_line(str(exc))))
        except refusals as exc:
            out.append(gap(said(exc), q) or Refusal(first_line(exc)))
        else:
            out.append(Result(found) if isinstance(found, str) else found)
    return out


def python_value(op: Operand) -> Any:
    """The Python scalar an oracle passes for a Python-scalar operand: its value, or one
    that fits (``True``, ``1``, ``1.0``, ``1j``)."""
    return PYTHON_VALUES[op.dtype] if op.value is None else op.value


def python_result(value: Any) -> str:
    """What a Python-only chain gave, as the catalogue names it (``int*`` ...)."""
    return {bool: "bool", int: "int*", float: "float*", complex: "complex*"}[type(value)]


def chained(ops: Sequence[Operand], scalar: Callable[[Operand], Any], add: Callable) -> Any:
    """``((a + b) + c) ...``: every step is ``add(left, right)`` on the framework's objects.
    Python adds two Python scalars only when ``add`` is the ``+`` operator itself; an oracle
    whose ``add`` is the framework's function (``mx.add``, ``keras.ops.add``) adds them in
    Python before calling it, as user code does."""
    acc = scalar(ops[0])
    for op in ops[1:]:
        acc = add(acc, scalar(op))
    return acc


def weak_name(kind: str) -> str:
    """The catalogue's weak type for a result kind (``int``/``uint`` -> ``int*``)."""
    return {"int": "int*", "uint": "int*", "float": "float*", "complex": "complex*"}[kind]


def extra_install(extra: str) -> str:
    """The ``pip install`` command that adds promote's ``extra`` to this promote: from the
    checkout it runs from (editable when it was installed so), from the Git URL or directory
    pip installed it from, or, when neither is known, from a clone the user names."""
    import json
    import shlex
    from importlib import metadata
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    checkout = (root / "pyproject.toml").is_file() and 'name = "promote-cli"' in (
        root / "pyproject.toml"
    ).read_text(encoding="utf-8", errors="replace")
    try:
        found = metadata.distribution("promote-cli").read_text("direct_url.json")
        origin = json.loads(found or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        origin = {}
    url = origin.get("url", "")
    editable = bool(origin.get("dir_info", {}).get("editable"))
    if checkout:
        installed_here = url.startswith("file://") and Path(url[7:]).resolve() == root
        flag = "-e " if editable or not installed_here else ""
        return f"pip install {flag}{shlex.quote(f'{root}[{extra}]')}"
    if "vcs_info" in origin:
        vcs = origin["vcs_info"]
        pinned = f"{vcs.get('vcs', 'git')}+{url}" + (
            f"@{vcs['commit_id']}" if vcs.get("commit_id") else ""
        )
        return f"pip install {shlex.quote(f'promote-cli[{extra}] @ {pinned}')}"
    if url.startswith("file://"):
        flag = "-e " if editable else ""
        return f"pip install {flag}{shlex.quote(f'{url[7:]}[{extra}]')}"
    return f"pip install '/path/to/promote[{extra}]' (a clone of promote)"


__all__ = [
    "PYTHON_VALUES",
    "Cell",
    "Detect",
    "Gap",
    "NotObservable",
    "Oracle",
    "Question",
    "Refusal",
    "Refused",
    "Result",
    "Unobservable",
    "answered",
    "chained",
    "extra_install",
    "is_operator",
    "no_gap",
    "operated",
    "python_result",
    "python_value",
    "weak_name",
]
