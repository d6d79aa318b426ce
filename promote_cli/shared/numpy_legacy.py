"""NumPy <= 1.26's legacy promotion (``-O promotion=legacy``): value-based casting.

Source: NumPy 1.26's ``PyArray_LegacyResultType`` and ``should_use_min_scalar``
(``numpy/core/src/multiarray/convert_datatype.c``) and ``min_scalar_type_num``, measured with
``promote measure numpy -O promotion=legacy --python <NumPy 1.26.4>``.

A *scalar* is a 0-d array ``S(t)``, a NumPy scalar ``N(t)`` or a Python scalar (a Python int
is a C long array, int64 here; one beyond int64 is uint64 when it fits, else an object array; a
float is float64, a complex complex128, a bool bool). When an operation has arrays (``D``; a
dtype passed to ``np.result_type`` counts as one) and scalars, and the scalars' highest *kind*
does not exceed the arrays' (bool < integers < floats and complex: float and complex are one
kind, signed and unsigned integers one), each scalar stands for ``np.min_scalar_type`` of its
value: the smallest unsigned type for a non-negative integer (marked "small" when it also fits
the signed type of that size, which then meets a signed type as that signed type), the
smallest signed one for a negative integer, float16 for a float within (-65000, 65000) or not
finite, float32 within (-3.4e38, 3.4e38), float64 (for a long double) within (-1.7e308,
1.7e308), complex64 when both parts are within float32's range, complex128 (for a complex long
double) when both are within float64's.
Then the types are folded left (the scalars first, in order, then the dtypes), and the
"small" mark survives the dtypes' part of the fold (``uint32, S(int16), int8`` is int32).
Otherwise every operand keeps its own dtype and they promote as NumPy 2 promotes them (no
min-scalar step).
So ``uint8 + 300`` is uint16, ``float32 + N(float64)`` float32, ``int8 + S(int64)=300`` int16,
``int8 + 1.0`` float64 (a float scalar outranks integer arrays) and ``float16 + 1j`` complex64.

Without a value an operand holds 1 (``True`` for bool), as a bare ``int`` does. A Python int
beyond uint64 (or below int64) makes an object array: refused here (NumPy's answer is not a
number type).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence

from promote_cli.dtypes import get
from promote_cli.operands import DIMENSIONED, PYTHON, Operand, Value

_KIND = {"bool": 0, "int": 1, "uint": 1, "float": 2, "complex": 2}
# A Python scalar as NumPy 1.x makes it an array.
_PYTHON = {"bool": "bool", "int*": "int64", "float*": "float64", "complex*": "complex128"}
_DEFAULT: dict[str, Value] = {"bool": True, "int*": 1, "float*": 1.0, "complex*": 1j}
_SIGNED_OF = {"uint8": "int8", "uint16": "int16", "uint32": "int32", "uint64": "int64"}


Pair = Callable[[str, str], str]  # NumPy's promotion of two builtin dtypes


# NumPy 1.26.4 crashes its process (SIGSEGV) in a bitwise operation of a long double array
# and a Python int it holds only in an object array: the array's elements become
# ``np.longdouble`` scalars, and ``np.longdouble(1) & 2**64`` crashes (measured: & | ^ << >>,
# their updates, bitwise_and and left_shift, either side, 2**64 and -2**63 - 1). The oracle
# does not ask it (``crashes``); the rules refuse it (``specials._searched``).
CRASHING_TYPES = frozenset({"longdouble", "clongdouble"})
CRASHING_OPERATIONS = frozenset(
    {"bitwise_and", "bitwise_left_shift", "&", "|", "^", "<<", ">>", "&=", "|=", "^=", "<<=", ">>="}
)


# The loops of the ufuncs whose types NumPy 1.26 finds by searching their loops in order
# (``linear_search_type_resolver``) rather than by ``np.result_type`` (add, subtract, multiply,
# maximum, minimum, the comparisons): ``np.<ufunc>.types`` on NumPy 1.26.4, object loops aside
# (b B h H i I l L q Q; l and q are both int64 on Linux x86-64).
_INTS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
_FLOATS = ("float16", "float32", "float64", "longdouble")
LOOPS: dict[str, tuple[str, ...]] = {
    "floor_divide": (*_INTS, *_FLOATS),
    "remainder": (*_INTS, *_FLOATS),
    "power": (*_INTS, *_FLOATS, "complex64", "complex128", "clongdouble"),
    "bitwise_and": ("bool", *_INTS),
    "left_shift": _INTS,
    "arctan2": _FLOATS,
}


class ObjectArray(ValueError):
    """A Python int NumPy can hold only in an object array."""


def value_of(op: Operand) -> Value:
    """The value an operand holds: its own, else 1 (True for bool). A 0-d array or NumPy
    scalar holds its value as its dtype does (``cast``: ``np.float32(3.5e38)`` is inf and
    ``np.int8(300)`` 44 in NumPy 1.26, so each counts as float16 and uint8 would)."""
    if op.value is not None:
        return op.value if op.category == PYTHON else cast(op.value, op.dtype)
    if op.category == PYTHON:
        return _DEFAULT[op.dtype]
    kind = get(op.dtype).kind
    return {"bool": True, "int": 1, "uint": 1, "float": 1.0, "complex": 1 + 0j}[kind]


def dtype_of(op: Operand) -> str:
    """The dtype of the array NumPy makes of ``op``; ``ObjectArray`` for a Python int beyond
    uint64 or below int64."""
    if op.category != PYTHON:
        return op.dtype
    if op.dtype == "int*":
        v = value_of(op)
        assert isinstance(v, int)
        if -(2**63) <= v < 2**63:
            return "int64"
        if 0 <= v < 2**64:
            return "uint64"
        raise ObjectArray(f"NumPy 1.x makes the Python int {v} an object array")
    return _PYTHON[op.dtype]


def object_int(op: Operand) -> bool:
    """Whether ``op`` is a Python int NumPy 1.x holds only in an object array."""
    if op.category != PYTHON or op.dtype != "int*":
        return False
    try:
        dtype_of(op)
    except ObjectArray:
        return True
    return False


def crashes(operation: str, operands: Sequence[Operand]) -> bool:
    """Whether NumPy 1.26.4 crashes on ``operation`` of ``operands`` (``CRASHING_TYPES``)."""
    return operation in CRASHING_OPERATIONS and crashing(operands)


def min_scalar(dtype: str, value: Value) -> tuple[str, bool]:
    """``np.min_scalar_type`` of a scalar of ``dtype`` holding ``value``, and whether it is a
    "small unsigned" (a non-negative integer that fits the signed type of that size too)."""
    kind = get(dtype).kind
    if kind == "bool":
        return "bool", False
    if kind in ("int", "uint"):
        v = int(value)  # type: ignore[arg-type]
        if v >= 0:
            for bits in (8, 16, 32, 64):
                if v < 2**bits:
                    return f"uint{bits}", v < 2 ** (bits - 1)
            return "uint64", False
        for bits in (8, 16, 32, 64):
            if v >= -(2 ** (bits - 1)):
                return f"int{bits}", False
        return "int64", False
    if kind == "float":
        f = float(value.real if isinstance(value, complex) else value)
        if dtype == "float16":
            return "float16", False
        if -65000 < f < 65000 or f != f or f in (float("inf"), float("-inf")):
            return "float16", False
        if dtype != "float32" and -3.4e38 < f < 3.4e38:
            return "float32", False
        if dtype == "longdouble" and -1.7e308 < f < 1.7e308:
            return "float64", False
        return dtype, False
    c = complex(value)
    if dtype == "complex64":
        return dtype, False
    if -3.4e38 < c.real < 3.4e38 and -3.4e38 < c.imag < 3.4e38:
        return "complex64", False
    if dtype == "clongdouble" and -1.7e308 < c.real < 1.7e308 and -1.7e308 < c.imag < 1.7e308:
        return "complex128", False
    return dtype, False


def _promote(pair: Pair, a: str, b: str, small_a: bool, small_b: bool) -> str:
    """``promote_types`` of convert_datatype.c: a small unsigned meets a signed integer (or a
    float) as the signed type of its size."""
    if small_a and get(b).kind not in ("bool", "uint"):
        a = _SIGNED_OF.get(a, a)
    elif small_b and get(a).kind not in ("bool", "uint"):
        b = _SIGNED_OF.get(b, b)
    return pair(a, b)


def result_type(
    scalars: Sequence[Operand],
    arrays: Sequence[Operand],
    pair: Pair,
    sequence: Callable[[Sequence[str]], str],
) -> tuple[str, bool]:
    """``PyArray_LegacyResultType``: ``scalars`` (0-d, in order) and ``arrays`` (dimensioned
    arrays and dtypes, in order), with NumPy's ``pair`` promotion and its n-ary ``sequence``
    (``promotion.py``'s); the result, and whether the min-scalar step ran. ``ObjectArray``
    when a Python int is an object array."""
    own = [dtype_of(op) for op in scalars]
    array_types = [op.dtype for op in arrays]
    use_min = _uses_min(own, array_types)
    if not use_min:
        types = [*own, *array_types]
        if len(types) == 1:
            return types[0], False
        return sequence(types), False
    ret, small = "", False
    for op, t in zip(scalars, own, strict=True):
        tmp, tmp_small = min_scalar(t, value_of(op))
        if not ret:
            ret, small = tmp, tmp_small
        else:
            ret, small = _promote(pair, tmp, ret, tmp_small, small), tmp_small and small
    for t in array_types:
        # The dtypes' loop leaves the flag as it is (measured: uint32, S(int16)=1, int8 is
        # int32: the small unsigned uint8 made uint32 "small", which meets int8 as int32).
        ret = _promote(pair, t, ret, False, small)
    return ret, True


def _uses_min(own: Sequence[str], array_types: Sequence[str]) -> bool:
    """``should_use_min_scalar``: scalars (their own dtypes) beside arrays, of a kind that
    does not exceed theirs."""
    if not (own and array_types):
        return False
    return max(_KIND[get(t).kind] for t in array_types) >= max(_KIND[get(t).kind] for t in own)


def loop(loops: Sequence[str], operands: Sequence[Operand], pair: Pair) -> str | None:
    """``linear_search_type_resolver``: the first of ``loops`` every operand casts to safely
    (``pair(t, loop) == loop``), a scalar by its value (``can_cast_scalar_to``: its
    ``min_scalar``, a small unsigned one as the signed type of its size unless the loop is
    unsigned) where ``should_use_min_scalar`` says so; None when no loop takes them.
    ``ObjectArray`` when a Python int is an object array."""
    scalars, arrays = split(operands)
    own = [dtype_of(op) for op in scalars]
    types: list[tuple[str, bool]] = [(op.dtype, False) for op in arrays]
    if _uses_min(own, [op.dtype for op in arrays]):
        types += [min_scalar(t, value_of(op)) for op, t in zip(scalars, own, strict=True)]
    else:
        types += [(t, False) for t in own]
    for found in loops:
        unsigned = get(found).kind == "uint"
        if all(
            pair(_SIGNED_OF.get(t, t) if small and not unsigned else t, found) == found
            for t, small in types
        ):
            return found
    return None


def crashing(operands: Sequence[Operand]) -> bool:
    """Whether ``operands`` are a long double array and a Python int NumPy 1.26.4 holds only in
    an object array, which crash its bitwise operations (``CRASHING_OPERATIONS``)."""
    return any(op.category != PYTHON and op.dtype in CRASHING_TYPES for op in operands) and any(
        object_int(op) for op in operands
    )


def split(operands: Sequence[Operand]) -> tuple[list[Operand], list[Operand]]:
    """The scalars (0-d arrays, NumPy and Python scalars) and the dimensioned arrays."""
    scalars = [op for op in operands if op.category != DIMENSIONED]
    arrays = [op for op in operands if op.category == DIMENSIONED]
    return scalars, arrays


def cast(value: Value, dtype: str) -> Value:
    """``value`` as a NumPy scalar of ``dtype`` holds it: integers wrap, bool is truth, a
    float16 or float32 (a complex64's parts) is rounded to its precision, inf beyond it."""
    t = get(dtype)
    if t.kind == "bool":
        return bool(value)
    if t.kind in ("int", "uint"):
        v = int(value.real if isinstance(value, complex) else value)
        bits = t.bits or 64
        if t.kind == "uint":
            return v % 2**bits
        return (v + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)
    if t.kind == "float":
        return _rounded(float(value.real if isinstance(value, complex) else value), dtype)
    c, part = complex(value), {"complex64": "float32"}.get(dtype, "float64")
    return complex(_rounded(c.real, part), _rounded(c.imag, part))


# The struct codes of the floats narrower than a Python float.
_PACKED = {"float16": "e", "float32": "f"}


def _rounded(f: float, dtype: str) -> float:
    """``f`` rounded to ``dtype``'s precision as C's conversion rounds it (to nearest, ties to
    even), inf beyond its range (struct raises where the rounded value overflows)."""
    code = _PACKED.get(dtype)
    if code is None:
        return f
    try:
        return float(struct.unpack(code, struct.pack(code, f))[0])
    except OverflowError:
        return math.copysign(math.inf, f)


def added(a: Operand, b: Operand, dtype: str) -> Value:
    """The value of ``a + b`` in ``dtype`` (NumPy's add of bools is their ``or``)."""
    if dtype == "bool":
        return bool(value_of(a)) or bool(value_of(b))
    return cast(value_of(a) + value_of(b), dtype)
