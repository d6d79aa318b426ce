"""One question under several policies at once (``pair`` and ``op`` with ``-p numpy,torch`` or
``-p all``): a row per policy and option setting, answered in one notation (canonical unless
``-n`` names another), so that ``int8`` means one type in every row."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click

from promote_cli import api, fit
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK
from promote_cli.engine import Outcome
from promote_cli.errors import PromotionError, UsageError
from promote_cli.notations import display

ALL = "all"


def named(given: str | None) -> list[str] | None:
    """The policies ``-p`` names when it names several (``numpy,torch``) or ``all``; None when
    it names one (a name or a policy file, whose path may hold a comma)."""
    if given is None:
        return None
    from promote_cli import frameworks

    if given.strip() == ALL:
        return list(frameworks.names())
    if "," not in given or frameworks.looks_like_file(given):
        return None
    names = [p.strip() for p in given.split(",") if p.strip()]
    if len(set(names)) != len(names):
        raise UsageError(f"-p {given} names a policy twice")
    return names


class Row:
    """One policy under one option setting: the request it resolves to, or why it has none."""

    def __init__(
        self, title: str, req: api.Request | None, out: Outcome | PromotionError | None
    ) -> None:
        self.title, self.req, self.out = title, req, out

    @property
    def refused(self) -> bool:
        return isinstance(self.out, PromotionError) or (self.out is not None and self.out.refused)


def settings(policy: Any, given: dict[str, str]) -> list[dict[str, str]]:
    """Every option setting ``-O`` asks of ``policy``: ``-O NAME=V`` goes to each policy that
    has the option, ``-O POLICY:NAME=V`` to that policy only, and ``V1,V2`` makes a row each."""
    mine: dict[str, list[str]] = {}
    for key, value in given.items():
        who, sep, name = key.rpartition(":")
        if sep and who != policy.name:
            continue
        if name in {o.name for o in policy.options}:
            mine[name] = [v.strip() for v in value.split(",") if v.strip()] or [value]
    keys = list(mine)
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*mine.values())]


def rows(
    names: Sequence[str],
    option_values: Iterable[str],
    notation: str | None,
    ask: Callable[
        [Any, dict[str, str], str], tuple[api.Request | None, Outcome | PromotionError | None]
    ],
) -> list[Row]:
    """A row per policy in ``names`` and per setting of its options; ``ask(policy, options,
    notation)`` answers one."""
    from promote_cli.options import parse_options

    given = parse_options(option_values)
    policies = [api.resolve(n) for n in names]
    for key in given:
        who, sep, name = key.rpartition(":")
        owners = [
            p
            for p in policies
            if (not sep or who == p.name) and name in {o.name for o in p.options}
        ]
        if not owners:
            where = who if sep else "none of " + ", ".join(p.name for p in policies)
            raise UsageError(f"-O {key}: {where} has no option {name!r} (see `promote policies`)")
    nota = notation or "canonical"
    out = []
    for pol in policies:
        for setting in settings(pol, given):
            req, answer = ask(pol, setting, nota)
            changed = req.changed_options() if req is not None else []
            out.append(Row(" ".join([pol.name, *changed]), req, answer))
    return out


def text(row: Row) -> str:
    """A row's answer: the dtype (a weak one with what it becomes, a kernel gap said), or
    ``refused: REASON``."""
    out = row.out
    if isinstance(out, PromotionError):
        return f"not answered: {out.reason}"
    assert row.req is not None and out is not None
    nota = row.req.notation
    if out.result is None:
        return f"refused: {out.text(nota)}"
    shown = display(out.result, nota)
    if out.rule == "no-kernel":
        return f"{shown} (no CPU kernel: the call raises on the CPU)"
    return f"{shown} ({out.weak_note()})" if out.weak_note() else shown


def report(
    command: str,
    asked: str,
    found: Sequence[Row],
    as_json: bool,
    body: Callable[[Row], dict[str, Any]],
) -> int:
    """Print the rows (a grid headed ``policy`` and ``asked``, or one JSON object whose
    ``answers`` hold each row's own ``--json`` object); exit 1 when any row is refused."""
    if as_json:
        from promote_cli import schema

        doc = {
            "schema": schema.SCHEMA,
            "command": command,
            "asked": asked,
            "answers": [body(r) for r in found],
        }
        click.echo(schema.dumps(doc), nl=False)
    else:
        grid = [["policy", asked], *([r.title, text(r)] for r in found)]
        click.echo(fit.grid(grid, fit.terminal_width(sys.stdout), flow_last=True), nl=False)
    return EXIT_DIFFERENT if any(r.refused for r in found) else EXIT_OK


def grid(
    names: Sequence[str], types: str | None, option_values: Iterable[str], notation: str | None
) -> tuple[list[str], list[Row], list[list[Outcome]]]:
    """``promote table -p all --types int8,uint8``: the pairs of ``types`` (each unordered
    pair once when every row answers both orders alike, else every ordered pair) and, per
    policy and option setting, its answer to each."""
    from promote_cli.asking import split_types

    spellings = split_types(types)
    if spellings is None:
        raise UsageError("with several policies, name the types to compare: --types int8,uint8")

    def ask(pol, options, nota):
        req = api.request(pol, notation=nota, options=options, operands=spellings)
        return req, None  # its answers are the cells, asked below

    found = rows(names, option_values, notation, ask)
    ordered = [(i, j) for i in range(len(spellings)) for j in range(len(spellings))]
    answers = []
    for r in found:
        assert r.req is not None and r.req.operands is not None
        x = r.req.operands
        answers.append({(i, j): r.req.cell(x[i], x[j]) for i, j in ordered})
    symmetric = all(_same(a[i, j], a[j, i]) for a in answers for i, j in ordered)
    pairs = [(i, j) for i, j in ordered if i <= j or not symmetric]
    titles = [f"{spellings[i]} x {spellings[j]}" for i, j in pairs]
    return titles, found, [[a[p] for p in pairs] for a in answers]


def _same(a: Outcome, b: Outcome) -> bool:
    return (a.result, a.refused) == (b.result, b.refused)


REFUSED = "×"


def grid_report(
    titles: Sequence[str], found: Sequence[Row], cells: Sequence[Sequence[Outcome]], as_json: bool
) -> int:
    """The grid on the terminal (blocks of whole columns that fit it; a key under it), or one
    JSON object: ``pairs``, and per row its policy's ``--json`` head and ``results``."""
    if as_json:
        from promote_cli import schema

        answers = []
        for r, outs in zip(found, cells, strict=True):
            assert r.req is not None
            nota = r.req.notation
            head = schema.head("table", r.req)
            answers.append({**head, "results": [schema.outcome(o, nota) for o in outs]})
        doc = {"schema": schema.SCHEMA, "command": "table", "pairs": list(titles)}
        click.echo(schema.dumps({**doc, "answers": answers}), nl=False)
        return EXIT_OK
    lines = [["policy", *titles]]
    for r, outs in zip(found, cells, strict=True):
        assert r.req is not None
        nota = r.req.notation
        lines.append(
            [r.title, *(REFUSED if o.result is None else display(o.result, nota) for o in outs)]
        )
    width = fit.terminal_width(sys.stdout)
    click.echo(fit.grid(lines, width, label="pairs"), nl=False)
    notation = found[0].req.notation.name if found and found[0].req else "canonical"
    key = f"{REFUSED}: refused (promote pair A B -p NAME says why); {notation} notation"
    if any(o.result is not None and o.result.endswith("*") for outs in cells for o in outs):
        key += "; a name with * is weak: a Python scalar's type, which an array's overrides"
    key += "."
    click.echo("\n".join(fit.wrap(key, width)))
    return EXIT_OK
