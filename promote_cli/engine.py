"""The policy engine: what a policy declares, and the questions asked of it: a pair
(``Policy.promote``), a matrix of pairs, and two questions about any number of operands:

- ``Policy.result_type``: the framework's own n-ary function (``np.result_type``,
  ``jnp.result_type``, torch's n-ary elementwise ops such as ``addcmul``, TensorFlow's
  ``flexible_dtypes.result_type``, array-api's ``result_type``; a left fold where the framework
  has none). A policy that promotes all operands at once defines ``join``.
- ``Policy.chain``: left-associated binary operators on real arrays, ``((a + b) + c)``. Each step
  is the policy's binary operator (``operate``: ``promote`` unless the operator departs from it);
  two Python scalars meet in Python first (``True + True`` is the int 2); the intermediate is an
  array, dimensioned when any input so far was, else 0-d, and weakly typed when the step's result
  is (``carried``).

A Python scalar that carries a value (``int:300``) is checked as the framework's operation checks
it (``check_value``), in both questions: that is the question a value asks. A new policy inherits
a plain fold, no operator departures and no value checks.

A table cell and ``promote pair`` both go through ``Policy.promote``, so they can never disagree.

An outcome's explanation names dtypes by reference (``ref("int8")``), not by label, so it can be
worded in whichever notation the user reads (``Outcome.text(notation)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from promote_cli.dtypes import WEAK, is_weak
from promote_cli.errors import PolicyDefinitionError, UsageError, did_you_mean
from promote_cli.operands import (
    DIMENSIONED,
    NUMPY_SCALAR,
    PYTHON,
    ZERO_D,
    Operand,
    python_kind,
    value_text,
)
from promote_cli.record import Record

if TYPE_CHECKING:
    from promote_cli.framework import Framework
    from promote_cli.notations import Column, Notation
    from promote_cli.options import Option

# Properties a policy declares as data; tests/properties/test_properties.py checks each declared
# one. TOTAL: every pair of the policy's own types promotes (no refusal) under default options.
SYMMETRIC, IDEMPOTENT, LATTICE, TOTAL = "symmetric", "idempotent", "lattice", "total"


_REF = r"\{([^{}\s]+)\}"  # compiled by ``re`` on first use: most runs explain nothing


def ref(canonical: str) -> str:
    """A dtype named inside an explanation: worded later in the reader's notation."""
    return "{" + canonical + "}"


class Materialised(Record):
    """What a weak result becomes when the framework makes it an array (``jnp.asarray``, a
    WeakTensor's dtype): the canonical dtype, and the option setting that decided it, worded
    for a reader (``with x64``; "" when no option matters)."""

    dtype: str
    condition: str = ""


# A Record, not a frozen dataclass: importing dataclasses costs ~8 ms of start-up.
class Outcome(Record):
    """One cell: a result (canonical name; weak ones as ``float*``) or a refusal with a reason."""

    result: str | None
    rule: str
    why: str  # one sentence, dtypes as ``ref``s: the rule's reasoning or the refusal's reason
    unsafe_result: str | None = None  # what an unsafe option would have given (OpenVINO)
    materialised: Materialised | None = None  # a weak result: what it becomes as an array
    steps: tuple[str, ...] = ()  # a chain's steps, dtypes as refs: ``int8 + uint8 -> int16``
    decided_by: str = ""  # an operation's answer: the step of ``steps.STEPS`` that decided it

    @property
    def refused(self) -> bool:
        return self.result is None

    def weak_note(self) -> str:
        """``weak; float64 with x64`` for a weak result ("" otherwise): what the framework
        makes of it once it is an array, and the option setting that decided."""
        m = self.materialised
        if m is None:
            return ""
        return f"weak; {m.dtype}{' ' + m.condition if m.condition else ''}"

    def text(self, nota: Notation) -> str:
        """``why`` with each referenced dtype spelled in ``nota``."""
        return worded(self.why, nota)


def worded(text: str, nota: Notation) -> str:
    """``text`` with each referenced dtype spelled in ``nota``."""
    return re.sub(_REF, lambda m: nota.label(m.group(1)), text) if "{" in text else text


