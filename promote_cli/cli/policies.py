"""``promote policies``: what each policy knows and which options it takes."""

from __future__ import annotations

import sys

import click

from promote_cli import api, fit, frameworks
from promote_cli.cli import Command, _options
from promote_cli.engine import Policy


def describe(pol: Policy) -> dict:
    nota = frameworks.notation_of(pol)
    label = nota.label
    return {
        "name": pol.name,
        "title": pol.title,
        "source": pol.source,
        "notation": pol.notation_name,
        "types": [{"label": label(t), "canonical": t} for t in pol.universe],
        "default_table": [{"label": label(t), "canonical": t} for t in pol.default_types],
        "categories": sorted(pol.categories),
        "properties": sorted(pol.properties),
        "options": [
            {
                "name": o.name,
                "kind": o.kind,
                "default": o.default,
                "choices": list(o.choices) or None,
                "help": o.help,
            }
            for o in pol.options
        ],
    }


@click.command("policies", cls=Command)
@click.argument("names", nargs=-1, metavar="[NAME ...]")
@_options.as_json
def command(names: tuple[str, ...], as_json: bool) -> int:
    """List the policies with their types, operand categories and options; NAME
    (a policy, or a TOML policy file) lists only those.

    \b
    promote policies              # every built-in policy
    promote policies jax torch    # two of them
    promote policies ./mine.toml  # a policy file, as promote reads it
    """
    pols = [api.resolve(n) for n in names or frameworks.names()]
    if as_json:
        from promote_cli import schema

        body = {
            "schema": schema.SCHEMA,
            "command": "policies",
            "policies": list(map(describe, pols)),
        }
        click.echo(schema.dumps(body), nl=False)
        return 0
    width = fit.terminal_width(sys.stdout)
    for n, (pol, d) in enumerate(zip(pols, map(describe, pols), strict=True)):
        nota = frameworks.notation_of(pol)
        lines = [
            f"{d['name']}: {d['title']} ({d['source']})",
            f"  notation: {d['notation']}; categories: {', '.join(d['categories'])};"
            f" properties: {', '.join(d['properties'])}",
            f"  types ({len(d['types'])}): {' '.join(t['label'] for t in d['types'])}",
            *(f"  -O {o.name}={o.text(o.default, nota)}  {o.help}" for o in pol.options),
        ]
        if n:
            click.echo()
        click.echo("\n".join(part for line in lines for part in fit.wrap(line, width, hang=4)))
    return 0
