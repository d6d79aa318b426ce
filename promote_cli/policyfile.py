"""Policies declared in a TOML file, the way the built-in ones are declared: a lattice (each
type and the types directly above it), a table (rows), or a built-in (or another file's)
policy with some cells overridden.

```toml
name = "mine"                 # required
title = "My framework"        # optional: the name
source = "our design doc"     # optional: the file's path
notation = "canonical"        # how the types below are spelled (extends: the parent's)
types = ["bool", "int8"]      # a table's columns; else the default table's order
properties = ["symmetric", "idempotent"]   # declared; the default depends on the kind

[lattice]                     # one of [lattice], [table], extends + [cells]
bool = ["int8"]
int8 = []

[table]                       # full rows in the order of ``types``, or only the lower half
bool = ["bool"]               # (row i lists columns 0..i) for a symmetric table; "×" refuses
int8 = ["int8", "int8"]

extends = "jax"               # a policy name, or another file (relative to this one)
[cells]
"i1 x u1" = "i2"              # in a symmetric policy, u1 x i1 changes too
```

A malformed file is the user's input, not promote's bug: one line naming the file, the line
and what is wrong (``BadInputError``, exit 2): TOML syntax, an unknown key or type, a cycle in
the lattice, a pair with two least upper bounds, a row of the wrong length, an asymmetric cell
in a table declared symmetric, a file larger than ``MAX_BYTES`` or nested deeper than
``MAX_DEPTH``, an ``extends`` that leads back to itself or further than ``MAX_EXTENDS`` files.

The file is a boundary, held in two places: :func:`load` turns whatever reading and checking
it raises into that line, and every method of the policy it declares does the same for what
answering raises (``_answers_for_its_file``). So a file no check foresaw still makes a usage
error naming the file, never an internal error. Its ``name``, ``title`` and ``source`` are
kept as printed (``errors.printable``): a control character in them cannot reach a terminal.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import FunctionType
from typing import Any, TypeVar

from promote_cli import frameworks
from promote_cli.dtypes import is_weak
from promote_cli.engine import (
    IDEMPOTENT,
    LATTICE,
    SYMMETRIC,
    TOTAL,
    Materialised,
    Outcome,
    Policy,
    ref,
    refuse,
)
from promote_cli.errors import (
    BadInputError,
    PolicyDefinitionError,
    PromoteError,
    UsageError,
    printable,
)
from promote_cli.halftable import REFUSED, HalfTable, TablePolicy
from promote_cli.lattice import Lattice, LatticePolicy, declared_lattice
from promote_cli.notations import Notation, read_dtype
from promote_cli.operands import DIMENSIONED, PYTHON, Operand, parse

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# A policy file of 50 types is a few kilobytes; its deepest value is a list in a table.
MAX_BYTES = 1 << 20
MAX_DEPTH = 8
MAX_EXTENDS = 16  # files in one chain of ``extends``

_KEYS = {"name", "title", "source", "notation", "types", "properties", "lattice", "table"}
_KEYS |= {"extends", "cells", "materialise"}
_PROPERTIES = {SYMMETRIC, IDEMPOTENT, LATTICE, TOTAL}
_REFUSALS = {REFUSED, "refused"}


class _Source:
    """The file's text, for the line a key is declared on."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.lines = path, text.splitlines()

    def line(self, key: str, section: str = "") -> int | None:
        """The line (1-based) that declares ``key`` in ``[section]`` ("" for the top)."""
        current = ""
        pattern = re.compile(r'^\s*(?:"([^"]*)"|\'([^\']*)\'|([\w*.+-]+))\s*=')
        for number, text in enumerate(self.lines, 1):
            header = re.match(r"^\s*\[\s*([\w.-]+)\s*\]", text)
            if header:
                current = header.group(1)
                continue
            m = pattern.match(text)
            if m and current == section and next(g for g in m.groups() if g is not None) == key:
                return number
        return None

    def error(self, what: str, key: str | None = None, section: str = "") -> BadInputError:
        line = self.line(key, section) if key is not None else None
        where = f"{self.path}:{line}" if line else f"{self.path}"
        return BadInputError(f"{where}: {what}")


def load(path: Path) -> Policy:
    """The policy ``path`` declares; a malformed file is a ``BadInputError`` naming its line."""
    return _load(path, ())


