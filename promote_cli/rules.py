"""The rule declarations: how a framework answers each operation, as data.

The promotion table answers one question (the common type of two operands); an operation asks
another: what its output is. Every framework answers it the same way, as PyTorch spells out in
``ELEMENTWISE_TYPE_PROMOTION_KIND``: promote the operands with the policy's own rule (a unary
operation or a reduction promotes its operand with itself), then apply the operation's *kind*
to the promoted type. What differs between frameworks is data, one ``Rule`` per operation:

- the kind of each operation (NumPy's ``mean`` of an int is its default float, JAX's is the
  float of the integer's width), and the per-framework maps a kind reads (``Maps``);
- the types each operation refuses, by the promoted type's kind or name (``sqrt`` of an integer
  in the array API), or by an operand (PyTorch's ``subtract`` refuses any bool operand);
- the types for which a framework has no CPU kernel: the dtype rule answers, the call raises.
  ``promote`` gives the rule's answer and marks the cell ``no-kernel``; ``promote verify``
  counts such a cell as a gap when the framework raises for want of a kernel;
- a few single-type overrides (NumPy's ``square`` of a bool is int8) and operand forms the
  function does not take (``matmul`` of a 0-d array or a Python scalar);
- single cells, where the operands decide rather than their promotion (``Rule.cells``, keyed
  by the operands themselves: MindSpore's uint16 ``mul`` kernel takes two uint16 tensors, not
  one and a Python bool).

A declaration is data only: strings, tuples, mappings, ``Kind``s. What is a framework's own code
(a pair rule other than its policy's, such as TensorFlow's ``tnp`` calling NumPy's
``result_type``; a special case decided before the promotion, such as JAX's ``lax.integer_pow``)
is a small function in that framework's directory (``pairs.py``: ``PAIRS``; ``specials.py``:
``SPECIALS``), which a rule names by its key; each registry is imported once, on first use.
Declarations that depend on the options (JAX's maps on ``x64``, Keras's rules on its backend)
are data keyed by the option setting (``BySetting``). Each framework declares its
``Operations`` in ``promote_cli/frameworks/<name>/operations.py``: its namespace, where each
operation of the vocabulary (``vocabulary``) is found by its name and applies its kind, and a
``Rule`` only where it departs from that (another name, a kind of its own, refusals, or no
such function: the operation is refused saying so); ``with_operators`` makes the whole table.
The steps that read the rules are ``steps``; the walk that answers a cell, ``walk``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import import_module
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, Policy
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, Value
from promote_cli.record import Record
from promote_cli.vocabulary import (
    FUNCTION,
    OPERATOR,
    VOCABULARY,
    Kind,
    Operation,
    operation,
    takes_one,
)

# policy without operations refuses as "no-operations" (``frameworks.operations``).
REFUSES_TYPE, REFUSES_OPERAND, SHAPE, SIGNATURE, ABSENT, SAME_DTYPE = (
    "op-refuses",
    "op-refuses-operand",
    "shape",
    "signature",
    "absent",
    "same-dtype",
)
UPDATE_REFUSED = "update-refused"  # ``a op= b``: the result cannot be cast back into ``a``
NO_KERNEL = "no-kernel"  # the dtype rule's answer, but the framework has no CPU kernel for it
# A cell of ``Rule.cells`` that reaches a kernel where the promoted type has none (the call
# takes another way: PyTorch's ``1j / float16_tensor`` is ``reciprocal`` then a complex ``mul``)
RUNS = "runs"


# How an operation checks a Python scalar's value (``Rule.value``).
CHECKED = "checked"  # as the framework's ``+`` converts it (``Policy.check_value``)
ANY_VALUE = "any"  # not at all: any value is taken (NumPy's ``uint8_array == 300``)
INT64_VALUE = "int64"  # any int that fits int64, whatever the other operand (a C long)


class Maps(Record):
    """The per-framework tables the kinds read. Keys are canonical type names or kinds (``bool``,
    ``int``, ``uint``, ``float``, ``complex``); a type name wins over its kind."""

    inexact: Mapping[str, str]  # INT_TO_FLOAT: the float a bool or an integer becomes
    accumulate: Mapping[str, str]  # ACCUMULATE: sum's accumulator for a bool or an integer
    real: Mapping[str, str]  # COMPLEX_TO_FLOAT: complex -> component float
    index_dtype: str  # INDEX: argmax's type
    default_float: str  # INT_TO_DEFAULT


def lookup(table: Mapping[str, Any], t: str) -> Any:
    """``table``'s entry for the type ``t``: by its name, else by its kind."""
    if t in table:
        return table[t]
    return table.get(dtype(t).kind)


