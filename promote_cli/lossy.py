"""Which values a promotion loses: a cell ``a x b -> r`` loses values of ``a`` when some value
of ``a`` is not exactly representable in ``r``: it rounds, overflows, has no place there (NaN or
inf into an integer, a negative into an unsigned type, a complex into a real), and likewise
for ``b``.

Everything comes from the catalogue (kind, bits, exponent and mantissa bits) plus the
conventions ml_dtypes names its float formats by: ``fn`` has no infinity (an 8-bit ``fn``
type keeps one NaN pattern, the 4- and 6-bit ones have none), ``fnuz`` has no infinity and no
negative zero and a bias one larger, ``b11`` a bias of 11, ``fnu`` no sign and no zero. No
NumPy is imported; ``tests/properties/test_lossy.py`` checks every format against ml_dtypes'
``finfo`` and every cell against a brute-force cast of every bit pattern.

Python scalars (``int*``, ``float*`` ...) and types without numeric values (``string``,
OpenVINO's ``nf4`` lookup codes) are outside the question: ``loss`` answers None for them.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from promote_cli.dtypes import CATALOGUE, DType, is_weak
from promote_cli.notations import Notation
from promote_cli.record import Record

NAN, INF, NEG_INF, IMAG = "nan", "inf", "-inf", "1j"  # the values that are not real numbers
Value = Fraction | str
_INTEGRAL = ("bool", "int", "uint")


class Format(Record):
    """A binary floating-point format: the finite values are ``±M * 2**E`` with ``M`` below
    ``2**precision``, from the smallest subnormal (or normal) up to ``max``."""

    precision: int  # significand bits, the hidden one included
    emin: int  # exponent of the smallest normal number
    max: Fraction
    subnormals: bool
    inf: bool
    nan: bool
    signed: bool
    zero: bool

    @property
    def true_min(self) -> Fraction:
        """The smallest positive value."""
        low = self.emin - (self.precision - 1) if self.subnormals else self.emin
        return _pow2(low)


def _pow2(k: int) -> Fraction:
    return Fraction(2) ** k


@cache
def float_format(name: str) -> Format | None:
    """The format of a real float type, or of a complex type's components; None otherwise."""
    t = CATALOGUE.get(name)
    if t is None or t.weak or t.kind not in ("float", "complex") or t.exponent is None:
        return None
    if name.endswith("_x2"):  # PyTorch's two float4_e2m1fn in a byte: each is a float4
        return float_format(name.removesuffix("_x2"))
    e, m = t.exponent, t.mantissa or 0
    bias = 2 ** (e - 1) - 1
    top = 2**e - 1  # the largest exponent field
    if name.endswith("fnu"):  # float8_e8m0fnu: 2**-127 .. 2**127, no sign, zero or inf
        return Format(1, -bias, _pow2(top - 1 - bias), False, False, True, False, False)
    if "fnuz" in name:  # NaN takes the negative zero's pattern; no infinity
        bias = 11 if "b11" in name else bias + 1
        full = (2 - _pow2(-m)) * _pow2(top - bias)
        return Format(m + 1, 1 - bias, full, True, False, True, True, True)
    if name.endswith("fn"):  # finite: the top exponent holds numbers
        nan = (t.bits or 0) >= 8  # 8-bit fn types keep all-ones as NaN; 4- and 6-bit have none
        mantissa_top = 2 - _pow2(1 - m) if nan else 2 - _pow2(-m)
        largest = mantissa_top * _pow2(top - bias)
        return Format(m + 1, 1 - bias, largest, True, False, nan, True, True)
    # IEEE 754 layout (also x87's long double, whose explicit integer bit finfo does not count)
    full = (2 - _pow2(-m)) * _pow2(top - 1 - bias)
    return Format(m + 1, 1 - bias, full, m > 0, True, True, True, True)


def _exponent(x: Fraction) -> int:
    """floor(log2(x)) for x > 0, exactly."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    return e - 1 if x < _pow2(e) else e


def _quantum(x: Fraction, f: Format) -> int:
    """The exponent of the spacing of ``f``'s values around ``|x|``."""
    return max(_exponent(abs(x)), f.emin) - (f.precision - 1)


def _fits_float(x: Value, f: Format) -> bool:
    if isinstance(x, str):
        return {NAN: f.nan, INF: f.inf, NEG_INF: f.inf and f.signed, IMAG: False}[x]
    if x == 0:
        return f.zero
    if x < 0 and not f.signed:
        return False
    if abs(x) > f.max or (not f.subnormals and abs(x) < _pow2(f.emin)):
        return False
    return (abs(x) / _pow2(_quantum(x, f))).denominator == 1


def _int_range(t: DType) -> tuple[int, int]:
    if t.kind == "bool":
        return 0, 1
    bits = t.bits or 0
    return (0, 2**bits - 1) if t.kind == "uint" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def fits(x: Value, target: str) -> bool:
    """Whether the value ``x`` is exactly a value of ``target``."""
    t = CATALOGUE[target]
    if t.kind in _INTEGRAL:
        if isinstance(x, str) or x.denominator != 1:
            return False
        low, high = _int_range(t)
        return low <= x <= high
    f = float_format(target)
    assert f is not None, target
    if x == IMAG:
        return t.kind == "complex"
    return _fits_float(x, f)


