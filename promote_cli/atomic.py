"""Replacing a file atomically: every file promote writes (``table -o``, ``tables``,
``convert``) goes through here, so a reader sees the old file or the complete new one, never
half of one, and the new file gets the mode a plain ``open()`` would give it.

The steps: a temporary file in the destination directory (a rename is atomic only within one
file system), its mode set at once (``mkstemp`` creates 0600, and ``os.replace`` would carry
that over), the data written and fsynced, the rename, and an fsync of the directory so the
rename survives a power cut. The mode is the replaced file's when there is one (a file shared
with ``chmod 640`` stays 640), else ``0o666 & ~umask``; owner and group are not carried over
(only root could).

Writers that stream (``promote convert``) use the pieces: :func:`temp_beside`, then their own
writing and ``os.fsync``, then :func:`commit`. Others call :func:`write_bytes`.

Only the standard library: ``promote table -o`` imports this on its way to printing.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path


def umask() -> int:
    """The process umask (reading it means setting it, so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def mode_for(path: Path) -> int:
    """The permission bits a new file at ``path`` gets: those of the regular file it replaces
    (through a symlink: its target's), else ``0o666 & ~umask`` as ``open()`` would create it.
    Set-id and sticky bits are never carried over."""
    try:
        st = os.stat(path)
    except OSError:
        return 0o666 & ~umask()
    if not stat.S_ISREG(st.st_mode):
        return 0o666 & ~umask()
    return stat.S_IMODE(st.st_mode) & 0o777


def temp_beside(path: Path, suffix: str = ".tmp") -> tuple[int, Path]:
    """Create ``.NAME.XXXX<suffix>`` in ``path``'s directory with :func:`mode_for` ``path``;
    return its open descriptor and its path. The caller writes, fsyncs, closes, and either
    :func:`commit`-s or :func:`discard`-s it."""
    path = Path(path)
    mode = mode_for(path)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        os.unlink(name)
        raise
    return fd, Path(name)


def commit(renames: Iterable[tuple[Path, Path]]) -> None:
    """Rename each fsynced temporary file over its final name, then fsync the directories
    once each, so the renames are durable."""
    parents = []
    for temp, final in renames:
        os.replace(temp, final)
        if Path(final).parent not in parents:
            parents.append(Path(final).parent)
    for parent in parents:
        fsync_dir(parent)


def discard(temps: Iterable[Path]) -> None:
    """Remove temporary files (those already gone, e.g. renamed, are skipped)."""
    for temp in temps:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a directory; the rename itself is done
    finally:
        os.close(fd)


def write_all(fd: int, data: memoryview | bytes) -> None:
    """Write all of ``data`` (``os.write`` may write less than it is given)."""
    view = memoryview(data).cast("B")
    while view:
        view = view[os.write(fd, view) :]


def write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` atomically (all the steps above). Raises ``OSError``;
    the temporary file is gone whatever happens."""
    path = Path(path)
    fd, temp = temp_beside(path)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        commit([(temp, path)])
    except BaseException:
        discard([temp])
        raise
