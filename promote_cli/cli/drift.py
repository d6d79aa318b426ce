"""``promote drift``: whether each installed framework still answers what promote measured
(``promote_cli.verify.drift``): its version against the measured ones and, when they differ,
every measured cell asked again, the changes grouped by cause."""

from __future__ import annotations

import sys
from typing import Any

import click

from promote_cli import frameworks, schema
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options
from promote_cli.errors import PromoteError, PromotionError, UsageError, printable
from promote_cli.verify.drift import (
    AS_MEASURED,
    DRIFTED,
    EXAMPLES,
    FRAMEWORK_FAILED,
    HOLDS,
    NO_FRAMEWORK,
    NOT_INSTALLED,
    Drift,
    Group,
)
from promote_cli.verify.offline import describe

LIMIT = 20  # changed cells listed by default: a screenful with the summary and the causes


@click.command("drift", cls=Command)
@click.argument("names", nargs=-1, metavar="[FRAMEWORK ...]")
@_options.as_json
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=LIMIT,
    show_default=True,
    metavar="N",
    help="List at most N changed cells after the causes (--json lists every one).",
)
@click.option(
    "--require",
    is_flag=True,
    help="Fail (exit 1) when a framework is not installed, instead of skipping it.",
)
@click.option(
    "--python",
    "python",
    default=None,
    metavar="PATH",
    help="Ask the framework of another environment: its oracle runs under the Python"
    " interpreter PATH.",
)
def command(names, as_json, limit, require, python) -> int:
    """Whether the installed frameworks still answer what promote measured.

    For each framework (default: every one with an oracle) its installed version against the
    versions its measurements name. The same version is "as measured" at once; another
    version is asked every measured question again, and the cells that changed are listed,
    grouped by cause (where they are, and what was measured against what it answers now).
    Exits 1 when a cell changed (or the framework failed; with --require, when one is not
    installed), 0 otherwise.
    """
    try:
        drifts = _drifts(names, python)
    except PromoteError as exc:
        if as_json:  # still one JSON object, saying what failed; the line and exit 2 follow
            click.echo(schema.dumps(_json(False, require, [], str(exc))), nl=False)
        raise
    failed = any(_failed(d, require) for d in drifts)
    if as_json:
        click.echo(schema.dumps(_json(not failed, require, drifts)), nl=False)
    else:
        _print(drifts, limit, require)
    return EXIT_DIFFERENT if failed else EXIT_OK


def _drifts(names: tuple[str, ...], python: str | None) -> list[Drift]:
    """Each framework named (or every one with an oracle), asked."""
    from promote_cli.cli.verify import _progress

    if names:
        chosen = []
        for name in dict.fromkeys(names):
            if frameworks.looks_like_file(name):
                raise UsageError(f"{name}: a policy file has no measurements; name a framework")
            chosen.append(frameworks.entry(name).name)  # the registry's error for a typo
    else:
        chosen = [e.name for e in frameworks.entries() if not e.oracle]
    if python is not None:
        from promote_cli.verify.workers import interpreter

        python = interpreter(python)
    with _progress(enabled=sys.stderr.isatty()) as progress_for:
        return [_one(name, python, progress_for(name)) for name in chosen]


def _one(name: str, python: str | None, progress: Any) -> Drift:
    from promote_cli.verify import drift
    from promote_cli.verify.driver import framework_name, install_hint, oracle
    from promote_cli.verify.workers import FrameworkFailed

    entry = frameworks.entry(name)
    if entry.oracle:
        return Drift(name, NO_FRAMEWORK, framework_name(entry), note=entry.oracle)
    policy = frameworks.get(name)
    orc = oracle(name, python)
    if orc is None:  # pragma: no cover - an entry without a reason has an oracle
        return Drift(name, NO_FRAMEWORK, framework_name(entry), note="no oracle")
    try:
        rules = frameworks.operations(policy)
    except PromotionError:
        rules = None
    try:
        return drift.drift(policy, entry, orc, rules, progress, python)
    except ImportError as exc:
        why = str(exc) or f"{framework_name(entry)} cannot be imported"
        note = f"{why}; to install it: {install_hint(entry)}"
        return Drift(name, NOT_INSTALLED, framework_name(entry), note=note, python=python or "")
    except FrameworkFailed as exc:  # a crash or a hang in the framework's own code
        return Drift(name, FRAMEWORK_FAILED, framework_name(entry), note=str(exc))


def _failed(d: Drift, require: bool) -> bool:
    return d.status in (DRIFTED, FRAMEWORK_FAILED) or (require and d.status == NOT_INSTALLED)


# --- the report ----------------------------------------------------------------------------


