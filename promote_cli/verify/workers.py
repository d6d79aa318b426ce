"""An oracle that runs in a worker process of its own (its ``RUNS`` says so, and why).

The worker is ``promote_cli.worker``'s: a child process reading one JSON request a line on its
stdin and answering each with one typed record; a request that takes longer than the oracle's
``RUNS.timeout`` is answered ``timed-out`` (the child is killed), and a child that ends answers
``exited`` with its exit code. The child imports this module and promote's side calls three of
its functions:

- ``load(module, log)``: point the child's stdout and stderr at the file ``log`` (a framework's
  banners and C++ logging stay out of promote's output; its last lines explain a failure), import
  the oracle module, ``load()`` the framework (an ``ImportError`` there means it is not
  installed) and return its ``version``;
- ``ask(opts, questions)``: the oracle's ``answer`` to the questions (``protocol.encode_question``)
  under one option setting, the records (``protocol.encode``) in pages that fit one answer;
- ``more()``: the next page.

``WorkerOracle`` is promote's side: it follows the ``Oracle`` protocol like an in-process oracle
module, with a worker per value of the options the oracle names in ``RUNS.per`` (Keras fixes its
backend at import: one process per backend), each started when first asked.

``promote verify P --python PATH`` (and ``promote measure``) runs any oracle this way, an
in-process one (NumPy's) too, under the interpreter ``PATH``: the child keeps that
interpreter's own ``sys.path`` (the framework of *that* environment) with promote's root put in
front, so nothing of promote needs installing there; ``interpreter`` checks ``PATH`` first.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from importlib.util import find_spec
from types import ModuleType
from typing import Any, NoReturn

from promote_cli.errors import BadInputError
from promote_cli.verify.protocol import (
    Asks,
    Cell,
    Question,
    Runs,
    decode,
    decode_question,
    encode,
    encode_question,
)

_HERE = __name__

# --- the child's side -------------------------------------------------------------------------

_child: dict[str, Any] = {}


def load(module: str, log: str) -> str:
    """Load the oracle ``module``'s framework in this process; its version."""
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    oracle = importlib.import_module(module)
    handle = oracle.load()
    _child.update(oracle=oracle, handle=handle, pending=[])
    return str(oracle.version(handle))


def ask(opts: dict[str, Any], questions: list[Any]) -> list[Any]:
    """The records of ``questions`` under ``opts``: the first page (``more`` gives the rest)."""
    from promote_cli.verify.expressions import answered_by

    oracle = _child["oracle"]
    cells = answered_by(oracle, _child["handle"], opts, [decode_question(q) for q in questions])
    if len(cells) != len(questions):
        raise RuntimeError(f"{oracle.__name__} answered {len(cells)} of {len(questions)} questions")
    _child["pending"] = [encode(c) for c in cells]
    _child["sent"] = 0
    return more()


def more() -> list[Any]:
    """The next page of records: as many as one answer of the worker holds."""
    from promote_cli.worker import MAX_TEXT

    pending, sent = _child["pending"], _child["sent"]
    page: list[Any] = []
    size = 2
    while sent < len(pending):
        size += len(json.dumps(pending[sent])) + 2  # as the worker spells a list: ", "
        if page and size > MAX_TEXT - 100:
            break
        page.append(pending[sent])
        sent += 1
    _child["sent"] = sent
    return page


# --- promote's side ---------------------------------------------------------------------------


class WorkerFailed(RuntimeError):
    """A worker oracle did not answer: it raised or ended. A bug in the oracle, not a refusal:
    the run stops, naming the worker, how it ended and what it last logged."""


class FrameworkFailed(WorkerFailed):
    """A worker killed by a signal (a segmentation fault in the framework's own code: Python
    code cannot cause one), that gave no answer in time (a kernel that never returns), or
    that ended or broke its channel where only the framework's code runs (promote's own
    interpreter: an ``os._exit`` at import, C code writing over the answers): the framework
    failed, not promote. ``verify`` and ``measure`` report it for that framework, with what
    the worker last logged, and fail the run (exit 1)."""


class UnusableInterpreter(BadInputError):
    """``--python PATH`` passed the interpreter probe, then did not work as promote's worker:
    it ended, answered what is not a record of the protocol, or answered the wrong number of
    cells. The user's interpreter, not promote's (exit 2)."""


# The longest account of a failure a line gives (a record's error, its last logged lines).
SAID = 200


# The oldest Python promote's code runs on (pyproject's requires-python): a child runs it too.
OLDEST_PYTHON = (3, 10)
_PROBE = "import sys; print('promote-probe', *sys.version_info[:3])"


