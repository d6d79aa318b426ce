"""Drift: whether an installed framework still answers what promote measured.

promote's rules hold for the version each framework was measured on (its checked-in
``measured/*.json``, ``promote measure``). ``drift`` takes the installed framework's version
(its oracle's ``version``, NumPy's with ml_dtypes') and compares it with the versions those
files name. When one set of files names the installed version, the framework is *as measured*,
and nothing else is asked. Otherwise every question of the entry's own files is asked again,
the same questions in the same order (``measured.parse`` rebuilds them from the files, not from
today's enumeration), and each answer is compared with the recorded one as ``promote measure``
would write it (``measured.record``: the dtype, ``rebound``, refused, a gap and the type it
named, unobservable; messages are not kept, so not compared).

The cells that changed are grouped by cause: where they are (the pairs, the triples under
``result_type`` or the chain, the values, an operation, the spellings, the programs) and the
rule of promote that answers them (the ``rule`` of each cell's outcome, with an operation's
deciding step): what would have to change to model the new version. A group tallies its
changes, what was recorded against what the framework answers now (for a program, at its
first node that changed).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from promote_cli.record import Record
from promote_cli.verify.cases import Batch
from promote_cli.verify.measured import FILES, Measured, read, record, text
from promote_cli.verify.offline import answer_text, describe
from promote_cli.verify.protocol import (
    CHAIN,
    EXPRESSION,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    SPELLING,
    VALUE,
    Cell,
    Nodes,
    Oracle,
    Question,
    asking,
    opened,
)

if TYPE_CHECKING:
    from promote_cli.engine import Policy
    from promote_cli.framework import Framework
    from promote_cli.rules import Operations

# The outcomes, one per framework.
AS_MEASURED = "as-measured"  # the installed version is a measured one
HOLDS = "holds"  # another version, and every measured cell answers as recorded
DRIFTED = "drifted"  # another version, and some cells answer otherwise
NOT_INSTALLED = "not-installed"
NO_FRAMEWORK = "no-framework"  # nothing installable to ask (ascend), or nothing measured
FRAMEWORK_FAILED = "framework-failed"  # its process was killed by a signal, or hung

EXAMPLES = 3  # cells shown with each group

# Where a cell is, by its kind of question (an operation's is its name).
_PLACES = {
    PAIR: "pairs",
    RESULT_TYPE: "result_type",
    CHAIN: "chain",
    VALUE: "values",
    SPELLING: "spellings",
    EXPRESSION: "programs",
}


class Change(Record):
    """One measured cell the framework now answers otherwise."""

    options: Mapping[str, Any]
    question: Question
    was: str  # what was recorded, as a reader would say it (``int64``, ``refused``)
    now: str  # what the framework answers now
    rule: str  # the promote rule that answers the cell ("" for a program)
    # Both as a measurement file records them (``measured.record``; a program's at its first
    # node that changed, None for a node with no answer).
    recorded: str | list[str] | None = None
    answered: str | list[str] | None = None
    node: int = -1  # a program's: the index of its first node that changed

    def text(self) -> str:
        opts = f" under {_options_text(self.options)}" if self.options else ""
        at = f" at node {self.node}" if self.node >= 0 else ""
        return f"{describe(self.question)}{opts}: measured {self.was}, now {self.now}{at}"


class Group(Record):
    """The changed cells of one cause: one place, and the promote rule that answers them."""

    place: str  # ``pairs``, ``values``, an operation's name (``sum``), ``programs`` ...
    rule: str  # promote's rule that answers these cells ("" for the programs)
    changes: list[Change]

    def tally(self) -> list[tuple[Change, int]]:
        """Each change (what was recorded, what is answered now): its first cell and how
        many cells it is, the most frequent first."""
        firsts: dict[tuple[str, str], Change] = {}
        counted: dict[tuple[str, str], int] = {}
        for c in self.changes:
            firsts.setdefault((c.was, c.now), c)
            counted[c.was, c.now] = counted.get((c.was, c.now), 0) + 1
        return sorted(((firsts[k], n) for k, n in counted.items()), key=lambda x: -x[1])

    def examples(self, count: int = EXAMPLES) -> list[Change]:
        """A cell of each of the most frequent changes (then more of them, up to ``count``)."""
        order = [c for c, _ in self.tally()][:count]
        rest = (c for c in self.changes if c not in order)
        return order + list(itertools.islice(rest, max(0, count - len(order))))

    def text(self) -> str:
        return f"{self.place}, rule {self.rule}" if self.rule else self.place


@dataclass
class Drift:
    """One framework's drift."""

    policy: str
    status: str
    framework: str = ""  # the package asked (``torch``, ``tensorflow-cpu``)
    installed: str = ""  # its version, as its oracle says it
    measured: tuple[str, ...] = ()  # every version a set of its files names
    against: str = ""  # the measured version the cells were compared with
    cells: int = 0  # measured cells asked again
    groups: list[Group] = field(default_factory=list)
    note: str = ""
    python: str = ""  # the interpreter the oracle ran under (--python), "" for promote's own

    @property
    def changed(self) -> int:
        return sum(len(g.changes) for g in self.groups)


