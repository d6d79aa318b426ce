"""``promote verify``: ask the framework every question of the enumeration (``cases.plan``),
compare each record with the policy (``compare``) and report.

Pairs, triples (both n-ary questions), values and spellings are reported together
(``Report``); the operations apart (``OpsReport``: cells, gaps and mismatches per operation),
with the random programs run node by node (``promote expr``'s answers: programs, nodes and the
programs that differ).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from promote_cli import frameworks
from promote_cli.engine import Outcome, Policy, remembering
from promote_cli.errors import PromotionError, UsageError, exhausted
from promote_cli.framework import Framework
from promote_cli.operands import Operand
from promote_cli.rules import Operations
from promote_cli.verify import extra_install
from promote_cli.verify.cases import absent, plan
from promote_cli.verify.cases import option_values as option_values
from promote_cli.verify.cases import settings as settings
from promote_cli.verify.compare import DECLINES, GAP, SKIPPED, Verdict, judged
from promote_cli.verify.compare import MISMATCH as DIFFERS
from promote_cli.verify.expressions import answered_by
from promote_cli.verify.protocol import (
    CHAIN,
    EXPRESSION,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    SPELLING,
    VALUE,
    Oracle,
    Question,
    asking,
    opened,
)
from promote_cli.verify.workers import FrameworkFailed

VERIFIED, MISMATCH = "verified", "mismatch"
NOT_INSTALLED, NO_FRAMEWORK = "not-installed", "no-framework"
FRAMEWORK_FAILED = "framework-failed"  # its process was killed by a signal, or hung

# (done, total, phase): each phase (pairs, triples, values, spellings, operations) counts from
# 0 to its own total, so a bar shows how far the run is in every phase, not only the pairs.
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Mismatch:
    options: Mapping[str, Any]
    a: Operand
    b: Operand
    mine: Outcome  # the policy's outcome
    framework: str | None  # the framework's result; None when it raises
    framework_error: str = ""  # what the framework said when it raised
    question: str = PAIR  # pair, result_type, chain, value; spelling (a holds the text)
    more: tuple[Operand, ...] = ()  # the operands after a and b

    @property
    def operands(self) -> tuple[Operand, ...]:
        return (self.a, self.b, *self.more)

    @property
    def promote(self) -> str | None:
        """The policy's result; None when it refuses."""
        return self.mine.result


@dataclass(frozen=True)
class OpMismatch:
    options: Mapping[str, Any]
    op: str
    operands: tuple[Operand, ...]
    mine: Outcome
    framework: str | None
    framework_error: str = ""

    @property
    def promote(self) -> str | None:
        return self.mine.result


@dataclass(frozen=True)
class ExprMismatch:
    """A random program whose node ``node`` differs: promote's answer and the framework's."""

    options: Mapping[str, Any]
    code: str
    bindings: tuple[Operand, ...]  # bound to x, y, z in order
    node: str
    promote: str
    framework: str


@dataclass
class OpsReport:
    """What the operations of one policy came to: per operation, cells, gaps, mismatches."""

    cells: Counter = field(default_factory=Counter)  # op -> cells compared (without values)
    values: Counter = field(default_factory=Counter)  # op -> cells with a valued Python scalar
    gaps: Counter = field(default_factory=Counter)  # op -> no-kernel cells
    declined: Counter = field(default_factory=Counter)  # op -> cells the policy declines
    absent: tuple[str, ...] = ()  # operations the framework lacks
    mismatches: list[OpMismatch] = field(default_factory=list)
    seconds: float = 0.0
    coverage: str = ""  # what was asked, when not every operand
    note: str = ""  # why there is nothing to verify
    programs: int = 0  # random programs run (``promote expr``'s), node by node
    nodes: int = 0  # their nodes compared
    unobservable_programs: int = 0  # programs whose values raised (a zero divisor)
    expression_mismatches: list[ExprMismatch] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.cells.values()) + sum(self.values.values())

    @property
    def total_gaps(self) -> int:
        return sum(self.gaps.values())


