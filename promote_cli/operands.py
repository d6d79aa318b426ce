"""Operands: a dtype plus the category of value that carries it.

``D(t)`` a dimensioned array (the default), ``S(t)`` a 0-d array (OpenVINO and PyTorch treat it
as a scalar), ``P(int)``/``P(float)``/``P(complex)`` Python scalars (JAX's weak ``i*``, ``f*``,
``c*``; also spelled ``int``, ``float``, ``complex``), and ``P(bool)`` a Python ``bool``, which
is not the ``bool`` dtype in every framework.

``N(t)`` is a NumPy scalar of dtype ``t`` (``np.float64(1)``). A 0-d array or a NumPy scalar
may carry its value too, after ``=``: ``S(int64)=300``, ``N(float64)=1e300``, read as the
dtype's kind (an integer, a float, a complex, true/false); without one it holds 1 (``True``
for bool), as a bare ``int`` is 1. Only NumPy's legacy promotion looks at such values (and
NumPy 2 checks that the value fits its dtype); a policy without NumPy scalars refuses ``N``.

A Python scalar may carry its value, spelled ``KIND:VALUE`` alone or inside ``P(...)``:
``int:300``, ``int:-1``, ``int:0x7f``, ``float:1e300``, ``float:inf``, ``complex:1e300j``,
``bool:true``. VALUE is a literal of that kind as Python's ``int()``, ``float()`` and
``complex()`` read it (no expressions). A bare ``int`` keeps meaning "a Python int that fits":
only a value lets a policy refuse where its framework raises for a value that does not fit
(``uint8 + int:300`` in NumPy 2).
"""

from __future__ import annotations

import re

from promote_cli.dtypes import is_weak
from promote_cli.errors import UsageError
from promote_cli.notations import Notation, display, read_dtype
from promote_cli.record import Record

DIMENSIONED, ZERO_D, PYTHON, NUMPY_SCALAR = "D", "S", "P", "N"

# Patterns as text: ``re`` compiles one on its first use, so a run that reads only plain names
# (each is tested for the pattern's one literal character first) compiles neither.
_WRAPPED = r"^\s*([DSPN])\s*\(\s*(.+?)\s*\)\s*$"
# ``S(int64)=300``, ``N(float64)=1e300``: a 0-d array's or NumPy scalar's value.
_HOLDING = r"^\s*([SN])\s*\(\s*(.+?)\s*\)\s*=\s*(\S.*?)\s*$"
_SCALARS = {
    "int": "int*",
    "float": "float*",
    "complex": "complex*",
    "bool": "bool",
    "int*": "int*",
    "float*": "float*",
    "complex*": "complex*",
    "i*": "int*",
    "f*": "float*",
    "c*": "complex*",
}


# A Python scalar's value, when the operand carries one.
Value = bool | int | float | complex
_KINDS = {"bool": "bool", "int": "int*", "float": "float*", "complex": "complex*"}
# The value a Python-scalar operand given none stands for: the one ``promote verify`` passes
# (where an operation's answer depends on the value: PyTorch's ``t ** 1`` skips the kernel).
PYTHON_VALUES: dict[str, Value] = {"bool": True, "int*": 1, "float*": 1.0, "complex*": 1j}
_VALUED = r"^\s*(bool|int|float|complex)\s*:\s*(\S.*?)\s*$"


def _valued(spelling: str) -> re.Match[str] | None:
    return re.match(_VALUED, spelling, re.I) if ":" in spelling else None


def _wrapped(spelling: str) -> re.Match[str] | None:
    return re.match(_WRAPPED, spelling, re.I) if "(" in spelling else None


class Operand(Record):
    dtype: str  # canonical name; a Python scalar is int*, float*, complex* or bool
    category: str = DIMENSIONED
    value: Value | None = None  # a Python scalar's (or S/N operand's) value, when given

    def typed(self) -> Operand:
        """The operand without its value: its type and category, what the rules see."""
        return self if self.value is None else Operand(self.dtype, self.category)

    @classmethod
    def of(cls, dtype: str) -> Operand:
        """The operand a bare type name stands for: a weak type (``int*``, TensorFlow's
        ``int32*`` ...) is a Python scalar, anything else a dimensioned array."""
        return cls(dtype, PYTHON if is_weak(dtype) else DIMENSIONED)


def python_value(kind: str, text: str) -> Value:
    """The value ``text`` spells for a Python scalar of ``kind`` (bool, int, float, complex)."""
    literal = text.strip()
    try:
        if kind == "bool":
            if literal.lower() in ("true", "false"):
                return literal.lower() == "true"
            raise ValueError
        if kind == "int":
            return _int(literal.replace("_", ""))
        return float(literal) if kind == "float" else complex(literal)
    except ValueError:
        raise UsageError(
            f"{kind}:{text} is not a Python {kind} literal (e.g. int:300, int:-1, float:1e300,"
            " complex:1e300j, bool:true)"
        ) from None


# Python reads and writes at most 4,300 decimal digits of an int at once (its default
# ``sys.get_int_max_str_digits``, 640 at the least); longer ones go through in pieces.
_PIECE = 600


