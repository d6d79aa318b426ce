"""A promotion table as a *model*: rows, columns, labels, cells, refusals, differences.

:func:`build` answers a ``Request`` (and the one it is compared with) into a :class:`Table`
that holds every decision (which label, which cell differs, what the legend says), so that a
renderer (``promote_cli.render``: the templates, json, the terminal) only loops and formats,
and a user's ``--template`` sees the same facts as ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from promote_cli import __version__
from promote_cli.api import Request
from promote_cli.asked import ROW
from promote_cli.engine import Outcome, differs
from promote_cli.errors import UsageError
from promote_cli.halftable import REFUSED
from promote_cli.lossy import loss
from promote_cli.notations import Notation
from promote_cli.operands import PYTHON, Operand, label
from promote_cli.rules import NO_KERNEL
from promote_cli.schema import SCHEMA
from promote_cli.vocabulary import AUGMENTED, OPERATOR, REDUCTION

TABLE_ID = "types"  # the id the JAX page's stylesheet targets
LOSSY_MARK = "†"  # a lossy cell's second highlight in the text formats
NO_KERNEL_MARK = "‡"  # an operation's answer where the framework has no CPU kernel for it
MARKS = ("lossy",)  # what ``--mark`` can add to a table


@dataclass(frozen=True)
class Header:
    """A row or column: the operand, its plain label, and whether that label could be misread
    (then the legend gives the canonical name)."""

    canonical: str
    category: str
    label: str
    collides: bool


@dataclass(frozen=True)
class Cell:
    text: str  # the result's label, or ``×``
    result: str | None  # canonical name; None when refused
    refused: bool
    rule: str  # the rule that decided
    explanation: str  # why: the rule's reasoning, or the refusal's reason
    unsafe_result: str | None  # what an unsafe option would have given (OpenVINO)
    differs: bool  # the compared policy gives another answer, or none
    other: str | None  # the compared policy's result (canonical), None when it has none
    materialised: str | None = None  # a weak result: the dtype it becomes as an array
    weak_note: str = ""  # a weak result: "weak; float64 with x64"
    lossy: bool = False  # with ``--mark lossy``: the result cannot hold every value of an input
    losses: str = ""  # with ``lossy``: what is lost, one example per losing input
    no_kernel: bool = False  # an operation's answer, but the framework has no CPU kernel there

    @property
    def marked(self) -> str:
        """``text`` with the no-kernel mark (``u16‡``) and the lossy mark (``f4†``) when the
        cell has them."""
        return (
            self.text
            + (NO_KERNEL_MARK if self.no_kernel else "")
            + (LOSSY_MARK if self.lossy else "")
        )

    @property
    def reason(self) -> str:
        """Why the policy refused; "" for a result."""
        return self.explanation if self.refused else ""


@dataclass(frozen=True)
class Row:
    header: Header
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class LegendEntry:
    label: str
    canonical: str
    collides: bool
    elsewhere: str = ""  # who reads the label as another type: "OpenVINO: uint1"


@dataclass(frozen=True)
class Table:
    """Everything a rendering needs; the template context is ``table`` (this) and
    ``standalone``."""

    policy: str
    title: str  # the framework, e.g. "JAX"
    source: str
    notation: str
    notation_description: str
    options: Mapping[str, Any]  # canonical values
    options_text: str  # "x64=true, strict=false" in the notation; "" when none
    diff_against: str | None
    diff_title: str | None
    columns: tuple[Header, ...]
    rows: tuple[Row, ...]
    legend: tuple[LegendEntry, ...]  # every label the table prints, in order of appearance
    command: str  # the promote command that regenerates this table
    version: str = __version__
    table_id: str = TABLE_ID
    refused_mark: str = REFUSED
    marks: tuple[str, ...] = ()  # ``("lossy",)`` with ``--mark lossy``
    lossy_mark: str = LOSSY_MARK
    # What the table is (see ``_reading``): a promotion table, or an operation's.
    op: str | None = None  # what ``--op`` named: an operation, or a list of one-operand ones
    functions: tuple[tuple[str, str | None], ...] = ()  # (operation, framework function or None)
    heading: str = ""  # "JAX type promotion", "PyTorch: what torch.sqrt returns"
    reading: str = "rows are the first operand, columns the second"
    description: str = "The result of promoting the row type with the column type"
    refuses: str = "the pair"  # what the refused mark says the framework refuses
    no_kernel_mark: str = NO_KERNEL_MARK

    @property
    def mark_lossy(self) -> bool:
        return "lossy" in self.marks

    @property
    def any_lossy(self) -> bool:
        return any(c.lossy for r in self.rows for c in r.cells)

    @property
    def generator(self) -> str:
        return f"promote {self.version}"

    @property
    def any_refused(self) -> bool:
        return any(c.refused for r in self.rows for c in r.cells)

    @property
    def any_differs(self) -> bool:
        return any(c.differs for r in self.rows for c in r.cells)

    @property
    def any_no_kernel(self) -> bool:
        return any(c.no_kernel for r in self.rows for c in r.cells)

    def to_dict(self) -> dict[str, Any]:
        """The table in the JSON vocabulary of ``promote_cli.schema``."""

        functions = dict(self.functions)

        def header(h: Header) -> dict[str, Any]:
            if h.category == ROW:  # an operation, not an operand
                return {"label": h.label, "op": h.canonical, "function": functions[h.canonical]}
            return {"label": h.label, "canonical": h.canonical, "category": h.category}

        def cell(c: Cell) -> dict[str, Any]:
            lossy = {"lossy": c.lossy, "losses": c.losses or None} if self.mark_lossy else {}
            return {
                "result": c.result,
                "label": None if c.refused else c.text,
                "refused": c.refused,
                "rule": c.rule,
                "reason": c.explanation,
                "unsafe_result": c.unsafe_result,
                "materialised": c.materialised,
                "differs": c.differs,
                "other": c.other,
                **lossy,
            }

        return {
            "schema": SCHEMA,
            "command": "table",
            "policy": self.policy,
            "notation": self.notation,
            "options": dict(self.options),
            "generator": self.generator,
            "title": self.title,
            "source": self.source,
            "diff_against": self.diff_against,
            **({"marks": list(self.marks)} if self.marks else {}),
            **({"op": self.op, "functions": functions, "reading": self.reading} if self.op else {}),
            "rows": [header(r.header) for r in self.rows],
            "columns": [header(c) for c in self.columns],
            "cells": [[cell(c) for c in r.cells] for r in self.rows],
        }


def build(
    req: Request,
    diff_against: Request | None = None,
    command: str = "",
    marks: Sequence[str] = (),
) -> Table:
    """The table model of ``req`` (its operands, or the policy's default table).

    A cell differs when ``diff_against`` (the same question of another policy, ``Request.beside``)
    gives another answer there or has none (it lacks a type or refuses) while the policy
    answers; two refusals agree. With
    ``"lossy"`` in ``marks`` a cell is marked lossy when its result cannot hold every value of
    an array input (``promote_cli.lossy``).
    """
    unknown = [m for m in marks if m not in MARKS]
    if unknown:
        raise UsageError(f"--mark {unknown[0]}: can mark {', '.join(MARKS)}")
    policy, nota = req.policy, req.notation
    # One-operand operations: one row each, the types as columns.
    unary = req.asked is not None and req.asked.rows
    m = req.matrix()
    legend: dict[str, LegendEntry] = {}

    def header(op: Operand) -> Header:
        if op.category == ROW:
            return Header(op.dtype, op.category, f"{op.dtype}(x)", False)
        text = label(op, nota, plain=True)
        note(op.dtype)
        return Header(op.dtype, op.category, text, _misleads(op.dtype, nota))

    def note(canonical: str) -> None:
        if canonical not in legend:
            text = nota.label(canonical)
            misleads = _misleads(canonical, nota)
            legend[canonical] = LegendEntry(
                text,
                canonical,
                misleads,
                nota.family.misreadings(text, canonical) if misleads else "",
            )

    columns = tuple(header(c) for c in m.cols)
    rows = []
    for i, a in enumerate(m.rows):
        row_header = header(a)
        cells = []
        for j, b in enumerate(m.cols):
            out = m.cell(i, j)
            if diff_against is None:
                other = None
            elif unary and diff_against.asked is not None:
                op = diff_against.asked.operations[i]
                other = diff_against.asked.answer((b,), diff_against.options, op)[0]
            else:
                other = diff_against.cell(a, b)
            cell = _cell(out, other, nota)
            if "lossy" in marks and not out.refused and not unary:
                cell = _mark_lossy(cell, a, b, nota)
            cells.append(cell)
            if not out.refused:
                note(out.result)  # type: ignore[arg-type]
        rows.append(Row(row_header, tuple(cells)))
    return Table(
        **_what(req),
        policy=policy.name,
        title=policy.title,
        source=policy.source if req.asked is None else req.asked.rules.source,
        notation=nota.name,
        notation_description=nota.description,
        options=dict(m.options),
        options_text=req.options_text(),
        diff_against=diff_against.policy.name if diff_against else None,
        diff_title=diff_against.policy.title if diff_against else None,
        columns=columns,
        rows=tuple(rows),
        legend=tuple(legend.values()),
        command=command,
        marks=tuple(marks),
    )


def _what(req: Request) -> dict[str, Any]:
    """What the table is, for its legend and heading: a promotion table, one operation's
    (rows x1, columns x2), or one row per one-operand operation (columns: the array's type)."""
    title, asked = req.policy.title, req.asked
    if asked is None:
        return {"heading": f"{title} type promotion"}
    # The declared rules (the default setting's) name the functions under every setting.
    functions = tuple((op.name, asked.rules.rules[op.name].function) for op in asked.operations)
    what = {"op": asked.spec, "functions": functions, "refuses": "the call"}
    if not asked.rows:  # a binary operation or where: x1 by x2
        name, function = functions[0]
        values = " (the values; the condition is a bool array)" if name == "where" else ""
        returns = f"what {function} returns" if function else f"refused: {title} has no {name}"
        heading = f"What {function} returns" if function else f"{title} has no {name}"
        syntax = asked.operations[0].syntax
        if function and syntax == OPERATOR:
            returns = heading = f"what x1 {name} x2 gives ({function})"
        elif function and syntax == AUGMENTED:
            returns = heading = f"the dtype of x1 after x1 {name} x2 ({function})"
        return {
            **what,
            "heading": heading[:1].upper() + heading[1:],
            "reading": f"rows are x1, columns x2{values}; each cell is {returns}",
            "description": f"Each cell is {returns} for x1 of the row's type and x2 of the"
            f" column's type{values}",
        }
    if asked.one is not None:
        name, function = functions[0]
        returns = f"what {function} returns" if function else f"refused: {title} has no {name}"
        defaults = " with default arguments" if asked.one.arity == REDUCTION else ""
        return {
            **what,
            "heading": f"What {function} returns" if function else f"{title} has no {name}",
            "reading": f"each cell is {returns} for an array of the column's type{defaults}",
            "description": f"Each cell is {returns} for an array of the column's type{defaults}",
        }
    named = ", ".join(f"{name} = {function or 'none'}" for name, function in functions)
    return {
        **what,
        "heading": f"What {title}'s operations return",
        "reading": "rows are operations, columns the type of the array they are given (reductions"
        f" with default arguments); each cell is what the row's function returns ({named})",
        "description": "Each cell is what the row's operation returns for an array of the"
        " column's type (reductions with default arguments)",
    }


def _mark_lossy(cell: Cell, a: Operand, b: Operand, nota: Notation) -> Cell:
    lost_values = [
        lost
        for op in (a, b)
        if op.category != PYTHON and (lost := loss(op.dtype, cell.result)) is not None
    ]
    if not lost_values:
        return cell
    return replace(cell, lossy=True, losses="; ".join(lost.text(nota) for lost in lost_values))


def _misleads(canonical: str, nota: Notation) -> bool:
    text = nota.label(canonical)
    return text != canonical and nota.family.collides(text)


def _cell(out: Outcome, other: Outcome | None, nota: Notation) -> Cell:
    return Cell(
        text=REFUSED if out.refused else nota.label(out.result),  # type: ignore[arg-type]
        result=out.result,
        refused=out.refused,
        rule=out.rule,
        explanation=out.text(nota),
        unsafe_result=out.unsafe_result,
        differs=other is not None and differs(out, other),
        other=None if other is None else other.result,
        materialised=None if out.materialised is None else out.materialised.dtype,
        weak_note=out.weak_note(),
        no_kernel=out.rule == NO_KERNEL,
    )
