"""Staging and committing outputs: refuse destinations that are an input, collide, exist
(without ``--force``) or do not fit; write each output to a fsynced temporary file beside its
final name; rename them all once every one is complete. An interruption never leaves a partial
file under a final name, and a refused or failed run writes nothing. The temporary files, their
mode (that of the file ``--force`` replaces, else ``0o666 & ~umask``) and the renames come from
``promote_cli.atomic``, shared with every other command that writes files."""

from __future__ import annotations

import errno
import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from numpy.lib import format as npformat

from promote_cli import atomic
from promote_cli.errors import BadInputError, UsageError
from promote_cli.npy.changes import Changes
from promote_cli.npy.header import open_data
from promote_cli.npy.job import SKIP, Job
from promote_cli.npy.numpy_dtypes import header_descr
from promote_cli.npy.stream import CHUNK_BYTES, FileSink, sink_bytes, stream


def same_file(path: Path, identity: tuple[int, int]) -> bool:
    try:
        st = os.stat(path)  # follows symlinks: a link to an input is that input
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == identity


def check_outputs(jobs: Sequence[Job], *, force: bool) -> None:
    """Refuse outputs that are an input (also through a link), collide, or exist already
    (unless ``force``); all before anything is written."""
    inputs = [job.npy for job in jobs]
    live = [job for job in jobs if job.action != SKIP]
    for job in live:
        for npy in inputs:
            if same_file(job.out, npy.identity):
                raise UsageError(
                    f"output {job.out} is the input {npy.path} (same file); choose another output"
                )
        if job.out.is_dir():
            raise UsageError(f"output {job.out} is a directory")
        if not job.out.parent.is_dir():
            raise UsageError(f"output directory {job.out.parent} does not exist")
        if (job.out.exists() or job.out.is_symlink()) and not force:
            raise UsageError(f"output {job.out} exists; pass --force to replace it")
    for i, first in enumerate(live):
        for second in live[i + 1 :]:
            if _same_destination(first.out, second.out):
                raise UsageError(
                    f"both outputs would be written to {first.out}; give distinct --out-a/--out-b"
                )


def _same_destination(a: Path, b: Path) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def check_space(jobs: Sequence[Job]) -> None:
    """Refuse early when a destination file system cannot hold the outputs (a disk that fills
    up anyway is still handled when writing)."""
    need: dict[int, tuple[Path, int]] = {}
    for job in jobs:
        if job.action == SKIP:
            continue
        dev = os.stat(job.out.parent).st_dev
        where, total = need.get(dev, (job.out.parent, 0))
        need[dev] = (where, total + job.out_bytes + 4096)
    for where, total in need.values():
        st = os.statvfs(where)
        free = st.f_bavail * st.f_frsize
        if total > free:
            raise BadInputError(
                f"not enough space in {where}: the outputs need {total} bytes, {free} are free"
            )


@dataclass
class Pending:
    """A fully written, fsynced temporary file waiting to be renamed to ``final``."""

    temp: Path
    final: Path


def write_output(
    job: Job,
    *,
    void_header: bool = False,
    changes: Changes | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> Pending:
    """Write ``job``'s output to a temporary file beside its final name and fsync it. On any
    error (or Ctrl-C) the temporary file is removed and the error propagates."""
    try:
        fd, temp = atomic.temp_beside(job.out, suffix=".promote-tmp")
    except OSError as exc:
        raise BadInputError(
            f"cannot create a file in {job.out.parent}: {exc.strerror or exc}"
        ) from None
    pending = Pending(temp, job.out)
    try:
        try:
            header = _header_bytes(job, void_header)
            _reserve(fd, len(header) + job.out_bytes)
            atomic.write_all(fd, header)
            with open_data(job.npy) as src:
                sink = FileSink(fd, sink_bytes(job, chunk_bytes))
                try:
                    stream(
                        src,
                        job,
                        sink,
                        changes=changes,
                        progress=progress,
                        chunk_bytes=chunk_bytes,
                    )
                    sink.close()
                except BaseException:
                    sink.abort()  # the writer thread must be done with fd before it closes
                    raise
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException as exc:
        discard([pending])
        if isinstance(exc, OSError):
            raise BadInputError(f"cannot write {job.out}: {exc.strerror or exc}") from None
        raise
    return pending


def _reserve(fd: int, size: int) -> None:
    # Allocating the whole file up front fails early (and cleanly) on a full disk, and makes
    # the writeback of each chunk cheaper than ext4's delayed allocation piece by piece.
    if size and hasattr(os, "posix_fallocate"):
        try:
            os.posix_fallocate(fd, 0, size)
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise


def _header_bytes(job: Job, void_header: bool) -> bytes:
    header = {
        "descr": header_descr(job.target, void_header=void_header),
        "fortran_order": job.npy.fortran_order,
        "shape": job.npy.shape,
    }
    buf = io.BytesIO()
    try:
        npformat.write_array_header_1_0(buf, header)
    except ValueError:  # too long for format 1.0 (a shape of very many dimensions)
        buf = io.BytesIO()
        npformat.write_array_header_2_0(buf, header)
    return buf.getvalue()


def discard(pending: Sequence[Pending]) -> None:
    atomic.discard(p.temp for p in pending)


def commit(pending: Sequence[Pending], *, force: bool) -> None:
    """Rename every temporary file over its final name (one after the other, once all are
    complete), then make the renames durable."""
    if not force:
        for p in pending:
            if p.final.exists() or p.final.is_symlink():
                discard(pending)
                raise UsageError(f"output {p.final} appeared meanwhile; pass --force to replace it")
    try:
        atomic.commit((p.temp, p.final) for p in pending)
    except BaseException:
        discard(pending)
        raise
