"""Whether a framework's record agrees with the policy: one rule for ``promote verify`` (the
framework asked now) and for the offline comparison (the framework's measured records).

The policy is asked through its public answers only: ``Policy.promote`` for a pair,
``result_type`` and ``chain`` for the n-ary questions (a value is asked as the chain),
``walk.answer`` for an operation, and its notation's reader for a spelling.

- Two refusals agree, whatever their reasons; a refusal and a result do not.
- A question promote declines (``engine.DECLINED``: the framework answers by a rule promote
  does not model) is *declined*, neither agreeing nor a mismatch, whatever the framework did.
- A kernel gap in a promotion question stands for the dtype its message names (Keras's
  ``add`` of two bools on TensorFlow: the rule gave bool, the kernel is missing); one that names
  none cannot show the answer, and neither can an ``Unobservable`` record: not compared.
- ``a op= b`` agrees when the dtype does and the framework rebinds the name exactly where the
  policy says it does (else it updated the array in place).
- An operation cell the policy marks ``no-kernel`` is a *gap* (neither agreeing nor a mismatch)
  when the framework raised for want of a kernel, naming no type or the rule's; any other
  answer is a mismatch, a dtype most of all (the policy claimed a gap where the kernel runs).
- A program (``promote expr``'s) agrees when every node does, up to the first that raises.
- A spelling the framework refuses agrees with a policy that reads it as a type outside its
  universe (``np.dtype("V")`` is no number; promote reads it as nothing NumPy promotes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from promote_cli.engine import DECLINED, Outcome
from promote_cli.record import Record
from promote_cli.rules import NO_KERNEL, REBINDS
from promote_cli.verify.protocol import (
    CHAIN,
    EXPRESSION,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    SPELLING,
    VALUE,
    Cell,
    Gap,
    Nodes,
    Question,
    Refusal,
    Result,
    Unobservable,
)
from promote_cli.walk import answer

if TYPE_CHECKING:
    from promote_cli.engine import Policy
    from promote_cli.rules import Operations

AGREE, GAP, SKIPPED, MISMATCH = "agree", "gap", "skipped", "mismatch"
DECLINES = "declined"  # the policy declines the question (``engine.DECLINED``)


class Verdict(Record):
    status: str  # AGREE, GAP, SKIPPED, DECLINES or MISMATCH
    mine: Outcome  # the policy's outcome
    framework: str | None  # the framework's result (None: it raised)
    error: str = ""  # what the framework said when it raised

    @property
    def promote(self) -> str | None:
        """The policy's result (None: it refuses)."""
        return self.mine.result


def policy_answer(
    policy: Policy, rules: Operations | None, opts: Mapping[str, Any], q: Question
) -> Outcome:
    """The policy's outcome for the question ``q`` under ``opts``."""
    if q.kind == PAIR:
        a, b = q.operands
        return policy.promote(a, b, opts)
    if q.kind == RESULT_TYPE:
        return policy.result_type(q.operands, opts)
    if q.kind in (CHAIN, VALUE):
        return policy.chain(q.operands, opts)
    if q.kind == OPERATION:
        assert rules is not None, "an operation asked of a policy without operations"
        return answer(rules, q.operation, q.operands, opts)[0]
    if q.kind == SPELLING:
        from promote_cli import frameworks
        from promote_cli.errors import UsageError
        from promote_cli.notations import read_dtype

        try:
            read = read_dtype(q.text, frameworks.notation_of(policy))
        except UsageError as exc:
            return Outcome(None, "spelling", str(exc))
        return Outcome(read, "spelling", "")
    raise ValueError(f"no such question: {q.kind!r}")


def verdict(policy: Policy, q: Question, mine: Outcome, cell: Cell) -> Verdict:
    """How the framework's record ``cell`` stands against the policy's outcome ``mine``."""
    return Verdict(*standing(policy, q, mine, cell))


def status(policy: Policy, q: Question, mine: Outcome, cell: Cell) -> str:
    """``verdict``'s status alone (AGREE, GAP, SKIPPED or MISMATCH), for a caller that keeps
    none of the rest: the offline comparison of every measured cell."""
    return standing(policy, q, mine, cell)[0]


def standing(
    policy: Policy, q: Question, mine: Outcome, cell: Cell
) -> tuple[str, Outcome, str | None, str]:
    """``verdict``'s fields, as a plain tuple: status, ``mine``, the framework's result (None:
    it raised) and what it said when it raised."""
    assert not isinstance(cell, Nodes), "a program is judged by judged()"
    if isinstance(cell, Unobservable):
        return SKIPPED, mine, None, cell.message
    if mine.rule == DECLINED:
        if isinstance(cell, Result):
            return DECLINES, mine, cell.dtype, ""
        return DECLINES, mine, None, cell.message
    if q.kind == OPERATION:
        if isinstance(cell, Result):
            theirs, error, kernel = cell.dtype, "", False
        else:
            theirs, error = None, cell.message
            # a missing kernel, unless the framework names a type its rule gave there and
            # that type is not the policy's
            kernel = isinstance(cell, Gap) and cell.dtype in (None, mine.result)
        if mine.rule == NO_KERNEL:
            if kernel:
                return GAP, mine, theirs, error
            if theirs is not None:  # a gap claimed where the kernel runs
                return MISMATCH, mine, theirs, error
        found = AGREE if mine.result == theirs else MISMATCH
        if isinstance(cell, Result) and cell.rebound != (mine.rule == REBINDS):
            found = MISMATCH  # ``a op= b``: rebound where the policy updates in place, or back
            error = "rebound the name" if cell.rebound else "updated the array in place"
        return found, mine, theirs, error
    if isinstance(cell, Gap):
        if cell.dtype is None:
            return SKIPPED, mine, None, cell.message
        theirs, error = cell.dtype, ""
    elif isinstance(cell, Refusal):
        theirs, error = None, cell.message
    else:
        theirs, error = cell.dtype, ""
    if mine.result == theirs:
        return AGREE, mine, theirs, error
    if q.kind == SPELLING and theirs is None and mine.result not in policy.universe:
        return AGREE, mine, theirs, error
    return MISMATCH, mine, theirs, error


def judged(
    policy: Policy, rules: Operations | None, opts: Mapping[str, Any], q: Question, cell: Cell
) -> Verdict:
    """``verdict`` of the policy's own answer to ``q``; a program's (EXPRESSION) by its first
    node that differs (``verify.expressions.judge``)."""
    if q.kind == EXPRESSION:
        from promote_cli.verify.expressions import judge

        j = judge(policy, opts, q, cell)
        if j.skipped:
            return Verdict(SKIPPED, Outcome(None, "expression", ""), None)
        if not j.node:
            return Verdict(AGREE, Outcome(None, "expression", ""), None)
        mine = Outcome(f"{j.promote} at {j.node!r}", "expression", "")
        return Verdict(MISMATCH, mine, j.framework)
    return verdict(policy, q, policy_answer(policy, rules, opts, q), cell)
