"""Measurements: what each framework answered, checked in beside its rules as package data.

``promote measure NAME`` asks the installed framework every question ``promote verify`` asks
(``cases.plan``, operations included) and writes the answers, with the framework's version and
the date, as JSON under ``promote_cli/frameworks/<name>/measured/``, one file per family of
questions:

- ``pairs.json``: every option setting x every ordered pair of the policy's operands;
- ``nary.json``: the triples drawn with ``cases.SEED`` (each under ``result_type`` and the
  chain) and the valued Python scalars, for an oracle that answers them;
- ``operations.json``: every case of every operation, for an oracle that calls them;
- ``spellings.json``: what NumPy reads each spelling as;
- ``expressions.json``: the random programs (``verify.expressions``) run node by node, for an
  oracle that runs them: each setting's ``functions`` (an operation's function under it) and a
  program a line, ``[codes, bindings, code]``: a code per node in evaluation order (``.`` for a
  name, a literal and each node after one that raised), the operands bound to ``x``, ``y``,
  ``z``, and the program.

A file lists its answers once (``answers``: a dtype name, ``["rebound", dtype]`` when ``a op=
b`` bound the name to a new array, ``["refused"]``, ``["gap"]`` or
``["gap", dtype]`` for a missing kernel and the type the framework named, ``["unobservable"]``)
and spells each cell as that answer's code: one character (two when a file has more than 62
answers) from ``CODES``, a row of them per operand, ``.`` for a case not asked. Operands and
options are spelled in canonical names (``D(int8)``, ``P(float*)``, ``int:300``). The
framework's messages are not kept: they change wording between releases, and nothing is
compared on them (``promote verify`` shows them live). Rendering is deterministic, and a file
whose answers have not changed keeps its date.

``verify/offline`` compares these files with the rules.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from promote_cli import atomic, targets
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.operands import valued as valued_operand
from promote_cli.record import Record
from promote_cli.verify.cases import VALUES, Batch, drawn, plan, settings
from promote_cli.verify.protocol import (
    CHAIN,
    EXPRESSION,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    SPELLING,
    VALUE,
    Cell,
    Gap,
    Nodes,
    Oracle,
    Question,
    Refusal,
    Result,
    Unobservable,
    asking,
    opened,
    operand_key,
    operand_of,
)

if TYPE_CHECKING:
    from promote_cli.engine import Policy
    from promote_cli.framework import Framework
    from promote_cli.rules import Operations

FORMAT = 1
# The files, and the kinds of question each holds.
FILES: Mapping[str, tuple[str, ...]] = {
    "pairs": (PAIR,),
    "nary": (RESULT_TYPE, CHAIN, VALUE),
    "operations": (OPERATION,),
    "spellings": (SPELLING,),
    "expressions": (EXPRESSION,),
}
CODES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
NOT_ASKED = "."
_LINE = 100  # codes per line of a long list (triples)


class Measured(Record):
    """One measurement file: its header and every cell, as asked."""

    framework: str  # the policy's name
    version: str
    date: str
    cells: list[tuple[Mapping[str, Any], Question, Cell]]


# --- asking -------------------------------------------------------------------------------


def ask(
    policy: Policy,
    orc: Oracle,
    rules: Operations | None,
    progress: Callable[[int, int, str], None] | None = None,
    pinned: Mapping[str, Any] | None = None,
) -> tuple[str, list[tuple[Mapping[str, Any], Batch, list[Cell]]]]:
    """Every question of the enumeration (under ``pinned`` options) asked of ``orc``: the
    framework's version and the answered batches, in order. ``ImportError`` when the
    framework is not installed. ``timeout``: each request's limit in seconds (``driver.oracle``)."""
    from promote_cli.verify.expressions import answered_by

    asked = plan(policy, settings(policy, pinned), orc.ASKS, rules)
    with opened(orc) as handle:
        out = list(asking(orc, handle, asked, progress, answered_by))
        version = orc.version(handle)
    return version, out


