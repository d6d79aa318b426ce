"""Ctrl-C and SIGTERM over a whole run: which signal arrived, what the run had written by then,
and the one line that tells the user so.

The console script (``promote_cli.entry``) installs :func:`handler` for SIGINT and SIGTERM before
it imports anything else. The handler records the signal and raises ``KeyboardInterrupt``, but

- not inside :func:`deferred` (a commit: the renames that make outputs final and the removal of
  the backups kept meanwhile). There a signal is only recorded, so that a commit is never cut
  in half; the commit looks at :func:`arrived` before its first rename and gives up cleanly when
  a signal has come;
- not within ``QUIET`` seconds of the interrupt it raised last: that one is still on its way
  out, through the clean-up, and a second Ctrl-C must not cut the clean-up short;
- not once the run's outcome is settled (:func:`settle`): the exit code is decided and every
  later signal is ignored, so what is printed stays what happened.

A ``KeyboardInterrupt`` can be lost on its way (Python reports one raised in a weakref callback
during an import as "ignored" and carries on); the signal stays recorded, a commit refuses to
start after it, and the CLI reports it when the command returns (:func:`unreported`). So a
signal is never swallowed, and what is reported is what is on disk: :func:`interruption` says
"interrupted" when nothing was written, "interrupted after writing ..." once a commit has
made its outputs final (the CLI maps the two to its exit codes).

Only the standard library, and ``_signal`` rather than ``signal``: ``signal`` imports ``enum``
and ``functools`` (30 ms on a cold start), which would come before the handlers.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # CPython's own, without stubs
import sys
import time

from promote_cli.errors import printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

SIGNALS = (_signal.SIGINT, _signal.SIGTERM)
QUIET = 0.5  # seconds after an interrupt is raised during which another is only recorded

_installed = False
_arrived = 0  # the last signal that arrived (0: none)
_count = 0  # how many arrived
_raised_at = float("-inf")
_deferring = 0
_settled = False
_reported = False
_recording = False  # a command runs: commits are recorded
_written: list[Path] = []


def handler(signum: int, frame: object) -> None:
    global _arrived, _count, _raised_at
    if _settled:
        return
    _arrived = signum
    _count += 1
    now = time.monotonic()
    if _deferring or now - _raised_at < QUIET:
        return
    _raised_at = now
    raise KeyboardInterrupt


def install(early: Sequence[int] = (), signals: Sequence[int] = SIGNALS) -> None:
    """Handle ``signals`` (SIGINT and SIGTERM, less any the process was started ignoring) from
    now on; ``early`` holds the signals the console script recorded before this module was
    imported (the last one is raised now)."""
    global _installed
    _installed = True
    for signum in signals:
        _signal.signal(signum, handler)
    sys.unraisablehook = _unraisable
    if early:
        handler(early[-1], None)


def _unraisable(info: object) -> None:
    # A KeyboardInterrupt raised where Python cannot propagate it (a weakref callback, a
    # __del__) would print "Exception ignored in ..." with a traceback; the signal is recorded
    # and reported at the end of the run instead.
    if _arrived and isinstance(getattr(info, "exc_value", None), KeyboardInterrupt):
        return
    sys.__unraisablehook__(info)  # type: ignore[arg-type]


def begin() -> None:
    """A command starts (the CLI's entry): nothing is written or reported yet, and commits are
    recorded (:func:`wrote`) until the outcome is settled."""
    global _reported, _recording
    _reported, _recording = False, True
    _written.clear()


def arrived() -> bool:
    """Whether SIGINT or SIGTERM arrived (and was handled by :func:`handler`) in this run."""
    return _arrived != 0


def unreported() -> bool:
    """Whether a signal arrived that the run has not reported yet (its interrupt was lost)."""
    return _arrived != 0 and not _reported


class deferred:  # lower case: used as ``with deferred():``, like a function
    """A section no signal interrupts: one arriving inside it is only recorded (see
    :func:`arrived`). With ``then_raise``, it is raised as the section ends (creating a file
    and recording it for clean-up is such a section: an interrupt between the two would leave
    the file behind); without, the section acts on it where it can (a commit). (A class:
    ``contextlib`` would be imported before the handlers.)"""

    def __init__(self, then_raise: bool = False) -> None:
        self.then_raise = then_raise

    def __enter__(self) -> None:
        global _deferring
        _deferring += 1
        self.count = _count

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        global _deferring, _raised_at
        _deferring -= 1
        if self.then_raise and _count != self.count and exc is None and not _deferring:
            _raised_at = time.monotonic()
            raise KeyboardInterrupt


def wrote(paths: Sequence[Path]) -> None:
    """Record that ``paths`` now hold their new content (a commit completed), while a command
    runs (a program that calls promote's functions records nothing)."""
    if _recording:
        _written.extend(paths)


def interruption() -> tuple[str, bool]:
    """The line that reports an interruption (without ``promote: ``) and whether the run had
    written its outputs by then; the interruption counts as reported from now on."""
    global _reported
    _reported = True
    if not _written:
        return "interrupted", False
    return f"interrupted after writing {written()}, complete", True


def written() -> str:
    """The files this run's commits wrote, for a line ("a.npy, b.npy"; the first two and how
    many more of a longer list), or "" when none."""
    names = [printable(str(p)) for p in _written]
    if len(names) > 3:
        return f"{', '.join(names[:2])} and {len(names) - 2} more files"
    return ", ".join(names)


def settle() -> None:
    """The outcome is decided: every signal from now on is ignored, so the exit code and the
    line printed stay those of what happened (Python would otherwise restore the default
    actions while it shuts down, and a late SIGTERM would kill a process whose work is done)."""
    global _settled, _recording
    _recording = False
    if _installed:
        _settled = True
        for signum in SIGNALS:
            _signal.signal(signum, _signal.SIG_IGN)
