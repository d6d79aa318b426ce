"""Promotion tables as a *model* (rows, columns, labels, cells, refusals, differences) and its
renderings: html, markdown, rst and csv through the jinja2 templates in ``templates/``, json
from the model itself, and a rich table for the terminal.

The model holds every decision (which label, which cell differs, what the legend says), so a
template only loops and formats, and a user's ``--template`` sees the same facts as ours.
jinja2 is imported only to render a template and rich only for the terminal.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from promote_cli import __version__
from promote_cli.api import Request
from promote_cli.asked import ROW
from promote_cli.engine import Outcome, differs
from promote_cli.errors import BadInputError, UsageError
from promote_cli.halftable import REFUSED
from promote_cli.lossy import loss
from promote_cli.notations import Notation
from promote_cli.operands import PYTHON, Operand, label
from promote_cli.rules import NO_KERNEL
from promote_cli.schema import SCHEMA, dumps
from promote_cli.vocabulary import AUGMENTED, OPERATOR, REDUCTION

TABLE_ID = "types"  # the id the JAX page's stylesheet targets
LOSSY_MARK = "†"  # a lossy cell's second highlight in the text formats
NO_KERNEL_MARK = "‡"  # an operation's answer where the framework has no CPU kernel for it
MARKS = ("lossy",)  # what ``--mark`` can add to a table

TEMPLATES: Mapping[str, str] = {
    "html": "table.html.j2",
    "markdown": "table.md.j2",
    "rst": "table.rst.j2",
    "csv": "table.csv.j2",
}
FORMATS = (*TEMPLATES, "json", "term")
SUFFIXES: Mapping[str, str] = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".csv": "csv",
    ".json": "json",
    ".txt": "term",
}


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
    found = [
        lost
        for op in (a, b)
        if op.category != PYTHON and (lost := loss(op.dtype, cell.result)) is not None
    ]
    if not found:
        return cell
    return replace(cell, lossy=True, losses="; ".join(lost.text(nota) for lost in found))


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


# --- templates ------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&!$])")
_RST_SPECIAL = re.compile(r"([\\`*_\[\]<>|:])")
_RST_LEADING = re.compile(r"^([-+#.(>=0-9])")


def escape_markdown(text: Any) -> str:
    """Backslash-escape what inline Markdown would read as markup, including the table's
    ``|``, so a label always stays one cell of plain text."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def escape_rst(text: Any) -> str:
    """Backslash-escape reStructuredText inline markup, and a leading character that would
    start a list or comment inside a table cell."""
    return _RST_LEADING.sub(r"\\\1", _RST_SPECIAL.sub(r"\\\1", str(text)))