def refuse(rule: str, reason: str, unsafe_result: str | None = None) -> Outcome:
    return Outcome(None, rule, reason, unsafe_result)


# A refusal of promote's own (``Outcome.rule``): the framework answers the question, but by a
# rule promote does not model (MindSpore's Mul with a 0-d tensor, np.result_type of three
# operands with an ml_dtypes 0.7 type), so promote says so rather than answer another question;
# ``promote verify`` and the offline comparison count the cell as declined, never compared.
DECLINED = "declined"


def decline(reason: str) -> Outcome:
    return Outcome(None, DECLINED, f"not modelled: {reason}")


class Policy:
    """A framework's promotion rules. Subclasses declare the class attributes and ``decide``;
    ``decide`` must be pure (options are arguments, never globals). A built-in policy names its
    framework's entry (``class JaxPolicy(LatticePolicy, framework=FRAMEWORK)``), which gives it
    its name, title, source, notation and options."""

    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]  # where the rules come from
    notation_name: ClassVar[str]
    declared_in: ClassVar[Column | Notation]  # the notation its declarations are written in
    dialect: ClassVar[str] = ""  # a notation whose own reader reads first ("numpy": np.dtype)
    # Its framework's directory (``promote_cli.frameworks.jax``), where the functions its
    # operation rules name by name are looked up ("" for a policy file).
    package: ClassVar[str] = ""
    universe: tuple[str, ...]  # canonical names the policy promotes
    default_types: ClassVar[tuple[str, ...]]  # the default table, in the policy's order
    known_unsupported: ClassVar[Mapping[str, str]] = {}  # type -> why the framework refuses it
    # type -> why promote declines it (DECLINED): the framework has arrays of it and answers
    # some questions about them, by rules promote does not model (Paddle's uint32)
    declined_types: ClassVar[Mapping[str, str]] = {}
    options: ClassVar[tuple[Option, ...]] = ()
    # A bool option -> the types it adds to the universe when true (NumPy's ml_dtypes).
    option_types: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    categories: frozenset[str] = frozenset({DIMENSIONED})  # categories that matter
    holds_values: bool = False  # whether S(t)=v / N(t)=v values are read (NumPy's)
    properties: frozenset[str] = frozenset({SYMMETRIC, IDEMPOTENT})
    compared_with: str | None = None  # the neighbour its own docs highlight against
    file: str | None = None  # the TOML file that declares it (``promote_cli.policyfile``)

    def __init_subclass__(cls, framework: Framework | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if framework is not None:
            cls.name, cls.title, cls.source = framework.name, framework.title, framework.source
            cls.notation_name, cls.dialect = framework.notation, framework.dialect
            cls.options = framework.options
            cls.declared_in = framework.declared_in
            cls.package = framework.package

    @property
    def spelling(self) -> str:
        """How a command line names the policy: its file, or its name."""
        return self.file or self.name

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        raise NotImplementedError

    def excluded(self, opts: Mapping[str, Any]) -> str:
        """Why the option setting ``opts`` is not enumerated (verify, measure), or ""."""
        return ""

    def held_values(self, opts: Mapping[str, Any], values: Sequence[Any]) -> tuple[Operand, ...]:
        """The 0-d arrays and NumPy scalars holding one of ``values`` (``S(int64)=300``) that
        verify asks with every array under ``opts``, beside the Python values: none unless a
        policy reads such values (NumPy's legacy promotion)."""
        return ()

    def diff_marks(self, left: Mapping[str, Any], right: Mapping[str, Any]) -> Any:
        """What ``promote diff`` shows beside the cells of this policy under two option
        settings (``compare.Marks``: which cells NumPy 1.26's ``weak_and_warn`` warns about,
        for its two promotions), or None."""
        return None

    def materialise(self, weak: str, opts: Mapping[str, Any]) -> Materialised:
        """What the weak result ``weak`` becomes as an array under ``opts``. A policy whose
        rules give weak results declares it; one that gives none never gets here."""
        raise PolicyDefinitionError(
            f"policy {self.name} gave the weak result {weak} but does not say what it"
            " materialises as"
        )

    def universe_for(self, opts: Mapping[str, Any] | None) -> tuple[str, ...]:
        """The types the policy promotes under ``opts``: its universe and those its options
        add (None: the default options)."""
        if not self.option_types:
            return self.universe
        added = [types for name, types in self.option_types.items() if (opts or {}).get(name)]
        return (*self.universe, *(t for types in added for t in types))

    def operands(self, opts: Mapping[str, Any] | None = None) -> tuple[Operand, ...]:
        """Every operand the policy can be asked about under ``opts`` (None: the default
        options): each type of its universe as an array, as a 0-d array when that category
        matters, and the Python scalars when they do."""
        universe = self.universe_for(opts)
        strong = [t for t in universe if not is_weak(t)]
        ops = [Operand(t, DIMENSIONED) for t in strong]
        if ZERO_D in self.categories:
            ops += [Operand(t, ZERO_D) for t in strong]
        if PYTHON in self.categories:
            weak = dict.fromkeys((*WEAK, *(t for t in universe if is_weak(t))))
            ops += [Operand("bool", PYTHON), *(Operand(t, PYTHON) for t in weak)]
        return tuple(ops)

    def resolve_options(
        self, given: Mapping[str, Any] | None = None, nota: Notation | None = None
    ) -> dict[str, Any]:
        """Every option with its value: the given ones parsed (a dtype value read in ``nota``;
        without one, only a canonical name), the rest at their defaults."""
        given = dict(given or {})
        out = {}
        for opt in self.options:
            out[opt.name] = (
                opt.parse(given.pop(opt.name), nota) if opt.name in given else opt.default
            )
        if given:
            names = ", ".join(o.name for o in self.options) or "none"
            unknown = next(iter(given))
            raise UsageError(
                f"policy {self.name} has no option {unknown!r} (options: {names})"
                + did_you_mean(unknown, (o.name for o in self.options))
            )
        return out

    def normalise(self, op: Operand, opts: Mapping[str, Any] | None = None) -> Operand | Outcome:
        """Map an operand onto what the rules see under ``opts``, or refuse it outright."""
        universe = self.universe_for(opts)
        if op.category == PYTHON and PYTHON not in self.categories:
            return refuse(
                "operand", f"{self.title} has no Python scalar operands ({ref(op.dtype)})"
            )
        if op.category == PYTHON and op.dtype not in ("bool", *WEAK, *universe):
            # A weak type of another framework, such as TensorFlow's int32*.
            return refuse(
                "unsupported",
                f"{self.title} has no weak type {ref(op.dtype)}; write a"
                " Python scalar as int, float, complex or P(bool)",
            )
        if op.category == NUMPY_SCALAR and NUMPY_SCALAR not in self.categories:
            return refuse(
                "operand", f"{self.title} has no NumPy scalars (N({op.dtype})): write {op.dtype}"
            )
        if op.category != PYTHON and op.value is not None and not self.holds_values:
            return refuse(
                "operand",
                f"{self.title} does not look at a 0-d array's value: write S({op.dtype})",
            )
        if op.category == ZERO_D and ZERO_D not in self.categories:
            op = Operand(op.dtype, DIMENSIONED)
        if op.category != PYTHON and op.dtype in self.declined_types:
            return refuse(DECLINED, self.declined_types[op.dtype])
        if op.category != PYTHON and op.dtype not in universe:
            why = self.known_unsupported.get(op.dtype) or self.missing_reason(op.dtype)
            return refuse("unsupported", why)
        return op

    def _all_normalised(
        self, operands: Sequence[Operand], opts: Mapping[str, Any]
    ) -> list[Operand] | Outcome:
        """Every operand as the rules see it, or the first refusal."""
        out = []
        for op in operands:
            n = self.normalise(op, opts)
            if isinstance(n, Outcome):
                return n
            out.append(n)
        return out

    def missing_reason(self, dtype: str) -> str:
        """Why the policy refuses ``dtype``, a type outside its universe under the options
        asked; it names the option that would add it."""
        for name, types in self.option_types.items():
            if dtype in types:
                return f"{self.title} has no {ref(dtype)} type unless -O {name}=true"
        return f"{self.title} has no {ref(dtype)} type"

    # How the policy answers for more than two operands. A policy that promotes all operands
    # at once (a lattice's least upper bound, PyTorch's categories) defines ``join(operands,
    # opts)``; one without it folds left, one pair at a time, as its framework's graph does.
    join: Callable[[Sequence[Operand], Mapping[str, Any]], Outcome] | None = None

    def result_type(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """The n-ary question, the framework's own ``result_type(a, b, ...)``: all operands at
        once (``join``) or, for a policy without one, a left fold of ``promote``. ``opts`` must
        come from ``resolve_options``."""
        if len(operands) < 2:
            raise UsageError("at least two operands are needed")
        if self.join is None:
            out = self._fold(operands, opts)
        else:
            normalised = self._all_normalised(operands, opts)
            if isinstance(normalised, Outcome):
                return normalised
            out = self._with_materialised(self.join(normalised, opts), opts)
        if out.refused:
            return out
        return self._values_checked(operands, opts) or out

    def _values_checked(
        self, operands: Sequence[Operand], opts: Mapping[str, Any]
    ) -> Outcome | None:
        """The refusal of the first valued Python scalar that does not fit, checked against the
        result of the arrays (None: every value fits, or none was given)."""
        valued = [op for op in operands if op.category == PYTHON and op.value is not None]
        if not valued:
            return None
        arrays = [op for op in operands if op.category != PYTHON]
        against = None
        if len(arrays) == 1:
            against = arrays[0].dtype
        elif arrays:
            against = self.result_type(arrays, opts).result
        for scalar in valued:
            out = self.check_value(scalar, against, opts)
            if out is not None:
                return out
        return None

    # The chain question's declarations; each default is what a framework without a departure
    # does, so a new policy needs none of them.
    def operate(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """The dtype of the binary operator ``a + b`` on real arrays: ``promote`` unless the
        policy's operator departs from its promotion (a missing kernel, a conversion that
        raises)."""
        return self.promote(a, b, opts)

    def carried(self, a: Operand, b: Operand, out: Outcome, opts: Mapping[str, Any]) -> Operand:
        """The array ``a + b`` gave, as the next step sees it: dimensioned when an input was,
        else 0-d; weakly typed when the result is weak."""
        assert out.result is not None
        dimensioned = DIMENSIONED in (a.category, b.category)
        return Operand(out.result, DIMENSIONED if dimensioned else ZERO_D)

    def made(self, dtype: str, opts: Mapping[str, Any]) -> str:
        """The dtype of the array the framework makes when code asks for one of ``dtype`` under
        ``opts`` (an array bound to a name, ``x.astype(dtype)``): ``dtype`` itself unless the
        framework narrows it (JAX without x64 makes complex128 complex64)."""
        return dtype

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """The framework's refusal when the valued Python scalar ``scalar`` meets an array of
        ``against`` (None: no array), or None when it fits. By default nothing is checked."""
        return None

    def chain(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """The chain question, ``((a + b) + c) ...`` on real arrays: a left fold of
        ``operate``, where two Python scalars meet in Python first and the intermediate is what
        ``carried`` makes of each step's array. The first refusal ends it; ``steps`` lists
        each step. ``opts`` must come from ``resolve_options``."""
        if len(operands) < 2:
            raise UsageError("at least two operands are needed")
        if _memo is not None:  # while ``remembering``, as ``promote`` keeps its answers
            key = ("chain", self, *operands, *opts.items())
            found = _memo.get(key)
            if found is None:
                found = _memo[key] = self._chain(operands, opts)
            return found
        return self._chain(operands, opts)

    def _chain(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        normalised = self._all_normalised(operands, opts)
        if isinstance(normalised, Outcome):
            return normalised
        left, steps = normalised[0], []
        out: Outcome | None = None
        for right in normalised[1:]:
            if _is_python_scalar(left) and _is_python_scalar(right):
                summed = _python_sum(left, right)
                if isinstance(summed, Outcome):
                    out = summed
                    steps.append(f"{_named(left)} + {_named(right)} -> refused")
                    break
                steps.append(
                    f"{_named(left)} + {_named(right)} -> {_named(summed)}: Python adds two"
                    " Python scalars itself"
                )
                left, out = summed, None
                continue
            out = self._operation(left, right, opts)
            if out.refused:
                steps.append(f"{_named(left)} + {_named(right)} -> refused")
                break
            carried = self.carried(left, right, out, opts)
            if carried.dtype != out.result:  # the array is weakly typed (JAX's u64 + i8)
                out = self._with_materialised(out._replace(result=carried.dtype), opts)
            steps.append(f"{_named(left)} + {_named(right)} -> {_named(carried)}")
            left = carried
        if out is None:  # Python scalars only: Python answered, no array was made
            return Outcome(
                left.dtype,
                "python",
                f"only Python scalars: Python computes a Python {python_kind(left)}",
                steps=tuple(steps),
            )
        return out._replace(steps=tuple(steps))

    def _operation(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """One step of a chain: the operator's dtype, then the value check its scalar meets."""
        out = self.operate(a, b, opts)
        if out.refused:
            return out
        for scalar, array in ((a, b), (b, a)):
            if scalar.category == PYTHON and scalar.value is not None:
                checked = self.check_value(scalar, array.dtype, opts)
                if checked is not None:
                    return checked
        return out

    def _with_materialised(self, out: Outcome, opts: Mapping[str, Any]) -> Outcome:
        if out.result is None or not is_weak(out.result):
            return out
        return out._replace(materialised=self.materialise(out.result, opts))

    def _fold(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """A left fold of ``promote``; the first refusal ends it. The intermediate is what each
        step produced, in the category of the operands it has seen so far."""
        left, trail, out = operands[0], [], None
        for right in operands[1:]:
            out = self.promote(left, right, opts)
            verdict = "refused" if out.refused else ref(out.result)  # type: ignore[arg-type]
            trail.append(f"{ref(left.dtype)} x {ref(right.dtype)} -> {verdict}")
            if out.refused:
                break
            left = as_operand(out.result, (left, right))  # type: ignore[arg-type]
        assert out is not None
        if len(trail) == 1:
            return out
        return out._replace(why=f"folded left: {'; '.join(trail)}. {out.why}")

    def promote(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """The cell for ``a`` x ``b``; ``opts`` must come from ``resolve_options``."""
        if _memo is not None:
            key = (self, a, b, *opts.items())
            found = _memo.get(key)
            if found is None:
                found = _memo[key] = self._promote(a, b, opts)
            return found
        return self._promote(a, b, opts)

    def pair(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """The cell ``promote pair A B`` answers: ``promote``, refused where a valued Python
        scalar does not fit the other operand (``check_value``), as a table's and a diff's
        cells are."""
        out = self.promote(a, b, opts)
        if out.refused or (a.value is None and b.value is None):
            return out
        return self._values_checked((a, b), opts) or out

    def _promote(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        na = self.normalise(a, opts)
        if isinstance(na, Outcome):
            return na
        nb = self.normalise(b, opts)
        if isinstance(nb, Outcome):
            return nb
        return self._with_materialised(self.decide(na, nb, opts), opts)


# While ``remembering`` runs, each answer of ``Policy.promote`` and ``Policy.chain`` (and of a
# framework's own pair function, ``remembered``) is kept and given again: a whole verify or the
# offline comparison asks the same pairs over and over (every chain step, every operation's
# promotion, the chain without its values that each valued operation cell is checked against).
# A policy is pure, so the answers are the ones it would compute; the memory lasts only as long
# as the block, so nothing changed outside it (a test's stand-in rule) is ever answered from
# before.
_memo: dict[Any, Any] | None = None
_T = TypeVar("_T")


def remembered(
    pair: Callable[[Operand, Operand, Mapping[str, Any]], Outcome],
    a: Operand,
    b: Operand,
    opts: Mapping[str, Any],
) -> Outcome:
    """``pair(a, b, opts)`` for a framework's own pair function (an operation's promotion that
    is not ``Policy.promote``), kept while ``remembering`` runs as ``Policy.promote``'s
    answers are: every operation of a batch starts from the same few promotions."""
    return remembered_as((pair, a, b, *opts.items()), lambda: pair(a, b, opts))


def remembered_as(key: tuple[Any, ...], compute: Callable[[], _T]) -> _T:
    """``compute()``, kept under ``key`` while ``remembering`` runs (every name in the key
    hashable, and standing for what the answer depends on)."""
    if _memo is None:
        return compute()
    found = _memo.get(key)
    if found is None:
        found = _memo[key] = compute()
    return found


@contextmanager
def remembering() -> Iterator[None]:
    """Keep the policies' answers for the duration of the block."""
    global _memo
    outer = _memo
    if outer is None:
        _memo = {}
    try:
        yield
    finally:
        _memo = outer


_PYTHON_RANK = ("bool", "int*", "float*", "complex*")


def _python_sum(a: Operand, b: Operand) -> Operand | Outcome:
    """``a + b`` for two Python scalars, as Python computes it: the higher kind, at least int
    (``True + True`` is the int 2); the value when both carry one."""
    rank = max(_PYTHON_RANK.index(a.dtype), _PYTHON_RANK.index(b.dtype), 1)
    value = None
    if a.value is not None and b.value is not None:
        try:
            value = a.value + b.value
        except OverflowError as exc:
            return refuse("python", f"Python raises OverflowError: {exc}")
    return Operand(_PYTHON_RANK[rank], PYTHON, value)


def _is_python_scalar(op: Operand) -> bool:
    """A Python bool, int, float or complex (not a weak array such as TensorFlow's i64*)."""
    return op.category == PYTHON and op.dtype in _PYTHON_RANK


def _named(op: Operand) -> str:
    """An operand inside an explanation: ``{int8}``, ``S({int8})``, ``int:300``, ``P(bool)``."""
    if op.category == PYTHON:
        if op.value is not None:
            return f"{python_kind(op)}:{value_text(op.value)}"
        return "P(bool)" if op.dtype == "bool" else ref(op.dtype)
    if op.category == ZERO_D:
        return f"S({ref(op.dtype)})"
    return f"{ref(op.dtype)} (a weakly typed array)" if is_weak(op.dtype) else ref(op.dtype)


def as_operand(result: str, seen: Iterable[Operand]) -> Operand:
    """The operand a result becomes when it meets the next one: a weak result stays a Python
    scalar; a dimensioned input makes it a dimensioned array, else it is 0-d."""
    if is_weak(result):
        return Operand.of(result)
    categories = {op.category for op in seen}
    return Operand(result, DIMENSIONED if DIMENSIONED in categories else ZERO_D)


class Matrix(Record):
    policy: Policy
    options: Mapping[str, Any]
    rows: tuple[Operand, ...]
    cols: tuple[Operand, ...]
    cells: tuple[tuple[Outcome, ...], ...]

    def cell(self, i: int, j: int) -> Outcome:
        return self.cells[i][j]


# What a table's cell asks of two operands: their promotion, or an operation's output.
Cell = Callable[[Operand, Operand], Outcome]


def matrix(
    policy: Policy,
    rows: Sequence[Operand] | None,
    cols: Sequence[Operand] | None,
    opts: Mapping[str, Any],
    cell: Cell | None = None,
) -> Matrix:
    """Every cell of ``rows`` x ``cols`` (None: the policy's default table), each ``cell(a,
    b)`` (default: the promotion); ``opts`` must come from ``resolve_options``."""
    r = tuple(rows) if rows is not None else tuple(Operand.of(t) for t in policy.default_types)
    c = tuple(cols) if cols is not None else r
    ask = cell or (lambda a, b: policy.pair(a, b, opts))
    cells = tuple(tuple(ask(a, b) for b in c) for a in r)
    return Matrix(policy, opts, r, c, cells)


def differs(x: Outcome, y: Outcome) -> bool:
    """Two cells differ when their answers differ; two refusals give the same answer."""
    return x.result != y.result
