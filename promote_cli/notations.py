"""Short spellings of dtypes, one grid of every type by every notation, and reading a spelling
back.

The seed documents use three notations that collide: JAX counts *bytes* (``i8`` = int64,
``c8`` = complex128), OpenVINO counts *bits* (``i8`` = int8, ``u1`` = a 1-bit type), Ascend
writes signed integers as ``s8``. Input is read in the active notation first; a spelling that
only one other notation knows is still accepted. Whenever a printed label could be read as
another type (in another notation, or by counting bits instead of bytes), the canonical name
is printed beside it: ``i8 (int64)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import NamedTuple

from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import PolicyDefinitionError, UsageError, did_you_mean


class Notation(NamedTuple):
    name: str
    description: str
    labels: Mapping[str, str]  # canonical name -> label printed in this notation
    aliases: Mapping[str, str]  # further input spellings
    # "numpy": NumPy's own spellings are read first, exactly as np.dtype() reads them
    # (``numpy_reading``); the numpy notation and the numpy policy's notation have it.
    dialect: str = ""

    def label(self, canonical: str) -> str:
        return self.labels.get(canonical, canonical)

    def by_label(self) -> dict[str, str]:
        """Each catalogued type under the label it prints as here (the inverse of ``label``):
        how a policy's declaration, written in its own notation, is read."""
        return {self.label(canonical): canonical for canonical in CATALOGUE}

    def spellings(self) -> dict[str, str]:
        """Every input spelling of this notation to its canonical name: exact spellings, then
        case-folded ones where that folds onto nothing else (NumPy's g and G differ)."""
        registered = NOTATIONS.get(self.name)
        if registered is not None and registered.labels is self.labels:  # built once
            return _registered_spellings(self.name)
        return self._build_spellings()

    def _build_spellings(self) -> dict[str, str]:
        exact = dict(self.aliases)
        exact.update({label: canonical for canonical, label in self.labels.items()})
        out = dict(exact)
        for spelling, canonical in exact.items():
            out.setdefault(spelling.lower(), canonical)
        return out


