"""The verify driver: every option setting x every operand pair of a policy, asked of the policy
and of the framework (through its oracle), compared cell by cell; then, where the oracle can
answer them, random triples (both n-ary questions), NumPy's spellings and Python scalar values.

The cells are the policy's whole answer space, not its default table: every type of its
universe under each option setting (an option can add types: NumPy's ``ml_dtypes``) in every
operand category the policy declares (``D``, ``S`` when 0-d tensors matter,
and the Python scalars ``P(bool)``, ``int*``, ``float*``, ``complex*`` when they do), in both
orders, under every option setting. Two refusals agree; a refusal and a result do not.

Triples are drawn from the same operands with a fixed seed (``SEED``), ``TRIPLES`` per policy
shared among its option settings (every triple when there are fewer), and each is asked both
questions: the framework's n-ary ``result_type`` and the chain ``((a + b) + c)``. Values are
every array type of the policy with each of ``VALUES`` (both orders), asked as the chain
(the operation, which is what a value asks). When asked, every operation of the policy's
``promote_cli.ops`` vocabulary is called too (``verify.operations``), reported apart.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from promote_cli import frameworks
from promote_cli.engine import Policy
from promote_cli.errors import PromotionError, UsageError
from promote_cli.notations import read_dtype
from promote_cli.operands import DIMENSIONED, Operand, valued
from promote_cli.ops import Operations
from promote_cli.options import Option
from promote_cli.verify import Oracle, Refused, Unobservable, install_hint
from promote_cli.verify.operations import OpsReport, verify_ops

VERIFIED, MISMATCH = "verified", "mismatch"
NOT_INSTALLED, NO_FRAMEWORK, OPTIONS_DIFFER = "not-installed", "no-framework", "options-differ"

# How often the progress callback hears about it: often enough to move, rarely enough to be free.
_PROGRESS_EVERY = 256

# (done, total, phase): each phase (pairs, triples, values, spellings, operations) counts from
# 0 to its own total, so a bar shows how far the run is in every phase, not only the pairs.
Progress = Callable[[int, int, str], None]

SEED = 10
TRIPLES = 20_000  # per policy, shared among its option settings
# Python scalar values that fit some types and not others, at every boundary the frameworks
# check: 8-, 32- and 64-bit, signed and unsigned, and floats that overflow float16/32.
VALUES = (
    *(300, -1, 127, 128, -128, -129, 255, 256, 2**31, -(2**31) - 1, 2**32),
    *(2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1),
    *(65504.0, 70000.0, 1e39, 1e300, float("inf"), 1e300j, True, False),
)
PAIR, RESULT_TYPE, CHAIN, SPELLING, VALUE = "pair", "result_type", "chain", "spelling", "value"


@dataclass(frozen=True)
class Mismatch:
    options: Mapping[str, Any]
    a: Operand
    b: Operand
    promote: str | None  # the policy's result; None when it refuses
    framework: str | None  # the framework's result; None when it raises
    framework_error: str = ""  # what the framework said when it raised
    question: str = PAIR  # pair, result_type, chain, value; spelling (a holds the text)
    more: tuple[Operand, ...] = ()  # the operands after a and b

    @property
    def operands(self) -> tuple[Operand, ...]:
        return (self.a, self.b, *self.more)


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
    spellings: int = 0
    values: int = 0
    ops: OpsReport | None = None  # the operations, when asked for


def oracle(policy: str) -> Oracle | None:
    """The oracle of the framework ``policy`` names (``frameworks/<name>/oracle.py``), or None
    when no framework can prove it: its entry says why, or promote registers no such framework
    (a policy file)."""
    try:
        return frameworks.oracle(policy)  # type: ignore[no-any-return]
    except UsageError:
        return None


def declared_operations(policy: Policy) -> Operations | PromotionError:
    """The operations ``policy`` declares, or the refusal that says why it declares none."""
    try:
        return frameworks.operations(policy)
    except PromotionError as exc:
        return exc


def names() -> tuple[str, ...]:
    """Every policy verify knows of: the registry's."""
    return frameworks.names()


def option_values(opt: Option) -> tuple[Any, ...]:
    """The values verify tries for one option, the default first: both booleans, every choice,
    every dtype a dtype option accepts (OpenVINO returns each target as it is)."""
    if opt.kind == "bool":
        return (opt.default, not opt.default)
    return (opt.default, *(c for c in opt.choices if c != opt.default))


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
    nota = frameworks.notation_of(policy)
    return {o.name: o.parse(given[o.name], nota) for o in policy.options if o.name in given}