# --- writing ------------------------------------------------------------------------------


def record(cell: Cell) -> str | list[str]:
    """How a file lists an answer (a program's, ``Nodes``, as one list: each node's answer
    spelled as JSON, ``.`` for none; compared, never written)."""
    if isinstance(cell, Nodes):
        return ["nodes", *(NOT_ASKED if c is None else json.dumps(record(c)) for c in cell.cells)]
    if isinstance(cell, Result):
        return ["rebound", cell.dtype] if cell.rebound else cell.dtype
    if isinstance(cell, Refusal):
        return ["refused"]
    if isinstance(cell, Gap):
        return ["gap"] if cell.dtype is None else ["gap", cell.dtype]
    return ["unobservable"]


def cell_of(answer: str | list[str]) -> Cell:
    if isinstance(answer, str):
        return Result(answer)
    if answer[0] == "rebound":
        return Result(answer[1], rebound=True)
    if answer[0] == "refused":
        return Refusal("")
    if answer[0] == "gap":
        return Gap("", answer[1] if len(answer) > 1 else None)
    if answer[0] == "unobservable":
        return Unobservable("")
    raise ValueError(f"not a measured answer: {answer!r}")


def _sort_key(answer: str | list[str]) -> tuple[int, str]:
    return (0, answer) if isinstance(answer, str) else (1, " ".join(answer))


def _flat(cells: Iterator[Cell]) -> Iterator[Cell]:
    """The records of ``cells``, a program's (``Nodes``) one by one."""
    for c in cells:
        if isinstance(c, Nodes):
            yield from (x for x in c.cells if x is not None)
        else:
            yield c


class _Palette:
    """The answers of one file, each with its code."""

    def __init__(self, cells: Iterator[Cell]) -> None:
        distinct = {json.dumps(record(c)): record(c) for c in _flat(cells)}
        self.answers = sorted(distinct.values(), key=_sort_key)
        self.width = 1 if len(self.answers) <= len(CODES) else 2
        if len(self.answers) > len(CODES) ** self.width:
            raise ValueError(f"{len(self.answers)} distinct answers: too many to code")
        self.code = {json.dumps(a): self._code(i) for i, a in enumerate(self.answers)}

    def _code(self, i: int) -> str:
        digits = ""
        for _ in range(self.width):
            i, digit = divmod(i, len(CODES))
            digits = CODES[digit] + digits
        return digits

    def __call__(self, cell: Cell | None) -> str:
        return NOT_ASKED * self.width if cell is None else self.code[json.dumps(record(cell))]


