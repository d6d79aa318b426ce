"""The steps that answer a cell of an operation, in order (``STEPS``): each reads a few fields
of the cell's ``Rule`` and either decides the cell or lets the next one go on, as OpenVINO's
promotion rules are an ordered list of named rules. The outcome says which step decided
(``Outcome.decided_by``), and ``promote op --explain`` names it. The walk that runs them on a
cell is ``walk``; the declarations they read, ``rules``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.dtypes import is_weak
from promote_cli.engine import Outcome, Policy, ref, refuse, remembered
from promote_cli.errors import UsageError
from promote_cli.operands import (
    DIMENSIONED,
    NUMPY_SCALAR,
    PYTHON,
    PYTHON_VALUES,
    ZERO_D,
    Operand,
    Value,
    int_value,
    value_text,
)
from promote_cli.record import Record
from promote_cli.rules import (
    ABSENT,
    CHECKED,
    INT64_VALUE,
    NO_KERNEL,
    REFUSES_OPERAND,
    REFUSES_TYPE,
    RUNS,
    SAME_DTYPE,
    SHAPE,
    SIGNATURE,
    Maps,
    Operations,
    PairFunction,
    Rule,
    lookup,
    matches,
    specials,
)
from promote_cli.vocabulary import (
    ACCUMULATE,
    ALWAYS_BOOL,
    BINARY,
    COMPLEX_TO_FLOAT,
    FUNCTION,
    INDEX,
    INT_TO_DEFAULT,
    INT_TO_FLOAT,
    KINDS,
    OPERATOR,
    VOCABULARY,
    Kind,
    Operation,
    takes_one,
)

_CATEGORY_TEXT = {
    DIMENSIONED: "an array",
    ZERO_D: "a 0-d array",
    PYTHON: "a Python scalar",
    NUMPY_SCALAR: "a NumPy scalar",
}


def _apply(kind: Kind, t: str, maps: Maps) -> str | None:
    """The kind applied to the promoted type ``t`` (None: the map has no entry for it)."""
    if kind == ALWAYS_BOOL:
        return "bool"
    if kind == INDEX:
        return maps.index_dtype
    k = dtype(t).kind
    if is_weak(t):  # a Python scalar decided the promotion: the result stays weak
        if kind in (INT_TO_FLOAT, INT_TO_DEFAULT) and k == "int":
            return "float*"
        return "float*" if kind == COMPLEX_TO_FLOAT and k == "complex" else t
    integral = k in ("bool", "int", "uint")
    if kind == INT_TO_FLOAT and integral:
        return lookup(maps.inexact, t)
    if kind == INT_TO_DEFAULT and integral:
        return maps.default_float
    if kind == ACCUMULATE and integral:
        return lookup(maps.accumulate, t)
    if kind == COMPLEX_TO_FLOAT and k == "complex":
        return lookup(maps.real, t)
    return t


def operand_text(op: Operand) -> str:
    if op.category == PYTHON:
        return "a Python bool" if op.dtype == "bool" else f"a Python scalar ({ref(op.dtype)})"
    return f"{_CATEGORY_TEXT[op.category]} of {ref(op.dtype)}"


def operands_text(operands: Sequence[Operand]) -> str:
    return " and ".join(map(operand_text, operands))


# Where a cell is asked: the operations, the option setting, the operation's rule and the maps
# under that setting, and the operation (``answer`` looks the setting up once).
At = tuple[Operations, Mapping[str, Any], Rule, Maps, Operation]


class Draft:
    """One cell's answer in the making: what the steps read, and what the earlier ones
    found."""

    __slots__ = (
        "a",
        "b",
        "by",
        "cell",
        "maps",
        "op",
        "operands",
        "ops",
        "opts",
        "out",
        "pair",
        "promoted",
        "rule",
        "t",
        "valued",
        "values",
        "why",
    )

    def __init__(
        self, at: At, valued: tuple[Operand, ...], operands: tuple[Operand, ...], values: bool
    ) -> None:
        self.ops, self.opts, self.rule, self.maps, self.op = at
        # The steps see ``operands``: the types alone (a Python scalar's value is seen by the
        # value step, in ``valued``), or the values too where every step sees them
        # (``Operations.values_promote``). ``values``: a value for the value step.
        self.valued, self.operands, self.values = valued, operands, values
        self.a, self.b = operands[0], operands[-1]
        self.cell: str | None = None  # the verdict ``Rule.cells`` gives these operands
        self.pair: PairFunction = self.ops.policy.promote
        self.promoted: Outcome | None = None
        self.t = ""  # the promoted type
        self.out: str | None = None  # the output, once a step has decided it
        self.why = ""
        self.by = ""  # the step that decided the output


def _absent(c: Draft) -> Outcome | None:
    if c.rule.function is None:
        what = "function" if c.op.syntax == FUNCTION else "operator"
        title = c.ops.policy.title
        return refuse(ABSENT, f"{title} has no {c.op.name} {what} ({c.rule.note})")
    return None


def values_taken(c: Draft) -> None:
    """``UsageError`` for a Python scalar's value the operation does not check."""
    for x in c.valued:
        if x.value is not None and not (c.ops.values and c.op.arity == BINARY):
            kind = type(x.value).__name__
            raise UsageError(
                f"{c.op.name} is not checked against a Python scalar's value: give {kind}"
                f" rather than {kind}:{value_text(x.value)}"
            )


