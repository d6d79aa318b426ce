"""The table side of operations: the operations a request asks about (``--op``), resolved once
(``Asked``), and a table whose rows are one-operand operations (``row_matrix``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.engine import Matrix, Outcome, Policy
from promote_cli.errors import UsageError
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.record import Record
from promote_cli.rules import Operations, operands_of
from promote_cli.vocabulary import FUNCTIONS, REDUCTION, UNARY, Operation, operation, takes_one
from promote_cli.walk import answer

ROW = "op"  # the category of a table row that names an operation (see ``row_matrix``)

# Group words ``--op`` takes for every one-operand operation of an arity, in vocabulary order.
GROUPS: Mapping[str, str] = {"unary": UNARY, "reductions": REDUCTION}


def named(spec: str, operands: int = 0) -> tuple[Operation, ...]:
    """The operations ``spec`` names: one name (``divide``; ``-`` with one of ``operands`` is
    unary minus), or a comma list of one-operand operations and group words (``sqrt,exp,sum``,
    ``unary``, ``unary,reductions``), each once, in the order given. A binary operation or
    ``where`` in a list is a usage error: a list is a table's rows, and a row is one
    operation applied to one array."""
    words = [w.strip() for w in spec.split(",")]
    if any(not w for w in words):
        raise UsageError(f"--op {spec!r}: an empty name in the list")
    if len(words) == 1 and words[0] not in GROUPS:
        return (operation(words[0], operands),)
    found: dict[str, Operation] = {}
    for word in words:
        if word in GROUPS:
            found.update((o.name, o) for o in FUNCTIONS.values() if o.arity == GROUPS[word])
            continue
        op = operation(word)
        if not takes_one(op):
            raise UsageError(
                f"--op {spec}: {word} takes two operands; a list of operations (one row each)"
                f" takes unary operations and reductions only: ask `--op {word}` on its own"
            )
        found.setdefault(op.name, op)
    return tuple(found.values())


def canonical_spec(spec: str) -> str:
    """``spec`` as the command line that regenerates a table spells it: the words as given,
    stripped, each once."""
    return ",".join(dict.fromkeys(w.strip() for w in spec.split(",")))


class Asked(Record):
    """The operations a request asks about (``--op``), resolved once: one operation, whose
    output is each answer, or several one-operand operations, one table row each."""

    spec: str  # as ``--op`` spells it, canonically (``sqrt,exp``; a group word as given)
    operations: tuple[Operation, ...]
    rules: Operations  # the policy's declarations

    @property
    def one(self) -> Operation | None:
        """The operation asked, when the request names exactly one (not a list or a group)."""
        if len(self.operations) == 1 and self.spec not in GROUPS:
            return self.operations[0]
        return None

    @property
    def rows(self) -> bool:
        """Whether a table's rows are operations (one-operand ones), not operands."""
        return self.one is None or takes_one(self.operations[0])

    def single(self) -> Operation:
        """The one operation asked; a list answers no single question (a usage error)."""
        if self.one is None:
            raise UsageError(
                f"--op {self.spec} names {len(self.operations)} operations, one row each of"
                " `promote table --op`; ask about one operation at a time"
            )
        return self.one

    def answer(
        self, operands: Sequence[Operand], opts: Mapping[str, Any], op: Operation | None = None
    ) -> tuple[Outcome, Outcome | None]:
        """The output of ``op`` (default: the one asked) and the promotion it started from."""
        return answer(self.rules, (op or self.single()).name, operands, opts)

    def cell(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """A table cell of the one operation: ``op(a)`` or ``op(a, b)``."""
        op = self.single()
        return self.answer((a,) if takes_one(op) else (a, b), opts, op)[0]

    def operands(self) -> tuple[Operand, ...]:
        """The operands a table of these operations asks about by default (0-d arrays where
        one of them tells them apart: ``Operations.zero_d``)."""
        found = operands_of(self.rules, self.operations[0])
        if any(self.rules.takes_zero_d(op) for op in self.operations):
            return found
        return tuple(x for x in found if x.category != ZERO_D)


def row_matrix(
    asked: Asked, cols: Sequence[Operand], opts: Mapping[str, Any], policy: Policy
) -> Matrix:
    """A table of one-operand operations: one row per operation (an ``Operand`` of category
    ``op`` named after it), one column per array operand of ``cols``, each cell the
    operation's output for an array of that type."""
    arrays = tuple(x for x in cols if x.category != PYTHON)
    cells = tuple(tuple(asked.answer((c,), opts, op)[0] for c in arrays) for op in asked.operations)
    heads = tuple(Operand(op.name, ROW) for op in asked.operations)
    return Matrix(policy, opts, heads, arrays, cells)
