"""``promote check``: every count against an independent count over the same table, the
documented examples, the JSON object, the exit codes, and the summary (the docs site shows it:
tests/documents/test_docs_figures.py)."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from promote_cli import api, frameworks
from promote_cli.check import check, summary, table_operands
from promote_cli.notations import read_dtype
from promote_cli.operands import Operand


def counts_over(table, ops):
    """Commutative pairs, associative triples and idempotent operands failing, counted over
    ``table`` (each pair of operands -> the dtype the framework answered, None where it
    refused): a refusal propagates (a refused pair refuses whatever it meets)."""
    from promote_cli.engine import as_operand

    def times(x, y):
        if x is None or y is None:
            return None
        result = table[x, y]
        return None if result is None else as_operand(result, (x, y))

    def name(op):
        return None if op is None else op.dtype

    pairs = {(a, b): times(a, b) for a, b in itertools.product(ops, repeat=2)}
    commutative = sum(
        1 for i, a in enumerate(ops) for b in ops[i + 1 :] if name(pairs[a, b]) != name(pairs[b, a])
    )
    associative = sum(
        1
        for a, b, c in itertools.product(ops, repeat=3)
        if name(times(pairs[a, b], c)) != name(times(a, pairs[b, c]))
    )
    # Two Python scalars meet in Python, not in the framework: not asked.
    idempotent = sum(1 for a in ops if a.category != "P" and name(pairs[a, a]) != a.dtype)
    return commutative, associative, idempotent


def measured_table(name, opts):
    """What the framework answered for every pair of its operands under ``opts``, as its
    measurement file keeps it (written by ``promote measure``, not by the rules)."""
    from promote_cli.verify import measured
    from promote_cli.verify.protocol import Gap, Result

    kept = measured.read(frameworks.entry(name), "pairs")
    table = {
        # a missing kernel's cell: the type the framework's dtype rule named (Paddle, ONNX)
        q.operands: cell.dtype if isinstance(cell, (Result, Gap)) else None
        for setting, q, cell in kept.cells
        if all(opts[k] == v for k, v in setting.items())
    }
    assert table, f"no measured setting of {name} is {dict(opts)}"
    return table


def seed_table(name):
    """The seed document's table of ``name`` (jax: 15 x 15, ascend: 16 x 16), as operands
    in canonical names: the document's answers, not the rules'."""
    from seeds import ascend_table, jax_table

    labels, cells = ascend_table() if name == "ascend" else jax_table()
    nota = frameworks.notation_of(frameworks.get(name))
    canonical = {label: read_dtype(label, nota) for label in labels}

    def text(cell):
        return cell[0] if isinstance(cell, tuple) else cell

    return {
        (Operand(canonical[a]), Operand(canonical[b])): (
            None if text(cell) == "×" else read_dtype(text(cell), nota)
        )
        for (a, b), cell in cells.items()
    }


# every framework of the registry that has an oracle, so measured pairs (ascend has none)
MEASURED = [e.name for e in frameworks.entries() if not e.oracle]


@pytest.mark.parametrize("name", MEASURED)
def test_counts_equal_a_count_over_the_measured_answers(name):
    req = api.request(name)
    ops = table_operands(req.policy, False)
    props = check(req, ops).properties
    got = tuple(props[p].failures for p in ("commutative", "associative", "idempotent"))
    assert got == counts_over(measured_table(name, req.options), ops)
    assert props["associative"].of == len(ops) ** 3


@pytest.mark.parametrize("name", ["jax", "ascend"])
def test_counts_equal_a_count_over_the_seed_documents_table(name):
    table = seed_table(name)
    ops = tuple(dict.fromkeys(a for a, _ in table))
    props = check(api.request(name), ops).properties
    got = tuple(props[p].failures for p in ("commutative", "associative", "idempotent"))
    assert got == counts_over(table, ops)
    if name == "ascend":  # the summary's row: 4 of 4,096 triples are not associative
        assert got == (0, 4, 0)


# (NumPy's and TensorFlow's two Python scalars meet at a 0-d array, whose pairs are not measured)
@pytest.mark.parametrize("name", ["array-api"])
def test_counts_with_every_operand_category_equal_a_count_over_the_measured_answers(name):
    req = api.request(name)
    ops = table_operands(req.policy, True)
    props = check(req, ops).properties
    got = tuple(props[p].failures for p in ("commutative", "associative", "idempotent"))
    table = measured_table(name, req.options)
    # two Python scalars meet in Python, not in the framework: not measured, not asked
    table.update({(a, b): None for a in ops for b in ops if (a, b) not in table})
    assert got == counts_over(table, ops)


def test_numpy_reports_its_documented_non_associative_triple(run):
    result = run("check", "numpy", "-n", "numpy", "--examples", "0")
    assert "(u2 x i1) x f4 = f8 but u2 x (i1 x f4) = f4" in result.output
    assert result.exit_code == 0  # NumPy declares no associativity: nothing declared fails


def test_numpy_on_the_three_documented_types_fails_only_there(run):
    result = run("check", "numpy", "-n", "numpy", "--types", "u2,i1,f4")
    # the documented grouping, its mirror (i1 x u2) and the two with f4 on the left
    assert "associative  FAILS: 4 of 27 triples" in result.output
    assert "(u2 x i1) x f4 = f8 but u2 x (i1 x f4) = f4" in result.output


def test_torch_json_lists_int32_with_bfloat16_as_losing_int32_values(run):
    result = run("check", "torch", "--json")
    body = json.loads(result.output)
    assert body["schema"] == 1 and body["command"] == "check" and body["policy"] == "torch"
    assert {"commutative", "associative"} <= set(body["properties"])
    for prop in body["properties"].values():
        assert {"holds", "count", "examples"} <= set(prop)
    cells = [
        c
        for c in body["lossy"]
        if (c["a"]["canonical"], c["b"]["canonical"])
        in {("int32", "bfloat16"), ("bfloat16", "int32")}
    ]
    assert len(cells) == 1
    cell = cells[0]
    assert cell["result"] == "bfloat16"
    int32_side = "a" if cell["a"]["canonical"] == "int32" else "b"
    assert cell["loses"] == [int32_side]
    assert cell["example"] == "int32 257 -> bfloat16 256"


def test_a_declared_property_that_fails_exits_1_and_says_which(run):
    # array-api declares a lattice; two Python scalars are refused while an array of either
    # kind accepts them, so with every operand the answers are not associative.
    result = run("check", "array-api", "--categories")
    assert result.exit_code == 1
    assert "declared and failing: associative" in result.output
    assert run("check", "array-api").exit_code == 0


def test_jax_pairwise_answers_are_not_a_lattice_where_a_weak_float_is_materialised(run):
    # jnp.promote_types(uint64, int8) is float64 (the weak float node, materialised), and
    # float64 is not below float16: (u8 x i1) x f2 = f8 but u8 x (i1 x f2) = f2.
    result = run("check", "jax", "--types", "u8,i1,f2", "-e", "0")
    assert "(u8 x i1) x f2 = f8 but u8 x (i1 x f2) = f2" in result.output
    assert result.exit_code == 1


def test_a_refusal_propagates_through_a_grouping():
    req = api.request("torch", operands=["bool", "uint16", "float16"])
    report = check(req, req.operands, limit=0)
    texts = [e.text(req.notation) for e in report.properties["associative"].examples]
    assert "(bool x uint16) x float16 is refused but bool x (uint16 x float16) = float16" in texts


def test_unknown_policy_and_missing_name_are_usage_errors(run):
    assert run("check", "nope").exit_code == 2
    assert run("check").exit_code == 2


def test_summary_has_a_row_per_builtin_policy():
    rows = [line for line in summary().splitlines() if line.startswith("| `")]
    named = {re.match(r"\| `([\w-]+)", row).group(1) for row in rows}
    assert named == set(frameworks.names())
