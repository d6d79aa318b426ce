"""``promote ops``: the operation vocabulary, and each policy's function for it; with
``--policy``, one policy's rule for each operation."""

from __future__ import annotations

import sys

import click

from promote_cli import api, fit, frameworks
from promote_cli.cli import EXIT_OK, Command, _options
from promote_cli.errors import PromotionError, UsageError
from promote_cli.rules import Rule, operand_key
from promote_cli.vocabulary import FUNCTIONS, KINDS, OPERATOR_FORMS, VOCABULARY


@click.command("ops", cls=Command)
@click.option(
    "--policy",
    "-p",
    default=None,
    metavar="NAME",
    help="One policy's rules: its function, kind and refusals for each operation.",
)
@_options.options
@_options.as_json
def command(policy, option_values, as_json) -> int:
    """List the operations (array API names) and each policy's own function for
    them ("-" where the framework has none), then Python's operators. openvino
    and ascend define no operations. With --policy, that policy's rule for
    each, operators included: the function, the kind applied after the
    promotion, the types it refuses, and how its a += b lands.

    \b
    promote ops                      # every policy, a column each
    promote ops -p torch             # torch's function, kind and refusals
    promote ops -p keras -O backend=jax
    """
    if policy is not None:
        return _one(policy, option_values, as_json)
    if option_values:
        raise UsageError("-O sets an option of one policy: give --policy NAME too")
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
    width = fit.terminal_width(sys.stdout)
    head = ["operation", "arity", *columns]
    rows = [
        [op.name, op.arity, *(rules[op.name].function or "-" for rules in columns.values())]
        for op in FUNCTIONS.values()
    ]
    click.echo(fit.grid([head, *rows], width, fixed=2, label="policies"), nl=False)
    # An operator is its array type's method everywhere: named once, not in a column each.
    operators = " ".join(OPERATOR_FORMS)
    said = (
        f"operators (each framework's array methods; `promote ops -p NAME` shows one's):"
        f" {operators}"
    )
    click.echo("\n".join(fit.wrap(said, width, hang=2)))
    for name, why in without.items():
        click.echo("\n".join(fit.wrap(f"{name}: {why}", width)))
    return EXIT_OK


def _refuses(rule: Rule) -> str:
    said = list(rule.refuses) + [f"{operand_key(t)} operand" for t in rule.refuses_operand]
    return ", ".join(said) or "-"


def _one(name: str, option_values, as_json: bool) -> int:
    """``promote ops --policy NAME``: each operation's rule under the options given."""
    req = api.request(name, options=_options.parse_options(option_values))
    declared = frameworks.operations(req.policy)  # refuses openvino, ascend: exit 1 with why
    rules = declared.under(req.options)
    if isinstance(rules, str):  # a setting without rules: the reason
        raise PromotionError(rules, rule="no-operations")
    if as_json:
        from promote_cli import schema

        body = {
            **schema.head("ops", req),
            "source": declared.source,
            "operations": [
                {
                    "name": op.name,
                    "arity": op.arity,
                    "summary": op.summary,
                    "function": rules[op.name].function,
                    "kind": rules[op.name].applied_kind.value,
                    "refuses": list(rules[op.name].refuses),
                    "refuses_operand": [operand_key(t) for t in rules[op.name].refuses_operand],
                    "note": rules[op.name].note or None,
                }
                for op in VOCABULARY.values()
            ],
            "operators": None if declared.operators is None else declared.operators.sentences(),
        }
        click.echo(schema.dumps(body), nl=False)
        return EXIT_OK
    width = fit.terminal_width(sys.stdout)
    opts = req.options_text()
    title = f"{req.policy.name}: {declared.source}" + (f" ({opts})" if opts else "")
    click.echo("\n".join(fit.wrap(title, width)))
    head = ["operation", "arity", "function", "kind", "refuses"]
    rows = [
        [
            op.name,
            op.arity,
            r.function or "-",
            r.applied_kind.value if r.function else "-",
            _refuses(r),
        ]
        for op in VOCABULARY.values()
        for r in (rules[op.name],)
    ]
    click.echo(fit.grid([head, *rows], width, fixed=1, flow_last=True), nl=False)
    used = dict.fromkeys(r.applied_kind for r in rules.values() if r.function)
    click.echo("kinds, applied to the promoted type:")
    for kind in used:
        click.echo("\n".join(fit.wrap(f"  {kind.value}: {KINDS[kind]}", width, hang=4)))
    if declared.operators is not None:
        for line in declared.operators.sentences():
            click.echo("\n".join(fit.wrap(line, width, hang=2)))
    return EXIT_OK
