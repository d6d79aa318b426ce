"""Verifying operations: every operation x operand (x operand) x option setting, the policy's
answer (``promote_cli.ops``) against the framework's own function called on tiny arrays.

A cell the policy marks ``no-kernel`` is a *gap*: the dtype rule answers, but the framework's
CPU has no kernel there. It counts as a gap (neither verified nor a mismatch) when the framework
raises for want of a kernel or gives the rule's dtype; any other answer is a mismatch, and so is
a missing kernel whose message names another type than the rule's (MindSpore's messages name
the output type its dtype rule gave before the kernel search failed). An
operation the framework lacks is not called. Two refusals agree, whatever their reasons.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from promote_cli.errors import PromotionError
from promote_cli.operands import PYTHON, Operand
from promote_cli.ops import (
    NO_KERNEL,
    VOCABULARY,
    WHERE,
    Operation,
    Operations,
    answer,
    operands_of,
    takes_one,
)
from promote_cli.verify import Refused


@dataclass(frozen=True)
class OpMismatch:
    options: Mapping[str, Any]
    op: str
    operands: tuple[Operand, ...]
    promote: str | None
    framework: str | None
    framework_error: str = ""


@dataclass
class OpsReport:
    """What the operations of one policy came to: per operation, cells, gaps, mismatches."""

    cells: Counter = field(default_factory=Counter)  # op -> cells compared
    gaps: Counter = field(default_factory=Counter)  # op -> no-kernel cells
    absent: tuple[str, ...] = ()  # operations the framework lacks
    mismatches: list[OpMismatch] = field(default_factory=list)
    seconds: float = 0.0
    coverage: str = ""  # what was asked, when not every operand (JAX)
    note: str = ""  # why there is nothing to verify

    @property
    def total(self) -> int:
        return sum(self.cells.values())

    @property
    def total_gaps(self) -> int:
        return sum(self.gaps.values())


def verify_ops(
    declared: Operations | PromotionError,
    orc: Any,
    handle: Any,
    combos: list[dict[str, Any]],
    progress: Any = None,
) -> OpsReport:
    """Every operation ``declared`` (a policy's operations, or the refusal that says why it
    has none) under each option setting in ``combos``, asked of the framework through
    ``orc.calling``."""
    report = OpsReport()
    if isinstance(declared, PromotionError):
        report.note = declared.reason
        return report
    ops = declared
    if not hasattr(orc, "calling"):
        report.note = f"the {orc.FRAMEWORK} oracle does not call operations"
        return report
    started = time.perf_counter()
    report.absent = tuple(n for n, r in ops.rules.items() if r.function is None)
    operands = getattr(orc, "OPERANDS", lambda found: found)(every_operand(ops))
    report.coverage = getattr(orc, "COVERAGE", "")
    total = sum(
        len(cases(ops, operation, operands))
        for opts in combos
        for name, operation in VOCABULARY.items()
        if ops.under(opts)[name].function is not None
    )
    done = 0
    if progress:
        progress(0, total, "operations")
    for opts in combos:
        rules = ops.under(opts)
        with orc.calling(handle, opts) as call:
            for name, operation in VOCABULARY.items():
                rule = rules[name]
                if rule.function is None:
                    continue
                asked = cases(ops, operation, operands)
                answers = _ask(call, rule.function, operation, asked)
                for case, found in zip(asked, answers, strict=True):
                    mine = answer(ops, name, case, opts)[0]
                    if isinstance(found, Refused):
                        theirs, error = None, str(found)
                        # a missing kernel is a gap, unless the framework names a type its
                        # rule gave there and that type is not the policy's
                        kernel = found.kernel and found.dtype in (None, mine.result)
                    else:
                        theirs, error, kernel = found, "", False
                    report.cells[name] += 1
                    if mine.rule == NO_KERNEL and (kernel or theirs == mine.result):
                        report.gaps[name] += 1
                    elif mine.result != theirs:
                        report.mismatches.append(
                            OpMismatch(opts, name, case, mine.result, theirs, error)
                        )
                done += len(asked)  # a function's cases are answered together
                if progress:
                    progress(done, total, "operations")
    report.seconds = time.perf_counter() - started
    return report


def every_operand(ops: Operations) -> tuple[Operand, ...]:
    """The operands the operations of ``ops`` are asked about (its policy's, but the types no
    operation takes)."""
    return operands_of(ops, VOCABULARY["add"])


def cases(
    ops: Operations, operation: Operation, operands: Sequence[Operand]
) -> list[tuple[Operand, ...]]:
    """The calls ``promote verify`` makes of one operation, among ``operands``: each array
    alone for a unary operation or a reduction; every ordered pair for a binary one but two
    Python scalars (no array to call it on); every pair of ``where``'s two values. The worker
    oracles (Keras, Paddle, MindSpore) answer exactly these."""
    if takes_one(operation):
        return [(x,) for x in operands_of(ops, operation) if x in operands]
    pairs = list(itertools.product(operands, operands))
    if operation.arity == WHERE:
        return pairs
    return [c for c in pairs if not all(x.category == PYTHON for x in c)]


def _ask(call: Any, function: str, operation: Any, cases: list) -> list[Any]:
    """The framework's answer (a dtype name, or ``Refused``) for each case: all at once when
    the oracle can (``call.many``: JAX traces them together), else one call each."""
    many = getattr(call, "many", None)
    if many is not None:
        return many(function, operation, cases)
    found: list[Any] = []
    for case in cases:
        try:
            found.append(call(function, operation, case))
        except Refused as exc:
            found.append(exc)
    return found
