"""A table model's renderings: html, markdown, rst and csv through the jinja2 templates in
``templates/``, json from the model itself (``tablemodel.Table``), and a rich table for the
terminal.

The model holds every decision, so a template only loops and formats. jinja2 is imported only
to render a template and rich only for the terminal.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from promote_cli.errors import BadInputError, UsageError
from promote_cli.halftable import REFUSED
from promote_cli.schema import dumps
from promote_cli.tablemodel import LOSSY_MARK, NO_KERNEL_MARK, Row, Table

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
