"""The offline comparison: every framework's rules against its measurement files.

``differences`` asks the policy every measured question (``verify/measured`` reads the files)
through its public answers and returns one line per cell where the rules and the measurement
disagree, by the same rule as ``promote verify`` (``compare``); ``findings`` does it for all of
a framework's files in one pass, with the missing kernels the rules claim that no cell shows
(``unwitnessed``) or that no cell reaches (``unreached``); ``unmeasured`` lists what the policy
would ask that was not measured (a type added, an operation declared since). The tests run it
with no framework installed, so a plain clone catches a wrong rule.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promote_cli.operands import PYTHON
from promote_cli.record import Record
from promote_cli.verify.cases import plan, settings
from promote_cli.verify.measured import FILES, Measured
from promote_cli.verify.protocol import (
    CHAIN,
    EXPRESSION,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    VALUE,
    Asks,
    Cell,
    Gap,
    Nodes,
    Question,
    Refusal,
    Result,
)

if TYPE_CHECKING:
    from promote_cli.engine import Outcome, Policy
    from promote_cli.rules import Operations


def differences(policy: Policy, measured: Measured, rules: Operations | None) -> Iterator[str]:
    """One line per measured cell where ``policy`` disagrees with the framework."""
    from promote_cli.engine import remembering
    from promote_cli.verify.compare import MISMATCH, judged

    with remembering():
        for opts, q, cell in measured.cells:
            v = judged(policy, rules, opts, q, cell)
            if v.status == MISMATCH:
                yield _difference(policy, opts, q, cell, v.mine)


def _difference(
    policy: Policy, opts: Mapping[str, Any], q: Question, cell: Cell, mine: Outcome
) -> str:
    from promote_cli.rules import NO_KERNEL

    gives = mine.result or "refused"
    if mine.rule == NO_KERNEL:
        gives += " with no CPU kernel (a gap)"
    asked = f"{policy.name} {describe(q)} under {dict(opts)}"
    return f"{asked}: measured {answer_text(cell)}, rules give {gives}"


def unwitnessed(policy: Policy, measured: Measured, rules: Operations) -> list[str]:
    """The missing kernels the rules claim that nothing measured shows: one line per option
    setting, operation and type the kernel would run on (the promoted type) where the rules
    mark cells no-kernel and the framework, in every one of them, ran and gave a type. Each
    such cell is a mismatch too (``differences``: a gap claimed where the kernel runs); this
    names the claim itself, which no cell witnesses."""
    return findings(policy, {"operations": measured}, rules).unwitnessed


def unreached(measured: Measured, rules: Operations) -> list[str]:
    """The missing kernels a rule declares that no measured cell reaches: one line per
    operation and entry of its ``no_kernel``, ``no_kernel_operand`` or ``no_kernel_mixed``
    that marks no cell under any setting. Such an entry answers nothing the framework was
    asked (an earlier step decides every cell it names, such as a refusal of the same type),
    so a refusal added in front of a missing kernel would pass the comparison, which takes a
    refusal for a missing kernel."""
    return findings(rules.policy, {"operations": measured}, rules).unreached


class Findings(Record):
    """What the offline comparison finds in a framework's files: ``differences``,
    ``unwitnessed`` and ``unreached`` (each empty when the rules hold)."""

    differences: list[str]
    unwitnessed: list[str]
    unreached: list[str]


def findings(policy: Policy, files: Mapping[str, Measured], rules: Operations | None) -> Findings:
    """``differences`` of every file, and ``unwitnessed`` and ``unreached`` of its operation
    cells (none without ``rules``), in one pass: each operation cell is answered by the rules
    once for all three (the same answer ``differences`` judges). An operation's table (its
    cells under one setting) that is another's twin (``_twin_key``) is not answered again: the
    rules answer it cell for cell as they answered the other, so it is found clean when the
    other was, and what its cells show of missing kernels is the other's."""
    from promote_cli.engine import remembering
    from promote_cli.verify.compare import MISMATCH, judged

    differ: list[str] = []
    # unwitnessed: (setting, operation, promoted type) -> whether a cell showed the gap
    seen: dict[tuple[str, str, str], bool] = {}
    # unreached: the (operation, list, entry) the rules declare, and those a cell reaches
    declared: set[tuple[str, str, str]] = set()
    reached: set[tuple[str, str, str]] = set()
    spelled: dict[int, tuple[Mapping[str, Any], str]] = {}
    # each setting's clean tables, by what was measured: their operations and what they found
    clean: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], _Table]]] = {}
    with remembering():
        for m in files.values():
            for table in _tables(m.cells):
                opts, q, cell = table[0]
                if q.kind != OPERATION or rules is None:
                    v = judged(policy, rules, opts, q, cell)
                    if v.status == MISMATCH:
                        differ.append(_difference(policy, opts, q, cell, v.mine))
                    continue
                # A file's cells of one setting share its options (``parse``): spelled once.
                known = spelled.get(id(opts))
                if known is None or known[0] is not opts:
                    known = spelled[id(opts)] = (opts, json.dumps(opts, sort_keys=True))
                setting, operation = known[1], q.operation
                rule = rules.under(opts)[operation]
                lists = {f: getattr(rule, f) for f in _KERNEL_LISTS}
                declared.update((operation, f, e) for f, entries in lists.items() for e in entries)
                # What was measured: each cell's operands and answer (its kind of record too:
                # records are tuples, and ``Refusal("")`` equals ``Unobservable("")``).
                asked = (setting, *((x.operands, type(c), c) for _, x, c in table))
                twin = _twin_key(rules, operation, rule)
                done = next((t for key, t in clean.get(asked, ()) if key == twin), None)
                if done is None:
                    done = _table(policy, rules, lists, table)
                    if done.differences:
                        differ += done.differences
                    else:
                        clean.setdefault(asked, []).append((twin, done))
                for t, witnessed in done.seen.items():
                    key = (setting, operation, t)
                    seen[key] = seen.get(key, False) or witnessed
                reached.update((operation, f, e) for f, e in done.reached)
    return Findings(
        differ,
        [
            f"{policy.name} {operation} of {t} under {opts}: the rules mark it no-kernel, but"
            " every such cell ran"
            for (opts, operation, t), witnessed in seen.items()
            if not witnessed
        ],
        [
            f"{operation}: {field} declares {entry}, which no measured cell reaches"
            for operation, field, entry in sorted(declared - reached)
        ],
    )


