"""Parse promote's rendered tables with real parsers (markdown-it-py, docutils, html.parser), so
golden tests compare cells, never whole strings."""

from __future__ import annotations

import io
from dataclasses import dataclass

from seeds import parse_html_table

Cells = dict[tuple[str, str], tuple[str, bool]]  # (row, col) -> (text, marked as different)


def html_table(html: str) -> tuple[list[str], Cells]:
    """The first ``<table>`` of an html output: (column labels, cells with class="d")."""
    start = html.index("<table id=")
    return parse_html_table(html[start : html.index("</table>", start) + len("</table>")])


def _cells(header: list[str], rows: list[list[tuple[str, bool]]]) -> Cells:
    """{(row label, column label): cell} of a table whose first column holds the labels."""
    return {
        (row[0][0], col): cell
        for row in rows
        for col, cell in zip(header[1:], row[1:], strict=True)
    }


@dataclass
class MarkdownTable:
    header: list[str]
    align: list[str | None]
    rows: list[list[tuple[str, bool]]]  # (text, bold) per cell, row label included

    def cells(self) -> Cells:
        return _cells(self.header, self.rows)


def markdown_tables(text: str) -> list[MarkdownTable]:
    """Every GFM pipe table markdown-it-py finds in ``text``."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables: list[MarkdownTable] = []
    row: list[tuple[str, bool]] | None = None
    in_head = False
    for i, tok in enumerate(tokens):
        if tok.type == "table_open":
            tables.append(MarkdownTable([], [], []))
        elif tok.type == "thead_open":
            in_head = True
        elif tok.type == "thead_close":
            in_head = False
        elif tok.type == "tr_open":
            row = []
        elif tok.type in ("th_open", "td_open"):
            style = tok.attrGet("style") or ""
            if in_head:
                tables[-1].align.append(str(style).removeprefix("text-align:") or None)
            inline = tokens[i + 1]
            # markdown-it leaves empty text tokens around the emphasis; they say nothing.
            kids = [c.type for c in inline.children or [] if c.type != "text" or c.content]
            bold = kids[:1] == ["strong_open"] and kids[-1:] == ["strong_close"]
            row.append((_inline_text(inline), bold))  # type: ignore[union-attr]
        elif tok.type == "tr_close":
            if in_head:
                tables[-1].header = [t for t, _ in row]  # type: ignore[union-attr]
            else:
                tables[-1].rows.append(row)  # type: ignore[arg-type]
    return tables


def _inline_text(inline) -> str:
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))


@dataclass
class RstTable:
    header: list[str]
    rows: list[list[tuple[str, bool]]]  # (text, bold)
    stub_columns: int
    messages: str  # every system message docutils reported (level info and up)

    def cells(self) -> Cells:
        return _cells(self.header, self.rows)


def rst_table(text: str) -> RstTable:
    """Parse ``text`` with docutils, reporting everything from level 1 (info) up."""
    from docutils import nodes
    from docutils.core import publish_doctree

    stream = io.StringIO()
    doc = publish_doctree(
        text,
        settings_overrides={"report_level": 1, "warning_stream": stream, "halt_level": 5},
    )
    messages = stream.getvalue() + "".join(m.astext() for m in doc.findall(nodes.system_message))
    table = doc.next_node(nodes.table)
    assert table is not None, "no table in the rst output"
    group = table.next_node(nodes.tgroup)
    stubs = sum(1 for c in group.findall(nodes.colspec) if c.get("stub"))

    def row_cells(row) -> list[tuple[str, bool]]:
        out = []
        for entry in row.children:
            strong = [n for n in entry.findall(nodes.strong)]
            text = entry.astext().strip()
            out.append((text, bool(strong) and strong[0].astext() == text))
        return out

    head = group.next_node(nodes.thead)
    body = group.next_node(nodes.tbody)
    header = [t for t, _ in row_cells(head.next_node(nodes.row))]
    rows = [row_cells(r) for r in body.children]
    return RstTable(header, rows, stubs, messages)


@dataclass
class HtmlTable:
    """One ``<table>`` of a built page: its attributes and, per row, (text, classes) per cell."""

    attrs: dict[str, str]
    rows: list[list[tuple[str, tuple[str, ...]]]]

    @property
    def classes(self) -> tuple[str, ...]:
        return tuple(self.attrs.get("class", "").split())

    def cells(self, mark: str = "d") -> Cells:
        """{(row, col): (text, has class ``mark``)}; the first row holds the column labels."""
        header = [text for text, _ in self.rows[0][1:]]
        return _cells(
            ["", *header], [[(t, mark in cls) for t, cls in row] for row in self.rows[1:]]
        )


def html_tables(page: str) -> list[HtmlTable]:
    """Every table of an html page (Sphinx's or MkDocs' output), nested markup flattened."""
    from html.parser import HTMLParser

    tables: list[HtmlTable] = []

    class Parser(HTMLParser):
        cell: list[str] | None = None
        classes: tuple[str, ...] = ()

        def handle_starttag(self, tag, attrs):
            if tag == "table":
                tables.append(HtmlTable({k: v or "" for k, v in attrs}, []))
            elif tag == "tr":
                tables[-1].rows.append([])
            elif tag in ("td", "th"):
                self.cell = []
                self.classes = tuple((dict(attrs).get("class") or "").split())

        def handle_endtag(self, tag):
            if tag in ("td", "th") and self.cell is not None:
                tables[-1].rows[-1].append(("".join(self.cell).strip(), self.classes))
                self.cell = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell.append(data)

    Parser().feed(page)
    return tables
