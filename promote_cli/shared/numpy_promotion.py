"""NumPy's promotion: ``numpy.promote_types`` and ``numpy.result_type`` of NumPy 2 (its table, NEP
50's Python scalars, the sequence algorithm of three or more), the answers measured with each
release of ml_dtypes imported (``ml_dtypes-<release>.json``, written by
``promote_cli/frameworks/numpy/ml_gen.py``) and NumPy 1.26's value-based casting
(``promotion=legacy``, ``numpy_legacy``). The ``numpy`` policy is this (its module says where
it comes from and where it departs from its neighbours); TF-NumPy's arithmetic calls
``np.result_type`` and array-api-strict's ``matmul`` NumPy's promotion, so it lives here, below
the three.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from promote_cli.dtypes import get, is_weak
from promote_cli.engine import IDEMPOTENT, SYMMETRIC, TOTAL, Outcome, decline, ref, refuse
from promote_cli.halftable import REFUSED, TablePolicy, mirror
from promote_cli.operands import (
    DIMENSIONED,
    NUMPY_SCALAR,
    PYTHON,
    ZERO_D,
    Operand,
    int_value,
)
from promote_cli.record import Record
from promote_cli.shared.numpy_names import COLUMN, ML_RELEASES

# numpy.promote_types in NumPy's type codes; row i lists columns 0..i.
_LOWER_HALF = """
b1   b1
u1   u1   u1
u2   u2   u2   u2
u4   u4   u4   u4   u4
u8   u8   u8   u8   u8   u8
i1   i1   i2   i4   i8   f8   i1
i2   i2   i2   i4   i8   f8   i2   i2
i4   i4   i4   i4   i8   f8   i4   i4   i4
i8   i8   i8   i8   i8   f8   i8   i8   i8   i8
f2   f2   f2   f4   f8   f8   f2   f4   f8   f8   f2
f4   f4   f4   f4   f8   f8   f4   f4   f8   f8   f4   f4
f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   f8
g    g    g    g    g    g    g    g    g    g    g    g    g    g
c8   c8   c8   c8   c16  c16  c8   c8   c16  c16  c8   c8   c16  G    c8
c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  G    c16  c16
G    G    G    G    G    G    G    G    G    G    G    G    G    G    G    G    G
"""

# NumPy's default type of each kind a Python scalar can be.
_DEFAULT = {"int": "int64", "float": "float64", "complex": "complex128"}
_COMPLEX_OF = {
    "float16": "complex64",
    "float32": "complex64",
    "float64": "complex128",
    "longdouble": "clongdouble",
}


TABLE = mirror(_LOWER_HALF, COLUMN.by_label())
TYPES = TABLE.order

# NumPy's legacy type numbers on 64-bit Linux (int64 is NPY_LONG, 7); float16 (NPY_HALF, 23)
# was added last and so ranks above every other builtin type in the n-ary sequence.
TYPE_NUMBER = {
    "bool": 0,
    "int8": 1,
    "uint8": 2,
    "int16": 3,
    "uint16": 4,
    "int32": 5,
    "uint32": 6,
    "int64": 7,
    "uint64": 8,
    "float32": 11,
    "float64": 12,
    "longdouble": 13,
    "complex64": 14,
    "complex128": 15,
    "clongdouble": 16,
    "float16": 23,
}
# The abstract DTypes of Python int, float and complex (a Python bool is the bool DType).
_ABSTRACT = {"int*": "int", "float*": "float", "complex*": "complex"}

# The ml_dtypes types: legacy *user* DTypes numbered from 256 (so above every builtin one) in
# the order the imported release of ml_dtypes registers them, which each release changes.
ML_TYPES = (
    *("int1", "int2", "int4", "uint1", "uint2", "uint4"),
    *("float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3"),
    *("float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2"),
    *("float8_e5m2fnuz", "float8_e8m0fnu", "bfloat16", "complex32"),
)
# NumPy's answers about them (``ml_dtypes-<release>.json``): np.result_type of a pair, a + b.
_TABLES = {"RESULT_TYPE": "result_type", "ADD": "add"}


class MlRelease(Record):
    """What NumPy answers once one release of ml_dtypes is imported, as measured: the
    versions measured, its types' legacy type numbers and the two tables of pairs."""

    numpy: str
    ml_dtypes: str
    numbers: Mapping[str, int]
    tables: Mapping[str, Mapping[tuple[str, str], tuple[str | None, str]]]


