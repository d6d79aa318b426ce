"""What is asked of a framework: the one enumeration ``promote verify``, ``promote measure`` and
the offline comparison with the measurements share.

Under every option setting (``settings``: each option's values, the default first):

- ``pairs``: every ordered pair of the policy's operands under that setting: each type of its
  universe (an option can add types: NumPy's ``ml_dtypes``) in each category it declares
  (``D``, ``S`` when 0-d arrays matter, the Python scalars ``P(bool)``, ``int*``, ``float*``,
  ``complex*`` when they do);
- ``triples``: drawn from the same operands with ``SEED``, ``TRIPLES`` per policy shared among
  its settings (every triple when there are fewer), each asked both n-ary questions: the
  framework's ``result_type`` and the chain ``((a + b) + c)``;
- ``values``: every array type with each of ``VALUES`` in both orders, asked as the chain (the
  operation, which is what a value asks), and with the valued 0-d arrays and NumPy scalars a
  policy names (``Policy.held_values``: NumPy's legacy promotion);
- ``operations``: every operation the policy declares a function for, on every case: each array
  alone for a unary operation or a reduction; every ordered pair for a binary one but two Python
  scalars (no array to call it on), 0-d arrays only for the operations that name them
  (``Operations.zero_d``); every pair of ``where``'s two values; and, for an oracle that
  passes values (``Asks.operation_values``), every binary operation and operator on each array
  type with each of ``VALUES`` in both orders;

- ``expressions``: for an oracle that runs programs (``Asks.expressions``) and a policy whose
  ``promote expr`` answers are checked, ``verify.expressions.PROGRAMS`` random programs
  (operators, calls, literals where the operations take values, in-place updates, depth up to
  4) and ``WHERE_PROGRAMS`` that call ``where`` with a condition of any type, each node
  compared (not under a setting measured apart on another version);

and once, the spellings an oracle asks its framework to read (NumPy's type codes).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, valued
from promote_cli.record import Record
from promote_cli.verify.protocol import (
    CHAIN,
    EXPRESSION,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    SPELLING,
    VALUE,
    Asks,
    Question,
)

if TYPE_CHECKING:
    from promote_cli.engine import Policy
    from promote_cli.options import Option
    from promote_cli.rules import Operations

SEED = 10
TRIPLES = 20_000  # per policy, shared among its option settings
# Python scalar values that fit some types and not others, at every boundary the frameworks
# check: 8-, 32- and 64-bit, signed and unsigned, and floats that overflow float16/32.
VALUES = (
    *(300, -1, 127, 128, -128, -129, 255, 256, 2**31, -(2**31) - 1, 2**32),
    *(2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1),
    *(65504.0, 70000.0, 1e39, 1e300, float("inf"), 1e300j, True, False),
)


def option_values(opt: Option) -> tuple[Any, ...]:
    """The values tried for one option, the default first: both booleans, every choice, every
    dtype a dtype option accepts (OpenVINO returns each target as it is)."""
    if opt.kind == "bool":
        return (opt.default, not opt.default)
    return (opt.default, *(c for c in opt.choices if c != opt.default))


def settings(
    policy: Policy,
    pinned: Mapping[str, Any] | None = None,
    installed: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Every option combination, with ``pinned`` (already parsed) options held fixed; a value
    measured apart (``Framework.measured_apart``: NumPy's ``promotion=legacy``) only when
    pinned, and no combination the policy excludes (``Policy.excluded``). ``installed`` maps
    a release option (NumPy's ``ml_dtypes``) to the release the framework asked has: that
    option is then off or that release, measured apart or not."""
    pinned = pinned or {}
    installed = installed or {}
    apart = {(a.option, a.value) for a in measured_apart(policy)}

    def axis(o: Option) -> tuple[Any, ...]:
        if o.name in pinned:
            return (pinned[o.name],)
        if o.name in installed:  # off (where off is a setting) and the installed release
            return (False, installed[o.name]) if o.default is False else (installed[o.name],)
        return tuple(v for v in option_values(o) if (o.name, v) not in apart)

    axes = [axis(o) for o in policy.options]
    combos = [
        {o.name: v for o, v in zip(policy.options, combo, strict=True)}
        for combo in itertools.product(*axes)
    ]
    return [c for c in combos if not policy.excluded(c)]