@dataclass
class Report:
    policy: str
    status: str
    framework: str = ""
    version: str = ""
    cells: int = 0
    settings: int = 0
    seconds: float = 0.0  # comparing, after the framework was imported
    import_seconds: float = 0.0
    note: str = ""
    mismatches: list[Mismatch] = field(default_factory=list)
    triples: int = 0  # random triples, each asked both n-ary questions
    skipped: int = 0  # questions the framework cannot show an answer to (Unobservable)
    declined: int = 0  # questions the policy declines (``engine.DECLINED``), not compared
    spellings: int = 0
    values: int = 0
    ops: OpsReport | None = None  # the operations, when asked for
    python: str = ""  # the interpreter the oracle ran under (--python), "" for promote's own
    measured: str = ""  # the version the rules were measured on, for the settings asked

    @property
    def other_version(self) -> bool:
        """Whether the framework asked is not the version the rules were measured on: its
        release (a local build's label aside: torch 2.13.0+cpu is 2.13.0), and what follows it
        where both name more (NumPy's release of ml_dtypes)."""
        found, wanted = self.version.split(maxsplit=1), self.measured.split(maxsplit=1)
        if not (found and wanted):
            return False
        if found[0].split("+")[0] != wanted[0]:
            return True
        return len(found) == len(wanted) == 2 and found[1] != wanted[1]


def oracle(policy: str, python: str | None = None, timeout: float | None = None) -> Oracle | None:
    """The oracle of the framework ``policy`` names (``frameworks/<name>/oracle.py``, wrapped
    in its worker when it runs in one), or None when no framework can prove it: its entry
    says why, or promote registers no such framework (a policy file). With ``python`` (an
    interpreter ``workers.interpreter`` checked) every oracle runs in a worker under it; with
    ``timeout`` (``--timeout``) in a worker whose every request (the import, each batch of
    questions) has that many seconds, the oracle's own limit replaced."""
    try:
        module = frameworks.oracle(policy)
    except UsageError:
        return None
    if module is None:
        return None
    if module.RUNS.worker or python is not None or timeout is not None:
        from promote_cli.verify.workers import WorkerOracle

        return WorkerOracle(module, python, timeout)
    found: Oracle = module
    return found


def framework_name(entry: Framework) -> str:
    """What a report names as the framework asked: the package its entry installs
    (``array-api-strict``, ``tensorflow-cpu``), or the policy's name."""
    return entry.install.split("[")[0] or entry.name


def install_hint(entry: Framework) -> str:
    """How to install a framework: ``pip install tensorflow-cpu==2.21.0``, the release its
    rules were measured on (another release may answer otherwise, and verify says so), and the
    command that installs promote's ``conformance`` extra, every framework it holds, from where
    this promote came from (promote is on no package index: ``promote-cli[conformance]`` alone
    would find nothing)."""
    import shlex

    pinned = f"{entry.install}=={entry.version}" if entry.version else entry.install
    hint = f"pip install {shlex.quote(pinned)}"
    if entry.version:
        hint += ", the release promote's rules were measured on"
    if entry.in_extra:
        hint += f" (or every framework at once: {extra_install('conformance')})"
    return hint


def declared_operations(policy: Policy) -> Operations | PromotionError:
    """The operations ``policy`` declares, or the refusal that says why it declares none."""
    try:
        return frameworks.operations(policy)
    except PromotionError as exc:
        return exc


def names() -> tuple[str, ...]:
    """Every policy verify knows of: the registry's."""
    return frameworks.names()


def parse_pinned(policy: Policy, given: Mapping[str, str]) -> dict[str, Any]:
    """The ``-O`` values that belong to ``policy``, parsed in its notation."""
    nota = frameworks.notation_of(policy)
    return {o.name: o.parse(given[o.name], nota) for o in policy.options if o.name in given}


