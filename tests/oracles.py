"""Oracles for the tests: a stand-in framework that answers every question as its policy does
(except where told otherwise), and a real framework's oracle asked a few questions."""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli import frameworks, ops
from promote_cli.errors import PromotionError
from promote_cli.operands import Operand
from promote_cli.verify.compare import policy_answer
from promote_cli.verify.driver import oracle
from promote_cli.verify.protocol import (
    OPERATION,
    PAIR,
    Asks,
    Cell,
    Gap,
    Question,
    Refusal,
    Result,
    in_process,
    opened,
)

PAIRS_ONLY = Asks()


def stand_in(
    policy: str,
    *,
    wrong: Mapping[Any, Any] | None = None,
    missing: bool = False,
    asked: list | None = None,
    bug: bool = False,
    asks: Asks = PAIRS_ONLY,
) -> types.ModuleType:
    """An oracle module for ``policy`` that is a perfect framework, except: ``wrong`` maps a
    pair's operands ``(a, b)`` (or an operation's ``(name, operands)``) to the answer it gives
    instead (a dtype, "refused", or a record), ``missing`` makes it not installed, ``asked``
    collects every (options, a, b) pair it is asked, ``bug`` makes it crash. It answers the
    questions ``asks`` names; a cell the policy marks no-kernel raises for want of a kernel."""
    pol = frameworks.get(policy)
    wrong = wrong or {}

    def load() -> str:
        if missing:
            raise ImportError("No module named 'fakework'")
        return "handle"

    def one(opts: Mapping[str, Any], q: Question) -> Cell:
        key = q.operands if q.kind != OPERATION else (q.operation, q.operands)
        if q.kind == PAIR and asked is not None:
            asked.append((dict(opts), *q.operands))
        if bug:
            raise KeyError("an oracle bug")
        if key in wrong:
            told = wrong[key]
            if told == "refused":
                return Refusal("ValueError: no promotion path")
            return Result(told) if isinstance(told, str) else told
        try:
            rules = frameworks.operations(pol)
        except PromotionError:
            rules = None
        out = policy_answer(pol, rules, opts, q)
        if out.rule == ops.NO_KERNEL:
            return Gap("RuntimeError: no kernel")
        if out.result is None:
            return Refusal("RuntimeError: the framework refuses too")
        return Result(out.result)

    def answer(handle: str, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
        assert handle == "handle"
        return [one(opts, q) for q in questions]

    module = types.ModuleType(f"stand_in_oracle_{policy}")
    module.RUNS = in_process("a test's stand-in")  # type: ignore[attr-defined]
    module.ASKS = asks  # type: ignore[attr-defined]
    module.load = load  # type: ignore[attr-defined]
    module.version = lambda handle: "9.9"  # type: ignore[attr-defined]
    module.answer = answer  # type: ignore[attr-defined]
    return module


def ask(policy: str, questions: Sequence[Question], **opts: Any) -> list[Cell]:
    """The real framework's records for ``questions`` (its oracle loaded, asked, closed)."""
    orc = oracle(policy)
    assert orc is not None, policy
    with opened(orc) as handle:
        return orc.answer(handle, opts, questions)


def pair(policy: str, a: Operand, b: Operand, **opts: Any) -> str:
    """The framework's answer for ``a`` x ``b``: a dtype (a kernel gap's named one), else
    "refused"."""
    [cell] = ask(policy, [Question(PAIR, (a, b))], **opts)
    if isinstance(cell, Result):
        return cell.dtype
    if isinstance(cell, Gap) and cell.dtype is not None:
        return cell.dtype
    return "refused"
