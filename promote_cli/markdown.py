"""A Python-Markdown extension (so MkDocs too): ``::: promote ...`` lines become tables,
lattices and diffs when the page is built.

``markdown_extensions: [promote_cli.markdown]`` in ``mkdocs.yml``, then, alone on a line::

    ::: promote table --policy jax [any `promote table` option]
    ::: promote graph --policy tensorflow [-O NAME=VALUE] [--format svg|mermaid|dot]
    ::: promote diff jax numpy [--types ...] [-O ...]
    ::: promote table --policy numpy --op sqrt
    ::: promote diff numpy torch --op divide
    ::: promote expr 'x / 2 + w.sum()' x=int8 w=uint8 -p numpy,torch [-O POLICY:NAME=VALUE]

The words after ``::: promote`` are parsed by the command of that name (shell quoting, the same
flags, the same errors), and the page gets what the command prints as html: the table exactly as
``promote table --format html`` (JAX's look; differing cells ``class="d"``) with the legend the
Sphinx directive prints under it (what the rows, columns and cells are, the marks, and the
labels another notation reads otherwise: ``i8 = int64``), ``promote expr``'s table as a
``<table class="promotion-expr">`` (a row per node in evaluation order, a column per policy,
the row where the policies part ``class="d"``) with its notes under it, the lattice as an
inline SVG (Graphviz's ``dot`` must be installed; ``--format mermaid`` gives a
``<pre class="mermaid">`` for Mermaid's script instead, ``dot`` the DOT source), and a diff as a
table of the differing cells with the classes the Sphinx extension gives it. A flag that writes
files (``-o``, ``--check``) or asks for another format is refused, and so is anything the command
itself would refuse: the page's build stops with one line naming the block (under MkDocs a
``BuildError``, else a ``ValueError``).

This extension's processor runs before mkdocstrings' (which also reads ``:::`` lines): only the
line ``::: promote ...`` is ours.
"""

from __future__ import annotations

import argparse
import functools
import html
import re
import shlex
import sys
import xml.etree.ElementTree as etree
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from markdown import Extension, Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.postprocessors import Postprocessor
from markdown.util import AtomicString

from promote_cli import asking, compare
from promote_cli import graph as graphs
from promote_cli.errors import PromoteError, printable
from promote_cli.render import legend_lines, render
from promote_cli.tablemodel import TABLE_ID

HIGHLIGHTED = "highlighted"  # how the legend names the differing cells' mark (green in html)
LINE = re.compile(r"^::: promote\b(?P<args>.*)$", re.MULTILINE)
PRIORITY = 95  # above mkdocstrings' ``:::`` processor (75) and every built-in block processor


class BlockError(ValueError):
    """A ``::: promote`` block promote cannot show, whose text names the block. Under MkDocs it
    is also MkDocs's ``BuildError`` (``_block_error``), which MkDocs reports as one line and
    stops on; anything else would get a traceback."""


@functools.cache
def _with(build_error: type[Exception]) -> type[Exception]:
    return type("BlockError", (build_error, BlockError), {"__doc__": BlockError.__doc__})


def _block_error(message: str) -> Exception:
    # MkDocs has imported its exceptions when it runs the extension; importing them here would
    # import click (which MkDocs uses) into every Python-Markdown user's process.
    mkdocs = sys.modules.get("mkdocs.exceptions")
    build_error = getattr(mkdocs, "BuildError", None)
    return BlockError(message) if build_error is None else _with(build_error)(message)


class _Grammar(argparse.ArgumentParser):
    """A block's words, read with the flags of the command of the same name (a test keeps the
    two in step); what cannot be read is a ``PromoteError`` naming the flag, never an exit."""

    def error(self, message: str) -> NoReturn:
        required = "the following arguments are required: "
        if message.startswith(required):
            message = f"Missing argument '{message.removeprefix(required).split(', ')[0]}'"
        raise PromoteError(message)


def _grammar(verb: str) -> _Grammar:
    g = _Grammar(prog=f"promote {verb}", add_help=False, allow_abbrev=False)
    g.add_argument("-h", "--help", action="store_true")
    g.add_argument("-O", "--option", dest="option_values", action="append", default=[])
    if verb == "expr":
        g.add_argument("code", metavar="CODE")
        g.add_argument("bindings", nargs="*", metavar="NAME=TYPE")
        g.add_argument("-p", "--policy", dest="policies", default="numpy,torch")
        g.add_argument("--json", dest="as_json", action="store_true")
        g.add_argument("--explain", action="store_true")
        return g
    g.add_argument("-n", "--notation")
    g.add_argument("-f", "--format", dest="fmt")
    if verb == "diff":
        g.add_argument("left_name", metavar="POLICY1")
        g.add_argument("right_name", metavar="POLICY2")
    else:
        g.add_argument("-p", "--policy", default="jax")
        g.add_argument("--policy-file")
    if verb in ("table", "diff"):
        g.add_argument("-t", "--types")
        g.add_argument("--op")
        g.add_argument("--json", dest="as_json", action="store_true")
    if verb == "table":
        g.add_argument("--diff-against")
        g.add_argument("--template")
        g.add_argument("-o", "--output")
        g.add_argument("--check")
        g.add_argument("--standalone", action="store_true")
        g.add_argument("--mark", dest="marks", action="append", default=[])
    if verb == "diff":
        g.add_argument("--lossy", action="store_true")
        g.add_argument("--cells", choices=compare.CELL_SETS)
    return g


