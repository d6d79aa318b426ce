"""The ``promote`` console script (and ``python -m promote_cli``): Ctrl-C and SIGTERM handled
from promote's first instruction, before anything else is imported.

The handlers (``promote_cli.interrupts``) record the signal and raise ``KeyboardInterrupt``.
A signal that arrives while Python imports NumPy, jinja2 or a framework can surface as anything
(NumPy turns it into an ``ImportError``), so ``promote_cli.cli`` reports *any* error that
follows a signal as the interruption; writers clean up on the way out (``promote_cli.atomic``)
and a commit in progress is finished first. SIGTERM is treated as Ctrl-C: ``kill PID`` cleans
up.

What cannot be covered: the ~20 ms in which the interpreter starts and imports its ``site``,
and the import of ``promote_cli/__init__.py`` (which imports nothing), before this module's
first line (a SIGINT there is Python's own ``KeyboardInterrupt``, a SIGTERM kills).

This module is the console script's: importing it installs the handlers. Importing
``promote_cli.cli`` from a program (a test, a Sphinx extension) installs none.
"""

# First of all, before even promote's own modules are imported: a handler that only records a
# signal, for promote_cli.interrupts to take over from (``_signal``: ``signal`` imports enum).
import _signal  # type: ignore[import-not-found]  # CPython's own, without stubs

_early: list[int] = []


def _record(signum: int, frame: object) -> None:
    _early.append(signum)


# A signal the process was started ignoring stays ignored (a shell starts a background job with
# SIGINT ignored, so that Ctrl-C at the terminal is not for it), as Python itself leaves it.
_HANDLED = tuple(
    s for s in (_signal.SIGINT, _signal.SIGTERM) if _signal.getsignal(s) != _signal.SIG_IGN
)
for _signum in _HANDLED:
    _signal.signal(_signum, _record)

import os  # noqa: E402
import sys  # noqa: E402

from promote_cli import interrupts  # noqa: E402

# The commands that only print an answer: they write no file and leave nothing to clean up, so
# once their output is flushed the process ends at once (``os._exit``), without tearing the
# interpreter down, which is a fifth of what ``promote pair`` costs (docs/guide/design.md).
ANSWER_ONLY = ("pair", "op")


def main() -> None:
    """Install the handlers, then import and run the CLI (its ``main`` exits the process)."""
    try:
        interrupts.install(_early, _HANDLED)
        _hold_standard_descriptors()
        # promote multiplies no matrices: OpenBLAS (under NumPy) needs no thread of its own,
        # and each thread's buffer it allocates as NumPy is imported is memory that a
        # process under a limit (ulimit -v) may not have; OpenBLAS then ends the process
        # itself, with exit code 1 (docs/guide/exit-codes.md)
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        from promote_cli.cli import main as run

        run()
    except BaseException as exc:  # SystemExit, or an error the CLI did not get to map
        interrupts.settle()
        if not interrupts.arrived():
            if isinstance(exc, SystemExit) and isinstance(exc.code, int) and _answer_only():
                # The CLI has flushed what it wrote and reported what it could not write
                # (promote_cli.cli: a closed or full standard output is exit 2, a standard
                # error that takes nothing leaves the answer's code): what is left here is a
                # stream with nothing to say, or one that takes nothing (None when closed).
                _flushed(sys.stdout, sys.stderr)
                os._exit(exc.code)
            raise
        code = exc.code if isinstance(exc, SystemExit) else None
        if interrupts.unreported() or not isinstance(code, int):
            # The CLI never reported it (its own import was interrupted): nothing was written.
            interrupts.interruption()
            code = 130
            _said(sys.stderr, "promote: interrupted\n")
        # The exit code is decided and every clean-up has run. Exit now: an interrupted import
        # can leave CPython's "unhandled KeyboardInterrupt" flag set, and the interpreter would
        # then end by killing itself with SIGINT whatever the code.
        _flushed(sys.stdout, sys.stderr)  # a closed pipe: nothing more can be said
        os._exit(code)


def _said(stream: object, text: str) -> None:
    """Write ``text`` to ``stream`` if it takes it (None when closed, or full)."""
    import contextlib

    with contextlib.suppress(Exception):
        stream.write(text)  # type: ignore[attr-defined]


def _flushed(*streams: object) -> None:
    """Flush each stream that is there, whatever that raises (a closed or full one)."""
    import contextlib

    for stream in streams:
        with contextlib.suppress(Exception):  # None (closed), or a write that fails
            stream.flush()  # type: ignore[attr-defined]


def _hold_standard_descriptors() -> None:
    """Standard input, output and error closed by the caller (``promote ... >&- 2>&-``) are
    held open on ``/dev/null`` for reading, so that no file promote opens gets descriptor 0,
    1 or 2: a framework's C code printing to fd 1 or 2 would otherwise write into it (a
    user's output, a temporary file). Python saw them closed as it started (``sys.stdout``
    is None, and promote says that standard output is closed); a write to them fails."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            held = os.open(os.devnull, os.O_RDONLY)
            if held != fd:  # a lower one was free too: it is taken in its own turn
                os.dup2(held, fd)
                os.close(held)


def _answer_only() -> bool:
    """Whether this run is one of ``ANSWER_ONLY`` (its command is the first argument: the
    group's own options, ``--version`` and ``--help``, print and exit on their own)."""
    return len(sys.argv) > 1 and sys.argv[1] in ANSWER_ONLY
