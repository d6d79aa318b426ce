"""Short spellings of dtypes, one table per notation, and reading a spelling back.

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
from promote_cli.errors import UsageError


class Notation(NamedTuple):
    name: str
    description: str
    labels: Mapping[str, str]  # canonical name -> label printed in this notation
    aliases: Mapping[str, str]  # further input spellings

    def label(self, canonical: str) -> str:
        return self.labels.get(canonical, canonical)

    def spellings(self) -> dict[str, str]:
        """Every input spelling of this notation to its canonical name: exact spellings, then
        case-folded ones where that folds onto nothing else (NumPy's g and G differ)."""
        if NOTATIONS.get(self.name) is self:  # the registered notations are built once
            return _registered_spellings(self.name)
        return self._build_spellings()

    def _build_spellings(self) -> dict[str, str]:
        exact = dict(self.aliases)
        exact.update({label: canonical for canonical, label in self.labels.items()})
        out = dict(exact)
        for spelling, canonical in exact.items():
            out.setdefault(spelling.lower(), canonical)
        return out


def _identity(*names: str) -> dict[str, str]:
    return {n: n for n in names}


_CANONICAL_ALIASES = {
    # NumPy / C / common ML spellings of the canonical types.
    "bool_": "bool",
    "boolean": "bool",
    "byte": "int8",
    "short": "int16",
    "intc": "int32",
    "long": "int64",
    "int_": "int64",
    "longlong": "int64",
    "ubyte": "uint8",
    "ushort": "uint16",
    "uintc": "uint32",
    "ulong": "uint64",
    "ulonglong": "uint64",
    "uint": "uint64",
    "half": "float16",
    "single": "float32",
    "double": "float64",
    "fp16": "float16",
    "fp32": "float32",
    "fp64": "float64",
    "bf16": "bfloat16",
    "cfloat": "complex64",
    "csingle": "complex64",
    "cdouble": "complex128",
    "chalf": "complex32",
}

# PyTorch's dtypes that promote_types answers for (quantized and bits types are left out).
_TORCH_TYPES = (
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex32",
    "complex64",
    "complex128",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float4_e2m1fn_x2",
    *(f"int{n}" for n in range(1, 8)),
    *(f"uint{n}" for n in range(1, 8)),
)

NOTATIONS: dict[str, Notation] = {
    "canonical": Notation(
        "canonical",
        "NumPy / ml_dtypes names (int8, bfloat16, float8_e4m3fn); Python scalars int*, float*,"
        " complex*",
        _identity(*CATALOGUE),
        _CANONICAL_ALIASES,
    ),
    "jax": Notation(
        "jax",
        "JAX's byte notation: kind letter + size in bytes (complex: bytes per component);"
        " i*, f*, c* are weakly typed Python scalars",
        {
            "bool": "b1",
            "uint8": "u1",
            "uint16": "u2",
            "uint32": "u4",
            "uint64": "u8",
            "int8": "i1",
            "int16": "i2",
            "int32": "i4",
            "int64": "i8",
            "bfloat16": "bf",
            "float16": "f2",
            "float32": "f4",
            "float64": "f8",
            "complex64": "c4",
            "complex128": "c8",
            "int*": "i*",
            "float*": "f*",
            "complex*": "c*",
        },
        # The prose of JAX's page also writes signed integers with an "s".
        {"s1": "int8", "s2": "int16", "s4": "int32", "s8": "int64"},
    ),
    "numpy": Notation(
        "numpy",
        "NumPy type codes: kind letter + item size in bytes (c8 = complex64, g = longdouble)",
        {
            "bool": "b1",
            "uint8": "u1",
            "uint16": "u2",
            "uint32": "u4",
            "uint64": "u8",
            "int8": "i1",
            "int16": "i2",
            "int32": "i4",
            "int64": "i8",
            "float16": "f2",
            "float32": "f4",
            "float64": "f8",
            "longdouble": "g",
            "complex64": "c8",
            "complex128": "c16",
            "clongdouble": "G",
        },
        {"?": "bool"},
    ),
    "openvino": Notation(
        "openvino",
        "OpenVINO element types: kind letter + size in bits",
        {
            "bool": "boolean",
            "uint1": "u1",
            "uint2": "u2",
            "uint3": "u3",
            "uint4": "u4",
            "uint6": "u6",
            "uint8": "u8",
            "uint16": "u16",
            "uint32": "u32",
            "uint64": "u64",
            "int4": "i4",
            "int8": "i8",
            "int16": "i16",
            "int32": "i32",
            "int64": "i64",
            "float8_e4m3fn": "f8e4m3",
            "float8_e5m2": "f8e5m2",
            "float4_e2m1fn": "f4e2m1",
            "float8_e8m0fnu": "f8e8m0",
            "nf4": "nf4",
            "bfloat16": "bf16",
            "float16": "f16",
            "float32": "f32",
            "float64": "f64",
            "string": "string",
        },
        # Precision names of OpenVINO IR files (<port precision="FP16">).
        {"fp16": "float16", "fp32": "float32", "fp64": "float64", "bool": "bool"},
    ),
    "ascend": Notation(
        "ascend",
        "Huawei Ascend aclnn short forms (s8 = int8, c32 = complex32) and ACL_* enum names",
        {
            "float32": "f32",
            "float16": "f16",
            "float64": "f64",
            "bfloat16": "bf16",
            "int8": "s8",
            "uint8": "u8",
            "int16": "s16",
            "uint16": "u16",
            "int32": "s32",
            "uint32": "u32",
            "int64": "s64",
            "uint64": "u64",
            "bool": "bool",
            "complex32": "c32",
            "complex64": "c64",
            "complex128": "c128",
        },
        {
            "acl_float": "float32",
            "acl_float16": "float16",
            "acl_double": "float64",
            "acl_bf16": "bfloat16",
            "acl_int8": "int8",
            "acl_uint8": "uint8",
            "acl_int16": "int16",
            "acl_uint16": "uint16",
            "acl_int32": "int32",
            "acl_uint32": "uint32",
            "acl_int64": "int64",
            "acl_uint64": "uint64",
            "acl_bool": "bool",
            "acl_complex32": "complex32",
            "acl_complex64": "complex64",
            "acl_complex128": "complex128",
        },
    ),
    "torch": Notation(
        "torch",
        "PyTorch's dtype names (torch.float16 is float16, torch.complex32 is complex32); its"
        " aliases half, double, long, short, cfloat, cdouble, chalf are read too",
        _identity(*_TORCH_TYPES),
        {},
    ),
    "tensorflow": Notation(
        "tensorflow",
        "TensorFlow's type-promotion guide: kind + bits (b = bool, i8 = int8, c128 ="
        " complex128); i32*, i64*, f32*, f64*, c128* are weak types (Python scalars,"
        " WeakTensors)",
        {
            "bool": "b",
            "uint8": "u8",
            "uint16": "u16",
            "uint32": "u32",
            "uint64": "u64",
            "int8": "i8",
            "int16": "i16",
            "int32": "i32",
            "int64": "i64",
            "bfloat16": "bf16",
            "float16": "f16",
            "float32": "f32",
            "float64": "f64",
            "complex64": "c64",
            "complex128": "c128",
            "int32*": "i32*",
            "int64*": "i64*",
            "float32*": "f32*",
            "float64*": "f64*",
            "complex128*": "c128*",
            "string": "string",
        },
        # TensorFlow's own source names bool _b8.
        {"b8": "bool"},
    ),
}

# Library prefixes a user may paste along with a name: np.float16, torch.bfloat16, ...
_PREFIX = re.compile(r"^(?:numpy|np|jax\.numpy|jnp|ml_dtypes|torch|tf|tensorflow)\.", re.I)
_WIDTH_CODE = re.compile(r"^([biufcs])(\d+)$")


def notation(name: str) -> Notation:
    try:
        return NOTATIONS[name]
    except KeyError:
        raise UsageError(
            f"unknown notation {name!r}; choose one of: {', '.join(NOTATIONS)}"
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
            family = [c for c in CATALOGUE if c.startswith(f"float{bits}_")]
            if family:
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


def display(canonical: str, nota: Notation) -> str:
    """The label of ``canonical`` in ``nota``, with the canonical name where it could mislead."""
    label = nota.label(canonical)
    if label != canonical and collides(label):
        return f"{label} ({canonical})"
    return label


def read_dtype(spelling: str, nota: Notation) -> str:
    """The canonical name a user meant by ``spelling``, read in ``nota`` first."""
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
    import difflib

    known = sorted(set(_all_readings()))
    close = difflib.get_close_matches(key.lower(), known, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise UsageError(f"unknown dtype {spelling!r} in {nota.name} notation{hint}")
