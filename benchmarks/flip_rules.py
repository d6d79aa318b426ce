"""Flip one rule cell of a framework at a time and report whether the offline suite catches it.

A *flip* is a one-place edit of the source a framework's rules are declared in
(``promote_cli/frameworks/<name>/*.py`` but its entry and its oracle, and the modules of
``promote_cli/shared/`` they import): one token of a pair table
or of a lattice's edges (replaced, dropped, or a node added), one value of a mapping (a map a
kind reads, an override, a type number, a cell's verdict) or one entry dropped, one member of a
tuple or set dropped or replaced (a refusal, a missing kernel, a family of types), one field of
an operation's ``Rule`` (its kind, a flag, its function, its special case, a refusal added), or
two rules of an ordered list swapped. The sites are found by reading the files with ``ast``;
nothing about a framework is listed here.

Each flip runs in a process of its own, forked from one that has parsed the measurements but
imported no framework's rules: the edited file is imported in place of the real one (a finder
at the front of ``sys.meta_path`` serves its text), so everything derived from it (the mirrored
table, the lattice's closure, the caches) is derived from the flip. Then the offline check runs:

- a framework with measurements: ``offline.differences`` over each of its files, stopping at the
  first cell that differs, then ``offline.findings``' unwitnessed (a missing kernel the rules
  claim that no measured cell shows) and unreached (a missing kernel a rule declares for no
  measured cell) and ``offline.unmeasured`` (a question added or lost): the assertions of
  ``tests/measured/test_measured.py``, stopped at the first problem;
- ascend (no oracle, nothing to measure): its rules against the seed table's facts kept in the
  repository (``tests/data/seed_facts.json``, with the document's name and sha256), as
  ``tests/properties/test_seed_policies.py`` compares them.

A flip that makes the rules unreadable (a lattice with a cycle, a table row too short) is not a
changed answer: it is counted apart as *malformed* and another is drawn. A flip the check does
not catch is asked every question of the enumeration again, its triples drawn with another
seed; when no answer changed (a no-op, such as a display order) it is not counted as tried
either, else it *escaped* and is listed with the first question whose answer changed. An
*answer* is what ``promote`` answers: the result type or a refusal, and for an operation
whether it is a no-kernel gap.

    python benchmarks/flip_rules.py                     # 15 flips per framework, seed 1
    python benchmarks/flip_rules.py --flips 50 --seed 7 --framework numpy --framework jax
    python benchmarks/flip_rules.py --flips 2 --pytest  # also run the real tests on each flip

Exit status: 0 when every flip tried was caught, 1 when one escaped.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.abc
import importlib.util
import itertools
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from promote_cli import frameworks  # noqa: E402
from promote_cli.dtypes import CATALOGUE  # noqa: E402
from promote_cli.errors import PromotionError  # noqa: E402
from promote_cli.verify import measured, offline  # noqa: E402
from promote_cli.vocabulary import Kind  # noqa: E402

PACKAGE = ROOT / "promote_cli" / "frameworks"
SHARED = ROOT / "promote_cli" / "shared"  # rules more than one framework applies
# A framework's files that are not its rules: its registry entry, how its oracle asks the
# installed framework, and the generator of the numpy policy's ml_dtypes data.
NOT_RULES = frozenset({"__init__.py", "oracle.py", "ml_gen.py"})
KINDS = tuple(k.name for k in Kind)  # what an operation's rule may name as its kind
FLAGS = ("same_dtype", "operandwise", "materialise")
LISTS = ("refuses", "refuses_operand", "no_kernel", "no_kernel_operand", "no_kernel_mixed")
DTYPE_WORDS = frozenset(CATALOGUE) | {"bool", "int", "uint", "float", "complex"}
# How many times the measured number of triples the probe of an uncaught flip asks, and the
# seed it draws them with (another than the measurements': other triples).
PROBE_TRIPLES, PROBE_SEED = 1, 11

CAUGHT, ESCAPED, NO_CHANGE, MALFORMED = "caught", "escaped", "no answer changed", "malformed"


class Flip(NamedTuple):
    """One edit: the text of ``file`` (relative to the repository) between ``start`` and
    ``end`` replaced by ``new``; ``family`` is the kind of cell, ``what`` says which."""

    framework: str
    file: str
    start: int
    end: int
    new: str
    family: str
    what: str

    def text(self) -> str:
        old = (ROOT / self.file).read_text(encoding="utf-8")
        return old[: self.start] + self.new + old[self.end :]

    @property
    def module(self) -> str:
        return self.file.removesuffix(".py").replace("/", ".")


class Outcome(NamedTuple):
    flip: Flip
    status: str  # CAUGHT, ESCAPED, NO_CHANGE or MALFORMED
    detail: str  # what caught it, why it is malformed, or the first answer that changed
    answers: list[str] | None = None  # an uncaught flip's answers to the probe


# --- the sites ---------------------------------------------------------------------------------


def rule_files(name: str) -> list[Path]:
    """The files ``name``'s rules are declared in: its directory's, but its entry and its
    oracle, and the shared ones they import (``promote_cli/shared/``: c10's table is the torch
    policy's), but those an entry imports (a notation's names: an entry's data, as before)."""
    folder = PACKAGE / frameworks.entry(name).package.rpartition(".")[2]
    own = sorted(p for p in folder.glob("*.py") if p.name not in NOT_RULES)
    entry = {m for init in PACKAGE.glob("*/__init__.py") for m in _shared_imports(init)}
    shared: set[Path] = set()
    todo = list(own)
    while todo:
        for path in _shared_imports(todo.pop()) - shared - entry:
            shared.add(path)
            todo.append(path)
    return own + sorted(shared)


def _shared_imports(path: Path) -> set[Path]:
    """The modules of ``promote_cli/shared/`` that the file ``path`` imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "promote_cli.shared":
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "promote_cli.shared."
        ):
            found.add(node.module.split(".")[2])  # type: ignore[union-attr]
    return {SHARED / f"{module}.py" for module in found if (SHARED / f"{module}.py").is_file()}


class _Sites(ast.NodeVisitor):
    """Every flip of one file, by family, found by walking its syntax tree."""

    def __init__(self, name: str, path: Path) -> None:
        self.name, self.path = name, path
        self.source = path.read_text(encoding="utf-8")
        self.file = str(path.relative_to(ROOT))
        self.lines = [0]
        for line in self.source.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.tree = ast.parse(self.source)
        self.grids = self._grid_names()
        self.pool = sorted(
            {
                n.value
                for n in ast.walk(self.tree)
                if isinstance(n, ast.Constant) and n.value in DTYPE_WORDS
            }
        )
        self.found: dict[str, list[Flip]] = {}
        self.names: list[str] = []  # the assignment being read (for the report)

    def _grid_names(self) -> set[str]:
        """Names of the strings read as grids: a table's half, a lattice's edges."""
        out = set()
        for n in ast.walk(self.tree):
            if (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name)
                and n.func.id in ("mirror", "read_edges")
                and n.args
                and isinstance(n.args[0], ast.Name)
            ):
                out.add(n.args[0].id)
            if (
                isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "edges" for t in n.targets)
                and isinstance(n.value, ast.Name)
            ):
                out.add(n.value.id)
        return out

    def offset(self, node: ast.AST) -> tuple[int, int]:
        start = self.lines[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = self.lines[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        return start, end

    def add(self, family: str, node: ast.AST, new: str, what: str) -> None:
        start, end = self.offset(node)
        where = f"{self.path.name}:{node.lineno}"  # type: ignore[attr-defined]
        named = f" {self.names[-1]}" if self.names else ""
        flip = Flip(self.name, self.file, start, end, new, family, f"{where}{named}: {what}")
        self.found.setdefault(family, []).append(flip)

    # Assignments name what is inside them, for the report.
    def visit_Assign(self, node: ast.Assign) -> None:
        target = node.targets[0]
        self._named(target, node.value, node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._named(node.target, node.value, node)

    def _named(self, target: ast.expr, value: ast.expr, node: ast.AST) -> None:
        name = target.id if isinstance(target, ast.Name) else ast.unparse(target)
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and name in self.grids:
            self._grid(name, value)
        if (
            isinstance(value, ast.Tuple)
            and value.elts
            and all(isinstance(e, ast.Name) for e in value.elts)
        ):
            self._ordered(name, value)
        self.names.append(name)
        self.generic_visit(node)
        self.names.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.names.append(f"{node.name}()")
        self.generic_visit(node)
        self.names.pop()

    def _grid(self, name: str, node: ast.Constant) -> None:
        """A token of a grid replaced by another of its tokens, or dropped; a node added. The
        first word of a line is its row's type, and stays."""
        text = node.value
        assert isinstance(text, str)
        if (ast.get_source_segment(self.source, node) or "")[3:-3] != text:
            return  # not a plain triple-quoted literal: leave it
        table = self._is_table(name)
        family = "table cell" if table else "grid"
        words = [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]
        tokens = sorted({w for _, w in words})
        rows: dict[int, list[tuple[int, str]]] = {}
        for at, word in words:
            line_start = text.rfind("\n", 0, at) + 1
            rows.setdefault(line_start, []).append((at, word))
        for line_start, row in rows.items():
            continued = text[line_start].isspace()
            head = "(continued)" if continued else row[0][1]
            cells = row if continued else row[1:]
            for column, (at, word) in enumerate(cells, 1):
                where = f"{name} row {head}, cell {column}"
                for other in tokens:
                    if other != word:
                        edited = text[:at] + other + text[at + len(word) :]
                        self.add(family, node, f'"""{edited}"""', f"{where}: {word} -> {other}")
                if not table:
                    edited = text[:at] + text[at + len(word) :]
                    self.add(family, node, f'"""{edited}"""', f"{where}: {word} dropped")
            if not table:
                end = row[-1][0] + len(row[-1][1])
                present = {w for _, w in row}
                for other in tokens:
                    if other not in present:
                        edited = text[:end] + " " + other + text[end:]
                        what = f"{name} row {head}: {other} added"
                        self.add(family, node, f'"""{edited}"""', what)

    def _is_table(self, name: str) -> bool:
        return any(
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id == "mirror"
            and n.args
            and isinstance(n.args[0], ast.Name)
            and n.args[0].id == name
            for n in ast.walk(self.tree)
        )

    def _ordered(self, name: str, node: ast.Tuple) -> None:
        """An ordered list of rules: two neighbours swapped, or one dropped."""
        elts = node.elts
        for i in range(len(elts) - 1):
            swapped = [*elts[:i], elts[i + 1], elts[i], *elts[i + 2 :]]
            what = f"{ast.unparse(elts[i])} and {ast.unparse(elts[i + 1])} swapped"
            self.add("rule order", node, ast.unparse(ast.Tuple(swapped)), what)
        for i, e in enumerate(elts):
            rest = [*elts[:i], *elts[i + 1 :]]
            self.add("rule order", node, ast.unparse(ast.Tuple(rest)), f"{ast.unparse(e)} dropped")

    def visit_Dict(self, node: ast.Dict) -> None:
        pairs = [(k, v) for k, v in zip(node.keys, node.values, strict=True) if k is not None]
        values = [v for _, v in pairs if isinstance(v, (ast.Constant, ast.Name))]
        texts = sorted({ast.unparse(v) for v in values})
        for i, (key, value) in enumerate(pairs):
            if not isinstance(value, (ast.Constant, ast.Name)):
                continue
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                pool = sorted({*texts, *(repr(p) for p in self.pool)})
            else:
                pool = texts
            if isinstance(value, ast.Constant) and isinstance(value.value, int):
                pool = sorted({*pool, repr(value.value + 1), repr(value.value - 1)})
            k, v = ast.unparse(key), ast.unparse(value)
            for other in pool:
                if other != v:
                    self.add("mapping value", value, other, f"{k}: {v} -> {other}")
            rest = [(a, b) for j, (a, b) in enumerate(pairs) if j != i]
            shrunk = ast.Dict([a for a, _ in rest], [b for _, b in rest])
            self.add("mapping entry", node, ast.unparse(shrunk), f"{k}: {v} dropped")
        # A value is named by its key in the report: RULES['divide'].
        for maybe, value in zip(node.keys, node.values, strict=True):
            if maybe is None:  # {**other}
                self.visit(value)
                continue
            self.visit(maybe)
            outer = self.names[-1] if self.names else ""
            self.names.append(f"{outer}[{ast.unparse(maybe)}]")
            self.visit(value)
            self.names.pop()

    def visit_Tuple(self, node: ast.Tuple) -> None:
        self._members(node)
        self.generic_visit(node)

    def visit_Set(self, node: ast.Set) -> None:
        self._members(node)
        self.generic_visit(node)

    def _members(self, node: ast.Tuple | ast.Set) -> None:
        """A member of a tuple or set of type names (or kinds) dropped or replaced."""
        elts = node.elts
        strings = {
            e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        }
        if not strings or not strings <= DTYPE_WORDS:
            return
        for i, e in enumerate(elts):
            if not isinstance(e, ast.Constant):
                continue
            rest = [*elts[:i], *elts[i + 1 :]]
            shrunk = ast.Tuple(rest) if isinstance(node, ast.Tuple) else ast.Set(rest)
            text = ast.unparse(shrunk) if rest else ("()" if isinstance(node, ast.Tuple) else "{}")
            if isinstance(node, ast.Set) and not rest:
                continue  # an empty set literal is a dict
            self.add("member", node, text, f"{e.value!r} dropped")
            for other in self.pool:
                if other not in strings:
                    self.add("member", e, repr(other), f"{e.value!r} -> {other!r}")

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "Rule":
            self._rule(node)
        self.generic_visit(node)

    def _rule(self, node: ast.Call) -> None:
        """A field of an operation's rule: its kind, a flag, its function, its special case,
        its pair rule, the operand forms it takes; a refusal or a missing kernel added."""
        kws = {k.arg: k for k in node.keywords if k.arg}
        op = self.names[-1] if self.names else "Rule"
        op = op.rpartition(" ")[2]

        def edited(args: Sequence[ast.expr], keywords: Sequence[ast.keyword]) -> str:
            return ast.unparse(ast.Call(node.func, list(args), list(keywords)))

        current = "SAME"
        kind_at = 1 if len(node.args) > 1 else None
        if kind_at is not None:
            current = ast.unparse(node.args[1]).rpartition(".")[2]
        elif "kind" in kws:
            current = ast.unparse(kws["kind"].value).rpartition(".")[2]
        for kind in KINDS:
            if kind == current:
                continue
            spelled = f"__import__('promote_cli.vocabulary').vocabulary.Kind.{kind}"
            value = ast.parse(spelled).body[0].value  # type: ignore[attr-defined]
            if kind_at is not None:
                args = [*node.args[:1], value, *node.args[2:]]
                keywords = node.keywords
            else:
                args = list(node.args)
                keywords = [k for k in node.keywords if k.arg != "kind"]
                keywords.append(ast.keyword("kind", value))
            self.add("rule kind", node, edited(args, keywords), f"{op} kind {current} -> {kind}")
        for flag in FLAGS:
            on = flag in kws and ast.unparse(kws[flag].value) == "True"
            keywords = [k for k in node.keywords if k.arg != flag]
            keywords.append(ast.keyword(flag, ast.Constant(not on)))
            self.add("rule field", node, edited(node.args, keywords), f"{op} {flag}={not on}")
        if node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value:
            args = [ast.Constant(None), *node.args[1:]]
            self.add("rule field", node, edited(args, node.keywords), f"{op} function -> None")
        for field in ("special", "pair", "categories"):
            if field in kws:
                keywords = [k for k in node.keywords if k.arg != field]
                what = f"{op} {field} dropped"
                self.add("rule field", node, edited(node.args, keywords), what)
        for field in LISTS:
            for t in ("bool", "int8", "uint64", "float16", "float", "complex"):
                given = kws[field].value if field in kws else None
                if given is not None and t in ast.unparse(given).replace("'", '"').split('"'):
                    continue
                extra = ast.Constant(t)
                grown = ast.Tuple([ast.Starred(given), extra]) if given else ast.Tuple([extra])
                keywords = [k for k in node.keywords if k.arg != field]
                keywords.append(ast.keyword(field, grown))
                self.add("rule field", node, edited(node.args, keywords), f"{op} {field} + {t}")

    def visit_keyword(self, node: ast.keyword) -> None:
        value = node.value
        if isinstance(value, ast.Constant) and value.value in DTYPE_WORDS:
            for other in self.pool:
                if other != value.value:
                    what = f"{node.arg}={value.value!r} -> {other!r}"
                    self.add("mapping value", value, repr(other), what)
        self.generic_visit(node)


def sites(name: str) -> dict[str, list[Flip]]:
    """Every flip of framework ``name``'s rule files, by family, in a fixed order."""
    out: dict[str, list[Flip]] = {}
    for path in rule_files(name):
        visitor = _Sites(name, path)
        visitor.visit(visitor.tree)
        for family, flips in visitor.found.items():
            out.setdefault(family, []).extend(flips)
    return out


def drawn(name: str, seed: int) -> Iterator[Flip]:
    """The flips of ``name`` in a random order (seeded), the families taking turns so that each
    gets its share however many cells it has."""
    rng = random.Random(f"{seed}:{name}")
    families = {f: rng.sample(flips, len(flips)) for f, flips in sorted(sites(name).items())}
    order = list(families)
    rng.shuffle(order)
    seen: set[tuple[str, int, int, str]] = set()
    for flips in itertools.zip_longest(*(families[f] for f in order)):
        for flip in flips:
            if flip is None:
                continue
            key = (flip.file, flip.start, flip.end, flip.new)
            if key not in seen:
                seen.add(key)
                yield flip


# --- one flip, in a process of its own -----------------------------------------------------------


class _Served(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports one module from the given text instead of its file."""

    def __init__(self, module: str, path: Path, text: str) -> None:
        self.module, self.path, self.text = module, path, text

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != self.module:
            return None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=self)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        exec(compile(self.text, str(self.path), "exec"), module.__dict__)


# The measurements, parsed once in the parent (the children share them).
_FILES: dict[str, dict[str, measured.Measured]] = {}


def measurements(name: str) -> dict[str, measured.Measured]:
    if name not in _FILES:
        entry = frameworks.entry(name)
        found = {f: measured.read(entry, f) for f in measured.FILES}
        _FILES[name] = {f: m for f, m in found.items() if m is not None}
    return _FILES[name]


def _loaded(name: str) -> tuple[Any, Any]:
    """The policy and its operations (None when it declares none), every rule module of the
    framework imported (so an edited one fails here when it cannot be read)."""
    from importlib import import_module

    for path in rule_files(name):
        import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    policy = frameworks.get(name)
    try:
        rules = frameworks.operations(policy)
    except PromotionError:
        rules = None
    return policy, rules


def check(name: str, policy: Any, rules: Any) -> str:
    """The offline suite's check of ``name``'s rules: the first problem it finds ("" none)."""
    files = measurements(name)
    if not files:
        return _seed_check(name, policy)
    for m in files.values():
        for line in offline.differences(policy, m, rules):
            return line
    asks = _asks(name)
    if asks.operations and rules is not None and "operations" in files:
        found = offline.findings(policy, {"operations": files["operations"]}, rules)
        problems = found.unwitnessed or found.unreached  # one pass answers both
        if problems:
            return problems[0]
    missing = offline.unmeasured(policy, asks, rules if asks.operations else None, files)
    return missing[0] if missing else ""


def _asks(name: str) -> Any:
    from importlib import import_module

    return import_module(f"{frameworks.entry(name).package}.oracle").ASKS


def _seed_check(name: str, policy: Any) -> str:
    """A framework with nothing to measure against the seed facts kept in the repository
    (``tests/data/seed_facts.json``): every cell of its table, by the seed tests' own
    comparison (``tests/properties/test_seed_policies.py``)."""
    for where in (ROOT / "tests", ROOT / "tests" / "properties"):
        if str(where) not in sys.path:
            sys.path.insert(0, str(where))
    from seeds import facts  # type: ignore[import-not-found]
    from test_seed_policies import _grid_diff  # type: ignore[import-not-found]

    if name not in facts():
        raise SystemExit(f"{name}: no measurements and no seed facts to check it against")
    table = facts()[name]
    cells = {
        (row[0], c): text
        for row in table["rows"]
        for c, text in zip(table["columns"], row[1:], strict=True)
    }
    try:
        problems = _grid_diff(name, table["columns"], cells)
    except AssertionError as exc:
        return f"{name}: {exc}"
    return problems[0] if problems else ""


def probe(name: str, policy: Any, rules: Any) -> list[str]:
    """Every answer the rules give to the enumeration's questions, with ``PROBE_TRIPLES`` times
    the triples drawn with another seed: what an uncaught flip is compared on."""
    from promote_cli.engine import remembering
    from promote_cli.evaluation import evaluate
    from promote_cli.program import parse
    from promote_cli.rules import NO_KERNEL
    from promote_cli.verify import cases
    from promote_cli.verify.compare import policy_answer
    from promote_cli.verify.expressions import NAMES
    from promote_cli.verify.protocol import EXPRESSION

    if not measurements(name):
        m = _matrix(policy)
        return [f"{c.result}" for row in m.cells for c in row]
    cases.TRIPLES *= PROBE_TRIPLES
    cases.SEED = PROBE_SEED
    asks = _asks(name)
    asked = cases.plan(policy, cases.settings(policy), asks, rules if asks.operations else None)
    out = []
    with remembering():
        for opts, batch in asked:
            for q in batch.questions:
                if q.kind == EXPRESSION:  # a program: every node's answer, as promote expr's
                    bound = dict(zip(NAMES, q.operands, strict=False))
                    steps = evaluate(parse(q.text), bound, policy, opts)
                    nodes = ", ".join(s.operand.dtype if s.operand else "raises" for s in steps)
                    out.append(f"{offline.describe(q)} under {opts}: [{nodes}]")
                    continue
                got = policy_answer(policy, rules, opts, q)
                gap = " (no kernel)" if got.rule == NO_KERNEL else ""
                out.append(f"{offline.describe(q)} under {opts}: {got.result or 'refused'}{gap}")
    return out


def _matrix(policy: Any) -> Any:
    from promote_cli.engine import matrix

    return matrix(policy, None, None, policy.resolve_options())


def _strip(answer: str) -> str:
    return answer.rpartition(": ")[2]


def _forget_frameworks() -> None:
    """Forget every framework module and every shared rule module imported so far (the numpy
    entry imports its spellings) and the caches that hold what they made, so that each is
    imported again, a flipped one from its flipped text."""
    from promote_cli.rules import pairs, specials

    rules_of = ("promote_cli.frameworks.", "promote_cli.shared.")
    for module in [m for m in sys.modules if m.startswith(rules_of)]:
        del sys.modules[module]
    for cached in (frameworks.entries, frameworks.notations, pairs, specials):
        cached.cache_clear()


def run(flip: Flip | None, name: str) -> Outcome | list[str]:
    """In a forked child: apply ``flip`` (None: the rules as they are, whose probe answers are
    returned), import the rules, check them, and probe them when the check says nothing."""
    _forget_frameworks()
    if flip is not None:
        sys.meta_path.insert(0, _Served(flip.module, ROOT / flip.file, flip.text()))
    try:
        policy, rules = _loaded(name)
    except Exception as exc:  # the flip made the rules unreadable
        assert flip is not None, exc
        return Outcome(flip, MALFORMED, f"{type(exc).__name__}: {exc}".splitlines()[0])
    if flip is None:
        return probe(name, policy, rules)
    try:
        found = check(name, policy, rules)
    except Exception as exc:  # the suite's test would fail with this error
        return Outcome(flip, CAUGHT, f"raised {type(exc).__name__}: {exc}".splitlines()[0])
    if found:
        return Outcome(flip, CAUGHT, found)
    return Outcome(flip, ESCAPED, "", probe(name, policy, rules))


def _task(args: tuple[Flip | None, str]) -> Outcome | list[str]:
    return run(*args)


# --- the real tests on a copy, for --pytest ---------------------------------------------------


def pytest_fails(flip: Flip) -> bool:
    """Whether the suite's own test file fails on a copy of the checkout with ``flip`` applied
    (``tests/measured/test_measured.py``, or the seed tests for a framework without
    measurements)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "checkout"
        for part in ("promote_cli", "tests", "templates"):
            shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
        (copy / flip.file).write_text(flip.text(), encoding="utf-8")
        tests = "tests/measured/test_measured.py" if measurements(flip.framework) else ""
        tests = tests or "tests/properties/test_seed_policies.py"
        done = subprocess.run(
            [
                *(sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", tests),
                *("-k", flip.framework, "-m", "not conformance"),
            ],
            cwd=copy,
            env={**os.environ, "PYTHONPATH": str(copy)},
            capture_output=True,
            check=False,
        )
        if done.returncode == 5:
            raise SystemExit(f"pytest {tests} -k {flip.framework} selected no test")
        return done.returncode != 0


# --- the run -----------------------------------------------------------------------------------


class Tally(NamedTuple):
    """One framework's flips: those that changed an answer (tried: caught or escaped), and
    those not counted (malformed, no answer changed)."""

    tried: int
    caught: int
    malformed: int
    unchanged: int
    escaped: list[Outcome]


def tally(outcomes: Sequence[Outcome]) -> Tally:
    by = {
        s: [o for o in outcomes if o.status == s] for s in (CAUGHT, ESCAPED, NO_CHANGE, MALFORMED)
    }
    tried = len(by[CAUGHT]) + len(by[ESCAPED])
    return Tally(tried, len(by[CAUGHT]), len(by[MALFORMED]), len(by[NO_CHANGE]), by[ESCAPED])


def tried_in_children(flips: Sequence[Flip], pool: Any) -> Iterator[Outcome]:
    """Each of ``flips`` (all of one framework) applied and checked in a process of its own;
    one that escapes the check is probed and judged against the rules' own answers."""
    baseline: list[str] | None = None
    for outcome in pool.imap(_task, [(f, f.framework) for f in flips]):
        assert isinstance(outcome, Outcome)
        if outcome.status == ESCAPED:
            if baseline is None:
                found = pool.apply(_task, ((None, outcome.flip.framework),))
                assert isinstance(found, list)
                baseline = found
            outcome = _judged(outcome, baseline)
        yield outcome


def flip_framework(
    name: str,
    flips: int,
    seed: int,
    pool: Any,
    on_result: Callable[[Outcome], None] = lambda o: None,
) -> Tally:
    """Draw and try flips of ``name`` until ``flips`` changed an answer (or the sites run out):
    how many were tried and caught, and every one that escaped."""
    order = drawn(name, seed)
    outcomes: list[Outcome] = []
    while (left := flips - tally(outcomes).tried) > 0:
        batch = list(itertools.islice(order, max(2, left)))
        if not batch:
            break
        for outcome in tried_in_children(batch, pool):
            if tally(outcomes).tried >= flips and outcome.status in (CAUGHT, ESCAPED):
                continue  # drawn in the last batch beyond the count asked
            on_result(outcome)
            outcomes.append(outcome)
    return tally(outcomes)


def _judged(outcome: Outcome, baseline: list[str]) -> Outcome:
    """An uncaught flip against the rules' own answers: escaped, naming the first answer that
    changed, or no answer changed at all."""
    answers = outcome.answers or []
    if len(answers) != len(baseline):
        return outcome._replace(detail=f"{len(answers)} questions, not {len(baseline)}")
    for mine, theirs in zip(answers, baseline, strict=True):
        if mine != theirs:
            return outcome._replace(detail=f"{mine} (the rules give {_strip(theirs)})")
    return outcome._replace(status=NO_CHANGE, detail="every probe answer as before")


def report(results: dict[str, Tally], seconds: float) -> list[str]:
    """The table of flips tried and caught per framework, then every escaped flip."""
    lines = [
        f"{'framework':<12} {'tried':>5} {'caught':>6} {'escaped':>7}   not counted:"
        " malformed, no answer changed"
    ]
    for name, t in results.items():
        counts = f"{t.tried:>5} {t.caught:>6} {len(t.escaped):>7}"
        lines.append(f"{name:<12} {counts}   {t.malformed}, {t.unchanged}")
    total = sum(t.tried for t in results.values())
    caught = sum(t.caught for t in results.values())
    lines.append(f"{'all':<12} {total:>5} {caught:>6} {total - caught:>7}   ({seconds:.0f} s)")
    for t in results.values():
        for o in t.escaped:
            lines.append(f"ESCAPED {o.flip.file}: {o.flip.what}")
            lines.append(f"        first changed answer: {o.detail}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flips", type=int, default=15, help="flips per framework (15)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--framework", action="append", help="only this framework (repeatable; default: all)"
    )
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--verbose", "-v", action="store_true", help="one line per flip")
    parser.add_argument(
        "--pytest",
        action="store_true",
        help="also run the test file itself on a copy with each flip, and say when it disagrees",
    )
    args = parser.parse_args(argv)
    names = args.framework or list(frameworks.names())
    for name in names:
        frameworks.entry(name)  # an unknown name is a usage error here
        measurements(name)
    start = time.perf_counter()
    results: dict[str, Tally] = {}
    disagree: list[str] = []

    def said(outcome: Outcome) -> None:
        if args.verbose:
            print(f"  {outcome.status:<17} {outcome.flip.what} | {outcome.detail}", flush=True)
        if args.pytest and outcome.status in (CAUGHT, ESCAPED):
            fails = pytest_fails(outcome.flip)
            if fails != (outcome.status == CAUGHT):
                disagree.append(
                    f"{outcome.flip.what}: check {outcome.status}, pytest fails={fails}"
                )
            elif args.verbose:
                print(f"  {'':<17} pytest agrees (fails={fails})", flush=True)

    context = multiprocessing.get_context("fork")
    with context.Pool(args.jobs, maxtasksperchild=1) as pool:
        for name in names:
            if args.verbose:
                print(name, flush=True)
            if args.pytest:  # the test file passes on the rules as they are
                unchanged = Flip(name, str(rule_files(name)[0].relative_to(ROOT)), 0, 0, "", "", "")
                if pytest_fails(unchanged):
                    raise SystemExit(f"{name}: the tests fail before any flip")
            results[name] = flip_framework(name, args.flips, args.seed, pool, said)
    for line in report(results, time.perf_counter() - start):
        print(line)
    if args.pytest:
        print(f"pytest disagreed with the check on {len(disagree)} flips")
        for line in disagree:
            print(f"  {line}")
    escaped = any(t.escaped for t in results.values())
    return 1 if escaped or disagree else 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
