"""Every file promote writes (``table -o``, ``tables``, ``convert``) is written here, to a
``targets.Target`` decided before (what may be written, and every refusal's words, are
``promote_cli.targets``'s).

**How** (:class:`Batch`): a temporary file in the destination directory (a rename is atomic only
within one file system), created through a descriptor of that directory, so a directory renamed
or removed mid-run is noticed rather than written into or littered with a temporary file; its
mode set at once (the replaced file's, else ``0o666 & ~umask`` as ``open()`` gives; owner and
group are not carried over, only root could); the data written and fsynced; then the batch's
commit makes every staged file (and removal) final *as a set*: each file it replaces is first
kept under a hidden name, and if one rename fails the ones already done are undone, so either
every final name takes its new content or none does. No signal cuts a commit in half
(``promote_cli.interrupts``), and the files kept aside are gone before a signal is let through.
The directories are fsynced last so the renames survive a power cut.

Only the standard library: ``promote table -o`` imports this on its way to printing.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from promote_cli import interrupts
from promote_cli.errors import BadInputError
from promote_cli.targets import (
    NAME_MAX,
    Target,
    cannot_write,
    create_temp,
    target,
    through_proc_fd,
)

STAGED, COMMITTED, DISCARDED = "staged", "committed", "discarded"


class _Folder:
    """A directory held open while files are staged in it: they are created, renamed and
    removed through this descriptor, so a directory renamed or removed meanwhile is noticed
    instead of written into. Closed once."""

    def __init__(self, tgt: Target) -> None:
        self.path = tgt.final.parent
        flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            self.fd: int | None = os.open(self.path, flags)
        except FileNotFoundError:
            raise _moved(tgt) from None
        except OSError as exc:
            raise cannot_write(tgt.path, exc) from None
        here = os.fstat(self.fd)
        if (here.st_dev, here.st_ino) != tgt.parent:
            self.close()
            raise _moved(tgt)

    def moved(self) -> bool:
        """Whether the directory is no longer at its path (renamed or removed since)."""
        try:
            st = os.stat(self.path)
        except OSError:
            return True
        here = os.fstat(self.fd)  # type: ignore[arg-type]
        return (st.st_dev, st.st_ino) != (here.st_dev, here.st_ino)

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)


@dataclass
class Staged:
    """One change a :class:`Batch` commits: a temporary file (``temp``) beside its final name,
    written by the caller through ``fd``; or, when ``temp`` is None, the removal of the final
    name. ``state`` goes from staged to committed or discarded, once."""

    target: Target
    folder: _Folder
    temp: str | None
    fd: int | None
    state: str = STAGED

    @property
    def dir_fd(self) -> int:
        assert self.folder.fd is not None
        return self.folder.fd

    @property
    def temp_path(self) -> Path:
        return self.target.final.parent / (self.temp or self.target.final.name)

    def close(self) -> None:
        """Close the temporary file's descriptor (the data is written and fsynced)."""
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)


