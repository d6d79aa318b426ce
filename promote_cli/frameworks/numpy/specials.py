"""NumPy's own cases of a Python scalar's value (``Rule.value_special``), measured on NumPy 2.4,
and, under ``-O promotion=legacy`` (NumPy 1.26.4, measured there), the loop search of the ufuncs
that choose their loop by searching (``Rule.special``: ``legacy.LOOPS``), which sees a scalar's
value, and the comparisons of an object array. ``SPECIALS`` names them for the rules (see
``operations.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get
from promote_cli.engine import Outcome, refuse
from promote_cli.frameworks.numpy.promotion import ML_TYPES, POLICY, legacy_loop
from promote_cli.operands import DIMENSIONED, PYTHON, Operand, int_value
from promote_cli.rules import SpecialFunction
from promote_cli.shared import numpy_legacy as legacy


def negative_power(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``int_array ** -1``: an integer power's loop refuses a negative integer exponent
    (ValueError), bool arrays included (their loop is int64's); a float array takes it."""
    base, exponent = operands
    value = int_value(exponent)
    if value is None or value >= 0 or base.category == PYTHON:
        return None
    if get(base.dtype).kind not in ("bool", "int", "uint"):
        return None
    return refuse(
        "value", "NumPy raises ValueError: Integers to negative integer powers are not allowed."
    )


def compared(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """A comparison takes any Python int beside an integer array (``uint8_array == 300`` is all
    False), but a bool array's loop takes it as int64 and a float or complex array's as a C
    double, as ``+`` does (``float16_array < 2**1024`` raises OverflowError)."""
    return _converted(operands, opts, lambda t: None if get(t).kind in ("int", "uint") else t)


def float_converted(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``np.divide`` and ``np.atan2`` take a Python int as a C double, as ``+`` makes it beside
    a float or complex array and as float64's loop does beside a bool or integer one: any int
    float64 holds (``uint8_array / 300`` is float64), none beyond (``int8_array / 2**1024``
    raises OverflowError, as ``float64_array / 2**1024`` does)."""
    return _converted(
        operands, opts, lambda t: t if get(t).kind in ("float", "complex") else "float64"
    )


def _converted(
    operands: Sequence[Operand], opts: Mapping[str, Any], loop: Callable[[str], str | None]
) -> Outcome | None:
    """``+``'s check of a Python scalar's value (``Policy.check_value``) against the type
    ``loop`` says the array's loop converts it to (None: any value is taken). An ml_dtypes
    type is left to ``+``'s measured conversions."""
    a, b = operands
    for scalar, other in ((a, b), (b, a)):
        if scalar.category != PYTHON or other.category == PYTHON or other.dtype in ML_TYPES:
            continue
        against = loop(other.dtype)
        checked = None if against is None else POLICY.check_value(scalar, against, opts)
        if checked is not None:
            return checked
    return None


def _searched(ufunc: str) -> SpecialFunction:
    """NumPy 1.26's ``np.<ufunc>`` of a scalar beside an array: its first loop that takes every
    operand, a scalar by its value (``legacy.loop``): ``uint8_array // 300`` is int16, as 300
    is a small unsigned that fits int16's loop, which comes before uint16's (``np.add`` takes
    ``np.result_type``, uint16). Arrays alone, an object array and no loop at all are the
    rules' (the promotion refuses an object array; ``Rule.refuses``)."""

    def special(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
        if ufunc in ("bitwise_and", "left_shift") and legacy.crashing(operands):
            return refuse(
                "legacy",
                "NumPy 1.26.4 crashes (SIGSEGV) in a bitwise operation of a long double and a"
                " Python int it holds only in an object array (np.longdouble(1) & 2**64 does)",
            )
        if all(x.category == DIMENSIONED for x in operands) or any(
            map(legacy.object_int, operands)
        ):
            return None
        found = legacy_loop(ufunc, operands)
        if found is None:
            return None
        # An integer loop refuses a negative exponent (a Python int's, or one a 0-d array or
        # NumPy scalar holds); a float loop takes it: uint64 ** -1.
        exponent = operands[1].value
        negative = ufunc == "power" and type(exponent) is int and exponent < 0
        if negative and get(found).kind in ("int", "uint"):
            return refuse(
                "value",
                "NumPy raises ValueError: Integers to negative integer powers are not"
                f" allowed (the ufunc's loop is {found}'s)",
            )
        return Outcome(
            found,
            "legacy",
            f"NumPy 1.26's loop search: {found}, the ufunc's first loop every operand casts"
            " to safely, a scalar by its value",
        )

    # named as its rules name it (``searched_floor_divide``), as every special is
    special.__name__ = special.__qualname__ = f"searched_{ufunc}"
    return special


def object_compared(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """NumPy 1.26 compares a Python int it holds only in an object array element by element in
    Python: bool, but an order of a complex or long double element and an int, which Python
    refuses (TypeError: '<' not supported)."""
    if not any(map(legacy.object_int, operands)):
        return None
    return Outcome(
        "bool",
        "legacy",
        "NumPy 1.26 makes the Python int an object array and compares in Python: bool",
    )


def object_ordered(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``object_compared`` for an order (``<``): Python refuses a complex or long double one."""
    found = object_compared(operands, opts)
    if found is None:
        return None
    unordered = [x.dtype for x in operands if x.category != PYTHON]
    if any(get(t).kind == "complex" or t == "longdouble" for t in unordered):
        return refuse(
            "legacy",
            f"NumPy 1.26 makes the Python int an object array; Python cannot order a"
            f" {unordered[0]} element and an int (TypeError: '<' not supported)",
        )
    return found


# NumPy 1.26's loop search, one special per ufunc whose loops ``legacy.LOOPS`` lists
searched_floor_divide = _searched("floor_divide")
searched_remainder = _searched("remainder")
searched_power = _searched("power")
searched_bitwise_and = _searched("bitwise_and")
searched_left_shift = _searched("left_shift")
searched_arctan2 = _searched("arctan2")

SPECIALS: Mapping[str, SpecialFunction] = {
    "negative_power": negative_power,
    "compared": compared,
    "float_converted": float_converted,
    "object_compared": object_compared,
    "object_ordered": object_ordered,
    "searched_floor_divide": searched_floor_divide,
    "searched_remainder": searched_remainder,
    "searched_power": searched_power,
    "searched_bitwise_and": searched_bitwise_and,
    "searched_left_shift": searched_left_shift,
    "searched_arctan2": searched_arctan2,
}
