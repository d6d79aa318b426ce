"""``promote check``: lint a promotion system: its properties, and the cells that lose values."""

from __future__ import annotations

import sys
from typing import Any

import click

from promote_cli import api, fit, schema
from promote_cli.asking import split_types
from promote_cli.check import PROPERTIES, Report, check, summary, table_operands
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options
from promote_cli.errors import UsageError
from promote_cli.operands import label


@click.command("check", cls=Command)
@click.argument("policy_name", metavar="POLICY", required=False)
@click.option(
    "--policy",
    "-p",
    "policy_option",
    default=None,
    metavar="NAME",
    help="The policy, as other commands take it (instead of POLICY); a TOML file too.",
)
@_options.policy_file
@_options.options
@_options.notation
@click.option(
    "--types",
    "-t",
    default=None,
    metavar="T1,T2,...",
    help="The operands to check (also S(t), P(int) ...). Default: every type of the policy.",
)
@click.option(
    "--categories",
    is_flag=True,
    help="Check every operand the policy has: its types as 0-d arrays and the Python scalars too.",
)
@click.option(
    "--examples",
    "-e",
    "limit",
    type=click.IntRange(min=0),
    default=5,
    show_default=True,
    help="Counterexamples (and lossy cells) shown per property; 0 shows all.",
)
@click.option(
    "--summary",
    "summary_",
    is_flag=True,
    help="Print one Markdown table summarising every built-in policy (the docs site's).",
)
@_options.as_json
def command(
    policy_name,
    policy_option,
    policy_file,
    option_values,
    notation,
    types,
    categories,
    limit,
    summary_,
    as_json,
) -> int:
    """Check POLICY's promotion table as a whole: commutative, associative (every triple; a
    refusal propagates), idempotent, total, a lattice (each answer the least upper bound in
    the table's own order), monotone in a declared order; and the cells that lose values of
    an input (a value the result cannot hold exactly, with an example).

    Exit 0 when every property the policy declares holds, 1 when one fails.

    \b
    promote check numpy         # (uint16 x int8) x float32 = float64 but ...
    promote check torch --json  # int32 x bfloat16 -> bfloat16 loses int32 values
    promote check -p ./mine.toml --categories
    """
    if summary_:
        click.echo(summary(), nl=False)
        return EXIT_OK
    given = [n for n in (policy_name, policy_option, policy_file) if n is not None]
    if len(given) > 1:
        raise UsageError("name the policy once: POLICY, -p NAME or --policy-file FILE")
    name = given[0] if given else None
    if name is None:
        raise UsageError("name a policy: promote check POLICY (or --policy-file FILE)")
    req = api.request(
        name,
        notation=notation,
        options=_options.parse_options(option_values),
        operands=split_types(types),
    )
    if req.operands is not None and categories:
        raise UsageError("--categories chooses the operands; --types names them: give one")
    ops = req.operands if req.operands is not None else table_operands(req.policy, categories)
    report = check(req, ops, limit=limit)
    if as_json:
        click.echo(schema.dumps(as_dict(report, categories)), nl=False)
    else:
        width = fit.terminal_width(sys.stdout)
        click.echo(fit.lines(as_text(report, limit), width), nl=False)
    return EXIT_DIFFERENT if report.failed else EXIT_OK


def as_text(report: Report, limit: int) -> str:
    req, nota = report.request, report.request.notation
    opts = req.options_text()
    lines = [
        f"{req.policy.name}: {len(report.operands)} operands, {nota.name} notation"
        + (f", {opts}" if opts else "")
    ]
    for name in PROPERTIES:
        p = report.properties[name]
        declared = " (declared)" if p.declared else ""
        if p.holds is None:
            verdict = f"not checked: {p.note}"
        elif p.holds:
            verdict = f"holds{declared}: all {p.of:,} {_unit(name)}"
        else:
            verdict = f"FAILS{declared}: {p.failures:,} of {p.of:,} {_unit(name)}"
        lines.append(f"{name:<12} {verdict}")
        if p.note and p.holds is not None:
            lines.append(f"  ({p.note})")
        lines += [f"  {e.text(nota)}" for e in p.examples]
    shown = report.lossy if limit == 0 else report.lossy[:limit]
    lines.append(f"{'lossy':<12} {len(report.lossy):,} of {report.cells:,} cells lose values")
    for cell in shown:
        a, b = label(cell.a, nota, plain=True), label(cell.b, nota, plain=True)
        for side, lost in cell.losses:
            who = a if side == "a" else b
            lines.append(f"  {a} x {b} -> {nota.label(cell.result)} loses {who}: {lost.text(nota)}")
    failed = report.failed
    lines.append(
        f"declared and failing: {', '.join(failed)}" if failed else "every declared property holds"
    )
    return "\n".join(lines) + "\n"


def _unit(name: str) -> str:
    return {"associative": "triples", "idempotent": "operands", "monotone": "cases"}.get(
        name, "pairs"
    )


def as_dict(report: Report, categories: bool) -> dict[str, Any]:
    req, nota = report.request, report.request.notation
    return {
        **schema.head("check", req),
        "categories": categories,
        "types": [schema.operand(op, nota) for op in report.operands],
        "ok": not report.failed,
        "failed": report.failed,
        "properties": {
            p.name: {
                "holds": p.holds,
                "declared": p.declared,
                "count": p.failures,
                "of": p.of,
                "note": p.note or None,
                "examples": [
                    {
                        "text": e.text(nota),
                        "operands": [schema.operand(op, nota) for op in e.operands],
                        "results": [schema.outcome(out, nota) for out in e.outcomes],
                    }
                    for e in p.examples
                ],
            }
            for p in report.properties.values()
        },
        "unbounded": [[schema.operand(op, nota) for op in pair] for pair in report.unbounded],
        "cells": report.cells,
        "lossy": [
            {
                "a": schema.operand(cell.a, nota),
                "b": schema.operand(cell.b, nota),
                "result": cell.result,
                "loses": [side for side, _ in cell.losses],
                "example": cell.losses[0][1].text(nota),
                "examples": {side: lost.text(nota) for side, lost in cell.losses},
            }
            for cell in report.lossy
        ],
    }
