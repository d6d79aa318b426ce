"""Reading an input's header: every check a converter needs before it writes a byte, each
failure one ``BadInputError`` line naming the file.

The checks are ``numpy.lib.format``'s, in its order (magic, version, the header-size cap, a
literal dict with exactly the expected keys, a shape of ints, a bool ``fortran_order``, the
descr through NumPy's own ``descr_to_dtype``), done here on one parse of the header so that a
descr NumPy cannot parse (``np.save``'s ``<f1`` for float8_e5m2, ``<W4`` for complex32) is a
fact about the parsed dict, not an error to recover from. Then what a converter adds:
non-negative dimensions, a byte size that fits, data at least as long as the header says, and a
dtype that is plain numbers (object arrays are never unpickled; structured arrays are refused).
"""

from __future__ import annotations

import ast
import contextlib
import io
import math
import os
import stat
import struct
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npformat

from promote_cli.errors import BadInputError, PromoteError, PromotionError, UsageError
from promote_cli.npy.numpy_dtypes import (
    canonical_name,
    header_descr,
    load_ml_dtypes,
    numpy_dtype,
)

# numpy.lib.format's own cap on the header text; a longer header is refused before it is read.
MAX_HEADER_SIZE = 10_000
# Format version -> (how the header length is stored, how the header text is encoded).
_HEADER_FORMATS = {(1, 0): ("<H", "latin1"), (2, 0): ("<I", "latin1"), (3, 0): ("<I", "utf8")}
_EXPECTED_KEYS = {"descr", "fortran_order", "shape"}
# Byte sizes NumPy can address (np.intp); a larger shape is a corrupt or hostile header.
_MAX_BYTES = np.iinfo(np.intp).max


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
    # (st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns) when the header was read: a file
    # rewritten since has another; checked again after the last read of the data.
    signature: tuple[int, ...]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def count(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.count * self.itemsize


def bad(path: Path | str, problem: str) -> BadInputError:
    """The error for a problem with the file at ``path``: one line that starts with its name."""
    return BadInputError(f"{path}: {problem}")


def open_input(path: Path) -> io.FileIO:
    """Open an input for reading (never for writing); errors name the file."""
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise bad(path, "no such file") from None
    except IsADirectoryError:
        raise bad(path, "is a directory, not a .npy file") from None
    except PermissionError:
        raise bad(path, "permission denied (cannot read it)") from None
    except OSError as exc:
        raise bad(path, f"cannot open it: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise bad(
            path,
            "is a directory, not a .npy file" if stat.S_ISDIR(mode) else "is not a regular file",
        )
    return os.fdopen(fd, "rb", buffering=0)


def read_header(path: Path | str) -> NpyFile:
    """Read and check ``path``'s header; every problem is one ``BadInputError`` line.

    This is the boundary through which a file's header enters: whatever its checks (or NumPy
    and Python beneath them) raise about the bytes read is turned into that line here, once,
    so a header no check foresaw is still the file's fault (exit 2), never promote's."""
    path = Path(path)
    with open_input(path) as fp:
        try:
            return _read_header(fp, path, os.fstat(fp.fileno()))
        except PromoteError:
            raise
        except OSError as exc:  # EIO from a failing disk
            raise bad(path, f"cannot read it ({exc.strerror or exc})") from None
        except Exception as exc:  # RecursionError, MemoryError, a ValueError deep in NumPy ...
            raise _invalid(path, f"{type(exc).__name__}: {exc}") from None


def signature(st: os.stat_result) -> tuple[int, ...]:
    """What tells a file rewritten in place (or replaced) from the one that was read."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@contextlib.contextmanager
def open_data(npy: NpyFile) -> Iterator[io.FileIO]:
    """``npy`` opened again, positioned at its data. Refused when it is no longer the file
    whose header was checked, and, once the caller has read it, when it changed meanwhile
    (written in place, truncated, replaced): the data read would mix old and new bytes."""
    with open_input(npy.path) as fp:
        if signature(os.fstat(fp.fileno())) != npy.signature:
            raise bad(npy.path, "changed since its header was read; run again")
        fp.seek(npy.offset)
        yield fp
        if signature(os.fstat(fp.fileno())) != npy.signature:
            raise bad(npy.path, "changed while it was being read; nothing was written; run again")


def _read_header(fp: io.FileIO, path: Path, st: os.stat_result) -> NpyFile:
    try:
        version = npformat.read_magic(fp)
    except ValueError as exc:
        raise bad(path, f"not a .npy file ({exc})") from None
    if version not in _HEADER_FORMATS:
        raise bad(path, f"unsupported .npy format version {version[0]}.{version[1]}")
    header = _header_dict(fp, path, version)
    offset = fp.tell()

    shape, fortran_order = header["shape"], header["fortran_order"]
    if any(isinstance(n, bool) or n < 0 for n in shape):
        raise bad(path, f"shape {shape!r} is not a tuple of non-negative integers")
    descr, dtype, itemsize = _data_type(path, header["descr"])
    nbytes = math.prod(shape) * itemsize
    if nbytes > _MAX_BYTES:
        raise bad(path, f"shape {shape!r} of {descr} describes more bytes than can exist")
    _loadable(path, shape, itemsize)
    available = st.st_size - offset
    if available < nbytes:
        raise bad(
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
        signature=signature(st),
    )


def _loadable(path: Path, shape: tuple[int, ...], itemsize: int) -> None:
    """Refuse a shape ``np.load`` would refuse: more dimensions than NumPy has (64 in NumPy 2,
    32 before), or sizes whose byte count overflows even when another dimension is 0. NumPy
    itself is asked, on a view that allocates nothing."""
    try:
        zero = np.zeros(1, np.dtype((np.void, itemsize)))  # only the width matters here
        np.lib.stride_tricks.as_strided(zero, shape=shape, strides=(0,) * len(shape))
    except (ValueError, OverflowError, TypeError) as exc:
        raise bad(path, f"shape {_short(shape)} cannot be loaded by NumPy ({exc})") from None


def _short(shape: tuple[int, ...]) -> str:
    text = repr(shape)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(shape)} dimensions)"


def _header_dict(fp: io.FileIO, path: Path, version: tuple[int, int]) -> dict[str, Any]:
    """The header's dict, with exactly the expected keys, a shape of ints and a bool
    ``fortran_order``: ``numpy.lib.format``'s checks, on the one parse of the text."""
    length_format, encoding = _HEADER_FORMATS[version]
    size = struct.calcsize(length_format)
    raw = fp.read(size)
    if len(raw) != size:
        raise bad(path, "file ends inside the header")
    # numpy reads the whole header before checking its size cap: check the declared length
    # first so that a corrupt length cannot make us read gigabytes.
    (length,) = struct.unpack(length_format, raw)
    if length > MAX_HEADER_SIZE:
        raise bad(path, f"header length {length} is absurd (numpy's limit is {MAX_HEADER_SIZE})")
    raw = fp.read(length)
    if len(raw) != length:
        raise bad(path, "file ends inside the header")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        raise _invalid(path, f"not {encoding} text") from None
    header = _literal(text, version)
    if header is None:
        raise _invalid(path, f"cannot parse header: {text!r}")
    if not isinstance(header, dict):
        raise _invalid(path, f"header is not a dictionary: {header!r}")
    if header.keys() != _EXPECTED_KEYS:
        raise _invalid(
            path, f"header does not contain the correct keys: {sorted(header, key=repr)!r}"
        )
    shape = header["shape"]
    if not isinstance(shape, tuple) or not all(isinstance(n, int) for n in shape):
        raise _invalid(path, f"shape is not valid: {shape!r}")
    if not isinstance(header["fortran_order"], bool):
        raise _invalid(path, f"fortran_order is not a valid bool: {header['fortran_order']!r}")
    return header


def _invalid(path: Path, problem: str) -> BadInputError:
    return bad(path, f"header is not a valid .npy header: {problem[:200]}")


def _literal(text: str, version: tuple[int, int]) -> object | None:
    """The Python literal ``text`` spells, or None. Like NumPy, a header of format 1.0 or 2.0
    may come from Python 2, whose longs carry an ``L`` (``(3L, 4L)``)."""
    try:
        return ast.literal_eval(text)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        if version > (2, 0):
            return None
    try:
        return ast.literal_eval(_without_long_suffixes(text))
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError, tokenize.TokenError):
        return None


