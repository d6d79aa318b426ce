"""``promote policies``: what each policy knows and which options it takes."""

from __future__ import annotations

import click

from promote_cli import frameworks
from promote_cli.cli import _options
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


@click.command("policies")
@_options.as_json
def command(as_json: bool) -> int:
    """List the policies with their types, operand categories and options."""
    pols = [frameworks.get(n) for n in frameworks.names()]
    if as_json:
        from promote_cli import schema

        body = {
            "schema": schema.SCHEMA,
            "command": "policies",
            "policies": list(map(describe, pols)),
        }
        click.echo(schema.dumps(body), nl=False)
        return 0
    for pol, d in zip(pols, map(describe, pols), strict=True):
        click.echo(f"{d['name']}: {d['title']} ({d['source']})")
        click.echo(
            f"  notation: {d['notation']}; categories: {', '.join(d['categories'])};"
            f" properties: {', '.join(d['properties'])}"
        )
        click.echo(f"  types ({len(d['types'])}): {' '.join(t['label'] for t in d['types'])}")
        for o in pol.options:
            click.echo(f"  -O {o.name}={o.text(o.default, frameworks.notation_of(pol))}  {o.help}")
        click.echo()
    return 0
