"""Every framework's rules against its checked-in measurements, with no framework installed.

``promote measure`` wrote down what each framework answered (``promote_cli/frameworks/<name>/
measured/``); here every policy is asked every measured question (pairs under every option
setting, the triples under both n-ary questions, the valued Python scalars, every case of every
operation, NumPy's spellings) and each cell where its rules give another answer is named. So a
wrong rule cell of any framework fails a plain clone's tests. Where the framework is installed
at the version measured, a sample asked again must give the files' answers (the drift tests,
``conformance``); with another version they skip, saying which.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import json
from collections import defaultdict

import pytest

from promote_cli import frameworks
from promote_cli.errors import PromotionError
from promote_cli.operands import Operand
from promote_cli.verify import measured, offline
from promote_cli.verify.compare import AGREE, GAP, MISMATCH, judged
from promote_cli.verify.expressions import answered_by
from promote_cli.verify.protocol import (
    OPERATION,
    PAIR,
    Asks,
    Gap,
    Question,
    Refusal,
    Result,
    opened,
)

MEASURED = [e.name for e in frameworks.entries() if not e.oracle]


def rules_of(name: str):
    try:
        return frameworks.operations(frameworks.get(name))
    except PromotionError:
        return None


@functools.cache
def files(name: str) -> dict[str, measured.Measured]:
    entry = frameworks.entry(name)
    found = {f: measured.read(entry, f) for f in measured.FILES}
    return {f: m for f, m in found.items() if m is not None}


@functools.cache
def found(name: str) -> offline.Findings:
    """The offline comparison of ``name``'s files, in one pass: what differs from the rules,
    and the missing kernels the rules claim that no cell shows or no cell reaches. (With
    pytest-xdist a framework's tests run in one worker, which makes this pass once: conftest.py.)"""
    return offline.findings(frameworks.get(name), files(name), rules_of(name))


def asks(name: str):
    return importlib.import_module(f"{frameworks.entry(name).package}.oracle").ASKS


def test_every_framework_with_an_oracle_has_measurements():
    # MEASURED is read from the registry: a framework added is compared below with no line
    # here. Ascend alone has no oracle (its runtime needs Ascend hardware).
    assert [e.name for e in frameworks.entries() if e.name not in MEASURED] == ["ascend"]
    for name in MEASURED:
        # The files are read in full, and compared, by the tests below; here, that each
        # framework has its pairs, of its own.
        text = measured.text(frameworks.entry(name), "pairs")
        assert text is not None, name
        assert json.loads(text)["framework"] == name


@pytest.mark.parametrize("name", MEASURED)
def test_every_measured_cell_is_what_the_rules_give(name):
    problems = found(name).differences
    assert not problems, f"{len(problems)} cells differ:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("name", MEASURED)
def test_everything_the_policy_is_asked_was_measured(name):
    # A type, an option value or an operation added since the files were written is a cell no
    # file holds: measure again.
    missing = offline.unmeasured(frameworks.get(name), asks(name), rules_of(name), files(name))
    assert missing == []


@pytest.mark.parametrize("name", MEASURED)
def test_every_missing_kernel_the_rules_claim_was_seen_missing(name):
    # Each operation and type the rules mark no-kernel must have raised somewhere (a cell where
    # the framework ran is a mismatch already; this names the claim no cell shows).
    if "operations" not in files(name) or rules_of(name) is None:
        pytest.skip(f"{name}'s oracle calls no operations")
    assert found(name).unwitnessed == []


@pytest.mark.parametrize("name", MEASURED)
def test_every_missing_kernel_a_rule_declares_marks_a_measured_cell(name):
    # A refusal agrees with a missing kernel, so a refusal put in front of one (PyTorch's abs
    # refusing the bool it has no kernel for) changes no verdict; it leaves the entry unreached.
    if "operations" not in files(name) or rules_of(name) is None:
        pytest.skip(f"{name}'s oracle calls no operations")
    assert found(name).unreached == []


# Settings measured apart, on another version (NumPy's promotion=legacy on NumPy 1.26.4, and its
# ml_dtypes=0.5 and 0.6 with ml_dtypes 0.5.4 and 0.6.0; torch's release=2.14 and 2.15 on 2.14.1
# and 2.15.0), or for their cost (TensorFlow's function=true: every operation traced).
APART = [(e.name, a) for e in frameworks.entries() for a in e.measured_apart]
APART_IDS = [f"{name}-{a.directory}" for name, a in APART]


@functools.cache
def apart_files(name: str, directory: str) -> dict[str, measured.Measured]:
    entry = frameworks.entry(name)
    found = {f: measured.read(entry, f, directory) for f in measured.FILES}
    return {f: m for f, m in found.items() if m is not None}


def test_numpys_legacy_promotion_ml_dtypes_0_6_and_torchs_newer_releases_are_measured_apart():
    assert [(name, a.option, a.value, a.version) for name, a in APART] == [
        ("numpy", "promotion", "legacy", "1.26.4"),
        ("numpy", "ml_dtypes", "0.5", "2.4.6"),
        ("numpy", "ml_dtypes", "0.6", "2.4.6"),
        ("torch", "release", "2.14", "2.14.1"),
        ("torch", "release", "2.15", "2.15.0"),
        ("tensorflow", "ml_dtypes", "0.6", "2.21.0"),
        ("tensorflow", "function", True, "2.21.0"),
    ]
    # Pairs, triples and values, and the operations: spellings are the current version's.
    assert sorted(apart_files("numpy", "promotion-legacy")) == ["nary", "operations", "pairs"]
    # each with the release of ml_dtypes its answers are NumPy's with
    for release, version in (("0.5", "0.5.4"), ("0.6", "0.6.0")):
        found = apart_files("numpy", f"ml_dtypes-{release}")
        assert sorted(found) == ["nary", "operations", "pairs"]
        assert {m.version for m in found.values()} == {f"2.4.6 (ml_dtypes {version})"}
    assert {m.version for m in files("numpy").values()} == {"2.4.6 (ml_dtypes 0.7.0)"}
    assert {m.version for m in apart_files("tensorflow", "ml_dtypes-0.6").values()} == {
        "2.21.0 (ml_dtypes 0.6.0)"
    }
    # TensorFlow inside tf.function: the same release as its own set, no programs
    traced = apart_files("tensorflow", "function-true")
    assert sorted(traced) == ["nary", "operations", "pairs"]
    assert {m.version for m in traced.values()} == {"2.21.0 (ml_dtypes 0.7.0)"}
    # torch's releases: no spellings or programs apart (the entry's set has 2.13.0's)
    for release, version in (("2.14", "2.14.1"), ("2.15", "2.15.0")):
        found = apart_files("torch", f"release-{release}")
        assert sorted(found) == ["nary", "operations", "pairs"]
        assert {m.version for m in found.values()} == {version}
    assert {m.version for m in files("torch").values()} == {"2.13.0"}


@pytest.mark.parametrize(("name", "apart"), APART, ids=APART_IDS)
def test_every_cell_measured_apart_is_what_the_rules_give(name, apart):
    files_apart = apart_files(name, apart.directory)
    problems = offline.findings(frameworks.get(name), files_apart, rules_of(name)).differences
    assert not problems, f"{len(problems)} cells differ:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize(("name", "apart"), APART, ids=APART_IDS)
def test_everything_asked_under_a_setting_apart_was_measured_there(name, apart):
    pinned = {apart.option: apart.value}
    files_apart = apart_files(name, apart.directory)
    policy = frameworks.get(name)
    assert offline.unmeasured(policy, asks(name), rules_of(name), files_apart, pinned) == []
    # Every setting of those files is one with that value, and none of the entry's own set is.
    assert {m[0][apart.option] for f in files_apart.values() for m in f.cells} == {apart.value}
    assert all(m[0][apart.option] != apart.value for f in files(name).values() for m in f.cells)


@pytest.mark.parametrize(("name", "apart"), APART, ids=APART_IDS)
def test_a_set_measured_apart_names_its_own_version(name, apart):
    found = apart_files(name, apart.directory)
    assert {m.version.split()[0] for m in found.values()} == {apart.version}
    assert all(m.framework == name for m in found.values())


@pytest.mark.parametrize("name", MEASURED)
def test_the_measurements_are_of_the_version_the_entry_names(name):
    found = files(name)
    versions = {m.version for m in found.values()}
    assert len(versions) == 1, versions
    assert versions.pop().split()[0] == frameworks.entry(name).version
    assert all(m.framework == name for m in found.values())


# --- what the comparison says ---------------------------------------------------------------


def test_a_measured_cell_the_rules_do_not_give_is_named_with_both_answers():
    numpy = frameworks.get("numpy")
    opts = {"ml_dtypes": False}
    asked = Question(PAIR, (Operand("int8"), Operand("uint8")))
    wrong = measured.Measured("numpy", "2.4.6", "2026-01-01", [(opts, asked, Result("int32"))])
    assert list(offline.differences(numpy, wrong, None)) == [
        "numpy int8 x uint8 under {'ml_dtypes': False}: measured int32, rules give int16"
    ]


def test_a_flipped_rule_cell_fails_the_comparison(monkeypatch):
    # The numpy policy's table says int8 x uint8 is int16; flip that one cell.
    numpy = frameworks.get("numpy")
    cells = dict(numpy.table.cells)
    cells["int8", "uint8"] = cells["uint8", "int8"] = "int32"
    monkeypatch.setattr(numpy, "table", numpy.table._replace(cells=cells))
    assert numpy.promote(Operand("int8"), Operand("uint8"), {"ml_dtypes": False}).result == "int32"
    found = [
        line
        for line in offline.differences(numpy, files("numpy")["pairs"], None)
        if "int8 x uint8 " in line
    ]
    assert found == [
        "numpy int8 x uint8 under {'ml_dtypes': False, 'promotion': 'weak'}: measured int16,"
        " rules give int32",
        "numpy int8 x uint8 under {'ml_dtypes': '0.7', 'promotion': 'weak'}: measured int16,"
        " rules give int32",
    ]
    # The one pass the tests above assert on names the same cells (both orders of the pair).
    pairs = {"pairs": files("numpy")["pairs"]}
    one_pass = offline.findings(numpy, pairs, None).differences
    assert one_pass == list(offline.differences(numpy, pairs["pairs"], None))
    assert len(one_pass) == 4 and set(found) < set(one_pass)


def test_a_missing_kernel_no_cell_shows_or_no_cell_reaches_is_named():
    # MindSpore has no CPU kernel for add of bools: its eight bool cells (a bool tensor, 0-d or
    # not, with a bool tensor or a Python bool) raised, and the four with a Python bool's value
    # (True and False, beside a dimensioned tensor, on either side) too (measured).
    policy, rules = frameworks.get("mindspore"), rules_of("mindspore")
    # add's cells alone: the other operations' no-kernel entries are not this test's.
    every = files("mindspore")["operations"]
    ops = every._replace(cells=[(o, q, c) for o, q, c in every.cells if q.operation == "add"])

    def add_of_bools(q: Question) -> bool:
        return q.operation == "add" and all(x.dtype == "bool" for x in q.operands)

    assert [c for _, q, c in ops.cells if add_of_bools(q)] == [Gap("", None)] * 12
    assert offline.findings(policy, {"operations": ops}, rules) == ([], [], [])
    # Had they run, giving bool: twelve mismatches (a gap claimed where the kernel runs), and a
    # missing kernel the rules claim and no cell shows.
    ran = ops._replace(
        cells=[(o, q, Result("bool") if add_of_bools(q) else c) for o, q, c in ops.cells]
    )
    found = offline.findings(policy, {"operations": ran}, rules)
    assert found.differences == list(offline.differences(policy, ran, rules))
    assert len(found.differences) == 12
    assert found.differences[0] == (
        "mindspore add(bool, bool) under {}: measured bool, rules give bool with no CPU kernel"
        " (a gap)"
    )
    assert (
        found.unwitnessed
        == offline.unwitnessed(policy, ran, rules)
        == ["mindspore add of bool under {}: the rules mark it no-kernel, but every such cell ran"]
    )
    assert found.unreached == []
    # Had they not been asked: the rule's bool entry marks no measured cell.
    unasked = ops._replace(cells=[(o, q, c) for o, q, c in ops.cells if not add_of_bools(q)])
    found = offline.findings(policy, {"operations": unasked}, rules)
    assert (found.differences, found.unwitnessed) == ([], [])
    assert (
        found.unreached
        == offline.unreached(unasked, rules)
        == ["add: no_kernel declares bool, which no measured cell reaches"]
    )


def test_a_refusal_agrees_with_a_refusal_and_a_gap_with_the_no_kernel_rule():
    torch, rules = frameworks.get("torch"), rules_of("torch")
    opts = {"release": "2.13"}  # the setting torch's own set records
    pair = Question(PAIR, (Operand("uint16"), Operand("int8")))
    assert judged(torch, rules, opts, pair, Refusal("")).status != MISMATCH
    assert judged(torch, rules, opts, pair, Result("int16")).status == MISMATCH
    # A promotion question whose kernel is missing stands for the type the message names.
    assert judged(torch, rules, opts, pair, Gap("", "int16")).status == MISMATCH
    # An operation cell the rules mark no-kernel: a gap where torch raised for want of one, a
    # mismatch where it returned a dtype, the rule's included (a float8 tensor times a 0-d one
    # raised "mul_cpu_reduced_float" not implemented; measured, torch 2.13.0).
    e5m2 = Operand("float8_e5m2")
    mul = Question(OPERATION, (e5m2, e5m2._replace(category="S")), "multiply", "torch.mul")
    assert judged(torch, rules, opts, mul, Gap("", None)).status == GAP
    assert judged(torch, rules, opts, mul, Result("float8_e5m2")).status == MISMATCH
    # Two float8 tensors: torch returned float8_e5m2 (measured), which the rules now give.
    both = mul._replace(operands=(e5m2, e5m2))
    assert judged(torch, rules, opts, both, Result("float8_e5m2")).status == AGREE


def _twins(ops: tuple[str, ...]) -> tuple[dict, measured.Measured]:
    """NumPy's measured cells of ``ops`` under its first setting, and that setting."""
    every = files("numpy")["operations"]
    opts = every.cells[0][0]
    cells = [(o, q, c) for o, q, c in every.cells if o is opts and q.operation in ops]
    return opts, every._replace(cells=cells)


def test_twin_tables_are_answered_once_and_a_planted_difference_in_either_is_caught(
    monkeypatch,
):
    from promote_cli import walk
    from promote_cli.rules import D, Operations

    # NumPy's add and multiply: one rule but for its function (np.add, np.multiply), and the
    # same measured answer in each of their cells (NumPy 2.4.6): twins.
    numpy, rules = frameworks.get("numpy"), rules_of("numpy")
    opts, twins = _twins(("add", "multiply"))
    table = {
        name: [(q.operands, c) for _, q, c in twins.cells if q.operation == name]
        for name in ("add", "multiply")
    }
    assert table["add"] == table["multiply"] and len(table["add"]) == 1_184
    add, multiply = rules.under(opts)["add"], rules.under(opts)["multiply"]
    assert (add.function, multiply.function) == ("np.add", "np.multiply")
    assert add._replace(function="") == multiply._replace(function="")
    # The rules answer add's cells, and not multiply's again.
    asked: list[str] = []
    real = walk.answer
    monkeypatch.setattr(
        walk, "answer", lambda r, name, xs, o: asked.append(name) or real(r, name, xs, o)
    )
    assert offline.findings(numpy, {"operations": twins}, rules) == ([], [], [])
    assert asked == ["add"] * 1_184

    def measured_as(dtype: str, *names: str) -> measured.Measured:
        """``twins`` with the cell int8 x uint8 of ``names`` measured ``dtype``."""
        planted = (D("int8"), D("uint8"))
        return twins._replace(
            cells=[
                (o, q, Result(dtype) if q.operation in names and q.operands == planted else c)
                for o, q, c in twins.cells
            ]
        )

    line = "numpy {}(int8, uint8) under {}: measured int32, rules give int16"
    # A planted difference in the twin's measured cells: they are twins no more.
    found = offline.findings(numpy, {"operations": measured_as("int32", "multiply")}, rules)
    assert found.differences == [line.format("multiply", opts)]
    # The same difference in both: found in the first and still named in the second.
    found = offline.findings(numpy, {"operations": measured_as("int32", "add", "multiply")}, rules)
    assert found.differences == [line.format(name, opts) for name in ("add", "multiply")]
    # A planted difference in the twin's rule (int16's product made float64), the cells as
    # measured: every cell measured int16 of multiply's, and none of add's, is named.
    real_setting = Operations.setting

    def setting(self, o):
        found, maps, values = real_setting(self, o)
        if self is rules:
            overridden = found["multiply"]._replace(overrides={"int16": "float64"})
            found = {**found, "multiply": overridden}
        return found, maps, values

    monkeypatch.setattr(Operations, "setting", setting)
    found = offline.findings(numpy, {"operations": twins}, rules)
    int16 = [x for x, c in table["multiply"] if c == Result("int16")]
    assert len(int16) > 10
    assert found.differences == [
        f"numpy {offline.describe(Question(OPERATION, x, 'multiply'))} under {opts}:"
        " measured int16, rules give float64"
        for x in int16
    ]


def test_a_file_reads_back_the_cells_it_was_written_from():
    numpy = frameworks.get("numpy")
    found = files("numpy")
    text = measured.text(frameworks.entry("numpy"), "pairs")
    assert text is not None
    doc = json.loads(text)
    assert (doc["framework"], doc["format"]) == ("numpy", measured.FORMAT)
    pairs = found["pairs"].cells
    operands = {json.dumps(o, sort_keys=True): numpy.operands(o) for o, _, _ in pairs}
    assert len(pairs) == sum(len(ops) ** 2 for ops in operands.values())


# --- the drift tests: the installed framework, when it is the version measured --------------

# How many cells of each file are asked again, spread over the file.
SAMPLE = 120


def asked_again(name: str, orc) -> tuple[str, list[str]]:
    """A sample of each of ``name``'s files asked of ``orc`` again: the version it reports and
    one line per cell that answers otherwise. ``ImportError`` when it is not installed."""
    found = files(name)
    with opened(orc) as handle:
        asked: list[tuple[Question, object, object]] = []
        # File by file, in the enumeration's order: operations after the promotion questions
        # (calling them can change a framework for good: TensorFlow's NumPy behaviour).
        for m in found.values():
            sample: dict[str, list] = defaultdict(list)
            step = max(1, len(m.cells) // SAMPLE)
            for opts, q, cell in itertools.islice(m.cells, 0, None, step):
                sample[json.dumps(opts, sort_keys=True)].append((q, cell))
            for key, cells in sample.items():
                answers = answered_by(orc, handle, json.loads(key), [q for q, _ in cells])
                asked += [(q, want, got) for (q, want), got in zip(cells, answers, strict=True)]
        version = orc.version(handle)
    text = offline.answer_text
    drifted = [
        f"{offline.describe(q)}: measured {text(want)}, now {text(got)}"
        for q, want, got in asked
        if measured.record(want) != measured.record(got)
    ]
    return version, drifted


def other_version(name: str, version: str) -> str | None:
    """Why a drift test skips: the files were measured on another version (None: the same)."""
    wanted = next(iter(files(name).values())).version
    if version == wanted:
        return None
    return f"measured on {name} {wanted}; installed: {name} {version}"


@pytest.mark.conformance
@pytest.mark.parametrize("name", MEASURED)
def test_a_sample_asked_again_gives_the_measured_answers(name):
    from promote_cli.verify.driver import oracle

    try:
        version, drifted = asked_again(name, oracle(name))
    except ImportError as exc:
        pytest.skip(f"{name} is not installed ({exc})")
    why = other_version(name, version)
    if why:
        pytest.skip(why)
    assert not drifted, f"{name} {version} answers otherwise:\n" + "\n".join(drifted[:20])


def test_a_drift_test_of_another_version_skips_naming_both_and_sees_a_changed_answer():
    from oracles import stand_in

    # A NumPy that answers as the rules do but reports version 9.9, and one cell otherwise.
    _, asked, cell = files("numpy")["pairs"].cells[0]
    fake = stand_in("numpy", wrong={asked.operands: "complex128"})
    version, drifted = asked_again("numpy", fake)
    assert other_version("numpy", version) == (
        "measured on numpy 2.4.6 (ml_dtypes 0.7.0); installed: numpy 9.9"
    )
    assert other_version("numpy", "2.4.6 (ml_dtypes 0.7.0)") is None
    assert (
        drifted[0]
        == f"{offline.describe(asked)}: measured {offline.answer_text(cell)}, now complex128"
    )


# --- promote measure, with a stand-in framework ---------------------------------------------


@pytest.fixture
def stand_in_numpy(monkeypatch):
    """``promote measure numpy`` asks a stand-in NumPy (``oracles.stand_in``): put(**told)."""
    from oracles import stand_in

    real = frameworks.oracle

    def put(**told):
        told.setdefault("asks", Asks(nary=True, operations=True, operation_values=True))
        module = stand_in("numpy", **told)
        monkeypatch.setattr(frameworks, "oracle", lambda n: module if n == "numpy" else real(n))

    return put


@pytest.mark.slow
def test_measure_writes_files_the_comparison_reads_back(run, tmp_path, stand_in_numpy):
    # Operations without values (a tenth of the time): numpy's own files' valued rows are read
    # back by the comparison of every measured cell, where a value lost on the way would make
    # ``uint8 + 300`` uint8, not NumPy's OverflowError.
    stand_in_numpy(asks=Asks(nary=True, operations=True))
    done = run("measure", "numpy", "--into", str(tmp_path))
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("numpy: numpy 9.9, ")
    assert done.stdout.rstrip().endswith(": wrote pairs, nary, operations")
    written = sorted(p.name for p in (tmp_path / "numpy").iterdir())
    assert written == ["nary.json", "operations.json", "pairs.json"]
    numpy, rules = frameworks.get("numpy"), rules_of("numpy")
    found = {}
    for path in (tmp_path / "numpy").iterdir():
        found[path.stem] = measured.parse(path.read_text(encoding="utf-8"))
        assert list(offline.differences(numpy, found[path.stem], rules)) == []
    plain = asks("numpy")._replace(spellings=(), expressions=False, operation_values=False)
    assert offline.unmeasured(numpy, plain, rules, found) == []


def test_measuring_again_without_a_change_keeps_the_files_and_their_date(
    run, tmp_path, stand_in_numpy
):
    stand_in_numpy(asks=Asks())  # pairs only: what is kept does not depend on the kind
    run("measure", "numpy", "--into", str(tmp_path))
    pairs = tmp_path / "numpy" / "pairs.json"
    dated = pairs.read_text(encoding="utf-8").replace('"measured": "', '"measured": "1999-')
    pairs.write_text(dated, encoding="utf-8")
    again = run("measure", "numpy", "--into", str(tmp_path))
    assert again.stdout.rstrip().endswith(": unchanged")
    assert pairs.read_text(encoding="utf-8") == dated


def test_measure_writes_no_file_through_a_link_and_nothing_when_it_refuses(
    run, tmp_path, stand_in_numpy
):
    stand_in_numpy(asks=Asks())  # pairs only
    victim = tmp_path / "victim.txt"
    victim.write_text("not promote's", encoding="utf-8")
    (tmp_path / "out" / "numpy").mkdir(parents=True)
    (tmp_path / "out" / "numpy" / "pairs.json").symlink_to(victim)
    done = run("measure", "numpy", "--into", str(tmp_path / "out"))
    assert done.exit_code == 2
    assert "pairs.json: it is a symbolic link" in done.stderr
    assert victim.read_text(encoding="utf-8") == "not promote's"
    assert [p.name for p in (tmp_path / "out" / "numpy").iterdir()] == ["pairs.json"]


@pytest.mark.slow
def test_a_framework_that_answers_otherwise_is_named_cell_by_cell(run, tmp_path, stand_in_numpy):
    # The stand-in says divide(int8, uint8) is float32 (NumPy: float64).
    divide = ("divide", (Operand("int8"), Operand("uint8")))
    stand_in_numpy(wrong={divide: "float32"}, asks=Asks(operations=True))
    run("measure", "numpy", "--into", str(tmp_path))
    ops = measured.parse((tmp_path / "numpy" / "operations.json").read_text(encoding="utf-8"))
    found = list(offline.differences(frameworks.get("numpy"), ops, rules_of("numpy")))
    assert found == [
        f"numpy divide(int8, uint8) under {{'ml_dtypes': {flag}, 'promotion': 'weak'}}:"
        " measured float32,"
        " rules give float64"
        for flag in (False, "'0.7'")
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "name the frameworks to measure, or give --all"),
        (("numpy", "--all"), "give framework names or --all, not both"),
        (("ascend",), "ascend has no oracle to measure"),
        (("nosuch",), "unknown policy 'nosuch'"),
    ],
)
def test_measure_usage_errors_exit_2(run, args, message):
    done = run("measure", *args)
    assert done.exit_code == 2
    assert message in done.stderr


def test_a_missing_framework_is_skipped_unless_required(run, tmp_path, stand_in_numpy):
    stand_in_numpy(missing=True)
    done = run("measure", "numpy", "--into", str(tmp_path))
    assert (done.exit_code, done.stdout.split(" (")[0]) == (0, "numpy: not installed, skipped")
    required = run("measure", "numpy", "--require", "--into", str(tmp_path))
    assert required.exit_code == 1
    assert not (tmp_path / "numpy").exists()