def _load(path: Path, within: tuple[Path, ...]) -> Policy:
    """The boundary: whatever reading ``path`` raises is one line naming it. ``within`` holds
    the files whose ``extends`` led here (a chain that comes back is refused before this)."""
    try:
        return _read(path, within)
    except PromoteError:
        raise
    except RecursionError:
        raise BadInputError(f"{path}: nested too deeply to read") from None
    except Exception as exc:  # a shape of file no check below foresaw
        raise BadInputError(f"{path}: cannot read it as a policy ({_said(exc)})") from None


def _said(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def _read(path: Path, within: tuple[Path, ...]) -> Policy:
    from promote_cli import textfiles

    # A regular file, bounded: no FIFO, no /dev/zero, no gigabyte of TOML.
    data = textfiles.read_bytes(path, what="policy file", limit=MAX_BYTES)
    if data is None:
        raise UsageError(f"{path}: no such policy file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{path}: cannot read it ({exc})") from None
    src = _Source(path, text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+)", str(exc))
        where = f"{path}:{m.group(1)}" if m else str(path)
        raise BadInputError(f"{where}: not valid TOML: {str(exc).split(' (at')[0]}") from None
    except RecursionError:  # tomllib reads nested arrays by recursion
        raise src.error(f"nested deeper than {MAX_DEPTH} levels") from None
    if _depth(doc) > MAX_DEPTH:
        raise src.error(f"nested deeper than {MAX_DEPTH} levels; a policy needs 2")
    unknown = [k for k in doc if k not in _KEYS]
    if unknown:
        raise src.error(
            f"unknown key {unknown[0]!r} (keys: {', '.join(sorted(_KEYS))})", unknown[0]
        )
    if not isinstance(doc.get("name"), str) or not doc["name"].strip():
        raise src.error('a policy file needs a name: name = "mine"')
    kinds = [k for k in ("lattice", "table", "extends") if k in doc]
    if len(kinds) != 1:
        raise src.error(
            "declare exactly one of [lattice], [table] or extends = POLICY"
            + (f" (found {', '.join(kinds)})" if kinds else "")
        )
    if "materialise" in doc and "lattice" not in doc:
        raise src.error("[materialise] belongs to a [lattice] with weak types", "materialise")
    if "cells" in doc and "extends" not in doc:
        raise src.error("[cells] overrides cells of a policy named by extends", "cells")
    if kinds[0] == "extends":
        return _extended(src, doc, within)
    nota = _notation(src, doc, "canonical")
    if kinds[0] == "lattice":
        return _lattice(src, doc, nota)
    return _table(src, doc, nota)


def _depth(doc: object) -> int:
    """How deeply ``doc``'s tables and arrays nest (without recursion: it may be deep)."""
    deepest, todo = 0, [(doc, 0)]
    while todo:
        value, depth = todo.pop()
        deepest = max(deepest, depth)
        if isinstance(value, dict):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            todo.extend((v, depth + 1) for v in value)
    return deepest


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _answering_for_its_file(method: _Method) -> _Method:
    @functools.wraps(method)
    def answer(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except PromoteError:
            raise
        except Exception as exc:
            raise BadInputError(
                f"{self.file}: promote cannot answer with the policy it declares"
                f" ({method.__name__}: {_said(exc)}); if the file is right, please report it"
            ) from None

    return answer  # type: ignore[return-value]


_P = TypeVar("_P", bound=type)


def _answers_for_its_file(cls: _P) -> _P:
    """Every method a policy declared in a file has (its own and those it inherits) turns what
    it raises into a ``BadInputError`` naming the file: the file's declaration is the input,
    so a question it makes promote fail on is a usage error, whatever the failure is."""
    seen: set[str] = set()
    for klass in cls.__mro__:
        for name, member in vars(klass).items():
            if name in seen:
                continue
            seen.add(name)
            if isinstance(member, FunctionType) and not name.startswith("__"):
                setattr(cls, name, _answering_for_its_file(member))
    return cls


def _notation(src: _Source, doc: Mapping[str, Any], default: str) -> Notation:
    try:
        return frameworks.notation(doc.get("notation", default))
    except UsageError as exc:
        raise src.error(str(exc), "notation") from None


def _type(src: _Source, spelling: Any, nota: Notation, key: str, section: str = "") -> str:
    if not isinstance(spelling, str):
        raise src.error(f"{spelling!r} is not a type name (write it as a string)", key, section)
    try:
        return read_dtype(spelling, nota)
    except UsageError as exc:
        raise src.error(f"unknown type: {exc}", key, section) from None


def _result(src: _Source, value: Any, nota: Notation, key: str, section: str) -> str | None:
    """A cell's value: a type, or None for a refusal (``×``, ``refused``)."""
    if isinstance(value, str) and value in _REFUSALS:
        return None
    return _type(src, value, nota, key, section)


def _properties(src: _Source, doc: Mapping[str, Any], default: frozenset[str]) -> frozenset[str]:
    given = doc.get("properties")
    if given is None:
        return default
    if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
        raise src.error("properties is a list of names", "properties")
    bad = [p for p in given if p not in _PROPERTIES]
    if bad:
        raise src.error(
            f"unknown property {bad[0]!r} (properties: {', '.join(sorted(_PROPERTIES))})",
            "properties",
        )
    return frozenset(given)


def _types(src: _Source, doc: Mapping[str, Any], nota: Notation) -> tuple[str, ...] | None:
    if "types" not in doc:
        return None
    given = doc["types"]
    if not isinstance(given, list) or not given:
        raise src.error("types is a list of type names", "types")
    out = tuple(_type(src, t, nota, "types") for t in given)
    twice = [t for t in out if out.count(t) > 1]
    if twice:
        raise src.error(f"types lists {twice[0]} twice", "types")
    return out


def _head(src: _Source, doc: Mapping[str, Any], nota: Notation) -> dict[str, Any]:
    """The attributes every file policy sets on itself."""
    for key in ("name", "title", "source"):
        if key in doc and not isinstance(doc[key], str):
            raise src.error(f"{key} is a string", key)
    # Printed everywhere (tables, diffs, reports): kept with any control character escaped.
    return {
        "name": printable(doc["name"].strip()),
        "title": printable(doc.get("title", doc["name"].strip())),
        "source": printable(doc.get("source", str(src.path))),
        "notation_name": nota.name,
        "file": str(src.path),
    }


@_answers_for_its_file
class FileLatticePolicy(LatticePolicy):
    """A lattice declared in a file: the least upper bound, or a refusal when there is none."""

    def __init__(
        self,
        head: Mapping[str, Any],
        lattice: Lattice,
        order: Sequence[str],
        materialised: Mapping[str, str],
    ):
        for key, value in head.items():
            setattr(self, key, value)
        self.materialised = dict(materialised)
        self.lattice = lattice  # instead of reading ``edges``
        self.universe = tuple(order)
        weak = any(is_weak(t) for t in order)
        self.categories = frozenset({DIMENSIONED, PYTHON} if weak else {DIMENSIONED})

    def materialise(self, weak: str, opts: Mapping[str, Any]) -> Materialised:
        return Materialised(self.materialised[weak])

    def normalise(self, op: Operand, opts: Mapping[str, Any] | None = None) -> Operand | Outcome:
        if op.category == PYTHON and op.dtype not in self.lattice.upper:
            # P(bool) too: a lattice without bool has no place for a Python bool.
            return refuse("operand", f"{self.title}'s lattice has no {ref(op.dtype)}")
        return super().normalise(op, opts)


def _lattice(src: _Source, doc: Mapping[str, Any], nota: Notation) -> Policy:
    declared = doc["lattice"]
    if not isinstance(declared, dict) or not declared:
        raise src.error("[lattice] lists each type and the types directly above it", "lattice")
    edges: dict[str, tuple[str, ...]] = {}
    line_of: dict[str, str] = {}  # canonical -> the key declaring it
    for key, ups in declared.items():
        node = _type(src, key, nota, key, "lattice")
        if not isinstance(ups, list):
            raise src.error(f"{key} = [...]: the types directly above {key}", key, "lattice")
        if node in edges:
            raise src.error(f"{key} is declared twice ({line_of[node]})", key, "lattice")
        edges[node] = tuple(_type(src, u, nota, key, "lattice") for u in ups)
        line_of[node] = key
    for node, ups in list(edges.items()):
        for up in ups:
            edges.setdefault(up, ())  # a type only ever above others is a top
            line_of.setdefault(up, line_of[node])
    try:
        lattice = Lattice(edges)
    except PolicyDefinitionError as exc:
        at = line_of.get(exc.nodes[0]) if exc.nodes else None
        raise src.error(str(exc), at, "lattice") from None
    properties = _properties(src, doc, frozenset({SYMMETRIC, IDEMPOTENT, LATTICE}))
    materialised = _materialised(src, doc, nota)
    for node in edges:
        if is_weak(node) and node not in materialised:
            raise src.error(
                f"the weak type {nota.label(node)} needs the dtype it becomes as an array:"
                f' [materialise] "{nota.label(node)}" = "..."',
                line_of[node],
                "lattice",
            )
    policy = FileLatticePolicy(_head(src, doc, nota), lattice, tuple(edges), materialised)
    policy.properties = properties
    strong = tuple(t for t in edges if not is_weak(t))
    policy.default_types = _types(src, doc, nota) or strong  # type: ignore[misc]
    return policy


def _materialised(src: _Source, doc: Mapping[str, Any], nota: Notation) -> dict[str, str]:
    """``[materialise]``: what each weak type becomes as an array (``"int*" = "int64"``)."""
    given = doc.get("materialise", {})
    if not isinstance(given, dict):
        raise src.error('[materialise] maps a weak type to a dtype: "int*" = "int64"')
    out = {}
    for key, value in given.items():
        weak = _type(src, key, nota, key, "materialise")
        if not is_weak(weak):
            raise src.error(f"{key} is not a weak type", key, "materialise")
        out[weak] = _type(src, value, nota, key, "materialise")
    return out


@_answers_for_its_file
class FileTablePolicy(TablePolicy):
    """A table declared in a file; a missing pair or a ``×`` is a refusal."""

    cell_reason = "{a} x {b} = {result} in the table"

    def __init__(self, head: Mapping[str, Any], table: HalfTable):
        for key, value in head.items():
            setattr(self, key, value)
        self.table = table  # type: ignore[misc]
        self.universe = self.default_types = table.order  # type: ignore[misc]


def _table(src: _Source, doc: Mapping[str, Any], nota: Notation) -> Policy:
    rows = doc["table"]
    if not isinstance(rows, dict) or not rows:
        raise src.error("[table] lists one row per type", "table")
    order = _types(src, doc, nota)
    labels = list(rows)
    if order is None:
        order = tuple(_type(src, k, nota, k, "table") for k in labels)
    properties = _properties(src, doc, frozenset({SYMMETRIC, IDEMPOTENT}))
    row_of = {}
    for key in labels:
        t = _type(src, key, nota, key, "table")
        if t not in order:
            raise src.error(f"row {key} is not one of the types", key, "table")
        row_of[t] = key
    missing = [t for t in order if t not in row_of]
    if missing:
        raise src.error(f"[table] has no row for {nota.label(missing[0])}", "table")
    half = all(len(rows[row_of[t]]) == i + 1 for i, t in enumerate(order))
    if half and SYMMETRIC not in properties and len(order) > 1:
        raise src.error("a lower-half table needs the property symmetric", "table")
    cells: dict[tuple[str, str], str | None] = {}
    for i, a in enumerate(order):
        key = row_of[a]
        row = rows[key]
        want = i + 1 if half else len(order)
        if not isinstance(row, list) or len(row) != want:
            got = len(row) if isinstance(row, list) else "no"
            raise src.error(
                f"row {key} has {got} cells, not {len(order)} (or {i + 1} for a lower half)",
                key,
                "table",
            )
        for j, cell in enumerate(row):
            b = order[j]
            value = _result(src, cell, nota, key, "table")
            cells[a, b] = value
            if half:
                cells[b, a] = value
    if SYMMETRIC in properties:
        for i, a in enumerate(order):
            for b in order[:i]:
                if cells[a, b] != cells[b, a]:
                    shown = [
                        REFUSED if c is None else nota.label(c) for c in (cells[a, b], cells[b, a])
                    ]
                    raise src.error(
                        f"asymmetric cell in a table declared symmetric: {nota.label(a)} x"
                        f" {nota.label(b)} = {shown[0]} but {nota.label(b)} x {nota.label(a)} ="
                        f" {shown[1]} (drop symmetric from properties to allow it)",
                        row_of[a],
                        "table",
                    )
    policy = FileTablePolicy(_head(src, doc, nota), HalfTable(order, cells))
    policy.properties = properties
    return policy


@_answers_for_its_file
class ExtendedPolicy(Policy):
    """A policy answering as ``parent`` does but for the overridden cells. It promotes more
    than two operands as a left fold: a changed cell breaks whatever all-at-once rule the
    parent had."""

    def __init__(
        self,
        head: Mapping[str, Any],
        parent: Policy,
        cells: Mapping[tuple[Operand, Operand], str | None],
        origin: str,
    ):
        for key in ("universe", "default_types", "known_unsupported", "options", "categories"):
            setattr(self, key, getattr(parent, key))
        self.compared_with = parent.compared_with
        self.properties = parent.properties
        for key, value in head.items():
            setattr(self, key, value)
        self.parent, self.cells, self.origin = parent, dict(cells), origin
        self.join = None if cells else parent.join

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        if (a, b) in self.cells:
            result = self.cells[a, b]
            if result is None:
                return refuse(
                    "file", f"{ref(a.dtype)} x {ref(b.dtype)} is refused in {self.origin}"
                )
            return Outcome(
                result, "file", f"{ref(a.dtype)} x {ref(b.dtype)} = {ref(result)} in {self.origin}"
            )
        return self.parent.decide(a, b, opts)

    def lattice_for(self, opts: Mapping[str, Any]) -> Lattice | None:
        return None if self.cells else declared_lattice(self.parent, opts)

    def materialise(self, weak: str, opts: Mapping[str, Any]) -> Materialised:
        return self.parent.materialise(weak, opts)


def _extended(src: _Source, doc: Mapping[str, Any], within: tuple[Path, ...]) -> Policy:
    name = doc["extends"]
    if not isinstance(name, str):
        raise src.error('extends names a policy: extends = "jax"', "extends")
    try:
        if frameworks.looks_like_file(name):
            chain = (*within, src.path)
            path = src.path.parent / name  # an absolute name stays itself
            real = [os.path.realpath(p) for p in chain]
            if os.path.realpath(path) in real:
                back = chain[real.index(os.path.realpath(path))]
                raise src.error(
                    f"extends {name}, which is {back}: a cycle"
                    f" ({' -> '.join(map(str, (*chain, back)))})",
                    "extends",
                )
            if len(chain) >= MAX_EXTENDS:
                raise src.error(f"extends more than {MAX_EXTENDS} files deep", "extends")
            parent = _load(path, chain)
        else:
            parent = frameworks.get(name)
    except UsageError as exc:
        raise src.error(str(exc), "extends") from None
    nota = _notation(src, doc, parent.notation_name)
    properties = _properties(src, doc, parent.properties)
    overrides = doc.get("cells", {})
    if not isinstance(overrides, dict):
        raise src.error('[cells] maps "A x B" to a type or "×"', "cells")
    cells: dict[tuple[Operand, Operand], str | None] = {}
    given: set[tuple[Operand, Operand]] = set()
    for key, value in overrides.items():
        parts = re.split(r"\s+x\s+", key.strip())
        if len(parts) != 2:
            raise src.error(f'{key!r}: a cell is written "A x B"', key, "cells")
        ops = []
        for spelling in parts:
            try:
                op = parse(spelling, nota)
            except UsageError as exc:
                raise src.error(f"unknown type: {exc}", key, "cells") from None
            seen = parent.normalise(op)
            if isinstance(seen, Outcome):
                raise src.error(f"{spelling}: {seen.text(nota)}", key, "cells")
            ops.append(seen)
        a, b = ops
        result = _result(src, value, nota, key, "cells")
        if (b, a) in given and cells[b, a] != result and SYMMETRIC in properties:
            raise src.error(
                f"asymmetric cell in a policy declared symmetric: {key} differs from its"
                " mirror (drop symmetric from properties to allow it)",
                key,
                "cells",
            )
        cells[a, b] = result
        given.add((a, b))
        if SYMMETRIC in properties and (b, a) not in given:
            cells[b, a] = result
    head = _head(src, doc, nota)
    policy = ExtendedPolicy(head, parent, cells, src.path.name)
    policy.properties = properties
    types = _types(src, doc, nota)
    if types is not None:
        policy.default_types = types  # type: ignore[misc]
    return policy
