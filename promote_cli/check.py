"""``promote check``: what a promotion system does as a whole.

Over a set of operands (a policy's types as arrays, or with ``categories`` every operand it has:
0-d arrays and Python scalars too) it reports whether the pair answers are

- **commutative**: ``a x b`` and ``b x a`` give the same type;
- **associative**: ``(a x b) x c`` and ``a x (b x c)`` give the same type, for every ordered
  triple; a refusal is a value that propagates (a refused pair refuses whatever it meets);
- **idempotent**: ``a x a`` is ``a``;
- **total**: no pair is refused;
- a **lattice**: in the order the table itself defines (``a <= c`` when ``a x c`` is ``c``),
  every pair's answer is its unique least upper bound; a refused pair must have no common
  upper bound at all (those pairs are listed: the lattice is partial there);
- **monotone**, where the policy declares an order (a lattice policy's lattice): a higher
  operand never gives a lower result.

and which cells lose values (``promote_cli.lossy``). Each property a policy declares
(``engine.SYMMETRIC`` ...) obliges the table to one or more of these; the report fails when a
declared one does not hold.

Speed: the pair table is asked of the policy once, over the operands and every result they
lead to (a weak result, a type outside the set), and kept as integer-indexed lists, so a
triple is two list lookups.
"""

from __future__ import annotations

from collections.abc import Sequence

from promote_cli import frameworks
from promote_cli.api import Request, request
from promote_cli.engine import (
    IDEMPOTENT,
    LATTICE,
    SYMMETRIC,
    TOTAL,
    Cell,
    Outcome,
    Policy,
    as_operand,
)
from promote_cli.lattice import declared_lattice
from promote_cli.lossy import Loss, loss
from promote_cli.notations import Notation
from promote_cli.operands import DIMENSIONED, PYTHON, Operand, label
from promote_cli.record import Record

COMMUTATIVE, ASSOCIATIVE, IDEMPOTENT_, TOTAL_, LATTICE_, MONOTONE = (
    "commutative",
    "associative",
    "idempotent",
    "total",
    "lattice",
    "monotone",
)
PROPERTIES = (COMMUTATIVE, ASSOCIATIVE, IDEMPOTENT_, TOTAL_, LATTICE_, MONOTONE)

# What each property a policy declares obliges its table to. A lattice's join is associative
# and monotone in its order.
OBLIGES = {
    SYMMETRIC: (COMMUTATIVE,),
    IDEMPOTENT: (IDEMPOTENT_,),
    TOTAL: (TOTAL_,),
    LATTICE: (LATTICE_, ASSOCIATIVE, MONOTONE),
}


class Counterexample(Record):
    """Operands for which a property fails, and the results that show it."""

    prop: str
    operands: tuple[Operand, ...]
    results: tuple[str | None, ...]
    bounds: tuple[str, ...] = ()  # lattice: the minimal upper bounds there are
    # The answer behind each result: the last pair's outcome, or the refusal that ended it.
    outcomes: tuple[Outcome, ...] = ()

    def text(self, nota: Notation) -> str:
        """``(u2 x i1) x f4 = f8 but u2 x (i1 x f4) = f4``, labels in ``nota``."""
        ops = [label(op, nota, plain=True) for op in self.operands]
        res = ["refused" if r is None else nota.label(r) for r in self.results]

        def eq(r: str) -> str:
            return "is refused" if r == "refused" else f"= {r}"

        if self.prop == ASSOCIATIVE:
            a, b, c = ops
            return f"({a} x {b}) x {c} {eq(res[0])} but {a} x ({b} x {c}) {eq(res[1])}"
        if self.prop == COMMUTATIVE:
            a, b = ops
            return f"{a} x {b} {eq(res[0])} but {b} x {a} {eq(res[1])}"
        if self.prop == IDEMPOTENT_:
            return f"{ops[0]} x {ops[0]} {eq(res[0])}"
        if self.prop == TOTAL_:
            return f"{ops[0]} x {ops[1]} is refused"
        if self.prop == MONOTONE:
            a, higher, b = ops
            return (
                f"{a} is below {higher} but {a} x {b} {eq(res[0])} is not below"
                f" {higher} x {b} {eq(res[1])}"
            )
        a, b = ops
        bounds = ", ".join(nota.label(t) for t in self.bounds)
        if not self.bounds:
            return f"{a} x {b} {eq(res[0])} but {a} and {b} have no common upper bound"
        if len(self.bounds) > 1:
            return f"{a} x {b} {eq(res[0])} but {a} and {b} have no least upper bound ({bounds})"
        return f"{a} x {b} {eq(res[0])} but their least upper bound is {bounds}"


