"""Comparing two policies: the cells of a shared grid where their answers differ, and the
three ways ``promote diff`` shows them (a list, a grid, JSON).

Both sides are requests (a policy with its options) asked the same questions (the types both
know, or the operands given), each through ``engine.matrix``; a cell differs when the results
differ (two refusals agree, whatever their reasons). Types only one policy knows are reported,
not compared. Everything is printed in one notation, the left request's.

Seen through one-operand operations (``--op sqrt``, ``--op unary``) the grid is not square: one
row per operation, one column per array type (``Request.matrix``), and a cell is ``sqrt(int8)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from promote_cli import fit, schema
from promote_cli.api import Request
from promote_cli.asked import ROW
from promote_cli.engine import Matrix, Outcome, Policy, differs
from promote_cli.halftable import REFUSED
from promote_cli.lossy import Loss, loss
from promote_cli.notations import Notation, display
from promote_cli.operands import PYTHON, Operand, label
from promote_cli.record import Record


class Marks(Protocol):
    """Measured notes beside a diff's cells (``nep50.Marks``)."""

    @property
    def title(self) -> str: ...  # "NumPy 1.26.4 warns"

    @property
    def by(self) -> str: ...  # what emitted them, how measured

    def warning(self, row: Operand, col: Operand) -> str | None:
        """The cell's note, "" when it was measured and has none, None when not measured."""


class CellDiff(Record):
    row: Operand
    col: Operand
    left: Outcome
    right: Outcome


class Diff(Record):
    left: Matrix
    right: Matrix
    only_left: tuple[str, ...]  # canonical names in the left universe only
    only_right: tuple[str, ...]
    cells: tuple[CellDiff, ...]
    op: str | None = None  # what ``--op`` named, when the cells are an operation's outputs
    # What the policy shows beside its cells under two settings (``Policy.diff_marks``:
    # NumPy 1.26's warnings between its promotions), and the cells it marks that agree.
    marks: Marks | None = None
    marked_agreeing: tuple[CellDiff, ...] = ()

    @property
    def identical(self) -> bool:
        return not self.cells

    @property
    def compared(self) -> int:
        return len(self.left.rows) * len(self.left.cols)

    @property
    def operations(self) -> tuple[str, ...]:
        """The rows' operations when the rows are one-operand operations, else ()."""
        return tuple(op.dtype for op in self.left.rows if op.category == ROW)


def shared_types(left: Policy, right: Policy) -> tuple[str, ...]:
    """The types both policies know, in the left policy's order."""
    theirs = set(right.universe)
    return tuple(t for t in left.universe if t in theirs)


# What ``promote diff --cells`` compares when no operands are given.
TYPES, OPERANDS, VALUES = "types", "operands", "values"
CELL_SETS = (TYPES, OPERANDS, VALUES)


def held(request: Request) -> tuple[Operand, ...]:
    """The 0-d arrays and NumPy scalars holding values whose values count under the request's
    options (``Policy.held_values`` of the values ``promote verify`` asks: NumPy's legacy
    promotion), none elsewhere."""
    from promote_cli.verify.cases import VALUES as ASKED

    return request.policy.held_values(request.options, ASKED)


def default_cells(left: Request, right: Request) -> str:
    """``values`` when a side's options make held values count (one policy under NumPy's two
    promotions: what changes is what values do), else ``types`` (the types both know)."""
    return VALUES if held(left) or held(right) else TYPES


def diff_operands(left: Request, right: Request, cells: str | None = None) -> tuple[Operand, ...]:
    """The rows (and columns) of a diff without ``--types``. ``types``: every type both policies
    know, as an array; ``operands``: every operand either side asks under its options
    (``Policy.operands``: arrays, and 0-d arrays, NumPy scalars and Python scalars where they
    matter) whose type both know; ``values``: those and the Python scalars holding each value
    ``promote verify`` asks (``verify.cases.VALUES``), then the 0-d arrays and NumPy scalars
    holding values either side names (``held``). ``cells`` None: ``default_cells``."""
    from promote_cli.operands import valued
    from promote_cli.verify.cases import VALUES as ASKED

    kind = cells or default_cells(left, right)
    shared = shared_types(left.policy, right.policy)
    if kind == TYPES:
        return tuple(Operand.of(t) for t in shared)
    both = set(shared)
    found = [
        op
        for side in (left, right)
        for op in side.policy.operands(side.options)
        if op.category == PYTHON or op.dtype in both
    ]
    if kind == VALUES:
        found += [valued(v) for v in ASKED]
        found += [*held(left), *held(right)]
    return tuple(dict.fromkeys(found))