def interpreter(path: str) -> str:
    """``--python PATH`` checked: an executable file that is a Python promote's code runs on
    (``OLDEST_PYTHON``); its absolute path, or ``UsageError`` saying what is wrong, in one
    line. The file is run once, for its version."""
    from promote_cli.errors import UsageError

    given = os.path.abspath(os.path.expanduser(path))
    if not os.path.exists(given):
        raise UsageError(f"--python {path}: no such file")
    if os.path.isdir(given):
        raise UsageError(f"--python {path}: a directory, not a Python interpreter")
    if not os.access(given, os.X_OK):
        raise UsageError(f"--python {path}: not executable")
    try:
        probe = subprocess.run(
            [given, "-c", _PROBE],
            capture_output=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        said = probe.stdout.decode("ascii", "replace").split()
    except (OSError, subprocess.TimeoutExpired):
        said = []
    if len(said) != 4 or said[0] != "promote-probe" or not all(x.isdigit() for x in said[1:]):
        raise UsageError(f"--python {path}: not a Python interpreter (it did not run Python code)")
    found = tuple(int(x) for x in said[1:])
    if found[:2] < OLDEST_PYTHON:
        need = ".".join(map(str, OLDEST_PYTHON))
        raise UsageError(
            f"--python {path}: Python {'.'.join(said[1:])}; promote's oracle code needs"
            f" Python >= {need}"
        )
    return given


def package_version(package: str, python: str | None = None) -> str:
    """The installed version of the distribution ``package`` in this environment, or in that of
    ``python`` (an interpreter ``interpreter`` checked; asked once, its answer bounded and
    checked); "" when it is not installed or the interpreter does not say."""
    from importlib import metadata

    if python is None:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return ""
    ask = (
        "import importlib.metadata as m\n"
        f"try: print(m.version({package!r}))\n"
        "except m.PackageNotFoundError: print()"
    )
    try:
        said = subprocess.run(
            [python, "-c", ask],
            capture_output=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            check=False,
        ).stdout[:100]
    except (OSError, subprocess.TimeoutExpired):
        return ""
    words = said.decode("ascii", "replace").split()
    version = words[0] if len(words) == 1 else ""
    return version if all(c.isalnum() or c in ".+-_" for c in version) else ""


class WorkerOracle:
    """The ``Oracle`` protocol around an oracle module that runs in worker processes; under
    ``python`` (an interpreter ``interpreter`` checked), another environment's."""

    def __init__(
        self, module: ModuleType, python: str | None = None, timeout: float | None = None
    ) -> None:
        self.module = module.__name__
        self.RUNS: Runs = module.RUNS
        if timeout is not None:  # --timeout: each request's limit, the oracle's own replaced
            self.RUNS = self.RUNS._replace(timeout=timeout)
        self.ASKS: Asks = module.ASKS
        self.python = python

    def load(self) -> Workers:
        """What the framework needs, looked up (not imported); no process starts yet. Under
        another interpreter nothing is looked up here: its worker's import says."""
        missing = [name for name in self.RUNS.requires if find_spec(name) is None]
        if missing and self.python is None:
            raise ImportError(f"not installed: {', '.join(missing)}")
        return Workers(self.module, self.RUNS, self.python)

    def version(self, handle: Workers) -> str:
        return handle.version()

    def answer(
        self, handle: Workers, opts: Mapping[str, Any], questions: Sequence[Question]
    ) -> list[Cell]:
        return handle.worker(opts).ask(opts, questions)


class Workers:
    """The workers of one oracle, one per value of its ``per`` options; close them when done."""

    def __init__(self, module: str, runs: Runs, python: str | None = None) -> None:
        self.module, self.runs, self.python = module, runs, python
        self.started: dict[tuple[Any, ...], Child] = {}

    def worker(self, opts: Mapping[str, Any]) -> Child:
        key = tuple(opts[name] for name in self.runs.per)
        if key not in self.started:
            self.started[key] = Child(self.module, self.runs, opts, self.python)
        return self.started[key]

    def version(self) -> str:
        if not self.started:
            raise WorkerFailed(f"{self.module}: no worker was asked anything")
        return next(iter(self.started.values())).version

    def close(self) -> None:
        for child in self.started.values():
            child.close()
        self.started.clear()


class Child:
    """One worker process that has loaded the framework."""

    def __init__(
        self, module: str, runs: Runs, opts: Mapping[str, Any], python: str | None = None
    ) -> None:
        from promote_cli.worker import Worker

        env = {name: value.format(**opts) for name, value in runs.env}
        self.name = module + "".join(f" {name}={opts[name]}" for name in runs.per)
        self.python = python
        if python is not None:
            self.name += f" under {python}"
        fd, self.log = tempfile.mkstemp(prefix="promote-worker-", suffix=".log")
        os.close(fd)
        self.worker = Worker(_HERE, timeout=runs.timeout, env=env, python=python)
        try:
            self._checked(self.worker.ready, "starting")
            opened = self.worker.call("load", module, self.log)
            if opened.kind == "raised" and opened.error.startswith(_IMPORT_ERRORS):
                raise ImportError(opened.error.partition(": ")[2])
            self.version = str(self._checked(opened, "loading the framework").value)
        except BaseException:
            self.close()
            raise

    def ask(self, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
        """The cells of ``questions``, each record's schema checked (``protocol.decode``):
        as many as asked, each a cell record, or the worker's failure."""
        asked = [encode_question(q) for q in questions]
        records = self._page(self.worker.call("ask", dict(opts), asked))
        while len(records) < len(questions):
            page = self._page(self.worker.call("more"))
            if not page:
                self._broke(f"{len(records)} of {len(questions)} answered")
            records += page
        if len(records) != len(questions):
            self._broke(f"{len(records)} answers to {len(questions)} questions")
        try:
            return [decode(r) for r in records]
        except (TypeError, ValueError, RecursionError):
            return self._broke("an answer that is not a cell record")

    def _page(self, reply: Any) -> list[Any]:
        """A page of records: a list, or the worker's failure."""
        page = self._checked(reply, "answering").value
        if not isinstance(page, list):
            self._broke("a page of answers that is not a list")
        return page

    def _broke(self, how: str) -> NoReturn:
        """The worker answered, but not as the protocol says."""
        from promote_cli.worker import FAILED, Reply

        self._checked(Reply(FAILED, error=how), "answering")
        raise AssertionError("unreachable")  # _checked raises for every failed reply

    def close(self) -> None:
        with contextlib.suppress(AttributeError):
            self.worker.close()
        with contextlib.suppress(OSError):
            os.unlink(self.log)

    def _checked(self, reply: Any, doing: str) -> Any:
        """``reply`` when the worker answered, else ``WorkerFailed`` saying how it failed."""
        if reply.ok:
            return reply
        if reply.kind == "timed-out":
            how = f"no answer within {self.worker.timeout:g} s (--timeout SECONDS allows more)"
            raise FrameworkFailed(f"{self.name}, {doing}: {how}{self._last_lines()}")
        if reply.kind == "exited" and reply.exit_code is not None and reply.exit_code < 0:
            how = f"killed by {_signal_name(-reply.exit_code)}"
            raise FrameworkFailed(f"{self.name}, {doing}: {how}{self._last_lines()}")
        if reply.kind == "exited":
            how = f"it ended with exit code {reply.exit_code}"
        else:
            how = _bounded(reply.error or "an answer that is not a record")
        if self.python is not None:  # the user's interpreter: whatever it did, it is unusable
            raise UnusableInterpreter(
                f"--python {self.python}: not a usable interpreter: its worker, {doing}:"
                f" {how}{self._last_lines()}"
            )
        if reply.kind in ("exited", "failed"):
            # promote's own interpreter, where only the framework's code can end the worker
            # or break its channel
            raise FrameworkFailed(f"{self.name}, {doing}: {how}{self._last_lines()}")
        raise WorkerFailed(f"{self.name}, {doing}: {how}{self._last_lines()}")

    def _last_lines(self, count: int = 5) -> str:
        try:
            with open(self.log, "rb") as log:  # its end only: a log can be of gigabytes
                log.seek(max(0, os.fstat(log.fileno()).st_size - 8192))
                tail = log.read(8192).decode("utf-8", "replace")
        except OSError:
            return ""
        lines = [line.rstrip() for line in tail.splitlines() if line.strip()]
        return "; it last logged: " + _bounded(" | ".join(lines[-count:])) if lines else ""


_IMPORT_ERRORS = ("ImportError:", "ModuleNotFoundError:")


def _bounded(text: str) -> str:
    """``text`` on one line of at most ``SAID`` characters (a worker's account is untrusted:
    10,000 characters, or a log of megabytes on one line)."""
    line = " ".join(text.split())
    return line if len(line) <= SAID else line[: SAID - 1] + "…"


def _signal_name(number: int) -> str:
    """``SIGSEGV`` for 11; the number for a signal this system does not name."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
