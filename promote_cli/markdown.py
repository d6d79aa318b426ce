"""A Python-Markdown extension (so MkDocs too): ``::: promote ...`` lines become tables,
lattices and diffs when the page is built.

``markdown_extensions: [promote_cli.markdown]`` in ``mkdocs.yml``, then, alone on a line::

    ::: promote table --policy jax [any `promote table` option]
    ::: promote graph --policy tensorflow [-O NAME=VALUE] [--format svg|mermaid|dot]
    ::: promote diff jax numpy [--types ...] [-O ...]
    ::: promote table --policy numpy --op sqrt
    ::: promote diff numpy torch --op divide

The words after ``::: promote`` are parsed by the command of that name (shell quoting, the same
flags, the same errors), and the page gets what the command prints as html: the table exactly as
``promote table --format html`` (JAX's look; differing cells ``class="d"``), the lattice as an
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

import html
import re
import shlex
import xml.etree.ElementTree as etree
from dataclasses import replace
from typing import Any

import click
from markdown import Extension, Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.util import AtomicString

from promote_cli import compare
from promote_cli import graph as graphs
from promote_cli.errors import PromoteError, printable
from promote_cli.render import TABLE_ID, render

LINE = re.compile(r"^::: promote\b(?P<args>.*)$", re.MULTILINE)
PRIORITY = 95  # above mkdocstrings' ``:::`` processor (75) and every built-in block processor


try:  # MkDocs reports its BuildError as one line and stops; anything else gets a traceback
    from mkdocs.exceptions import BuildError

    _BASES: tuple[type[Exception], ...] = (BuildError, ValueError)
except ImportError:
    _BASES = (ValueError,)

BlockError = type(
    "BlockError",
    _BASES,
    {
        "__doc__": "A ``::: promote`` block promote cannot show: a ValueError (and, when MkDocs is"
        " installed, its BuildError), whose text names the block."
    },
)


def _parse(verb: str, args: list[str]) -> click.Context:
    """The command ``verb``'s own parse of ``args``."""
    from promote_cli.cli import diff, graph, table

    commands = {"table": table.command, "graph": graph.command, "diff": diff.command}
    if verb not in commands:
        raise PromoteError(f"no block `promote {verb}`; write table, graph or diff")
    # No --help: it would print the command's help into the build and exit.
    asked = [arg for arg in args if arg in ("-h", "--help")]
    if asked:
        raise PromoteError(f"{asked[0]} has no meaning in a page; see `promote {verb} --help`")
    return commands[verb].make_context(f"promote {verb}", args, help_option_names=[])


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT


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
        except click.ClickException as exc:
            message = exc.format_message()
        except (ValueError, PromoteError) as exc:
            message = str(exc)
        except Exception as exc:
            message = f"internal error in promote: {type(exc).__name__}: {exc} (please report it)"
        else:
            parent.append(element)
            if after:
                blocks.insert(0, after)
            return
        raise BlockError(printable(f"`{m.group(0).strip()}`: {message}"))

    def element(self, words: list[str]) -> etree.Element:
        if not words:
            raise PromoteError("say what to show: ::: promote table|graph|diff [options]")
        verb, args = words[0], words[1:]
        ctx = _parse(verb, args)
        p = ctx.params
        if verb == "table":
            return self.table(ctx, p)
        if verb == "graph":
            return self.graph(ctx, p)
        return self.diff(ctx, p)

    def raw(self, text: str, cls: str) -> etree.Element:
        box = etree.Element("div", {"class": cls})
        box.text = self.parser.md.htmlStash.store(text)
        return box

    def table(self, ctx: click.Context, p: dict[str, Any]) -> etree.Element:
        from promote_cli.cli.table import model

        for name, flag in (("output", "-o"), ("check", "--check"), ("standalone", "--standalone")):
            if p[name]:
                raise PromoteError(f"{flag} has no meaning in a page")
        if p["fmt"] not in (None, "html"):
            raise PromoteError("a page shows the html table; drop --format")
        table = model(
            p["policy"],
            p["types"],
            p["notation"],
            p["diff_against"],
            p["option_values"],
            fmt="html",
            tail=[] if p["template"] is None else ["--template", str(p["template"])],
            op=p["op"],
        )
        self.tables += 1
        if self.tables > 1:  # the fragment's stylesheet targets the table's id
            table = replace(table, table_id=f"{TABLE_ID}-{self.tables}")
        return self.raw(render(table, "html", template=p["template"]), "promotion")

    def graph(self, ctx: click.Context, p: dict[str, Any]) -> etree.Element:
        from promote_cli import api
        from promote_cli.cli._options import parse_options

        req = api.request(
            p["policy"], notation=p["notation"], options=parse_options(p["option_values"])
        )
        fmt = p["fmt"] if _given(ctx, "fmt") else "svg"
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

    def diff(self, ctx: click.Context, p: dict[str, Any]) -> etree.Element:
        from promote_cli.cli.diff import requests

        if _given(ctx, "fmt"):
            raise PromoteError("a page shows the differing cells as a table; drop --format")
        left, right = requests(
            p["left_name"], p["right_name"], p["types"], p["option_values"], p["notation"], p["op"]
        )
        d = compare.diff(left, right)
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


class PromoteExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        self.processor = PromoteBlockProcessor(md.parser)
        md.parser.blockprocessors.register(self.processor, "promote", PRIORITY)

    def reset(self) -> None:
        self.processor.tables = 0


def makeExtension(**kwargs: Any) -> PromoteExtension:
    return PromoteExtension(**kwargs)