# Every catalogued type (a row) and its label in each notation (a column): ``=`` the canonical
# name itself, ``-`` none (the notation does not know the type; its canonical name is printed).
# Reading down a column shows what each label means there; reading across a row shows where one
# label means different types in two notations (``i8``: int64 in jax and numpy, int8 in openvino
# and tensorflow).
_GRID = """
canonical          jax  numpy  openvino  ascend  torch  tensorflow mlx  tinygrad    paddle mindspore
bool               b1   b1     boolean   =       =      b          =    =           =      =
int1               -    -      -         -       =      -          -    -           -      -
int2               -    -      -         -       =      -          -    -           -      -
int4               -    -      i4        -       =      -          -    -           -      -
int8               i1   i1     i8        s8      =      i8         =    =           =      =
int16              i2   i2     i16       s16     =      i16        =    =           =      =
int32              i4   i4     i32       s32     =      i32        =    =           =      =
int64              i8   i8     i64       s64     =      i64        =    =           =      =
uint1              -    -      u1        -       =      -          -    -           -      -
uint2              -    -      u2        -       =      -          -    -           -      -
uint4              -    -      u4        -       =      -          -    -           -      -
uint8              u1   u1     u8        u8      =      u8         =    =           =      =
uint16             u2   u2     u16       u16     =      u16        =    =           =      =
uint32             u4   u4     u32       u32     =      u32        =    =           =      =
uint64             u8   u8     u64       u64     =      u64        =    =           =      =
float4_e2m1fn      -    -      f4e2m1    -       -      -          -    -           -      -
float6_e2m3fn      -    -      -         -       -      -          -    -           -      -
float6_e3m2fn      -    -      -         -       -      -          -    -           -      -
float8_e3m4        -    -      -         -       -      -          -    -           -      -
float8_e4m3        -    -      -         -       -      -          -    -           -      -
float8_e4m3fn      -    -      f8e4m3    -       =      -          -    fp8e4m3     =      =
float8_e4m3fnuz    -    -      -         -       =      -          -    fp8e4m3fnuz -      -
float8_e4m3b11fnuz -    -      -         -       -      -          -    -           -      -
float8_e5m2        -    -      f8e5m2    -       =      -          -    fp8e5m2     =      =
float8_e5m2fnuz    -    -      -         -       =      -          -    fp8e5m2fnuz -      -
float8_e8m0fnu     -    -      f8e8m0    -       =      -          -    -           -      -
bfloat16           bf   -      bf16      bf16    =      bf16       =    =           =      =
float16            f2   f2     f16       f16     =      f16        =    =           =      =
float32            f4   f4     f32       f32     =      f32        =    =           =      =
float64            f8   f8     f64       f64     =      f64        =    =           =      =
longdouble         -    g      -         -       -      -          -    -           -      -
complex32          -    -      -         c32     =      -          -    -           -      -
complex64          c4   c8     -         c64     =      c64        =    -           =      =
complex128         c8   c16    -         c128    =      c128       -    -           =      =
clongdouble        -    G      -         -       -      -          -    -           -      -
uint3              -    -      u3        -       =      -          -    -           -      -
uint6              -    -      u6        -       =      -          -    -           -      -
nf4                -    -      =         -       -      -          -    -           -      -
string             -    -      =         -       -      =          -    -           -      -
dynamic            -    -      =         -       -      -          -    -           -      -
int3               -    -      -         -       =      -          -    -           -      -
int5               -    -      -         -       =      -          -    -           -      -
int6               -    -      -         -       =      -          -    -           -      -
int7               -    -      -         -       =      -          -    -           -      -
uint5              -    -      -         -       =      -          -    -           -      -
uint7              -    -      -         -       =      -          -    -           -      -
float4_e2m1fn_x2   -    -      -         -       =      -          -    -           -      -
int*               i*   -      -         -       -      -          -    -           -      -
float*             f*   -      -         -       -      -          -    -           -      -
complex*           c*   -      -         -       -      -          -    -           -      -
int32*             -    -      -         -       -      i32*       -    -           -      -
int64*             -    -      -         -       -      i64*       -    -           -      -
float32*           -    -      -         -       -      f32*       -    -           -      -
float64*           -    -      -         -       -      f64*       -    -           -      -
complex128*        -    -      -         -       -      c128*      -    -           -      -
"""