def _say(line: str) -> None:
    """One line of the report; on a terminal, broken at word boundaries to fit it."""
    from promote_cli import fit

    click.echo("\n".join(fit.wrap(line, fit.terminal_width(sys.stdout), hang=4)))


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _headline(d: Drift, require: bool) -> str:
    """The framework's one line: its outcome."""
    if d.status == NOT_INSTALLED:
        tail = "; --require was given" if require else ", skipped"
        return f"{d.policy}: not installed{tail} ({d.note})"
    if d.status == NO_FRAMEWORK:
        return f"{d.policy}: {d.note}"
    if d.status == FRAMEWORK_FAILED:
        return f"{d.policy}: the framework failed, not promote: {d.note}"
    where = f" ({d.python})" if d.python else ""
    asked = f"{d.policy}: {d.framework} {d.installed}{where}"
    if d.status == AS_MEASURED:
        return f"{asked}: as measured"
    against = f"measured on {d.against}"
    if d.status == HOLDS:
        return f"{asked}, {against}: all {d.cells:,} measured cells answer as measured"
    from promote_cli.verify.drift import summary

    return (
        f"{asked}, {against}: {d.changed:,} of {d.cells:,} cells changed,"
        f" {_count(len(d.groups), 'cause', 'causes')} ({summary(d.groups)})"
    )


def _group_line(g: Group) -> str:
    """``pairs, rule ml_dtypes: 472 cells; refused -> float32 118, ...; e.g. ...``."""
    tally = g.tally()
    changes = ", ".join(f"{c.was} -> {c.now} {n:,}" for c, n in tally[:EXAMPLES])
    if len(tally) > EXAMPLES:
        changes += f" and {len(tally) - EXAMPLES:,} other changes"
    shown = "; ".join(f"{describe(c.question)}: {c.was} -> {c.now}" for c in g.examples())
    return f"  {g.text()}: {_count(len(g.changes), 'cell', 'cells')}; {changes}; e.g. {shown}"


def _print(drifts: list[Drift], limit: int, require: bool) -> None:
    """Every framework's line first, then each drifted one's causes and its first cells."""
    for d in drifts:
        _say(_headline(d, require))
    for d in drifts:
        if d.status != DRIFTED:
            continue
        _say(f"{d.policy}: {d.changed:,} changed cells, by cause:")
        for g in d.groups:
            _say(_group_line(g))
        if not limit:
            continue
        changes = [c for g in d.groups for c in g.changes]
        _say(f"{d.policy}: the first {min(limit, len(changes)):,} changed cells:")
        for c in changes[:limit]:
            _say(f"  {c.text()}")
        if len(changes) > limit:
            _say(f"  ... and {len(changes) - limit:,} more (--limit N, or --json for all)")
    counts: dict[str, int] = {}
    for d in drifts:
        counts[d.status] = counts.get(d.status, 0) + 1
    said = [f"{n} {_STATUS[s]}" for s, n in counts.items()]
    _say(f"{_count(len(drifts), 'framework', 'frameworks')}: {', '.join(said)}")


_STATUS = {
    AS_MEASURED: "as measured",
    HOLDS: "on another version, all cells as measured",
    DRIFTED: "drifted",
    NOT_INSTALLED: "not installed",
    NO_FRAMEWORK: "with nothing to ask",
    FRAMEWORK_FAILED: "failed",
}


# --- JSON ----------------------------------------------------------------------------------


def _json(ok: bool, require: bool, drifts: list[Drift], error: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "schema": schema.SCHEMA,
        "command": "drift",
        "ok": ok,
        "require": require,
        "frameworks": [_framework_json(d) for d in drifts],
    }
    if error is not None:
        body["error"] = printable(error)
    return body


def _framework_json(d: Drift) -> dict[str, Any]:
    return {
        "policy": d.policy,
        "status": d.status,
        "framework": d.framework,
        "installed": d.installed or None,
        "measured": list(d.measured),
        "against": d.against or None,
        "python": d.python or None,
        "note": d.note or None,
        "cells": d.cells,
        "changed": d.changed,
        "causes": [
            {
                "place": g.place,
                "rule": g.rule,
                "count": len(g.changes),
                "changes": [
                    {"was": c.recorded, "now": c.answered, "count": n} for c, n in g.tally()
                ],
                "cells": [_change_json(c) for c in g.changes],
            }
            for g in d.groups
        ],
    }


def _change_json(c: Any) -> dict[str, Any]:
    from promote_cli.verify.protocol import operand_key

    q = c.question
    return {
        "question": describe(q),
        "kind": q.kind,
        "operation": q.operation,
        "operands": [operand_key(x) for x in q.operands],
        "text": q.text,
        "options": dict(c.options),
        "was": c.recorded,
        "now": c.answered,
        "node": c.node if c.node >= 0 else None,
        "rule": c.rule,
    }