def _tables(
    cells: Sequence[tuple[Mapping[str, Any], Question, Cell]],
) -> Iterator[Sequence[tuple[Mapping[str, Any], Question, Cell]]]:
    """``cells`` in runs: each operation's table under one setting (its cells and its valued
    cells, as ``parse`` lists them one after the other), every other cell alone."""
    run: list[tuple[Mapping[str, Any], Question, Cell]] = []
    for c in cells:
        opts, q, _ = c
        if run:
            first_opts, first = run[0][0], run[0][1]
            same = first_opts is opts or first_opts == opts
            if q.kind != OPERATION or q.operation != first.operation or not same:
                yield run
                run = []
        if q.kind == OPERATION:
            run.append(c)
        else:
            yield (c,)
    if run:
        yield run


def _twin_key(rules: Operations, name: str, rule: Any) -> tuple[Any, ...]:
    """What the rules' answer to an operation's cell depends on besides its operands and the
    option setting (``walk.answer``): the operation's rule and its vocabulary entry, but the
    fields that only name it (the rule's function and note; the entry's name, summary, the
    method Python calls and the function it follows, whose rule is the rule), and the
    declarations looked up by an operator's name (a reflected method missing, how ``a op= b``
    lands). Two operations of one setting with the same key and the same measured cells
    (twins) are answered alike, cell for cell."""
    from promote_cli.vocabulary import AUGMENTED, FUNCTION, VOCABULARY, operation

    op = operation(name)
    operators, updates = rules.operators, rules.updates
    operator = VOCABULARY[op.like] if op.syntax == AUGMENTED else op
    unreflected = op.syntax != FUNCTION and operators is not None
    return (
        rule._replace(function="" if rule.function is not None else None, note=""),
        op._replace(name="", summary="", dunder="", like=""),
        unreflected and operator.name in operators.unreflected,  # type: ignore[union-attr]
        op.name in updates.rebinds,
        tuple(updates.refuses_left.get(op.name, ())),
    )


class _Table(Record):
    """What one operation's table under one setting shows: the cells that differ (a line
    each), whether each promoted type the rules mark no-kernel was seen missing in a cell, and
    the entries of the rule's kernel lists (list, entry) its cells reach."""

    differences: list[str]
    seen: dict[str, bool]
    reached: set[tuple[str, str]]


