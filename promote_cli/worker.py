"""A module's functions, called in a Python process of their own: whatever they do there
(print, ``sys.exit``, crash, hang, change the interpreter) reaches the caller only as a typed
answer. ``promote verify --oracle`` asks the user's function this way; any oracle that needs a
process to itself can.

The child knows nothing of promote's questions: it imports one module and calls its functions
with JSON arguments. The protocol is JSON lines. The parent writes one request a line on the
child's stdin::

    {"import": "MODULE", "path": [...]}   first: sys.path becomes the parent's (``null``: the
                                           child keeps its own), then the import
    {"call": "NAME", "args": [...]}        MODULE.NAME(*args)
    {"get": "NAME"}                        MODULE.NAME itself

and the child answers each with one record a line (its *own* channel: a duplicate of the stdout
it was given; what the module prints goes to stderr, and ``input()`` reads nothing)::

    {"kind": "returned", "value": V, "text": "...", "callable": false}
        V as JSON (null when it is not JSON), ``text`` its ``str()``
    {"kind": "raised", "error": "ValueError: ..."}   the function raised an Exception
    {"kind": "failed", "error": "..."}               the request could not be answered: the
        import raised, no such name, not callable, a result whose ``str()`` raises, a
        ``BaseException`` other than ``SystemExit``

When the child gives no record, the parent makes one: ``exited`` (the process ended: a
``sys.exit``, an ``os._exit``, a crash; ``exit_code`` is negative for a signal, -11 for
SIGSEGV) or ``timed-out`` (no answer within ``timeout`` seconds; the child is killed). Every
answer is a :class:`Reply`; after ``exited`` or ``timed-out`` the worker is done and answers
every later request with that same reply.

The child runs in a session of its own (a Ctrl-C at the terminal reaches promote, which ends
the child) and ends itself when its parent is gone. Only the standard library, and nothing of
promote's but this module, in the child.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from promote_cli.record import Record

RETURNED, RAISED, FAILED, EXITED, TIMED_OUT = "returned", "raised", "failed", "exited", "timed-out"
_KINDS = (RETURNED, RAISED, FAILED)  # the records a child writes

# The longest record read from a child, and the longest str() of a result it sends: an answer
# is a type name or a small JSON value, never megabytes.
MAX_RECORD = 1 << 20
MAX_TEXT = 10_000

# The child: promote_cli from where the parent has it, whatever the child's own sys.path says.
_BOOT = "import sys; sys.path.insert(0, {root!r}); from promote_cli.worker import serve; serve()"


class Reply(Record):
    """One answer. ``value``/``text``/``callable``: what a function returned (or a name is),
    as JSON (None when it is not JSON) and as ``str()``; ``error``: what was raised or went
    wrong, ``"Type: message"``; ``exit_code``: how the process ended (``exited``,
    ``timed-out``)."""

    kind: str
    value: Any = None
    text: str = ""
    callable: bool = False
    error: str = ""
    exit_code: int | None = None

    @property
    def ok(self) -> bool:
        return self.kind == RETURNED


class Worker:
    """A child process that imported ``module`` (``.ready`` says how that went) and answers
    :meth:`call` and :meth:`get`, each within ``timeout`` seconds (the import too). ``env`` is
    added to the child's environment; ``path`` is its ``sys.path`` (default: the parent's, so
    the child imports what the parent would). ``python`` is the interpreter the child runs
    (default: the parent's); another one keeps its own ``sys.path`` (its own packages, as in
    the environment it belongs to) with promote's root in front, and ``path`` must be None.
    A context manager: the child ends with it."""

    def __init__(
        self,
        module: str,
        *,
        timeout: float,
        env: Mapping[str, str] | None = None,
        path: Sequence[str] | None = None,
        python: str | None = None,
    ) -> None:
        self.module, self.timeout = module, timeout
        self._done: Reply | None = None
        self._records: queue.Queue[dict[str, Any] | None] = queue.Queue()
        root = str(Path(__file__).resolve().parent.parent)
        self._proc = subprocess.Popen(
            [python or sys.executable, "-c", _BOOT.format(root=root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        try:
            # Another interpreter keeps its own sys.path (promote's root first): None.
            own = None if python is not None else list(sys.path if path is None else path)
            self.ready = self._ask({"import": module, "path": own})
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(self, name: str, *args: Any) -> Reply:
        """``module.name(*args)``; ``args`` must be JSON."""
        return self._ask({"call": name, "args": list(args)})

    def get(self, name: str) -> Reply:
        """``module.name`` itself (``text`` its ``str()``, ``callable`` whether it is one)."""
        return self._ask({"get": name})

    def close(self) -> None:
        """End the child: its stdin closes (it leaves its loop), then it is killed if it has
        not ended within a second."""
        proc = self._proc
        try:
            if proc.stdin is not None and not proc.stdin.closed:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()

    def _read(self) -> None:
        """The reader thread: each line the child writes, parsed, then None at its end."""
        stream = self._proc.stdout
        assert stream is not None
        try:
            while line := stream.readline(MAX_RECORD + 1):
                if not line.endswith(b"\n"):  # longer than any answer: the child is ended
                    self._records.put({"kind": FAILED, "error": "an answer too long to read"})
                    self._proc.kill()
                    break
                try:
                    record = json.loads(line)
                except (ValueError, RecursionError):  # not JSON, or nested past reading
                    record = None
                if not isinstance(record, dict):
                    record = {"kind": FAILED, "error": "an answer that is not a record"}
                self._records.put(record)
        except (OSError, ValueError):  # the pipe closed under us: the worker is being closed
            pass
        self._records.put(None)

    def _ask(self, request: dict[str, Any]) -> Reply:
        if self._done is not None:
            return self._done
        proc = self._proc
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
        except OSError:  # the child is gone: its exit code says how
            pass
        try:
            record = self._records.get(timeout=self.timeout)
        except queue.Empty:
            proc.kill()
            self._done = Reply(TIMED_OUT, exit_code=proc.wait())
            return self._done
        if record is None:  # the child closed its channel: it is ending, or is to be ended
            try:  # a child ending takes moments, a framework's tear-down a few seconds
                self._done = Reply(EXITED, exit_code=proc.wait(timeout=min(self.timeout, 10)))
            except subprocess.TimeoutExpired:  # it closed its answers and went on: ended here
                proc.kill()
                self._done = Reply(
                    FAILED,
                    error="it closed its answers' channel and did not end",
                    exit_code=proc.wait(),
                )
            return self._done
        return _reply(record)


def _reply(record: dict[str, Any]) -> Reply:
    """A child's record as a :class:`Reply`, its schema checked: a known kind, text and error
    as strings (each at most ``MAX_TEXT`` characters); anything else is a ``failed`` reply
    saying so (the child is the user's interpreter, or code of a framework's: untrusted)."""
    kind = record.get("kind")
    if not isinstance(kind, str) or kind not in _KINDS:
        return Reply(FAILED, error="an answer of no known kind")
    text, error = record.get("text", ""), record.get("error", "")
    if not isinstance(text, str) or not isinstance(error, str):
        return Reply(FAILED, error="an answer whose text or error is not a string")
    return Reply(
        kind,
        value=record.get("value"),
        text=text[:MAX_TEXT],
        callable=record.get("callable") is True,
        error=error[:MAX_TEXT],
    )


# --- the child ------------------------------------------------------------------------------


def serve() -> None:
    """The child's side: answer requests from stdin until it closes."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(2, 1)  # the module's prints go to stderr, never into the channel
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # input() reads nothing, and no request
    os.close(devnull)
    _watch_parent()
    module: Any = None
    for line in requests:
        request = json.loads(line)
        record, module = _answer(request, module)
        channel.write(json.dumps(record, ensure_ascii=True) + "\n")
        channel.flush()


