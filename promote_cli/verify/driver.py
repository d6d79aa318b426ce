"""The verify driver: every option setting x every operand pair of a policy, asked of the policy
and of the framework (through its oracle), compared cell by cell.

The cells are the policy's whole answer space, not its default table: every type of its
universe in every operand category the policy declares (``D``, ``S`` when 0-d tensors matter,
and the Python scalars ``P(bool)``, ``int*``, ``float*``, ``complex*`` when they do), in both
orders, under every option setting. Two refusals agree; a refusal and a result do not.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from promote_cli import policies
from promote_cli.dtypes import get as dtype
from promote_cli.engine import Option, Policy
from promote_cli.operands import Operand
from promote_cli.verify import Oracle, Refused, install_hint, oracle
from promote_cli.verify.operations import OpsReport, verify_ops

VERIFIED, MISMATCH = "verified", "mismatch"
NOT_INSTALLED, NO_FRAMEWORK, NO_POLICY, OPTIONS_DIFFER = (
    "not-installed",
    "no-framework",
    "no-policy",
    "options-differ",
)

# How often the progress callback hears about it: often enough to move, rarely enough to be free.
_PROGRESS_EVERY = 256

Progress = Callable[[int, int], None]  # (cells done, cells in total)


@dataclass(frozen=True)
class Mismatch:
    options: Mapping[str, Any]
    a: Operand
    b: Operand
    promote: str | None  # the policy's result; None when it refuses
    framework: str | None  # the framework's result; None when it raises
    framework_error: str = ""  # what the framework said when it raised


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
    ops: OpsReport | None = None  # the operations, when asked for


def names() -> tuple[str, ...]:
    """Every policy verify knows of: the registry's, then oracles still waiting for a policy."""
    from promote_cli.verify import ORACLES

    registered = policies.names()
    return (*registered, *(n for n in ORACLES if n not in registered))


def option_values(opt: Option) -> tuple[Any, ...]:
    """The values verify tries for one option, the default first: both booleans, every choice,
    and for a dtype option the widest type of each kind it accepts (the rules that read such an
    option pass the type through, so one of each kind shows whether the result is honoured)."""
    if opt.kind == "bool":
        return (opt.default, not opt.default)
    if opt.kind == "choice":
        return (opt.default, *(c for c in opt.choices if c != opt.default))
    widest: dict[str, str] = {}
    for name in opt.choices:
        kind, bits = dtype(name).kind, dtype(name).bits or 0
        if kind not in widest or bits > (dtype(widest[kind]).bits or 0):
            widest[kind] = name
    return tuple(dict.fromkeys((opt.default, *widest.values())))


def settings(policy: Policy, pinned: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every option combination, with ``pinned`` (already parsed) options held fixed."""
    pinned = pinned or {}
    axes = [(pinned[o.name],) if o.name in pinned else option_values(o) for o in policy.options]
    return [
        {o.name: v for o, v in zip(policy.options, combo, strict=True)}
        for combo in itertools.product(*axes)
    ]


def parse_pinned(policy: Policy, given: Mapping[str, str]) -> dict[str, Any]:
    """The ``-O`` values that belong to ``policy``, parsed in its notation."""
    return {
        o.name: o.parse(given[o.name], policy.notation) for o in policy.options if o.name in given
    }


def verify(
    policy: Policy,
    pinned: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    *,
    load_oracle: Callable[[str], Oracle | None] = oracle,
    operations: bool = False,
) -> Report:
    """Compare ``policy`` with its framework over every cell; ``pinned`` holds option values
    (parsed, see ``parse_pinned``) held fixed. With ``operations`` every operation of the
    policy is also called (``verify.operations``). ``load_oracle`` is replaceable for tests."""
    name = policy.name
    orc = load_oracle(name)
    if orc is None:
        return Report(name, NO_FRAMEWORK, note="no installable framework, nothing to verify")
    report = Report(name, NOT_INSTALLED, framework=orc.FRAMEWORK)
    declared, known = {o.name for o in policy.options}, set(orc.OPTIONS)
    if declared != known:
        report.status = OPTIONS_DIFFER
        report.note = (
            f"the policy's options ({', '.join(sorted(declared)) or 'none'}) are not the ones"
            f" the oracle sets ({', '.join(sorted(known)) or 'none'})"
        )
        return report
    started = time.perf_counter()
    try:
        handle = orc.load()
    except ImportError as exc:
        why = str(exc) or f"{orc.FRAMEWORK} cannot be imported"
        report.note = f"{why}; to install it: {install_hint(orc)}"
        return report
    report.import_seconds = time.perf_counter() - started
    report.version = orc.version(handle)

    started = time.perf_counter()
    ops = policy.operands()
    combos = settings(policy, pinned)
    total = len(combos) * len(ops) ** 2
    done = 0
    if progress:
        progress(0, total)
    for opts in combos:
        with orc.answering(handle, opts) as answer:
            for a, b in itertools.product(ops, ops):
                mine = policy.promote(a, b, opts).result
                try:
                    theirs, error = answer(a, b), ""
                except Refused as exc:
                    theirs, error = None, str(exc)
                if mine != theirs:
                    report.mismatches.append(Mismatch(opts, a, b, mine, theirs, error))
                done += 1
                if progress and done % _PROGRESS_EVERY == 0:
                    progress(done, total)
    if progress:
        progress(done, total)
    report.cells, report.settings = done, len(combos)
    report.seconds = time.perf_counter() - started
    if operations:
        report.ops = verify_ops(policy, orc, handle, combos)
    wrong = report.mismatches or (report.ops is not None and report.ops.mismatches)
    report.status = MISMATCH if wrong else VERIFIED
    return report


def failed(report: Report, require: bool) -> bool:
    """Whether this report makes the run fail: a mismatch, an oracle out of step with its
    policy, or (with ``require``) a framework that is not installed."""
    if report.status in (MISMATCH, OPTIONS_DIFFER):
        return True
    return require and report.status == NOT_INSTALLED


def selected(requested: Sequence[str]) -> list[str]:
    """The policies to verify: those named (each checked), or every one verify knows."""
    if not requested:
        return list(names())
    known = names()
    for name in requested:
        if name not in known:
            policies.get(name)  # raises the registry's usage error, with its suggestion
    return list(dict.fromkeys(requested))


def waiting(name: str) -> Report:
    """The report for an oracle whose policy promote does not have yet."""
    return Report(name, NO_POLICY, note=f"promote has no {name!r} policy yet")
