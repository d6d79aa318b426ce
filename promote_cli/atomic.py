"""Every file promote writes (``table -o``, ``tables``, ``convert``) goes through here: this
module alone decides what may be written and how, and words every failure as one
``BadInputError`` line ("cannot write ...").

**What may be written** (:func:`target`): a path that does not exist yet (in an existing
directory), or an existing regular file; a symlink stands for the file it names (the file is
replaced, the link stays). An existing file that is not regular (a character device such as
``/dev/null``, a FIFO, ``/dev/stdout``, a symlink to ``/proc/self/fd/N``) is never replaced by a
regular file: a writer that accepts a stream (``promote table -o``) writes *into* it (opened
without truncation, appending), the others refuse it. A directory, a block device or a socket
is always refused.

**How**: a temporary file in the destination directory (a rename is atomic only within one file
system), created through a descriptor of that directory, so a directory renamed or removed
mid-run is noticed rather than written into or littered with a temporary file; its mode set at
once (the replaced file's, else ``0o666 & ~umask`` as ``open()`` gives; owner and group are not
carried over, only root could); the data written and fsynced; then :func:`commit` renames a set
of staged files *as a set*: each file it replaces is first kept under a hidden hard link, and
if one rename fails the ones already done are undone, so either every final name takes its new
content or none does. The directories are fsynced last so the renames survive a power cut.

Only the standard library: ``promote table -o`` imports this on its way to printing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

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
        if self.final == other.final:
            return True
        if self.identity is not None and self.identity == other.identity:
            return True
        if self.parent != other.parent:
            return False
        a, b = self.final.name, other.final.name
        return a == b or (a.casefold() == b.casefold() and _case_insensitive(self.final.parent))


def target(path: Path | str, *, into_ok: bool) -> Target:
    """Decide where and how ``path`` is written; refuse (one ``BadInputError`` line) what may
    not be. ``into_ok``: an existing non-regular file (device, FIFO, ``/dev/stdout``) is written
    into rather than refused. A name ending in ``/`` names a directory and is refused."""
    if str(path).endswith(("/", os.sep)):
        raise BadInputError(f"cannot write {path}: it names a directory; give a file name")
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return _new(path, path)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    if stat.S_ISLNK(st.st_mode):
        if _through_proc_fd(path):  # /dev/stdout: the open file itself, not a name to replace
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
                f"cannot write {path}: directory {final.parent} does not exist"
            ) from None
        raise cannot_write(path, exc) from None
    if not stat.S_ISDIR(st.st_mode):
        raise BadInputError(f"cannot write {path}: {final.parent} is not a directory")
    return (st.st_dev, st.st_ino)


def _through_proc_fd(path: Path) -> bool:
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
    try:
        fd, name = _create_temp(directory, "Promote-Case-Probe", "")
    except OSError:
        return True
    try:
        os.close(fd)
        return os.path.lexists(os.path.join(directory, name.swapcase()))
    finally:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(directory, name))


def _create_temp(
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


@dataclass
class Staged:
    """A temporary file beside its final name, written by the caller through ``fd``, waiting
    for :func:`commit` (or :func:`discard`). The directory is held open by ``dir_fd``, so the
    file is renamed, or removed, in the directory it was created in."""

    target: Target
    fd: int
    dir_fd: int
    temp: str  # the temporary file's name in the directory
    closed: bool = False

    @property
    def temp_path(self) -> Path:
        return self.target.final.parent / self.temp

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.fd)


def stage(tgt: Target, suffix: str = ".tmp") -> Staged:
    """Create the temporary file for ``tgt`` (not one written into) with its final mode."""
    assert not tgt.into
    directory = tgt.final.parent
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        dir_fd = os.open(directory, flags)
    except FileNotFoundError:
        raise _moved(tgt) from None
    except OSError as exc:
        raise cannot_write(tgt.path, exc) from None
    here = os.fstat(dir_fd)
    if (here.st_dev, here.st_ino) != tgt.parent:
        os.close(dir_fd)
        raise _moved(tgt)
    try:
        fd, name = _create_temp(directory, tgt.final.name, suffix, dir_fd=dir_fd)
    except OSError as exc:
        os.close(dir_fd)
        raise BadInputError(
            f"cannot write {tgt.path}: cannot create a file in {directory}: {exc.strerror or exc}"
        ) from None
    staged = Staged(tgt, fd, dir_fd, name)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, tgt.mode)  # open()'s mode argument is masked by the umask
    except BaseException:
        discard([staged])
        raise
    return staged


def discard(staged: Sequence[Staged]) -> list[Path]:
    """Remove the temporary files (those already gone, e.g. renamed, are skipped) and close
    their descriptors; return those that could not be removed (a directory made read-only),
    each emptied first so that it holds no data."""
    left = []
    for s in staged:
        try:
            os.unlink(s.temp, dir_fd=s.dir_fd)
        except FileNotFoundError:
            pass
        except OSError:
            with contextlib.suppress(OSError):
                if not s.closed:
                    os.ftruncate(s.fd, 0)
            left.append(s.temp_path)
        s.close()
        with contextlib.suppress(OSError):
            os.close(s.dir_fd)
    return left


def _still_there(s: Staged) -> None:
    """Refuse to commit into a directory that was moved or removed since the file was staged:
    the output would land somewhere the user did not name."""
    try:
        st = os.stat(s.target.final.parent)
    except OSError:
        st = None
    here = os.fstat(s.dir_fd)
    if st is None or (st.st_dev, st.st_ino) != (here.st_dev, here.st_ino):
        raise _moved(s.target)


def _moved(tgt: Target) -> BadInputError:
    return BadInputError(
        f"cannot write {tgt.path}: directory {tgt.final.parent} was moved or removed during the run"
    )


def commit(staged: Sequence[Staged], *, replace: bool = True) -> None:
    """Rename every staged (written, fsynced) file over its final name, all or none: each file
    replaced is kept under a hidden hard link until every rename is done, and a failed rename
    puts back the files already replaced (and removes the new ones). Without ``replace``, a
    final name taken meanwhile by another process is refused. Then fsync the directories.

    Raises ``BadInputError`` (one line, "nothing was written") or, on Ctrl-C, the
    ``KeyboardInterrupt`` after undoing; the temporary files are gone either way."""
    backups: list[tuple[Staged, str | None]] = []  # per renamed file: its backup, or None
    done = 0
    try:
        for s in staged:
            _still_there(s)
            if not replace and _exists(s):
                raise BadInputError(
                    f"output {s.target.path} appeared meanwhile; pass --force to replace it"
                )
        for s in staged:
            backups.append((s, _backup(s) if _exists(s) else None))
        for s, _ in backups:
            try:
                os.replace(s.temp, s.target.final.name, src_dir_fd=s.dir_fd, dst_dir_fd=s.dir_fd)
            except OSError as exc:
                raise BadInputError(
                    f"cannot write {s.target.path}: {exc.strerror or exc}; nothing was written"
                ) from None
            done += 1
    except BaseException as exc:
        failed = _undo(backups[:done])
        left = _drop_backups(backups) + discard(staged)
        if isinstance(exc, BadInputError) and (failed or left):
            raise BadInputError(_worse(str(exc), failed, left)) from None
        raise
    _drop_backups(backups)
    for s in staged:
        if not any(s.dir_fd == t.dir_fd for t in staged[: staged.index(s)]):
            fsync_dir_fd(s.dir_fd)
    discard(staged)  # the temporary names are gone: this only closes the directories


def _exists(s: Staged) -> bool:
    try:
        os.lstat(s.target.final.name, dir_fd=s.dir_fd)
    except FileNotFoundError:
        return False
    return True


def _backup(s: Staged) -> str:
    """A hidden second name for the file ``s`` replaces (a hard link: no data is copied), so
    the replacement can be undone; if the file cannot be linked (an immutable file, a file
    system without hard links), a copy."""
    name = s.target.final.name
    for _ in range(100):
        backup = f".{name[: NAME_MAX - 32]}.{os.urandom(4).hex()}.promote-old"
        try:
            os.link(name, backup, src_dir_fd=s.dir_fd, dst_dir_fd=s.dir_fd, follow_symlinks=False)
            return backup
        except FileExistsError:
            continue
        except OSError:
            break
    try:
        return _copy(s, name)
    except OSError as exc:
        raise BadInputError(
            f"cannot write {s.target.path}: cannot keep its old content aside"
            f" ({exc.strerror or exc}); nothing was written"
        ) from None


def _copy(s: Staged, name: str) -> str:
    src = os.open(name, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0), dir_fd=s.dir_fd)
    try:
        fd, backup = _create_temp(".", name, ".promote-old", dir_fd=s.dir_fd)
        try:
            while chunk := os.read(src, 1 << 20):
                write_all(fd, chunk)
            os.fsync(fd)
        except BaseException:
            os.unlink(backup, dir_fd=s.dir_fd)
            raise
        finally:
            os.close(fd)
    finally:
        os.close(src)
    return backup


def _undo(renamed: Sequence[tuple[Staged, str | None]]) -> list[Path]:
    """Put back what the renames replaced; return the final names that could not be."""
    failed = []
    for s, backup in reversed(renamed):
        try:
            if backup is None:
                os.unlink(s.target.final.name, dir_fd=s.dir_fd)
            else:
                os.replace(backup, s.target.final.name, src_dir_fd=s.dir_fd, dst_dir_fd=s.dir_fd)
        except OSError:
            failed.append(s.target.path)
    return failed


def _drop_backups(backups: Sequence[tuple[Staged, str | None]]) -> list[Path]:
    left = []
    for s, backup in backups:
        if backup is not None:
            try:
                os.unlink(backup, dir_fd=s.dir_fd)
            except FileNotFoundError:
                pass
            except OSError:
                left.append(s.target.final.parent / backup)
    return left


def _worse(message: str, failed: Sequence[Path], left: Sequence[Path]) -> str:
    message = message.replace("; nothing was written", "")
    if failed:
        message += f"; {', '.join(map(str, failed))} could not be put back and hold the new content"
    else:
        message += "; nothing was written"
    return message + left_behind(left)


def left_behind(left: Sequence[Path]) -> str:
    """The end of an error line naming the temporary files that could not be removed (a
    directory made read-only): "" when there are none."""
    if not left:
        return ""
    return f"; could not remove {', '.join(map(str, left))} (emptied)"


def fsync_dir_fd(fd: int) -> None:
    with contextlib.suppress(OSError):  # some file systems cannot fsync a directory
        os.fsync(fd)


def write_all(fd: int, data: memoryview | bytes) -> None:
    """Write all of ``data`` (``os.write`` may write less than it is given)."""
    view = memoryview(data).cast("B")
    while view:
        view = view[os.write(fd, view) :]


def write_into(tgt: Target, data: bytes) -> None:
    """Write ``data`` into the existing non-regular file ``tgt`` (a device, a FIFO, the
    terminal): opened for writing without truncation, appending; never created or replaced."""
    flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tgt.path, flags)
    except OSError as exc:
        raise cannot_write(tgt.path, exc) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and not _through_proc_fd(tgt.path):
            raise BadInputError(f"cannot write {tgt.path}: it was replaced during the run")
        write_all(fd, data)
    except OSError as exc:
        raise cannot_write(tgt.path, exc) from None
    finally:
        os.close(fd)


def write_bytes(path: Path | str, data: bytes, *, into_ok: bool = True) -> None:
    """Write ``data`` to ``path`` by the rules above: replace it atomically, or write into an
    existing device, FIFO or terminal (``into_ok``; else refused). Raises ``BadInputError``;
    no temporary file is left whatever happens."""
    tgt = target(path, into_ok=into_ok)
    if tgt.into:
        write_into(tgt, data)
        return
    s = stage(tgt)
    try:
        try:
            write_all(s.fd, data)
            os.fsync(s.fd)
        except OSError as exc:
            raise cannot_write(tgt.path, exc) from None
        commit([s])
    except BaseException:
        discard([s])
        raise
