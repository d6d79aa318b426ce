"""The oracle protocol: what ``promote verify`` and ``promote measure`` ask a framework, and the
typed records it answers.

A *question* (``Question``) is one cell: a pair, a triple under one of the two n-ary questions
(``result_type``, ``chain``), a valued Python scalar with an array (asked as the chain), an
operation called on its operands, a spelling NumPy reads, or a program ``promote expr`` reads
(``expression``: its code in ``text``, its names ``x``, ``y``, ``z`` bound in order to the
``operands``, and in ``function`` the framework's function of each operation it calls). The
questions asked are one enumeration (``promote_cli.verify.cases``).

An *answer* is one record per question (``Cell``):

- ``Result(dtype)``: the canonical dtype the framework gave (a weak result as ``float*``);
- ``Refusal(message)``: the framework raised, by a rule; its message's first line;
- ``Gap(message, dtype)``: the framework raised for want of a CPU kernel, not by a rule;
  ``dtype`` is the type its own dtype rule gave, when the message names it;
- ``Unobservable(message)``: the framework cannot show its answer to this question (PyTorch's
  n-ary ``addcmul`` takes no Python scalars);
- ``Nodes(cells)``: a program's answer, a record per node in evaluation order (None for a name,
  a literal, and each node after one that raised).

A framework's oracle is the module ``promote_cli/frameworks/<name>/oracle.py``. It declares
``RUNS`` (in promote's process, or in a worker process of its own, and why) and ``ASKS`` (the
kinds of question it answers), and three functions: ``load()`` imports the framework (the
only place it is imported; ``ImportError`` when it is not installed) and returns a handle,
``version(handle)``, and ``answer(handle, opts, questions)``, the one function that answers
every kind of question under one option setting, one record each, in order. An oracle that
declares a ``Primitives`` class (``Asks.expressions``: ``verify.expressions.Primitives``) has
its programs run by ``promote_cli.verify.expressions`` on those primitives
(``expressions.answered_by``, which ``asking`` is given), not by its ``answer``. Only the
framework's own exceptions become refusals or gaps, and one function per framework tells a
missing kernel from a refusal; any other exception is a bug in the oracle and stops the run.
Everything else about the framework (its name, what installs it, its options) is its entry's
(``promote_cli.frameworks.<name>``).

This module is light on purpose: a worker process and ``promote measure``'s files read the same
records, as JSON (``encode``/``decode``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from promote_cli.operands import PYTHON, Operand, Value, value_text
from promote_cli.record import Record

# The kinds of question.
PAIR, RESULT_TYPE, CHAIN, VALUE, OPERATION, SPELLING, EXPRESSION = (
    "pair",
    "result_type",
    "chain",
    "value",
    "operation",
    "spelling",
    "expression",
)
KINDS = (PAIR, RESULT_TYPE, CHAIN, VALUE, OPERATION, SPELLING, EXPRESSION)
# The phases a run goes through, by the kind of question: what a progress bar names.
PHASES = {
    PAIR: "pairs",
    RESULT_TYPE: "triples",
    CHAIN: "triples",
    VALUE: "values",
    SPELLING: "spellings",
    OPERATION: "operations",
    EXPRESSION: "expressions",
}

# The longest message a record keeps: a framework's first line, never its C++ stack.
MESSAGE = 300


class Question(Record):
    """One cell asked of a framework."""

    kind: str  # one of KINDS
    operands: tuple[Operand, ...] = ()
    operation: str = ""  # OPERATION: the vocabulary's name (``divide``)
    function: str = ""  # OPERATION: the framework's own spelling of it (``np.divide``)
    text: str = ""  # SPELLING: what is read (``<f4``); EXPRESSION: the program's code


class Result(Record):
    dtype: str
    # ``a op= b``: the name was bound to a new array (the framework does not update in place)
    rebound: bool = False


class Refusal(Record):
    message: str


class Gap(Record):
    message: str
    dtype: str | None = None  # the output type the framework's dtype rule named, if it did


class Unobservable(Record):
    message: str


class Nodes(Record):
    """A program's answer (EXPRESSION): a record per node, in evaluation order; None for a name,
    a literal, and every node after one that raised."""

    cells: tuple[Cell | None, ...]


Cell = Result | Refusal | Gap | Unobservable | Nodes


class Runs(Record):
    """Where an oracle runs, and why.

    In promote's process (``worker=False``) unless the framework needs a process to itself: it
    fixes a global at import (Keras's backend), its libraries clash with another framework's,
    or its import is too large to keep. A worker oracle's ``requires`` are the modules that
    must be installed (looked up, not imported, in promote's process); ``per`` names the
    options whose every value needs a process of its own; ``env`` is added to the worker's
    environment (``{backend}`` is that option's value); ``timeout`` bounds each request."""

    worker: bool
    why: str
    requires: tuple[str, ...] = ()
    per: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    timeout: float = 600.0


def in_process(why: str) -> Runs:
    return Runs(False, why)


def in_worker(
    why: str,
    *,
    requires: tuple[str, ...],
    per: tuple[str, ...] = (),
    env: Mapping[str, str] | None = None,
    timeout: float = 600.0,
) -> Runs:
    return Runs(True, why, requires, per, tuple((env or {}).items()), timeout)


class Asks(Record):
    """The kinds of question an oracle answers (pairs always)."""

    nary: bool = False  # triples under both n-ary questions, and valued Python scalars
    operations: bool = False  # every operation the policy declares, called
    # every binary operation and operator called with each valued Python scalar of
    # ``cases.VALUES``, in both orders (the oracle passes the value itself)
    operation_values: bool = False
    spellings: tuple[str, ...] = ()  # what the framework is asked to read as a dtype (NumPy)
    # random programs (``promote expr``'s) run for real, node by node, on the primitives the
    # oracle's ``Primitives`` class provides (``verify.expressions``), under every setting,
    # for a policy whose ``promote expr`` answers are checked (``expressions.checked``)
    expressions: bool = False


class Oracle(Protocol):
    """A framework's oracle module (or anything shaped like one)."""

    RUNS: Runs
    ASKS: Asks

    def load(self) -> Any: ...

    def version(self, handle: Any) -> str: ...

    def answer(
        self, handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]
    ) -> list[Cell]: ...


@contextmanager
def opened(orc: Oracle) -> Iterator[Any]:
    """``orc.load()``'s handle for the block, closed after it when it can be (a worker
    oracle's processes end). ``ImportError`` when the framework is not installed."""
    handle = orc.load()
    try:
        yield handle
    finally:
        close = getattr(handle, "close", None)
        if callable(close):
            close()


def asking(
    orc: Oracle,
    handle: Any,
    batches: Sequence[tuple[Mapping[str, Any], Any]],
    progress: Callable[[int, int, str], None] | None = None,
    answer: Callable[[Any, Any, Mapping[str, Any], Sequence[Question]], list[Cell]] | None = None,
) -> Iterator[tuple[Mapping[str, Any], Any, list[Cell]]]:
    """Each batch of questions (``cases.plan``'s ``(options, Batch)``) asked of the framework
    in order, with its records: what ``promote verify`` compares and ``promote measure``
    writes. ``progress(done, total, phase)`` hears of each batch, each phase (``PHASES``:
    pairs, triples, values, spellings, operations) counting from 0 to its own total; a triple,
    asked both n-ary questions, counts once. ``answer(orc, handle, opts, questions)`` asks a
    batch (default: ``orc.answer``; ``expressions.answered_by`` runs programs too)."""
    totals: dict[str, int] = {}
    for _, batch in batches:
        phase = PHASES[batch.kind]
        totals[phase] = totals.get(phase, 0) + len(batch.questions)
    done = dict.fromkeys(totals, 0)
    share = {p: 2 if p == "triples" else 1 for p in totals}  # questions a unit is
    for opts, batch in batches:
        phase = PHASES[batch.kind]
        if progress and done[phase] == 0:
            progress(0, totals[phase] // share[phase], phase)
        if answer is None:
            cells = orc.answer(handle, opts, batch.questions)
        else:
            cells = answer(orc, handle, opts, batch.questions)
        if len(cells) != len(batch.questions):
            raise RuntimeError(f"an oracle answered {len(cells)} of {len(batch.questions)}")
        yield opts, batch, cells
        done[phase] += len(cells)
        if progress:
            progress(done[phase] // share[phase], totals[phase] // share[phase], phase)


class Refused(Exception):
    """Raised inside an oracle for a refusal it words itself ("NumPy has no dtype int4")."""


class NotObservable(Exception):
    """Raised inside an oracle for a question the framework cannot show an answer to."""


def first_line(error: BaseException | str) -> str:
    """A message's first non-empty line (a framework's C++ stack dropped), capped; an
    exception as ``Type: line``."""
    text = str(error)
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    line = lines[0] if lines else ""
    if isinstance(error, BaseException):
        line = f"{type(error).__name__}: {line}"
    return line[:MESSAGE]


def said(exc: BaseException) -> str:
    """``Type: message``, every line: what a framework's missing kernel is read from."""
    return f"{type(exc).__name__}: {exc}"


# --- JSON: how a worker and a measurement file spell questions and records -------------------


def operand_key(op: Operand) -> str:
    """``D(int8)``, ``S(int8)``, ``N(int8)``, ``P(float*)``, ``P(bool)``; a valued Python
    scalar as ``int:300`` (``KIND:VALUE``, as ``promote pair`` reads it), a valued 0-d array or
    NumPy scalar as ``S(int64)=300``."""
    if op.value is not None and op.category != PYTHON:
        return f"{op.category}({op.dtype})={value_text(op.value)}"
    if op.value is not None:
        return f"{type(op.value).__name__}:{value_text(op.value)}"
    return f"{op.category}({op.dtype})"


_KINDS = {"bool": "bool", "int": "int*", "float": "float*", "complex": "complex*"}


def operand_of(key: str) -> Operand:
    """The operand ``operand_key`` spells (canonical names only: no notation is read)."""
    if key[:2] in ("D(", "S(", "P(", "N(") and key.endswith(")"):
        return Operand(key[2:-1], key[0])
    if key[:2] in ("S(", "N(") and ")=" in key:
        from promote_cli.operands import held_value

        dtype, _, held = key[2:].partition(")=")
        return Operand(dtype, key[0], held_value(dtype, held))
    kind, _, text = key.partition(":")
    value: Value
    if kind == "bool":
        value = text == "true"
    elif kind == "int":
        value = int(text)
    elif kind == "float":
        value = float(text)
    elif kind == "complex":
        value = complex(text)
    else:
        raise ValueError(f"not an operand key: {key!r}")
    return Operand(_KINDS[kind], PYTHON, value)


def encode_question(q: Question) -> list[Any]:
    return [q.kind, [operand_key(x) for x in q.operands], q.operation, q.function, q.text]


def decode_question(data: Sequence[Any]) -> Question:
    kind, keys, operation, function, text = data
    return Question(kind, tuple(operand_of(k) for k in keys), operation, function, text)


def encode(cell: Cell) -> str | list[Any]:
    """A record as JSON: a result as its dtype (``["rebound", dtype]`` when ``a op= b`` bound
    the name to a new array), else ``["refused", message]``, ``["gap", message, dtype or
    null]``, ``["unobservable", message]``, a program's ``["nodes", [record or null, ...]]``."""
    if isinstance(cell, Nodes):
        return ["nodes", [None if c is None else encode(c) for c in cell.cells]]
    if isinstance(cell, Result):
        return ["rebound", cell.dtype] if cell.rebound else cell.dtype
    if isinstance(cell, Refusal):
        return ["refused", cell.message]
    if isinstance(cell, Gap):
        return ["gap", cell.message, cell.dtype]
    return ["unobservable", cell.message]


def decode(data: Any) -> Cell:
    """A record ``encode`` made, its schema checked (a worker's records are untrusted): a
    ``ValueError`` for anything else, a dtype that is no short name or a message that is no
    string."""
    if isinstance(data, str):
        return Result(_dtype_name(data))
    if not isinstance(data, list) or len(data) < 2 or not isinstance(data[0], str):
        raise ValueError("not a cell record")
    tag, message, *rest = data
    if tag == "nodes" and isinstance(message, list) and not rest:
        return Nodes(tuple(None if c is None else decode(c) for c in message))
    if not isinstance(message, str):
        raise ValueError("not a cell record: its message is not a string")
    if tag == "rebound" and not rest:
        return Result(_dtype_name(message), rebound=True)
    if tag == "refused" and not rest:
        return Refusal(message)
    if tag == "gap" and len(rest) <= 1:
        dtype = rest[0] if rest else None
        return Gap(message, None if dtype is None else _dtype_name(dtype))
    if tag == "unobservable" and not rest:
        return Unobservable(message)
    raise ValueError("not a cell record")


def _dtype_name(data: Any) -> str:
    """A dtype's name as an oracle answers it: a short word (``int8``, ``float32*``)."""
    if not isinstance(data, str) or not 0 < len(data) <= 64 or not data.isprintable():
        raise ValueError("not a cell record: a dtype that is not a short name")
    return data