@cache
def release(name: str) -> MlRelease:
    """``ml_dtypes-<name>.json`` (``name`` a measured release, ``0.7``), read on first use
    (never at start-up)."""
    import json
    from importlib import resources

    text = resources.files(__package__).joinpath(f"ml_dtypes-{name}.json").read_text("utf-8")
    data = json.loads(text)
    tables = {}
    for table, key in _TABLES.items():
        cells: dict[tuple[str, str], tuple[str | None, str]] = {}
        for line in data[key]:
            a, b, rest = line.split(" ", 2)
            cells[a, b] = (None, rest[2:]) if rest.startswith(REFUSED) else (rest, "")
        tables[table] = cells
    return MlRelease(data["numpy"], data["ml_dtypes"], data["numbers"], tables)


def _ml(opts: Mapping[str, Any] | None) -> MlRelease | None:
    """The ml_dtypes release ``opts`` import (None: ml_dtypes is not imported)."""
    found = (opts or {}).get("ml_dtypes")
    if not found:
        return None
    return release(found if isinstance(found, str) else ML_RELEASES[-1])


def _key(op: Operand) -> str:
    """An operand as the measured tables key it: a Python bool is ``P(bool)``."""
    return "P(bool)" if op.category == PYTHON and op.dtype == "bool" else op.dtype


def _ml_cell(ml: MlRelease, table: str, a: str, b: str) -> Outcome:
    """The measured answer for keys ``a``, ``b`` (one an ml_dtypes type) as an outcome."""
    result, reason = ml.tables[table][a, b]
    asked, how = (
        ("np.result_type(a, b)", "the casts ml_dtypes registers as safe")
        if table == "RESULT_TYPE"
        else ("a + b on arrays", "the ufunc's search for a loop both inputs cast to safely")
    )
    if result is None:
        return refuse("ml_dtypes", f"with ml_dtypes imported, {asked} raises {reason}")
    measured = f"NumPy {ml.numpy}, ml_dtypes {ml.ml_dtypes}"
    why = f"with ml_dtypes imported, {asked} gives {ref(result)} ({how}; measured: {measured})"
    return Outcome(result, "ml_dtypes", why)


_OBJECT_NUMBER = 17  # NPY_OBJECT


def _common(cls: str, other: str, ml: MlRelease | None) -> str | None:
    """``cls.__common_dtype__(other)`` for builtin and abstract DTypes; None for NotImplemented.
    A builtin type defers to a higher type number (``default_builtin_common_dtype``); the
    abstract ones answer as ``abstractdtypes.c`` does. ``object`` (type number 17, outside
    the universe; TensorFlow's legacy mode reads a string tensor as it) knows every DType; of
    the others only float16 (23) and ml_dtypes' types know it."""
    if "object" in (cls, other):
        higher = cls in ML_TYPES or TYPE_NUMBER.get(cls, 0) > _OBJECT_NUMBER
        return "object" if cls == "object" or higher else None
    if cls in ML_TYPES:
        assert ml is not None  # an ml_dtypes type is an operand only once it is imported
        # legacy_userdtype_common_dtype_function: defer to a Python scalar's abstract DType
        # and to a higher type number; else the answer ml_dtypes' safe casts give.
        if other in _ABSTRACT or ml.numbers[cls] < ml.numbers.get(other, 0):
            return None
        return ml.tables["RESULT_TYPE"][cls, other][0]
    if other in ML_TYPES:
        assert ml is not None
        if cls in TYPE_NUMBER:  # a builtin DType defers to a higher type number
            return None
        # An abstract DType tries a small type of its kind, then the default (its fallback
        # for legacy user DTypes): the measured np.result_type of the pair.
        return ml.tables["RESULT_TYPE"][other, cls][0]
    if cls in TYPE_NUMBER:
        if other in TYPE_NUMBER:
            return None if TYPE_NUMBER[other] > TYPE_NUMBER[cls] else TABLE.cells[cls, other]
        return _with_python(cls, _ABSTRACT[other])
    kind = _ABSTRACT[cls]
    if other in TYPE_NUMBER:
        strong = get(other).kind
        if kind == "int":
            return _DEFAULT["int"] if strong == "bool" else None
        return _DEFAULT[kind] if strong in ("bool", "int", "uint") else None
    ranks = ("int", "float", "complex")
    return cls if ranks.index(kind) >= ranks.index(_ABSTRACT[other]) else None