def render(
    name: str,
    version: str,
    date: str,
    file: str,
    answered: Sequence[tuple[Mapping[str, Any], Batch, list[Cell]]],
) -> str | None:
    """The text of one measurement file (None: the oracle answers none of its questions)."""
    kinds = FILES[file]
    mine = [(opts, b, cells) for opts, b, cells in answered if b.kind in kinds]
    if not mine:
        return None
    code = _Palette(c for _, _, cells in mine for c in cells)
    # Each setting's operands, in the order the pairs ask them (the triples draw from them).
    operands = {
        json.dumps(opts, sort_keys=True): list(dict.fromkeys(q.operands[0] for q in b.questions))
        for opts, b, _ in answered
        if b.kind == PAIR
    }
    by_setting: dict[str, dict[str, Any]] = {}
    for opts, batch, cells in mine:
        key = json.dumps(opts, sort_keys=True)
        setting = by_setting.setdefault(key, {"options": dict(opts)})
        if batch.kind in (PAIR, RESULT_TYPE) and "operands" not in setting:
            setting["operands"] = [operand_key(op) for op in operands[key]]
        if batch.kind == OPERATION and "operands" not in setting:
            # The operations' operands, in the order the enumeration takes them.
            seen = [
                x
                for o, b, _ in mine
                if o == opts
                for q in b.questions
                for x in q.operands
                if x.value is None  # a valued scalar is a row of its own (``values``)
            ]
            # In the pairs' order (0-d arrays, asked of fewer operations, come in late).
            order = {x: i for i, x in enumerate(operands.get(key, ()))}
            ordered = sorted(dict.fromkeys(seen), key=lambda x: order.get(x, len(order)))
            setting["operands"] = [operand_key(x) for x in ordered]
        _fill(setting, batch, cells, code)
    head = {"framework": name, "version": version, "measured": date, "format": FORMAT}
    head["width"] = code.width
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    asks_values = any(x.value is not None for _, b, _ in mine for x in b.questions[0].operands)
    if file == "nary":
        lines.append(f'  "values": {json.dumps(_valued_keys(mine))},')
    elif asks_values:
        valued = [operand_key(valued_operand(v)) for v in VALUES]
        lines.append(f'  "values": {json.dumps(valued)},')
    lines.append('  "answers": [')
    lines += [f"    {json.dumps(a)}," for a in code.answers]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["  ],", '  "settings": [']
    for setting in by_setting.values():
        lines.append("    {")
        fields = list(setting.items())
        for i, (k, v) in enumerate(fields):
            comma = "," if i < len(fields) - 1 else ""
            lines += _field(k, v, comma)
        lines.append("    },")
    lines[-1] = lines[-1].rstrip(",")
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def _values_of(batch: Batch) -> list[Operand]:
    """The valued operands a batch of values asks with each array, in order."""
    values = dict.fromkeys(
        q.operands[1] for q in batch.questions if q.operands[0].category == DIMENSIONED
    )
    return list(values) or [valued_operand(v) for v in VALUES]


def _valued_keys(answered: Sequence[tuple[Mapping[str, Any], Batch, list[Cell]]]) -> list[str]:
    """The valued operands of a file's values (``cases.VALUES`` and any a policy holds), the
    same for each of its settings."""
    each = [_values_of(b) for _, b, _ in answered if b.kind == VALUE]
    keys = [[operand_key(op) for op in ops] for ops in each] or [
        [operand_key(valued_operand(v)) for v in VALUES]
    ]
    if any(k != keys[0] for k in keys):
        raise ValueError("the settings of one file ask different values")
    return keys[0]


def _field(key: str, value: Any, comma: str) -> list[str]:
    """One field of a setting: a list of rows one a line, a mapping of such lists nested."""
    pad = "      "
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if key in ("operands",):
            return [f"{pad}{json.dumps(key)}: {json.dumps(value)}{comma}"]
        rows = [f"{pad}  {json.dumps(v)}," for v in value]
        rows[-1] = rows[-1].rstrip(",")
        return [f"{pad}{json.dumps(key)}: [", *rows, f"{pad}]{comma}"]
    if isinstance(value, list) and key == "programs":
        rows = [f"{pad}  {json.dumps(v)}," for v in value]
        rows[-1] = rows[-1].rstrip(",")
        return [f"{pad}{json.dumps(key)}: [", *rows, f"{pad}]{comma}"]
    if isinstance(value, dict) and key == "operations":
        out = [f"{pad}{json.dumps(key)}: {{"]
        items = list(value.items())
        for i, (name, op) in enumerate(items):
            inner = "," if i < len(items) - 1 else ""
            out.append(f"{pad}  {json.dumps(name)}: {{")
            out.append(f'{pad}    "function": {json.dumps(op["function"])},')
            for field in ("cells", "values") if "values" in op else ("cells",):
                out.append(f"{pad}    {json.dumps(field)}: [")
                rows = [f"{pad}      {json.dumps(r)}," for r in op[field]]
                rows[-1] = rows[-1].rstrip(",")
                out += rows
                out.append(f"{pad}    ],")
            out[-1] = out[-1].rstrip(",")
            out.append(f"{pad}  }}{inner}")
        out.append(f"{pad}}}{comma}")
        return out
    return [f"{pad}{json.dumps(key)}: {json.dumps(value)}{comma}"]