def diff(left: Request, right: Request, kind: str | None = None) -> Diff:
    """Every cell of the left request's operands squared (default: ``diff_operands`` of
    ``kind``, ``--cells``) where ``left`` and ``right`` answer differently, each under its own
    options."""
    if kind is None and left.asked is not None:
        kind = TYPES  # an operation's cells: the types both know, as before
    asked = left.operands if left.operands is not None else diff_operands(left, right, kind)
    a, b = left.matrix(asked), right.matrix(asked)
    cells = tuple(
        CellDiff(row, col, a.cell(i, j), b.cell(i, j))
        for i, row in enumerate(a.rows)
        for j, col in enumerate(a.cols)
        if differs(a.cell(i, j), b.cell(i, j))
    )
    lu, ru = set(left.policy.universe), set(right.policy.universe)
    marks = None
    if left.asked is None and left.policy is right.policy:
        marks = left.policy.diff_marks(left.options, right.options)
    agreeing: tuple[CellDiff, ...] = ()
    if marks is not None:
        agreeing = tuple(
            CellDiff(row, col, a.cell(i, j), b.cell(i, j))
            for i, row in enumerate(a.rows)
            for j, col in enumerate(a.cols)
            if not differs(a.cell(i, j), b.cell(i, j)) and marks.warning(row, col)
        )
    return Diff(
        left=a,
        right=b,
        only_left=tuple(t for t in left.policy.universe if t not in ru),
        only_right=tuple(t for t in right.policy.universe if t not in lu),
        cells=cells,
        op=None if left.asked is None else left.asked.spec,
        marks=marks,
        marked_agreeing=agreeing,
    )


def _cell(out: Outcome, nota: Notation) -> str:
    return "refused" if out.refused else display(out.result, nota)  # type: ignore[arg-type]


def losses(c: CellDiff, out: Outcome) -> tuple[tuple[str, Loss], ...]:
    """What the answer ``out`` to the cell loses: ("a" or "b", the first value lost) for each
    array input its result cannot hold exactly (``promote_cli.lossy``)."""
    if out.refused:
        return ()
    return tuple(
        (side, lost)
        for side, op in (("a", c.row), ("b", c.col))
        # A Python scalar has no dtype to lose; an operation row is no input.
        if op.category not in (PYTHON, ROW) and (lost := loss(op.dtype, out.result)) is not None
    )


def _loses(c: CellDiff, out: Outcome, nota: Notation) -> str:
    found = losses(c, out)
    if not found:
        return ""
    who = " and ".join(label(c.row if s == "a" else c.col, nota, plain=True) for s, _ in found)
    return f" (loses {who}: {'; '.join(lost.text(nota) for _, lost in found)})"


def _names(d: Diff) -> tuple[str, str]:
    a, b = d.left.policy.name, d.right.policy.name
    return (f"{a} (left)", f"{b} (right)") if a == b else (a, b)


def _call(c: CellDiff, nota: Notation) -> str:
    """The question a cell asks: ``int8 x float16``, or ``sqrt(int8)`` for an operation row."""
    if c.row.category == ROW:
        return f"{c.row.dtype}({label(c.col, nota)})"
    return f"{label(c.row, nota)} x {label(c.col, nota)}"


def _head(op: Operand, nota: Notation) -> str:
    return f"{op.dtype}(x)" if op.category == ROW else label(op, nota, plain=True)