# Further input spellings, read but never printed: notation, canonical name, its aliases.
_ALIASES = """
canonical   bool        bool_ boolean
canonical   int8        byte
canonical   int16       short
canonical   int32       intc
canonical   int64       long int_ longlong
canonical   uint8       ubyte
canonical   uint16      ushort
canonical   uint32      uintc
canonical   uint64      ulong ulonglong uint
canonical   float16     half fp16
canonical   float32     single fp32
canonical   float64     double fp64
canonical   bfloat16    bf16
canonical   complex64   cfloat csingle
canonical   complex128  cdouble
canonical   complex32   chalf
jax         int8        s1
jax         int16       s2
jax         int32       s4
jax         int64       s8
numpy       bool        ?
openvino    float16     fp16
openvino    float32     fp32
openvino    float64     fp64
openvino    bool        bool
ascend      float32     acl_float
ascend      float16     acl_float16
ascend      float64     acl_double
ascend      bfloat16    acl_bf16
ascend      int8        acl_int8
ascend      uint8       acl_uint8
ascend      int16       acl_int16
ascend      uint16      acl_uint16
ascend      int32       acl_int32
ascend      uint32      acl_uint32
ascend      int64       acl_int64
ascend      uint64      acl_uint64
ascend      bool        acl_bool
ascend      complex32   acl_complex32
ascend      complex64   acl_complex64
ascend      complex128  acl_complex128
tensorflow  bool        b8
mlx         bool        bool_
tinygrad    int8        char
tinygrad    uint8       uchar
tinygrad    int16       short
tinygrad    uint16      ushort
tinygrad    uint32      uint
tinygrad    int64       long
tinygrad    uint64      ulong
tinygrad    float16     half
tinygrad    float64     double
tinygrad    int*        weakint
tinygrad    float*      weakfloat
paddle      int16       short
paddle      int64       long
paddle      float16     half
paddle      float64     double
paddle      complex64   cfloat
paddle      complex128  cdouble
mindspore   bool        bool_
mindspore   int8        byte
mindspore   uint8       ubyte
mindspore   int16       short
mindspore   uint16      ushort
mindspore   int32       intc
mindspore   uint32      uintc
mindspore   int64       long intp
mindspore   uint64      uintp
mindspore   float16     half
mindspore   float32     single
mindspore   float64     double
mindspore   complex64   cfloat
mindspore   complex128  cdouble
mindspore   float8_e4m3fn  Float8E4M3FN
mindspore   float8_e5m2    Float8E5M2
"""
# Why some aliases exist: the prose of JAX's page writes signed integers with an "s"; OpenVINO
# IR files name precisions FP16, FP32 (<port precision="FP16">); Ascend's ACL_* are aclDataType
# enum names; TensorFlow's own source names bool _b8. tinygrad, Paddle and MindSpore also call
# int32 ``int`` and float32 ``float``: those two words stay promote's Python scalars (P(int),
# P(float)), so they are not aliases here. tinygrad's ``uint`` is uint32 where NumPy's is uint64:
# the spelling is ambiguous outside the tinygrad notation. MindSpore prints Float32, UInt16 ...;
# case folding reads those, and its float8 names are aliases.

_DESCRIPTIONS = {
    "canonical": "NumPy / ml_dtypes names (int8, bfloat16, float8_e4m3fn); Python scalars int*,"
    " float*, complex*",
    "jax": "JAX's byte notation: kind letter + size in bytes (complex: bytes per component);"
    " i*, f*, c* are weakly typed Python scalars",
    "numpy": "NumPy type codes: kind letter + item size in bytes (c8 = complex64, g = longdouble)",
    "openvino": "OpenVINO element types: kind letter + size in bits",
    "ascend": "Huawei Ascend aclnn short forms (s8 = int8, c32 = complex32) and ACL_* enum names",
    "torch": "PyTorch's dtype names (torch.float16 is float16, torch.complex32 is complex32); its"
    " aliases half, double, long, short, cfloat, cdouble, chalf are read too",
    "tensorflow": "TensorFlow's type-promotion guide: kind + bits (b = bool, i8 = int8, c128 ="
    " complex128); i32*, i64*, f32*, f64*, c128* are weak types (Python scalars,"
    " WeakTensors)",
    "mlx": "MLX's dtype names (mlx.core.int8, mlx.core.bool_), the canonical names",
    "tinygrad": "tinygrad's dtypes: canonical names, fp8e4m3 (= float8_e4m3fn, OCP E4M3FN),"
    " fp8e5m2, fp8e4m3fnuz, fp8e5m2fnuz; its C aliases char, uchar, short, ushort, uint (uint32),"
    " long, ulong, half, double are read; weakint and weakfloat are int* and float*",
    "paddle": "PaddlePaddle's dtype names (paddle.float16); short, long, half, double, cfloat,"
    " cdouble are read too. paddle.uint16 prints as bfloat16 in Paddle; here uint16 is uint16",
    "mindspore": "MindSpore's dtype names (mindspore.float16, printed Float16); its aliases byte,"
    " ubyte, short, ushort, intc, uintc, long, intp, uintp, half, single, double, cfloat, cdouble"
    " are read too",
}


