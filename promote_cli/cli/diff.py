"""``promote diff``: where two policies (or one under two option settings) disagree."""

from __future__ import annotations

import json

import click

from promote_cli import policies
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, _options
from promote_cli.compare import Diff, diff
from promote_cli.engine import Outcome, Policy
from promote_cli.errors import UsageError
from promote_cli.halftable import REFUSED
from promote_cli.notations import Notation, display
from promote_cli.operands import label, parse

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


def _cell(out: Outcome, nota: Notation) -> str:
    return "refused" if out.refused else display(out.result, nota)  # type: ignore[arg-type]


def _names(d: Diff) -> tuple[str, str]:
    a, b = d.left.policy.name, d.right.policy.name
    return (f"{a} (left)", f"{b} (right)") if a == b else (a, b)


def _summary(d: Diff, nota: Notation) -> list[str]:
    a, b = _names(d)
    n = len(d.left.rows)
    lines = [
        f"{a} vs {b}: identical, all {d.compared} cells of {n} types agree"
        if d.identical
        else f"{a} vs {b}: {len(d.cells)} of {d.compared} cells differ ({n} types)"
    ]
    for name, only in ((a, d.only_left), (b, d.only_right)):
        if only:
            lines.append(f"only {name} has: {' '.join(nota.label(t) for t in only)}")
    return lines


def as_list(d: Diff, nota: Notation) -> str:
    a, b = _names(d)
    rows = [
        (
            f"{label(c.row, nota)} x {label(c.col, nota)}",
            f"{a} {_cell(c.left, nota)}",
            f"{b} {_cell(c.right, nota)}",
        )
        for c in d.cells
    ]
    widths = [max((len(r[k]) for r in rows), default=0) for k in range(3)]
    body = ["  ".join(r[k].ljust(widths[k]) for k in range(3)).rstrip() for r in rows]
    return "\n".join([*body, *_summary(d, nota)]) + "\n"


def as_table(d: Diff, nota: Notation) -> str:
    """A plain-text grid: ``.`` where both agree, ``left/right`` where they differ."""
    heads = [label(op, nota, plain=True) for op in d.left.rows]
    differing = {(c.row, c.col): c for c in d.cells}

    def cell(i: int, j: int) -> str:
        c = differing.get((d.left.rows[i], d.left.cols[j]))
        if c is None:
            return "."
        show = lambda o: REFUSED if o.refused else nota.label(o.result)  # noqa: E731
        return f"{show(c.left)}/{show(c.right)}"

    grid = [[cell(i, j) for j in range(len(heads))] for i in range(len(heads))]
    width = max([len(h) for h in heads] + [len(x) for row in grid for x in row])
    a, b = _names(d)
    lines = [" " * width + " " + " ".join(h.rjust(width) for h in heads)]
    for h, row in zip(heads, grid, strict=True):
        lines.append(h.rjust(width) + " " + " ".join(x.rjust(width) for x in row))
    lines.append(f"cells: . agree; {a}/{b} differ ({REFUSED} refused)")
    return "\n".join([*lines, *_summary(d, nota)]) + "\n"


def _outcome_json(out: Outcome, nota: Notation) -> dict:
    return {
        "result": out.result,
        "label": None if out.refused else nota.label(out.result),  # type: ignore[arg-type]
        "refusal": out.why if out.refused else None,
        "rule": out.rule,
    }


def as_json(d: Diff, nota: Notation) -> str:
    return (
        json.dumps(
            {
                "left": {"policy": d.left.policy.name, "options": dict(d.left.options)},
                "right": {"policy": d.right.policy.name, "options": dict(d.right.options)},
                "notation": nota.name,
                "types": [label(op, nota, plain=True) for op in d.left.rows],
                "canonical_types": [op.dtype for op in d.left.rows],
                "categories": [op.category for op in d.left.rows],
                "only_left": list(d.only_left),
                "only_right": list(d.only_right),
                "cells_compared": d.compared,
                "cells_differing": len(d.cells),
                "identical": d.identical,
                "differences": [
                    {
                        "row": label(c.row, nota, plain=True),
                        "col": label(c.col, nota, plain=True),
                        "row_canonical": c.row.dtype,
                        "col_canonical": c.col.dtype,
                        "left": _outcome_json(c.left, nota),
                        "right": _outcome_json(c.right, nota),
                    }
                    for c in d.cells
                ],
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )


RENDER = {"list": as_list, "table": as_table, "json": as_json}


@click.command("diff")
@click.argument("left_name", metavar="POLICY1")
@click.argument("right_name", metavar="POLICY2")
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(tuple(RENDER)),
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
def command(left_name, right_name, fmt, types, option_values, notation) -> int:
    """Show the cells where POLICY1 and POLICY2 give different answers.

    Exit 0 when they agree on every cell, 1 when they differ (for CI). -O NAME=VALUE sets an
    option on each side that has it; -O left:NAME=VALUE or right:NAME=VALUE on one side.

    \b
    promote diff ascend torch                      # the 26 cells Ascend departs from PyTorch
    promote diff jax numpy -t b1,u1,i1,f2,f4 -f table
    promote diff tensorflow tensorflow -O right:mode=safe
    """
    left, right = policies.get(left_name), policies.get(right_name)
    left_opts, right_opts = split_options(option_values, left, right)
    nota = left.notation_for(notation)
    spellings = _options.split_types(types)
    operands = None if spellings is None else [parse(s, nota) for s in spellings]
    d = diff(left, right, operands, left_opts, right_opts)
    click.echo(RENDER[fmt](d, nota), nl=False)
    return EXIT_OK if d.identical else EXIT_DIFFERENT
