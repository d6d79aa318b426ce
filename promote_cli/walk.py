"""The walk that answers a cell of an operation: ``answer`` looks the option setting up once,
walks the steps of the cell's rule that can decide it (``walk_of``: ``Step.applies``), in the
order of ``steps.STEPS``, and names the step that decided; ``a op= b`` then lands the
operator's outcome on ``a`` as the framework's ``Updates`` say. A cell with a Python scalar's
value walks its types once (kept while ``engine.remembering`` runs) and the value step alone
sees the value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.dtypes import is_weak
from promote_cli.engine import Outcome, ref, refuse, remembered_as
from promote_cli.errors import UsageError
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.rules import (
    IN_PLACE,
    NO_KERNEL,
    REBINDS,
    REPLACES,
    SAME_ONLY,
    SHAPE,
    UPDATE_REFUSED,
    Operations,
    Rule,
    Updates,
    matches,
)
from promote_cli.steps import STEPS, UPDATE_STEP, At, Draft, Step, operand_text, values_taken
from promote_cli.vocabulary import AUGMENTED, REDUCTION, UNARY, WHERE, Operation, operation


def answer(
    ops: Operations, name: str, operands: Sequence[Operand], opts: Mapping[str, Any]
) -> tuple[Outcome, Outcome | None]:
    """The output of operation ``name`` on ``operands`` (one for a unary operation or a
    reduction, two for a binary one or ``where``'s value operands), and the promotion it
    started from (None when it was refused before promoting): the first of ``STEPS`` to
    decide, named in the outcome's ``decided_by``."""
    op = operation(name, len(operands))
    want = 1 if op.arity in (UNARY, REDUCTION) else 2
    if len(operands) != want:
        raise UsageError(
            f"{name} takes {want} operand{'s' if want > 1 else ''}"
            f"{' (the two values; the condition is a bool array)' if op.arity == WHERE else ''},"
            f" not {len(operands)}"
        )
    rules, maps, values_promote = ops.setting(opts)
    rule = rules[op.name]
    at = (ops, opts, rule, maps, op)  # where the cell is: what every step of its walk reads
    given = tuple(operands)
    # one operand or two (checked above): the first and the last are all of them
    if given[0].value is None and given[-1].value is None:
        out, promoted = _walk(at, given, given, False)
    elif values_promote:  # every step sees the values
        out, promoted = _walk(at, given, given, True)
    else:
        out, promoted = _walk_valued(at, given)
    if op.syntax == AUGMENTED:
        out = _update(ops, op, operands, out, rule)
    return out, promoted


def _walk(
    at: At, valued: tuple[Operand, ...], operands: tuple[Operand, ...], values: bool
) -> tuple[Outcome, Outcome | None]:
    """The steps of the rule's walk (``walk_of``) in order on one cell (``operands``, their
    values in ``valued``; ``values``: a value for the value step): the first that decides
    it, else the output found."""
    ops, opts, rule, _, op = at
    cell = Draft(at, valued, operands, values)
    for name, _, check, _ in walk_of(ops, rule, op, values):
        decided = check(cell)
        if decided is not None:
            return decided._replace(decided_by=name), cell.promoted
    out = cell.out
    materialised = ops.policy.materialise(out, opts) if out is not None and is_weak(out) else None
    return Outcome(
        out, rule.applied_kind.value, cell.why, None, materialised, (), cell.by
    ), cell.promoted


def walk_of(ops: Operations, rule: Rule, op: Operation, values: bool) -> tuple[Step, ...]:
    """The steps of ``STEPS`` that ``rule`` walks for ``op``: those that can decide or change
    a cell of it (``Step.applies``), in their order. Kept while ``remembering`` runs (the
    operations and the rule are kept with it, so their ids name them alone)."""
    return remembered_as(
        ("walk of", id(ops), id(rule), op.name, values),
        lambda: (ops, rule, tuple(s for s in STEPS if s.applies(ops, rule, op, values))),
    )[2]


@cache
def _before_value(steps: tuple[Step, ...]) -> tuple[frozenset[str], Step]:
    """The steps before ``value``, which see the operands' types alone (one that decides a
    cell decides it whatever a Python scalar's value; ``special`` aside: its answer is still
    value-checked), and the value step."""
    at = [s.name for s in steps].index("value")
    return frozenset(s.name for s in steps[:at]), steps[at]


def _walk_valued(at: At, valued: tuple[Operand, ...]) -> tuple[Outcome, Outcome | None]:
    """``_walk`` on a cell with a Python scalar's value, which only the value step sees: the
    walk of its types (kept while ``remembering`` runs, so the cells of one type and many
    values walk once), then the value step where that walk went past it."""
    ops, opts, rule, _, op = at
    bare = tuple(x.typed() for x in valued)
    if rule.skips_kernel:  # the value decides whether a kernel is reached: walked with it
        return _walk(at, valued, bare, True)
    cell = Draft(at, valued, bare, True)
    if rule.function is not None:  # else refused by the first step, ``absent``
        values_taken(cell)  # the second step's first check, ``takes``
    # ``ops`` is kept in the answer: alive as long as the memory is, its id names it alone.
    _, out, promoted = remembered_as(
        ("walk", id(ops), op, bare, *opts.items()),
        lambda: (ops, *_walk(at, bare, bare, False)),
    )
    blind, value = _before_value(STEPS)
    by = out.decided_by
    if by in blind and (by != "special" or out.refused):
        return out, promoted
    found = value.check(cell)
    if found is None:
        return out, promoted
    return found._replace(decided_by="special" if by == "special" else "value"), promoted


def _update(
    ops: Operations, op: Operation, operands: Sequence[Operand], out: Outcome, rule: Rule
) -> Outcome:
    """``a op= b``: the operator's outcome ``out``, landed on the name ``a`` as the framework's
    ``Updates`` say: rebound to it (also where the array type has no in-place method for
    ``op``), or cast back into ``a``'s array (refused when its kind ranks above ``a``'s, or,
    SAME_ONLY, when it is not ``a``'s dtype; or when ``a`` is 0-d and the result is not)."""
    left, right = operands
    if out.refused:
        return out
    updates = ops.updates
    # A kernel gap stays one, decided by its step: the call raises whatever the update does.
    gap = out.rule == NO_KERNEL
    fallback = op.name in updates.rebinds
    if updates.how == REBINDS or left.category == PYTHON or fallback:
        who = "Python" if left.category == PYTHON or fallback else ops.policy.title
        lacking = ""
        if fallback and ops.operators is not None and left.category != PYTHON:
            lacking = f" ({ops.operators.array} has no {op.dunder})"
        return out._replace(
            rule=out.rule if gap else REBINDS,
            why=f"{out.why}; {who} binds the name to the result, a new array{lacking}",
            decided_by=out.decided_by if gap else UPDATE_STEP.name,
        )
    result = out.materialised.dtype if out.materialised is not None else out.result
    assert result is not None
    if matches(updates.refuses_left.get(op.name, ()), left.dtype):
        return refuse(
            UPDATE_REFUSED, f"{rule.function} refuses {operand_text(left)} on its left"
        )._replace(decided_by=UPDATE_STEP.name)
    if updates.how == REPLACES:
        return out._replace(
            result=result,
            rule=out.rule if gap else REPLACES,
            why=f"{out.why}; the {ref(left.dtype)} array object takes the result, dtype and"
            " all (every name for it sees the change)",
            materialised=None,
            decided_by=out.decided_by if gap else UPDATE_STEP.name,
        )
    if left.category == ZERO_D and right.category == DIMENSIONED:
        return refuse(
            SHAPE,
            f"{rule.function} writes the result back into the 0-d array, which cannot hold"
            " the shape of the array on the right",
        )._replace(decided_by=UPDATE_STEP.name)
    if (
        result != left.dtype
        if updates.how == SAME_ONLY
        else _rank(updates, result) > _rank(updates, left.dtype)
    ):
        return refuse(
            UPDATE_REFUSED,
            f"{rule.function} cannot write its {ref(result)} result into the"
            f" {ref(left.dtype)} array ({updates.says})",
        )._replace(decided_by=UPDATE_STEP.name)
    return out._replace(
        result=left.dtype,
        rule=out.rule if gap else IN_PLACE,
        why=f"{out.why}; written back into the {ref(left.dtype)} array, in place",
        materialised=None,
        decided_by=out.decided_by if gap else UPDATE_STEP.name,
    )


def _rank(updates: Updates, t: str) -> int:
    kind = dtype(t).kind
    return next(i for i, group in enumerate(updates.ranks) if kind in group)
