"""``promote verify``: prove a policy cell for cell against the installed framework.

A policy is only worth publishing if it is what the framework does, and frameworks change their
rules between releases. Each framework has a small *oracle* module here that asks the framework
itself; ``driver`` enumerates every cell a policy can answer and compares.

An oracle module declares:

- ``POLICY``: the policy name it proves; ``FRAMEWORK``: the framework's name;
  ``INSTALL``: the package a user installs for it (``tensorflow-cpu``);
  ``IN_CONFORMANCE_EXTRA``: whether promote's ``conformance`` extra installs it;
  ``OPTIONS``: the policy options it knows how to set on the framework.
- ``load()``: imports the framework (only there, so ``promote`` stays light) and returns a handle;
  it raises ``ImportError`` when the framework is not installed.
- ``version(handle)``: the framework's version string.
- ``answering(handle, opts)``: a context manager that configures the framework for one option
  setting (and restores it afterwards) and yields ``answer(a, b)``. ``answer`` returns the
  canonical name the framework gives for operands ``a`` x ``b`` (weak results as ``float*``) and
  raises ``Refused`` when the framework raises. Only the framework's own refusal exceptions become
  ``Refused``; anything else is a bug in the oracle and propagates.

and, to prove more than pairs (an oracle without them is verified on pairs only):

- ``answering_many(handle, opts)``: like ``answering``, yields a ``Many``: ``result_type(ops)``,
  the framework's own n-ary function, and ``chain(ops)``, ``((a + b) + c)`` with its binary
  operator on real arrays (two Python scalars added by Python). A valued Python scalar
  (``int:300``) is passed as its value. Weak results as in ``answer``; a chain's result is
  weak when the framework's array is weakly typed.
- ``spelling(handle, text)`` (NumPy): the canonical type the framework reads ``text`` as, or
  ``Refused``; and ``SPELLINGS``, the spellings to try.
- ``calling(handle, opts)``: proves the operations of ``promote_cli.ops`` (see ``Call``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, NamedTuple, Protocol

from promote_cli.operands import Operand

Answer = Callable[[Operand, Operand], str]
AnswerMany = Callable[[Sequence[Operand]], str]


class Many(NamedTuple):
    """An oracle's two n-ary answers under one option setting."""

    result_type: AnswerMany
    chain: AnswerMany


# An oracle that proves operations also declares ``calling(handle, opts)``, a context manager
# like ``answering`` that yields ``call(function, operation, operands)``: the canonical dtype
# of the framework's ``function`` (the rule's spelling, ``np.sqrt``) applied to tiny arrays
# (shape (2,), 0-d for ``S(t)``) or Python scalars, or ``Refused``.
Call = Callable[[str, Any, Sequence[Operand]], str]

# The Python scalar an oracle passes for each Python-scalar operand (P(bool), int, float, complex).
PYTHON_VALUES = {"bool": True, "int*": 1, "float*": 1.0, "complex*": 1j}


class Refused(Exception):
    """The framework raised for this cell: its refusal, with the first line of its message.
    ``kernel`` says it raised for want of a CPU kernel (``missing_kernel`` unless the oracle
    knows better), not by a rule; ``dtype`` is the output type the framework's own dtype rule
    gave before it found no kernel, when its message names it (MindSpore's does)."""

    def __init__(
        self, error: BaseException | str, kernel: bool | None = None, dtype: str | None = None
    ):
        text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        super().__init__(lines[0] if lines else text)
        self.kernel = missing_kernel(text) if kernel is None else kernel
        self.dtype = dtype


# How frameworks say that a CPU kernel is missing, as opposed to refusing by a rule: PyTorch's
# "not implemented for 'UInt16'", TensorFlow's "Could not find device for node", XLA's run-time
# failures of the sub-byte and float6 types, Paddle's unregistered kernels.
_NO_KERNEL = (
    "not implemented for '",
    "could not find device for node",
    "jaxruntimeerror",
    "invalid integer data type 'v'",
    "invalid xla primitivetype",
    "cannot lower jaxpr",
    "the kernel with key (",  # Paddle's "(NotFound) The kernel with key (CPU, ..., int8) of kernel"
)


def missing_kernel(text: str) -> bool:
    low = text.lower()
    return any(words in low for words in _NO_KERNEL)


