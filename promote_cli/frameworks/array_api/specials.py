"""array-api-strict's own case (``Rule.special``): ``where`` takes at most one Python scalar.
``SPECIALS`` names it for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.engine import Outcome, refuse
from promote_cli.operands import PYTHON, Operand
from promote_cli.ops import SIGNATURE, SpecialFunction


def one_scalar(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``xp.where(c, 1, 2.0)``: two Python scalars are refused (no array gives a dtype)."""
    if all(x.category == PYTHON for x in operands):
        return refuse(SIGNATURE, "xp.where takes at most one Python scalar (two scalars)")
    return None


SPECIALS: Mapping[str, SpecialFunction] = {"one_scalar": one_scalar}
