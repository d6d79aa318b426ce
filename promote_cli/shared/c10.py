"""PyTorch's c10 promotion, per torch release: ``promoteTypes`` (``c10/core/ScalarType.cpp``:
a 13 x 13 lookup table over the types PyTorch has had longest, stored in c10's own codes, then
the rules for the types added since) and ``result_type``'s operand categories
(``aten/src/ATen/native/TypeProperties.cpp``).

The ``torch`` policy is these rules (its module says where they come from and where they depart
from the neighbours'); Paddle's table starts from c10's, and Keras's torch backend adds with
``torch.add``, which promotes by ``result_type``: so they live here, below the frameworks that
share them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from promote_cli.dtypes import get as dtype
from promote_cli.engine import IDEMPOTENT, SYMMETRIC, Outcome, refuse
from promote_cli.halftable import TablePolicy, mirror
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, int_value
from promote_cli.record import Record

# c10's codes for the table's types (bytes per item; complex by component pairs).
_CODES = {
    "u1": "uint8",
    "i1": "int8",
    "i2": "int16",
    "i4": "int32",
    "i8": "int64",
    "f2": "float16",
    "f4": "float32",
    "f8": "float64",
    "c2": "complex32",
    "c4": "complex64",
    "c8": "complex128",
    "b1": "bool",
    "bf": "bfloat16",
    "bc": "bcomplex32",
}
# c10's _promoteTypesLookup in its own order; row i lists columns 0..i.
_LOWER_HALF = """
u1  u1
i1  i2 i1
i2  i2 i2 i2
i4  i4 i4 i4 i4
i8  i8 i8 i8 i8 i8
f2  f2 f2 f2 f2 f2 f2
f4  f4 f4 f4 f4 f4 f4 f4
f8  f8 f8 f8 f8 f8 f8 f8 f8
c2  c2 c2 c2 c2 c2 c2 c4 c8 c2
c4  c4 c4 c4 c4 c4 c4 c4 c8 c4 c4
c8  c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8
b1  u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1
bf  bf bf bf bf bf f4 f4 f8 c4 c4 c8 bf bf
bc  bc bc bc bc bc c4 c4 c8 c4 c4 c8 bc bc bc
"""

# PyTorch's dtypes that promote_types answers for (quantized and bits types left out), in
# c10's ScalarType order; the torch notation names exactly these.
TYPES = (
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
# The 1- to 7-bit shell types and the packed float4 are storage types: promote_types answers for
# them, but the default table shows the dtypes PyTorch computes with.
_SHELL = frozenset(
    t
    for t in TYPES
    if (dtype(t).is_integer and (dtype(t).bits or 0) < 8) or t == "float4_e2m1fn_x2"
)
DEFAULT_TYPES = tuple(t for t in TYPES if t not in _SHELL)
_FLOAT8 = frozenset(t for t in DEFAULT_TYPES if dtype(t).is_float and dtype(t).bits == 8)
# c10's "barebones unsigned" types, every unsigned type but uint8: added after the table,
# promoted only with floats.
_BAREBONES_UNSIGNED = frozenset(t for t in TYPES if dtype(t).kind == "uint" and t != "uint8")
# What a Python scalar is before promotion (wrapped numbers; float is the default dtype).
_WRAPPED = {"bool": "bool", "int*": "int64", "float*": "float32", "complex*": "complex64"}
# The types a release added (to its universe, its operations and its table), by release.
ADDED = {"2.14": ("bcomplex32",)}
# c10's toComplexType; bfloat16 has float32's range, so it maps to complex64 until torch 2.14
# gives it a complex type of its own.
_TO_COMPLEX = {
    "float16": "complex32",
    "bfloat16": "complex64",
    "float32": "complex64",
    "float64": "complex128",
}
_TO_COMPLEX_SINCE = {"2.14": {**_TO_COMPLEX, "bfloat16": "bcomplex32"}}
_CATEGORY_WORD = {DIMENSIONED: "dimensioned", ZERO_D: "zero-dim", PYTHON: "Python scalar"}


TABLE = mirror(_LOWER_HALF, _CODES)


def since(release: str, declared: Mapping[str, Any]) -> list[Any]:
    """The values of ``declared`` (keyed by the release that brought each, oldest first) that
    ``release`` has."""
    return [v for r, v in declared.items() if _number(r) <= _number(release)]


def _number(release: str) -> tuple[int, ...]:
    """``"2.14"`` as ``(2, 14)``: releases compare as numbers, not as text."""
    return tuple(int(part) for part in release.split("."))


def added_types(release: str) -> tuple[str, ...]:
    """The types ``release`` has beyond torch 2.13's (2.14 and later: bcomplex32)."""
    return tuple(t for types in since(release, ADDED) for t in types)


