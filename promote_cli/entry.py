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

import signal

_arrived = 0  # the last signal that arrived, 0 when none


def _on_signal(signum: int, frame: object) -> None:
    global _arrived
    _arrived = signum
    raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether SIGINT or SIGTERM arrived since :func:`main` started."""
    return _arrived != 0


def main() -> None:
    """Install the handlers, then import and run the CLI (its ``main`` exits the process)."""
    try:
        signal.signal(signal.SIGINT, _on_signal)
        signal.signal(signal.SIGTERM, _on_signal)
        from promote_cli.cli import main as run

        run()
    except SystemExit:
        raise
    except BaseException:  # only during the import: the CLI maps its own errors
        if not interrupted():
            raise
        import os

        os.write(2, b"promote: interrupted\n")
        raise SystemExit(130) from None