def verify(
    policy: Policy,
    pinned: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    *,
    load_oracle: Callable[[str], Oracle | None] | None = None,
    operations: bool = False,
) -> Report:
    """Compare ``policy`` with its framework over every cell; ``pinned`` holds option values
    (parsed, see ``parse_pinned``) held fixed. With ``operations`` every operation of the
    policy is also called (``verify.operations``). ``load_oracle`` is replaceable for tests."""
    name = policy.name
    orc = (load_oracle or oracle)(name)
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
    combos = settings(policy, pinned)
    total = sum(len(policy.operands(opts)) ** 2 for opts in combos)
    done = 0
    if progress:
        progress(0, total, "pairs")
    for opts in combos:
        ops = policy.operands(opts)
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
                    progress(done, total, "pairs")
    if progress:
        progress(done, total, "pairs")
    report.cells, report.settings = done, len(combos)
    many = getattr(orc, "answering_many", None)
    if many is not None:
        _beyond_pairs(policy, orc, handle, combos, report, progress)
    report.seconds = time.perf_counter() - started
    if operations:
        report.ops = verify_ops(declared_operations(policy), orc, handle, combos, progress)
    wrong = report.mismatches or (report.ops is not None and report.ops.mismatches)
    report.status = MISMATCH if wrong else VERIFIED
    return report


def triples(
    policy: Policy, settings_count: int, opts: Mapping[str, Any] | None = None
) -> list[tuple[Operand, Operand, Operand]]:
    """The triples verify asks under the option setting ``opts``: every triple of the policy's
    operands when they are few, else ``TRIPLES / settings_count`` drawn with ``SEED``."""
    ops = policy.operands(opts)
    budget = max(1, TRIPLES // settings_count)
    if len(ops) ** 3 <= budget:
        return list(itertools.product(ops, ops, ops))
    rng = random.Random(SEED)
    return [(rng.choice(ops), rng.choice(ops), rng.choice(ops)) for _ in range(budget)]


def value_cells(
    policy: Policy, opts: Mapping[str, Any] | None = None
) -> list[tuple[Operand, Operand]]:
    """Every array type of the policy under ``opts`` with each of ``VALUES``, in both orders
    (none when the policy has no Python scalars)."""
    if "P" not in policy.categories:
        return []
    arrays = [op for op in policy.operands(opts) if op.category == DIMENSIONED]
    scalars = [valued(v) for v in VALUES]
    return [pair for a in arrays for s in scalars for pair in ((a, s), (s, a))]


def _ask(fn: Callable[..., str], *args: Any) -> tuple[str | None, str]:
    try:
        return fn(*args), ""
    except Refused as exc:
        return None, str(exc)


def _counting(progress: Progress | None, phase: str, total: int) -> Callable[[], None]:
    """A step of ``phase`` done: tells ``progress`` at the first step (the phase begins), now
    and then, and at the last. A phase with no steps is never heard of."""
    done = 0

    def step() -> None:
        nonlocal done
        if progress and done == 0:
            progress(0, total, phase)
        done += 1
        if progress and (done % _PROGRESS_EVERY == 0 or done == total):
            progress(done, total, phase)

    return step


def _beyond_pairs(
    policy: Policy,
    orc: Any,
    handle: Any,
    combos: list[dict[str, Any]],
    report: Report,
    progress: Progress | None = None,
) -> None:
    """Triples (both questions) and values under every setting, then the spellings."""
    questions = ((RESULT_TYPE, policy.result_type), (CHAIN, policy.chain))
    asked = [
        (opts, triples(policy, len(combos), opts), value_cells(policy, opts)) for opts in combos
    ]
    triple_done = _counting(progress, "triples", sum(len(t) for _, t, _ in asked))
    value_done = _counting(progress, "values", sum(len(v) for _, _, v in asked))
    for opts, three, values in asked:
        with orc.answering_many(handle, opts) as many:
            theirs_for = {RESULT_TYPE: many.result_type, CHAIN: many.chain}
            for ops in three:
                triple_done()
                for question, mine_for in questions:
                    mine = mine_for(ops, opts).result
                    try:
                        theirs, error = _ask(theirs_for[question], ops)
                    except Unobservable:
                        report.skipped += 1
                        continue
                    if mine != theirs:
                        report.mismatches.append(
                            Mismatch(opts, ops[0], ops[1], mine, theirs, error, question, ops[2:])
                        )
                report.triples += 1
            for pair in values:
                value_done()
                mine = policy.chain(pair, opts).result
                try:
                    theirs, error = _ask(many.chain, pair)
                except Unobservable:
                    report.skipped += 1
                    continue
                if mine != theirs:
                    report.mismatches.append(Mismatch(opts, *pair, mine, theirs, error, VALUE))
                report.values += 1
    spelled = getattr(orc, "spelling", None)
    spellings = getattr(orc, "SPELLINGS", ())
    spelling_done = _counting(progress, "spellings", len(spellings))
    for text in spellings:
        spelling_done()
        try:
            mine = read_dtype(text, frameworks.notation_of(policy))
        except UsageError:
            mine = None
        theirs, error = _ask(spelled, handle, text)
        if mine != theirs and not (theirs is None and mine not in policy.universe):
            report.mismatches.append(
                Mismatch({}, Operand(text), Operand(text), mine, theirs, error, SPELLING)
            )
        report.spellings += 1


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
            frameworks.get(name)  # raises the registry's usage error, with its suggestion
    return list(dict.fromkeys(requested))