def _with_python(strong: str, kind: str) -> str | None:
    """A builtin DType's common DType with a Python scalar's abstract one (None: defer)."""
    own = get(strong).kind
    if kind == "int":
        return strong if own != "bool" else None
    if kind == "float":
        return strong if own in ("float", "complex") else None
    if own == "complex":
        return strong
    return _COMPLEX_OF.get(strong)


def _common_dtype(a: str, b: str, ml: MlRelease | None) -> str | None:
    """``PyArray_CommonDType``: ask ``a``, then ``b``; None when neither knows."""
    if a == b:
        return a
    out = _common(a, b, ml)
    return out if out is not None else _common(b, a, ml)


def _reduce(dts: list[str | None], length: int, ml: MlRelease | None) -> str | None:
    """``reduce_dtypes_to_most_knowledgeable``: pairs from both ends; the more knowledgeable
    of each pair moves to the front, a fully known one is dropped."""
    half = length // 2
    result = None
    for low in range(half):
        high = length - 1 - low
        same = dts[high] == dts[low]
        result = dts[low] if same else _common(dts[low], dts[high], ml)  # type: ignore[arg-type]
        if result is None:
            dts[low], dts[high] = dts[high], dts[low]
        elif result == dts[low]:
            dts[high] = None
    if length == 2:
        return result
    return _reduce(dts, length - half, ml)


def declines_sequence(ml: MlRelease | None, dtypes: Sequence[str]) -> Outcome | None:
    """The refusal of an n-ary sequence promote has not derived (three or more DTypes with a
    type of an ml_dtypes release whose DTypes it does not model), or None."""
    if ml is None or ml.ml_dtypes in _SEQUENCE_MODELLED or len(dtypes) < 3:
        return None
    if not any(t in ML_TYPES for t in dtypes):
        return None
    return decline(
        f"np.result_type of three or more operands with an ml_dtypes {ml.ml_dtypes} type (its"
        " DTypes take part in NumPy's sequence in a way promote has not derived; pairs and"
        " chains are modelled)"
    )


def promote_sequence(dtypes: Sequence[str], ml: MlRelease | None = None) -> tuple[str, str] | str:
    """``PyArray_PromoteDTypeSequence``: the common DType of all ``dtypes`` (abstract ones
    included) and the main DType that decided, or the DType that could not be promoted;
    ``ml``: the release of ml_dtypes imported, if any."""
    dts: list[str | None] = list(dtypes)
    result = _reduce(dts, len(dts), ml)
    main = dts[0]
    assert main is not None
    start = 1 if result is None else 2
    for other in dts[start:]:
        if other is None:
            continue
        promoted = _common(main, other, ml)
        if promoted is None:
            return other
        result = promoted if result is None else _common_dtype(result, promoted, ml)
        if result is None:
            return other
    return (result or main, main)


