"""A Sphinx extension: promotion tables, lattices, diffs and programs' dtypes generated when the
docs are built.

``extensions = ["promote_cli.sphinx"]`` in ``conf.py`` gives four directives (also usable from
MyST Markdown as ```` ```{promotion-table} jax ````)::

    .. promotion-table:: jax
       :types: f2, bf, f4
       :options: x64=false
       :notation: canonical
       :diff-against: numpy
       :style: table

    .. promotion-table:: numpy
       :op: divide

    .. promotion-lattice:: tensorflow
       :direction: up

    .. promotion-diff:: jax numpy
       :op: divide

    .. promotion-expr:: x / 2 + w.sum()
       :bind: x=int8 w=uint8
       :policies: numpy,torch

Each option means what the ``promote table`` / ``graph`` / ``diff`` flag of the same name means
(``:options:`` holds ``NAME=VALUE`` settings, comma or newline separated; ``:op:`` is ``--op``,
an operation's output dtypes instead of the promotion: a matrix for a binary operation, one row
for a unary one or a reduction), and each directive asks the same function its command asks,
so a page and a command line cannot disagree. A lattice runs left to right up the order, as
``promote graph`` draws it, or with ``:direction: up`` bottom to top (narrower, for most).
``promotion-expr`` is ``promote expr``'s table: its argument the code (or, for a few statements,
the directive's content, a line each), ``:bind:`` its ``NAME=TYPE`` words, ``:policies:`` its
``-p`` (default ``numpy,torch``), ``:options:`` its ``-O`` (``POLICY:NAME=VALUE`` for one
policy); a row per node in evaluation order, a column per policy, the row where the policies
part marked as a differing cell is, and under it where a column raises and where they part.

The directives return docutils nodes, so every builder works: a table is a real table (the row
labels a stub column), a differing cell carries the class ``d`` (JAX's page's class, which the
extension's stylesheet paints ``#ccf2cc``) and, in builders without colour (text, LaTeX), reads
``[f4]``; a legend under the table says what the marks mean. ``:style: raw-html`` embeds instead
exactly what ``promote table --format html`` prints, the look of JAX's page, in HTML builders (the
others get the table). The lattice is a ``sphinx.ext.graphviz`` node (Graphviz draws it at
build time). Nothing touches the network, nothing is kept between documents, so parallel reads
and writes are safe. A bad policy, type or option is a Sphinx error at the directive's line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from promote_cli import __version__, asking, compare, graph
from promote_cli.errors import PromoteError, printable
from promote_cli.render import legend_lines, render
from promote_cli.tablemodel import TABLE_ID, Cell, Table

STYLES = ("table", "raw-html")
STATIC = Path(__file__).parent / "static"
CSS = "promotion.css"
HTML = "format_html"  # the tag Sphinx sets for every HTML builder (html, dirhtml, singlehtml)
HIGHLIGHTED, BRACKETED = "highlighted", "[bracketed]"


def settings(text: str | None) -> list[str]:
    """``:options:`` as ``-O`` values: ``NAME=VALUE`` items, comma or newline separated."""
    return [item.strip() for item in re.split(r"[,\n]", text or "") if item.strip()]


def _paragraph(text: str) -> nodes.paragraph:
    return nodes.paragraph(text, text)


def _by_format(html: Sequence[nodes.Node], other: Sequence[nodes.Node]) -> list[nodes.Node]:
    """``html`` in HTML builders, ``other`` in the rest (Sphinx's ``only`` nodes)."""
    return [
        addnodes.only("", *html, expr=HTML),
        addnodes.only("", *other, expr=f"not {HTML}"),
    ]


def _entry(text: str, classes: Iterable[str] = (), *, marked: bool = False) -> nodes.entry:
    entry = nodes.entry(classes=list(classes))
    if marked:
        entry.extend(_by_format([_paragraph(text)], [_paragraph(f"[{text}]")]))
    else:
        entry += _paragraph(text)
    return entry


def grid(
    head: Sequence[str], rows: Iterable[Sequence[nodes.entry]], classes: list[str]
) -> nodes.table:
    """A docutils table whose first column is a stub column (the row labels). Each column is
    as wide as its longest text, which is what the text builder lays out."""
    body = [nodes.row("", *cells) for cells in rows]
    table = nodes.table(classes=classes)
    group = nodes.tgroup(cols=len(head))
    table += group
    for i, text in enumerate(head):
        width = max(_width(r[i]) for r in body) if body else 0
        group += nodes.colspec(colwidth=max(width, len(text), 1), stub=int(i == 0))
    thead = nodes.thead()
    thead += nodes.row("", *(_entry(h) if h else nodes.entry() for h in head))
    group += thead
    tbody = nodes.tbody()
    tbody.extend(body)
    group += tbody
    return table


def _width(entry: nodes.Node) -> int:
    return max((len(line) for line in entry.astext().splitlines()), default=0)


def table_nodes(table: Table) -> nodes.table:
    """``table`` (render's model) as docutils nodes: differing cells get the class ``d``,
    refused ones ``refused``."""

    def cell(c: Cell) -> nodes.entry:
        classes = (["d"] if c.differs else []) + (["refused"] if c.refused else [])
        return _entry(c.text, classes, marked=c.differs)

    rows = ([_entry(r.header.label), *(cell(c) for c in r.cells)] for r in table.rows)
    head = ["", *(c.label for c in table.columns)]
    return grid(head, rows, ["promotion-table", f"promotion-{table.policy}"])


def legend_nodes(table: Table) -> nodes.container:
    """render's legend, naming the mark each builder shows (colour in HTML, brackets else)."""
    box = nodes.container(classes=["promotion-legend"])
    for html, plain in zip(
        legend_lines(table, diff_marker=HIGHLIGHTED),
        legend_lines(table, diff_marker=BRACKETED),
        strict=True,
    ):
        if html == plain:
            box += _paragraph(html)
        else:
            box.extend(_by_format([_paragraph(html)], [_paragraph(plain)]))
    return box


class _PromoteDirective(SphinxDirective):
    """The boundary where a page's directive enters: whatever answering it raises is one Sphinx
    error at the directive's line, never the build's crash report. promote's own errors (a bad
    policy, type, option or policy file) say what is wrong; anything else is reported as
    promote's bug, still at the line."""

    def run(self) -> list[nodes.Node]:
        try:
            return self.nodes()
        except PromoteError as exc:
            raise self.error(printable(f"{self.name}: {exc}")) from None
        except Exception as exc:
            raise self.error(
                printable(
                    f"{self.name}: internal error in promote: {type(exc).__name__}: {exc}"
                    " (please report it)"
                )
            ) from None

    def nodes(self) -> list[nodes.Node]:
        raise NotImplementedError


class PromotionTable(_PromoteDirective):
    """``.. promotion-table:: POLICY``: the policy's promotion table, as ``promote table``."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {
        "types": directives.unchanged_required,
        "options": directives.unchanged_required,
        "notation": directives.unchanged_required,
        "diff-against": directives.unchanged_required,
        "op": directives.unchanged_required,
        "style": lambda arg: directives.choice(arg, STYLES),
    }

    def nodes(self) -> list[nodes.Node]:
        table = asking.table(
            self.arguments[0],
            self.options.get("types"),
            self.options.get("notation"),
            self.options.get("diff-against"),
            settings(self.options.get("options")),
            fmt="html" if self.options.get("style") == "raw-html" else None,
            op=self.options.get("op"),
        )
        if self.options.get("style") != "raw-html":
            return [table_nodes(table), legend_nodes(table)]
        # JAX's look: promote's html fragment; its stylesheet targets the table's id, so a second
        # table on the page gets its own.
        serial = self.env.new_serialno("promotion-table-raw")
        if serial:
            table = replace(table, table_id=f"{TABLE_ID}-{serial + 1}")
        raw = nodes.raw("", render(table, "html"), format="html")
        return [*_by_format([raw], [table_nodes(table)]), legend_nodes(table)]


class PromotionLattice(_PromoteDirective):
    """``.. promotion-lattice:: POLICY``: a lattice policy's Hasse diagram, as ``promote
    graph``, drawn by ``sphinx.ext.graphviz``."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {
        "options": directives.unchanged_required,
        "notation": directives.unchanged_required,
        "direction": lambda arg: directives.choice(arg, tuple(graph.DIRECTIONS)),
    }

    def nodes(self) -> list[nodes.Node]:
        from sphinx.ext.graphviz import graphviz

        req = asking.graph_request(
            self.arguments[0], self.options.get("notation"), settings(self.options.get("options"))
        )
        node = graphviz()
        node["code"] = graph.render(req, "dot", self.options.get("direction", "right"))
        node["options"] = {"docname": self.env.docname}
        node["alt"] = f"{req.policy.title} type promotion lattice"
        node["classes"] = ["promotion-lattice"]
        return [node]


