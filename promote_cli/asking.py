"""Questions as a command line spells them, resolved below the command line.

``promote table``, ``promote diff``, ``promote graph`` and ``promote expr`` take their options
as typed (``-O x64=false``, ``--types f2,bf``, ``--diff-against none``); so do the Sphinx
directives and the MkDocs blocks, which ask the same questions. This module turns those options
into requests and table models, once, for all of them: the plugins never import the command line
or click.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from promote_cli import api
from promote_cli.engine import Policy
from promote_cli.errors import UsageError
from promote_cli.options import parse_options

if TYPE_CHECKING:
    from promote_cli.evaluation import Question
    from promote_cli.exprtable import ExprTable
    from promote_cli.tablemodel import Table

SIDES = ("left", "right")


def split_types(types: str | None) -> list[str] | None:
    """The ``--types`` spellings, or None when the option was not given."""
    if types is None:
        return None
    spellings = [t.strip() for t in types.split(",")]
    if not any(spellings):
        raise UsageError("--types needs at least one type, e.g. --types float16,bfloat16")
    if not all(spellings):
        raise UsageError(
            f"--types {types!r} has an empty item (type {spellings.index('') + 1}); give a"
            " comma-separated list such as float16,bfloat16"
        )
    return spellings


def table_request(
    policy: str,
    types: str | None,
    notation: str | None,
    diff_against: str | None,
    option_values: Iterable[str],
    op: str | None = None,
) -> tuple[api.Request, api.Request | None]:
    """A table's request and the same question of the compared policy (or None)."""
    req = api.request(
        policy,
        notation=notation,
        options=parse_options(option_values),
        operands=split_types(types),
        op=op,
    )
    _distinct(req, types)
    return req, api.compared(req, diff_against)


def table(
    policy: str,
    types: str | None,
    notation: str | None,
    diff_against: str | None,
    option_values: Iterable[str],
    *,
    fmt: str | None = None,
    tail: Sequence[str] = (),
    marks: Sequence[str] = (),
    op: str | None = None,
) -> Table:
    """The table model ``promote table`` renders; its command names ``--format fmt``."""
    from promote_cli.tablemodel import build

    req, other = table_request(policy, types, notation, diff_against, option_values, op)
    head = ["--format", fmt] if fmt else []
    compared = other.policy.name if other else "none"
    given = [] if diff_against is None else ["--diff-against", compared]
    command = req.command("table", *head, tail=[*given, *tail])
    return build(req, other, command=command, marks=marks)


def _distinct(req: api.Request, types: str | None) -> None:
    """A row listed twice would be a table with a repeated row: say which spelling did it."""
    seen = set()
    for spelling, op in zip(split_types(types) or (), req.operands or (), strict=True):
        if op in seen:
            raise UsageError(f"--types lists {spelling!r} ({op.dtype}) twice")
        seen.add(op)


def split_options(
    values: Iterable[str], left: Policy, right: Policy
) -> tuple[dict[str, str], dict[str, str]]:
    """``-O NAME=VALUE`` goes to each side that has the option, ``-O left:NAME=VALUE`` (or
    ``right:``) to one side only."""
    given = parse_options(values)
    out: tuple[dict[str, str], dict[str, str]] = ({}, {})
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


def diff_requests(
    left_name: str,
    right_name: str,
    types: str | None,
    option_values: Iterable[str],
    notation: str | None,
    op: str | None = None,
) -> tuple[api.Request, api.Request]:
    """Both sides of ``promote diff``: the right side is printed in the left's notation."""
    left_pol, right_pol = api.resolve(left_name), api.resolve(right_name)
    left_opts, right_opts = split_options(option_values, left_pol, right_pol)
    left = api.request(
        left_pol, notation=notation, options=left_opts, operands=split_types(types), op=op
    )
    right = api.request(right_pol, notation=left.notation, options=right_opts, op=op)
    return left, right


def graph_request(policy: str, notation: str | None, option_values: Iterable[str]) -> api.Request:
    """What ``promote graph`` draws: the policy's lattice under its options."""
    return api.request(policy, notation=notation, options=parse_options(option_values))


def expr_question(
    code: str, bindings: Iterable[str], policies: str, option_values: Iterable[str]
) -> Question:
    """``promote expr``'s question as its command line spells it: ``NAME=TYPE`` bindings, the
    policies comma separated (``numpy,torch``), ``-O`` values (``POLICY:NAME=VALUE`` for one)."""
    bound = {}
    for given in bindings:
        name, sep, spelling = given.partition("=")
        if not sep or not name.strip() or not spelling.strip():
            raise UsageError(f"bind names as NAME=TYPE (x=int8), not {given!r}")
        bound[name.strip()] = spelling.strip()
    names = [p.strip() for p in policies.split(",") if p.strip()]
    return api.expr_request(code, bound, names, parse_options(option_values))


def expr_table(
    code: str, bindings: Iterable[str], policies: str, option_values: Iterable[str]
) -> ExprTable:
    """``promote expr``'s table of the question :func:`expr_question` reads: every column
    answered, every decision of the views made (``exprtable.build``)."""
    from promote_cli import exprtable

    return exprtable.build(expr_question(code, bindings, policies, option_values))
