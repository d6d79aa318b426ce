"""``promote graph``: a lattice policy's Hasse diagram as DOT, Mermaid or SVG."""

from __future__ import annotations

import click

from promote_cli import asking
from promote_cli.cli import EXIT_OK, Command, _options
from promote_cli.graph import FORMATS, render


@click.command("graph", cls=Command)
@_options.policy
@_options.policy_file
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(FORMATS),
    default="dot",
    show_default=True,
    help="dot, mermaid and markdown (Mermaid in a page GitHub draws) are text; svg runs"
    " Graphviz's dot (must be installed).",
)
@_options.options
@_options.notation
def command(policy, policy_file, fmt, option_values, notation) -> int:
    """Draw POLICY's promotion lattice: each type linked to the types directly above it.

    Only a lattice policy has one (`promote policies` lists each policy's
    properties); any other exits 2, naming those that do.

    \b
    promote graph --policy jax --format mermaid
    promote graph -p array-api -f markdown > lattice.md
    promote graph -p tensorflow -f svg > tf.svg
    promote graph -p jax -O x64=false | dot -Tpng > jax-x32.png
    """
    req = asking.graph_request(_options.chosen(policy, policy_file), notation, option_values)
    drawn = render(req, fmt)
    _options.say_default(policy, policy_file)
    click.echo(drawn, nl=False)
    return EXIT_OK
