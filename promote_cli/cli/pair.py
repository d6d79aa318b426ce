"""``promote pair``: one question, answered in the policy's notation."""

from __future__ import annotations

import click

from promote_cli import policies
from promote_cli.api import read_operands
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, _options
from promote_cli.engine import fold, format_options
from promote_cli.errors import UsageError
from promote_cli.notations import collides, display
from promote_cli.operands import inner, label


@click.command("pair")
@click.argument("operands", nargs=-1, required=True, metavar="A B [C ...]")
@_options.policy
@_options.options
@_options.notation
@_options.as_json
@click.option("--explain", is_flag=True, help="Say which rule decided, and why.")
def command(operands, policy, option_values, notation, as_json, explain) -> int:
    """Promote A and B (more operands are folded left to right).

    An operand is a dtype (f16, bfloat16, i8 ...), S(t) for a 0-d tensor, D(t) for a
    dimensioned one, or a Python scalar: int, float, complex, P(bool).
    Prints the result; a refusal prints its reason and exits 1.
    """
    if len(operands) < 2:
        raise UsageError("pair needs two operands, e.g. promote pair f16 bf16")
    pol = policies.get(policy)
    opts = pol.resolve_options(_options.parse_options(option_values))
    nota = pol.notation_for(notation)
    ops = read_operands(pol, operands, notation)
    final = fold(pol, ops, opts)
    show = lambda t: display(t, nota)  # noqa: E731

    if as_json:
        import json

        click.echo(
            json.dumps(
                {
                    "policy": pol.name,
                    "notation": nota.name,
                    "options": opts,
                    "inputs": [
                        {
                            "spelling": s,
                            "canonical": op.dtype,
                            "category": op.category,
                            "label": label(op, nota, plain=True),
                        }
                        for s, op in zip(operands, ops, strict=True)
                    ],
                    "result": final.result,
                    "result_label": None if final.refused else nota.label(final.result),
                    "refusal": final.why if final.refused else None,
                    "rule": final.rule,
                    "explanation": final.why,
                    "unsafe_result": final.unsafe_result,
                },
                indent=2,
            )
        )
        return EXIT_DIFFERENT if final.refused else EXIT_OK

    misread = [
        f"{s} as {op.dtype}" for s, op in zip(operands, ops, strict=True) if collides(inner(s))
    ]
    if misread:
        click.echo(f"note: read {', '.join(misread)} ({nota.name} notation)", err=True)
    if explain:
        settings = format_options(pol, opts, nota) or "no options"
        click.echo(f"policy: {pol.name} ({settings})")
        inputs = " x ".join(label(op, nota) for op in ops)
        verdict = "refused" if final.refused else show(final.result)
        click.echo(f"{inputs} -> {verdict}")
        click.echo(f"rule: {final.rule}: {final.why}")
        return EXIT_DIFFERENT if final.refused else EXIT_OK
    if final.refused:
        click.echo(f"refused: {final.why}")
        return EXIT_DIFFERENT
    click.echo(show(final.result))
    return EXIT_OK
