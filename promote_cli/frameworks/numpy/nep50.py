"""NEP 50's changes as NumPy 1.26.4 shows them: the cells of ``promote diff numpy numpy -O
right:promotion=legacy`` measured in NumPy 1.26's three promotion states.

``np._set_promotion_state`` (NumPy 1.24-1.26) has ``legacy`` (their default: value-based
casting), ``weak`` (NEP 50, NumPy 2's only state) and ``weak_and_warn`` (NEP 50's answers, and a
``UserWarning`` where NumPy expects a change). Every cell of the diff's default operand set
(``compare.diff_operands`` with ``values``: arrays, 0-d arrays, NumPy scalars and Python
scalars, unvalued and holding each value ``promote verify`` asks) is asked in each state by
``nep50_probe`` under the interpreter given, and kept in ``measured/promotion-legacy/nep50.json``
with NumPy's version. ``promote measure numpy -O promotion=legacy --python PATH`` runs
``measure`` after the legacy set (the entry's ``MeasuredApart.states`` names this module), and
the docs' page is rewritten from the file, with no NumPy needed:

    promote measure numpy -O promotion=legacy --python /path/to/numpy-1.26/bin/python
    python -m promote_cli.frameworks.numpy.nep50 --write-docs   # or --check-docs

The tests compare it offline with the policy: the cells the diff lists are exactly those whose
measured answer changes from ``legacy`` to ``weak``, and each side's answers are the measured
ones. ``marks`` gives ``promote diff`` the warnings to show beside its cells; ``page`` writes
the documentation's NEP 50 migration page from the same data.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from promote_cli.operands import DIMENSIONED, PYTHON, Operand, Value
from promote_cli.record import Record

HERE = Path(__file__).resolve().parent
FILE = HERE / "measured" / "promotion-legacy" / "nep50.json"
PROBE = HERE / "nep50_probe.py"
FORMAT = 1
STATES = ("legacy", "weak", "weak_and_warn")
REFUSED = "refused"
QUESTION = (
    "np.result_type(a, b), refused when it raises or when a + b raises on real operands"
    " (shape (2,) arrays, np.array(v, t), np.array(v, t)[()], Python scalars); the warnings are"
    " those a + b emits (np.result_type's for two Python scalars)"
)


def _tagged(value: Value) -> list[Any]:
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, int):
        return ["int", str(value)]
    if isinstance(value, float):
        return ["float", repr(value)]
    assert isinstance(value, complex)
    return ["complex", repr(value.real), repr(value.imag)]


def _untagged(tagged: Sequence[Any]) -> Value:
    kind = tagged[0]
    if kind == "bool":
        return bool(tagged[1])
    if kind == "int":
        return int(tagged[1])
    if kind == "float":
        return float(tagged[1])
    return complex(float(tagged[1]), float(tagged[2]))


def spec(op: Operand) -> list[Any]:
    """An operand as the file and the probe spell it: ``[category, dtype, value]``, the value
    tagged and None when the operand holds none."""
    return [op.category, op.dtype, None if op.value is None else _tagged(op.value)]


def _probe_spec(op: Operand) -> list[Any]:
    """What the probe builds: the operand with the value it holds (1 without one)."""
    from promote_cli.shared.numpy_legacy import value_of

    return [op.category, op.dtype, _tagged(value_of(op))]


def operand_of(found: Sequence[Any]) -> Operand:
    category, dtype, tagged = found
    return Operand(dtype, category, None if tagged is None else _untagged(tagged))


class Cell(Record):
    """One measured cell: its answer in each state (a dtype, or ``refused: ...``) and what
    ``weak_and_warn`` warned."""

    row: Operand
    col: Operand
    legacy: str
    weak: str
    weak_and_warn: str
    warnings: tuple[str, ...]

    @property
    def changes(self) -> bool:
        """Its answer differs between the states (two refusals agree, as in ``promote diff``)."""
        return _answer(self.legacy) != _answer(self.weak)

    @property
    def warns(self) -> bool:
        return bool(self.warnings)


def _answer(text: str) -> str:
    return REFUSED if text.startswith(REFUSED) else text


class Measurement(Record):
    version: str
    date: str
    operands: tuple[Operand, ...]
    cells: Mapping[tuple[Operand, Operand], Cell]

    def changed(self) -> list[Cell]:
        return [c for c in self.cells.values() if c.changes]

    def warned_unchanged(self) -> list[Cell]:
        return [c for c in self.cells.values() if c.warns and not c.changes]


@cache
def load(path: Path = FILE) -> Measurement:
    """The measurement file (``ValueError`` when it is not one)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path}: format {doc.get('format')!r}, not {FORMAT}")
    ops = tuple(operand_of(s) for s in doc["operands"])
    answers = doc["answers"]
    grids = {s: [[answers[int(k)] for k in row.split()] for row in doc[s]] for s in STATES[:2]}
    departs = {(i, j): answers[k] for i, j, k in doc["weak_and_warn_departs"]}
    said: dict[tuple[int, int], list[str]] = {}
    for i, j, text in doc["warnings"]:
        said.setdefault((i, j), []).append(text)
    cells = {}
    for i, a in enumerate(ops):
        for j, b in enumerate(ops):
            weak = grids["weak"][i][j]
            cells[a, b] = Cell(
                a,
                b,
                grids["legacy"][i][j],
                weak,
                departs.get((i, j), weak),
                tuple(said.get((i, j), ())),
            )
    return Measurement(doc["version"], doc["measured"], ops, cells)


