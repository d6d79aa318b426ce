"""Symmetric promotion tables stored as their lower half, mirrored in code.

A table policy keeps only rows ``label c0 c1 ... ci`` (row i lists columns 0..i, in the row
order) in its own notation; ``×`` marks a refused pair. Each policy's tests compare the
mirrored table with the framework's full table, so the mirror is checked wherever it is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from promote_cli.errors import PolicyDefinitionError

REFUSED = "×"  # also the refused cell of every rendered table and diff grid


class HalfTable(NamedTuple):
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
