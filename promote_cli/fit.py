"""Fitting plain text to a terminal: lines broken at word boundaries, wide grids printed in
blocks of whole columns. The standard library only, so ``promote pair`` and ``promote op`` can
use it without paying for rich.

Every function takes the width as an argument: None means "not a terminal" (piped, redirected,
a test's runner), and the text then stays whole, one record a line, for grep and cut. The
command line decides the width once (:func:`terminal_width`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import IO, Any

# A terminal narrower than this is treated as this wide: below it no layout reads well, and a
# wrapped word per line helps nobody.
NARROWEST = 40
_SPACES = r"( +)"  # compiled by ``re`` on first use, as most runs wrap nothing


def terminal_width(stream: IO[Any]) -> int | None:
    """The width of the terminal ``stream`` writes to, or None when it is not a terminal.
    ``COLUMNS`` wins when set (as ``shutil.get_terminal_size`` has it), then the terminal's
    own size, then 80."""
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return None
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return max(columns or 80, NARROWEST)


def cells(text: str) -> int:
    """How many terminal columns ``text`` takes: East Asian wide characters take two (the
    Ascend table's name, 互推导关系), combining marks none."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def wrap(line: str, width: int | None, hang: int = 2) -> list[str]:
    """``line`` broken at spaces into lines of at most ``width`` columns; each continuation
    is indented by the line's own indent plus ``hang``. Runs of spaces inside a line (aligned
    columns) are kept where the line is not broken; a word wider than the room stays whole on
    a line of its own. With ``width`` None the line is returned whole."""
    if width is None or cells(line) <= width:
        return [line]
    body = line.lstrip(" ")
    indent = " " * (len(line) - len(body))
    more = indent + " " * hang
    out: list[str] = []
    current, spaces = indent, ""
    for token in re.split(_SPACES, body):
        if not token:
            continue
        if token.startswith(" "):
            spaces = token
            continue
        if current.strip() == "":
            current += token
        elif cells(current) + cells(spaces) + cells(token) <= width:
            current += spaces + token
        else:
            out.append(current)
            current = more + token
        spaces = ""
    out.append(current)
    return out


def lines(text: str, width: int | None, hang: int = 2) -> str:
    """Every line of ``text`` through :func:`wrap` (a final newline is kept)."""
    if width is None:
        return text
    end = "\n" if text.endswith("\n") else ""
    body = text[:-1] if end else text
    return "\n".join(part for line in body.split("\n") for part in wrap(line, width, hang)) + end


def blocks(widths: Sequence[int], fixed: int, room: int | None, gap: int = 2) -> list[list[int]]:
    """The columns ``widths[fixed:]`` (their indexes) in runs that fit ``room`` beside the
    first ``fixed`` columns, which every run repeats; columns are never split, and a column
    too wide for any run gets one of its own. ``room`` None: one run of them all."""
    rest = list(range(fixed, len(widths)))
    if room is None or not rest:
        return [rest]
    base = sum(widths[:fixed]) + gap * fixed
    runs: list[list[int]] = [[]]
    used = base
    for j in rest:
        need = widths[j] + (gap if runs[-1] else 0)
        if runs[-1] and used + need > room:
            runs.append([])
            used, need = base, widths[j]
        runs[-1].append(j)
        used += need
    return runs


def grid(
    rows: Sequence[Sequence[str]],
    width: int | None,
    *,
    fixed: int = 1,
    right: Sequence[int] = (),
    gap: int = 2,
    label: str = "columns",
    flow_last: bool = False,
) -> str:
    """``rows`` (the first is the header) as aligned columns, trailing spaces trimmed. When
    ``width`` is given and the grid is wider, the columns after the first ``fixed`` are printed
    in blocks that fit, each repeating the first ``fixed`` columns and headed ``columns 3-7 of
    12:`` (``label`` names what is counted), as ``promote table`` prints a wide table. Columns
    whose index is in ``right`` are right-justified. With ``flow_last``, a last column of
    free text (a list of refusals) is broken at word boundaries under itself instead, when
    the other columns leave it room."""
    count = max((len(r) for r in rows), default=0)
    widths = [max((cells(r[j]) for r in rows if j < len(r)), default=0) for j in range(count)]
    base = sum(widths[:-1]) + gap * (count - 1)
    if flow_last and width is not None and count > 1 and base + widths[-1] > width:
        if base + NARROWEST // 2 <= width:
            return _flowing(rows, widths, width - base, gap, right)
        return _beneath(rows, widths, width, gap, right)
    runs = blocks(widths, fixed, width, gap)
    out: list[str] = []
    shown = count - fixed
    for n, run in enumerate(runs):
        if len(runs) > 1:
            if n:
                out.append("")
            out.append(f"{label} {run[0] - fixed + 1}-{run[-1] - fixed + 1} of {shown}:")
        for row in rows:
            out.append(_line(row, [*range(fixed), *run], widths, gap, right))
    return "\n".join(out) + "\n"


def _line(
    row: Sequence[str], columns: Sequence[int], widths: Sequence[int], gap: int, right: Any
) -> str:
    parts = []
    for j in columns:
        text = row[j] if j < len(row) else ""
        pad = " " * (widths[j] - cells(text))
        parts.append(pad + text if j in right else text + pad)
    return (" " * gap).join(parts).rstrip()


def _flowing(
    rows: Sequence[Sequence[str]], widths: list[int], room: int, gap: int, right: Any
) -> str:
    """The grid with its last column broken into lines of at most ``room`` columns, each
    continuation starting under the column."""
    last = len(widths) - 1
    indent = sum(widths[:last]) + gap * last
    out = []
    for row in rows:
        head = [*row[:last], ""]
        text = row[last] if last < len(row) else ""
        parts = wrap(text, room, hang=0) if text else [""]
        out.append((_line(head, range(last), widths, gap, right) + " " * gap).ljust(indent))
        out[-1] = (out[-1] + parts[0]).rstrip()
        out += [(" " * indent + part).rstrip() for part in parts[1:]]
    return "\n".join(out) + "\n"


def _beneath(
    rows: Sequence[Sequence[str]], widths: list[int], width: int, gap: int, right: Any
) -> str:
    """The grid without its last column, whose text (when there is any but ``-``) follows its
    row on lines of their own, named by the column's header: ``    refuses: bool, ...``."""
    last = len(widths) - 1
    name = rows[0][last] if rows and last < len(rows[0]) else ""
    out = []
    for n, row in enumerate(rows):
        out.append(_line(row, range(last), widths, gap, right))
        text = row[last] if last < len(row) else ""
        if n and text and text != "-":
            out += wrap(f"    {name}: {text}", width, hang=2)
    return "\n".join(out) + "\n"