def matches(keys: Sequence[str], t: str) -> bool:
    """Whether the type ``t`` is among ``keys``, by its name or its kind."""
    return bool(keys) and (t in keys or dtype(t).kind in keys)


def D(t: str) -> Operand:
    """An array of ``t``, as a cell of ``Rule.cells`` names its operand: ``(D("uint16"),
    P("bool"))`` is ``promote op NAME 'D(uint16)' 'P(bool)'``."""
    return Operand(t, DIMENSIONED)


def S(t: str) -> Operand:
    """A 0-d array of ``t`` (see ``D``)."""
    return Operand(t, ZERO_D)


def P(t: str) -> Operand:
    """A Python scalar: ``P("bool")``, ``P("int*")``, ``P("float*")``, ``P("complex*")``."""
    return Operand(t, PYTHON)


# A cell as ``Rule.cells`` keys it: its operands (category and dtype), in the call's order.
Cell = tuple[Operand, ...]


class Rule(Record):
    """One operation of one framework, as data: its function, its kind, what it refuses; a
    framework declares one where it departs from the operation's kind or name. The comment on
    each field names the step of ``STEPS`` that reads it."""

    function: str | None  # absent: the framework's own spelling; None: it has no such function
    # kind: what the operation makes of the promoted type, where the framework departs from
    # the operation's own kind (``vocabulary``); None: the operation's (``with_operators``
    # resolves it, so every rule a walk reads has its kind)
    kind: Kind | None = None
    categories: frozenset[str] | None = None  # takes: operand categories taken (None: all)
    # refuses-operand: array operand types (or kinds) refused, and Python scalars (``P("bool")``)
    refuses_operand: tuple[str | Operand, ...] = ()
    # cells, no-kernel: cells decided by the operands themselves, not by their promotion
    # (MindSpore's CPU has a uint16 kernel of mul for two uint16 tensors but none for a uint16
    # tensor and a Python bool): REFUSES_OPERAND (a refusal), NO_KERNEL (a gap) or RUNS (a
    # kernel is reached although the promoted type is in ``no_kernel``).
    cells: Mapping[Cell, str] = {}
    special: str = ""  # special: a key of the framework's SPECIALS, deciding some cells first
    pair: str = ""  # promote: a key of the framework's PAIRS ("": the policy's own promotion)
    same_dtype: bool = False  # same-dtype: no promotion between arrays: two dtypes are refused
    refuses: tuple[str, ...] = ()  # refuses: promoted types (or kinds) the function refuses
    # override: promoted type -> output where the kind does not hold: a type, or another kind
    # applied instead (Keras's ``int64`` -> ``INT_TO_DEFAULT``: floatx, whatever it is set to)
    overrides: Mapping[str, str | Kind] = {}
    # operandwise: INT_TO_FLOAT applied to each array operand, then promoted (NumPy's ufunc
    # loop choice); a Python scalar is promoted first, as NEP 50 resolves it before the loop.
    operandwise: bool = False
    materialise: bool = False  # materialise: a weak result comes out as the array it becomes
    # value: how a Python scalar's value is checked against the other operand (CHECKED, as the
    # framework's ``+`` converts it; ANY_VALUE, not at all; INT64_VALUE, as an int64), then
    # ``value_special`` (a key of the framework's SPECIALS, given the valued operands) where the
    # operation does something of its own with some values (NumPy's negative integer powers)
    value: str = "checked"
    value_special: str = ""
    no_kernel: tuple[str, ...] = ()  # no-kernel: promoted types (or kinds) with no CPU kernel
    # no-kernel: by promoted type (or kind) of ``no_kernel``, the operands' categories, in the
    # call's order, where it has no kernel (a type not listed: all): PyTorch's float8 ``mul``
    # has a kernel unless its second operand is one number, a 0-d tensor or a Python scalar
    # (which ``1 * t``, ``t.__rmul__(1)``, passes second too); its bcomplex32 ``mul`` has none
    no_kernel_categories: Mapping[str, frozenset[tuple[str, ...]]] = {}
    no_kernel_operand: tuple[str, ...] = ()  # no-kernel: array operand types with no kernel
    # no-kernel: promoted types whose kernel takes two arrays of that very type only (no cast
    # is inserted to reach it, 0-d or not): any other operands promoting to one are a gap
    no_kernel_mixed: tuple[str, ...] = ()
    # no-kernel: promotions, by the rule that made them (``Outcome.rule`` of the pair), that
    # reach no kernel (MindSpore's comparisons of two types it does not convert)
    no_kernel_promotions: tuple[str, ...] = ()
    # no-kernel: the sides ("left", "right") on which a Python int or float beside an array is
    # taken by a scalar kernel instead, which has every type but ``no_scalar_kernel``'s (Paddle's
    # scale: ``float16_tensor + 1`` runs where ``float16_tensor + float16_tensor`` has no kernel)
    scalar_kernel: tuple[str, ...] = ()
    no_scalar_kernel: tuple[str, ...] = ()
    # no-kernel: Python scalar values, by side ("left", "right"), with which the call returns
    # before any kernel: no gap there (PyTorch's pow fills for an exponent of 0 or a base of 1
    # and copies for an exponent of 1). A bool matches a bool only (PyTorch's ``True ** t``
    # reaches the kernel); a Python scalar given no value is ``PYTHON_VALUES``'s (1 for an int)
    skips_kernel: Mapping[str, tuple[Value, ...]] = {}
    # no-kernel: of those values, by side, the ones that fill the result (PyTorch's pow: an
    # exponent of 0, a base of 1; an exponent of 1 copies), and the promoted types that have no
    # fill kernel for a dimensioned result (torch 2.14's bcomplex32, "fill_cpu" not
    # implemented): such a fill reaches that missing kernel, and ``no_kernel`` decides
    fills: Mapping[str, tuple[Value, ...]] = {}
    no_fill: tuple[str, ...] = ()
    note: str = ""  # anything a reader must know: which spelling answers a scalar on the left

    @property
    def applied_kind(self) -> Kind:
        """The kind the walk applies: ``kind``, which ``with_operators`` has given every rule
        of a declaration (a rule read before it is a bug in promote)."""
        if self.kind is None:
            raise AssertionError(f"{self.function}: a rule read before with_operators")
        return self.kind


