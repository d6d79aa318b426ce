"""tinygrad's own pair rule (``Rule.pair``): ``where``'s two values, which may both be Python
scalars. ``PAIRS`` names it for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.engine import Outcome
from promote_cli.frameworks.tinygrad.promotion import POLICY
from promote_cli.operands import PYTHON, Operand
from promote_cli.ops import Pair


def two_values(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``cond.where(x, y)``: the policy's promotion, and two Python scalars promote with each
    other (``where(c, 1, 2.0)`` is ``float*``; no tinygrad binary function takes two)."""
    if a.category == b.category == PYTHON:
        for x in (a, b):
            seen = POLICY.normalise(x, opts)
            if isinstance(seen, Outcome):
                return seen
        return POLICY.least_bound([a, b], opts)
    return POLICY.promote(a, b, opts)


PAIRS: Mapping[str, Pair] = {
    "two_values": Pair(two_values, "least_upper_dtype of the two values"),
}