def _takes(c: Draft) -> Outcome | None:
    name, rule = c.op.name, c.rule
    if c.values:
        values_taken(c)
    one, categories = takes_one(c.op), rule.categories
    for x in c.operands:
        if one and x.category == PYTHON:
            raise UsageError(f"{name} takes an array, not a Python scalar: give D(t) or S(t)")
        if categories is not None and x.category not in categories:
            why = SHAPE if x.category != PYTHON else SIGNATURE
            return refuse(why, f"{rule.function} does not take {operand_text(x)}")
    return None


def _reflected(c: Draft) -> Outcome | None:
    op, operators = c.op, c.ops.operators
    if op.syntax == FUNCTION or operators is None or c.a.category != PYTHON:
        return None
    operator = op if op.syntax == OPERATOR else VOCABULARY[op.like]
    if operator.name not in operators.unreflected:
        return None
    reflected = operator.dunder.replace("__", "__r", 1)
    return refuse(
        SIGNATURE,
        f"{operators.array} has no {reflected}: Python raises TypeError for {operand_text(c.a)}"
        f" on the left of {operator.name}",
    )


def _outside(c: Draft) -> Outcome | None:
    types = c.ops.types
    for x in c.operands:
        if types is not None and x.category != PYTHON and x.dtype not in types:
            return refuse(REFUSES_OPERAND, f"{c.ops.outside} ({ref(x.dtype)})")
    return None


def _refuses_operand(c: Draft) -> Outcome | None:
    refused = c.rule.refuses_operand
    if not refused:
        return None
    arrays = [t for t in refused if isinstance(t, str)]
    for x in c.operands:
        if x in refused if x.category == PYTHON else matches(arrays, x.dtype):
            return refuse(REFUSES_OPERAND, f"{c.rule.function} refuses {operand_text(x)}")
    return None


def _cells(c: Draft) -> Outcome | None:
    if not c.rule.cells:
        return None
    operands = c.operands
    if c.values and operands is c.valued:  # every step sees the values: key by the types
        operands = tuple(x.typed() for x in operands)
    c.cell = c.rule.cells.get(tuple(operands))
    if c.cell == REFUSES_OPERAND:
        given = operands_text(c.operands)
        return refuse(REFUSES_OPERAND, f"{c.rule.function} refuses {given} (measured)")
    return None


def _special(c: Draft) -> Outcome | None:
    if not c.rule.special:
        return None
    found = specials(c.ops.policy.package)[c.rule.special](c.operands, c.opts)
    # A special answers for the types; a value the operation refuses is still refused (JAX's
    # integer power takes an int8 base, not with a negative Python int exponent).
    if found is not None and not found.refused:
        return _value(c) or found
    return found