def _rows(codes: Sequence[str], size: int) -> list[str]:
    return ["".join(codes[i : i + size]) for i in range(0, len(codes), size)]


def _fill(setting: dict[str, Any], batch: Batch, cells: list[Cell], code: _Palette) -> None:
    """Put one answered batch into its setting's fields."""
    qs = batch.questions
    if batch.kind == PAIR:
        setting["pairs"] = _rows([code(c) for c in cells], len(setting["operands"]))
    elif batch.kind == RESULT_TYPE:
        setting["triples"] = len(qs)
        setting["result_type"] = _rows([code(c) for c in cells], _LINE)
    elif batch.kind == CHAIN:
        setting["chain"] = _rows([code(c) for c in cells], _LINE)
    elif batch.kind == VALUE:
        setting["values"] = _rows([code(c) for c in cells], 2 * len(_values_of(batch)))
    elif batch.kind == EXPRESSION:
        functions: dict[str, str] = {}
        for q in qs:
            functions.update(w.split("=", 1) for w in q.function.split())  # type: ignore[misc]
        setting["functions"] = dict(sorted(functions.items()))
        setting["programs"] = [
            [
                "".join(code(x) for x in c.cells) if isinstance(c, Nodes) else code(c),
                " ".join(operand_key(x) for x in q.operands),
                q.text,
            ]
            for q, c in zip(qs, cells, strict=True)
        ]
    elif batch.kind == SPELLING:
        setting["spellings"] = [f"{code(c)} {q.text}" for q, c in zip(qs, cells, strict=True)]
    elif batch.kind == OPERATION and any(x.value is not None for q in qs for x in q.operands):
        # Each array with each value, both orders: a row per array, as ``values`` above.
        operation = setting.setdefault("operations", {}).setdefault(batch.operation, {})
        operation["values"] = _rows([code(c) for c in cells], 2 * len(VALUES))
    elif batch.kind == OPERATION:
        index = {operand_of(k): i for i, k in enumerate(setting["operands"])}
        grid: dict[tuple[int, ...], Cell] = {
            tuple(index[x] for x in q.operands): c for q, c in zip(qs, cells, strict=True)
        }
        n = len(index)
        if len(qs[0].operands) == 1:
            rows = ["".join(code(grid.get((j,))) for j in range(n))]
        else:
            rows = ["".join(code(grid.get((i, j))) for j in range(n)) for i in range(n)]
        operation = setting.setdefault("operations", {}).setdefault(batch.operation, {})
        operation.update({"function": qs[0].function, "cells": rows})


# --- reading ------------------------------------------------------------------------------


def directory(entry: Framework, subdirectory: str = "") -> Path:
    """Where a framework's measurements live in this checkout (``measure`` writes there);
    ``subdirectory``: that of a set measured apart (``MeasuredApart.directory``)."""
    import importlib

    folder = Path(importlib.import_module(entry.package).__file__ or "").parent / "measured"
    return folder / subdirectory if subdirectory else folder


def text(entry: Framework, file: str, subdirectory: str = "") -> str | None:
    """A measurement file's text, read as package data (None: there is none)."""
    resource = resources.files(entry.package).joinpath("measured")
    if subdirectory:
        resource = resource.joinpath(subdirectory)
    resource = resource.joinpath(f"{file}.json")
    if not resource.is_file():
        return None
    return resource.read_text(encoding="utf-8")


def read(entry: Framework, file: str, subdirectory: str = "") -> Measured | None:
    """One measurement file of ``entry``'s framework, parsed (None: there is none)."""
    content = text(entry, file, subdirectory)
    return None if content is None else parse(content)