def measured_apart(policy: Policy) -> tuple[Any, ...]:
    """The settings of ``policy``'s framework measured on another version (none for a policy
    file or an unregistered one)."""
    from promote_cli import frameworks

    if policy.file is not None or policy.name not in frameworks.names():
        return ()
    return frameworks.entry(policy.name).measured_apart


def budget(settings_count: int) -> int:
    """How many triples each of ``settings_count`` settings draws."""
    return max(1, TRIPLES // settings_count)


def drawn(operands: Sequence[Operand], count: int) -> list[tuple[Operand, Operand, Operand]]:
    """Every triple of ``operands`` when there are at most ``count``, else ``count`` drawn with
    ``SEED`` (the same draw for every setting with as many operands)."""
    if len(operands) ** 3 <= count:
        return list(itertools.product(operands, operands, operands))
    rng = random.Random(SEED)
    return [
        (rng.choice(operands), rng.choice(operands), rng.choice(operands)) for _ in range(count)
    ]


def with_values(
    operands: Sequence[Operand], held: Sequence[Operand] = ()
) -> list[tuple[Operand, Operand]]:
    """Every array type of ``operands`` with each of ``VALUES``, and each operand ``held``
    (a 0-d array or NumPy scalar holding a value: ``Policy.held_values``), in both orders
    (none when there are no Python scalars among them)."""
    if not any(op.category == PYTHON for op in operands):
        return []
    arrays = [op for op in operands if op.category == DIMENSIONED]
    scalars = [*(valued(v) for v in VALUES), *held]
    return [pair for a in arrays for s in scalars for pair in ((a, s), (s, a))]


def operation_cases(
    rules: Operations, opts: Mapping[str, Any] | None = None
) -> list[tuple[str, tuple[tuple[Operand, ...], ...]]]:
    """Every operation of the vocabulary with the cases it is called on under ``opts`` (None:
    the default options): its operands among the policy's (those of ``add``), as the docstring
    above says."""
    from promote_cli.rules import operands_of
    from promote_cli.vocabulary import VOCABULARY, WHERE, takes_one

    everyone = operands_of(rules, VOCABULARY["add"], opts)
    out = []
    for name, operation in VOCABULARY.items():
        cases: list[tuple[Operand, ...]]
        # 0-d arrays only where they change the answer (``Operations.zero_d``)
        every = (
            everyone
            if rules.takes_zero_d(operation)
            else tuple(x for x in everyone if x.category != ZERO_D)
        )
        if takes_one(operation):
            cases = [(x,) for x in operands_of(rules, operation, opts) if x in every]
        else:
            cases = list(itertools.product(every, every))
            if operation.arity != WHERE:
                cases = [c for c in cases if not all(x.category == PYTHON for x in c)]
        out.append((name, tuple(cases)))
    return out


def functions(rules: Operations, opts: Mapping[str, Any]) -> dict[str, str]:
    """The framework's function for each operation under ``opts`` (those it has)."""
    under = rules.under(opts)
    return {name: rule.function for name, rule in under.items() if rule.function is not None}


class Batch(Record):
    """Questions of one kind under one setting (and one operation), asked together."""

    kind: str
    questions: list[Question]
    operation: str = ""


def absent(rules: Operations) -> tuple[str, ...]:
    """The operations the framework has no function for (under the default options)."""
    return tuple(name for name, rule in rules.rules.items() if rule.function is None)


def questions(
    policy: Policy,
    opts: Mapping[str, Any],
    settings_count: int,
    asks: Asks,
) -> list[Batch]:
    """The promotion questions under the setting ``opts``, in the order they are asked: the
    pairs, then (when the oracle answers them) the triples under both questions and the
    values."""
    operands = policy.operands(opts)
    out = [Batch(PAIR, [Question(PAIR, pair) for pair in itertools.product(operands, operands)])]
    if asks.nary:
        triples = drawn(operands, budget(settings_count))
        out.append(Batch(RESULT_TYPE, [Question(RESULT_TYPE, t) for t in triples]))
        out.append(Batch(CHAIN, [Question(CHAIN, t) for t in triples]))
        pairs = with_values(operands, policy.held_values(opts, VALUES))
        out.append(Batch(VALUE, [Question(VALUE, pair) for pair in pairs]))
    return out


def operation_questions(
    rules: Operations,
    opts: Mapping[str, Any],
    cases: Sequence[tuple[str, tuple[tuple[Operand, ...], ...]]] | None = None,
) -> list[Batch]:
    """Every operation's calls under ``opts``, one batch per operation the framework has
    (``cases``: ``operation_cases(rules, opts)``, when the caller has them)."""
    called = functions(rules, opts)
    return [
        Batch(OPERATION, [Question(OPERATION, c, name, called[name]) for c in found], name)
        for name, found in (operation_cases(rules, opts) if cases is None else cases)
        if name in called
    ]


def operation_value_questions(rules: Operations, opts: Mapping[str, Any]) -> list[Batch]:
    """Every binary operation's calls with a valued Python scalar under ``opts``: each array
    type with each of ``VALUES``, in both orders (``with_values``), one batch per operation
    the framework has."""
    from promote_cli.rules import operands_of
    from promote_cli.vocabulary import BINARY, VOCABULARY

    called = functions(rules, opts)
    pairs = with_values(operands_of(rules, VOCABULARY["add"], opts))
    return [
        Batch(OPERATION, [Question(OPERATION, c, name, called[name]) for c in pairs], name)
        for name, op in VOCABULARY.items()
        if op.arity == BINARY and name in called
    ]


def spellings(asks: Asks) -> Batch:
    """The spellings an oracle asks its framework to read (none for most)."""
    return Batch(SPELLING, [Question(SPELLING, text=text) for text in asks.spellings])


def plan(
    policy: Policy,
    combos: Sequence[Mapping[str, Any]],
    asks: Asks,
    rules: Operations | None = None,
) -> list[tuple[Mapping[str, Any], Batch]]:
    """Everything asked of a framework, in order, each batch with its option setting: a phase
    at a time (``protocol.PHASES``), each under every setting: the pairs, the triples under
    both questions, the values, the spellings once, then (when ``rules`` are given and the
    oracle calls operations) every operation, and the random programs. Operations come last
    because calling them can change a framework for good (TensorFlow's NumPy behaviour stays
    on once enabled)."""
    per = [questions(policy, opts, len(combos), asks) for opts in combos]
    out: list[tuple[Mapping[str, Any], Batch]] = []
    for kinds in ((PAIR,), (RESULT_TYPE, CHAIN), (VALUE,)):
        for opts, batches in zip(combos, per, strict=True):
            out += [(opts, batch) for batch in batches if batch.kind in kinds]
    apart = {(a.option, a.value) for a in measured_apart(policy)}
    if asks.spellings and not any(combos[0].get(o) == v for o, v in apart):
        # How the framework reads a spelling is its current version's, not a setting's.
        out.append((combos[0], spellings(asks)))
    if asks.operations and rules is not None:
        cases: dict[tuple[Operand, ...], Any] = {}  # by the operands: most settings share them
        for opts in combos:
            operands = rules.operands(opts)
            if operands not in cases:
                cases[operands] = operation_cases(rules, opts)
            valued = {}
            if asks.operation_values and rules.values:  # just after its own
                valued = {b.operation: b for b in operation_value_questions(rules, opts)}
            for batch in operation_questions(rules, opts, cases[operands]):
                out.append((opts, batch))
                if batch.operation in valued:
                    out.append((opts, valued[batch.operation]))
    if asks.expressions and rules is not None:
        from promote_cli.verify import expressions

        if expressions.checked(policy):
            for opts in combos:  # (not under a setting measured apart on another version)
                if not any(opts.get(o) == v for o, v in apart):
                    batch = Batch(EXPRESSION, expressions.questions(policy, rules, opts))
                    out.append((opts, batch))
    return out