def _without_long_suffixes(text: str) -> str:
    tokens, after_number = [], False
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if not (after_number and token.type == tokenize.NAME and token.string == "L"):
            tokens.append(token)
        after_number = token.type == tokenize.NUMBER
    return tokenize.untokenize(tokens)


def _data_type(path: Path, descr: object) -> tuple[str, np.dtype | None, int]:
    """The header's descr (written back in its canonical form), the dtype its data is read as
    (None for raw bytes, whose type the user names) and the width of an item."""
    dtype = _numpy_reading(path, descr)
    if dtype is None:
        return _raw_descr(path, descr)
    if dtype.hasobject:
        raise bad(path, "holds Python objects (pickled data); promote never unpickles")
    if dtype.names is not None or dtype.subdtype is not None:
        raise bad(path, f"has a structured dtype ({dtype}); only plain numeric arrays convert")
    if dtype.type is np.void:  # (ml_dtypes types have kind "V" too, but their own type)
        if dtype.itemsize == 0:
            raise bad(path, "has a zero-width void dtype")
        return header_descr(dtype), None, dtype.itemsize
    try:
        canonical_name(dtype)
    except UsageError:
        if dtype.type.__module__ != "numpy":  # ml_dtypes 0.7's float8_e5m3fnu, bcomplex32 ...
            raise bad(
                path, f"has dtype {dtype} ({dtype.type.__module__}), which promote does not know"
            ) from None
        raise bad(path, f"has dtype {dtype} ({dtype.descr[0][1]}), which is not numeric") from None
    return header_descr(dtype), dtype, dtype.itemsize