def csv_row(values: Sequence[Any]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(values)
    return out.getvalue()


def template_dir() -> Any:
    """Where our templates are: ``promote_cli/templates`` in an installed wheel (the build
    force-includes them there), else ``<repo>/templates`` in a source checkout."""
    from importlib.resources import files

    installed = files("promote_cli") / "templates"
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "templates"


def _environment(fmt: str, loader: Any, kind: Any = None) -> Any:
    import jinja2

    env = (kind or jinja2.Environment)(
        loader=loader,
        autoescape=fmt == "html",
        undefined=jinja2.StrictUndefined,  # a misspelt variable in a user's template is an error
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(md=escape_markdown, rst=escape_rst, csv_row=csv_row)
    return env


def render_template(table: Table, fmt: str, template: Path | None = None, **context: Any) -> str:
    """Render ``table`` with the template of ``fmt`` (or the user's ``template`` file, which
    gets that format's escaping and the same context)."""
    if fmt not in TEMPLATES:
        raise UsageError(f"--format {fmt} has no template; templates exist for {_names()}")
    return render_named(TEMPLATES[fmt], fmt, template, table=table, **context)


def render_named(name: str, fmt: str, template: Path | None = None, **context: Any) -> str:
    """Render our template ``name`` (or the user's ``template`` file) with ``fmt``'s escaping."""
    if template is not None:
        return _render_user(template, fmt, context)
    return _ours(fmt).get_template(name).render(**context)


@functools.cache
def _ours(fmt: str) -> Any:
    """The environment of our own templates with ``fmt``'s escaping, made once: it keeps each
    template compiled (``promote tables`` renders some 160 files; compiling each anew was
    most of its time)."""
    import jinja2

    root = template_dir()
    loader = jinja2.FunctionLoader(lambda n: (root / n).read_text(encoding="utf-8"))
    return _environment(fmt, loader)


def _render_user(template: Path, fmt: str, context: Mapping[str, Any]) -> str:
    """A user's template is untrusted code: it is read once (a symlink gives its target's
    text), rendered in jinja2's immutable sandbox (no attribute starting with ``_``, no method
    that mutates, no jinja2 globals such as ``lipsum`` or ``range``: only the context), and
    may not include, import or extend anything. Everything it does wrong is one line, exit 2."""
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    from promote_cli import textfiles

    data = textfiles.read_bytes(template, what="template")
    if data is None:
        raise BadInputError(f"template {template}: no such file")
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"template {template}: not UTF-8 text ({exc.reason})") from None

    def refuse(name: str) -> Any:
        raise jinja2.TemplateNotFound(
            f"{name} (a --template may not include, import or extend other files)"
        )

    env = _environment(fmt, jinja2.FunctionLoader(refuse), ImmutableSandboxedEnvironment)
    env.globals.clear()
    try:
        text = env.from_string(source).render(**context)
        text.encode("utf-8")  # a lone surrogate ("\ud800") is no text to print or write
        return text
    except UnicodeEncodeError as exc:
        raise BadInputError(
            f"template {template}: its output is not text: {exc.object[exc.start : exc.end]!r}"
            f" at character {exc.start} cannot be written as UTF-8"
        ) from None
    except jinja2.TemplateSyntaxError as exc:
        raise BadInputError(f"template {template} line {exc.lineno}: {exc.message}") from None
    except jinja2.UndefinedError as exc:
        raise BadInputError(
            f"template {template}: {exc.message}; the context is `table` and `standalone`"
            ' (see docs/guide/tables.md, "Your own template")'
        ) from None
    except jinja2.TemplateNotFound as exc:
        raise BadInputError(f"template {template}: cannot load {exc.message}") from None
    except Exception as exc:  # the template's own code failed (1/0, a bad filter argument ...)
        raise BadInputError(f"template {template}: {type(exc).__name__}: {exc}") from None


def _names() -> str:
    return ", ".join(TEMPLATES)


def render_json(table: Table) -> str:
    return dumps(table.to_dict())


def render_term(table: Table, *, color: bool, width: int | None = None) -> str:
    """A rich table; with ``color`` the differing cells are green, without it they are
    bracketed (``[f4]``) so the difference survives a pipe.

    ``width`` is the terminal's: a table wider than it is printed in blocks of whole columns
    that fit, each repeating the row labels (as pandas prints a wide frame), never wrapped in
    the middle of a row. None (piped output, a file) prints the one wide table."""
    from rich.console import Console
    from rich.text import Text

    console = Console(
        file=io.StringIO(),
        width=width or 10_000,  # without a terminal, never wrap a wide table
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        highlight=False,
        emoji=False,
    )
    texts = [_term_texts(row, color) for row in table.rows]
    blocks = _column_blocks(table, texts, width)
    for n, block in enumerate(blocks):
        if n:
            console.print()
        if len(blocks) > 1:
            console.print(Text(f"columns {block[0] + 1}-{block[-1] + 1} of {len(table.columns)}:"))
        console.print(_rich_table(table, texts, block))
    for line in legend_lines(table, diff_marker="green" if color else "[bracketed]"):
        console.print(Text(line))
    return console.file.getvalue()  # type: ignore[attr-defined]


def _term_texts(row: Row, color: bool) -> list[Any]:
    from rich.text import Text

    diff_style, refused_style, lossy_style = "bold black on green3", "dim", "black on yellow"
    texts = []
    for c in row.cells:
        if c.differs and not color:
            texts.append(Text(f"[{c.marked}]"))
        elif c.differs:
            texts.append(Text(c.marked, style=diff_style))
        elif c.lossy and color:
            texts.append(Text(c.marked, style=lossy_style))
        else:
            texts.append(Text(c.marked, style=refused_style if c.refused else ""))
    return texts


def _rich_table(table: Table, texts: list[list[Any]], block: Sequence[int]) -> Any:
    """The box-drawn table of the columns in ``block``, with the row labels."""
    from rich import box
    from rich.table import Table as RichTable
    from rich.text import Text

    out = RichTable(box=box.SQUARE)
    out.add_column(Text(""), style="bold", justify="right", no_wrap=True)
    for j in block:
        out.add_column(Text(table.columns[j].label, style="bold"), justify="center", no_wrap=True)
    for row, cells in zip(table.rows, texts, strict=True):
        out.add_row(Text(row.header.label, style="bold"), *(cells[j] for j in block))
    return out


def _column_blocks(table: Table, texts: list[list[Any]], width: int | None) -> list[list[int]]:
    """Runs of consecutive columns whose box-drawn table fits ``width`` (all of them in one
    when ``width`` is None); a column wider than the terminal on its own gets a block alone."""
    from rich.cells import cell_len

    columns = list(range(len(table.columns)))
    if width is None or not columns:
        return [columns]

    def cell_width(j: int) -> int:
        return max([cell_len(table.columns[j].label), *(cell_len(row[j].plain) for row in texts)])

    # A box-drawn table is one border, then each column's text, its two spaces of padding
    # and one border.
    used = 1 + 3 + max((cell_len(r.header.label) for r in table.rows), default=0)
    blocks: list[list[int]] = [[]]
    size = used
    for j in columns:
        need = cell_width(j) + 3
        if blocks[-1] and size + need > width:
            blocks.append([])
            size = used
        blocks[-1].append(j)
        size += need
    return blocks


LOSSY_LEGEND = "the result cannot hold every value of an input (it rounds, overflows or drops)."
NO_KERNEL_LEGEND = (
    "the dtype rule's answer, but the framework has no CPU kernel there: the call raises"
    " (a gap, not a promotion rule)."
)


def legend_lines(table: Table, *, diff_marker: str) -> list[str]:
    """The plain-text legend the terminal prints; the templates spell out the same facts."""
    lines = [
        f"{table.title} ({table.policy}), {table.notation} notation"
        + (f", {table.options_text}" if table.options_text else "")
        + f"; {table.reading}."
    ]
    if table.any_refused:
        lines.append(f"{REFUSED}: {table.title} refuses {table.refuses}.")
    if table.any_no_kernel:
        lines.append(f"{NO_KERNEL_MARK}: {NO_KERNEL_LEGEND}")
    if table.diff_against:
        lines.append(
            f"{diff_marker}: {table.diff_title} gives another type or none"
            " (it lacks the type or refuses)."
        )
    if table.mark_lossy:
        lines.append(f"{LOSSY_MARK}: {LOSSY_LEGEND}")
    weak = {c.text: c.weak_note.removeprefix("weak; ") for r in table.rows for c in r.cells}
    weak = {text: note for text, note in weak.items() if note}
    if weak:
        lines.append(
            "Weak results (*) become, as arrays: "
            + ", ".join(f"{text} -> {note}" for text, note in weak.items())
            + "."
        )
    misread = [f"{e.label} = {e.canonical}" for e in table.legend if e.collides]
    if misread:
        lines.append("Labels that other notations read differently: " + ", ".join(misread) + ".")
    return lines


def render(
    table: Table,
    fmt: str,
    *,
    standalone: bool = False,
    template: Path | None = None,
    color: bool = False,
    width: int | None = None,
) -> str:
    """``table`` in ``fmt``; every output ends with a newline. ``width`` is the terminal's
    (term only; None: no limit)."""
    renderers: dict[str, Callable[[], str]] = {
        "json": lambda: render_json(table),
        "term": lambda: render_term(table, color=color, width=width),
    }
    if fmt in renderers:
        if template is not None:
            raise UsageError(f"--template applies to {_names()}, not to --format {fmt}")
        return renderers[fmt]()
    if fmt not in TEMPLATES:
        raise UsageError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    return render_template(table, fmt, template, standalone=standalone)