class Property(Record):
    name: str
    holds: bool | None  # None: the question does not apply (no declared order)
    failures: int  # counterexamples
    of: int  # cases checked: pairs or triples
    examples: tuple[Counterexample, ...]
    declared: bool  # the policy declares it (through ``OBLIGES``)
    note: str = ""


class LossyCell(Record):
    a: Operand
    b: Operand
    result: str
    losses: tuple[tuple[str, Loss], ...]  # ("a" or "b", the first value that input loses)


class Report(Record):
    request: Request
    operands: tuple[Operand, ...]
    properties: dict[str, Property]
    unbounded: tuple[tuple[Operand, Operand], ...]  # refused pairs with no common upper bound
    lossy: tuple[LossyCell, ...]
    cells: int  # the cells the lossy count is out of

    @property
    def failed(self) -> list[str]:
        """The declared properties that do not hold."""
        return [p.name for p in self.properties.values() if p.declared and p.holds is False]


class PairTable:
    """The policy's answer for every pair of ``operands`` and of every result they lead to,
    as indices: ``cells[i][j]`` is the index of the operand ``i x j`` becomes, and the refusal
    is one more index, ``bottom``, whose row and column are all ``bottom``."""

    def __init__(self, cell: Cell, operands: Sequence[Operand]) -> None:
        ops = list(dict.fromkeys(operands))
        index = {op: i for i, op in enumerate(ops)}
        found: dict[tuple[int, int], int] = {}
        self.answers: dict[tuple[int, int], Outcome] = {}
        done = 0
        while done < len(ops):  # until the results lead to no new operand
            n = len(ops)
            for i in range(n):
                for j in range(done if i < done else 0, n):
                    out = cell(ops[i], ops[j])
                    self.answers[i, j] = out
                    if out.refused:
                        found[i, j] = -1
                        continue
                    op = as_operand(out.result, (ops[i], ops[j]))  # type: ignore[arg-type]
                    if op not in index:
                        index[op] = len(ops)
                        ops.append(op)
                    found[i, j] = index[op]
            done = n
        self.size = len(operands)
        self.bottom = bottom = len(ops)
        self.operands = tuple(ops)
        self.names: tuple[str | None, ...] = (*(op.dtype for op in ops), None)
        self.cells = [
            [bottom if found[i, j] < 0 else found[i, j] for j in range(bottom)] + [bottom]
            for i in range(bottom)
        ]
        self.cells.append([bottom] * (bottom + 1))

    def result(self, i: int, j: int) -> str | None:
        return self.names[self.cells[i][j]]

    def answer(self, i: int, j: int) -> Outcome:
        """The policy's outcome for operands ``i`` x ``j``."""
        return self.answers[i, j]

    def nested(self, i: int, j: int, k: int) -> tuple[Outcome, Outcome]:
        """What decided ``(i x j) x k`` and ``i x (j x k)``: the refusal of an inner pair, or the
        outer pair's outcome."""
        ij, jk = self.cells[i][j], self.cells[j][k]
        left = self.answers[i, j] if ij == self.bottom else self.answers[ij, k]
        right = self.answers[j, k] if jk == self.bottom else self.answers[i, jk]
        return left, right


class _Found:
    """Counterexamples as they are found: all counted, the first ``keep`` kept."""

    def __init__(self, keep: int | None) -> None:
        self.count, self.keep = 0, keep
        self.examples: list[Counterexample] = []

    @property
    def wanted(self) -> bool:
        """Whether the next counterexample will be kept (worth describing in full)."""
        return self.keep is None or len(self.examples) < self.keep

    def add(self, example: Counterexample) -> None:
        if self.wanted:
            self.examples.append(example)
        self.count += 1


