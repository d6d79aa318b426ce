"""NumPy's own spellings of its numeric types, read exactly as ``np.dtype()`` reads them.

Under ``--policy numpy`` (in its default notation) and under ``--notation numpy`` a spelling means
what ``np.dtype()`` makes of it (NumPy 2.4.6, x86-64 Linux, measured spelling by spelling;
``promote verify numpy`` asks ``np.dtype()`` about every one): ``b`` is int8, ``f16`` longdouble,
``c32`` clongdouble. A spelling of NumPy's shape that ``np.dtype()`` refuses, or reads as a
non-numeric type, is a usage error, never another type. This is the numpy notation's ``reader``.
"""

from __future__ import annotations

import re

from promote_cli.errors import UsageError

# NumPy's numeric spellings as np.dtype() reads them (NumPy 2.4.6, x86-64 Linux, measured
# spelling by spelling): each type, its one- and two-part codes, then after ``|`` its names.
# A code takes a byte-order prefix (< > = |; a non-native order promotes as the native type); a
# name does not. ``int``, ``float`` and ``complex`` (int64, float64, complex128 to np.dtype) are
# Python scalar operands in promote, as NEP 50 treats Python's numbers; ``float128`` and
# ``complex256`` are NumPy's names for long double on this platform.
_NUMPY_SPELLINGS = """
bool         ? b1           | bool bool_
int8         b i1           | byte int8
uint8        B u1           | ubyte uint8
int16        h i2           | short int16
uint16       H u2           | ushort uint16
int32        i i4           | intc int32
uint32       I u4           | uintc uint32
int64        l q n p i8     | long longlong int_ intp int64
uint64       L Q N P u8     | ulong ulonglong uint uintp uint64
float16      e f2           | half float16
float32      f f4           | single float32
float64      d f8           | double float64
longdouble   g f16          | longdouble float128
complex64    F c8           | csingle complex64
complex128   D c16          | cdouble complex128
clongdouble  G c32          | clongdouble complex256
"""
# NumPy 1's aliases that NumPy 2 removed (np.dtype raises), and NumPy's non-numeric types.
_NUMPY_GONE = frozenset(
    [
        "float_",
        "complex_",
        "cfloat",
        "longfloat",
        "clongfloat",
        "singlecomplex",
        "int0",
        "uint0",
        "bool8",
        "float96",
        "complex192",
        "string_",
        "unicode_",
        "object0",
        "void0",
        "str0",
        "bytes0",
    ]
)
_NUMPY_NON_NUMERIC = frozenset(
    [
        "bytes",
        "str",
        "void",
        "object",
        "datetime64",
        "timedelta64",
        "bytes_",
        "str_",
        "object_",
        "void_",
        "datetime",
        "timedelta",
    ]
)
# A spelling of NumPy's shape: one character, a kind letter and a size (S16, U32, M8[s]).
# Compiled by ``re`` when first used: most readings never get that far, and compiling it on
# import cost every run that imports this module (pair under any policy: NumPy's reading of
# a spelling is one that ``ambiguous`` weighs) about 0.4 M instructions.
_NUMPY_SHAPED = r"^(?:.|[A-Za-z]\d+(?:\[\w*\])?)$"


def _numpy_tables() -> tuple[dict[str, str], dict[str, str]]:
    codes: dict[str, str] = {}
    names: dict[str, str] = {}
    for line in _NUMPY_SPELLINGS.strip().splitlines():
        head, _, tail = line.partition("|")
        canonical, *own = head.split()
        codes.update(dict.fromkeys(own, canonical))
        names.update(dict.fromkeys(tail.split(), canonical))
    return codes, names


NUMPY_CODES, NUMPY_NAMES = _numpy_tables()


def numpy_reading(spelling: str) -> str | None:
    """The canonical type np.dtype() makes of ``spelling``, or None when the spelling is not
    NumPy's to read (``bfloat16``, ``fp16``: other readings apply). A spelling of NumPy's
    shape that np.dtype() refuses, or reads as a non-numeric type (``S16`` is bytes, ``U32``
    unicode), is a usage error: never another type."""
    text = spelling.strip()
    body = text[1:] if text[:1] in ("<", ">", "=", "|") and len(text) > 1 else text
    if body in NUMPY_CODES:
        return NUMPY_CODES[body]
    if body != text:
        why = (
            f"NumPy takes a byte-order prefix only on a type code ({body!r} is a name)"
            if body in NUMPY_NAMES
            else f"np.dtype({text!r}) is not a numeric NumPy type"
        )
        raise UsageError(f"{text!r}: {why}")
    if text in NUMPY_NAMES:
        return NUMPY_NAMES[text]
    if text in ("int", "float", "complex"):
        return None  # a Python scalar operand
    lowered = text.lower()
    if text in _NUMPY_GONE or lowered in _NUMPY_GONE:
        raise UsageError(f"{text!r}: NumPy 2 removed this alias (np.dtype raises); use a name")
    flexible = text[:1] in ("S", "U", "V", "a", "O", "M", "m", "T") and re.match(
        _NUMPY_SHAPED, text
    )
    if lowered in _NUMPY_NON_NUMERIC or flexible:
        raise UsageError(f"{text!r} is not a numeric NumPy type (np.dtype: bytes, str ...)")
    if lowered in NUMPY_NAMES:
        raise UsageError(f"{text!r}: np.dtype() is case-sensitive; write {lowered!r}")
    if re.match(_NUMPY_SHAPED, text):
        raise UsageError(f"{text!r} is not a NumPy type code (np.dtype raises)")
    return None