def summary(d: Diff, nota: Notation) -> list[str]:
    """How many cells differ, and the types only one side has: one sentence a line. An
    operation diff names the operation (``numpy vs torch, divide: ...``)."""
    a, b = _names(d)
    n = len(d.left.cols)
    k = len(d.operations)
    of = f"{k} operation{'s' if k > 1 else ''} x {n} types" if k else f"{n} types"
    spec = _op_fields(d).get("op")
    sides = f"{a} vs {b}" + (f", {spec}" if spec else "")
    lines = [
        f"{sides}: identical, all {d.compared} cells of {of} agree"
        if d.identical
        else f"{sides}: {len(d.cells)} of {d.compared} cells differ ({of})"
    ]
    for name, only in ((a, d.only_left), (b, d.only_right)):
        if only:
            lines.append(f"only {name} has: {' '.join(nota.label(t) for t in only)}")
    if d.marks is not None:
        lines.append(marks_summary(d))
    return lines


def marked(d: Diff, c: CellDiff) -> bool | None:
    """Whether the diff's marks mark the cell (None: no marks, or the cell was not measured)."""
    if d.marks is None:
        return None
    found = d.marks.warning(c.row, c.col)
    return None if found is None else bool(found)


def marks_summary(d: Diff) -> str:
    """``NumPy 1.26.4 warns on 1,560 of the 1,760 differing cells ...``: one sentence."""
    assert d.marks is not None
    seen = [marked(d, c) for c in d.cells]
    yes, no, unknown = seen.count(True), seen.count(False), seen.count(None)
    text = f"{d.marks.title} on {yes:,} of the {len(d.cells):,} differing cells, not on {no:,}"
    if unknown:
        text += f" ({unknown:,} not measured)"
    return (
        f"{text}, and on {len(d.marked_agreeing):,} cells that agree (listed last); by {d.marks.by}"
    )


def _mark_text(d: Diff, c: CellDiff) -> str:
    found = marked(d, c)
    assert d.marks is not None
    return {True: d.marks.title, False: "not warned", None: "not measured"}[found]


def differences(
    d: Diff, nota: Notation, lossy: bool = False
) -> tuple[tuple[str, str], list[tuple[str, str, str]]]:
    """The side names and one ``(pair, left answer, right answer)`` per differing cell, each
    answer ``refused`` or the result's label (with ``lossy``, followed by what it loses): what
    a listing of the diff shows."""
    rows = [
        (
            _call(c, nota),
            _cell(c.left, nota) + (_loses(c, c.left, nota) if lossy else ""),
            _cell(c.right, nota) + (_loses(c, c.right, nota) if lossy else ""),
        )
        for c in d.cells
    ]
    return _names(d), rows


def as_list(d: Diff, nota: Notation, lossy: bool = False, width: int | None = None) -> str:
    """One line per differing cell; with ``lossy`` each side says which input it loses, with
    an example value. ``width`` (a terminal's) breaks a line too long for it at word
    boundaries; None keeps every line whole."""
    (a, b), cells = differences(d, nota, lossy)
    rows: list[tuple[str, ...]] = [
        (pair, f"{a} {left}", f"{b} {right}") for pair, left, right in cells
    ]
    if d.marks is not None:  # a fourth column, then the marked cells that agree
        rows = [(*r, _mark_text(d, c)) for r, c in zip(rows, d.cells, strict=True)]
        rows += [
            (
                _call(c, nota),
                f"{a} {_cell(c.left, nota)}",
                f"{b} {_cell(c.right, nota)}",
                f"{d.marks.title} (agree)",
            )
            for c in d.marked_agreeing
        ]
    columns = 4 if d.marks is not None else 3
    widths = [max((len(r[k]) for r in rows), default=0) for k in range(columns)]
    body = ["  ".join(r[k].ljust(widths[k]) for k in range(columns)).rstrip() for r in rows]
    return fit.lines("\n".join([*body, *summary(d, nota)]) + "\n", width, hang=4)


