"""``promote verify`` asks programs: random ``promote expr`` programs run for real as the oracle
protocol's EXPRESSION questions, a record per node, judged node by node, kept by ``promote
measure`` (``expressions.json``) and compared offline by tests/measured/test_measured.py.

The dtypes asserted are NumPy's measured answers (``promote op`` cells its measurements keep)."""

from __future__ import annotations

import importlib
import json

import pytest

from promote_cli import frameworks
from promote_cli.operands import Operand
from promote_cli.verify import cases, measured
from promote_cli.verify import expressions as real
from promote_cli.verify.protocol import (
    EXPRESSION,
    Nodes,
    Refusal,
    Result,
    Unobservable,
    decode,
    encode,
)


def _oracle(name: str):
    return importlib.import_module(f"{frameworks.entry(name).package}.oracle")


@pytest.mark.parametrize("name", frameworks.names())
def test_an_oracle_runs_programs_exactly_when_it_provides_primitives(name):
    try:
        module = _oracle(name)
    except ModuleNotFoundError:
        pytest.skip(f"{name} has no oracle module")
    assert module.ASKS.expressions == hasattr(module, "Primitives")


def test_a_programs_record_crosses_a_worker_and_back():
    cell = Nodes((None, Result("int16"), Result("float32", rebound=True), Refusal("no"), None))
    assert decode(json.loads(json.dumps(encode(cell)))) == cell


def test_numpy_is_asked_340_programs_under_each_setting_and_none_under_legacy():
    numpy = frameworks.get("numpy")
    rules = frameworks.operations(numpy)
    combos = cases.settings(numpy)
    batches = [b for _, b in cases.plan(numpy, combos, _oracle("numpy").ASKS, rules)]
    programs = [b for b in batches if b.kind == EXPRESSION]
    assert [len(b.questions) for b in programs] == [340, 340]
    # the last 40 call where, with conditions of other types than bool too
    where = [q for q in programs[0].questions[300:] if "where(" in q.text]
    assert len(where) == 40
    conditions = {
        q.operands[0].dtype for q in where if q.text.startswith(("where(x,", "(where(x,"))
    }
    assert conditions - {"bool"}
    legacy = cases.settings(numpy, {"promotion": "legacy"})
    planned = cases.plan(numpy, legacy, _oracle("numpy").ASKS, rules)
    assert not any(b.kind == EXPRESSION for _, b in planned)


def test_a_program_question_names_the_functions_it_calls_under_the_setting():
    numpy = frameworks.get("numpy")
    functions = {"sqrt": "np.sqrt", "add": "np.add", "divide": "np.divide"}
    q = real.question("sqrt(x) + add(x, y)", (Operand("int8"), Operand("uint8")), functions)
    assert (q.kind, q.text, q.function) == (
        EXPRESSION,
        "sqrt(x) + add(x, y)",
        "sqrt=np.sqrt add=np.add",
    )
    del numpy


def test_a_program_agrees_node_by_node_and_names_the_first_node_that_differs():
    numpy = frameworks.get("numpy")
    opts = numpy.resolve_options()
    q = real.question("(x + y) / 2", (Operand("int8"), Operand("uint8")), {})
    # nodes: x, y, x + y, 2, (x + y) / 2; NumPy: int8 + uint8 is int16, int16 / 2 float64
    right = Nodes((None, None, Result("int16"), None, Result("float64")))
    assert real.judge(numpy, opts, q, right) == real.Judged(2)
    wrong = Nodes((None, None, Result("int16"), None, Result("float32")))
    found = real.judge(numpy, opts, q, wrong)
    assert (found.nodes, found.node, found.promote) == (2, "(x + y) / 2", "float64")
    raised = Nodes((None, None, Unobservable("the values raise: ..."), None, None))
    assert real.judge(numpy, opts, q, raised).skipped


def test_numpys_same_kind_refusal_of_an_update_agrees_with_the_framework_raising():
    numpy = frameworks.get("numpy")
    opts = numpy.resolve_options()
    q = real.question("x += 1.5", (Operand("int8"),), {})
    # nodes: x, 1.5, x += 1.5: NumPy refuses to cast float64 into the int8 array
    assert real.judge(numpy, opts, q, Nodes((None, None, Refusal("UFuncTypeError")))).nodes == 1
    assert not real.judge(numpy, opts, q, Nodes((None, None, Refusal("UFuncTypeError")))).node
    found = real.judge(numpy, opts, q, Nodes((None, None, Result("float64", rebound=True))))
    assert (found.node, found.promote) == ("x += 1.5", "raises (update-refused)")


def test_measured_programs_read_back_as_the_questions_verify_asks():
    numpy = frameworks.get("numpy")
    found = measured.read(frameworks.entry("numpy"), "expressions")
    assert found is not None
    rules = frameworks.operations(numpy)
    for opts in cases.settings(numpy):
        kept = [q for o, q, _ in found.cells if o == opts]
        assert kept == real.questions(numpy, rules, opts)
    assert all(isinstance(c, Nodes) for _, _, c in found.cells)


@pytest.mark.conformance("numpy")
def test_numpys_programs_run_now_agree_with_promote_node_by_node():
    np = pytest.importorskip("numpy")
    numpy = frameworks.get("numpy")
    rules = frameworks.operations(numpy)
    opts = numpy.resolve_options()
    asked = real.questions(numpy, rules, opts, 100)
    cells = real.answer(_oracle("numpy").Primitives(np, opts), asked)
    judged = [real.judge(numpy, opts, q, c) for q, c in zip(asked, cells, strict=True)]
    assert [j for j in judged if j.node] == []
    assert sum(j.nodes for j in judged) > 200
