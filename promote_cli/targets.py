"""What promote may write, decided once before anything is written (:func:`target`): the one
place that words every such refusal as one ``BadInputError`` line ("cannot write ...").

**What may be written** (:func:`target`): a path that does not exist yet (in an existing
directory), or an existing regular file; a symlink stands for the file it names (the file is
replaced, the link stays), except for a writer of files of its own (``promote tables``), which
refuses it. An existing file that is not regular (a character device such as ``/dev/null``, a
FIFO, ``/dev/stdout``, a symlink to ``/proc/self/fd/N``) is never replaced by a regular file: a
writer that accepts a stream (``promote table -o``) writes *into* it (opened without
truncation, appending), the others refuse it. A directory, a block device or a socket is always
refused; so are two outputs that are one file (:func:`one_file`).

Files are created here only as a temporary name in a directory (:func:`create_temp`, which
``atomic`` writes every file through, and the probe of a file system that ignores case).

Only the standard library: ``promote table -o`` imports this on its way to printing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from promote_cli import interrupts
from promote_cli.errors import BadInputError

# A file name may hold NAME_MAX (255 on every file system promote meets) bytes; the temporary
# names keep a prefix of the final name for the reader of `ls -a`, shortened to fit.
NAME_MAX = 255
_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}


def kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words ("a FIFO")."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def cannot_write(path: Path | str, exc: OSError) -> BadInputError:
    return BadInputError(f"cannot write {path}: {exc.strerror or exc}")


def umask() -> int:
    """The process umask (reading it means setting it, so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@dataclass(frozen=True)
class Target:
    """Where an output goes, decided once before anything is written.

    ``path`` is what the user named (for messages); ``final`` the name the new file takes (the
    file a symlink names); ``into`` says the existing file is not regular and is written into,
    never replaced. ``identity`` is the ``(st_dev, st_ino)`` of the file there now (None when
    there is none), ``parent`` that of ``final``'s directory: two targets are one file when
    either matches (a hard link, a bind mount, a case-insensitive file system)."""

    path: Path
    final: Path
    into: bool
    identity: tuple[int, int] | None
    parent: tuple[int, int]
    mode: int  # the permission bits the new file gets

    @property
    def exists(self) -> bool:
        return self.identity is not None

    def same_file(self, other: Target) -> bool:
        """Whether the two targets are one file under two names (checked before writing)."""
        return one_file([self, other]) is not None


def one_file(targets: Sequence[Target]) -> tuple[Target, Target] | None:
    """The first two of ``targets`` that are one file under two names (the same path, hard
    links of one file, one directory reached twice through a bind mount, names differing only
    in case on a case-insensitive file system), or None; in linear time, for a set of files."""
    seen: dict[object, Target] = {}
    for tgt in targets:
        keys: list[object] = [("path", tgt.final), ("entry", tgt.parent, tgt.final.name)]
        if tgt.identity is not None:
            keys.append(("inode", tgt.identity))
        for key in keys:
            if key in seen:
                return seen[key], tgt
        folded = ("folded", tgt.parent, tgt.final.name.casefold())
        other = seen.get(folded)
        if other is not None and _case_insensitive(tgt.final.parent):
            return other, tgt
        for key in (*keys, folded):
            seen.setdefault(key, tgt)
    return None


def target(path: Path | str, *, into_ok: bool, follow: bool = True) -> Target:
    """Decide where and how ``path`` is written; refuse (one ``BadInputError`` line) what may
    not be. ``into_ok``: an existing non-regular file (device, FIFO, ``/dev/stdout``) is written
    into rather than refused. ``follow``: a symlink stands for the file it names; without it
    (``promote tables``, which writes only files of its own) a symlink is refused. A name
    ending in ``/`` names a directory and is refused."""
    if str(path).endswith(("/", os.sep)):
        raise BadInputError(f"cannot write {path}: it names a directory; give a file name")
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return _new(path, path)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    if stat.S_ISLNK(st.st_mode) and not follow:
        raise BadInputError(
            f"cannot write {path}: it is a symbolic link (to {os.readlink(path)}), and promote"
            " writes only regular files of its own here; remove it"
        )
    if stat.S_ISLNK(st.st_mode):
        if through_proc_fd(path):  # /dev/stdout: the open file itself, not a name to replace
            return _into(path, into_ok)
        final = Path(os.path.realpath(path))
        try:
            st = os.lstat(final)
        except FileNotFoundError:  # a dangling link: open() would create the file it names
            return _new(path, final)
        except OSError as exc:
            raise cannot_write(path, exc) from None
        if stat.S_ISLNK(st.st_mode):
            raise BadInputError(f"cannot write {path}: a loop of symbolic links")
    else:
        final = path
    if stat.S_ISREG(st.st_mode):
        return Target(
            path,
            final,
            into=False,
            identity=(st.st_dev, st.st_ino),
            parent=_parent_identity(path, final),
            mode=stat.S_IMODE(st.st_mode) & 0o777,  # set-id and sticky bits are never carried
        )
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return _into(path, into_ok)
    raise BadInputError(f"cannot write {path}: it is {kind(st.st_mode)}")


def _new(path: Path, final: Path) -> Target:
    return Target(
        path,
        final,
        into=False,
        identity=None,
        parent=_parent_identity(path, final),
        mode=0o666 & ~umask(),
    )


def _into(path: Path, into_ok: bool) -> Target:
    try:
        st = os.stat(path)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    if not into_ok:
        raise BadInputError(
            f"cannot write {path}: it is {kind(st.st_mode)}, and promote replaces only regular"
            " files; name a file"
        )
    if stat.S_ISDIR(st.st_mode) or stat.S_ISBLK(st.st_mode) or stat.S_ISSOCK(st.st_mode):
        raise BadInputError(f"cannot write {path}: it is {kind(st.st_mode)}")
    return Target(path, path, into=True, identity=(st.st_dev, st.st_ino), parent=(0, 0), mode=0)


def _parent_identity(path: Path, final: Path) -> tuple[int, int]:
    try:
        st = os.stat(final.parent)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            raise BadInputError(
                f"cannot write {path}: directory {final.parent} does not exist; create it"
                f" first (mkdir -p {shlex.quote(str(final.parent))})"
            ) from None
        raise cannot_write(path, exc) from None
    if not stat.S_ISDIR(st.st_mode):
        raise BadInputError(f"cannot write {path}: {final.parent} is not a directory")
    return (st.st_dev, st.st_ino)


def through_proc_fd(path: Path) -> bool:
    """Whether ``path`` resolves through ``/proc/PID/fd/N`` (``/dev/stdout``, ``/dev/fd/1``):
    such a link names an open file description, whatever file it happens to point at."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on links followed
        parts = Path(current).parts
        if parts[1:2] == ("proc",) and len(parts) in (5, 7) and parts[-2] == "fd":
            return True
        if not os.path.islink(current):
            return False
        where = os.path.realpath(os.path.dirname(current))
        current = os.path.normpath(os.path.join(where, os.readlink(current)))
    return False


def _case_insensitive(directory: Path) -> bool:
    """Whether ``directory`` is on a file system that ignores case (asked by creating a
    mixed-case file and looking for it under the other case; when it cannot be asked, yes: two
    outputs are then refused rather than risked)."""
    with interrupts.deferred(then_raise=True):  # the probe is made and removed, or neither
        try:
            fd, name = create_temp(directory, "Promote-Case-Probe", "")
        except OSError:
            return True
        try:
            os.close(fd)
            return os.path.lexists(os.path.join(directory, name.swapcase()))
        finally:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(directory, name))


def create_temp(
    directory: Path | str, stem: str, suffix: str, mode: int = 0o600, dir_fd: int | None = None
) -> tuple[int, str]:
    """Create ``.STEM.XXXXXXXX<suffix>`` (exclusively) in ``directory``; its fd and name."""
    room = NAME_MAX - len(os.fsencode(f"..{'x' * 8}{suffix}"))
    while len(os.fsencode(stem)) > room:
        stem = stem[:-1]
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = f".{stem}.{os.urandom(4).hex()}{suffix}"
        try:
            if dir_fd is None:
                return os.open(os.path.join(directory, name), flags, mode), name
            return os.open(name, flags, mode, dir_fd=dir_fd), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary name", str(directory))
