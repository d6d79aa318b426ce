"""``promote policies``: what each policy knows and which options it takes."""

from __future__ import annotations

import click

from promote_cli import policies
from promote_cli.cli import _options


def describe(name: str) -> dict:
    pol = policies.get(name)
    label = pol.notation.label
    return {
        "name": pol.name,
        "title": pol.title,
        "source": pol.source,
        "notation": pol.notation_name,
        "types": [label(t) for t in pol.universe],
        "canonical_types": list(pol.universe),
        "default_table": [label(t) for t in pol.default_types],
        "categories": sorted(pol.categories),
        "properties": sorted(pol.properties),
        "options": [
            {"name": o.name, "kind": o.kind, "default": o.default, "help": o.help}
            for o in pol.options
        ],
    }


@click.command("policies")
@_options.as_json
def command(as_json: bool) -> int:
    """List the policies with their types, operand categories and options."""
    described = [describe(n) for n in policies.names()]
    if as_json:
        import json

        click.echo(json.dumps(described, indent=2))
        return 0
    for d in described:
        pol = policies.get(d["name"])
        click.echo(f"{d['name']}: {d['title']} ({d['source']})")
        click.echo(
            f"  notation: {d['notation']}; categories: {', '.join(d['categories'])};"
            f" properties: {', '.join(d['properties'])}"
        )
        click.echo(f"  types ({len(d['types'])}): {' '.join(d['types'])}")
        for o in pol.options:
            click.echo(f"  -O {o.name}={o.text(o.default, pol.notation)}  {o.help}")
        click.echo()
    return 0
