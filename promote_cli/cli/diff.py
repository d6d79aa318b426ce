"""``promote diff``: where two policies (or one under two option settings) disagree."""

from __future__ import annotations

import sys

import click

from promote_cli import asking, fit
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options
from promote_cli.compare import CELL_SETS, FORMATS, diff
from promote_cli.errors import UsageError


@click.command("diff", cls=Command)
@click.argument("left_name", metavar="POLICY1")
@click.argument("right_name", metavar="POLICY2")
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(tuple(FORMATS)),
    default="list",
    show_default=True,
    help="list: one line per differing cell; table: a grid; json: one object.",
)
@click.option(
    "--types",
    "-t",
    default=None,
    metavar="T1,T2,...",
    help="Rows and columns to compare (also S(t), P(int) ...). Default: every type both know.",
)
@click.option(
    "--cells",
    type=click.Choice(CELL_SETS),
    default=None,
    help="Without --types, what is compared: types: every type both know, as arrays; operands:"
    " also the 0-d arrays, NumPy scalars and Python scalars each side asks; values: those and"
    " Python scalars holding values (300, 2**64-1, 1e300 ...), 0-d arrays and NumPy scalars"
    " holding them. Default: values when a side's values count (numpy -O"
    " promotion=legacy), else types.",
)
@_options.options
@_options.notation
@_options.op
@click.option(
    "--lossy",
    is_flag=True,
    help="Say, for each differing cell, which side's result loses values of which input.",
)
@_options.as_json
def command(
    left_name, right_name, fmt, types, cells, option_values, notation, op, lossy, as_json
) -> int:
    """Show the cells where POLICY1 and POLICY2 give different answers.

    Exit 0 when they agree on every cell, 1 when they differ (for CI). -O NAME=VALUE sets an
    option on each side that has it; -O left:NAME=VALUE or right:NAME=VALUE on one side.

    \b
    promote diff ascend torch             # the 26 cells Ascend departs from torch
    promote diff jax numpy -t b1,u1,i1,f2,f4 -f table
    promote diff tensorflow tensorflow -O right:mode=safe
    promote diff numpy numpy -O right:promotion=legacy  # NEP 50, values included
    promote diff jax ./mine.toml          # a policy file against what it extends
    promote diff jax torch --lossy        # and which side loses values
    promote diff numpy torch --op divide  # where np.divide and torch disagree
    promote diff numpy torch --op sqrt    # sqrt(int8): float16 vs float32 ...
    promote diff numpy mlx --op reductions -f table
    """
    if as_json:
        given = click.get_current_context().get_parameter_source("fmt")
        if given is not click.core.ParameterSource.DEFAULT and fmt != "json":
            raise UsageError(f"--json and --format {fmt} ask for two formats; give one")
        fmt = "json"
    if cells is not None and types is not None:
        raise UsageError("--cells chooses the operands when --types does not give them; give one")
    left, right = asking.diff_requests(left_name, right_name, types, option_values, notation, op)
    if cells is not None and left.asked is not None:
        raise UsageError("--cells is for the promotion; with --op give the operands with --types")
    d = diff(left, right, cells)
    if fmt == "json":
        click.echo(FORMATS[fmt](d, left.notation, lossy), nl=False)
    else:  # on a terminal, fitted to its width; piped, every line whole
        width = fit.terminal_width(sys.stdout)
        click.echo(FORMATS[fmt](d, left.notation, lossy, width), nl=False)
    return EXIT_OK if d.identical else EXIT_DIFFERENT