# --- the measured sets ---------------------------------------------------------------------


def sets(entry: Framework) -> list[tuple[str, dict[str, str]]]:
    """Each set of ``entry``'s measurement files that exists: the entry's own first (``""``),
    then each set measured apart (its directory), with the version each of its files names
    (read from its head alone: parsing the cells of a large set takes seconds)."""
    out = []
    for apart in ["", *(a.directory for a in entry.measured_apart)]:
        found = {f: text(entry, f, apart) for f in FILES}
        named = {f: json.loads(t)["version"] for f, t in found.items() if t is not None}
        if named:
            out.append((apart, named))
    return out


def files(entry: Framework, apart: str) -> dict[str, Measured]:
    """The measurement files of one set, parsed, by name (``FILES``' order)."""
    return {f: m for f in FILES if (m := read(entry, f, apart)) is not None}


def versions(named: Mapping[str, str]) -> tuple[str, ...]:
    """The versions a set's files name (one, unless a file was measured on another)."""
    return tuple(dict.fromkeys(named.values()))


def batches(files: Mapping[str, Measured]) -> list[tuple[Mapping[str, Any], Batch, list[Cell]]]:
    """The measured cells as the batches that ask them again, in the files' order: one per
    file, setting, kind of question and operation (a file's cells of one setting share their
    options object, ``measured.parse``), each with the recorded cells."""
    out: list[tuple[Mapping[str, Any], Batch, list[Cell]]] = []
    last: tuple[int, str, str, str] | None = None
    for m in files.values():
        for opts, q, cell in m.cells:
            key = (id(opts), q.kind, q.operation, q.function)
            if key != last:
                out.append((opts, Batch(q.kind, [], q.operation), []))
                last = key
            out[-1][1].questions.append(q)
            out[-1][2].append(cell)
    return out


# --- asking --------------------------------------------------------------------------------


def drift(
    policy: Policy,
    entry: Framework,
    orc: Oracle,
    rules: Operations | None,
    progress: Callable[[int, int, str], None] | None = None,
    python: str | None = None,
) -> Drift:
    """``entry``'s framework, asked through ``orc``, against its measurements. ``rules``: the
    policy's operations (each group names the rules that answer its cells). ``ImportError``
    when the framework is not installed; ``FrameworkFailed`` when it crashed or hung."""
    from promote_cli.verify.driver import framework_name
    from promote_cli.verify.expressions import answered_by

    found = sets(entry)
    out = Drift(policy.name, NO_FRAMEWORK, framework_name(entry), python=python or "")
    if not found:
        out.note = f"nothing measured (promote measure {policy.name})"
        return out
    out.measured = tuple(dict.fromkeys(v for _, named in found for v in versions(named)))
    apart, named = found[0]  # the entry's own set: the version promote models
    smallest = read(entry, next(iter(named)), apart)  # pairs: parsed in a moment
    assert smallest is not None, "a file whose head was just read"
    first = smallest.cells[0]
    with opened(orc) as handle:
        # One question first: a worker oracle knows its version once a worker has started.
        answered_by(orc, handle, first[0], [first[1]])
        out.installed = orc.version(handle)
        if any(versions(named) == (out.installed,) for _, named in found):
            out.status, out.against = AS_MEASURED, out.installed
            return out
        out.against = " / ".join(versions(named))
        asked = batches(files(entry, apart))
        plan = [(opts, batch) for opts, batch, _ in asked]
        live = asking(orc, handle, plan, progress, answered_by)
        changes: list[Change] = []
        for (opts, batch, recorded), (_, _, now) in zip(asked, live, strict=True):
            out.cells += len(recorded)
            changes.extend(
                _change(policy, rules, opts, q, was, cell)
                for q, was, cell in zip(batch.questions, recorded, now, strict=True)
                if not _same(was, cell)
            )
    out.groups = grouped(changes)
    out.status = DRIFTED if changes else HOLDS
    return out


