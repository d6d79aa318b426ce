"""Casting an input's data to its target in fixed chunks (peak memory does not grow with the
file), with the same NumPy cast loops as ``np.load(path).astype(target)``, so the values are
those, bit for bit. The chunks go to a sink: a writer thread (``FileSink``), or nowhere (a dry
run that only counts value changes)."""

from __future__ import annotations

import contextlib
import io
import os
import queue
import threading
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from promote_cli import atomic
from promote_cli.npy.changes import Changes, count_changes
from promote_cli.npy.header import bad
from promote_cli.npy.job import Job

# Chosen by benchmarks/bench_convert.py (docs/guide/convert.md): smaller chunks pay Python
# overhead per chunk, larger ones fall out of the CPU caches and cost 2-3x.
CHUNK_BYTES = 1 << 20


class Sink:
    """Where converted chunks go; ``stream`` fills the buffers it hands out. This one drops
    them (a dry run counting value changes)."""

    def __init__(self, nbytes: int) -> None:
        # Zeroed: the padding bytes of longdouble (10 of 16 bytes used on x86) are never
        # written by a cast, and must not carry stale process memory into a file.
        self._buffer = np.zeros(nbytes, np.uint8)

    def buffer(self) -> np.ndarray:
        return self._buffer

    def submit(self, buffer: np.ndarray, nbytes: int) -> None:
        pass


class FileSink(Sink):
    """Writes chunks to ``fd`` on a second thread, so that reading and casting the next chunk
    overlaps writing this one (NumPy's casts and ``os.write`` release the GIL), and asks the
    kernel to start writing back each 16 MiB written: the final fsync then has little left to
    wait for, and dirty pages do not pile up in memory on huge outputs."""

    BUFFERS = 4
    WRITEBACK_BYTES = 16 << 20

    def __init__(self, fd: int, nbytes: int) -> None:
        self._fd = fd
        self._free: queue.SimpleQueue[np.ndarray] = queue.SimpleQueue()
        self._full: queue.SimpleQueue[tuple[np.ndarray, int] | None] = queue.SimpleQueue()
        for _ in range(self.BUFFERS):
            self._free.put(np.zeros(nbytes, np.uint8))
        self._error: BaseException | None = None
        self._stopped = False
        self._written = os.lseek(fd, 0, os.SEEK_CUR)
        self._thread = threading.Thread(target=self._run, name="promote-writer", daemon=True)
        self._thread.start()

    def buffer(self) -> np.ndarray:
        buffer = self._free.get()
        if self._error is not None:
            raise self._error
        return buffer

    def submit(self, buffer: np.ndarray, nbytes: int) -> None:
        self._full.put((buffer, nbytes))

    def close(self) -> None:
        """Wait for every submitted chunk to be written; raise the writer's error, if any."""
        self._full.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error

    def abort(self) -> None:
        """Stop writing (the output is being discarded) and wait for the thread to end: the
        caller closes the fd next, and its number must not be reused under a late write."""
        self._stopped = True
        self._full.put(None)
        while self._thread.is_alive():
            try:
                self._thread.join()
            except KeyboardInterrupt:  # a second Ctrl-C: we are already stopping
                continue

    def _run(self) -> None:
        start = done = self._written
        while (item := self._full.get()) is not None:
            buffer, nbytes = item
            if self._error is None and not self._stopped:
                try:
                    atomic.write_all(self._fd, buffer.data[:nbytes])
                    done += nbytes
                    if done - start >= self.WRITEBACK_BYTES:
                        _start_writeback(self._fd, start, done - start)
                        start = done
                except BaseException as exc:  # handed to the main thread by buffer()/close()
                    self._error = exc
            self._free.put(buffer)


def _start_writeback(fd: int, offset: int, length: int) -> None:
    # Linux starts (without waiting for) writeback of the range, then drops the pages already
    # clean; elsewhere it is at worst a no-op.
    if hasattr(os, "posix_fadvise"):
        with contextlib.suppress(OSError):
            os.posix_fadvise(fd, offset, length, os.POSIX_FADV_DONTNEED)


def stream(
    fp: io.FileIO,
    job: Job,
    sink: Sink,
    *,
    changes: Changes | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> None:
    """Cast ``job``'s data (``fp`` positioned at its start) to its target in fixed chunks of at
    most ``chunk_bytes`` (input or output, whichever is wider), into buffers of ``sink``,
    counting value changes into ``changes``."""
    source, target = job.source, job.target
    per_chunk = chunk_items(job, chunk_bytes)
    same = source == target  # native and identical: the bytes read are the output
    inbuf = None if same else np.empty(per_chunk * source.itemsize, np.uint8)
    left = job.npy.count
    while left:
        n = min(per_chunk, left)
        out_raw = sink.buffer()[: n * target.itemsize]
        in_raw = out_raw if inbuf is None else inbuf[: n * source.itemsize]
        _read_exactly(fp, in_raw, job.npy.path)
        if inbuf is not None:
            src, out = in_raw.view(source), out_raw.view(target)
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # ComplexWarning: --check-values reports it
                np.copyto(out, src, casting="unsafe")
            if changes is not None:
                count_changes(src, out, changes)
        sink.submit(out_raw, len(out_raw))
        left -= n
        if progress is not None:
            progress(n * source.itemsize)


def chunk_items(job: Job, chunk_bytes: int) -> int:
    """Elements per chunk: ``chunk_bytes`` of input or output, whichever is wider."""
    return max(1, chunk_bytes // max(job.source.itemsize, job.target.itemsize))


def sink_bytes(job: Job, chunk_bytes: int) -> int:
    return chunk_items(job, chunk_bytes) * job.target.itemsize


def _read_exactly(fp: io.FileIO, buf: np.ndarray, path: Path) -> None:
    view = buf.data.cast("B")
    got = 0
    while got < len(view):
        try:
            n = fp.readinto(view[got:])
        except OSError as exc:  # EIO from a failing disk: the input's fault, not the output's
            raise bad(path, f"cannot read it ({exc.strerror or exc})") from None
        if not n:
            raise bad(path, "file became shorter while it was being read")
        got += n
