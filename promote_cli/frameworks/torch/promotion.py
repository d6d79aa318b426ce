"""PyTorch: ``torch.promote_types`` and ``torch.result_type``, a table plus category rules.

Source: ``c10/core/ScalarType.cpp`` (``promoteTypes``: a 13 x 13 lookup table over the types
PyTorch has had longest, then rules for the types added since) and
``aten/src/ATen/native/TypeProperties.cpp`` (``result_type``: operand categories), checked cell
for cell, every category pair, against torch 2.13.0. The table is stored below in c10's own
codes (``u1`` uint8, ``i8`` int64, ``c2`` complex32, ``b1`` bool, ``bf`` bfloat16); it is
symmetric and only its lower half is kept.

``promote_types`` around the table, in c10's order: a type with itself is itself; any float8
type with another type raises; uint16/uint32/uint64 and the 1- to 7-bit unsigned shell types
promote only to a floating type they meet (``uint32 x float16 = float16``) and raise otherwise,
bool included; any other type missing from the table (int1..int7, float4_e2m1fn_x2 with a
signed or 8-bit type) trips an internal assertion, a refusal here.

``result_type`` sorts operands into three categories, strongest first: dimensioned tensors
``D(t)``, zero-dim tensors ``S(t)``, Python scalars ``P(bool)``, ``int``, ``float``,
``complex``. Types promote within a category; a weaker category only matters when it is of a
higher kind (bool < integer < floating < complex): ``D(int8) x S(int64) = int8``,
``D(int8) x S(float64) = float64``, ``D(float16) x P(complex) = complex32``. A Python int is
int64, a Python float is the default dtype, float32 (``torch.get_default_dtype()``; this policy
assumes the default), a Python complex its complex counterpart, complex64. An n-ary result is
computed the same way over all operands at once, which is not a fold of pairs:
``D(int8), S(float16), S(float64)`` gives float64.

Where it departs from its neighbours: bf16 x f16 = f32 and integers never widen a float (as in
JAX, unlike NumPy); uint8 x int8 = int16 but uint16/32/64 promote with nothing but floats (the
Ascend table refuses even that, and gives bf16 x c32 = c32 where PyTorch gives complex64);
uint8 x bool = uint8; float8 types promote with nothing; it has complex32; 0-d tensors are a
category of their own, as OpenVINO's ``pytorch_scalar_promotion`` imitates.

The two n-ary questions: the n-ary elementwise ops (``torch.addcmul(a, b, c)``, ``addcdiv``)
compute one dtype over all operands at once (``join``, TensorIterator's
``compute_common_dtype``); a chain ``(a + b) + c`` folds the binary rule, the intermediate
being a dimensioned tensor when either input was, else a 0-d one, and two Python scalars
meeting in Python first. ``int32, S(complex128), bfloat16`` gives complex64 at once but
complex128 as a chain.

Releases (``-O release=``; 2.13, torch 2.13.0, the default): torch 2.14 (2.14.1, 2.15.0
alike) adds bcomplex32, a complex of two bfloat16 halves, to the universe and to c10's table
(its row below, measured), and toComplexType maps bfloat16 to it, so ``D(bfloat16) x
P(complex)`` is bcomplex32 where 2.13 gives complex64; two dimensioned tensors are unchanged
(``bfloat16 x complex64 = complex64``).

Python scalar values: arithmetic never checks a value against the tensor's dtype (``uint8 +
300`` wraps to uint8); a Python int outside [-2**63, 2**64) raises ``OverflowError`` when it is
wrapped, and one in [2**63, 2**64) is wrapped as a uint64 number (so ``bool + 2**63`` is
refused, as uint64 and bool do not promote).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from promote_cli.dtypes import get as dtype
from promote_cli.engine import IDEMPOTENT, SYMMETRIC, Outcome, ref, refuse
from promote_cli.frameworks.torch import FRAMEWORK, RELEASES
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
    """The values of ``declared`` (keyed by the release that brought each) that ``release``
    has, oldest first."""
    at = RELEASES.index(release)
    return [v for r, v in declared.items() if RELEASES.index(r) <= at]


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
    return POLICY.lookup(a, b)


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


def result_type(operands: Sequence[Operand], release: str = RELEASES[0]) -> Outcome:
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


class TorchPolicy(TablePolicy, framework=FRAMEWORK):
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

    def universe_for(self, opts: Mapping[str, Any] | None) -> tuple[str, ...]:
        """torch 2.13's types, and those the release asked added (2.14: bcomplex32)."""
        return (*self.universe, *added_types(_release(opts)))

    def missing_reason(self, dtype: str) -> str:
        for first, types in ADDED.items():
            if dtype in types:
                return f"PyTorch has {ref(dtype)} only from {first} on (-O release={first})"
        return super().missing_reason(dtype)

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return result_type([a, b], _release(opts))

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        return result_type(operands, _release(opts))

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """A Python int must fit int64 or uint64 to be wrapped as a number."""
        value = int_value(scalar)
        if value is None or against is None:
            return None
        if value >= 2**64:
            return refuse(
                "value", f"PyTorch raises OverflowError: int too big to convert ({value})"
            )
        if value < -(2**63):
            return refuse(
                "value",
                f"PyTorch raises OverflowError: can't convert negative int to unsigned ({value}"
                f" is below int64 and so is read as a {ref('uint64')})",
            )
        return None


def _release(opts: Mapping[str, Any] | None) -> str:
    return str((opts or {}).get("release") or RELEASES[0])


POLICY = TorchPolicy()