class Batch:
    """Files written as one: each is staged (a temporary file beside its final name, written
    and fsynced), removals are staged too, and :meth:`commit` makes them final **all or
    none**: every final name takes its new content (or disappears) or none does. Used as a
    context manager: whatever was not committed when it ends is discarded (the temporary files
    removed, the directories it created removed again), and an error leaving a file behind
    names it. ``convert``'s pair, ``promote tables``' set and ``table -o``'s one file are all
    committed by this one class."""

    def __init__(self) -> None:
        self.staged: list[Staged] = []
        self._folders: dict[tuple[int, int], _Folder] = {}
        self._created: list[Path] = []  # directories made for the outputs, outermost first
        self._committed = False

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        left = self.close()
        if left and isinstance(exc, BadInputError):
            raise BadInputError(f"{exc}{left_behind(left)}") from None

    def make_dirs(self, directory: Path) -> None:
        """Create ``directory`` and its missing parents; they are removed again unless the
        batch commits (a name too long or a full disk leaves no empty directory behind)."""
        missing = [p for p in (directory, *directory.parents) if not os.path.lexists(p)]
        for path in reversed(missing):
            with interrupts.deferred(then_raise=True):  # made and recorded, or neither
                try:
                    os.mkdir(path)
                except FileExistsError:
                    continue
                except OSError as exc:
                    raise cannot_write(directory, exc) from None
                self._created.append(path)

    def stage(self, tgt: Target, suffix: str = ".tmp") -> Staged:
        """Create the temporary file for ``tgt`` (not a file written into), with its final
        mode; the caller writes it through ``.fd`` and fsyncs it."""
        assert not tgt.into
        folder = self._folder(tgt)
        with interrupts.deferred(then_raise=True):  # created and recorded, or neither
            try:
                fd, name = create_temp(folder.path, tgt.final.name, suffix, dir_fd=folder.fd)
            except OSError as exc:
                if folder.moved():
                    raise _moved(tgt) from None
                raise BadInputError(
                    f"cannot write {tgt.path}: cannot create a file in {folder.path}:"
                    f" {exc.strerror or exc}"
                ) from None
            staged = Staged(tgt, folder, name, fd)
            self.staged.append(staged)
        if hasattr(os, "fchmod"):
            try:
                os.fchmod(fd, tgt.mode)  # open()'s mode argument is masked by the umask
            except OSError as exc:
                raise cannot_write(tgt.path, exc) from None
        return staged

    def write(self, tgt: Target, data: bytes) -> None:
        """Stage ``tgt`` holding ``data``: written, fsynced and closed."""
        s = self.stage(tgt)
        try:
            write_all(s.fd, data)  # type: ignore[arg-type]
            os.fsync(s.fd)  # type: ignore[arg-type]
        except OSError as exc:
            raise cannot_write(tgt.path, exc) from None
        s.close()

    def remove(self, tgt: Target) -> None:
        """Stage the removal of ``tgt``'s file: it goes at the commit, with the rest."""
        self.staged.append(Staged(tgt, self._folder(tgt), None, None))

    def _folder(self, tgt: Target) -> _Folder:
        folder = self._folders.get(tgt.parent)
        if folder is None:
            folder = self._folders[tgt.parent] = _Folder(tgt)
        return folder

    def commit(self, *, replace: bool = True) -> None:
        """Make every staged change final, all or none: each file replaced or removed is first
        kept aside under a hidden name (``.NAME.XXXXXXXX.promote-old``: a hard link, or a copy
        when the file cannot be linked), then the temporary files are renamed over their final
        names; if a rename fails, what was done is undone. Without ``replace``, a final name
        taken meanwhile by another process is refused. Then the files kept aside are removed
        and the directories fsynced.

        No signal interrupts this (``interrupts.deferred``): one that arrived before the first
        rename (or earlier in the run, its interrupt lost on the way) stops the commit there
        with nothing changed, as a ``KeyboardInterrupt``; one that arrives later lets it finish,
        and the run reports it with the files written. Raises ``BadInputError`` (one line, "nothing
        was written") when a change cannot be made."""
        live = [s for s in self.staged if s.state == STAGED]
        for s in live:
            s.close()
        done: list[tuple[Staged, str | None, bool]] = []  # (change, kept aside as, renamed)
        with interrupts.deferred():
            try:
                for s in live:
                    _still_there(s)
                    if not replace and s.temp is not None and _exists(s):
                        raise BadInputError(
                            f"output {s.target.path} appeared meanwhile; pass --force to replace it"
                        )
                for s in live:
                    if s.temp is None:
                        done.append((s, _set_aside(s), False))
                    else:
                        done.append((s, _backup(s) if _exists(s) else None, False))
                if interrupts.arrived():
                    raise KeyboardInterrupt  # the last moment to stop: nothing is final yet
                for i, (s, kept, _) in enumerate(done):
                    if s.temp is None:
                        continue
                    try:
                        os.replace(
                            s.temp, s.target.final.name, src_dir_fd=s.dir_fd, dst_dir_fd=s.dir_fd
                        )
                    except OSError as exc:
                        raise BadInputError(
                            f"cannot write {s.target.path}: {exc.strerror or exc};"
                            " nothing was written"
                        ) from None
                    done[i] = (s, kept, True)
            except BaseException as exc:
                failed = _undo(done)
                left = _drop(done, undone=True) + self.discard()
                if isinstance(exc, BadInputError) and (failed or left):
                    raise BadInputError(_worse(str(exc), failed, left)) from None
                raise
            _drop(done, undone=False)
            for s in live:
                s.state = COMMITTED
            self._committed = True
            for folder in {id(s.folder): s.folder for s in live}.values():
                fsync_dir_fd(folder.fd)  # type: ignore[arg-type]
            for path in {p.parent for p in self._created}:
                _fsync_dir(path)
            interrupts.wrote([s.target.path for s in live if s.temp is not None])

    def discard(self) -> list[Path]:
        """Remove the temporary files not committed (each once, whatever calls this again) and
        close their descriptors; return those that could not be removed (a directory made
        read-only), each emptied first so that it holds no data."""
        left = []
        with interrupts.deferred():  # a second Ctrl-C does not cut the clean-up short
            for s in self.staged:
                if s.state != STAGED:
                    continue
                s.state = DISCARDED
                if s.temp is not None and not _unlink(s):
                    left.append(s.temp_path)
                s.close()
        return left

    def close(self) -> list[Path]:
        """Discard what was not committed, remove the directories made for it, and close the
        directories (each once); return the temporary files that could not be removed."""
        left = self.discard()
        with interrupts.deferred():
            if not self._committed:
                for path in reversed(self._created):
                    with contextlib.suppress(OSError):  # not empty: something else is in it
                        os.rmdir(path)
                self._created.clear()
            for folder in self._folders.values():
                folder.close()
        return left


