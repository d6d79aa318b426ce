"""Oracles for the tests: a stand-in framework that answers every question as its policy does
(except where told otherwise), and a real framework's oracle asked a few questions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from promote_cli import frameworks
from promote_cli.errors import PromotionError
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.rules import NO_KERNEL, REBINDS
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
ROOT = Path(__file__).resolve().parent.parent


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

    def one(opts: Mapping[str, Any], q: Question, rules: Any) -> Cell:
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
        if q.kind == "expression":
            return program(opts, q)
        out = policy_answer(pol, rules, opts, q)
        if out.rule == NO_KERNEL:
            return Gap("RuntimeError: no kernel")
        if out.result is None:
            return Refusal("RuntimeError: the framework refuses too")
        return Result(out.result, rebound=out.rule == REBINDS)  # ``a op= b``, rebound

    def program(opts: Mapping[str, Any], q: Question) -> Cell:
        """A program run as ``promote expr`` answers it, node by node."""
        from promote_cli.evaluation import evaluate
        from promote_cli.program import LITERAL, NAME, parse
        from promote_cli.verify.expressions import NAMES
        from promote_cli.verify.protocol import Nodes

        bound = dict(zip(NAMES, q.operands, strict=False))
        cells: list[Cell | None] = []
        for s in evaluate(parse(q.text), bound, pol, opts):
            if s.node.kind in (NAME, LITERAL) or (s.operand is None and s.outcome is None):
                cells.append(None)
            elif s.operand is None:
                kernel = s.outcome is not None and s.outcome.rule == NO_KERNEL
                cells.append(Gap("no kernel") if kernel else Refusal("refuses"))
            else:
                t = s.operand.dtype
                t = pol.materialise(t, opts).dtype if t.endswith("*") else t
                rebound = s.outcome is not None and s.outcome.rule == REBINDS
                cells.append(Result(t, rebound=rebound))
        return Nodes(tuple(cells))

    def operations() -> Any:  # the policy's rules as they are now (a test may change them)
        try:
            return frameworks.operations(pol)
        except PromotionError:
            return None

    def answer(handle: str, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
        assert handle == "handle"
        # The rules read once a batch (a batch of pairs needs none).
        rules = operations() if any(q.kind == OPERATION for q in questions) else None
        return [one(opts, q, rules) for q in questions]

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


PYTHON_SCALARS = {"P(bool)": "bool", "int": "int*", "float": "float*", "complex": "complex*"}


def operand(text: str) -> Operand:
    """``int8`` an array, ``S(int8)`` a 0-d one, ``int``/``float`` Python scalars."""
    if text in PYTHON_SCALARS:
        return Operand(PYTHON_SCALARS[text], PYTHON)
    if text.startswith("S("):
        return Operand(text[2:-1], ZERO_D)
    return Operand(text)


def operation_caller(policy: str):
    """The oracle's own call of an operation, ``call("sqrt", "int8")``: the framework's dtype
    name, or "refused" (or "refused (no kernel)")."""

    def call(op: str, *operands: str) -> str:
        rules = frameworks.operations(frameworks.get(policy))
        rule = rules.rule(op, rules.policy.resolve_options())
        asked = Question(OPERATION, tuple(operand(x) for x in operands), op, rule.function)
        [cell] = ask(policy, [asked])
        if isinstance(cell, Result):
            return cell.dtype
        return "refused (no kernel)" if isinstance(cell, Gap) else "refused"

    return call


def printed_by(script: str) -> Any:
    """What ``script`` prints as JSON on its last line, run in a Python process of its own with
    this checkout first on its path (TensorFlow's NumPy behaviour, once on, stays on for the
    process; the process asks nothing else)."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def verify_json(policy: str) -> dict:
    """``promote verify --require --json policy``'s operations entry, from a process of its own
    (some frameworks cannot share one)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "verify", "--require", "--json", policy],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [entry] = json.loads(done.stdout)["policies"]
    return entry["operations"]