def _table(
    policy: Policy,
    rules: Operations,
    lists: Mapping[str, Sequence[str]],
    table: Sequence[tuple[Mapping[str, Any], Question, Cell]],
) -> _Table:
    """``findings`` of one operation's table, each cell answered by the rules."""
    from promote_cli.rules import NO_KERNEL
    from promote_cli.verify.compare import MISMATCH, status
    from promote_cli.walk import answer

    found = _Table([], {}, set())
    for opts, q, cell in table:
        mine, promoted = answer(rules, q.operation, q.operands, opts)
        if status(policy, q, mine, cell) == MISMATCH:
            found.differences.append(_difference(policy, opts, q, cell, mine))
        if mine.rule != NO_KERNEL:
            continue
        t = (promoted or mine).result or ""
        found.seen[t] = found.seen.get(t, False) or isinstance(cell, Gap)
        if mine.decided_by != "no-kernel":
            continue
        kernel_t = promoted.result if promoted is not None else None
        arrays = [x.dtype for x in q.operands if x.category != PYTHON]
        found.reached.update(
            (f, e)
            for f, entries in lists.items()
            for e in entries
            if _MARKS[f](e, kernel_t, arrays)
        )
    return found


# Which cells an entry of each list marks no-kernel, given the promoted type and the array
# operands' types: by the promoted type (or its kind), by an array operand, or by the promoted
# type itself (when the operands are not two arrays of it).
_MARKS: Mapping[str, Callable[[str, str | None, list[str]], bool]] = {
    "no_kernel": lambda e, t, arrays: t is not None and _matches((e,), t),
    "no_kernel_operand": lambda e, t, arrays: any(_matches((e,), a) for a in arrays),
    "no_kernel_mixed": lambda e, t, arrays: t == e,
}
_KERNEL_LISTS = tuple(_MARKS)


def _matches(keys: Sequence[str], t: str) -> bool:
    from promote_cli.rules import matches

    return matches(keys, t)


def answer_text(cell: Cell) -> str:
    if isinstance(cell, Nodes):
        return "[" + ", ".join(answer_text(c) for c in cell.cells if c is not None) + "]"
    if isinstance(cell, Result):
        return cell.dtype
    if isinstance(cell, Gap):
        return f"a missing kernel ({cell.dtype or 'no type named'})"
    return "refused" if isinstance(cell, Refusal) else "unobservable"


def describe(q: Question) -> str:
    """A question as a reader would write it: ``int8 x uint8``, ``divide(int8, S(int16))``."""
    from promote_cli import frameworks
    from promote_cli.operands import label

    nota = frameworks.notation("canonical")
    names = [label(op, nota, plain=True) for op in q.operands]
    if q.kind == PAIR:
        return " x ".join(names)
    if q.kind == RESULT_TYPE:
        return f"result_type({', '.join(names)})"
    if q.kind in (CHAIN, VALUE):
        return " + ".join(names)
    if q.kind == OPERATION:
        return f"{q.operation}({', '.join(names)})"
    if q.kind == EXPRESSION:
        bound = ", ".join(f"{n}={x}" for n, x in zip("xyz", names, strict=False))
        return f"the program {q.text!r} ({bound})"
    return f"the spelling {q.text!r}"


def unmeasured(
    policy: Policy,
    asks: Asks,
    rules: Operations | None,
    measured: Mapping[str, Measured],
    pinned: Mapping[str, Any] | None = None,
) -> list[str]:
    """What ``policy`` would be asked that the files do not hold, or hold otherwise, one line
    per file (``measure`` has not run since a type, an option value or an operation was
    added): each file lists, setting by setting, the enumeration's questions in its order."""
    asked: dict[str, dict[str, list[Question]]] = {f: {} for f in FILES}
    for opts, batch in plan(policy, settings(policy, pinned), asks, rules):
        file = next(f for f, kinds in FILES.items() if batch.kind in kinds)
        asked[file].setdefault(json.dumps(opts, sort_keys=True), []).extend(batch.questions)
    out = []
    for file, wanted in asked.items():
        kept = measured.get(file)
        have: dict[str, list[Question]] = {}
        spelled: dict[int, tuple[Mapping[str, Any], list[Question]]] = {}
        for opts, q, _ in kept.cells if kept is not None else ():
            # A file's cells of one setting share its options (``parse``): spelled once.
            known = spelled.get(id(opts))
            if known is None or known[0] is not opts:
                key = json.dumps(opts, sort_keys=True)
                known = spelled[id(opts)] = (opts, have.setdefault(key, []))
            known[1].append(q)
        if have == wanted:
            continue
        key = next(
            (k for k in [*wanted, *have] if wanted.get(k) != have.get(k)), next(iter(wanted))
        )
        mine, theirs = wanted.get(key, []), have.get(key, [])
        same = (i for i, (w, h) in enumerate(zip(mine, theirs, strict=False)) if w != h)
        first = next(same, min(len(mine), len(theirs)))
        where = (mine if first < len(mine) else theirs)[first]
        out.append(
            f"{policy.name}: {file} under {key} asks {len(mine):,} questions, {len(theirs):,}"
            f" measured; the first that differs: {describe(where)}"
            f" (promote measure {policy.name})"
        )
    return out