def replace_file(path: Path, data: bytes) -> None:
    """One regular file of promote's own written whole, as a batch of one (never through a
    link): what the generators of the checked-in data write with."""
    with Batch() as batch:
        batch.write(target(path, into_ok=False, follow=False), data)
        batch.commit()


def _unlink(s: Staged) -> bool:
    """Remove ``s``'s temporary file; False when it cannot be (it is emptied instead)."""
    try:
        os.unlink(s.temp, dir_fd=s.dir_fd)  # type: ignore[arg-type]
        return True
    except FileNotFoundError:
        return True
    except OSError:
        pass
    with contextlib.suppress(OSError):
        if s.fd is not None:
            os.ftruncate(s.fd, 0)
        else:
            flags = os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            fd = os.open(s.temp, flags, dir_fd=s.dir_fd)  # type: ignore[arg-type]
            try:
                os.ftruncate(fd, 0)
            finally:
                os.close(fd)
    return False


def _still_there(s: Staged) -> None:
    """Refuse to commit into a directory that was moved or removed since the file was staged:
    the output would land somewhere the user did not name."""
    if s.folder.moved():
        raise _moved(s.target)


def _moved(tgt: Target) -> BadInputError:
    return BadInputError(
        f"cannot write {tgt.path}: directory {tgt.final.parent} was moved or removed during the run"
    )


def _exists(s: Staged) -> bool:
    try:
        os.lstat(s.target.final.name, dir_fd=s.dir_fd)
    except FileNotFoundError:
        return False
    return True


def _hidden(name: str) -> str:
    return f".{name[: NAME_MAX - 32]}.{os.urandom(4).hex()}.promote-old"


def _backup(s: Staged) -> str:
    """A hidden second name for the file ``s`` replaces (a hard link: no data is copied), so
    the replacement can be undone; if the file cannot be linked (an immutable file, a file
    system without hard links), a copy."""
    name = s.target.final.name
    for _ in range(100):
        backup = _hidden(name)
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


def _set_aside(s: Staged) -> str | None:
    """Move the file ``s`` removes to a hidden name (None when it is gone already), so the
    removal can be undone until the commit is complete."""
    name = s.target.final.name
    for _ in range(100):
        aside = _hidden(name)
        if _exists_named(s, aside):
            continue
        try:
            os.rename(name, aside, src_dir_fd=s.dir_fd, dst_dir_fd=s.dir_fd)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise BadInputError(
                f"{s.target.path}: cannot remove it ({exc.strerror or exc}); nothing was written"
            ) from None
        return aside
    raise BadInputError(f"{s.target.path}: cannot remove it (no unused temporary name)")


