"""``promote diff``: where two policies (or one under two option settings) disagree."""

from __future__ import annotations

import sys

import click

from promote_cli import api, fit
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, _options
from promote_cli.compare import FORMATS, diff
from promote_cli.engine import Policy
from promote_cli.errors import UsageError

SIDES = ("left", "right")


def split_options(values: tuple[str, ...], left: Policy, right: Policy) -> tuple[dict, dict]:
    """``-O NAME=VALUE`` goes to each side that has the option, ``-O left:NAME=VALUE`` (or
    ``right:``) to one side only."""
    given = _options.parse_options(values)
    out: tuple[dict, dict] = ({}, {})
    for key, value in given.items():
        side, sep, name = key.partition(":")
        if sep:
            if side not in SIDES:
                raise UsageError(f"-O {key}={value}: the prefix must be left: or right:")
            out[SIDES.index(side)][name] = value
            continue
        owners = [i for i, pol in enumerate((left, right)) if key in {o.name for o in pol.options}]
        if not owners:
            raise UsageError(
                f"-O {key}: neither {left.name} nor {right.name} has that option"
                " (see `promote policies`)"
            )
        for i in owners:
            out[i][key] = value
    return out


def requests(
    left_name: str,
    right_name: str,
    types: str | None,
    option_values: tuple[str, ...],
    notation: str | None,
    op: str | None = None,
) -> tuple[api.Request, api.Request]:
    """Both sides of ``promote diff`` from its options as typed (also what the Sphinx directive
    and the Markdown block ask for): the right side is printed in the left's notation."""
    left_pol, right_pol = api.resolve(left_name), api.resolve(right_name)
    left_opts, right_opts = split_options(option_values, left_pol, right_pol)
    left = api.request(
        left_pol,
        notation=notation,
        options=left_opts,
        operands=_options.split_types(types),
        op=op,
    )
    right = api.request(right_pol, notation=left.notation, options=right_opts, op=op)
    return left, right


@click.command("diff")
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
@_options.options
@_options.notation
@_options.op
@click.option(
    "--lossy",
    is_flag=True,
    help="Say, for each differing cell, which side's result loses values of which input.",
)
def command(left_name, right_name, fmt, types, option_values, notation, op, lossy) -> int:
    """Show the cells where POLICY1 and POLICY2 give different answers.

    Exit 0 when they agree on every cell, 1 when they differ (for CI). -O NAME=VALUE sets an
    option on each side that has it; -O left:NAME=VALUE or right:NAME=VALUE on one side.

    \b
    promote diff ascend torch             # the 26 cells Ascend departs from torch
    promote diff jax numpy -t b1,u1,i1,f2,f4 -f table
    promote diff tensorflow tensorflow -O right:mode=safe
    promote diff jax ./mine.toml          # a policy file against what it extends
    promote diff jax torch --lossy        # and which side loses values
    promote diff numpy torch --op divide  # where np.divide and torch disagree
    promote diff numpy torch --op sqrt    # sqrt(int8): float16 vs float32 ...
    promote diff numpy mlx --op reductions -f table
    """
    left, right = requests(left_name, right_name, types, option_values, notation, op)
    d = diff(left, right)
    if fmt == "json":
        click.echo(FORMATS[fmt](d, left.notation, lossy), nl=False)
    else:  # on a terminal, fitted to its width; piped, every line whole
        width = fit.terminal_width(sys.stdout)
        click.echo(FORMATS[fmt](d, left.notation, lossy, width), nl=False)
    return EXIT_OK if d.identical else EXIT_DIFFERENT
