"""Run ``promote`` on a real pseudo-terminal of a given size, as a user at a terminal would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def on_a_terminal(
    args: list[str], *, columns: int = 80, rows: int = 24, env: dict[str, str] | None = None
) -> str:
    """What ``promote ARGS`` prints on a ``columns``-wide terminal (stdout only; ``\\r\\n``
    read back as ``\\n``). Fails the test on a non-zero exit."""
    code, out, stderr = run_on_a_terminal(args, columns=columns, rows=rows, env=env)
    assert code == 0, stderr
    return out


def run_on_a_terminal(
    args: list[str],
    *,
    columns: int = 80,
    rows: int = 24,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    stderr_too: bool = False,
) -> tuple[int, str, str]:
    """Run ``promote ARGS`` with stdout (and with ``stderr_too`` stderr as well) on a
    ``columns``-wide pseudo-terminal: (exit code, what the terminal shows, stderr when it was
    not on the terminal). ``COLUMNS`` and ``LINES`` are dropped from the environment unless
    ``env`` sets them, so by default the terminal's own size decides."""
    pty = pytest.importorskip("pty", reason="needs a pseudo-terminal (POSIX)")
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    base = {**os.environ}
    for name in ("COLUMNS", "LINES"):  # the terminal's own size must decide
        base.pop(name, None)
    env = {**base, **(env or {}), "PYTHONPATH": str(REPO)}
    chunks = []
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "promote_cli", *args],
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=follower if stderr_too else subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        os.close(follower)
        follower = -1
        while True:  # read while it runs: a full pty buffer would block the writer
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's writer is gone
                break
            if not chunk:
                break
            chunks.append(chunk)
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        proc.wait(timeout=120)
    finally:
        if follower != -1:
            os.close(follower)
        os.close(leader)
    return proc.returncode, b"".join(chunks).decode("utf-8").replace("\r\n", "\n"), stderr