VERBS = ("table", "graph", "diff", "expr")


def _parse(verb: str, args: list[str]) -> dict[str, Any]:
    """The block's options, read as the command ``verb`` reads them."""
    if verb not in VERBS:
        raise PromoteError(f"no block `promote {verb}`; write table, graph, diff or expr")
    found, extra = _grammar(verb).parse_known_args(args)
    if extra:
        word = extra[0]
        raise PromoteError(
            f"No such option: {word}" if word.startswith("-") else f"unexpected word {word!r}"
        )
    p = vars(found)
    if p["help"]:
        raise PromoteError("--help has no meaning in a page; write the block's options")
    if p.get("as_json"):
        raise PromoteError("a page shows the html table; drop --json")
    if p.get("explain"):
        raise PromoteError("a page shows the table; drop --explain")
    if "policy" in p:
        p["policy"] = p.pop("policy_file") or p["policy"]
    return p


class PromoteBlockProcessor(BlockProcessor):
    def __init__(self, parser: Any) -> None:
        super().__init__(parser)
        self.tables = 0  # on this page, so that each html table gets its own id

    def test(self, parent: etree.Element, block: str) -> bool:
        return LINE.search(block) is not None

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        block = blocks.pop(0)
        m = LINE.search(block)
        assert m is not None
        before, after = block[: m.start()].rstrip("\n"), block[m.end() :].lstrip("\n")
        if before:
            self.parser.parseBlocks(parent, [before])
        # The boundary where a page's block enters: whatever showing it raises is one line
        # naming the block (a BlockError), never a traceback from the build.
        try:
            words = shlex.split(m.group("args"))
            element = self.element(words)
        except (ValueError, PromoteError) as exc:
            message = str(exc)
        except Exception as exc:
            message = f"internal error in promote: {type(exc).__name__}: {exc} (please report it)"
        else:
            parent.append(element)
            if after:
                blocks.insert(0, after)
            return
        raise _block_error(printable(f"`{m.group(0).strip()}`: {message}"))

    def element(self, words: list[str]) -> etree.Element:
        if not words:
            raise PromoteError("say what to show: ::: promote table|graph|diff|expr [options]")
        verb, args = words[0], words[1:]
        p = _parse(verb, args)
        if verb == "table":
            return self.table(p)
        if verb == "graph":
            return self.graph(p)
        if verb == "expr":
            return self.expr(p)
        return self.diff(p)

    def raw(self, text: str, cls: str) -> etree.Element:
        box = etree.Element("div", {"class": cls})
        box.text = self.parser.md.htmlStash.store(text)
        return box

    def table(self, p: dict[str, Any]) -> etree.Element:
        for name, flag in (("output", "-o"), ("check", "--check"), ("standalone", "--standalone")):
            if p[name]:
                raise PromoteError(f"{flag} has no meaning in a page")
        if p["fmt"] not in (None, "html"):
            raise PromoteError("a page shows the html table; drop --format")
        template = None if p["template"] is None else Path(p["template"])
        table = asking.table(
            p["policy"],
            p["types"],
            p["notation"],
            p["diff_against"],
            p["option_values"],
            fmt="html",
            tail=[] if template is None else ["--template", str(template)],
            marks=tuple(dict.fromkeys(p["marks"])),
            op=p["op"],
        )
        self.tables += 1
        if self.tables > 1:  # the fragment's stylesheet targets the table's id
            table = replace(table, table_id=f"{TABLE_ID}-{self.tables}")
        # The legend the Sphinx directive prints under its table: what the rows, columns and
        # cells are (for an operation, what a cell is), the marks, the highlighted cells, and
        # the labels another notation reads otherwise (i8 = int64 in JAX's notation).
        legend = "".join(
            f"<p>{html.escape(line)}</p>" for line in legend_lines(table, diff_marker=HIGHLIGHTED)
        )
        text = render(table, "html", template=template)
        return self.raw(f'{text}<div class="promotion-legend">{legend}</div>', "promotion")

    def graph(self, p: dict[str, Any]) -> etree.Element:
        req = asking.graph_request(p["policy"], p["notation"], p["option_values"])
        fmt = p["fmt"] or "svg"
        if fmt == "svg":
            svg = graphs.render(req, "svg")
            return self.raw(svg[svg.index("<svg") :], "promotion-lattice")
        if fmt == "mermaid":
            return self.raw(
                f'<pre class="mermaid">{html.escape(graphs.render(req, fmt))}</pre>',
                "promotion-lattice",
            )
        if fmt == "dot":
            pre = etree.Element("pre", {"class": "promotion-lattice"})
            code = etree.SubElement(pre, "code", {"class": "language-dot"})
            code.text = self.parser.md.htmlStash.store(html.escape(graphs.render(req, fmt)))
            return pre
        raise PromoteError(f"a page shows a graph as svg, mermaid or dot, not {fmt}")

    def diff(self, p: dict[str, Any]) -> etree.Element:
        if p["fmt"] is not None:
            raise PromoteError("a page shows the differing cells as a table; drop --format")
        if p["cells"] is not None and p["types"] is not None:
            raise PromoteError("--cells chooses the operands when --types does not give them")
        left, right = asking.diff_requests(
            p["left_name"], p["right_name"], p["types"], p["option_values"], p["notation"], p["op"]
        )
        if p["cells"] is not None and left.asked is not None:
            raise PromoteError("--cells is for the promotion; with --op give the operands with -t")
        d = compare.diff(left, right, p["cells"])
        (a, b), cells = compare.differences(d, left.notation)
        box = etree.Element("div", {"class": "promotion-diff"})
        for line in compare.summary(d, left.notation):
            etree.SubElement(box, "p").text = AtomicString(line)
        if cells:
            table = etree.SubElement(box, "table", {"class": "promotion-diff-table"})
            head = etree.SubElement(etree.SubElement(table, "thead"), "tr")
            for text in ("operands", a, b):
                etree.SubElement(head, "th").text = AtomicString(text)
            body = etree.SubElement(table, "tbody")
            for pair, x, y in cells:
                tr = etree.SubElement(body, "tr")
                etree.SubElement(tr, "th", {"class": "stub"}).text = AtomicString(pair)
                etree.SubElement(tr, "td").text = AtomicString(x)
                etree.SubElement(tr, "td").text = AtomicString(y)
        return box

    def expr(self, p: dict[str, Any]) -> etree.Element:
        view = asking.expr_table(p["code"], p["bindings"], p["policies"], p["option_values"])
        box = etree.Element("div", {"class": "promotion"})
        table = etree.SubElement(box, "table", {"class": "promotion-expr"})
        head = etree.SubElement(etree.SubElement(table, "thead"), "tr")
        for text in ("code", *(c.title for c in view.question.columns)):
            etree.SubElement(head, "th").text = AtomicString(text)
        body = etree.SubElement(table, "tbody")
        for r in view.rows:
            tr = etree.SubElement(body, "tr", {"class": "d"} if r.parts else {})
            etree.SubElement(tr, "th", {"class": "stub"}).text = AtomicString(r.code)
            for c in r.cells:
                etree.SubElement(tr, "td", {"class": "d"} if r.parts else {}).text = AtomicString(c)
        legend = etree.SubElement(box, "div", {"class": "promotion-legend"})
        for line in view.notes:
            etree.SubElement(legend, "p").text = AtomicString(line)
        return box