def check(req: Request, operands: Sequence[Operand], *, limit: int = 5) -> Report:
    """Every property of ``req``'s policy (under its options) over ``operands``; at most
    ``limit`` counterexamples are kept per property (0: all)."""
    policy = req.policy
    table = PairTable(req.cell, operands)
    declared = {p for prop in policy.properties for p in OBLIGES.get(prop, ())}
    keep = limit if limit > 0 else None
    n = table.size
    scalars = sum(1 for op in table.operands[:n] if op.category == PYTHON)

    def prop(name: str, found: _Found, of: int, holds: bool | None = None, note: str = ""):
        holds = (found.count == 0) if holds is None else holds
        return Property(name, holds, found.count, of, tuple(found.examples), name in declared, note)

    unbounded: list[tuple[Operand, Operand]] = []
    lattice = _lattice(table, _Found(keep), unbounded)
    order = _order(req)
    monotone = _monotone(table, order, _Found(keep)) if order is not None else None
    properties = {
        COMMUTATIVE: prop(COMMUTATIVE, _commutative(table, _Found(keep)), n * (n - 1) // 2),
        ASSOCIATIVE: prop(ASSOCIATIVE, _associative(table, _Found(keep)), n**3),
        IDEMPOTENT_: prop(
            IDEMPOTENT_,
            _idempotent(table, _Found(keep)),
            n - scalars,
            note="Python scalars are not asked: two meet in Python" if scalars else "",
        ),
        TOTAL_: prop(TOTAL_, _total(table, _Found(keep)), n * n),
        LATTICE_: prop(
            LATTICE_,
            lattice,
            n * (n + 1) // 2,
            note=f"{len(unbounded)} refused pairs have no common upper bound" if unbounded else "",
        ),
        MONOTONE: prop(MONOTONE, monotone[0], monotone[1])
        if monotone is not None
        else Property(
            MONOTONE, None, 0, 0, (), MONOTONE in declared, f"{policy.name} declares no order"
        ),
    }
    cells, lossy = _lossy(table)
    return Report(req, table.operands[:n], properties, tuple(unbounded), lossy, cells)


def _commutative(t: PairTable, found: _Found) -> _Found:
    ops = t.operands
    for i in range(t.size):
        for j in range(i + 1, t.size):
            ab, ba = t.result(i, j), t.result(j, i)
            if ab != ba:
                outcomes = (t.answer(i, j), t.answer(j, i))
                found.add(Counterexample(COMMUTATIVE, (ops[i], ops[j]), (ab, ba), (), outcomes))
    return found


def _associative(t: PairTable, found: _Found) -> _Found:
    """Every ordered triple: ``(a x b) x c`` is row ``a x b`` of the table, ``a x (b x c)``
    is row ``a`` looked up at each entry of row ``b``; equal rows (the common case) are
    compared at once, as lists of indices."""
    n, cells, names, ops = t.size, t.cells, t.names, t.operands
    for i in range(n):
        row_a = cells[i]
        for j in range(n):
            left = cells[row_a[j]][:n]
            right = [row_a[x] for x in cells[j][:n]]
            if left == right:
                continue
            for k in range(n):
                lhs, rhs = names[left[k]], names[right[k]]
                if lhs != rhs:
                    triple = (ops[i], ops[j], ops[k])
                    outcomes = t.nested(i, j, k) if found.wanted else ()
                    found.add(Counterexample(ASSOCIATIVE, triple, (lhs, rhs), (), outcomes))
    return found


def _idempotent(t: PairTable, found: _Found) -> _Found:
    """``a x a`` is ``a`` for each array operand. Two Python scalars meet in Python, not in the
    framework (``1 + 2`` is 3 before any array sees it), so they are not asked."""
    for i in range(t.size):
        if t.operands[i].category == PYTHON:
            continue
        aa = t.result(i, i)
        if aa != t.names[i]:
            found.add(Counterexample(IDEMPOTENT_, (t.operands[i],), (aa,), (), (t.answer(i, i),)))
    return found


def _total(t: PairTable, found: _Found) -> _Found:
    for i in range(t.size):
        for j in range(t.size):
            if t.cells[i][j] == t.bottom:
                pair, outcomes = (t.operands[i], t.operands[j]), (t.answer(i, j),)
                found.add(Counterexample(TOTAL_, pair, (None,), (), outcomes))
    return found


def _lattice(t: PairTable, found: _Found, unbounded: list[tuple[Operand, Operand]]) -> _Found:
    """The order the table defines, over every operand the table reaches: ``a <= c`` when
    ``a x c`` is ``c``. Each unordered pair's answer (both orders) must be its least upper
    bound, kept as bit sets: ``up[i]`` holds every ``c`` above ``i``."""
    size, names, ops = t.bottom, t.names, t.operands
    up = []
    for i in range(size):
        row = t.cells[i]
        up.append(sum(1 << c for c in range(size) if names[row[c]] == names[c]))
    for i in range(t.size):
        for j in range(i, t.size):
            common = up[i] & up[j]
            for a, b in ((i, j), (j, i)) if i != j else ((i, j),):
                r = t.cells[a][b]
                if r == t.bottom:
                    if not common:
                        if a == i:
                            unbounded.append((ops[i], ops[j]))
                        continue
                elif common >> r & 1 and not common & ~up[r]:
                    continue
                least = _minimal(common, up, names) if found.wanted else ()
                outcomes = (t.answer(a, b),)
                found.add(Counterexample(LATTICE_, (ops[a], ops[b]), (names[r],), least, outcomes))
                break
    return found


def _minimal(common: int, up: list[int], names: Sequence[str | None]) -> tuple[str, ...]:
    """The minimal elements of the bit set ``common`` (by type; categories aside)."""
    members = [c for c in range(len(up)) if common >> c & 1]
    out = []
    for c in members:
        below = [d for d in members if up[d] >> c & 1 and names[d] != names[c]]
        if not below:
            out.append(names[c])
    return tuple(dict.fromkeys(out))  # type: ignore[arg-type]


def _order(req: Request) -> dict[str, frozenset[str]] | None:
    """The order the policy declares: a lattice policy's upper bounds, else None."""
    lat = declared_lattice(req.policy, req.options)
    return None if lat is None else lat.upper


def _monotone(t: PairTable, upper: dict[str, frozenset[str]], found: _Found) -> tuple[_Found, int]:
    """For ``a`` strictly below ``a2`` and every ``b``: ``a x b`` is below ``a2 x b`` (a
    refusal sits above everything: a higher operand may refuse, not the lower one alone)."""
    names, ops, cases = t.names, t.operands, 0
    nodes = [(i, a) for i in range(t.size) if (a := names[i]) is not None and a in upper]
    for i, a in nodes:
        for i2, a2 in nodes:
            if a2 == a or a2 not in upper[a]:
                continue
            for k in range(t.size):
                cases += 1
                low, high = t.result(i, k), t.result(i2, k)
                if high is None or (low is not None and low in upper and high in upper[low]):
                    continue
                outcomes = (t.answer(i, k), t.answer(i2, k))
                found.add(
                    Counterexample(MONOTONE, (ops[i], ops[i2], ops[k]), (low, high), (), outcomes)
                )
    return found, cases


def _lossy(t: PairTable) -> tuple[int, tuple[LossyCell, ...]]:
    """Each cell whose result cannot hold every value of an input. A cell and its mirror
    image are one entry when they agree. Python scalars (whose values are what the program
    wrote) and weak results are not judged."""
    out, ops, cells = [], t.operands, 0
    for i in range(t.size):
        for j in range(t.size):
            r = t.result(i, j)
            if j < i and r == t.result(j, i):
                continue
            cells += 1
            if r is None:
                continue
            losses = tuple(
                (side, lost)
                for side, op in (("a", ops[i]), ("b", ops[j]))
                if op.category != PYTHON and (lost := loss(op.dtype, r)) is not None
            )
            if losses:
                out.append(LossyCell(ops[i], ops[j], r, losses))
    return cells, tuple(out)


def table_operands(policy: Policy, categories: bool) -> tuple[Operand, ...]:
    """The operands ``promote check`` asks about: every type of the policy as an array, or
    with ``categories`` every operand it has (0-d arrays, Python scalars)."""
    if categories:
        return policy.operands()
    return tuple(op for op in policy.operands() if op.category == DIMENSIONED)


SUMMARY_START = "<!-- promote check --summary: start -->"
SUMMARY_END = "<!-- promote check --summary: end -->"


def summary() -> str:
    """Every built-in policy's report under its default options, as one Markdown table
    between markers (the docs site shows it, computed when it is built): a row for
    its types as arrays and, where it has more operands, one with ``--categories``."""
    head = ["policy", "operands", *PROPERTIES, "lossy cells"]
    lines = [SUMMARY_START, "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for name in frameworks.names():
        req = request(name)
        arrays = table_operands(req.policy, False)
        every = table_operands(req.policy, True)
        for flag, ops in (("", arrays), (" --categories", every)):
            if flag and ops == arrays:
                continue
            report = check(req, ops, limit=0)
            cells = [f"`{name}{flag}`", str(len(ops))]
            cells += [_verdict(report.properties[p]) for p in PROPERTIES]
            cells.append(f"{len(report.lossy):,} of {report.cells:,}")
            lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "A count is the counterexamples of that many cases (pairs, triples); **bold**: the"
        " policy declares the property; n/a: no declared order.",
        SUMMARY_END,
    ]
    return "\n".join(lines) + "\n"


def _verdict(p: Property) -> str:
    if p.holds is None:
        return "n/a"
    text = "yes" if p.holds else f"no: {p.failures:,} of {p.of:,}"
    return f"**{text}**" if p.declared else text