def _numpy_reading(path: Path, descr: object) -> np.dtype | None:
    """The dtype NumPy reads ``descr`` as, or None when it reads none. A name NumPy alone does
    not know (``'bfloat16'``, as promote writes an output of an ml_dtypes type) is read again
    with ml_dtypes imported, which registers its types' names: only such a file pays for it."""
    try:
        return _descr_to_dtype(path, descr)
    except (TypeError, ValueError):
        if not (isinstance(descr, str) and descr.isidentifier()):
            return None
    load_ml_dtypes()
    try:
        return _descr_to_dtype(path, descr)
    except (TypeError, ValueError):
        return None


def _descr_to_dtype(path: Path, descr: object) -> np.dtype:
    try:
        return npformat.descr_to_dtype(descr)  # type: ignore[arg-type]  # NumPy judges it
    except (TypeError, ValueError):
        raise
    except Exception as exc:  # NumPy's parser also lets RecursionError, MemoryError ... through
        raise bad(path, f"header is not a valid .npy header ({type(exc).__name__})") from None


def _raw_descr(path: Path, descr: object) -> tuple[str, None, int]:
    # np.save's forms for ml_dtypes types NumPy cannot parse (byte-order char, letter, width:
    # '<f1', '<W4') are raw bytes of that width; the user names their type.
    code = descr.lstrip("<>|=") if isinstance(descr, str) else ""
    if len(code) >= 2 and code[0].isalpha() and code[1:].isdigit() and int(code[1:]) > 0:
        return str(descr), None, int(code[1:])
    raise bad(path, f"descr {descr!r} is not a dtype NumPy knows")


def data_dtype(npy: NpyFile, explicit: str | None, flag: str) -> np.dtype:
    """The dtype of ``npy``'s data: the header's, or ``explicit`` (a canonical name) for raw
    bytes. An explicit dtype must agree with a typed header and match a raw one's width."""
    if explicit is None:
        if npy.dtype is None:
            raise bad(
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