def verify(
    policy: Policy,
    pinned: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    *,
    load_oracle: Callable[[str], Oracle | None] | None = None,
    operations: bool = False,
    python: str | None = None,
    timeout: float | None = None,
) -> Report:
    """Compare ``policy`` with its framework over every question; ``pinned`` holds option
    values (parsed, see ``parse_pinned``) held fixed. With ``operations`` every operation of
    the policy is also called. ``python``: the framework of another interpreter's environment
    (checked with ``workers.interpreter``), asked in a worker. ``load_oracle`` is replaceable
    for tests."""
    name = policy.name
    orc = load_oracle(name) if load_oracle else oracle(name, python, timeout)
    if orc is None:
        return Report(name, NO_FRAMEWORK, note="no installable framework, nothing to verify")
    registered = name in frameworks.names() and policy.file is None
    # The user's --oracle names itself; a framework's oracle is named by its entry.
    framework = getattr(orc, "FRAMEWORK", None) or (
        framework_name(frameworks.entry(name)) if registered else name
    )
    report = Report(name, NOT_INSTALLED, framework=framework, python=python or "")
    combos = settings(policy, pinned, installed_releases(policy, python))
    if registered:
        report.measured = measured_version(frameworks.entry(name), combos)
    rules = None
    if operations:
        report.ops = OpsReport()
        declared = declared_operations(policy)
        if isinstance(declared, PromotionError):
            report.ops.note = declared.reason
        else:
            rules = declared
            if not orc.ASKS.operations:
                report.ops.note = f"the {framework} oracle does not call operations"
                rules = None
            else:
                report.ops.absent = absent(rules)
    asked = plan(policy, combos, orc.ASKS, rules)
    started = time.perf_counter()
    try:
        with opened(orc) as handle:
            report.import_seconds = time.perf_counter() - started
            started = time.perf_counter()
            for opts, batch, cells in asking(orc, handle, asked, progress, answered_by):
                with remembering():  # a batch asks the same promotions again and again
                    for q, cell in zip(batch.questions, cells, strict=True):
                        if q.kind == EXPRESSION:
                            _record_program(report, policy, opts, q, cell)
                        else:
                            _record(report, opts, q, judged(policy, rules, opts, q, cell))
                spent, started = time.perf_counter() - started, time.perf_counter()
                if batch.kind in (OPERATION, EXPRESSION):
                    report.ops.seconds += spent  # type: ignore[union-attr]
                else:
                    report.seconds += spent
            report.version = orc.version(handle)
    except ImportError as exc:  # at load, or a worker's framework at its first question
        if exhausted(exc):  # installed, but the process ran out of memory importing it
            raise
        why = str(exc) or f"{framework} cannot be imported"
        report.note = f"{why}; to install it: {_hint(policy)}"
        return report
    except FrameworkFailed as exc:  # a crash or a hang in the framework's own code
        report.status, report.note = FRAMEWORK_FAILED, str(exc)
        return report
    report.settings = len(combos)
    wrong = report.mismatches or (
        report.ops is not None and (report.ops.mismatches or report.ops.expression_mismatches)
    )
    report.status = MISMATCH if wrong else VERIFIED
    return report


def installed_releases(policy: Policy, python: str | None = None) -> dict[str, str]:
    """Each release option of ``policy`` (NumPy's ``ml_dtypes``) mapped to the measured release
    of its package installed where the oracle runs (``python``'s environment, or this one);
    an option whose package is absent there, or at a release not measured, is left out."""
    from promote_cli.options import release_of
    from promote_cli.verify.workers import package_version

    found = {}
    for option in policy.options:
        if option.kind != "release":
            continue
        version = package_version(option.package, python)
        release = release_of(version, option.choices) if version else None
        if release is not None:
            found[option.name] = release
    return found


