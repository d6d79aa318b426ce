"""NumPy's own cases of a Python scalar's value (``Rule.value_special``), measured on NumPy 2.4.
``SPECIALS`` names them for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get
from promote_cli.engine import Outcome, refuse
from promote_cli.frameworks.numpy.promotion import POLICY
from promote_cli.operands import PYTHON, Operand, int_value
from promote_cli.ops import SpecialFunction


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


def bool_compared(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """A comparison takes any Python int (``uint8_array == 300`` is all False), but for a bool
    array, whose comparison loop takes the int as int64, as ``+`` does."""
    a, b = operands
    for scalar, other in ((a, b), (b, a)):
        if scalar.category == PYTHON and other.category != PYTHON and other.dtype == "bool":
            checked = POLICY.check_value(scalar, other.dtype, opts)
            if checked is not None:
                return checked
    return None


SPECIALS: Mapping[str, SpecialFunction] = {
    "negative_power": negative_power,
    "bool_compared": bool_compared,
}