def as_table(d: Diff, nota: Notation, lossy: bool = False, width: int | None = None) -> str:
    """A plain-text grid: ``.`` where both agree, ``left/right`` where they differ; with
    ``lossy`` a side whose result loses a value of an input is marked ``†``. On a terminal
    (``width``) a grid wider than it is printed in blocks of whole columns, each repeating the
    row labels, as ``promote table`` prints a wide table."""
    heads = [_head(op, nota) for op in d.left.rows]
    cols = [_head(op, nota) for op in d.left.cols]
    differing = {(c.row, c.col): c for c in d.cells}

    def cell(i: int, j: int) -> str:
        c = differing.get((d.left.rows[i], d.left.cols[j]))
        if c is None:
            return "."

        def show(o: Outcome) -> str:
            mark = "†" if lossy and losses(c, o) else ""
            return REFUSED if o.refused else nota.label(o.result) + mark  # type: ignore[arg-type]

        return f"{show(c.left)}/{show(c.right)}" + ("!" if marked(d, c) else "")

    grid = [[cell(i, j) for j in range(len(cols))] for i in range(len(heads))]
    a, b = _names(d)
    rows = [["", *cols], *([h, *row] for h, row in zip(heads, grid, strict=True))]
    # Each column as wide as its widest cell, right-justified: the grid reads as a matrix.
    right = range(len(cols) + 1)
    lines = [fit.grid(rows, width, fixed=1, gap=1, right=right).rstrip("\n")]
    warns = f"; ! {d.marks.title}" if d.marks is not None else ""
    lines.append(
        f"cells: . agree; {a}/{b} differ ({REFUSED} refused"
        + ("; † the result loses values of an input" if lossy else "")
        + f"{warns})"
    )
    return fit.lines("\n".join([*lines, *summary(d, nota)]) + "\n", width, hang=4)


def _json_losses(c: CellDiff, out: Outcome, nota: Notation) -> list[dict[str, str]]:
    return [{"input": side, "example": lost.text(nota)} for side, lost in losses(c, out)]


def _op_fields(d: Diff) -> dict[str, object]:
    """An operation diff says which (``op``: what ``--op`` named; ``operations``: the rows)."""
    if d.op is None:
        return {}
    return {"op": d.op, **({"operations": list(d.operations)} if d.operations else {})}


def _json_row(op: Operand, nota: Notation) -> dict[str, str]:
    if op.category == ROW:  # an operation, not an operand
        return {"label": f"{op.dtype}(x)", "op": op.dtype}
    return schema.operand(op, nota)


def _json_marks(d: Diff, nota: Notation) -> dict[str, object]:
    """With marks: who warned, and the marked cells that agree (each with its warning)."""
    if d.marks is None:
        return {}
    return {
        "warned_by": d.marks.by,
        "warned_agreeing": [
            {
                "row": _json_row(c.row, nota),
                "col": schema.operand(c.col, nota),
                "left": schema.outcome(c.left, nota),
                "right": schema.outcome(c.right, nota),
                "warning": d.marks.warning(c.row, c.col),
            }
            for c in d.marked_agreeing
        ],
    }


def _json_warned(d: Diff, c: CellDiff) -> dict[str, object]:
    """A difference's ``warned`` (true, false, or null when the cell was not measured) and,
    when true, the ``warning``; nothing without marks."""
    if d.marks is None:
        return {}
    text = d.marks.warning(c.row, c.col)
    return {"warned": None if text is None else bool(text), **({"warning": text} if text else {})}


def as_json(d: Diff, nota: Notation, lossy: bool = False) -> str:
    return schema.dumps(
        {
            "schema": schema.SCHEMA,
            "command": "diff",
            "notation": nota.name,
            "left": schema.side(d.left.policy, dict(d.left.options)),
            "right": schema.side(d.right.policy, dict(d.right.options)),
            **_op_fields(d),
            "types": [schema.operand(op, nota) for op in d.left.cols],
            "only_left": list(d.only_left),
            "only_right": list(d.only_right),
            "cells_compared": d.compared,
            "cells_differing": len(d.cells),
            "identical": d.identical,
            "differences": [
                {
                    "row": _json_row(c.row, nota),
                    "col": schema.operand(c.col, nota),
                    "left": schema.outcome(c.left, nota),
                    "right": schema.outcome(c.right, nota),
                    **(
                        {
                            "left_loses": _json_losses(c, c.left, nota),
                            "right_loses": _json_losses(c, c.right, nota),
                        }
                        if lossy
                        else {}
                    ),
                    **_json_warned(d, c),
                }
                for c in d.cells
            ],
            **_json_marks(d, nota),
        }
    )


# Each takes the diff, the notation, whether to mark lossy cells, and (but json) a width.
FORMATS: dict[str, Callable[..., str]] = {"list": as_list, "table": as_table, "json": as_json}
