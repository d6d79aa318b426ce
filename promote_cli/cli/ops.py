"""``promote ops``: the operation vocabulary, and each policy's function for it."""

from __future__ import annotations

import click

from promote_cli import frameworks
from promote_cli.cli import EXIT_OK, _options
from promote_cli.errors import PromotionError
from promote_cli.ops import VOCABULARY


@click.command("ops")
@_options.as_json
def command(as_json) -> int:
    """List the operations (array API names) and each policy's own function for them
    ("-" where the framework has none). openvino and ascend define no operations."""
    columns, without = {}, {}
    for name in frameworks.names():
        pol = frameworks.get(name)
        try:
            columns[name] = frameworks.operations(pol).rules
        except PromotionError as exc:
            without[name] = exc.reason
    if as_json:
        from promote_cli import schema

        body = {
            "schema": schema.SCHEMA,
            "command": "ops",
            "operations": [
                {
                    "name": op.name,
                    "arity": op.arity,
                    "summary": op.summary,
                    "functions": {p: rules[op.name].function for p, rules in columns.items()},
                }
                for op in VOCABULARY.values()
            ],
            "without_operations": without,
        }
        click.echo(schema.dumps(body), nl=False)
        return EXIT_OK
    head = ["operation", "arity", *columns]
    rows = [
        [op.name, op.arity, *(rules[op.name].function or "-" for rules in columns.values())]
        for op in VOCABULARY.values()
    ]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    for name, why in without.items():
        click.echo(f"{name}: {why}")
    return EXIT_OK
