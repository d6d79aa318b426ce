"""``promote drift``: a framework's installed version against its measurements, with stand-in
frameworks (``oracles.stand_in``: the rules' own answers, except where told), so these run
with no framework installed; and once against the real one, when it is installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from oracles import stand_in

from promote_cli import frameworks
from promote_cli.verify import drift, measured, offline
from promote_cli.verify.protocol import OPERATION, PAIR, Asks, Gap, Nodes, Result

ROOT = Path(__file__).resolve().parents[2]
NAME = "array-api"  # the smallest measurements: pairs, triples, values, operations, programs
EVERY = Asks(nary=True, operations=True, operation_values=True, expressions=True)
KEPT = 60  # cells kept of each measured file: every kind of question, asked in a moment


def keep(monkeypatch, cells):
    """``drift`` reads ``NAME``'s files with ``cells(file, cells)`` of each (none: the file is
    left out); the files it reads, by name."""
    real = drift.files

    def kept(entry, apart):
        found = {f: m._replace(cells=cells(f, m.cells)) for f, m in real(entry, apart).items()}
        return {f: m for f, m in found.items() if m.cells}

    monkeypatch.setattr(drift, "files", kept)
    return kept(frameworks.entry(NAME), "")


@pytest.fixture
def trimmed(monkeypatch):
    """``KEPT`` cells spread over each of ``NAME``'s measured files but its programs (a
    stand-in runs a program as promote expr answers it, which keeps no ``a op= b`` apart)."""
    return keep(
        monkeypatch,
        lambda f, cells: [] if f == "expressions" else cells[:: max(1, len(cells) // KEPT)],
    )


@pytest.fixture
def framework(monkeypatch):
    """framework(version, **told): ``NAME``'s oracle is a stand-in reporting ``version``
    (``oracles.stand_in``'s ``told``); the questions it was asked are collected."""
    real = frameworks.oracle
    asked: list = []

    def put(version: str, **told):
        module = stand_in(NAME, asks=EVERY, **told)
        answer = module.answer

        def counted(handle, opts, questions):
            asked.extend(questions)
            return answer(handle, opts, questions)

        module.answer = counted
        module.version = lambda handle: version
        monkeypatch.setattr(frameworks, "oracle", lambda n: module if n == NAME else real(n))
        return asked

    return put


def measured_version() -> str:
    return measured.read(frameworks.entry(NAME), "pairs").version


def first(files, kind: str):
    """The first measured cell of a kind: (options, question, recorded cell)."""
    return next(c for m in files.values() for c in m.cells if c[1].kind == kind)


def told(q):
    """A stand-in's ``wrong`` key for the question ``q``."""
    return q.operands if q.kind != OPERATION else (q.operation, q.operands)


# --- the outcomes -----------------------------------------------------------------------------


def test_the_measured_version_is_as_measured_after_one_question(run, framework):
    version = measured_version()  # array-api-strict's, as its oracle spells it
    asked = framework(version)
    done = run("drift", NAME)
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == f"{NAME}: array-api-strict {version}: as measured"
    assert len(asked) == 1  # only what starts a worker: nothing is asked again


def test_another_version_answering_every_cell_as_recorded_holds(run, framework, trimmed):
    asked = framework("9.9")
    done = run("drift", NAME)
    cells = sum(len(m.cells) for m in trimmed.values())
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == (
        f"{NAME}: array-api-strict 9.9, measured on {measured_version()}:"
        f" all {cells:,} measured cells answer as measured"
    )
    assert len(asked) == 1 + cells  # the version's question, then every measured one
    assert {q.kind for q in asked} == {PAIR, "result_type", "chain", "value", OPERATION}


def test_a_cell_answered_otherwise_is_drift_grouped_by_its_cause(run, framework, trimmed):
    # Two pairs that now give complex128 (one change, one cause), and an operation that now
    # has no kernel (another place, another cause).
    pairs = [c for c in trimmed["pairs"].cells if isinstance(c[2], Result)][1:3]
    _, op, op_was = first(trimmed, OPERATION)
    wrong = {told(q): "complex128" for _, q, _ in pairs}
    wrong[told(op)] = Gap("RuntimeError: no kernel")
    framework("9.9", wrong=wrong)
    done = run("drift", NAME, "--limit", "2")
    assert done.exit_code == 1, done.output
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{NAME}: array-api-strict 9.9, measured on {measured_version()}:")
    assert lines[0].endswith(
        f"3 of {sum(len(m.cells) for m in trimmed.values()):,} cells"
        f" changed, 2 causes (pairs 2, {op.operation} 1)"
    )
    rule = frameworks.get(NAME).promote(*pairs[0][1].operands, {}).rule
    said = [offline.answer_text(c) for _, _, c in pairs]
    assert lines[1] == f"{NAME}: 3 changed cells, by cause:"
    assert lines[2].startswith(f"  pairs, rule {rule}: 2 cells; ")
    assert f"{said[0]} -> complex128" in lines[2]
    assert lines[3].startswith(f"  {op.operation}, rule ")
    assert f"{offline.answer_text(op_was)} -> a missing kernel (no type named) 1" in lines[3]
    # Then the first cells, as many as --limit, and how many more there are.
    assert lines[4] == f"{NAME}: the first 2 changed cells:"
    assert lines[5] == f"  {offline.describe(pairs[0][1])}: measured {said[0]}, now complex128"
    assert lines[7] == "  ... and 1 more (--limit N, or --json for all)"
    assert lines[-1] == "1 framework: 1 drifted"


def test_json_holds_every_changed_cell_with_its_records(run, framework, trimmed):
    _, q, was = first(trimmed, PAIR)
    framework("9.9", wrong={told(q): "refused"})
    done = run("drift", NAME, "--json", "--limit", "0")
    assert done.exit_code == 1, done.output
    doc = json.loads(done.stdout)
    assert doc["command"] == "drift" and doc["ok"] is False
    [found] = doc["frameworks"]
    assert found["status"] == drift.DRIFTED and found["installed"] == "9.9"
    assert found["measured"] == [measured_version()] and found["changed"] == 1
    [cause] = found["causes"]
    assert cause["place"] == "pairs" and cause["count"] == 1
    assert cause["changes"] == [{"was": measured.record(was), "now": ["refused"], "count": 1}]
    [cell] = cause["cells"]
    assert cell["operands"] == [measured.operand_key(x) for x in q.operands]
    assert (cell["was"], cell["now"], cell["kind"]) == (measured.record(was), ["refused"], PAIR)


def test_a_program_is_grouped_by_its_first_node_that_changed(framework, monkeypatch):
    files = keep(monkeypatch, lambda f, cells: cells[:1] if f == "expressions" else [])
    _, program, was = first(files, "expression")
    assert isinstance(was, Nodes)
    node = next(i for i, c in enumerate(was.cells) if c is not None)
    now = Nodes(tuple(Result("int8") if i == node else c for i, c in enumerate(was.cells)))
    framework("9.9", wrong={program.operands: now})
    pol = frameworks.get(NAME)
    found = drift.drift(pol, frameworks.entry(NAME), frameworks.oracle(NAME), None)
    assert found.status == drift.DRIFTED
    [group] = found.groups
    [change] = group.changes
    assert (group.place, group.rule, change.node) == ("programs", "", node)
    assert (change.was, change.now) == (offline.answer_text(was.cells[node]), "int8")
    assert change.text().endswith(f": measured {change.was}, now int8 at node {node}")


def test_grouping_puts_one_place_and_rule_together_and_tallies_its_changes():
    from promote_cli.operands import Operand
    from promote_cli.verify.protocol import Question

    # The grouping reads each change's place (its kind, an operation's name) and rule.
    a, b, c = Operand("int8"), Operand("uint8"), Operand("int16")
    made = [
        drift.Change({}, Question(PAIR, (a, b)), "int16", "int32", "table"),
        drift.Change({}, Question(PAIR, (b, a)), "int16", "int32", "table"),
        drift.Change({}, Question(PAIR, (a, c)), "int16", "refused", "table"),
        drift.Change({}, Question(OPERATION, (a,), "sum", "xp.sum"), "int64", "int8", "kind"),
    ]
    pairs, summed = drift.grouped(made)
    assert (pairs.place, pairs.rule, len(pairs.changes)) == ("pairs", "table", 3)
    assert [(ch.now, n) for ch, n in pairs.tally()] == [("int32", 2), ("refused", 1)]
    # The examples show each change before a second cell of one.
    assert [e.question.operands for e in pairs.examples()] == [(a, b), (a, c), (b, a)]
    assert (summed.place, summed.rule) == ("sum", "kind")
    assert drift.summary([pairs, summed]) == "pairs 3, sum 1"


# --- frameworks that cannot be asked, and bad input -----------------------------------------


def test_a_framework_not_installed_is_skipped_unless_required(run, monkeypatch):
    module = stand_in(NAME, missing=True)
    real = frameworks.oracle
    monkeypatch.setattr(frameworks, "oracle", lambda n: module if n == NAME else real(n))
    done = run("drift", NAME)
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith(f"{NAME}: not installed, skipped (No module named 'fakework';")
    assert run("drift", NAME, "--require").exit_code == 1


def test_a_framework_with_nothing_to_ask_is_one_line_and_exit_0_in_a_real_process():
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "drift", "ascend"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    reason = frameworks.entry("ascend").oracle
    assert done.stdout.splitlines() == [f"ascend: {reason}", "1 framework: 1 with nothing to ask"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["nosuch"], "nosuch"),
        (["./mine.toml"], "./mine.toml: a policy file has no measurements; name a framework"),
        (["torch", "--python", "/nonexistent/python"], "/nonexistent/python"),
        (["torch", "--limit", "-1"], "-1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run, args, said):
    done = run("drift", *args)
    assert done.exit_code == 2, done.output
    [line] = done.stderr.splitlines()
    assert line.startswith("promote: error: ") and said in line


# --- the real framework ---------------------------------------------------------------------


@pytest.mark.conformance
def test_the_installed_framework_at_its_measured_version_is_as_measured(run):
    from promote_cli.verify.driver import oracle

    name = "mlx"
    named = drift.sets(frameworks.entry(name))[0][1]
    orc = oracle(name)
    try:
        found = drift.drift(frameworks.get(name), frameworks.entry(name), orc, None)
    except ImportError as exc:
        pytest.skip(f"{name} is not installed ({exc})")
    if found.installed not in drift.versions(named):
        pytest.skip(f"{name} {found.installed} is not the measured {drift.versions(named)}")
    assert found.status == drift.AS_MEASURED and found.groups == []


@pytest.mark.conformance
def test_another_interpreter_is_asked_in_a_worker_and_named(run):
    pytest.importorskip("mlx.core", reason="mlx is not installed")
    done = run("drift", "mlx", "--python", sys.executable)
    installed = drift.versions(drift.sets(frameworks.entry("mlx"))[0][1])[0]
    first = done.stdout.splitlines()[0]
    if "as measured" not in first:
        pytest.skip(f"mlx here is not the measured {installed}: {first}")
    assert done.exit_code == 0, done.output
    assert first == f"mlx: mlx {installed} ({sys.executable}): as measured"