def render(found: Mapping[str, Any], ops: Sequence[Operand], date: str) -> str:
    """The file's text from the probe's reply: answers numbered, a grid row per line."""
    states = found["states"]
    answers = sorted({a for s in STATES for row in states[s]["answers"] for a in row})
    code = {a: i for i, a in enumerate(answers)}
    weak, warned = states["weak"]["answers"], states["weak_and_warn"]["answers"]
    departs = [
        [i, j, code[warned[i][j]]]
        for i in range(len(ops))
        for j in range(len(ops))
        if warned[i][j] != weak[i][j]
    ]
    lines = [
        "{",
        '  "framework": "numpy",',
        f'  "version": {json.dumps(found["version"])},',
        f'  "measured": {json.dumps(date)},',
        f'  "format": {FORMAT},',
        f'  "question": {json.dumps(QUESTION)},',
        '  "operands": [',
        ",\n".join(f"    {json.dumps(spec(op))}" for op in ops),
        "  ],",
        '  "answers": [',
        ",\n".join(f"    {json.dumps(a)}" for a in answers),
        "  ],",
    ]
    for state in STATES[:2]:
        rows = [" ".join(str(code[a]) for a in row) for row in states[state]["answers"]]
        lines += [f'  "{state}": [', ",\n".join(f"    {json.dumps(r)}" for r in rows), "  ],"]
    lines.append(f'  "weak_and_warn_departs": {json.dumps(departs)},')
    warnings = states["weak_and_warn"]["warnings"]
    lines += ['  "warnings": [', ",\n".join(f"    {json.dumps(w)}" for w in warnings), "  ]"]
    return "\n".join([*lines, "}"]) + "\n"


