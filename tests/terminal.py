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
    pty = pytest.importorskip("pty", reason="needs a pseudo-terminal (POSIX)")
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {**(env if env is not None else os.environ), "PYTHONPATH": str(REPO)}
    for name in ("COLUMNS", "LINES"):  # the terminal's own size must decide
        env.pop(name, None)
    chunks = []
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "promote_cli", *args],
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=subprocess.PIPE,
            env=env,
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
        proc.wait(timeout=60)
    finally:
        if follower != -1:
            os.close(follower)
        os.close(leader)
    assert proc.returncode == 0, stderr
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
