"""tinygrad's own case (``Rule.special``): ``1 << t`` keeps the Python int's type. ``SPECIALS``
names it for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.tinygrad.promotion import POLICY, TYPES
from promote_cli.operands import PYTHON, Operand
from promote_cli.ops import REFUSES_TYPE, SpecialFunction

_INTEGRAL = tuple(t for t in TYPES if dtype(t).kind in ("bool", "int", "uint"))


def left_operand_shift(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``1 << t``: a shift keeps its left operand's type, here the weak int; realising checks
    that the shift amount has that type or uint32, so only a uint32 tensor passes."""
    left, right = operands
    if left.category != PYTHON or left.dtype != "int*" or right.dtype not in _INTEGRAL:
        return None
    if right.dtype == "uint32":
        return Outcome(
            "int*",
            "shift-left-operand",
            f"a shift keeps its left operand's type: a Python int stays {ref('int*')}",
            materialised=POLICY.materialise("int*", opts),
        )
    if right.dtype == "bool":
        return None  # bool and int* promote to int* anyway
    return refuse(
        REFUSES_TYPE,
        f"1 << t keeps the Python int's {ref('int*')}, and tinygrad refuses it when realised:"
        f" a shift amount must have the shifted type or uint32, not {ref(right.dtype)}",
    )


SPECIALS: Mapping[str, SpecialFunction] = {"left_operand_shift": left_operand_shift}
