"""``promote verify``: compare policies with the installed frameworks, cell by cell."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import click

from promote_cli import api, fit, frameworks, schema
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options
from promote_cli.engine import Policy
from promote_cli.errors import PromoteError, UsageError, printable
from promote_cli.notations import display
from promote_cli.operands import label
from promote_cli.options import format_options
from promote_cli.rules import NO_KERNEL
from promote_cli.verify import driver, function, summary
from promote_cli.verify.function import FunctionOracle
from promote_cli.verify.protocol import Oracle

# The mismatching cells listed per policy unless --limit says otherwise: with the summary
# above them, a screenful.
LIMIT = 20


@click.command("verify", cls=Command)
@click.argument("names", nargs=-1, metavar="[POLICY ...]")
@_options.options
@_options.as_json
@click.option(
    "--require",
    is_flag=True,
    help="Fail (exit 1) when a policy's framework is not installed, instead of skipping it.",
)
@click.option(
    "--oracle",
    default=None,
    metavar="MODULE:FUNCTION",
    help="Prove the one POLICY (e.g. ./mine.toml) against your function(a, b) -> dtype"
    " (raising to refuse) instead of a framework.",
)
@click.option(
    "--timeout",
    type=float,
    callback=lambda ctx, param, value: _seconds(value),
    default=None,
    metavar="SECONDS",
    help="How long the framework (or your --oracle module) may take to import, and to answer"
    " one batch of questions (one cell with --oracle; default 60, a framework's own limit"
    " else); every framework is then asked in a worker process of its own.",
)
@click.option(
    "--python",
    "python",
    default=None,
    metavar="PATH",
    help="Ask the framework of another environment: run its oracle under the Python interpreter"
    " PATH (a project's venv, an older NumPy); nothing of promote needs installing there.",
)
@click.option(
    "--limit",
    callback=lambda ctx, param, value: _limit(value),
    default=str(LIMIT),
    show_default=True,
    metavar="N|all",
    help="List at most N mismatching cells per policy after its summary ('all': every one;"
    " --json always has every one).",
)
@click.option(
    "--ops/--no-ops",
    "operations",
    default=True,
    show_default=True,
    help="Also call every operation (promote ops) on tiny arrays and compare its dtype.",
)
def command(
    names, option_values, as_json, require, oracle, timeout, python, limit, operations
) -> int:
    """Prove policies against the installed frameworks (default: every policy).

    Every cell a policy can answer (each option setting, each operand category, every pair of
    its types) is asked of the framework itself. Prints the framework version and the cells
    compared; on a mismatch, a summary (the mismatches per kind of question, and grouped by
    the rule of promote's answer, with examples), then the first --limit cells; exits 1 on
    any mismatch. A framework that is not installed is
    skipped (exit 0) unless --require is given. -O pins an option instead of trying all values.
    --python PATH asks the framework installed for that interpreter instead, and says so when
    its version is not the one the rules were measured on.
    """
    try:
        reports, pols = _reports(names, option_values, require, oracle, timeout, operations, python)
    except PromoteError as exc:
        if as_json:  # still one JSON object, saying what failed; the line and exit 2 follow
            click.echo(schema.dumps(_verify_json(False, require, [], str(exc))), nl=False)
        raise
    failed = any(driver.failed(r, require) for r in reports)

    if as_json:
        body = [_as_json(r, pols.get(r.policy), require) for r in reports]
        click.echo(schema.dumps(_verify_json(not failed, require, body)), nl=False)
    else:
        for report in reports:
            _print(report, pols.get(report.policy), require, limit)
        _say(_closing(reports))
    return EXIT_DIFFERENT if failed else EXIT_OK


def _limit(value: str) -> int | None:
    """``--limit``: a number of cells (0: none, the summary alone), or ``all`` (None)."""
    if value.strip().lower() == "all":
        return None
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise click.BadParameter(f"{value!r} is neither a number of cells (0 or more) nor 'all'")
    return n


def _closing(reports: list[driver.Report]) -> str:
    """The last line: what was compared, and "verified" only when nothing mismatches."""
    checked = [r for r in reports if r.status in (driver.VERIFIED, driver.MISMATCH)]
    differ = [r for r in reports if r.status == driver.MISMATCH]
    agree = len(checked) - len(differ)
    op_cells = sum(r.ops.total for r in checked if r.ops)
    gaps = sum(r.ops.total_gaps for r in checked if r.ops)
    ops_text = f" and {op_cells:,} operation cells ({gaps:,} kernel gaps)" if op_cells else ""
    broke = sum(r.status == driver.FRAMEWORK_FAILED for r in reports)
    broke_text = f", {broke} framework{'s' if broke > 1 else ''} failed" if broke else ""
    compared = (
        f"{sum(r.cells for r in checked):,} pair cells{ops_text} compared,"
        f" {_count(summary.count(checked), 'mismatch', 'mismatches')}{broke_text}"
    )
    if not differ:
        return f"{len(checked)} of {len(reports)} policies verified: {compared}"
    policies = "policy" if len(reports) == 1 else "policies"
    has = "has" if len(differ) == 1 else "have"
    agreeing = f"; {agree} agree{'s' if agree == 1 else ''} on every cell" if agree else ""
    return f"{len(differ)} of {len(reports)} {policies} {has} mismatches: {compared}{agreeing}"


def _reports(
    names: tuple[str, ...],
    option_values: tuple[str, ...],
    require: bool,
    oracle: str | None,
    timeout: float | None,
    operations: bool,
    python: str | None = None,
) -> tuple[list[driver.Report], dict[str, Policy]]:
    """Verify the policies named (or the one against ``oracle``): the reports, and the
    policies by name; under the interpreter ``python`` when given."""
    given = _options.parse_options(option_values)
    if python is not None:
        if oracle is not None:
            raise UsageError("--python asks a framework's oracle; --oracle runs your own function")
        from promote_cli.verify.workers import interpreter

        python = interpreter(python)
    if oracle is not None:
        if len(names) != 1:
            raise UsageError("--oracle proves one policy: promote verify POLICY --oracle M:F")
        pol = api.resolve(names[0])
        chosen, pols = [pol.name], {pol.name: pol}
        pinned = _check_options(pols, given)
        # A function takes no options: each stays at its default unless -O pins it.
        pinned[pol.name] = {**pol.resolve_options(), **pinned[pol.name]}
        mine = FunctionOracle(oracle, pol, timeout=timeout or function.TIMEOUT)
        load: Callable[[str], Oracle | None] | None = lambda name: mine  # noqa: E731
    else:
        files = [n for n in names if frameworks.looks_like_file(n)]
        if files:
            api.resolve(files[0])  # a missing or malformed file says so first
            raise UsageError(f"{files[0]}: a policy file has no framework; add --oracle M:F")
        chosen = driver.selected(names)
        pols = {n: frameworks.get(n) for n in chosen if n in frameworks.names()}
        pinned = _check_options(pols, given)
        load = None

    with contextlib.ExitStack() as stack:
        if oracle is not None:
            stack.enter_context(mine)  # the oracle's worker process ends with this block
        progress_for = stack.enter_context(_progress(enabled=sys.stderr.isatty()))
        reports = [
            driver.verify(
                pols[n],
                pinned[n],
                progress_for(n),
                load_oracle=load,
                operations=operations,
                python=python,
                timeout=timeout if oracle is None else None,
            )
            for n in chosen
        ]
    return reports, pols


def _seconds(value: float | None) -> float | None:
    """``--timeout``: a number of seconds a clock can count (not 0, inf or nan; at most a
    week)."""
    if value is not None and not 0 < value <= 7 * 86_400:
        raise click.BadParameter(f"{value} is not a number of seconds above 0 and at most a week")
    return value


def _verify_json(
    ok: bool, require: bool, reports: list[dict[str, Any]], error: str | None = None
) -> dict[str, Any]:
    """verify's one object; ``error`` is the line of an oracle that failed (exit 2)."""
    body = {
        "schema": schema.SCHEMA,
        "command": "verify",
        "ok": ok,
        "require": require,
        "policies": reports,
    }
    if error is not None:
        body["error"] = printable(error)
    return body


def _check_options(pols: dict[str, Policy], given: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Every -O must belong to a chosen policy, with a value it accepts: checked (and each
    policy's values parsed) before any framework is imported, so a typo costs nothing."""
    for name in given:
        if not any(o.name == name for p in pols.values() for o in p.options):
            raise UsageError(
                f"no policy being verified has an option {name!r}"
                f" (policies: {', '.join(pols) or 'none'})"
            )
    return {n: driver.parse_pinned(p, given) for n, p in pols.items()}


@contextmanager
def _progress(enabled: bool) -> Iterator[Any]:
    """A rich progress bar on stderr (terminals only): one task per policy, naming the phase
    it is in."""
    if not enabled:
        yield lambda name: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:

        def progress_for(name: str):
            task = None

            def update(done: int, total: int, phase: str) -> None:
                # One bar per policy, refilled by each phase: pairs, triples, values,
                # spellings, operations.
                nonlocal task
                described = f"{name} {phase}"
                if task is None:
                    task = bar.add_task(described, total=total)
                bar.update(task, description=described, completed=done, total=total)

            return update

        yield progress_for


def _labels(pol: Policy):
    nota = frameworks.notation_of(pol)
    return (
        lambda op: label(op, nota),
        lambda result: display(result, nota) if result is not None else "refused",
        lambda opts: format_options(pol.options, opts, nota),
    )


def _say(line: str) -> None:
    """One line of the report; on a terminal, broken at word boundaries to fit it."""
    click.echo("\n".join(fit.wrap(line, fit.terminal_width(sys.stdout), hang=4)))


def _print(report: driver.Report, pol: Policy | None, require: bool, limit: int | None) -> None:
    """One policy's report: its line, its operations' and programs' lines; on a mismatch the
    summary (``_print_summary``), then at most ``limit`` mismatching cells (None: all), unless
    the summary's examples already show every one."""
    name = report.policy
    if report.status == driver.NOT_INSTALLED:
        tail = "; --require was given" if require else ", skipped"
        _say(f"{name}: not installed{tail} ({report.note})")
        return
    if report.status == driver.NO_FRAMEWORK:
        _say(f"{name}: {report.note}")
        return
    if report.status == driver.FRAMEWORK_FAILED:
        _say(f"{name}: the framework failed, not promote: {report.note}")
        return
    wrong = summary.mismatches(report)
    verdict = _count(len(wrong), "mismatch", "mismatches") if wrong else "all agree"
    settings = f" ({report.settings} option settings)" if report.settings > 1 else ""
    _say(
        f"{name}: {report.framework} {report.version}, {report.cells:,} cells{settings}"
        f"{_beyond(report)} in {report.seconds:.1f} s (import {report.import_seconds:.1f} s):"
        f" {verdict}"
    )
    if report.other_version:
        where = f" ({report.python})" if report.python else ""
        _say(
            f"  {name}: {report.framework} {report.version}{where} is not"
            f" {report.measured}, the version promote's {name} rules were measured on;"
            " the cells that differ are listed"
        )
    if report.ops is not None:
        _print_ops(name, report.ops)
    if not wrong:
        return
    assert pol is not None, "a policy whose framework answered is a registered one or a file"
    cell = _cells(pol)
    groups = summary.causes(report)
    _print_summary(report, groups, cell)
    if all(g.cells == len(g.examples) for g in groups):
        return  # the examples are every mismatch: no list to repeat them
    shown = wrong if limit is None else wrong[:limit]
    if shown:
        _say(f"  {name} mismatching cells, in the order asked ({len(shown):,} of {len(wrong):,}):")
    for m in shown:
        opts, text = cell(m)
        _say(f"  {name}{' ' + opts if opts else ''}: {text}")
    if len(shown) < len(wrong):
        left = len(wrong) - len(shown)
        _say(
            f"  {name}: {left:,}{' more' if shown else ''} mismatching"
            f" cell{'s' if left > 1 else ''} not listed (--limit all lists every one;"
            " --json gives each)"
        )


def _print_summary(
    report: driver.Report,
    groups: list[summary.Cause],
    cell: Callable[[Any], tuple[str, str]],
) -> None:
    """What mismatches, in a few lines: the versions, the cells and mismatches per kind of
    question, and the mismatches grouped by the rule of promote's answer, the largest group
    first, with its first examples."""
    name = report.policy
    if report.measured and not report.other_version:
        _say(
            f"  {name} versions: {report.framework} {report.version} answered; promote's"
            f" {name} rules were measured on {report.measured}"
        )
    per_kind = ", ".join(
        f"{a.mismatches:,} of {_count(a.cells, *_KINDS[a.question])}" for a in summary.asked(report)
    )
    _say(f"  {name} mismatches: {per_kind}")
    _say(
        f"  {name} mismatches by promote's rule ({_count(len(groups), 'cause', 'causes')},"
        f" up to {summary.EXAMPLES} examples each):"
    )
    for group in groups:
        one, many = _KINDS[group.question]
        by = (
            "promote expr's answer at a node"
            if group.question == driver.EXPRESSION
            else f"promote's rule {group.rule}"
        )
        step = f", step {group.step}" if group.step and group.step != group.rule else ""
        _say(f"    {_count(group.cells, one, many)}: {by}{step}")
        for m in group.examples:
            opts, text = cell(m)
            _say(f"      {opts + ': ' if opts else ''}{text}")


# Each kind of question as the summary counts it (one, many).
_KINDS = {
    driver.PAIR: ("pair", "pairs"),
    driver.RESULT_TYPE: ("triple's result_type", "triples' result_type"),
    driver.CHAIN: ("triple's chain", "triples' chain"),
    driver.VALUE: ("value", "values"),
    driver.SPELLING: ("spelling", "spellings"),
    driver.OPERATION: ("operation cell", "operation cells"),
    driver.EXPRESSION: ("program", "programs"),
}


def _cells(pol: Policy) -> Callable[[Any], tuple[str, str]]:
    """How a mismatching cell reads, in the policy's notation: its options, and what was asked
    with both answers (``int8 x uint8 -> promote says int16, framework says int32``)."""
    op_label, result_label, opts_label = _labels(pol)

    def theirs(result: str | None, error: str) -> str:
        said = result_label(result)
        return f"{said} ({_short(error)})" if result is None and error else said

    def cell(m: Any) -> tuple[str, str]:
        opts = opts_label(m.options)
        if isinstance(m, driver.ExprMismatch):
            bound = " ".join(f"{n}={op_label(x)}" for n, x in zip("xyz", m.bindings, strict=False))
            return opts, (
                f"{m.code!r} {bound}: at {m.node!r} promote says {m.promote},"
                f" framework says {m.framework}"
            )
        if isinstance(m, driver.OpMismatch):
            asked = f"{m.op}({', '.join(op_label(x) for x in m.operands)})"
            mine = result_label(m.promote)
            if m.mine.rule == NO_KERNEL:  # a gap claimed where the framework ran
                mine += " (no CPU kernel)"
        else:
            mine = result_label(m.promote)
            if m.question == driver.SPELLING:
                asked = f"spelling {m.a.dtype!r}"
            else:
                joiner = " x " if m.question in (driver.PAIR, driver.RESULT_TYPE) else " + "
                asked = joiner.join(op_label(op) for op in m.operands)
                if m.question != driver.PAIR:
                    asked = f"{m.question} {asked}"
        return opts, (
            f"{asked} -> promote says {mine}, framework says"
            f" {theirs(m.framework, m.framework_error)}"
        )

    return cell


def _print_ops(name: str, ops: driver.OpsReport) -> None:
    """The operations' line and the random programs' (their mismatches are listed with the
    policy's)."""
    if ops.note:
        _say(f"  {name} operations: not verified ({ops.note})")
        return
    absent = f"; absent: {', '.join(ops.absent)}" if ops.absent else ""
    verdict = (
        "all agree" if not ops.mismatches else _count(len(ops.mismatches), "mismatch", "mismatches")
    )
    gaps = (
        f", {_count(ops.total_gaps, 'kernel gap', 'kernel gaps')} (no CPU kernel: the dtype rule"
        " answers, the call raises)"
        if ops.total_gaps
        else ""
    )
    declined = sum(ops.declined.values())
    if declined:
        gaps += f", {declined:,} declined (promote does not model them)"
    valued = sum(ops.values.values())
    with_values = f" ({valued:,} with a Python scalar's value)" if valued else ""
    _say(
        f"  {name} operations: {ops.total:,} cells{with_values} over {_operations(ops.cells)}"
        f" in {ops.seconds:.1f} s{gaps}{absent}: {verdict}"
    )
    if ops.coverage:
        _say(f"  {name} operations: {ops.coverage}")
    if ops.programs:
        differ = ops.expression_mismatches
        unobservable = (
            f" ({ops.unobservable_programs:,} whose values raise, not compared)"
            if ops.unobservable_programs
            else ""
        )
        _say(
            f"  {name} expressions: {ops.programs:,} random programs, {ops.nodes:,} nodes"
            f"{unobservable}: "
            + (
                "all agree"
                if not differ
                else _count(len(differ), "program differs", "programs differ")
            )
        )


def _beyond(report: driver.Report) -> str:
    """``, 8,000 triples x 2 questions, 800 values, 1,485 spellings`` (what was checked
    beyond pairs; "" for an oracle that answers pairs only)."""
    parts = []
    if report.triples:
        parts.append(f"{report.triples:,} triples x 2 questions")
    if report.values:
        parts.append(f"{report.values:,} values")
    if report.spellings:
        parts.append(f"{report.spellings:,} spellings")
    if report.skipped:
        parts.append(f"{report.skipped:,} unobservable")
    if report.declined:
        parts.append(f"{report.declined:,} declined (not modelled)")
    return "".join(f", {p}" for p in parts)


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _as_json(report: driver.Report, pol: Policy | None, require: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "policy": report.policy,
        "status": report.status,
        "failed": driver.failed(report, require),
        "framework": report.framework or None,
        "version": report.version or None,
        "cells": report.cells,
        "triples": report.triples,
        "values": report.values,
        "spellings": report.spellings,
        "unobservable": report.skipped,
        "declined": report.declined,
        "option_settings": report.settings,
        "seconds": round(report.seconds, 3),
        "import_seconds": round(report.import_seconds, 3),
        "python": report.python or None,
        "measured_version": report.measured or None,
        "note": report.note or None,
        "mismatches": [],
        "operations": None if report.ops is None else _ops_json(report.ops, pol),
        # the summary the text prints: per kind of question, and per cause (every mismatch
        # is in "mismatches", the operations' and the programs' in "operations")
        "asked": [a._asdict() for a in summary.asked(report)],
        "causes": [
            {"question": c.question, "rule": c.rule, "step": c.step or None, "count": c.cells}
            for c in summary.causes(report)
        ],
    }
    if report.mismatches:
        assert pol is not None
        nota = frameworks.notation_of(pol)
        out["mismatches"] = [
            {
                "question": m.question,
                "options": dict(m.options),
                "a": schema.operand(m.a, nota),
                "b": schema.operand(m.b, nota),
                "more": [schema.operand(op, nota) for op in m.more],
                "promote": schema.outcome(m.mine, nota),
                "framework": schema.framework(m.framework, m.framework_error, nota),
            }
            for m in report.mismatches
        ]
    return out


def _ops_json(ops: driver.OpsReport, pol: Policy | None) -> dict[str, Any]:
    nota = frameworks.notation("canonical") if pol is None else frameworks.notation_of(pol)
    return {
        "cells": dict(ops.cells),
        "values": dict(ops.values),
        "gaps": dict(ops.gaps),
        "declined": dict(ops.declined),
        "absent": list(ops.absent),
        "seconds": round(ops.seconds, 3),
        "note": ops.note or None,
        "expressions": {
            "programs": ops.programs,
            "nodes": ops.nodes,
            "unobservable": ops.unobservable_programs,
            "mismatches": [
                {
                    "options": dict(e.options),
                    "code": e.code,
                    "bindings": {
                        n: schema.operand(x, nota) for n, x in zip("xyz", e.bindings, strict=False)
                    },
                    "node": e.node,
                    "promote": e.promote,
                    "framework": e.framework,
                }
                for e in ops.expression_mismatches
            ],
        },
        "mismatches": [
            {
                "options": dict(m.options),
                "op": m.op,
                "operands": [schema.operand(x, nota) for x in m.operands],
                "promote": schema.outcome(m.mine, nota),
                "framework": schema.framework(m.framework, m.framework_error, nota),
            }
            for m in ops.mismatches
        ],
    }


def _operations(cells: Mapping[str, int]) -> str:
    """``39 functions, 22 operators and 12 augmented assignments``: what was called."""
    from promote_cli.vocabulary import AUGMENTED, FUNCTION, OPERATOR, VOCABULARY

    kinds = [VOCABULARY[name].syntax if name in VOCABULARY else FUNCTION for name in cells]
    said = [
        _count(kinds.count(syntax), one, many)
        for syntax, one, many in (
            (FUNCTION, "function", "functions"),
            (OPERATOR, "operator", "operators"),
            (AUGMENTED, "augmented assignment", "augmented assignments"),
        )
        if kinds.count(syntax)
    ]
    return " and ".join(said) if len(said) < 3 else f"{said[0]}, {said[1]} and {said[2]}"
