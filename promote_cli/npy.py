"""``.npy`` files for ``promote convert``: validated headers, streaming casts, atomic outputs.

Headers are read and written with ``numpy.lib.format`` and its layered checks (magic, version,
header-size cap, a literal dict with exactly the expected keys), to which this module adds what
a converter must know before it writes a byte: non-negative dimensions, a byte size that fits,
data at least as long as the header says, and a dtype that is plain numbers (object arrays are
never unpickled; structured arrays are refused).

Data is cast in fixed chunks (peak memory does not grow with the file) with the same NumPy cast
loops as ``np.load(path).astype(target)``, so the values are those, bit for bit. Outputs go to a
temporary file in the destination directory, are fsynced, and are renamed over the final name
only when every output of the run is complete: an interruption never leaves a partial file under
a final name, and a refused or failed run writes nothing. The temporary files, their mode (that
of the file ``--force`` replaces, else ``0o666 & ~umask``) and the renames come from
``promote_cli.atomic``, shared with every other command that writes files.

ml_dtypes: ``np.save`` writes most ml_dtypes arrays with a raw void descr (``|V1``, ``<V2``),
``float8_e5m2`` as ``<f1`` and ``complex32`` as ``<W4`` (neither of which NumPy can parse). Such
inputs are read only with an explicit dtype of the same width. Outputs of an ml_dtypes type get
the dtype's name as descr (``'bfloat16'``), which ``np.load`` maps back to the ml_dtypes type
once ``ml_dtypes`` has been imported (NumPy 2.x resolves a descr with ``np.dtype(descr)``, and
importing ml_dtypes registers the names); ``void_header=True`` writes ``|V<n>`` instead, which
any NumPy loads as raw bytes to be ``.view()``-ed.

This module imports NumPy and ml_dtypes at the top: it is imported only by ``promote convert``.
"""

from __future__ import annotations

import contextlib
import errno
import io
import math
import os
import queue
import stat
import struct
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import ml_dtypes
import numpy as np
from numpy.lib import format as npformat

from promote_cli import atomic
from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import BadInputError, PromotionError, UsageError
from promote_cli.operands import DIMENSIONED, ZERO_D, Operand

if TYPE_CHECKING:
    from promote_cli.api import Request

# Chosen by benchmarks/bench_convert.py (see README.d/convert.md): smaller chunks pay Python
# overhead per chunk, larger ones fall out of the CPU caches and cost 2-3x.
CHUNK_BYTES = 1 << 20

# numpy.lib.format's own cap on the header text; a longer header is refused before it is read.
MAX_HEADER_SIZE = 10_000
_HEADER_LENGTH_FORMAT = {(1, 0): "<H", (2, 0): "<I", (3, 0): "<I"}
# Byte sizes NumPy can address (np.intp); a larger shape is a corrupt or hostile header.
_MAX_BYTES = np.iinfo(np.intp).max

_ML_DTYPES = frozenset(
    name for name, entry in CATALOGUE.items() if entry.numpy and hasattr(ml_dtypes, name)
)


# --- dtypes --------------------------------------------------------------------------------


def numpy_dtype(canonical: str) -> np.dtype:
    """The NumPy dtype holding catalogue type ``canonical``; a type NumPy cannot hold (OpenVINO's
    u3, nf4, string, a weak Python scalar type) is refused."""
    entry = CATALOGUE.get(canonical)
    if entry is None or not entry.numpy:
        note = f" ({entry.note})" if entry is not None and entry.note else ""
        raise PromotionError(
            f"{canonical}{note} has no NumPy or ml_dtypes representation, so no .npy file can"
            " hold it"
        )
    if canonical in _ML_DTYPES:
        return np.dtype(getattr(ml_dtypes, canonical))
    try:
        return np.dtype(canonical)
    except TypeError:  # an ml_dtypes type this (older) ml_dtypes lacks
        raise PromotionError(
            f"{canonical} needs a newer ml_dtypes than the installed {ml_dtypes.__version__}"
        ) from None


