"""Symmetric promotion tables stored as their lower half, mirrored in code; and the base of
every table policy.

A table policy keeps only rows ``label c0 c1 ... ci`` (row i lists columns 0..i, in the row
order) in its own notation; ``×`` marks a refused pair. Each policy's tests compare the
mirrored table with the framework's full table, so the mirror is checked wherever it is used.
``TablePolicy`` looks a pair up and refuses, with the policy's reason, a ``×`` cell or a type the
table does not have.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from promote_cli.engine import Outcome, Policy, ref, refuse
from promote_cli.errors import PolicyDefinitionError
from promote_cli.operands import Operand
from promote_cli.record import Record

REFUSED = "×"  # also the refused cell of every rendered table and diff grid


class HalfTable(Record):
    order: tuple[str, ...]  # canonical names in the stored row order
    cells: dict[tuple[str, str], str | None]  # both halves; None where the pair is refused


def mirror(text: str, read: Mapping[str, str]) -> HalfTable:
    """The full table of a stored lower half; ``read`` maps its labels to canonical names."""
    rows = [line.split() for line in text.strip().splitlines()]
    order = tuple(read[row[0]] for row in rows)
    cells: dict[tuple[str, str], str | None] = {}
    for i, (_, *row) in enumerate(rows):
        if len(row) != i + 1:
            raise PolicyDefinitionError(f"half table row {i} has {len(row)} cells, not {i + 1}")
        for j, cell in enumerate(row):
            value = None if cell == REFUSED else read[cell]
            cells[order[i], order[j]] = cells[order[j], order[i]] = value
    return HalfTable(order, cells)


class TablePolicy(Policy):
    """A policy that answers from a stored ``HalfTable``. The reasons are the policy's own
    sentences, formatted with references (``engine.ref``) to ``{a}``, ``{b}``, the
    ``{result}``, and for a type missing from the table, ``{odd}``."""

    table: ClassVar[HalfTable]
    cell_reason: ClassVar[str] = "{a} x {b} = {result} in the table"
    crossed_reason: ClassVar[str] = "{a} x {b} is refused (× in the table)"
    outside_reason: ClassVar[str] = "{odd} is not in the table"

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return self.lookup(a.dtype, b.dtype)

    def lookup(self, a: str, b: str) -> Outcome:
        """The stored cell for ``a`` x ``b``, or the refusal a ``×`` or a missing type means."""
        label = ref
        if (a, b) not in self.table.cells:
            odd = a if (a, a) not in self.table.cells else b
            return refuse("unsupported", self.outside_reason.format(odd=label(odd)))
        result = self.table.cells[a, b]
        if result is None:
            return refuse("table", self.crossed_reason.format(a=label(a), b=label(b)))
        why = self.cell_reason.format(a=label(a), b=label(b), result=label(result))
        return Outcome(result, "table", why)