def _promote(c: Draft) -> Outcome | None:
    found = c.ops.pair_of(c.rule, c.op)
    if found is not None:
        # the framework's own pair takes the policy's operands only (Policy.promote refuses
        # the rest itself): a type or category outside it is refused as promote refuses it (a
        # weakly typed array, which Keras's expressions meet on JAX, is the pair's to answer;
        # a Python scalar's weak type is the policy's to refuse, as in ``promote pair``)
        for x in (c.a, c.b):
            array = x.category != PYTHON
            outside = None if array and is_weak(x.dtype) else c.ops.policy.normalise(x, c.opts)
            if isinstance(outside, Outcome):
                return outside
        c.pair = found.promote
        c.promoted = remembered(c.pair, c.a, c.b, c.opts)
    else:  # Policy.promote, which keeps its own answers
        c.promoted = c.pair(c.a, c.b, c.opts)
    if c.promoted.refused:
        return c.promoted
    c.t = c.promoted.result  # type: ignore[assignment]
    return None


def value_refused(
    policy: Policy, operands: Sequence[Operand], opts: Mapping[str, Any]
) -> Outcome | None:
    """What the framework's ``+`` on ``operands`` (``Policy.chain``: its operator, then
    ``check_value``) refuses for a Python scalar's value and not for the types alone (None:
    nothing): how CHECKED checks a value, and what a value special may ask."""
    given = policy.chain(operands, opts)
    bare = [x.typed() for x in operands]
    if given.refused and not policy.chain(bare, opts).refused:
        return given._replace(steps=())
    return None


def _value(c: Draft) -> Outcome | None:
    if not c.values:  # no Python scalar's value
        return None
    rule, policy = c.rule, c.ops.policy
    if rule.value == CHECKED:
        found = value_refused(policy, c.valued, c.opts)
        if found is not None:
            return found
    if rule.value == INT64_VALUE:
        for scalar in c.valued:
            value = int_value(scalar)
            if value is not None and not -(2**63) <= value < 2**63:
                return refuse(
                    "value",
                    f"{rule.function} takes a Python int as an int64 (a C long), which"
                    f" {value_text(value)}"
                    f" does not fit: {policy.title} raises",
                )
    if rule.value_special:
        return specials(policy.package)[rule.value_special](c.valued, c.opts)
    return None


def _same_dtype(c: Draft) -> Outcome | None:
    a, b = c.a, c.b
    if c.rule.same_dtype and a.category != PYTHON != b.category and a.dtype != b.dtype:
        return refuse(
            SAME_DTYPE,
            f"{c.rule.function} does not promote: its operands must have one dtype"
            f" ({ref(a.dtype)} and {ref(b.dtype)} differ)",
        )
    return None


def _refuses(c: Draft) -> Outcome | None:
    if matches(c.rule.refuses, c.t):
        return refuse(REFUSES_TYPE, f"{c.rule.function} does not accept {ref(c.t)}")
    return None


def _override(c: Draft) -> Outcome | None:
    given = c.rule.overrides.get(c.t)
    if c.out is not None or given is None:
        return None
    out = _apply(given, c.t, c.maps) if isinstance(given, Kind) else given
    if out is None:
        return _no_result(c)
    c.out, c.by = out, "override"
    c.why = f"{c.rule.function} of {ref(c.t)} gives {ref(out)} (an exception to its kind)"
    return None


def _operandwise(c: Draft) -> Outcome | None:
    rule = c.rule
    if c.out is not None or not rule.operandwise or rule.kind != INT_TO_FLOAT:
        return None
    if PYTHON in (c.a.category, c.b.category):
        return None
    maps = c.maps
    lifted = [
        Operand(_apply(INT_TO_FLOAT, x.dtype, maps) or x.dtype, x.category) for x in c.operands
    ]
    c.out = c.pair(lifted[0], lifted[1], c.opts).result
    floats = " and ".join(ref(x.dtype) for x in lifted)
    c.why = f"{rule.function} lifts each operand to its float ({floats}): {ref(c.out)}"  # type: ignore[arg-type]
    c.by = "operandwise"
    return None


