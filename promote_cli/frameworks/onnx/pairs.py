"""ONNX's operations promote nothing: each binds its operands to its operator's type
constraints (``constraints.Operator.bind``), one pair rule per operation, keyed by its name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.engine import Outcome
from promote_cli.frameworks.onnx.constraints import Operator, data
from promote_cli.operands import Operand
from promote_cli.rules import Pair


def _pair(operator: Operator) -> Pair:
    one = len(operator.operands) == 1

    def bind(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return operator.bind((a,) if one else (a, b))

    return Pair(bind, f"{operator.spelled}'s type constraints")


def _named(name: str, pair: Pair) -> Pair:
    # A pair's key is its function's name, and each is a public function of this module
    # (tests/properties/test_rule_declarations.py: a reader finds the code from the rule): each
    # operation's bind, built from the data, is named after it and bound here.
    pair.promote.__name__ = pair.promote.__qualname__ = name
    pair.promote.__module__ = __name__
    globals()[name] = pair.promote
    return pair


PAIRS: Mapping[str, Pair] = {name: _named(name, _pair(op)) for name, op in data().operators.items()}
