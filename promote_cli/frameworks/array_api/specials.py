"""array-api-strict's own cases: ``where`` takes at most one Python scalar (``Rule.special``);
a negative Python int as an integer array's exponent or shift (``Rule.value_special``).
``SPECIALS`` names them for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get
from promote_cli.engine import Outcome, refuse
from promote_cli.operands import PYTHON, Operand, int_value
from promote_cli.rules import SIGNATURE, SpecialFunction


def one_scalar(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``xp.where(c, 1, 2.0)``: two Python scalars are refused (no array gives a dtype)."""
    if all(x.category == PYTHON for x in operands):
        return refuse(SIGNATURE, "xp.where takes at most one Python scalar (two scalars)")
    return None


def _negative_right(operands: Sequence[Operand]) -> bool:
    """An integer array on the left, a negative Python int on the right."""
    left, right = operands
    value = int_value(right)
    integral = left.category != PYTHON and get(left.dtype).kind in ("int", "uint")
    return integral and value is not None and value < 0


def negative_power(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``xp.pow(int8_array, -1)``: NumPy's integer power refuses a negative exponent."""
    if _negative_right(operands):
        return refuse(
            "value",
            "array-api-strict raises ValueError: Integers to negative integer powers"
            " are not allowed.",
        )
    return None


def negative_shift(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``xp.bitwise_left_shift(int8_array, -1)`` is refused ("only defined for x2 >= 0"); the
    operator ``x << -1`` does not check (measured)."""
    if _negative_right(operands):
        return refuse(
            "value",
            "array-api-strict raises ValueError: bitwise_left_shift(x1, x2) is only"
            " defined for x2 >= 0",
        )
    return None


SPECIALS: Mapping[str, SpecialFunction] = {
    "one_scalar": one_scalar,
    "negative_power": negative_power,
    "negative_shift": negative_shift,
}