def apart_of(entry: Framework, pinned: Mapping[str, Any] | None) -> Any:
    """The ``MeasuredApart`` that ``pinned`` options select (None: the entry's own set)."""
    for measured_apart in entry.measured_apart:
        if (pinned or {}).get(measured_apart.option) == measured_apart.value:
            return measured_apart
    return None


def parse(content: str) -> Measured:
    doc = json.loads(content)
    if doc.get("format") != FORMAT:
        raise ValueError(f"measurement format {doc.get('format')!r}, not {FORMAT}")
    width = doc["width"]
    answers = {}
    for i, answer in enumerate(doc["answers"]):
        digits = ""
        for _ in range(width):
            i, digit = divmod(i, len(CODES))
            digits = CODES[digit] + digits
        answers[digits] = cell_of(answer)

    unasked = NOT_ASKED * width
    answers[unasked] = None  # type: ignore[assignment]

    def cells_of(rows: Sequence[str]) -> list[Cell | None]:
        flat = "".join(rows)
        return [answers[flat[i : i + width]] for i in range(0, len(flat), width)]

    valued = [operand_of(k) for k in doc.get("values", ())]
    out: list[tuple[Mapping[str, Any], Question, Cell]] = []
    shared: dict[tuple[Any, ...], list[Question]] = {}
    for setting in doc["settings"]:
        opts = setting["options"]
        for kind, questions, rows in _asked(setting, valued, shared):
            cells = cells_of(rows)
            if len(cells) != len(questions):
                raise ValueError(f"{kind}: {len(cells)} cells for {len(questions)} questions")
            out.extend((opts, q, c) for q, c in zip(questions, cells, strict=True) if c)
        for codes, bound, program in setting.get("programs", ()):
            q = _program(program, bound, setting["functions"])
            out.append((opts, q, Nodes(tuple(cells_of([codes])))))
        for line in setting.get("spellings", ()):
            c, spelled = line[:width], line[width + 1 :]
            out.append((opts, Question(SPELLING, text=spelled), answers[c]))
    return Measured(doc["framework"], doc["version"], doc["measured"], out)


def _program(code: str, bound: str, functions: Mapping[str, str]) -> Question:
    from promote_cli.verify.expressions import question

    return question(code, [operand_of(k) for k in bound.split()], functions)


def _asked(
    setting: Mapping[str, Any],
    valued: Sequence[Operand],
    shared: dict[tuple[Any, ...], list[Question]],
) -> Iterator[tuple[str, list[Question], Sequence[str]]]:
    """The questions of one setting's fields, each with its rows of codes. The settings of a
    file ask the same questions of the same operands, and share them (``shared``, the file's
    questions by what they are made of): Keras's fifteen settings make each question once."""
    listed = tuple(setting.get("operands", ()))
    operands = [operand_of(k) for k in listed]
    arrays = [op for op in operands if op.category == DIMENSIONED]
    if "pairs" in setting:
        every = shared.get((listed, PAIR))
        if every is None:
            every = [Question(PAIR, (a, b), "", "", "") for a in operands for b in operands]
            shared[listed, PAIR] = every
        yield PAIR, every, setting["pairs"]
    if "triples" in setting:
        triples = drawn(operands, setting["triples"])
        yield RESULT_TYPE, [Question(RESULT_TYPE, t) for t in triples], setting["result_type"]
        yield CHAIN, [Question(CHAIN, t) for t in triples], setting["chain"]
        if any(op.category == PYTHON for op in operands):  # else no values (``cases.with_values``)
            pairs = [p for a in arrays for s in valued for p in ((a, s), (s, a))]
        else:
            pairs = []
        yield VALUE, [Question(VALUE, p) for p in pairs], setting["values"]
    for name, op in setting.get("operations", {}).items():
        rows, function = op["cells"], op["function"]
        one = len(rows) == 1 and len(operands) > 1  # a unary operation or a reduction
        questions = shared.get((listed, OPERATION, name, function, one))
        if questions is None:
            cases = (
                [(x,) for x in operands] if one else [(a, b) for a in operands for b in operands]
            )
            questions = [Question(OPERATION, c, name, function, "") for c in cases]
            shared[listed, OPERATION, name, function, one] = questions
        yield OPERATION, questions, rows
        if "values" in op:  # each array with each value, both orders (``cases.with_values``)
            questions = shared.get((listed, VALUE, name, function))
            if questions is None:
                pairs = [p for a in arrays for s in valued for p in ((a, s), (s, a))]
                questions = [Question(OPERATION, c, name, function, "") for c in pairs]
                shared[listed, VALUE, name, function] = questions
            yield OPERATION, questions, op["values"]