class PromotionDiff(_PromoteDirective):
    """``.. promotion-diff:: POLICY1 POLICY2``: the cells where they disagree, as ``promote
    diff`` lists them (``left:``/``right:`` prefixes in ``:options:`` set one side; ``:op:``
    compares an operation's outputs)."""

    required_arguments = 2
    option_spec: ClassVar[dict[str, Any]] = {
        "types": directives.unchanged_required,
        "options": directives.unchanged_required,
        "notation": directives.unchanged_required,
        "op": directives.unchanged_required,
    }

    def nodes(self) -> list[nodes.Node]:
        left, right = asking.diff_requests(
            self.arguments[0],
            self.arguments[1],
            self.options.get("types"),
            tuple(settings(self.options.get("options"))),
            self.options.get("notation"),
            self.options.get("op"),
        )
        d = compare.diff(left, right)
        (a, b), cells = compare.differences(d, left.notation)
        box = nodes.container(classes=["promotion-diff"])
        box.extend(_paragraph(line) for line in compare.summary(d, left.notation))
        if cells:
            rows = ([_entry(pair), _entry(x), _entry(y)] for pair, x, y in cells)
            box += grid(["operands", a, b], rows, ["promotion-diff-table"])
        return [box]


class PromotionExpr(_PromoteDirective):
    """``.. promotion-expr:: CODE``: what a line of code gives node by node under each policy,
    as ``promote expr`` shows it."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "bind": directives.unchanged_required,
        "policies": directives.unchanged_required,
        "options": directives.unchanged_required,
    }

    def nodes(self) -> list[nodes.Node]:
        code = "\n".join([*self.arguments, *self.content]).strip()
        if not code:
            raise PromoteError("give the code: .. promotion-expr:: x / 2 + w.sum()")
        view = asking.expr_table(
            code,
            (self.options.get("bind") or "").replace(",", " ").split(),
            self.options.get("policies", "numpy,torch"),
            settings(self.options.get("options")),
        )
        rows = (
            [
                _entry(r.code, ["d"] if r.parts else [], marked=r.parts),
                *(_entry(c, ["d"] if r.parts else [], marked=r.parts) for c in r.cells),
            ]
            for r in view.rows
        )
        head = ["code", *(c.title for c in view.question.columns)]
        table = grid(head, rows, ["promotion-expr"])
        box = nodes.container(classes=["promotion-legend"])
        box.extend(_paragraph(line) for line in view.notes)
        return [table, box]


def _add_static(app: Any) -> None:
    if app.builder.format == "html":
        app.config.html_static_path.append(str(STATIC))


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.graphviz")
    app.add_directive("promotion-table", PromotionTable)
    app.add_directive("promotion-lattice", PromotionLattice)
    app.add_directive("promotion-diff", PromotionDiff)
    app.add_directive("promotion-expr", PromotionExpr)
    app.add_css_file(CSS)
    app.connect("builder-inited", _add_static)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