# A table's stylesheet as the html fragment carries it: each rule's selectors start with the
# table's id.
STYLESHEET = re.compile(rf"<style>\n(  #({TABLE_ID}(?:-\d+)?) .*?)</style>\n", re.S)
CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


class OneStylesheet(Postprocessor):
    """A page with several tables carries one stylesheet: each table's own (its rules for its
    id) is taken out, and one holding every rule, each for all the ids that had it, takes the
    first one's place. A page with one table keeps it as ``promote table`` prints it."""

    def run(self, text: str) -> str:
        found = list(STYLESHEET.finditer(text))
        if len(found) < 2:
            return text
        rules: dict[tuple[str, str], list[str]] = {}  # (selectors with {id}, body): the ids
        for sheet in found:
            css, table_id = sheet.groups()
            own = re.compile(rf"#{re.escape(table_id)}(?![\w-])")
            for selectors, body in CSS_RULE.findall(css):
                shape = own.sub("#{id}", " ".join(selectors.split()))
                rules.setdefault((shape, body), []).append(table_id)
        merged = []
        for (shape, body), ids in rules.items():
            parts = [p.strip() for p in shape.split(",")]
            selectors = ", ".join(p.replace("#{id}", f"#{i}") for i in ids for p in parts)
            merged.append(f"  {selectors} {{{body}}}")
        first = found[0]
        out = [text[: first.start()], "<style>\n" + "\n".join(merged) + "\n</style>\n"]
        end = first.end()
        for sheet in found[1:]:
            out.append(text[end : sheet.start()])
            end = sheet.end()
        out.append(text[end:])
        return "".join(out)


class PromoteExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        self.processor = PromoteBlockProcessor(md.parser)
        md.parser.blockprocessors.register(self.processor, "promote", PRIORITY)
        # after the raw html is put back (RawHtmlPostprocessor, priority 30)
        md.postprocessors.register(OneStylesheet(md), "promote-one-stylesheet", 20)

    def reset(self) -> None:
        self.processor.tables = 0


def makeExtension(**kwargs: Any) -> PromoteExtension:
    return PromoteExtension(**kwargs)
