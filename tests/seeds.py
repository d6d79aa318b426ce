"""Read the seed documents in ../shared/seeds: the published tables promote must reproduce.

Tests compare against these parsed tables, never against promote's own output.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
JAX_PAGE = SEEDS / "000_f6b1d9dd375287d2.txt"
OPENVINO_SPEC = SEEDS / "001_34173b5ff53a4d2d.txt"
ASCEND_PAGE = SEEDS / "002_81c5b8d8debb6727.txt"


class _Table(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, bool]]] = []
        self._cell: list[str] | None = None
        self._green = False

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
            self._green = ("class", "d") in attrs

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(("".join(self._cell).strip(), self._green))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parse_html_table(html: str) -> tuple[list[str], dict[tuple[str, str], tuple[str, bool]]]:
    """(column labels, {(row label, col label): (cell text, has class="d")})."""
    parser = _Table()
    parser.feed(html)
    header = [text for text, _ in parser.rows[0][1:]]
    cells = {}
    for row in parser.rows[1:]:
        label = row[0][0]
        for col, (text, green) in zip(header, row[1:], strict=True):
            cells[label, col] = (text, green)
    return header, cells


def jax_table() -> tuple[list[str], dict[tuple[str, str], tuple[str, bool]]]:
    """The seed's 15x15 jnp.promote_types table in JAX byte notation, with its green cells."""
    text = JAX_PAGE.read_text(encoding="utf-8")
    start = text.index('<table id="types">')
    return parse_html_table(text[start : text.index("</table>", start) + len("</table>")])


def ascend_table() -> tuple[list[str], dict[tuple[str, str], str]]:
    """The seed's 16x16 aclnn table in Ascend notation; refused cells are '×'."""
    lines = [
        line
        for line in ASCEND_PAGE.read_text(encoding="utf-8").splitlines()
        if line.startswith("|")
    ]
    split = [[c.strip().strip("*") for c in line.strip().strip("|").split("|")] for line in lines]
    header = split[0][1:]
    cells = {}
    for row in split[2:]:
        for col, text in zip(header, row[1:], strict=True):
            cells[row[0], col] = text
    return header, cells


_EXAMPLE = re.compile(r"``ConvertPromoteTypes\((.+?), (.+?)\) -> (\w+)``")


def openvino_examples() -> list[tuple[str, str, str]]:
    """Every ``ConvertPromoteTypes(lhs, rhs) -> result`` example of the spec, as written."""
    return _EXAMPLE.findall(OPENVINO_SPEC.read_text(encoding="utf-8"))
