"""The pair rule of array-api-strict's own (``Rule.pair``): ``matmul`` promotes with NumPy's
rule, not the standard's. ``PAIRS`` names it for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.engine import Outcome
from promote_cli.operands import Operand
from promote_cli.rules import Pair
from promote_cli.shared.numpy_promotion import NUMPY


def numpy_promote_types(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """NumPy's promotion (the numpy policy at its defaults), which array-api-strict's matmul
    calls where ``xp.result_type`` would refuse (``matmul(int8, float32)`` is float32)."""
    return NUMPY.promote(a, b, opts)


PAIRS: Mapping[str, Pair] = {
    "numpy_promote_types": Pair(
        numpy_promote_types, "NumPy's promote_types (array-api-strict's matmul)"
    ),
}