def today() -> str:
    return datetime.date.today().isoformat()


# --- the command --------------------------------------------------------------------------


def measure(
    name: str,
    into: Path | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    python: str | None = None,
    pinned: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> str:
    """Measure the framework ``name`` and write its files (under ``into``/<directory> when
    given, else beside its rules); a line saying what was written. ``python``: the framework
    of that interpreter's environment (``workers.interpreter`` checked it), asked in a worker.
    ``pinned`` options (parsed) that select a setting measured apart (NumPy's
    ``promotion=legacy``) measure that set, into its own directory. ``ImportError`` when the
    framework is not installed."""
    from promote_cli import frameworks
    from promote_cli.errors import PromotionError, UsageError
    from promote_cli.verify.driver import framework_name, oracle

    entry = frameworks.entry(name)
    policy = frameworks.get(name)
    orc = oracle(name, python, timeout)
    if orc is None:
        raise ValueError(f"{name} has no oracle: {entry.oracle}")
    try:
        rules = frameworks.operations(policy) if orc.ASKS.operations else None
    except PromotionError:
        rules = None
    measured_apart = apart_of(entry, pinned)
    if pinned and measured_apart is None:
        raise UsageError(
            f"-O selects a set measured apart ({', '.join(_apart_names(entry)) or 'none'}):"
            " every other setting is measured together"
        )
    version, answered = ask(policy, orc, rules, progress, pinned)
    sub = measured_apart.directory if measured_apart is not None else ""
    folder = into / entry.package.rpartition(".")[2] if into is not None else directory(entry)
    if sub and into is not None:
        folder = folder / sub
    elif sub:
        folder = directory(entry, sub)
    date, changed, size, cells = today(), [], 0, 0
    # Written as promote writes every file (``atomic.Batch``): regular files only, never
    # through a link, all of a framework's files or none.
    with atomic.Batch() as batch:
        batch.make_dirs(folder)  # removed again when nothing is written
        for file in FILES:
            tgt = targets.target(folder / f"{file}.json", into_ok=False, follow=False)
            new = render(name, version, date, file, answered)
            old = tgt.path.read_text(encoding="utf-8") if tgt.exists else None
            if new is None:
                if old is not None:
                    batch.remove(tgt)
                    changed.append(file)
                continue
            if old is not None and _undated(old) == _undated(new):
                new = old  # the same answers: the file keeps its date
            else:
                batch.write(tgt, new.encode())
                changed.append(file)
            size += len(new.encode())
            cells += sum(len(b.questions) for _, b, _ in answered if b.kind in FILES[file])
        if changed:
            batch.commit()
    what = f"wrote {', '.join(changed)}" if changed else "unchanged"
    try:
        shown = folder.resolve().relative_to(Path.cwd())
    except ValueError:  # outside the working directory
        shown = folder
    return (
        f"{name}: {framework_name(entry)} {version}, {cells:,} cells"
        f" ({size:,} bytes) in {shown}: {what}"
    )


def _apart_names(entry: Framework) -> list[str]:
    return [f"{a.option}={a.value}" for a in entry.measured_apart]


def _undated(content: str) -> str:
    return "\n".join(line for line in content.splitlines() if not line.startswith('  "measured":'))