def measure(python: str, ops: Sequence[Operand], path: Path = FILE) -> str:
    """Ask NumPy under ``python`` (1.24-1.26; an interpreter ``promote measure`` checked) every
    cell of ``ops`` squared (the diff's operands, ``compare.diff_operands``) and write ``path``;
    a file whose answers did not change keeps its date. Returns what was done, in one line."""
    import datetime

    from promote_cli import atomic
    from promote_cli.errors import UsageError

    done = subprocess.run(
        [python, "-I", "-c", PROBE.read_text(encoding="utf-8")],
        input=json.dumps([_probe_spec(op) for op in ops]),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise UsageError(f"--python {python}: NEP 50's probe failed: {tail[0]}")
    found = json.loads(done.stdout)
    text = render(found, ops, datetime.date.today().isoformat())
    if path.is_file():
        before = path.read_text(encoding="utf-8")
        if before == render(found, ops, json.loads(before).get("measured", "")):
            return f"{path.name}: unchanged (NumPy {found['version']}, {len(ops) ** 2:,} cells)"
    atomic.replace_file(path, text.encode())
    load.cache_clear()
    return f"wrote {path.name}: NumPy {found['version']}, {len(ops) ** 2:,} cells"


# --- what promote diff shows beside its cells ----------------------------------------------


class Marks(Record):
    """The measured warnings beside a diff of the two promotions (``compare.Marks``)."""

    title: str  # "NumPy 1.26.4 warns"
    by: str  # what warned, and how it was measured
    measurement: Measurement

    def warning(self, row: Operand, col: Operand) -> str | None:
        """The cell's warning text, "" when it was measured and warned nothing, None when the
        cell was not measured."""
        found = self.measurement.cells.get((row, col))
        if found is None:
            return None
        return "; ".join(found.warnings)


def marks(left: Mapping[str, Any], right: Mapping[str, Any]) -> Marks | None:
    """The warnings for a diff of numpy under ``left`` and ``right``: when one side is
    ``weak`` and the other ``legacy`` (without ml_dtypes, as measured), else None."""
    sides = {left.get("promotion"), right.get("promotion")}
    if sides != {"weak", "legacy"} or left.get("ml_dtypes") or right.get("ml_dtypes"):
        return None
    found = load()
    by = (
        f"NumPy {found.version}'s np._set_promotion_state('weak_and_warn'), measured on each"
        f" cell ({found.date}; python -m promote_cli.frameworks.numpy.nep50)"
    )
    return Marks(f"NumPy {found.version} warns", by, found)


# --- the migration page ---------------------------------------------------------------------


# The text every warning of ``weak_and_warn`` starts with; the page shows what follows it.
WARNING = (
    "UserWarning: result dtype changed due to the removal of value-based promotion from NumPy."
)
EFFECTS = ("raises under NEP 50", "raised under NumPy 1.x", "another dtype")


def operands_kind(c: Cell) -> str:
    """Which scalars a cell has: what its change is about."""
    scalars = {op.category for op in (c.row, c.col) if op.category != DIMENSIONED}
    if scalars == {PYTHON} and DIMENSIONED not in (c.row.category, c.col.category):
        return "two Python scalars (np.result_type)"
    if scalars == {PYTHON}:
        return "an array and a Python scalar"
    if PYTHON in scalars:
        return "a 0-d array or NumPy scalar and a Python scalar"
    if DIMENSIONED in (c.row.category, c.col.category):
        return "an array and a 0-d array or NumPy scalar"
    return "two 0-d arrays or NumPy scalars"


def effect(c: Cell) -> str:
    if _answer(c.weak) == REFUSED:
        return EFFECTS[0]
    if _answer(c.legacy) == REFUSED:
        return EFFECTS[1]
    return EFFECTS[2]


def _label(op: Operand) -> str:
    """The operand as ``promote`` reads it back in canonical names (``operands.label``'s
    spelling): ``uint8``, ``int:300``, ``S(int64)=300``, ``N(float64)``, ``int*``."""
    from promote_cli.operands import value_text

    held = "" if op.value is None else value_text(op.value)
    if op.category == PYTHON:
        if held:
            return f"{type(op.value).__name__}:{held}"
        return "P(bool)" if op.dtype == "bool" else op.dtype
    if op.category == DIMENSIONED:
        return op.dtype
    return f"{op.category}({op.dtype})" + (f"={held}" if held else "")


def _show(text: str) -> str:
    return REFUSED if text.startswith(REFUSED) else text


def _reason(text: str) -> str:
    return text.removeprefix(f"{REFUSED}: ") if text.startswith(REFUSED) else ""


def _beyond_int64(c: Cell) -> bool:
    """The cell has a Python int int64 does not hold (NumPy 1.x made it uint64 or object)."""
    return any(
        op.category == PYTHON and isinstance(op.value, int) and not -(2**63) <= op.value < 2**63
        for op in (c.row, c.col)
        if not isinstance(op.value, bool)
    )


def figures(found: Measurement | None = None) -> dict[str, int]:
    m = found or load()
    changed = m.changed()
    return {
        "cells": len(m.cells),
        "operands": len(m.operands),
        "changed": len(changed),
        "warned": sum(c.warns for c in changed),
        "silent": sum(not c.warns for c in changed),
        "warned_unchanged": len(m.warned_unchanged()),
    }


_HEAD = "| cell | NumPy 1.x (legacy) | NEP 50 (weak) | NumPy 1.26 warns |"


def page(found: Measurement | None = None, examples: int = 4) -> str:
    """The generated part of the NEP 50 migration page (Markdown): the figures, the changes by
    the scalars they involve and what happens, with counts warned and not, examples, and the
    warnings on cells that do not change."""
    m = found or load()
    f = figures(m)
    changed = m.changed()
    silent = [c for c in changed if not c.warns]
    beyond = sum(_beyond_int64(c) for c in silent)
    held = (
        "every one of them has a Python int int64 does not hold, 2**63 and up or below -2**63"
        if beyond == len(silent)
        else f"{beyond:,} of them have a Python int int64 does not hold"
    )
    groups: dict[tuple[str, str], list[Cell]] = {}
    for c in changed:
        groups.setdefault((operands_kind(c), effect(c)), []).append(c)
    order = sorted(groups, key=lambda k: (-len(groups[k]), k))
    lines = [
        f"Measured on NumPy {m.version} ({m.date}): {f['cells']:,} cells, {f['operands']}"
        f" operands squared. **{f['changed']:,}** change between `legacy` and `weak`;"
        f" `weak_and_warn` warns on **{f['warned']:,}** of them and is silent on"
        f" **{f['silent']:,}** ({held}), and warns on **{f['warned_unchanged']:,}** cells whose"
        " answer does not change.",
        "",
        "| operands | under NEP 50 | cells | warned | not warned |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for key in order:
        cells = groups[key]
        warned = sum(c.warns for c in cells)
        lines.append(
            f"| {key[0]} | {key[1]} | {len(cells):,} | {warned:,} | {len(cells) - warned:,} |"
        )
    lines.append(
        f"| **every change** | | **{f['changed']:,}** | **{f['warned']:,}** | **{f['silent']:,}** |"
    )
    for key in order:
        cells = groups[key]
        lines += ["", f"### {key[0][0].upper()}{key[0][1:]}: {key[1]} ({len(cells):,})", ""]
        shown = [c for c in cells if c.warns][: examples // 2]
        shown += [c for c in cells if not c.warns][: examples - len(shown)]
        shown += [c for c in cells if c.warns and c not in shown][: examples - len(shown)]
        lines += [_HEAD, "| --- | --- | --- | --- |", *(_row(c) for c in shown)]
    quiet = m.warned_unchanged()
    if quiet:
        lines += [
            "",
            f"### Warned, unchanged ({len(quiet):,})",
            "",
            _HEAD,
            "| --- | --- | --- | --- |",
            *(_row(c) for c in quiet[:examples]),
        ]
    return "\n".join(lines) + "\n"


def _row(c: Cell) -> str:
    def shown(text: str) -> str:
        why = _reason(text)
        return f"{_show(text)} ({why})" if why else _show(text)

    said = [w.removeprefix(WARNING).strip() for w in c.warnings]
    warned = "; ".join(said) if said else "no"
    cell = f"`{_label(c.row)} x {_label(c.col)}`"
    return f"| {cell} | {shown(c.legacy)} | {shown(c.weak)} | {warned} |".replace("\n", " ")


# The docs site's migration page; its block between the markers is ``page()``.
DOCS = HERE.parents[2] / "docs" / "guide" / "nep50.md"
BLOCK = re.compile(r"(<!-- nep50:changes -->\n)(.*?)(<!-- /nep50:changes -->)", re.S)


def rewritten(text: str) -> str:
    """``text`` (the page) with its block as ``page()`` writes it now."""
    if not BLOCK.search(text):
        raise ValueError(f"{DOCS.name} has no <!-- nep50:changes --> block")
    body = page()
    return BLOCK.sub(lambda m: m.group(1) + body + m.group(3), text)


def main(argv: Sequence[str] | None = None) -> int:
    """``--write-docs``: rewrite the page's block from the measurement; ``--check-docs``: exit 1
    when it is stale."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in (["--write-docs"], ["--check-docs"]):
        print(
            "usage: python -m promote_cli.frameworks.numpy.nep50 --write-docs | --check-docs"
            " (measure with: promote measure numpy -O promotion=legacy --python PATH)",
            file=sys.stderr,
        )
        return 2
    text = DOCS.read_text(encoding="utf-8")
    new = rewritten(text)
    if new == text:
        print(f"{DOCS.name}: unchanged")
        return 0
    if args == ["--check-docs"]:
        print(f"{DOCS.name} is stale: python -m promote_cli.frameworks.numpy.nep50 --write-docs")
        return 1
    from promote_cli import atomic

    atomic.replace_file(DOCS, new.encode())
    print(f"wrote {DOCS.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
