"""Comparing two policies: the cells of a shared grid where their answers differ.

Both policies are asked the same questions (the types both know, or the operands given), each
through ``engine.matrix``; a cell differs when the results differ (two refusals agree, whatever
their reasons). Types only one policy knows are reported, not compared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from promote_cli.engine import Matrix, Outcome, Policy, differs, matrix
from promote_cli.operands import Operand


class CellDiff(NamedTuple):
    row: Operand
    col: Operand
    left: Outcome
    right: Outcome


class Diff(NamedTuple):
    left: Matrix
    right: Matrix
    only_left: tuple[str, ...]  # canonical names in the left universe only
    only_right: tuple[str, ...]
    cells: tuple[CellDiff, ...]

    @property
    def identical(self) -> bool:
        return not self.cells

    @property
    def compared(self) -> int:
        return len(self.left.rows) * len(self.left.cols)


def shared_types(left: Policy, right: Policy) -> tuple[str, ...]:
    """The types both policies know, in the left policy's order."""
    theirs = set(right.universe)
    return tuple(t for t in left.universe if t in theirs)


def diff(
    left: Policy,
    right: Policy,
    operands: Sequence[Operand] | None = None,
    left_opts: Mapping[str, Any] | None = None,
    right_opts: Mapping[str, Any] | None = None,
) -> Diff:
    """Every cell of ``operands`` x ``operands`` (default: the shared types) where ``left`` and
    ``right`` answer differently."""
    ops = (
        tuple(operands)
        if operands is not None
        else tuple(Operand.of(t) for t in shared_types(left, right))
    )
    a = matrix(left, ops, ops, left_opts)
    b = matrix(right, ops, ops, right_opts)
    cells = tuple(
        CellDiff(row, col, a.cell(i, j), b.cell(i, j))
        for i, row in enumerate(ops)
        for j, col in enumerate(ops)
        if differs(a.cell(i, j), b.cell(i, j))
    )
    return Diff(
        left=a,
        right=b,
        only_left=tuple(t for t in left.universe if t not in set(right.universe)),
        only_right=tuple(t for t in right.universe if t not in set(left.universe)),
        cells=cells,
    )