def _kind(c: Draft) -> Outcome | None:
    if c.out is not None:
        return None
    out = _apply(c.rule.applied_kind, c.t, c.maps)
    if out is None:
        return _no_result(c)
    c.out, c.by = out, "kind"
    c.why = f"{ref(c.t)} -> {ref(out)}: {KINDS[c.rule.applied_kind]}"
    return None


def _no_result(c: Draft) -> Outcome:
    return refuse(REFUSES_TYPE, f"{c.rule.function} has no result type for {ref(c.t)}")


def _materialise(c: Draft) -> Outcome | None:
    if c.rule.materialise and c.out is not None and is_weak(c.out):
        c.out = c.ops.policy.materialise(c.out, c.opts).dtype
        c.why += f"; {c.rule.function} returns it as an array of {ref(c.out)}"
    return None


def _any_array_of(types: Sequence[str], operands: Sequence[Operand]) -> bool:
    return any(x.category != PYTHON and matches(types, x.dtype) for x in operands)


def _no_kernel(c: Draft) -> Outcome | None:
    rule, a, b, t = c.rule, c.a, c.b, c.t
    if _scalar_kernel(c) or c.cell == RUNS or _skips_kernel(c):
        return None
    alone = PYTHON not in (a.category, b.category) and a.dtype == b.dtype == t
    by_operands = (
        c.cell == NO_KERNEL
        or (t in rule.no_kernel_mixed and not alone)
        or (c.promoted is not None and c.promoted.rule in rule.no_kernel_promotions)
        or (bool(rule.no_kernel_operand) and _any_array_of(rule.no_kernel_operand, c.operands))
    )
    forms = lookup(rule.no_kernel_categories, t)
    by_type = matches(rule.no_kernel, t) and (
        forms is None or tuple(x.category for x in c.operands) in forms
    )
    if not by_operands and not by_type:
        return None
    given = operands_text(c.operands) if by_operands else ref(t)
    return Outcome(
        c.out,
        NO_KERNEL,
        f"{c.why}; but {c.ops.policy.title} has no CPU kernel of {rule.function} for {given}:"
        " the call raises there (a gap, not a promotion rule)",
    )


# The Python scalars a scalar kernel takes (``Rule.scalar_kernel``): a bool is made a tensor.
_SCALAR_KERNEL_TAKES = ("int*", "float*")


def _scalar_kernel(c: Draft) -> bool:
    """Whether a Python int or float on a side of ``Rule.scalar_kernel``, beside an array, is
    taken by a scalar kernel that has the promoted type."""
    sides = c.rule.scalar_kernel
    if not sides or len(c.operands) != 2 or matches(c.rule.no_scalar_kernel, c.t):
        return False
    a, b = c.operands
    return any(
        side in sides
        and x.category == PYTHON
        and x.dtype in _SCALAR_KERNEL_TAKES
        and other.category != PYTHON
        for side, x, other in (("left", a, b), ("right", b, a))
    )


def _skips_kernel(c: Draft) -> bool:
    """Whether a Python scalar's value (``PYTHON_VALUES``' without one) on a side of
    ``Rule.skips_kernel`` returns before any kernel; the reason is added to the cell's why."""
    skips = c.rule.skips_kernel
    if not skips or len(c.valued) != 2:
        return False
    for side, x in zip(("left", "right"), c.valued, strict=True):
        if x.category != PYTHON or side not in skips:
            continue
        value = PYTHON_VALUES[x.dtype] if x.value is None else x.value
        if _among(value, skips[side]) and not _unfilled(c, side, value):
            given = "" if x.value is not None else f" ({operand_text(x)} given no value)"
            c.why += (
                f"; {value!r} on the {side}{given} returns before any kernel: no gap (other"
                " values reach the kernel)"
            )
            return True
    return False


def _among(value: Value, values: Sequence[Value]) -> bool:
    """Whether ``value`` is one of ``values`` (a bool only as a bool)."""
    return any(value == v and isinstance(value, bool) == isinstance(v, bool) for v in values)


def _unfilled(c: Draft, side: str, value: Value) -> bool:
    """Whether ``value`` on ``side`` fills a dimensioned result of a type with no fill kernel
    (``Rule.fills``, ``Rule.no_fill``)."""
    dimensioned = any(x.category == DIMENSIONED for x in c.valued)
    return (
        dimensioned and matches(c.rule.no_fill, c.t) and _among(value, c.rule.fills.get(side, ()))
    )