def _to_complex(release: str) -> Mapping[str, str]:
    return (since(release, _TO_COMPLEX_SINCE) or [_TO_COMPLEX])[-1]


def promote_types(a: str, b: str) -> Outcome:
    """``torch.promote_types(a, b)``: c10's promoteTypes, in its order of checks."""
    if a == b:
        return Outcome(a, "same-type", "a type promotes with itself to itself")
    eight = [t for t in (a, b) if t in _FLOAT8]
    if eight:
        return refuse("float8", f"PyTorch does not promote float8 types ({eight[0]}) at all")
    if a in _BAREBONES_UNSIGNED or b in _BAREBONES_UNSIGNED:
        floats = [t for t in (a, b) if dtype(t).is_float]
        if floats:
            return Outcome(
                floats[0],
                "unsigned-with-float",
                f"{a if floats[0] == b else b} promotes only with floating types; the float"
                f" {floats[0]} wins",
            )
        return refuse(
            "unsigned",
            f"PyTorch promotes uint16, uint32, uint64 (and uint1..uint7) only with floating"
            f" types, not {a} with {b}",
        )
    return _C10.lookup(a, b)


class _Seen(Record):
    """One category's running result."""

    dtype: str
    category: str


def _combine(higher: _Seen | None, lower: _Seen | None, release: str) -> Outcome | _Seen | None:
    """TypeProperties.cpp's combine_categories: a weaker category counts only when it is of a
    higher kind than the stronger one; a float meeting a complex becomes the float's complex
    type (``release``'s toComplexType)."""
    if higher is None or lower is None:
        return higher or lower
    h, lo = dtype(higher.dtype).kind, dtype(lower.dtype).kind
    if h == "complex":
        return higher
    if lo == "complex":
        if h != "float":
            return lower
        complex_type = _to_complex(release).get(higher.dtype)
        if complex_type is None:
            return refuse(
                "category",
                f"a complex {_CATEGORY_WORD[lower.category]} would make {higher.dtype} complex,"
                " and PyTorch has no complex type for it",
            )
        return _Seen(complex_type, higher.category)
    if h == "float":
        return higher
    if h == "bool" or lo == "float":
        out = promote_types(higher.dtype, lower.dtype)
        return out if out.refused else _Seen(out.result, higher.category)  # type: ignore[arg-type]
    return higher


def result_type(operands: Sequence[Operand], release: str) -> Outcome:
    """``torch.result_type`` over any number of operands (already normalised), as ``release``
    answers it."""
    state: dict[str, _Seen] = {}
    last: Outcome | None = None
    for op in operands:
        current = _wrapped(op) if op.category == PYTHON else op.dtype
        seen = state.get(op.category)
        if seen is None:
            state[op.category] = _Seen(current, op.category)
            continue
        last = promote_types(seen.dtype, current)
        if last.refused:
            return last
        state[op.category] = _Seen(last.result, op.category)  # type: ignore[arg-type]
    if len(state) == 1 and last is not None:
        return last
    inner = _combine(state.get(ZERO_D), state.get(PYTHON), release)
    if isinstance(inner, Outcome):
        return inner
    final = _combine(state.get(DIMENSIONED), inner, release)
    if isinstance(final, Outcome):
        return final
    assert final is not None
    return Outcome(final.dtype, *_why(state, final))


def _wrapped(op: Operand) -> str:
    """The dtype of a wrapped number: a Python int in [2**63, 2**64) is a uint64 one."""
    if (int_value(op) or 0) >= 2**63:
        return "uint64"
    return _WRAPPED[op.dtype]


def _why(state: Mapping[str, _Seen], final: _Seen) -> tuple[str, str]:
    ranked = [state[c] for c in (DIMENSIONED, ZERO_D, PYTHON) if c in state]
    parts = ", ".join(f"{_CATEGORY_WORD[s.category]} {s.dtype}" for s in ranked)
    if final.dtype == ranked[0].dtype:
        return "category", f"{parts}: the weaker categories are of no higher kind"
    return "category", f"{parts}: a weaker category of a higher kind lifts the result"


class C10Table(TablePolicy):
    """c10's table and what ``promote_types`` says around it: the torch policy's declaration,
    and the lookup ``promote_types`` makes."""

    table = TABLE
    universe = TYPES
    default_types = DEFAULT_TYPES
    known_unsupported: ClassVar[Mapping[str, str]] = {
        "float4_e2m1fn": "PyTorch has float4_e2m1fn only packed in pairs (float4_e2m1fn_x2)",
    }
    categories = frozenset({DIMENSIONED, ZERO_D, PYTHON})
    properties = frozenset({SYMMETRIC, IDEMPOTENT})
    cell_reason = "promote_types({a}, {b}) = {result}, c10's lookup table"
    outside_reason = (
        "{odd} is not in PyTorch's promotion table (promote_types trips an internal assertion)"
    )


_C10 = C10Table()