def _watch_parent() -> None:
    """End the child when its parent is gone (killed, say), even in the middle of a call."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(70)

    threading.Thread(target=watch, daemon=True).start()


def _answer(request: dict[str, Any], module: Any) -> tuple[dict[str, Any], Any]:
    import importlib

    try:
        if "import" in request:
            if request.get("path") is not None:
                sys.path[:] = request["path"]
            module = importlib.import_module(request["import"])
            return {"kind": RETURNED, "value": None, "text": module.__name__}, module
        name = str(request.get("call", request.get("get")))
        try:
            found = getattr(module, name)
        except AttributeError:
            return _failed(f"{module.__name__} has no {name}"), module
        if "get" in request:
            return _returned(found), module
        if not callable(found):
            return _failed(f"{module.__name__}.{name} is not callable"), module
        try:
            result = found(*request["args"])
        except Exception as exc:  # the function's answer: it raised
            return {"kind": RAISED, "error": _said(exc)}, module
        return _returned(result), module
    except SystemExit:
        raise  # the module ends its process: the parent sees how
    except BaseException as exc:  # an import that raised, a KeyboardInterrupt of its own ...
        return _failed(_said(exc)), module


def _returned(result: Any) -> dict[str, Any]:
    try:
        text = str(result)
    except SystemExit:
        raise
    except BaseException as exc:
        return _failed(f"the answer's str() raised {_said(exc)}")
    if not isinstance(text, str):
        return _failed("the answer's str() is not a string")
    try:
        encoded = json.dumps(result, allow_nan=False)
        value = json.loads(encoded) if len(encoded) <= MAX_TEXT else None
    except (TypeError, ValueError, RecursionError):
        value = None
    return {"kind": RETURNED, "value": value, "text": text[:MAX_TEXT], "callable": callable(result)}


def _failed(error: str) -> dict[str, Any]:
    return {"kind": FAILED, "error": error}


def _said(exc: BaseException) -> str:
    """``Type: message``, even for an exception whose ``str()`` raises."""
    try:
        message = str(exc)
    except Exception:
        message = "(its message cannot be shown)"
    return f"{type(exc).__name__}: {message}"[:MAX_TEXT]
