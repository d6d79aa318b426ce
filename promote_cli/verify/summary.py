"""What ``promote verify`` found, in one screen: the cells compared and the mismatches per kind
of question, and the mismatches grouped by their cause, the rule (and, for an operation, the
step of ``steps.STEPS``) of promote's answer that the framework contradicts.

A rule that is wrong is usually wrong on many cells at once (NumPy's ``sequence`` rule, once
ml_dtypes 0.7 promotes what 0.6 refused, on thousands of triples): one group with its count
and its first examples says more than the cells one by one. Pure: it reads a ``driver.Report``
and prints nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from promote_cli.record import Record
from promote_cli.verify.driver import ExprMismatch, Mismatch, OpMismatch, Report
from promote_cli.verify.protocol import (
    CHAIN,
    EXPRESSION,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    SPELLING,
    VALUE,
)

EXAMPLES = 3  # the cells each cause shows

# Any mismatch a report holds: a promotion question's, an operation's, a program's.
AnyMismatch = Mismatch | OpMismatch | ExprMismatch

# The kinds of question, in the order a report asks them.
KINDS = (PAIR, RESULT_TYPE, CHAIN, VALUE, SPELLING, OPERATION, EXPRESSION)


class Cause(Record):
    """The mismatches of one kind of question that promote answered by one rule (and step)."""

    question: str  # pair, result_type, chain, value, spelling, operation, expression
    rule: str  # the rule of promote's answer (``Outcome.rule``)
    step: str  # for an operation, the step that decided it (``Outcome.decided_by``); else ""
    cells: int  # how many mismatch
    examples: tuple[AnyMismatch, ...]  # the first ``EXAMPLES``, in the order asked


class Asked(Record):
    """One kind of question: the cells compared and how many of them mismatch."""

    question: str
    cells: int
    mismatches: int


def mismatches(report: Report) -> list[AnyMismatch]:
    """Every mismatch of ``report``, in the order asked: the promotion questions', then the
    operations', then the programs'."""
    found: list[AnyMismatch] = list(report.mismatches)
    if report.ops is not None:
        found += report.ops.mismatches
        found += report.ops.expression_mismatches
    return found


def kind(m: AnyMismatch) -> str:
    """The kind of question ``m`` answers (one of ``KINDS``)."""
    if isinstance(m, OpMismatch):
        return OPERATION
    if isinstance(m, ExprMismatch):
        return EXPRESSION
    return m.question


def cause(m: AnyMismatch) -> tuple[str, str, str]:
    """``(question, rule, step)``: what promote's answer to ``m`` rests on. A program's node is
    answered by ``promote expr``, whose rule its record does not keep: its cause is the
    program's."""
    if isinstance(m, ExprMismatch):
        return EXPRESSION, "node", ""
    step = m.mine.decided_by if isinstance(m, OpMismatch) else ""
    return kind(m), m.mine.rule, step


def causes(report: Report, examples: int = EXAMPLES) -> list[Cause]:
    """``report``'s mismatches grouped by ``cause``, the largest group first (ties in the order
    first met), each with its count and its first ``examples`` cells."""
    groups: dict[tuple[str, str, str], list[AnyMismatch]] = {}
    for m in mismatches(report):
        groups.setdefault(cause(m), []).append(m)
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    return [Cause(*key, len(found), tuple(found[:examples])) for key, found in ordered]


def asked(report: Report) -> list[Asked]:
    """The cells compared per kind of question, with the mismatches of each; the kinds this
    report did not ask (no cells) are left out. Each triple is asked both n-ary questions
    (``result_type`` and the chain); a program counts once, however many nodes it has."""
    wrong = dict.fromkeys(KINDS, 0)
    for m in mismatches(report):
        wrong[kind(m)] += 1
    ops = report.ops
    cells = {
        PAIR: report.cells,
        RESULT_TYPE: report.triples,
        CHAIN: report.triples,
        VALUE: report.values,
        SPELLING: report.spellings,
        OPERATION: 0 if ops is None else ops.total,
        EXPRESSION: 0 if ops is None else ops.programs,
    }
    return [Asked(k, cells[k], wrong[k]) for k in KINDS if cells[k] or wrong[k]]


def count(reports: Sequence[Report]) -> int:
    """The mismatches of every report together."""
    return sum(len(mismatches(r)) for r in reports)


__all__ = [
    "EXAMPLES",
    "KINDS",
    "Asked",
    "Cause",
    "asked",
    "cause",
    "causes",
    "count",
    "kind",
]
