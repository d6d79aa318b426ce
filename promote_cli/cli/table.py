"""``promote table``: one policy's promotion table in html, markdown, rst, csv, json or for the
terminal; ``--check`` compares with a file instead of writing it."""

from __future__ import annotations

import html
import os
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import click

from promote_cli import api, textfiles
from promote_cli.api import shell_quote, shell_split
from promote_cli.cli import EXIT_OK, _options, printable
from promote_cli.cli._report import CheckReport
from promote_cli.errors import PromoteError, UsageError
from promote_cli.render import FORMATS, SUFFIXES, build, render


@click.command("table")
@_options.policy
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format. Default: from the suffix of -o/--check/--template FILE"
    " (.html .md .rst .csv .json .txt), else term.",
)
@click.option(
    "--types",
    "-t",
    default=None,
    metavar="T1,T2,...",
    help="Rows and columns, in this order (default: the policy's table).",
)
@_options.notation
@click.option(
    "--diff-against",
    default=None,
    metavar="POLICY",
    help="Mark cells where POLICY gives another answer or none; `none` marks nothing."
    " Default: numpy for jax (as JAX's page does), none otherwise.",
)
@_options.options
@click.option(
    "--template",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    metavar="FILE",
    help="Render with this jinja2 template instead of ours (same context; see the README):"
    " in jinja2's sandbox, with no access to files or Python beyond the table.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write to FILE (atomically) instead of stdout; a device, FIFO or /dev/stdout is"
    " written into, never replaced.",
)
@click.option(
    "--check",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write nothing: print a unified diff and exit 1 when FILE is not what would be written.",
)
@click.option("--standalone", is_flag=True, help="html: a whole page with title and legend.")
def command(
    policy, fmt, types, notation, diff_against, option_values, template, output, check, standalone
) -> int:
    """Print POLICY's promotion table: rows are the first operand, columns the second.

    \b
    promote table --policy jax --format html          # the JAX page's table, NumPy diff green
    promote table -p ascend -f markdown -o docs/ascend.md
    promote table -p jax -f html --check docs/jax.html  # exit 1 and a diff when stale
    """
    if output is not None and check is not None:
        raise UsageError("give -o FILE or --check FILE, not both")
    target = output or check
    ask, other = _resolve(
        policy, fmt, types, notation, diff_against, option_values, template, target
    )
    fmt = ask.fmt
    if standalone and fmt != "html":
        raise UsageError("--standalone applies to --format html")
    tail = [] if diff_against is None else ["--diff-against", other.name if other else "none"]
    tail += [] if template is None else ["--template", str(template)]
    tail += ["--standalone"] if standalone else []
    canonical = ask.req.command("table", "--format", fmt, tail=tail)
    table = build(ask.req, other, command=canonical)
    color = fmt == "term" and target is None and _color_wanted()
    template = None if template is None else Path(template)
    text = render(table, fmt, standalone=standalone, template=template, color=color)

    if check is not None:
        on_disk = textfiles.read(Path(check))
        spelled = _spelled_otherwise(on_disk, canonical, (ask, standalone))
        if spelled is not None:  # compare with the file's own spelling of the same question
            table = replace(table, command=spelled)
            text = render(table, fmt, standalone=standalone, template=template)
        report = CheckReport(fix=f"{canonical} -o {shell_quote(check)}")
        click.echo(report.compare(Path(check), on_disk, text), nl=False)
        click.echo(f"promote: {printable(report.summary())}", err=True)
        return report.exit_code
    if output is not None:
        textfiles.write(output, text)
        return EXIT_OK
    click.echo(text, nl=False)
    return EXIT_OK


class _Asked(NamedTuple):
    """What a ``promote table`` command line means, resolved: two spellings of one question
    (``x64=TRUE`` and ``x64=true``, ``bf`` and ``bf16``, ``--diff-against`` given or by
    default) compare equal."""

    req: api.Request
    fmt: str
    other: str | None  # the compared policy's name
    template: str | None  # the template's real path


def _resolve(policy, fmt, types, notation, diff_against, option_values, template, target):
    """The resolved question (an ``_Asked``) and the compared policy."""
    fmt = fmt or _format_of(target) or _format_of(template)
    if fmt is None and template is not None:
        raise UsageError(f"cannot tell the format of {Path(template).name}; pass --format")
    req = api.request(
        policy,
        notation=notation,
        options=_options.parse_options(option_values),
        operands=_options.split_types(types),
    )
    _distinct(req, types)
    other = api.neighbour(req.policy, diff_against)
    real = None if template is None else os.path.realpath(template)
    return _Asked(req, fmt or "term", other.name if other else None, real), other


def _spelled_otherwise(on_disk: str | None, canonical: str, asked: tuple) -> str | None:
    """The command line in the header of ``on_disk`` when it is spelled otherwise than
    ``canonical`` but asks the same table (``asked``: the resolved question and ``--standalone``),
    else None. ``--check`` then compares the file with the table rendered under that spelling:
    only what the options mean makes a file stale."""
    found = _HEADER.search((on_disk or "")[:4096])
    if found is None:
        return None
    spelled = html.unescape(found.group(1))
    if spelled == canonical:
        return None
    try:
        words = shell_split(spelled)
        if words[:2] != ["promote", "table"]:
            return None
        p = command.make_context("table", words[2:]).params
        theirs, _ = _resolve(
            p["policy"],
            p["fmt"],
            p["types"],
            p["notation"],
            p["diff_against"],
            p["option_values"],
            p["template"],
            None,
        )
    except (ValueError, click.ClickException, click.exceptions.Exit, PromoteError):
        return None
    return spelled if (theirs, p["standalone"]) == asked else None


_HEADER = re.compile(r"generated by promote \S+: (.*?); edit the generator, not this file")


def _format_of(path: Path | str | None) -> str | None:
    if path is None:
        return None
    name = Path(path).name.removesuffix(".j2").removesuffix(".jinja")
    return SUFFIXES.get(Path(name).suffix.lower())


def _color_wanted() -> bool:
    # https://no-color.org: any non-empty NO_COLOR turns colour off.
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _distinct(req: api.Request, types: str | None) -> None:
    """A row listed twice would be a table with a repeated row: say which spelling did it."""
    seen = set()
    for spelling, op in zip(_options.split_types(types) or (), req.operands or (), strict=True):
        if op in seen:
            raise UsageError(f"--types lists {spelling!r} ({op.dtype}) twice")
        seen.add(op)