def _int(literal: str) -> int:
    """``int(literal, 0)``, and a decimal literal of any length (Python refuses one beyond its
    int-to-str limit; a framework takes the int all the same)."""
    try:
        return int(literal, 0)
    except ValueError:
        digits = literal[1:] if literal[:1] in ("+", "-") else literal
        if not (digits.isascii() and digits.isdigit() and digits[0] != "0"):
            raise
    head = len(digits) % _PIECE or _PIECE
    value = int(digits[:head])
    for at in range(head, len(digits), _PIECE):
        value = value * 10**_PIECE + int(digits[at : at + _PIECE])
    return -value if literal.startswith("-") else value


def _decimal(value: int) -> str:
    """``str(value)``, for an int of any length (see ``_int``)."""
    try:
        return str(value)
    except ValueError:
        pieces, rest = [], abs(value)
        while rest:
            rest, low = divmod(rest, 10**_PIECE)
            pieces.append(low)
    head, *tail = reversed(pieces)
    return ("-" if value < 0 else "") + str(head) + "".join(f"{p:0{_PIECE}d}" for p in tail)


def valued(value: Value) -> Operand:
    """The operand of a Python scalar with this value (``True``, ``300``, ``1e300`` ...)."""
    kind = type(value).__name__
    if kind not in _KINDS:
        raise UsageError(f"{value!r} is not a Python bool, int, float or complex")
    return Operand(_KINDS[kind], PYTHON, value)


def _holding(spelling: str) -> re.Match[str] | None:
    return re.match(_HOLDING, spelling, re.I) if "=" in spelling else None


def held_value(dtype: str, text: str) -> Value:
    """The value ``text`` spells for a 0-d array or NumPy scalar of ``dtype``: read as the
    dtype's kind (a bool, an int, a float, a complex literal)."""
    from promote_cli.dtypes import get

    kind = get(dtype).kind
    as_kind = {"bool": "bool", "int": "int", "uint": "int", "complex": "complex"}.get(kind, "float")
    return python_value(as_kind, text)


def parse(spelling: str, nota: Notation) -> Operand:
    """Read ``S(i8)``, ``D(f16)``, ``P(bool)``, ``N(f8)``, ``S(i8)=300``, ``int``,
    ``int:300``, ``f*`` or a plain dtype spelling."""
    h = _holding(spelling)
    if h:
        category, dtype = h.group(1).upper(), read_dtype(h.group(2), nota)
        if is_weak(dtype):
            raise UsageError(f"{spelling!r}: a Python scalar has no array category")
        return Operand(dtype, category, held_value(dtype, h.group(3)))
    if "=" in spelling and _wrapped(spelling.partition("=")[0]):
        raise UsageError(
            f"{spelling!r}: only a 0-d array S(t)=VALUE or a NumPy scalar N(t)=VALUE holds a"
            " value (a dimensioned array's values are never looked at)"
        )
    m = _valued(spelling)
    if m:
        kind = m.group(1).lower()
        return valued(python_value(kind, m.group(2)))
    m = _wrapped(spelling)
    if m:
        category, inner = m.group(1).upper(), m.group(2)
        if category == PYTHON:
            v = _valued(inner)
            if v:
                return valued(python_value(v.group(1).lower(), v.group(2)))
            scalar = _SCALARS.get(inner.lower())
            if scalar is None:
                raise UsageError(
                    f"P({inner}) is not a Python scalar; use P(bool), P(int), P(float), P(complex)"
                )
            return Operand(scalar, PYTHON)
        dtype = read_dtype(inner, nota)
        if is_weak(dtype):
            raise UsageError(f"{spelling!r}: a Python scalar has no array category; write {inner}")
        return Operand(dtype, category)
    bare = spelling.strip().lower()
    if bare in _SCALARS and bare != "bool":
        return Operand(_SCALARS[bare], PYTHON)
    dtype = read_dtype(spelling, nota)
    # A weak type (TensorFlow's i32*, f64* ...) is the type of a Python scalar or weak value.
    return Operand.of(dtype)


def inner(spelling: str) -> str:
    """The dtype spelling inside a ``D(...)``/``S(...)``/``P(...)`` wrapper, or the spelling."""
    m = _wrapped(spelling)
    return m.group(2) if m else spelling.strip()


def label(op: Operand, nota: Notation, *, plain: bool = False) -> str:
    """How ``op`` is printed in ``nota``; ``plain`` drops the canonical-name hint."""
    if op.category == PYTHON:
        if op.value is not None:
            return f"{type(op.value).__name__}:{value_text(op.value)}"
        return "P(bool)" if op.dtype == "bool" else nota.label(op.dtype)
    text = nota.label(op.dtype) if plain else display(op.dtype, nota)
    if op.category in (ZERO_D, NUMPY_SCALAR):
        held = "" if op.value is None else f"={value_text(op.value)}"
        return f"{op.category}({text}){held}"
    return text


def value_text(value: Value) -> str:
    """A value as ``KIND:VALUE`` reads it back: ``true``, ``300``, ``1e+300``, ``1e+300j``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, complex):
        return repr(value).strip("()")
    return _decimal(value) if isinstance(value, int) else repr(value)


def int_value(op: Operand) -> int | None:
    """The value of a Python int operand that carries one (``int:300``), else None."""
    value = op.value
    if op.category != PYTHON or op.dtype != "int*" or not isinstance(value, int):
        return None
    return value


def python_kind(op: Operand) -> str:
    """A Python scalar's type name: ``bool``, ``int``, ``float`` or ``complex``."""
    return {"bool": "bool", "int*": "int", "float*": "float", "complex*": "complex"}[op.dtype]
