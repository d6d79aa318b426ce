"""``promote expr``'s table: the model the terminal, JSON, Sphinx and MkDocs show.

:func:`build` answers a :class:`~promote_cli.evaluation.Question` under each of its columns
and makes every decision a view needs: a row per node that computes something (its code, each
column's cell), the first node where the policies part, and the sentences under the table.
The views (``cli/expr``, ``sphinx``, ``markdown``) only lay it out.
"""

from __future__ import annotations

from collections.abc import Sequence

from promote_cli.evaluation import Question, Step, unanswered
from promote_cli.program import LITERAL, NAME
from promote_cli.record import Record

# What a table's cell shows where a column has stopped: the node that raised (or that promote
# does not answer under the column's policy), and the nodes after it.
RAISES, STOPPED, UNKNOWN, GAP = "raises", "·", "?", "no kernel"


def shown(step: Step) -> str:
    """A node's cell in a table: its dtype, ``raises``, ``no kernel``, ``?`` where it is not
    answered, or ``·`` after a stop."""
    if step.operand is not None:
        return step.operand.dtype
    if step.outcome is None:
        return STOPPED
    if unanswered(step):
        return UNKNOWN
    return GAP if step.outcome.rule == "no-kernel" else RAISES


class ExprTable(Record):
    """``promote expr``'s table, every decision made: the question, each column's steps node
    by node, the rows of the nodes that compute, the node where the policies part (None where
    they never do) and the sentences under the table."""

    question: Question
    answers: list[list[Step]]
    rows: list[Row]
    parts: int | None
    notes: list[str]


def build(question: Question) -> ExprTable:
    """``question`` answered under each of its columns, as a table."""
    answers = question.answers()
    return ExprTable(
        question, answers, rows(question, answers), parting(answers), notes(question, answers)
    )


class Row(Record):
    """A row of ``promote expr``'s table: a node that computes something (its number), its code
    (an assignment's with its name), each column's cell, and whether the policies part there."""

    number: int
    code: str
    cells: tuple[str, ...]
    parts: bool


def rows(question: Question, answers: Sequence[Sequence[Step]]) -> list[Row]:
    """The table's rows in evaluation order (the terminal's, the docs' directives')."""
    parts = parting(answers)
    out = []
    for i, node in enumerate(question.program.nodes):
        if node.kind in (NAME, LITERAL):
            continue
        text = " ".join(node.text.split())
        if node.binds and not node.operation.endswith("="):
            text = f"{node.binds} = {text}"
        out.append(Row(i, text, tuple(shown(a[i]) for a in answers), i == parts))
    return out


def notes(question: Question, answers: Sequence[Sequence[Step]]) -> list[str]:
    """The sentences under the table: where each column raised and why, then where the
    policies part (or that they agree)."""
    from promote_cli import frameworks

    if not question.program.shown():  # a name or a literal alone: no operation runs
        return ["no node computes: the code names a value and applies no operation to it"]
    nota = frameworks.notation("canonical")
    out = []
    for column, a in zip(question.columns, answers, strict=True):
        stop = next((s for s in a if s.operand is None and s.outcome is not None), None)
        if stop is not None and stop.outcome is not None:
            where = " ".join(stop.node.text.split())
            does = "is not answered" if unanswered(stop) else "raises"
            out.append(f"{column.title} {does} at {where}: {stop.outcome.text(nota)}")
    parts = parting(answers)
    titles = [c.title for c in question.columns]
    if parts is not None:
        node = question.program.nodes[parts]
        cells = ", ".join(f"{t} {shown(a[parts])}" for t, a in zip(titles, answers, strict=True))
        out.append(f"> the policies part at {' '.join(node.text.split())}: {cells}")
    elif len(titles) > 1 and any(unanswered(s) for a in answers for s in a):
        out.append("the policies agree on every node answered under each")
    elif len(titles) > 1:
        out.append("the policies agree on every node")
    return out


def parting(answers: Sequence[Sequence[Step]]) -> int | None:
    """The index of the first node whose answers differ between the columns (a refusal and a
    dtype differ; two refusals agree), or None when they never part. A column unanswered at
    a node (``UNANSWERED``) takes no part from there on."""
    known = set(range(len(answers)))  # the columns answered so far
    for i, row in enumerate(zip(*answers, strict=True)):
        if row[0].node.kind in (NAME, LITERAL):
            continue
        known -= {k for k, s in enumerate(row) if unanswered(s)}
        if len(known) < 2:
            return None
        seen = {_verdict(row[k]) for k in known}
        if len(seen) > 1:
            return i
    return None


def _verdict(step: Step) -> tuple[str, str]:
    if step.operand is not None:
        return ("value", step.operand.dtype)
    if step.outcome is not None:
        return ("raises", "")
    return ("stopped", "")
