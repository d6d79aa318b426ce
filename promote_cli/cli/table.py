"""``promote table``: one policy's promotion table in any format of ``render.FORMATS`` (the
terminal's by default); ``--check`` compares with a file instead of writing it."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from promote_cli import asking, frameworks, textfiles
from promote_cli.api import shell_quote
from promote_cli.cli import EXIT_OK, Command, _options, _several, tell
from promote_cli.cli._report import CheckReport
from promote_cli.errors import UsageError
from promote_cli.render import FORMATS, SUFFIXES, render
from promote_cli.tablemodel import MARKS


@click.command("table", cls=Command)
@_options.several_policies
@_options.policy_file
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format. Default: from the suffix of -o/--check/--template FILE"
    f" ({' '.join(SUFFIXES)}), else term.",
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
@_options.op
@click.option(
    "--template",
    type=_options.FileName(exists=True, dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Render with this jinja2 template instead of ours (same context; docs/guide/tables.md):"
    " in jinja2's sandbox, with no access to files or Python beyond the table.",
)
@click.option(
    "-o",
    "--output",
    type=_options.FileName(dir_okay=False),  # a string: "out/" names a directory, and is refused
    default=None,
    metavar="FILE",
    help="Write to FILE (atomically) instead of stdout; a device, FIFO or /dev/stdout is"
    " written into, never replaced.",
)
@click.option(
    "--check",
    type=_options.FileName(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Write nothing: print a unified diff and exit 1 when FILE is not what would be written.",
)
@click.option("--standalone", is_flag=True, help="html: a whole page with title and legend.")
@click.option(
    "--mark",
    "marks",
    type=click.Choice(MARKS),
    multiple=True,
    help="A second highlight: lossy marks the cells whose result cannot hold every value of"
    " an input (outlined in html, † elsewhere), with a legend line.",
)
@_options.as_json
def command(
    policy,
    policy_file,
    fmt,
    types,
    notation,
    diff_against,
    option_values,
    template,
    output,
    check,
    standalone,
    marks,
    op,
    as_json,
) -> int:
    """Print POLICY's promotion table: rows are the first operand, columns the second.
    With --op, an operation's output dtypes: a binary one's rows are x1, columns x2; unary
    operations and reductions get one row each, the array's type as columns.

    \b
    promote table --policy jax -f html   # JAX's page: NumPy's differences green
    promote table -p ascend -f markdown -o docs/ascend.md
    promote table -p jax --check docs/jax.html  # exit 1 and a diff when stale
    promote table -p torch --mark lossy         # † where a value is lost
    promote table -p numpy --op divide          # what np.divide returns
    promote table -p torch --op sum             # one row: torch.sum of each
    promote table -p torch --op sqrt,exp,sum    # one row per operation
    promote table -p jax --op unary,reductions  # every one-operand operation
    promote table -p all -t int8,uint8,float16  # every policy, a row each
    """
    several = _several.named(policy) if policy_file is None else None
    if several is not None:
        given = {
            "--format": fmt not in (None, "term", "json"),
            "--diff-against": diff_against is not None,
            "--op": op is not None,
            "--template": template is not None,
            "-o": output is not None,
            "--check": check is not None,
            "--standalone": standalone,
            "--mark": bool(marks),
        }
        refused = [flag for flag, on in given.items() if on]
        if refused:
            raise UsageError(
                f"{refused[0]} applies to one policy's table; with several, table prints the"
                " grid of policies x pairs (or --json)"
            )
        titles, found, cells = _several.grid(several, types, option_values, notation)
        return _several.grid_report(titles, found, cells, as_json or fmt == "json")
    given, policy = policy, _options.chosen(policy, policy_file)
    if output is not None and check is not None:
        raise UsageError("give -o FILE or --check FILE, not both")
    if as_json:
        if fmt not in (None, "json"):
            raise UsageError(f"--json and --format {fmt} ask for two formats; give one")
        fmt = "json"
    if output is not None and output.endswith(("/", os.sep)):
        raise UsageError(f"-o {output} names a directory; give a file name")
    target = Path(output) if output is not None else check
    if fmt is None:
        for path in (target, template):
            if path is not None and _format_of(path) is None:
                # Never guess: a jax.xlsx holding a box-drawn text table helps nobody.
                raise UsageError(
                    f"cannot tell the format of {path.name} from its suffix; pass --format"
                    f" ({', '.join(FORMATS)}) or use a suffix: {' '.join(SUFFIXES)}"
                )
        fmt = _format_of(target) or _format_of(template) or "term"
    if standalone and fmt != "html":
        raise UsageError("--standalone applies to --format html")
    tail = [] if template is None else ["--template", str(template)]
    tail += ["--standalone"] if standalone else []
    marks = tuple(dict.fromkeys(marks))
    for mark in marks:
        tail += ["--mark", mark]
    table = asking.table(
        policy,
        types,
        notation,
        diff_against,
        option_values,
        fmt=fmt,
        tail=tail,
        marks=marks,
        op=op,
    )
    on_terminal = fmt == "term" and target is None and sys.stdout.isatty()
    color = on_terminal and not os.environ.get("NO_COLOR")  # https://no-color.org
    width = shutil.get_terminal_size().columns if on_terminal else None
    text = render(table, fmt, standalone=standalone, template=template, color=color, width=width)

    if check is not None:
        # Compared with what this very command would write, header line included: nothing
        # read from the file (its header names a command) is run or trusted.
        on_disk = textfiles.read(check)
        report = CheckReport(fix=f"{table.command} -o {shell_quote(str(check))}")
        compared = report.compare(check, on_disk, text)
        _options.say_default(given, policy_file)
        click.echo(compared, nl=False)
        tell(report.summary())
        return report.exit_code
    if output is not None:
        # the files the table was made from are never its output, under any name
        read = [Path(p) for p in (template, policy_file) if p is not None]
        if frameworks.looks_like_file(policy):
            read.append(Path(policy))
        textfiles.write(output, text, inputs=read)
        _options.say_default(given, policy_file)
        return EXIT_OK
    _options.say_default(given, policy_file)
    click.echo(text, nl=False)
    return EXIT_OK


def _format_of(path: Path | None) -> str | None:
    if path is None:
        return None
    name = path.name.removesuffix(".j2").removesuffix(".jinja")
    return SUFFIXES.get(Path(name).suffix.lower())