def measured_version(entry: Framework, combos: Sequence[Mapping[str, Any]]) -> str:
    """The version ``entry``'s rules were measured on under the option settings ``combos``, as
    its measurement files name it (``2.4.6 (ml_dtypes 0.6.0)``: NumPy's names the release of
    ml_dtypes too): that of the set measured apart one of the settings selects (NumPy's
    ``promotion=legacy``: 1.26.4; ``ml_dtypes=0.6``), else the entry's own set's."""
    import json
    from importlib import resources

    apart = next(
        (a for a in entry.measured_apart if any(c.get(a.option) == a.value for c in combos)),
        None,
    )
    wanted = apart.version if apart is not None else entry.version
    # the pairs file's head (verify.measured reads them whole, and imports this module)
    where = resources.files(entry.package).joinpath("measured")
    pairs = (where.joinpath(apart.directory) if apart is not None else where).joinpath("pairs.json")
    said = json.loads(pairs.read_text("utf-8")).get("version") if pairs.is_file() else None
    # the file's, when it is of the version the entry names (its first word)
    return said if isinstance(said, str) and said.split()[:1] == [wanted] else wanted


def _hint(policy: Policy) -> str:
    try:
        return install_hint(frameworks.entry(policy.name))
    except UsageError:
        return "see its oracle"


def _record_program(
    report: Report, policy: Policy, opts: Mapping[str, Any], q: Question, cell: Any
) -> None:
    """One program's verdict (``verify.expressions.judge``) into the report."""
    from promote_cli.verify import expressions

    ops = report.ops
    assert ops is not None
    ops.programs += 1
    j = expressions.judge(policy, opts, q, cell)
    ops.nodes += j.nodes
    if j.skipped:
        ops.unobservable_programs += 1
    elif j.node:
        ops.expression_mismatches.append(
            ExprMismatch(opts, q.text, q.operands, j.node, j.promote, j.framework)
        )


def _record(report: Report, opts: Mapping[str, Any], q: Question, v: Verdict) -> None:
    """One verdict into the report."""
    if q.kind == OPERATION:
        ops = report.ops
        assert ops is not None
        valued = any(x.value is not None for x in q.operands)
        (ops.values if valued else ops.cells)[q.operation] += 1
        if v.status == GAP:
            ops.gaps[q.operation] += 1
        elif v.status == DECLINES:
            ops.declined[q.operation] += 1
        elif v.status == SKIPPED:
            report.skipped += 1
        elif v.status == DIFFERS:
            ops.mismatches.append(
                OpMismatch(opts, q.operation, q.operands, v.mine, v.framework, v.error)
            )
        return
    if q.kind == PAIR:
        report.cells += 1
    elif q.kind == RESULT_TYPE:
        report.triples += 1
    elif q.kind == SPELLING:
        report.spellings += 1
    if v.status == SKIPPED:
        report.skipped += 1
        return
    if v.status == DECLINES:
        report.declined += 1
        return
    if q.kind == VALUE:
        report.values += 1
    if v.status != DIFFERS:
        return
    if q.kind == SPELLING:
        text = Operand(q.text)
        report.mismatches.append(Mismatch({}, text, text, v.mine, v.framework, v.error, SPELLING))
        return
    a, b, *more = q.operands
    kind = q.kind if q.kind in (RESULT_TYPE, CHAIN, VALUE) else PAIR
    report.mismatches.append(Mismatch(opts, a, b, v.mine, v.framework, v.error, kind, tuple(more)))


def failed(report: Report, require: bool) -> bool:
    """Whether this report makes the run fail: a mismatch, a framework that crashed or hung,
    or (with ``require``) a framework that is not installed."""
    if report.status in (MISMATCH, FRAMEWORK_FAILED):
        return True
    return require and report.status == NOT_INSTALLED


def selected(requested: Sequence[str]) -> list[str]:
    """The policies to verify: those named (each checked), or every one verify knows."""
    if not requested:
        return list(names())
    known = names()
    for name in requested:
        if name not in known:
            frameworks.get(name)  # raises the registry's usage error, with its suggestion
    return list(dict.fromkeys(requested))