class NumpyPromotion(TablePolicy):
    """NumPy's promotion, as the numpy policy, TF-NumPy's ``np.result_type`` and
    array-api-strict's ``matmul`` apply it (under the option setting given: ``ml_dtypes``,
    ``promotion``)."""

    name = "numpy"
    title = "NumPy"
    declared_in = COLUMN
    table = TABLE
    universe = TYPES
    default_types = TYPES
    # 0-d arrays and NumPy scalars are arrays under NEP 50 (they are asked, and enumerated,
    # only under promotion=legacy, where their values count: ``operands``).
    categories = frozenset({DIMENSIONED, ZERO_D, NUMPY_SCALAR, PYTHON})
    holds_values = True
    properties = frozenset({SYMMETRIC, IDEMPOTENT, TOTAL})
    cell_reason = "numpy.promote_types"
    option_types: ClassVar[Mapping[str, tuple[str, ...]]] = {"ml_dtypes": ML_TYPES}

    def universe_for(self, opts: Mapping[str, Any] | None) -> tuple[str, ...]:
        """NumPy's types, and those of the release of ml_dtypes imported (0.5 has no int1,
        uint1 or complex32)."""
        ml = _ml(opts)
        return self.universe if ml is None else (*self.universe, *ml.numbers)

    def operands(self, opts: Mapping[str, Any] | None = None) -> tuple[Operand, ...]:
        """Under NEP 50 (``weak``) the dtypes as arrays and the Python scalars: a 0-d array
        and a NumPy scalar are arrays of their dtype there. Under ``legacy`` each builtin type
        also as a 0-d array and a NumPy scalar (each holding 1), whose values count."""
        every = super().operands(opts)
        if not _legacy(opts):
            return tuple(op for op in every if op.category in (DIMENSIONED, PYTHON))
        builtin = [op for op in every if op.dtype not in ML_TYPES]
        arrays = [op for op in builtin if op.category != PYTHON]
        scalars = [Operand(op.dtype, NUMPY_SCALAR) for op in arrays if op.category == ZERO_D]
        return (*arrays, *scalars, *(op for op in builtin if op.category == PYTHON))

    def held_values(self, opts: Mapping[str, Any], values: Sequence[Any]) -> tuple[Operand, ...]:
        """Under ``legacy``: a 0-d int64 array holding each integer of ``values`` that int64
        holds, and a NumPy float64 scalar holding each float (their values count)."""
        if not _legacy(opts):
            return ()
        ints = [v for v in values if type(v) is int and -(2**63) <= v < 2**63]
        floats = [v for v in values if type(v) is float]
        return (
            *(Operand("int64", ZERO_D, v) for v in ints),
            *(Operand("float64", NUMPY_SCALAR, v) for v in floats),
        )

    def excluded(self, opts: Mapping[str, Any]) -> str:
        if _legacy(opts) and opts.get("ml_dtypes"):
            return _NOT_MEASURED
        return ""

    def normalise(self, op: Operand, opts: Mapping[str, Any] | None = None) -> Operand | Outcome:
        ml = _ml(opts)
        if ml is not None and op.dtype in ML_TYPES and op.dtype not in ml.numbers:
            return refuse("unsupported", f"ml_dtypes {ml.ml_dtypes} has no {ref(op.dtype)} type")
        found = super().normalise(op, opts)
        if isinstance(found, Outcome):
            return found
        if found.dtype in ML_TYPES and _legacy(opts):
            return refuse("legacy", _NOT_MEASURED)
        if found.category in (DIMENSIONED, PYTHON):
            return found
        if found.value is not None and not _legacy(opts):
            return _held_fits(found) or found
        return found

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        if _legacy(opts):
            return _legacy_outcome([a, b])
        ml = _ml(opts)
        if ml is not None and (a.dtype in ML_TYPES or b.dtype in ML_TYPES):
            return _ml_cell(ml, "RESULT_TYPE", _key(a), _key(b))
        weak_a, weak_b = is_weak(a.dtype), is_weak(b.dtype)
        if not (weak_a or weak_b):
            return self.lookup(a.dtype, b.dtype)
        if weak_a and weak_b:
            kind = max(get(a.dtype), get(b.dtype), key=lambda t: t.rank).kind
            return Outcome(_DEFAULT[kind], "nep50", f"two Python scalars: NumPy's default {kind}")
        strong, weak = (get(b.dtype), get(a.dtype)) if weak_a else (get(a.dtype), get(b.dtype))
        kind, scalar = strong.kind, weak.kind
        if strong.rank >= weak.rank:
            why = (
                f"NEP 50: a Python {scalar} does not change the dtype of an array of"
                f" {ref(strong.name)}"
            )
            return Outcome(strong.name, "nep50", why)
        if scalar == "complex" and kind == "float":
            result = _COMPLEX_OF[strong.name]
            return Outcome(
                result, "nep50", f"NEP 50: a Python complex keeps {strong.name}'s precision"
            )
        widened = TABLE.cells[strong.name, _DEFAULT[scalar]]
        assert widened is not None  # NumPy's table refuses no pair
        why = f"NEP 50: a Python {scalar} outranks {kind}; NumPy's default {_DEFAULT[scalar]}"
        return Outcome(widened, "nep50", why)

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """``np.result_type`` over all operands at once (``promote_sequence``)."""
        if _legacy(opts):
            return _legacy_outcome(operands)
        if len(operands) == 2:
            return self.decide(operands[0], operands[1], opts)
        ml = _ml(opts)
        declined = declines_sequence(ml, [op.dtype for op in operands])
        if declined is not None:
            return declined
        # np.result_type passes the dtypes first, then the Python scalars (which it has made
        # arrays): the sequence's order decides which DType leads.
        ordered = sorted(operands, key=lambda op: op.category == PYTHON)
        found = promote_sequence([op.dtype for op in ordered], ml)
        if isinstance(found, str):
            return refuse(
                "sequence",
                f"NumPy cannot promote {ref(found)} with the others: no common DType",
            )
        result, main = found
        result = _DEFAULT.get(_ABSTRACT.get(result, ""), result)
        named = f"a Python {_ABSTRACT[main]}" if main in _ABSTRACT else ref(main)
        why = (
            f"np.result_type promotes the sequence at once: {named}, the most knowledgeable"
            " DType, promotes each operand and those results are joined (not a fold of pairs)"
        )
        return Outcome(result, "sequence", why)

    def operate(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """``a + b``: with an ml_dtypes type, the ufunc's loop search as measured (it differs
        from np.result_type and depends on the order); else ``promote``."""
        ml = _ml(opts)
        if ml is not None and (a.dtype in ML_TYPES or b.dtype in ML_TYPES):
            return _ml_cell(ml, "ADD", _key(a), _key(b))
        if (
            a.category == PYTHON
            and a.dtype == "complex*"
            and b == Operand("float64", NUMPY_SCALAR, b.value)
        ):
            # np.float64 is a Python float: complex.__add__ takes it, and NumPy is not asked.
            why = "a Python complex adds a np.float64 itself (np.float64 is a Python float)"
            return Outcome("complex*", "python", why)
        return self.promote(a, b, opts)

    def carried(self, a: Operand, b: Operand, out: Outcome, opts: Mapping[str, Any]) -> Operand:
        """Under ``legacy`` ``a + b`` of scalars only is a NumPy scalar holding the sum, whose
        value the next step looks at."""
        from promote_cli.shared import numpy_legacy as legacy

        if out.result == "complex*":  # Python added them (``operate``)
            return Operand("complex*", PYTHON, legacy.value_of(a) + legacy.value_of(b))
        if not _legacy(opts) or DIMENSIONED in (a.category, b.category):
            return super().carried(a, b, out, opts)
        assert out.result is not None
        return Operand(out.result, NUMPY_SCALAR, legacy.added(a, b, out.result))

    def _values_checked(
        self, operands: Sequence[Operand], opts: Mapping[str, Any]
    ) -> Outcome | None:
        if len(operands) == 2 and _legacy(opts):
            raised = _long_scalar_add(*operands)
            if raised is not None:
                return raised
        return super()._values_checked(operands, opts)

    def _operation(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        raised = _long_scalar_add(a, b) if _legacy(opts) else None
        return raised or super()._operation(a, b, opts)

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """NumPy 2's conversion of a Python int in an operation (see the module docstring);
        under ``legacy`` a value never raises (its array only widens)."""
        if _legacy(opts):
            return None
        value = int_value(scalar)
        if value is None or against is None:
            return None
        python_int = Operand("int*", PYTHON)
        if against in ML_TYPES:
            result = self.operate(Operand(against), python_int, opts).result
        else:
            result = self.decide(Operand(against), python_int, opts).result
        ml = _ml(opts)
        if result is not None and ml is not None and against in ML_TYPES:
            if not get(result).is_integer:
                if -(2**63) <= value < 2**63 or ml.ml_dtypes in _FLOATS_TAKE_ANY_INT:
                    return None
                return refuse(
                    "value",
                    f"ml_dtypes raises TypeError: expected number, got int (a Python int outside"
                    f" the C long range meets {ref(against)})",
                )
            if result in ML_TYPES:
                # ml_dtypes 0.7's integers: NumPy converts the Python int to int16 (uint8 for
                # an unsigned one), which raises outside its range, and ml_dtypes wraps it
                # (``int4_array + 300`` is int4 -4; measured)
                result = "uint8" if get(result).kind == "uint" else "int16"
        if result is None:
            return None
        if not get(result).is_integer:
            return _as_float(value, result)
        bits = get(result).bits or 0
        low, high = (
            (0, 2**bits - 1)
            if get(result).kind == "uint"
            else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        )
        if low <= value <= high:
            return None
        unsigned_64 = result == "uint64" and -(2**63) <= value < 0
        if not unsigned_64 and not -(2**63) <= value < 2**63:
            why = "Python int too large to convert to C long"
        else:
            why = f"Python integer {value} out of bounds for {result}"
        return refuse(
            "value",
            f"NumPy raises OverflowError: {why} (np.result_type, which never looks at values,"
            f" would say {ref(result)})",
        )


# The ml_dtypes releases whose types take part in NumPy's n-ary sequence as ``promote_sequence``
# models it (legacy user DTypes), checked against every measured triple.
_SEQUENCE_MODELLED = frozenset({"0.5.4", "0.6.0"})
# The ml_dtypes releases whose floats take any Python int (``bfloat16_array + 2**63`` is
# bfloat16; under 0.6.0 it raises TypeError "expected number, got int"), measured.
_FLOATS_TAKE_ANY_INT = frozenset({"0.7.0"})

_NOT_MEASURED = "not measured under promotion=legacy (NumPy 1.26.4 without ml_dtypes)"


def _legacy(opts: Mapping[str, Any] | None) -> bool:
    return (opts or {}).get("promotion") == "legacy"


def _long_scalar_add(a: Operand, b: Operand) -> Outcome | None:
    """NumPy 1.26's ``np.longdouble(1) + 2**63`` (a long double NumPy scalar, real or complex,
    with a Python int int64 does not hold) raises TypeError under ``legacy``: the scalar's
    ``__add__`` cannot convert the int, and neither side's operator takes the other (measured
    by ``nep50``; an array of either type, 0-d or not, adds it)."""
    for scalar, other in ((a, b), (b, a)):
        value = int_value(other)
        if (
            scalar.category == NUMPY_SCALAR
            and scalar.dtype in ("longdouble", "clongdouble")
            and value is not None
            and not -(2**63) <= value < 2**63
        ):
            return refuse(
                "legacy",
                f"NumPy 1.26 raises TypeError: unsupported operand type(s) for +: a NumPy"
                f" {scalar.dtype} scalar and the Python int {value}, which int64 does not hold",
            )
    return None


# Python's default limit on the digits of an int it writes in decimal (``sys.int_info``).
_STR_DIGITS = 4300


def _as_float(value: int, result: str) -> Outcome | None:
    """NumPy 2 converts a Python int that meets a float or complex ``result`` to a C double
    (Python's ``float(value)``), and to a long double through its decimal text, which Python
    writes for at most 4,300 digits (measured on NumPy 2.4.6)."""
    if result == "longdouble":
        if abs(value) < 10**_STR_DIGITS:
            return None
        return refuse(
            "value",
            f"NumPy raises ValueError: Exceeds the limit ({_STR_DIGITS} digits) for integer"
            f" string conversion (it makes the Python int a {ref(result)} through its decimal"
            " text)",
        )
    try:
        float(value)
    except OverflowError:
        return refuse(
            "value",
            f"NumPy raises OverflowError: int too large to convert to float (a Python int"
            f" beyond float64's range meets {ref(result)}; np.result_type, which never looks"
            f" at values, would say {ref(result)})",
        )
    return None


def _held_fits(op: Operand) -> Outcome | None:
    """NumPy 2 makes ``np.array(v, t)`` / ``t(v)`` of an integer type only of a value that
    fits it (OverflowError otherwise); a float value overflows to inf, no error."""
    t = get(op.dtype)
    if t.kind not in ("int", "uint") or not isinstance(op.value, int):
        return None
    bits = t.bits or 64
    low, high = (0, 2**bits - 1) if t.kind == "uint" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    if low <= op.value <= high:
        return None
    return refuse(
        "value",
        f"NumPy raises OverflowError: Python integer {op.value} out of bounds for {ref(op.dtype)}",
    )


def _pair(a: str, b: str) -> str:
    found = TABLE.cells[a, b]
    assert found is not None  # NumPy's table refuses no pair
    return found


def _sequence(types: Sequence[str]) -> str:
    found = promote_sequence(types)
    assert not isinstance(found, str)  # builtin types always promote
    return found[0]


def legacy_loop(ufunc: str, operands: Sequence[Operand]) -> str | None:
    """NumPy 1.26's loop of ``np.<ufunc>`` for ``operands`` (``legacy.loop``), None when no
    loop takes them."""
    from promote_cli.shared import numpy_legacy as legacy

    return legacy.loop(legacy.LOOPS[ufunc], operands, _pair)


def _legacy_outcome(operands: Sequence[Operand]) -> Outcome:
    """NumPy 1.26's legacy result of ``operands`` (``legacy.result_type``)."""
    from promote_cli.shared import numpy_legacy as legacy

    scalars, arrays = legacy.split(operands)
    try:
        result, min_scalar = legacy.result_type(scalars, arrays, _pair, _sequence)
    except legacy.ObjectArray as exc:
        return refuse("legacy", f"{exc}: not a number type")
    if min_scalar:
        why = (
            "NumPy <= 1.26 (legacy): the scalars' kind does not exceed the arrays', so each"
            " scalar counts as np.min_scalar_type of its value"
        )
    else:
        why = "NumPy <= 1.26 (legacy): every operand keeps its dtype (no value-based step)"
    return Outcome(result, "legacy", why)


# NumPy's promotion for the frameworks that apply it beside their own (TF-NumPy's
# np.result_type, array-api-strict's matmul): one instance, whose answers engine.remembering
# keeps once.
NUMPY = NumpyPromotion()
