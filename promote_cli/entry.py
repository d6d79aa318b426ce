"""The ``promote`` console script (and ``python -m promote_cli``): Ctrl-C and SIGTERM handled
from promote's first instruction, before anything heavy is imported.

A signal that arrives while Python imports NumPy, jinja2 or a framework can surface as
anything (NumPy turns it into an ``ImportError``); so the handler records that a signal
arrived, then raises ``KeyboardInterrupt``, and ``promote_cli.cli`` turns *any* error that
follows a signal into the one line ``promote: interrupted`` and exit 130. Writers clean up on
the way out (``promote_cli.atomic``). SIGTERM is treated as Ctrl-C: ``kill PID`` cleans up.

What cannot be covered: the ~20 ms in which the interpreter starts and imports its ``site``
before this module runs (a SIGINT there is Python's own ``KeyboardInterrupt``, a SIGTERM kills).

Only the standard library, and nothing at import time but definitions: importing
``promote_cli.cli`` from a program (a test, a Sphinx extension) installs no handler.
"""

from __future__ import annotations

import os
import signal
import sys

_arrived = 0  # the last signal that arrived, 0 when none


def _on_signal(signum: int, frame: object) -> None:
    global _arrived
    _arrived = signum
    raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether SIGINT or SIGTERM arrived since :func:`main` started."""
    return _arrived != 0


def settle() -> None:
    """The outcome is decided: a signal from now on is ignored, so the exit code and the line
    printed stay those of what happened (Python would otherwise restore the default action
    while it shuts down, and a late SIGTERM would kill the process after its work is done)."""
    if _installed:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


_installed = False


def main() -> None:
    """Install the handlers, then import and run the CLI (its ``main`` exits the process)."""
    global _installed
    try:
        _installed = True
        signal.signal(signal.SIGINT, _on_signal)
        signal.signal(signal.SIGTERM, _on_signal)
        from promote_cli.cli import main as run

        run()
    except BaseException as exc:  # SystemExit, or an error the CLI did not get to map
        settle()
        if not interrupted():
            raise
        code = exc.code if isinstance(exc, SystemExit) else None
        if not isinstance(code, int):
            code = 130
            sys.stderr.write("promote: interrupted\n")
        # The exit code is decided and every clean-up has run. Exit now: an interrupted import
        # can leave CPython's "unhandled KeyboardInterrupt" flag set, and the interpreter would
        # then end by killing itself with SIGINT whatever the code.
        import contextlib

        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed pipe: nothing more can be said
                stream.flush()
        os._exit(code)