# A promotion of a framework's own (its ``pairs.py``), and a special case (its ``specials.py``):
# the outcome, or None to let the declared rule decide.
PairFunction = Callable[[Operand, Operand, Mapping[str, Any]], Outcome]
SpecialFunction = Callable[[Sequence[Operand], Mapping[str, Any]], "Outcome | None"]


class Pair(Record):
    """A pair rule of a framework's own, in its ``PAIRS`` under the key ``Rule.pair`` names
    (the function's own name)."""

    promote: PairFunction
    text: str  # how ``--explain`` names it: "np.result_type", "the array's own dtype"


class BySetting(Record):
    """Declarations that depend on the options, as data: the maps and the rules under each
    setting of ``options`` (keyed by their values, in that order). A mapping left empty is the
    same under every setting (``Operations.maps`` or ``Operations.rules``)."""

    options: tuple[str, ...]
    maps: Mapping[tuple[Any, ...], Maps] = {}
    rules: Mapping[tuple[Any, ...], Mapping[str, Rule]] = {}
    # The types the operations are asked about under each setting, where a setting's universe
    # adds some (torch 2.14's bcomplex32); empty: ``Operations.types`` of the default operands.
    types: Mapping[tuple[Any, ...], tuple[str, ...]] = {}

    def key(self, opts: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(map(opts.__getitem__, self.options))


# How ``a op= b`` lands on the name ``a`` (``Updates.how``).
REBINDS = "rebinds"  # Python binds the name to the operator's result, a new array
IN_PLACE = "in-place"  # the result is written back into ``a``'s array, cast to its dtype
SAME_ONLY = "same-only"  # in place, only when the result is ``a``'s dtype (array API, tinygrad)
REPLACES = "replaces"  # ``a``'s array object takes the result, its dtype changing (MLX)


class Updates(Record):
    """How a framework's augmented assignment (``a += b``) lands (``how``):

    - REBINDS: the name is bound to the operator's result, a new array (immutable arrays:
      JAX, TensorFlow);
    - IN_PLACE: the result is cast back into the left array (NumPy, PyTorch) when its kind
      ranks no higher than the array's: ``ranks`` lists the kinds (``bool``, ``uint``,
      ``int``, ``float``, ``complex``) from the lowest, a group per rank; a result of a higher
      rank is refused (``int8 += float32``);
    - SAME_ONLY: in place only when the result's dtype is the array's, no cast (the array API
      standard: an in-place operator never changes ``a``'s dtype; tinygrad's ``assign``); any
      other is refused;
    - REPLACES: the array object itself takes the result, dtype and all (MLX: every other
      name for that array sees the new dtype).

    A Python scalar on the left is always rebound (Python's ``x = x + a``), as is an operator
    the array type has no in-place method for (``rebinds``); an update in place of a 0-d array
    by a larger one is refused (the shape does not fit)."""

    how: str  # REBINDS, IN_PLACE, SAME_ONLY or REPLACES
    ranks: tuple[tuple[str, ...], ...] = ()  # IN_PLACE: the kinds from the lowest rank
    says: str = ""  # IN_PLACE: how the framework names the check ("casting rule 'same_kind'")
    # Augmented operators that refuse a left array of these types or kinds, whatever the
    # result (MLX's ``/=`` of an integer array: "In place division cannot cast to
    # non-floating point type").
    refuses_left: Mapping[str, tuple[str, ...]] = {}
    # In place: the augmented operators the array type has no in-place method for (``%=``
    # without ``__imod__``): Python falls back to ``a = a % b`` and rebinds the name.
    rebinds: tuple[str, ...] = ()


_NO_UPDATES = Updates(REBINDS)


class Operators(Record):
    """A framework's operators (``a + b``, ``-a``, ``a += b``) as data: the array type whose
    methods they are, how its augmented assignment lands, and the operators whose rule is not
    the one of the function they follow (``Operation.like``): measured differences only."""

    array: str  # how explanations name the array type: ``np.ndarray``, ``torch.Tensor``
    updates: Updates
    rules: Mapping[str, Rule] = {}  # an operator's own rule, where it is not its function's
    # Operators the array type has no reflected method for (``__rand__``): a Python scalar on
    # the left raises TypeError (MLX's ``1 & a``), in the augmented form too.
    unreflected: tuple[str, ...] = ()
    note: str = ""

    def sentences(self) -> list[str]:
        """What ``promote ops --policy`` says of them, a sentence each."""
        u = self.updates
        how = {
            REBINDS: "binds the name to the result, a new array",
            IN_PLACE: "writes the result back into a's array, in its dtype, unless its kind"
            f" ranks higher ({u.says})",
            SAME_ONLY: f"updates a's array in place when the result is a's dtype ({u.says})",
            REPLACES: "gives a's array object the result, dtype and all",
        }[u.how]
        out = [f"operators: the methods of {self.array}; a += b {how}"]
        out += [
            f"{name} refuses a left array of {', '.join(kinds)}"
            for name, kinds in u.refuses_left.items()
        ]
        if u.rebinds:
            listed = " ".join(u.rebinds)
            out.append(f"{listed}: no in-place method, so Python rebinds the name (a = a op b)")
        if self.unreflected:
            listed = " ".join(self.unreflected)
            out.append(f"no reflected method for {listed}: a Python scalar on the left raises")
        return out


def with_operators(
    rules: Mapping[str, Rule], operators: Operators | None, namespace: str
) -> dict[str, Rule]:
    """A framework's table of rules, whole: ``rules`` (its functions' departures from their
    kinds, and the functions it lacks), a rule for each function it does not list (the
    function of that name in its ``namespace``, ``np.`` + ``cos``, applying the operation's
    kind), and a rule for each operator: its own (``Operators.rules``), else its function's
    under the operator's name (``np.ndarray.__add__``); ``a += b`` follows ``a + b``'s.
    Without ``operators`` every operator is absent (Keras: its functions take the backend's
    tensors, whose operators are the backend's). A rule that states no kind gets its
    operation's (an operator's is the kind of the function it follows): every table a
    framework declares passes through here."""
    out = {
        name: rules[name] if name in rules else Rule(f"{namespace}{name}")
        for name, op in VOCABULARY.items()
        if op.syntax == FUNCTION
    }
    for op in VOCABULARY.values():
        if op.syntax == FUNCTION:
            continue
        if operators is None:
            out[op.name] = Rule(
                None,
                note="it has no array type of its own: its functions take and return the"
                " backend's arrays, whose operators are the backend's (promote expr -p keras"
                " answers them on each backend)",
            )
            continue
        own = operators.rules.get(op.name)
        if own is not None:
            out[op.name] = own
            continue
        operator = op if op.syntax == OPERATOR else VOCABULARY[op.like]
        found = operators.rules.get(operator.name) or out[operator.like]
        # A rebinding update runs the operator itself (Python's a = a + b): name its method.
        updates = operators.updates
        rebinds = updates.how == REBINDS or op.name in updates.rebinds
        dunder = operator.dunder if rebinds else op.dunder
        function = f"{operators.array}.{dunder}" if found.function is not None else None
        out[op.name] = found._replace(function=function)
    return with_kinds(out)


def with_kinds(rules: Mapping[str, Rule]) -> dict[str, Rule]:
    """``rules`` with each rule that states no kind given its operation's (an operator's is
    the kind of the function it follows): a table that names every operation itself (ONNX's,
    operator by operator) passes through here, as ``with_operators``' tables do."""
    return {
        name: rule if rule.kind is not None else rule._replace(kind=VOCABULARY[name].kind)
        for name, rule in rules.items()
    }


class Operations(Record):
    """A policy's per-operation declarations: the maps, one rule per operation of the
    vocabulary (``with_operators``' whole table), and what depends on the options
    (``by_setting``); data only."""

    policy: Policy
    maps: Maps  # the default setting's (or every setting's) maps
    rules: Mapping[str, Rule]  # the default setting's (or every setting's); names the functions
    source: str  # where the rules come from, and what was measured
    # The types an operation takes, when not every type of the policy's universe: the rest
    # are refused with ``outside`` (PyTorch's 1- to 7-bit shells are storage, not arithmetic).
    types: tuple[str, ...] | None = None
    outside: str = ""
    by_setting: BySetting | None = None
    # The pair a unary operation or a reduction starts from, when not the policy's promotion of
    # the operand with itself: a key of PAIRS (Keras: the array's own dtype, as stored).
    one_operand_pair: str = ""
    # Python's operators on the framework's arrays, and how its augmented assignment lands
    # (None: the framework has no array type of its own, and every operator is absent).
    operators: Operators | None = None
    # Every binary operation, operator and augmented assignment takes a Python scalar's value
    # (``int:300``): its answer for the types, unless its rule's value check refuses the value
    # (step ``value``: ``Rule.value``, ``Rule.value_special``); measured
    # (``Asks.operation_values``). Without it (a framework whose operations were measured for
    # types only), a value in an operation is a usage error: a question not measured.
    values: bool = False
    # The settings (keys of ``by_setting``) under which a Python scalar's value takes part in
    # the promotion itself (NumPy 1.26's value-based casting: ``uint8_array * 300`` is
    # uint16): every step sees the value, not the value step alone.
    values_promote: tuple[tuple[Any, ...], ...] = ()
    # The operations (functions; their operators and updates follow) asked about 0-d arrays,
    # when a 0-d array changes only their answers (JAX: eagerly, ``jnp.power`` takes a 0-d
    # integer exponent as a Python int); None: every operation, as the policy's categories say.
    zero_d: tuple[str, ...] | None = None

    def takes_zero_d(self, op: Operation) -> bool:
        """Whether ``op`` is asked about 0-d arrays (``zero_d``)."""
        if self.zero_d is None:
            return True
        while op.syntax != FUNCTION:  # a += b follows a + b, which follows add
            op = VOCABULARY[op.like]
        return op.name in self.zero_d

    def setting(self, opts: Mapping[str, Any]) -> tuple[Mapping[str, Rule], Maps, bool]:
        """The rules and the maps under the option setting ``opts``, and whether a Python
        scalar's value takes part in the promotion there (``values_promote``): the setting
        looked up once."""
        by = self.by_setting
        if by is None:
            return self.rules, self.maps, False
        key = by.key(opts)
        return (
            by.rules[key] if by.rules else self.rules,
            by.maps[key] if by.maps else self.maps,
            key in self.values_promote,
        )

    def rule(self, name: str, opts: Mapping[str, Any]) -> Rule:
        """The rule of the operation ``name`` (a vocabulary name or spelling: ``-`` is
        ``subtract``) under the option setting ``opts``: the one rule a question is answered
        by, and the one ``--json`` and ``--explain`` name."""
        return self.under(opts)[operation(name).name]

    def operands(self, opts: Mapping[str, Any] | None = None) -> tuple[Operand, ...]:
        """The operands the operations are asked about under ``opts`` (None: the default
        options): the policy's under the default options, but the types no operation takes;
        under a setting whose types ``by_setting`` declares, that setting's operands of those
        types."""
        by, types, opts_asked = self.by_setting, self.types, None
        if opts is not None and by is not None and by.types:
            types, opts_asked = by.types[by.key(opts)], opts
        return tuple(
            x
            for x in self.policy.operands(opts_asked)
            if types is None or x.category == PYTHON or x.dtype in types
        )

    @property
    def updates(self) -> Updates:
        """How ``a += b`` lands (a framework without operators answers none)."""
        return self.operators.updates if self.operators is not None else _NO_UPDATES

    def under(self, opts: Mapping[str, Any]) -> Mapping[str, Rule]:
        """The rules under the option setting ``opts``."""
        return self.setting(opts)[0]

    def maps_under(self, opts: Mapping[str, Any]) -> Maps:
        """The maps under the option setting ``opts``."""
        return self.setting(opts)[1]

    def pair_of(self, rule: Rule, op: Operation) -> Pair | None:
        """The pair rule ``rule`` names for ``op`` (None: the policy's own promotion)."""
        name = rule.pair or (self.one_operand_pair if takes_one(op) else "")
        return pairs(self.policy.package)[name] if name else None

    def promotion_text(self, rule: Rule, op: Operation) -> str:
        """How ``--explain`` names the promotion ``op`` starts from under ``rule``."""
        found = self.pair_of(rule, op)
        return found.text if found is not None else f"{self.policy.name}'s promotion"


@cache
def pairs(package: str) -> Mapping[str, Pair]:
    """The pair rules of the framework in ``package`` (``PAIRS`` of its ``pairs.py``, if it has
    one), as its rules name them; imported once."""
    found: Mapping[str, Pair] = _registry(f"{package}.pairs", "PAIRS")
    return found


@cache
def specials(package: str) -> Mapping[str, SpecialFunction]:
    """The special cases of the framework in ``package`` (``SPECIALS`` of its ``specials.py``,
    if it has one), as its rules name them; imported once."""
    found: Mapping[str, SpecialFunction] = _registry(f"{package}.specials", "SPECIALS")
    return found


def _registry(module: str, attribute: str) -> Mapping[str, Any]:
    try:
        found = import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:  # the module exists but something it imports does not
            raise
        return {}
    registry: Mapping[str, Any] = getattr(found, attribute)
    return registry


def operand_key(key: str | Operand) -> str:
    """How ``Rule.refuses_operand``'s key is written: an array type or kind as it is, a Python
    scalar as ``P(bool)``."""
    return key if isinstance(key, str) else f"{key.category}({key.dtype})"


def cell_key(operands: Sequence[Operand]) -> str:
    """How an oracle's worker names a cell in the answers it sends back: ``D(uint16) P(bool)``."""
    return " ".join(f"{x.category}({x.dtype})" for x in operands)


def operands_of(
    rules: Operations, op: Operation, opts: Mapping[str, Any] | None = None
) -> tuple[Operand, ...]:
    """The operands ``op`` is asked about under ``rules`` and ``opts`` (``Operations.operands``);
    a unary operation or a reduction takes arrays only."""
    found = rules.operands(opts)
    return tuple(x for x in found if x.category != PYTHON) if takes_one(op) else found
