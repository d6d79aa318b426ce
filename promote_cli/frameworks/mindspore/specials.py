"""MindSpore's own cases (``Rule.special``), decided before the promotion, each measured (see
``operations.py``). ``SPECIALS`` names them for the rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.engine import Outcome, refuse
from promote_cli.operands import PYTHON, Operand, int_value
from promote_cli.rules import SpecialFunction


def python_bool(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``t == 1j``, ``t != 1j`` (either side): ``Tensor.__eq__``/``__ne__`` compare no Python
    complex; they return Python's ``False``/``True``, a Python bool, not a tensor."""
    if any(x.category == PYTHON and x.dtype == "complex*" for x in operands):
        return Outcome(
            "bool",
            "python-bool",
            "mindspore.Tensor compares no Python complex: it returns Python's False for =="
            " (True for !=), a Python bool, not a tensor (measured)",
        )
    return None


def shift_value(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``ops.bitwise_left_shift`` with a Python int (either side): it takes any int that fits
    int64 or uint64 (``int8_t << 2**64 - 1`` is int8, measured) and refuses one outside both
    ("Unable to cast Python instance of type <class 'int'> to C++ type 'long'")."""
    for scalar in operands:
        value = int_value(scalar)
        if value is not None and not -(2**63) <= value < 2**64:
            return refuse(
                "value",
                f"ops.bitwise_left_shift takes a Python int that fits int64 or uint64, which"
                f" {value} does not: MindSpore raises RuntimeError: Unable to cast Python instance"
                f" of type <class 'int'> to C++ type 'long'",
            )
    return None


SPECIALS: Mapping[str, SpecialFunction] = {"python_bool": python_bool, "shift_value": shift_value}