class Step(Record):
    """One step of ``answer``: its name (``Outcome.decided_by``, ``--explain``), what it looks
    at, the check itself (the outcome that decides the cell, or None to go on), and whether it
    can decide or change anything for a rule (``applies``: the operations, the rule, the
    operation, and whether a Python scalar's value is seen); a step that cannot is left out of
    that rule's walk (``walk_of``), as its check would return None at once."""

    name: str
    says: str
    check: Callable[[Draft], Outcome | None]
    applies: Callable[[Operations, Rule, Operation, bool], bool] = lambda ops, r, op, v: True


# The order in which a rule's fields apply: the first step that returns an outcome decides.
# ``override``, ``operandwise`` and ``kind`` each may set the output (the first that applies);
# ``materialise`` and ``no-kernel`` then look at it; a cell no step decided is the output.
STEPS: tuple[Step, ...] = (
    Step(
        "absent",
        "the framework has no such function (Rule.function is None)",
        _absent,
        lambda ops, rule, op, values: rule.function is None,
    ),
    Step(
        "takes",
        "an operand form the function does not take (Rule.categories)",
        _takes,
        lambda ops, rule, op, values: values or takes_one(op) or rule.categories is not None,
    ),
    Step(
        "reflected",
        "a Python scalar left of an operator the array does not reflect (Operators.unreflected)",
        _reflected,
        lambda ops, rule, op, values: op.syntax != FUNCTION and ops.operators is not None,
    ),
    Step(
        "outside",
        "a type no operation takes (Operations.types)",
        _outside,
        lambda ops, rule, op, values: ops.types is not None,
    ),
    Step(
        "refuses-operand",
        "an operand the function refuses (Rule.refuses_operand)",
        _refuses_operand,
        lambda ops, rule, op, values: bool(rule.refuses_operand),
    ),
    Step(
        "cells",
        "a cell refused for its operands themselves (Rule.cells)",
        _cells,
        lambda ops, rule, op, values: bool(rule.cells),
    ),
    Step(
        "special",
        "a case of the framework's own, before promoting (Rule.special)",
        _special,
        lambda ops, rule, op, values: bool(rule.special),
    ),
    Step("promote", "the promotion (the policy's, or Rule.pair): its refusal", _promote),
    Step(
        "same-dtype",
        "two arrays of different dtypes, where nothing promotes",
        _same_dtype,
        lambda ops, rule, op, values: rule.same_dtype,
    ),
    Step(
        "refuses",
        "a promoted type the function refuses (Rule.refuses)",
        _refuses,
        lambda ops, rule, op, values: bool(rule.refuses),
    ),
    Step(
        "value",
        "a Python scalar's value the operation refuses (Rule.value_special, Rule.value)",
        _value,
        lambda ops, rule, op, values: values,
    ),
    Step(
        "override",
        "a promoted type whose output is not its kind's (Rule.overrides)",
        _override,
        lambda ops, rule, op, values: bool(rule.overrides),
    ),
    Step(
        "operandwise",
        "each operand lifted to its float, then promoted",
        _operandwise,
        lambda ops, rule, op, values: rule.operandwise and rule.kind == INT_TO_FLOAT,
    ),
    Step("kind", "the operation's kind applied to the promoted type (Rule.kind, Maps)", _kind),
    Step(
        "materialise",
        "a weak result returned as the array it becomes",
        _materialise,
        lambda ops, rule, op, values: rule.materialise,
    ),
    Step("no-kernel", "the dtype rule's answer, but no CPU kernel runs it: a gap", _no_kernel),
)
# Not a step of the walk: ``a op= b`` lands the operator's outcome on ``a`` (``_update``).
UPDATE_STEP = Step(
    "update",
    "the operator's result landed on the left name: rebound, or cast back into the array in"
    " place (Operators.updates)",
    lambda c: None,
)
STEP = {s.name: s for s in (*STEPS, UPDATE_STEP)}
