"""MindSpore's own cases (``Rule.special``), decided before the promotion, each measured (see
``operations.py``). ``SPECIALS`` names them for the rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.engine import Outcome
from promote_cli.operands import PYTHON, Operand
from promote_cli.ops import SpecialFunction


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


SPECIALS: Mapping[str, SpecialFunction] = {"python_bool": python_bool}