def _notations(grid: str, aliases: str) -> dict[str, Notation]:
    head, *rows = (line.split() for line in grid.strip().splitlines())
    labels: dict[str, dict[str, str]] = {name: {} for name in head}
    for canonical, *cells in rows:
        if len(cells) != len(head) - 1:
            raise PolicyDefinitionError(f"notation grid row {canonical}: {len(cells)} cells")
        labels["canonical"][canonical] = canonical
        for name, cell in zip(head[1:], cells, strict=True):
            if cell != "-":
                labels[name][canonical] = canonical if cell == "=" else cell
    more: dict[str, dict[str, str]] = {name: {} for name in head}
    for name, canonical, *spellings in (line.split() for line in aliases.strip().splitlines()):
        more[name].update(dict.fromkeys(spellings, canonical))
    return {
        name: Notation(name, _DESCRIPTIONS[name], labels[name], more[name], _DIALECTS.get(name, ""))
        for name in head
    }


_DIALECTS = {"numpy": "numpy"}
NOTATIONS: dict[str, Notation] = _notations(_GRID, _ALIASES)

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
_NUMPY_SHAPED = re.compile(r"^(?:.|[A-Za-z]\d+(?:\[\w*\])?)$")


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
    flexible = text[:1] in ("S", "U", "V", "a", "O", "M", "m", "T") and _NUMPY_SHAPED.match(text)
    if lowered in _NUMPY_NON_NUMERIC or flexible:
        raise UsageError(f"{text!r} is not a numeric NumPy type (np.dtype: bytes, str ...)")
    if lowered in NUMPY_NAMES:
        raise UsageError(f"{text!r}: np.dtype() is case-sensitive; write {lowered!r}")
    if _NUMPY_SHAPED.match(text):
        raise UsageError(f"{text!r} is not a NumPy type code (np.dtype raises)")
    return None


# Library prefixes a user may paste along with a name: np.float16, torch.bfloat16, ...
_PREFIX = re.compile(
    r"^(?:numpy|np|jax\.numpy|jnp|ml_dtypes|torch|tf|tensorflow|mlx\.core|mx|tinygrad\.dtypes"
    r"|dtypes|paddle|mindspore|ms|keras)\.",
    re.I,
)
_WIDTH_CODE = re.compile(r"^([biufcs])(\d+)$")


def notation(name: str) -> Notation:
    try:
        return NOTATIONS[name]
    except KeyError:
        raise UsageError(
            f"unknown notation {name!r}; choose one of: {', '.join(NOTATIONS)}"
            + did_you_mean(name, NOTATIONS)
        ) from None


def _width_readings(spelling: str) -> set[str]:
    """What a short width code could mean to a reader counting bits, or bytes (NumPy: per
    item; JAX: complex per component). Only readings that name a catalogued type count."""
    m = _WIDTH_CODE.match(spelling)
    if not m:
        return set()
    letter, n = m.group(1), int(m.group(2))
    kind = {"b": "bool", "i": "int", "s": "int", "u": "uint", "f": "float", "c": "complex"}[letter]
    out: set[str] = set()
    if kind == "bool":
        return {"bool"}
    for bits in (n, 8 * n) if kind != "complex" else (n, 8 * n, 16 * n):
        if kind == "float" and bits < 16:
            # "f8" read as bits means some 8-bit float; any member of the family will do.
            if any(d.is_float and d.bits == bits for d in CATALOGUE.values()):
                out.add(f"float{bits}_*")
            continue
        name = f"{kind}{bits}"
        if name in CATALOGUE:
            out.add(name)
    return out


@cache
def _registered_spellings(name: str) -> dict[str, str]:
    return NOTATIONS[name]._build_spellings()


@cache
def _all_readings() -> dict[str, dict[str, str]]:
    """spelling -> {notation name: canonical} over every notation table."""
    out: dict[str, dict[str, str]] = {}
    for nota in NOTATIONS.values():
        for spelling, canonical in nota.spellings().items():
            out.setdefault(spelling, {})[nota.name] = canonical
    return out