def canonical_name(dtype: np.dtype) -> str:
    """The catalogue name of a plain (non-structured) NumPy or ml_dtypes dtype."""
    if dtype.type is np.longdouble:
        return "longdouble"
    if dtype.type is np.clongdouble:
        return "clongdouble"
    if dtype.kind == "b":
        return "bool"
    prefix = {"i": "int", "u": "uint", "f": "float", "c": "complex"}.get(dtype.kind)
    if prefix is not None and dtype.type.__module__ == "numpy":
        return f"{prefix}{8 * dtype.itemsize}"
    if dtype.name in _ML_DTYPES and np.dtype(getattr(ml_dtypes, dtype.name)) == dtype:
        return dtype.name
    raise UsageError(f"dtype {dtype} is not a numeric type promote knows")


def _is_ml(dtype: np.dtype) -> bool:
    return dtype.type.__module__ != "numpy"


def header_descr(dtype: np.dtype, *, void_header: bool = False) -> str:
    """The descr an output of ``dtype`` is written with (see the module docstring)."""
    if _is_ml(dtype):
        return f"|V{dtype.itemsize}" if void_header else dtype.name
    return npformat.dtype_to_descr(dtype)


# --- reading headers -------------------------------------------------------------------------


@dataclass(frozen=True)
class NpyFile:
    """An input file whose header passed every check, so its data can be streamed safely."""

    path: Path
    version: tuple[int, int]
    shape: tuple[int, ...]
    fortran_order: bool
    descr: str  # as the header writes it
    dtype: np.dtype | None  # None: raw bytes (void, or a descr NumPy cannot parse)
    itemsize: int
    offset: int  # where the data starts
    identity: tuple[int, int]  # (st_dev, st_ino): what "the same file" means

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def count(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.count * self.itemsize


def _bad(path: Path | str, problem: str) -> BadInputError:
    return BadInputError(f"{path}: {problem}")


def open_input(path: Path) -> BinaryIO:
    """Open an input for reading (never for writing); errors name the file."""
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _bad(path, "no such file") from None
    except IsADirectoryError:
        raise _bad(path, "is a directory, not a .npy file") from None
    except PermissionError:
        raise _bad(path, "permission denied (cannot read it)") from None
    except OSError as exc:
        raise _bad(path, f"cannot open it: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _bad(
            path,
            "is a directory, not a .npy file" if stat.S_ISDIR(mode) else "is not a regular file",
        )
    return os.fdopen(fd, "rb", buffering=0)  # type: ignore[return-value]


def read_header(path: Path | str) -> NpyFile:
    """Read and check ``path``'s header; every problem is one ``BadInputError`` line."""
    path = Path(path)
    with open_input(path) as fp:
        st = os.fstat(fp.fileno())
        return _read_header(fp, path, st)


def _read_header(fp: BinaryIO, path: Path, st: os.stat_result) -> NpyFile:
    try:
        version = npformat.read_magic(fp)
    except ValueError as exc:
        raise _bad(path, f"not a .npy file ({exc})") from None
    length_format = _HEADER_LENGTH_FORMAT.get(version)
    if length_format is None:
        raise _bad(path, f"unsupported .npy format version {version[0]}.{version[1]}")

    # numpy reads the whole header before checking its size cap: check the declared length first
    # so that a corrupt length cannot make us read gigabytes.
    start = fp.tell()
    raw = fp.read(struct.calcsize(length_format))
    if len(raw) != struct.calcsize(length_format):
        raise _bad(path, "file ends inside the header")
    declared = struct.unpack(length_format, raw)[0]
    if declared > MAX_HEADER_SIZE:
        raise _bad(path, f"header length {declared} is absurd (numpy's limit is {MAX_HEADER_SIZE})")
    fp.seek(start)

    # Version 3.0 differs from 2.0 only in encoding the header as UTF-8 rather than Latin-1,
    # which matters only for non-ASCII field names of structured dtypes, refused anyway.
    reader = npformat.read_array_header_1_0 if version == (1, 0) else npformat.read_array_header_2_0
    descr: Any = None
    try:
        shape, fortran_order, dtype = reader(fp, max_header_size=MAX_HEADER_SIZE)
    except ValueError as exc:
        if not (isinstance(exc.__cause__, TypeError) and str(exc).startswith("descr ")):
            raise _bad(path, _header_problem(exc)) from None
        # Only the descr failed (numpy checks it last): np.save's form of float8_e5m2 ('<f1')
        # or complex32 ('<W4'). Keep its width; the user must name the type.
        shape, fortran_order, descr = _reread_header(fp, path, start, length_format)
        dtype = None
    except Exception as exc:  # numpy's parser also lets SyntaxError, TokenError ... through
        raise _bad(path, f"header is not a valid .npy header ({type(exc).__name__})") from None
    offset = fp.tell()

    if any(isinstance(n, bool) or n < 0 for n in shape):
        raise _bad(path, f"shape {shape!r} is not a tuple of non-negative integers")
    if dtype is None:
        itemsize = _width_of_unknown_descr(path, descr)
    else:
        itemsize = _check_dtype(path, dtype)
        descr = header_descr(dtype)
        if dtype.type is np.void:
            dtype = None  # raw bytes: the user names the type
    nbytes = math.prod(shape) * itemsize
    if nbytes > _MAX_BYTES:
        raise _bad(path, f"shape {shape!r} of {descr} describes more bytes than can exist")
    available = st.st_size - offset
    if available < nbytes:
        raise _bad(
            path,
            f"file is truncated: the header promises {nbytes} bytes of data, the file holds"
            f" {max(available, 0)}",
        )
    return NpyFile(
        path=path,
        version=version,
        shape=tuple(int(n) for n in shape),
        fortran_order=fortran_order,
        descr=descr,
        dtype=dtype,
        itemsize=itemsize,
        offset=offset,
        identity=(st.st_dev, st.st_ino),
    )


def _header_problem(exc: ValueError) -> str:
    text = str(exc).splitlines()[0]
    if "EOF" in text:
        return "file ends inside the header"
    return f"header is not a valid .npy header: {text[:200]}"


def _reread_header(
    fp: BinaryIO, path: Path, start: int, length_format: str
) -> tuple[tuple[int, ...], bool, str]:
    # numpy has already checked everything but the descr; read the same text again to get it.
    import ast

    fp.seek(start)
    (length,) = struct.unpack(length_format, fp.read(struct.calcsize(length_format)))
    text = fp.read(length).decode("latin1")
    try:
        d = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        raise _bad(path, "header is not a literal dict") from None
    descr = d["descr"]
    if not isinstance(descr, str):
        raise _bad(path, f"descr {descr!r} is not a dtype NumPy knows")
    return d["shape"], d["fortran_order"], descr


def _width_of_unknown_descr(path: Path, descr: str) -> int:
    # np.save's forms for ml_dtypes types NumPy cannot parse: byte-order char, letter, width.
    code = descr.lstrip("<>|=")
    if len(code) >= 2 and code[0].isalpha() and code[1:].isdigit() and int(code[1:]) > 0:
        return int(code[1:])
    raise _bad(path, f"descr {descr!r} is not a dtype NumPy knows")


def _check_dtype(path: Path, dtype: np.dtype) -> int:
    if dtype.hasobject:
        raise _bad(path, "holds Python objects (pickled data); promote never unpickles")
    if dtype.names is not None or dtype.subdtype is not None:
        raise _bad(path, f"has a structured dtype ({dtype}); only plain numeric arrays convert")
    if dtype.type is np.void:  # (ml_dtypes types have kind "V" too, but their own type)
        if dtype.itemsize == 0:
            raise _bad(path, "has a zero-width void dtype")
        return dtype.itemsize
    try:
        canonical_name(dtype)
    except UsageError:
        raise _bad(path, f"has dtype {dtype} ({dtype.descr[0][1]}), which is not numeric") from None
    return dtype.itemsize


def data_dtype(npy: NpyFile, explicit: str | None, flag: str) -> np.dtype:
    """The dtype of ``npy``'s data: the header's, or ``explicit`` (a canonical name) for raw
    bytes. An explicit dtype must agree with a typed header and match a raw one's width."""
    if explicit is None:
        if npy.dtype is None:
            raise _bad(
                npy.path,
                f"holds raw {npy.itemsize}-byte items (descr {npy.descr!r}, as np.save writes"
                f" ml_dtypes arrays); name their type with {flag} TYPE or {npy.path}:TYPE",
            )
        return npy.dtype
    try:
        given = numpy_dtype(explicit)
    except PromotionError as exc:
        raise UsageError(f"{flag} {explicit}: {exc}") from None
    if npy.dtype is not None:
        if canonical_name(npy.dtype) != explicit:
            raise UsageError(
                f"{npy.path} holds {canonical_name(npy.dtype)}, not {explicit}; {flag} only names"
                " the type of raw (void) data"
            )
        return npy.dtype
    if given.itemsize != npy.itemsize:
        raise UsageError(
            f"{npy.path} holds {npy.itemsize}-byte items but {explicit} is {given.itemsize}"
            f" byte{'s' if given.itemsize > 1 else ''} wide"
        )
    return given


# --- value checks ----------------------------------------------------------------------------

CHANGE_KINDS = ("nonfinite_to_int", "overflow", "out_of_range", "rounded")
CHANGE_LABELS = {
    "nonfinite_to_int": "NaN/inf into an integer",
    "overflow": "overflowed to inf/NaN",
    "out_of_range": "out of range (wrapped)",
    "rounded": "rounded (precision lost)",
}


@dataclass
class Changes:
    """How many elements change value on conversion, by kind. A NaN staying NaN is no change
    (payloads aside), nor is -0.0 becoming +0.0 in a type without negative zero."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHANGE_KINDS, 0))

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _kind(dtype: np.dtype) -> str:
    return CATALOGUE[canonical_name(dtype)].kind


def count_changes(src: np.ndarray, out: np.ndarray, into: Changes) -> None:
    """Add to ``into`` the elements of ``src`` whose value ``out`` (its cast) does not keep.

    Round-tripping finds every change but one: a signed <-> unsigned wrap of an integer that
    round-trips back to itself (int8 -1 -> uint16 65535 -> int8 -1), caught by comparing signs.
    """
    skind, tkind = _kind(src.dtype), _kind(out.dtype)
    s_inexact, t_inexact = skind in ("float", "complex"), tkind in ("float", "complex")
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ComplexWarning: dropping imaginary parts is counted
        back = out.astype(src.dtype)
        changed = back != src
        if s_inexact and t_inexact:
            changed &= ~(np.isnan(src) & np.isnan(out))
        if "complex" not in (skind, tkind):
            changed |= (src < 0) != (out < 0)
        if not changed.any():
            return
        nothing = np.zeros(src.shape, bool)
        src_finite = np.isfinite(src) if s_inexact else ~nothing
        overflow = changed & src_finite & ~np.isfinite(out) if t_inexact else nothing
        nonfinite = nothing if t_inexact else changed & ~src_finite
        if t_inexact or skind == "complex":
            wrapped = nothing  # complex -> integer: counted as rounded (imaginary part lost)
        elif skind == "float":
            wrapped = changed & src_finite & (np.trunc(src) != back)  # not just the fraction
        else:
            wrapped = changed  # integer -> integer changes only by wrapping
        rounded = changed & ~(overflow | nonfinite | wrapped)
    for kind, mask in zip(CHANGE_KINDS, (nonfinite, overflow, wrapped, rounded), strict=True):
        into.counts[kind] += int(np.count_nonzero(mask))


# --- jobs ----------------------------------------------------------------------------------

SKIP, COPY, SWAP, CONVERT = "skip", "copy", "byte-swap", "convert"


@dataclass(frozen=True)
class Job:
    """One input and what becomes of it."""

    npy: NpyFile
    source: np.dtype  # the data's dtype (possibly non-native byte order)
    target: np.dtype  # the result's dtype, native
    out: Path
    action: str  # SKIP, COPY (same dtype), SWAP (same type, other byte order), CONVERT

    @property
    def out_bytes(self) -> int:
        return self.npy.count * self.target.itemsize


def action_for(source: np.dtype, target: np.dtype, skip_unchanged: bool) -> str:
    if source == target:
        return SKIP if skip_unchanged else COPY
    if not source.isnative and source.newbyteorder("=") == target:
        return SWAP
    return CONVERT


def check_cast(source: np.dtype, target: np.dtype) -> None:
    """Refuse a cast NumPy/ml_dtypes does not implement (int4 -> float8_e8m0fnu ...)."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.zeros(1, source).astype(target)
    except (TypeError, ValueError):
        raise PromotionError(
            f"NumPy/ml_dtypes cannot cast {canonical_name(source)} to {canonical_name(target)}"
        ) from None


# --- streaming -------------------------------------------------------------------------------


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
                    atomic.write_all(self._fd, memoryview(buffer)[:nbytes])
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
    fp: BinaryIO,
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


def _sink_bytes(job: Job, chunk_bytes: int) -> int:
    return chunk_items(job, chunk_bytes) * job.target.itemsize


def _read_exactly(fp: BinaryIO, buf: np.ndarray, path: Path) -> None:
    view = memoryview(buf).cast("B")
    got = 0
    while got < len(view):
        n = fp.readinto(view[got:])
        if not n:
            raise _bad(path, "file became shorter while it was being read")
        got += n


def open_data(npy: NpyFile) -> BinaryIO:
    """Open ``npy`` again, positioned at its data; refuse if it is no longer the file whose
    header was checked."""
    fp = open_input(npy.path)
    st = os.fstat(fp.fileno())
    if (st.st_dev, st.st_ino) != npy.identity or st.st_size < npy.offset + npy.nbytes:
        fp.close()
        raise _bad(npy.path, "changed since its header was read; run again")
    fp.seek(npy.offset)
    return fp


# --- writing outputs ----------------------------------------------------------------------


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
                sink = FileSink(fd, _sink_bytes(job, chunk_bytes))
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


# --- a pair of files -------------------------------------------------------------------------


def result_type(req: Request, sources: Sequence[Source]) -> str:
    """Ask ``policy`` for the common type of the inputs: a 0-d array is a scalar ``S(t)``,
    anything else ``D(t)``. A refusal raises ``PromotionError`` with the policy's reason."""
    operands = [
        Operand(canonical_name(s.dtype), ZERO_D if s.npy.ndim == 0 else DIMENSIONED)
        for s in sources
    ]
    outcome = req.policy.result_type(operands, req.options)
    if outcome.result is None:
        raise PromotionError(
            outcome.text(req.notation), rule=outcome.rule, unsafe_result=outcome.unsafe_result
        )
    return outcome.result


@dataclass(frozen=True)
class Source:
    """An input file with the dtype its data is read as."""

    npy: NpyFile
    dtype: np.dtype


def plan(
    sources: Sequence[Source], result: str, outs: Sequence[Path], *, skip_unchanged: bool
) -> list[Job]:
    """One job per input: convert it to ``result`` (refused when no .npy can hold ``result``
    or NumPy cannot cast to it) and write it to its output."""
    target = numpy_dtype(result)
    jobs = []
    for source, out in zip(sources, outs, strict=True):
        check_cast(source.dtype, target)
        action = action_for(source.dtype, target, skip_unchanged)
        jobs.append(Job(source.npy, source.dtype, target, out, action))
    return jobs


def execute(
    jobs: Sequence[Job],
    *,
    force: bool = False,
    dry_run: bool = False,
    check_values: bool = False,
    strict: bool = False,
    void_header: bool = False,
    progress: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> tuple[list[Changes | None], bool]:
    """Run the jobs: every output is written to a temporary file, and only when all are complete
    (and, with ``strict``, no value changed) are they renamed to their final names.

    Returns the value changes per job (``None`` where not counted) and whether outputs were
    written."""
    check_outputs(jobs, force=force)
    counting = check_values or strict
    changes: list[Changes | None] = [
        Changes() if counting and job.action == CONVERT else None for job in jobs
    ]
    if dry_run:
        for job, tally in zip(jobs, changes, strict=True):
            if tally is not None:
                with open_data(job.npy) as fp:
                    stream(
                        fp,
                        job,
                        Sink(_sink_bytes(job, chunk_bytes)),
                        changes=tally,
                        progress=progress,
                        chunk_bytes=chunk_bytes,
                    )
        return changes, False
    check_space(jobs)
    pending: list[Pending] = []
    try:
        for job, tally in zip(jobs, changes, strict=True):
            if job.action != SKIP:
                pending.append(
                    write_output(
                        job,
                        void_header=void_header,
                        changes=tally,
                        progress=progress,
                        chunk_bytes=chunk_bytes,
                    )
                )
        if strict and any(c is not None and c.total for c in changes):
            discard(pending)
            return changes, False
        commit(pending, force=force)
    except BaseException:
        discard(pending)
        raise
    return changes, True