def _numeric(name: str) -> bool:
    t = CATALOGUE.get(name)
    if t is None or is_weak(name) or t.bits is None:
        return False
    return t.kind in _INTEGRAL or float_format(name) is not None


def candidates(source: str) -> tuple[Value, ...]:
    """Values of ``source`` such that, if every one fits a type, every value of ``source``
    does: rounding at the finest spacing (``1 + ulp``, the smallest value), the extremes, a
    negative, the specials and zero. Ordered so that the first one lost makes the clearest
    example (rounding before overflow before the special values)."""
    t = CATALOGUE[source]
    if t.kind in _INTEGRAL:
        low, high = _int_range(t)
        # Every integer up to 2**p is a float of precision p; 2**p + 1 is the first that is
        # not, so one such value per possible target precision covers the rounding.
        rounding = [2**p + 1 for p in range(1, 65) if 2**p + 1 <= high]
        values = [*rounding, high, low, -1, 0, 1]
        return tuple(Fraction(v) for v in dict.fromkeys(values) if low <= v <= high)
    f = float_format(source)
    assert f is not None, source
    one_ulp = 1 + _pow2(1 - f.precision)
    samples: list[Value] = [Fraction(3, 2)] if f.precision > 1 else []
    samples += [one_ulp, f.max, f.true_min]
    if f.signed:
        samples += [Fraction(-1), -f.max]
    samples += [NAN] if f.nan else []
    samples += [INF, NEG_INF] if f.inf else []
    samples += [Fraction(0)] if f.zero else []
    if t.kind == "complex":
        samples.append(IMAG)
    return tuple(dict.fromkeys(samples))


class Loss(Record):
    """One value of ``source`` that ``target`` cannot hold, and what becomes of it."""

    source: str
    target: str
    value: Value
    what: str  # "rounds to", "overflows", "no NaN" ...
    becomes: Value | None  # the nearest value of ``target`` when it rounds

    def text(self, nota: Notation) -> str:
        """``int32 2**24 + 1 -> float32 16777216``, names in ``nota``."""
        head = f"{nota.label(self.source)} {show(self.value)} -> {nota.label(self.target)}"
        if self.becomes is not None:
            return f"{head} {show(self.becomes)}"
        return f"{head}: {self.what}"


@cache
def loss(source: str, target: str) -> Loss | None:
    """The first value of ``source`` that ``target`` cannot hold exactly, or None when every
    value fits (or either type has no numeric values to speak of)."""
    if source == target or not (_numeric(source) and _numeric(target)):
        return None
    values = candidates(source)
    if CATALOGUE[target].kind in _INTEGRAL and CATALOGUE[source].kind in _INTEGRAL:
        # Into an integer only the range matters: show its ends first.
        values = tuple(sorted(values, key=lambda v: v != max(values) and v != min(values)))
    for x in values:
        if not fits(x, target):
            return Loss(source, target, x, *_fate(x, target))
    return None


def _fate(x: Value, target: str) -> tuple[str, Value | None]:
    t = CATALOGUE[target]
    if x == IMAG:
        return "the imaginary part is dropped", None
    if isinstance(x, str):
        return f"{target} has no {'NaN' if x == NAN else 'infinity'}", None
    if x == 0:
        return f"{target} has no zero", None
    if t.kind in _INTEGRAL:
        low, high = _int_range(t)
        if x.denominator != 1 and low <= int(x) <= high:
            return "", Fraction(int(x))  # a cast truncates towards zero
        return ("negative into unsigned" if x < 0 and low == 0 else "out of range"), None
    f = float_format(target)
    assert f is not None
    if x < 0 and not f.signed:
        return "negative into unsigned", None
    if abs(x) > f.max:
        return "overflows", None
    if not f.subnormals and abs(x) < _pow2(f.emin):
        return "underflows", None
    step = _pow2(_quantum(x, f))
    return "", _round_half_even(x / step) * step


def _round_half_even(x: Fraction) -> int:
    down = x.numerator // x.denominator
    rest = x - down
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and down % 2):
        return down + 1
    return down


def show(x: Value) -> str:
    """A value as a reader writes it: ``16777216``, ``2**24 + 1``, ``1 + 2**-23``, ``1.5``."""
    if isinstance(x, str):
        return x
    if x < 0:
        return "-" + show(-x)
    e = _exponent(x) if x else 0
    if x.denominator == 1 and x < 2**16:
        return str(int(x))
    for k in range(min(e, 1) - 1, e + 2):
        if x == _pow2(k) + (1 if k > 0 else 0) or x == _pow2(k) - 1:
            tail = "" if x == _pow2(k) else (" + 1" if x > _pow2(k) else " - 1")
            return f"2**{k}{tail}"
    rest = x - 1
    if e == 0 and rest == _pow2(_exponent(rest)) and rest < Fraction(1, 1024):
        return f"1 + 2**{_exponent(rest)}"
    if x.denominator == 1 and x < 2**64:
        return str(int(x))
    if -1022 < e < 1023 and Fraction(float(x)) == x:
        return repr(float(x))
    return f"{x.numerator} / 2**{x.denominator.bit_length() - 1}"