def _same(was: Cell, now: Cell) -> bool:
    """Whether two records are the one a measurement file writes."""
    return json.dumps(record(was)) == json.dumps(record(now))


def _change(
    policy: Policy,
    rules: Operations | None,
    opts: Mapping[str, Any],
    q: Question,
    was: Cell,
    now: Cell,
) -> Change:
    if isinstance(was, Nodes) and isinstance(now, Nodes):
        # A program by its first node that changed (nodes after one that raised are None).
        pairs = enumerate(itertools.zip_longest(was.cells, now.cells))
        i, (a, b) = next((x for x in pairs if not _nodes_same(*x[1])), (-1, (None, None)))
        return Change(opts, q, _node(a), _node(b), "", _record(a), _record(b), i)
    rule = _rule(policy, rules, opts, q)
    return Change(opts, q, _answer_text(was), _answer_text(now), rule, record(was), record(now))


def _nodes_same(a: Cell | None, b: Cell | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and _same(a, b))


def _node(cell: Cell | None) -> str:
    return "no answer" if cell is None else _answer_text(cell)


def _record(cell: Cell | None) -> str | list[str] | None:
    return None if cell is None else record(cell)


def _answer_text(cell: Cell) -> str:
    """A record as a reader would say it: ``answer_text``, with ``a op= b``'s rebinding."""
    from promote_cli.verify.protocol import Result

    if isinstance(cell, Result) and cell.rebound:
        return f"{cell.dtype} (rebound)"
    return answer_text(cell)


def _rule(policy: Policy, rules: Operations | None, opts: Mapping[str, Any], q: Question) -> str:
    """The promote rule that answers ``q`` (an operation's deciding step after it)."""
    from promote_cli.errors import PromoteError
    from promote_cli.verify.compare import policy_answer

    if q.kind == OPERATION and rules is None:
        return ""
    try:
        mine = policy_answer(policy, rules, opts, q)
    except (PromoteError, KeyError):  # a question the rules no longer know (a type removed)
        return ""
    return f"{mine.rule} ({mine.decided_by})" if mine.decided_by else mine.rule


def grouped(changes: Iterable[Change]) -> list[Group]:
    """The changes by cause (where they are, and promote's rule that answers them), the
    largest group first."""
    by: dict[tuple[str, str], list[Change]] = {}
    for c in changes:
        place = c.question.operation if c.question.kind == OPERATION else _PLACES[c.question.kind]
        by.setdefault((place, c.rule), []).append(c)
    groups = [Group(place, rule, found) for (place, rule), found in by.items()]
    return sorted(groups, key=lambda g: (-len(g.changes), g.place, g.rule))


def _options_text(opts: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={_value(v)}" for k, v in opts.items())


def _value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def summary(groups: Sequence[Group]) -> str:
    """``3 causes: sum 40, pairs 12, divide 2`` (the places the changes are in)."""
    places: dict[str, int] = {}
    for g in groups:
        places[g.place] = places.get(g.place, 0) + len(g.changes)
    return ", ".join(f"{p} {n:,}" for p, n in places.items())
