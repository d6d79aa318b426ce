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
from pathlib import Path

from numpy.lib import format as npformat

from promote_cli import atomic
from promote_cli.errors import BadInputError, UsageError
from promote_cli.npy.changes import Changes
from promote_cli.npy.header import open_data
from promote_cli.npy.job import SKIP, Job
from promote_cli.npy.numpy_dtypes import header_descr
from promote_cli.npy.stream import CHUNK_BYTES, FileSink, sink_bytes, stream
from promote_cli.targets import Target, cannot_write, one_file, target


def check_outputs(jobs: Sequence[Job], *, force: bool) -> list[Target | None]:
    """Where each job's output goes (None for a skipped job), by ``promote_cli.targets``'
    rules: a regular file or a new one, never a device or FIFO (the two outputs are committed
    as a pair, which only regular files allow). Refuse outputs that are an input (also through
    a link), are one file under two names (a hard link, a bind mount, a case-insensitive file
    system), or exist already (unless ``force``); all before anything is written."""
    targets = [None if job.action == SKIP else target(job.out, into_ok=False) for job in jobs]
    inputs = [job.npy for job in jobs]
    live = [(job, t) for job, t in zip(jobs, targets, strict=True) if t is not None]
    for job, tgt in live:
        for npy in inputs:
            if tgt.identity == npy.identity:
                raise UsageError(
                    f"output {job.out} is the input {npy.path} (same file); choose another output"
                )
        if tgt.exists and not force:
            raise UsageError(f"output {job.out} exists; pass --force to replace it")
    shared = one_file([t for _, t in live])
    if shared is not None:
        first, second = shared
        raise UsageError(
            f"both outputs would be written to one file ({first.path}, {second.path});"
            " give distinct --out-a/--out-b"
        )
    return targets


def check_space(jobs: Sequence[Job], targets: Sequence[Target | None]) -> None:
    """Refuse early when a destination file system cannot hold the outputs (a disk that fills
    up anyway is still handled when writing)."""
    need: dict[int, tuple[Path, int]] = {}
    for job, tgt in zip(jobs, targets, strict=True):
        if tgt is None:
            continue
        where, total = need.get(tgt.parent[0], (tgt.final.parent, 0))
        need[tgt.parent[0]] = (where, total + job.out_bytes + 4096)
    for where, total in need.values():
        try:
            st = os.statvfs(where)
        except OSError as exc:
            raise cannot_write(where, exc) from None
        free = st.f_bavail * st.f_frsize
        if total > free:
            raise BadInputError(
                f"not enough space in {where}: the outputs need {total} bytes, {free} are free"
            )


def write_output(
    job: Job,
    tgt: Target,
    batch: atomic.Batch,
    *,
    void_header: bool = False,
    changes: Changes | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> None:
    """Write ``job``'s output to a temporary file of ``batch`` beside its final name, fsync it
    and close it. On any error (or Ctrl-C) the error propagates, and the batch removes the
    file; an error reading the input says "cannot read" and names the input, one writing the
    output names the output."""
    staged = batch.stage(tgt, suffix=".promote-tmp")
    fd = staged.fd
    assert fd is not None
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
    except OSError as exc:
        raise cannot_write(job.out, exc) from None
    staged.close()


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