class Oracle(Protocol):
    POLICY: str
    FRAMEWORK: str
    INSTALL: str
    IN_CONFORMANCE_EXTRA: bool
    OPTIONS: tuple[str, ...]

    def load(self) -> Any: ...

    def version(self, handle: Any) -> str: ...

    def answering(self, handle: Any, opts: Mapping[str, Any]) -> AbstractContextManager[Answer]: ...


def install_hint(orc: Oracle) -> str:
    """How to install an oracle's framework: ``pip install tensorflow-cpu``, and the command
    that installs promote's ``conformance`` extra, every framework it holds, from where this
    promote came from (promote is on no package index: ``promote-cli[conformance]`` alone
    would find nothing)."""
    hint = f"pip install {orc.INSTALL}"
    if orc.IN_CONFORMANCE_EXTRA:
        hint += f" (or every framework at once: {extra_install('conformance')})"
    return hint


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


def refusing(*errors: type[BaseException]) -> Callable[[Any], Any]:
    """Wrap an answer (or a call) so that the framework's refusal exceptions ``errors`` become
    ``Refused``."""

    def wrap(answer: Any) -> Any:
        def wrapped(*args: Any) -> str:
            try:
                return answer(*args)
            except errors as exc:
                raise Refused(exc) from exc

        return wrapped

    return wrap


class Unobservable(Exception):
    """The framework cannot show its answer for this question (PyTorch's n-ary ops take no
    Python scalars; a kernel missing for the dtype): not compared, counted as skipped."""


def refusing_many(*errors: type[BaseException]) -> Callable[[AnswerMany], AnswerMany]:
    """``refusing`` for an n-ary answer."""

    def wrap(answer: AnswerMany) -> AnswerMany:
        def wrapped(ops: Sequence[Operand]) -> str:
            try:
                return answer(ops)
            except errors as exc:
                raise Refused(exc) from exc

        return wrapped

    return wrap


def python_value(op: Operand) -> Any:
    """The Python scalar an oracle passes for a Python-scalar operand: its value, or one
    that fits (``True``, ``1``, ``1.0``, ``1j``)."""
    return PYTHON_VALUES[op.dtype] if op.value is None else op.value


def python_result(value: Any) -> str:
    """What a Python-only chain gave, as the catalogue names it (``int*`` ...)."""
    return {bool: "bool", int: "int*", float: "float*", complex: "complex*"}[type(value)]


def chained(ops: Sequence[Operand], scalar: Callable[[Operand], Any], add: Callable) -> Any:
    """``((a + b) + c) ...``: Python scalars added by Python while no array has appeared,
    every other step by ``add(left, right)`` on the framework's objects."""
    acc = scalar(ops[0])
    for op in ops[1:]:
        acc = add(acc, scalar(op))
    return acc


def worker(module: str, *args: str, env: Mapping[str, str] | None = None) -> Any:
    """What ``python -m module args`` prints as JSON: how an oracle asks a framework that must
    have a process to itself (Keras fixes its backend at import; MindSpore's libraries clash
    with Paddle's). A worker that fails is a bug here, not a refusal."""
    import json
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{module} {' '.join(args)} failed: {last}")
    return json.loads(done.stdout)


def cell_key(a: Operand, b: Operand) -> str:
    """A cell's key in a worker's JSON answers: ``D(int8)|P(float*)``."""
    return f"{a.category}({a.dtype})|{b.category}({b.dtype})"


def ask_all(operands: Sequence[Operand], answer: Answer) -> dict[str, list[str | None]]:
    """A worker's side: every ordered pair of ``operands`` asked of ``answer``, as JSON-ready
    ``[result, None]`` or, where the framework refused, ``[None, its message]``."""
    out: dict[str, list[str | None]] = {}
    for a, b in itertools.product(operands, operands):
        try:
            out[cell_key(a, b)] = [answer(a, b), None]
        except Refused as exc:
            out[cell_key(a, b)] = [None, str(exc)]
    return out


def looking_up(cells: Mapping[str, Sequence[str | None]]) -> Answer:
    """The parent's side: an answer read from a worker's cells."""

    def answer(a: Operand, b: Operand) -> str:
        result, error = cells[cell_key(a, b)]
        if result is None:
            raise Refused(error or "refused")
        return result

    return answer


def weak_name(kind: str) -> str:
    """The catalogue's weak type for a result kind (``int``/``uint`` -> ``int*``)."""
    return {"int": "int*", "uint": "int*", "float": "float*", "complex": "complex*"}[kind]