def _exists_named(s: Staged, name: str) -> bool:
    try:
        os.lstat(name, dir_fd=s.dir_fd)
    except FileNotFoundError:
        return False
    return True


def _copy(s: Staged, name: str) -> str:
    src = os.open(name, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0), dir_fd=s.dir_fd)
    try:
        fd, backup = create_temp(".", name, ".promote-old", dir_fd=s.dir_fd)
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


def _undo(done: Sequence[tuple[Staged, str | None, bool]]) -> list[Path]:
    """Put back what the commit changed; return the final names that could not be (their old
    content stays in the file kept aside, which is not removed)."""
    failed = []
    for s, kept, renamed in reversed(done):
        try:
            if s.temp is None and kept is not None:  # a removal: the file comes back
                os.rename(kept, s.target.final.name, src_dir_fd=s.dir_fd, dst_dir_fd=s.dir_fd)
            elif renamed and kept is None:  # a new file: it goes again
                os.unlink(s.target.final.name, dir_fd=s.dir_fd)
            elif renamed and kept is not None:  # a replaced file: the old one comes back
                os.replace(kept, s.target.final.name, src_dir_fd=s.dir_fd, dst_dir_fd=s.dir_fd)
        except OSError:
            failed.append(s.target.path)
    return failed


def _drop(done: Sequence[tuple[Staged, str | None, bool]], *, undone: bool) -> list[Path]:
    """Remove the files kept aside (after an undo, only the backups of files that were not
    replaced: the others were put back). Return those that could not be removed."""
    left = []
    for s, kept, renamed in done:
        if kept is None or (undone and (s.temp is None or renamed)):
            continue
        try:
            os.unlink(kept, dir_fd=s.dir_fd)
        except FileNotFoundError:
            pass
        except OSError:
            left.append(s.target.final.parent / kept)
    return left


def _worse(message: str, failed: Sequence[Path], left: Sequence[Path]) -> str:
    message = message.replace("; nothing was written", "")
    if failed:
        message += (
            f"; {', '.join(map(str, failed))} could not be put back and hold the new content"
            " (the old is kept beside them in a hidden .promote-old file)"
        )
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


def _fsync_dir(path: Path) -> None:
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    with contextlib.suppress(OSError):
        fd = os.open(path, flags)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


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
        if stat.S_ISREG(st.st_mode) and not through_proc_fd(tgt.path):
            raise BadInputError(f"cannot write {tgt.path}: it was replaced during the run")
        write_all(fd, data)
    except OSError as exc:
        raise cannot_write(tgt.path, exc) from None
    finally:
        os.close(fd)


def write_bytes(
    path: Path | str, data: bytes, *, into_ok: bool = True, inputs: Sequence[Path] = ()
) -> None:
    """Write ``data`` to ``path`` by the rules above: replace it atomically, or write into an
    existing device, FIFO or terminal (``into_ok``; else refused). Its directory must exist,
    as ``convert``'s outputs' must: a mistyped directory is refused, never created. ``path`` is
    refused when it is one of the files ``inputs`` under any name (the path, a symlink to it, a
    hard link of it). Raises ``BadInputError``; no temporary file is left whatever happens."""
    if str(path).endswith(("/", os.sep)):
        raise BadInputError(f"cannot write {path}: it names a directory; give a file name")
    with Batch() as batch:
        tgt = target(path, into_ok=into_ok)
        for given in inputs:
            with contextlib.suppress(OSError):  # an input that is gone is no longer at risk
                st = os.stat(given)
                if tgt.identity == (st.st_dev, st.st_ino) and stat.S_ISREG(st.st_mode):
                    raise BadInputError(
                        f"output {path} is the input {given} (same file); choose another output"
                    )
        if tgt.into:
            write_into(tgt, data)
            return
        batch.write(tgt, data)
        batch.commit()
