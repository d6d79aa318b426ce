"""``promote expr``: what a few lines of array code give, node by node, under several policies."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from promote_cli import asking, fit
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options
from promote_cli.errors import UsageError
from promote_cli.evaluation import Step, checked
from promote_cli.exprtable import ExprTable
from promote_cli.program import ASTYPE, LITERAL, NAME


@click.command("expr", cls=Command)
@click.argument("code")
@click.argument("bindings", nargs=-1, metavar="NAME=TYPE ...")
@click.option(
    "--policy",
    "-p",
    "policies",
    default=None,
    metavar="P[,P2...]",
    help="The policies to answer under, a column each (see `promote policies`), or all"
    f" that answer expressions. Default: {_options.DEFAULT_POLICY}, said on stderr.",
)
@_options.options
@_options.as_json
@click.option("--explain", is_flag=True, help="Say, under each node, each policy's rule.")
def command(code, bindings, policies, option_values, as_json, explain) -> int:
    """What CODE gives, node by node, under each policy: one expression, or
    statements separated by ; or newlines (assignments, x += ..., then an
    expression). NAME=TYPE binds a name to an array (x=int8; x=S(int8) a 0-d
    array); literals are Python scalars with their values. Nothing is run: the
    code is read with Python's ast, and each node is the answer `promote op`
    gives for the values its operands hold there.

    \b
    promote expr 'x / 2 + w.sum()' x=int8 w=uint8 -p numpy,torch,jax,mlx
    promote expr 'x += 1.5' x=int8 -p numpy,jax -O jax:x64=false
    promote expr 'y = sqrt(x); y * 2' x=int16 -p array-api,torch --explain

    The row marked > is the first node where the policies part. A node a
    framework raises at (a refusal, a missing kernel) shows `raises` and stops
    that column; one promote does not answer under a policy (a literal's value
    its operations are not checked with, MindSpore's * of a 0-d tensor) shows `?`
    and stops it too.
    -O NAME=VALUE goes to each policy with that option, -O POLICY:NAME=VALUE to
    one. Exits 1 when a column raises.
    """
    given = policies
    policies = _options.chosen(policies)
    if policies.strip() == "all":
        policies = ",".join(checked())
    table = asking.expr_table(code, bindings, policies, option_values)
    _options.say_default(given)
    if as_json:
        click.echo(_json(table), nl=False)
    else:
        for line in _table(table, explain, fit.terminal_width(sys.stdout)):
            click.echo(line)
    raised = any(step.operand is None for column in table.answers for step in column[-1:])
    return EXIT_DIFFERENT if raised else EXIT_OK


def _table(table: ExprTable, explain: bool, room: int | None) -> list[str]:
    """The terminal table: a row per computing node, a column per policy; the code column
    takes what the policies leave of ``room`` (a node's text cut with … to fit)."""
    from promote_cli import frameworks

    nota = frameworks.notation("canonical")
    question, answers, rows = table.question, table.answers, table.rows
    titles = [c.title for c in question.columns]
    widths = [
        max([fit.cells(t), *(fit.cells(r.cells[k]) for r in rows)]) for k, t in enumerate(titles)
    ]
    code_width = max([fit.cells("code"), *(fit.cells(r.code) for r in rows)])
    fixed = 2 + sum(w + 2 for w in widths)  # the marker and each column with its gap
    if room is not None and fixed + code_width > room:
        code_width = room - fixed
        if code_width < 12:
            raise UsageError(
                f"{len(titles)} policies do not fit {room} columns beside the code: name fewer"
                " with -p, or use --json"
            )

    def line(marker: str, code: str, cells: Sequence[str]) -> str:
        padded = [c + " " * (w - fit.cells(c)) for c, w in zip(cells, widths, strict=True)]
        return (
            f"{marker} {_cut(code, code_width)}{' ' * max(0, code_width - fit.cells(code))}  "
            + ("  ".join(padded)).rstrip()
        )

    out = [line(" ", "code", titles)]
    for r in rows:
        out.append(line(">" if r.parts else " ", r.code, r.cells))
        if explain:
            for column, a in zip(question.columns, answers, strict=True):
                step = a[r.number]
                if step.outcome is not None:
                    why = f"{column.title}: {step.outcome.rule}: {step.outcome.text(nota)}"
                    out.extend(
                        "    " + w for w in fit.wrap(why, None if room is None else room - 4)
                    )
    for note in table.notes:
        out.extend(fit.wrap(note, room))
    return out


def _cut(text: str, width: int) -> str:
    if fit.cells(text) <= width:
        return text
    kept = ""
    for ch in text:
        if fit.cells(kept + ch) > width - 1:
            break
        kept += ch
    return kept + "…"


def _json(table: ExprTable) -> str:
    from promote_cli import frameworks, schema

    question, answers = table.question, table.answers

    nota = frameworks.notation("canonical")
    nodes = []
    for i, node in enumerate(question.program.nodes):
        if node.kind in (NAME, LITERAL):
            continue
        cells: list[dict[str, object] | None] = []
        for a in answers:
            step = a[i]
            if step.operand is None and step.outcome is None:
                cells.append(None)  # the column stopped before this node
            elif step.operand is None:
                assert step.outcome is not None
                cells.append(schema.outcome(step.outcome, nota))
            else:
                cells.append(_answer(step, nota))
        nodes.append(
            {
                "index": i,
                "text": node.text,
                "line": node.line,
                "column": node.column,
                "operation": node.operation,
                "binds": node.binds or None,
                "answers": cells,
            }
        )
    body = {
        "schema": schema.SCHEMA,
        "command": "expr",
        "code": question.program.code,
        "bindings": {name: schema.operand(x, nota) for name, x in question.bindings.items()},
        "columns": [schema.side(c.policy, dict(c.options)) for c in question.columns],
        "nodes": nodes,
        "parts_at": table.parts,
    }
    return schema.dumps(body)


def _answer(step: Step, nota) -> dict[str, object]:
    """A node's answer in the outcome shape, with the operand its value is (``value``: dtype and
    category): an operation's outcome (its result the array it returns, weak where the
    framework keeps the flag), a cast (``astype``: rule ``cast``), or a view that keeps the
    dtype (``.T``, indexing: rule ``view``)."""
    from promote_cli import schema

    x = step.operand
    assert x is not None
    value = schema.operand(x, nota)  # what the node's value is: its dtype and category
    if step.outcome is not None:
        out = schema.outcome(step.outcome, nota)
        return {**out, "result": x.dtype, "label": nota.label(x.dtype), "value": value}
    cast = step.node.kind == ASTYPE
    return {
        "result": x.dtype,
        "label": nota.label(x.dtype),
        "refused": False,
        "rule": "cast" if cast else "view",
        "reason": "the dtype asked" if cast else "a view of the array: its dtype",
        "unsafe_result": None,
        "materialised": None,
        "value": value,
    }