def collides(label: str) -> bool:
    """True when ``label`` could be read as more than one type."""
    meanings = set(_all_readings().get(label, {}).values()) | _width_readings(label.lower())
    return len(meanings) > 1


# How a reader names each notation when saying who reads a label otherwise.
TITLES = {
    "canonical": "canonical names",
    "jax": "JAX",
    "numpy": "NumPy type codes",
    "openvino": "OpenVINO",
    "ascend": "Ascend",
    "torch": "PyTorch",
    "tensorflow": "TensorFlow",
}


def misreadings(label: str, canonical: str) -> str:
    """Who reads ``label`` as a type other than ``canonical``, and as which: ``OpenVINO:
    uint1``, or ``OpenVINO, TensorFlow: int8``; ``as a width code (bits or bytes): a 4-bit
    float`` where no notation has the label but a width code would mean another type. "" when
    nobody misreads it."""
    by_type: dict[str, list[str]] = {}
    for name, meaning in _all_readings().get(label, {}).items():
        if meaning != canonical:
            by_type.setdefault(meaning, []).append(TITLES[name])
    parts = [f"{', '.join(names)}: {meaning}" for meaning, names in by_type.items()]
    for meaning in sorted(_width_readings(label.lower()) - {canonical} - set(by_type)):
        if meaning.endswith("_*"):
            bits = meaning.removeprefix("float").removesuffix("_*")
            meaning = f"{'an' if bits in ('8', '11', '18') else 'a'} {bits}-bit float"
        parts.append(f"as a width code (bits or bytes): {meaning}")
    return "; ".join(parts)


def display(canonical: str, nota: Notation) -> str:
    """The label of ``canonical`` in ``nota``, with the canonical name where it could mislead."""
    label = nota.label(canonical)
    if label != canonical and collides(label):
        return f"{label} ({canonical})"
    return label


def ambiguous(spelling: str) -> bool:
    """True when ``spelling``, typed by a user, could mean more than one type: it
    ``collides``, or NumPy's reading of it differs from another notation's."""
    if collides(spelling):
        return True
    try:
        mine = numpy_reading(spelling)
    except UsageError:
        return False
    if mine is None:
        return False
    others = set(_all_readings().get(spelling, {}).values()) | _width_readings(spelling.lower())
    return bool(others - {mine})


def read_dtype(spelling: str, nota: Notation) -> str:
    """The canonical name a user meant by ``spelling``, read in ``nota`` first (NumPy's
    spellings first of all in the numpy dialect)."""
    if nota.dialect == "numpy":
        found = numpy_reading(_PREFIX.sub("", spelling.strip()))
        if found is not None:
            return found
    key = _PREFIX.sub("", spelling.strip())
    own = nota.spellings()
    for candidate in (key, key.lower()):
        if candidate in own:
            return own[candidate]
    readings = _all_readings().get(key) or _all_readings().get(key.lower(), {})
    meanings = set(readings.values())
    if len(meanings) == 1:
        return meanings.pop()
    if len(meanings) > 1:
        says = "; ".join(f"{c} in {n} notation" for n, c in sorted(readings.items()))
        raise UsageError(
            f"{spelling!r} is ambiguous here ({says}): pass --notation or a canonical name"
        )
    if key.lower() in ("int", "float", "complex"):
        # Python's scalar types are operands, not dtypes: the nearest spelling (uint) is wrong.
        raise UsageError(
            f"{spelling!r} is a Python scalar, not a dtype: write {key.lower()} alone for a"
            f" Python scalar operand, or a dtype such as {key.lower()}32"
        )
    import difflib

    known = sorted(set(_all_readings()))
    close = difflib.get_close_matches(key.lower(), known, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise UsageError(f"unknown dtype {spelling!r} in {nota.name} notation{hint}")
