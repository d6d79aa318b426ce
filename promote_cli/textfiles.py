"""Generated text files on disk: read exactly as stored, written by ``promote_cli.atomic``'s
rules; every problem is one ``BadInputError`` line naming the file. ``promote table -o`` and
``--check``, ``promote tables`` and ``--template`` read and write through here.

Only regular files are read, and only up to ``MAX_BYTES``: a FIFO in place of a table would
block a read forever, and a link to ``/dev/zero`` would fill the memory.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from promote_cli import atomic, targets
from promote_cli.errors import BadInputError

# The largest file read: the biggest table promote writes is about 100 KiB.
MAX_BYTES = 16 << 20


@contextlib.contextmanager
def _regular(path: Path, follow: bool = True) -> Iterator[int | None]:
    """An fd open for reading on the regular file ``path`` (None when there is no file);
    without ``follow``, a symlink is refused rather than read through."""
    # O_NONBLOCK: opening a FIFO would otherwise wait for a writer; it is refused just after.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        yield None
        return
    except OSError as exc:
        if not follow and os.path.islink(path):
            raise BadInputError(
                f"{path}: is a symbolic link (to {os.readlink(path)}); promote reads and writes"
                " only regular files of its own here: remove it"
            ) from None
        raise BadInputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise BadInputError(
                f"{path}: is {targets.kind(mode)}; promote reads only regular files"
            )
        yield fd
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def _read_up_to(fd: int, limit: int) -> bytes:
    chunks, got = [], 0
    while got < limit and (chunk := os.read(fd, min(1 << 20, limit - got))):
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_bytes(
    path: Path, *, what: str = "file", limit: int = MAX_BYTES, follow: bool = True
) -> bytes | None:
    """The content of the regular file ``path`` (refused beyond ``limit`` bytes), or None when
    there is no file; without ``follow`` a symlink is refused."""
    with _regular(path, follow) as fd:
        if fd is None:
            return None
        data = _read_up_to(fd, limit + 1)
    if len(data) > limit:
        raise BadInputError(f"{path}: is larger than {limit} bytes, more than a {what} can be")
    return data


def head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path``; b"" when there is none, or it is
    not a regular file, or it cannot be read."""
    try:
        with _regular(path) as fd:
            return b"" if fd is None else _read_up_to(fd, size)
    except BadInputError:
        return b""


def read(path: Path, *, follow: bool = True) -> str | None:
    """The file's text exactly as stored (no newline translation), or None when absent."""
    data = read_bytes(path, what="table", follow=follow)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInputError(f"{path}: not UTF-8 text; delete it and regenerate") from None


def write(
    path: Path | str, text: str, *, into_ok: bool = True, inputs: Sequence[Path] = ()
) -> None:
    """Write ``text`` to ``path``: replaced atomically (a reader never sees half a table; it
    keeps the mode of the file it replaces, a new file gets the one ``open()`` would give it;
    its directory must exist), or written into an existing device, FIFO or terminal when
    ``into_ok``; never one of ``inputs`` (any name of it: a symlink, a hard link)."""
    atomic.write_bytes(path, text.encode("utf-8"), into_ok=into_ok, inputs=inputs)
