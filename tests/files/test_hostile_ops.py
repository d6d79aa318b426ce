"""Operation x type x framework at every front end that takes them (``op``, ``table --op``,
``diff --op``, the MkDocs block, the Sphinx directive): a type a framework lacks (Keras's
uint2, a weak type of another framework's, float32*) is refused as ``promote pair`` refuses
it; never promote's internal error.

Hypothesis draws the cells (``derandomize``: the same cases every run); a few hundred, in a few
seconds.
"""

from __future__ import annotations

import contextlib
import io

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promote_cli import frameworks
from promote_cli._catalogue import ROWS
from promote_cli.cli import cli
from promote_cli.dtypes import WEAK
from promote_cli.vocabulary import VOCABULARY, takes_one

FUZZ = settings(
    derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)

# Every type of the catalogue (the weak types of every framework among them), each Python
# scalar, valued operands, a 0-d array and a name no notation reads.
CATALOGUE = [row[0] for row in ROWS]
OPERANDS = [*CATALOGUE, "int", "float", "complex", "P(bool)", "S(int8)", "S(uint2)",
            "int:300", "float:nan", "bogus"]  # fmt: skip
OPERATIONS = list(VOCABULARY)
POLICIES = list(frameworks.names())


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def answered(result) -> None:
    """An answer (0), a refusal (1) or one usage line (2); never exit 3 or a traceback."""
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr[-2000:])
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("promote: error: "), result.stderr


def arity(name: str) -> int:
    op = VOCABULARY[name]
    return 1 if takes_one(op) else 3 if name == "where" else 2


@settings(FUZZ, max_examples=250)
@given(
    name=st.sampled_from(OPERATIONS),
    policy=st.sampled_from(POLICIES),
    operands=st.lists(st.sampled_from(OPERANDS), min_size=3, max_size=3),
    as_json=st.booleans(),
)
def test_fuzz_op_of_every_type_under_every_framework(name, policy, operands, as_json):
    args = ["op", name, *operands[: arity(name)], "-p", policy, "--explain"]
    answered(invoke(*args, *(["--json"] if as_json else [])))


@settings(FUZZ, max_examples=60)
@given(
    name=st.sampled_from(OPERATIONS),
    policy=st.sampled_from(POLICIES),
    types=st.lists(st.sampled_from(CATALOGUE), min_size=1, max_size=3, unique=True),
    other=st.sampled_from(POLICIES),
)
def test_fuzz_tables_and_diffs_of_an_operation(name, policy, types, other):
    listed = ",".join(types)
    answered(invoke("table", "-p", policy, "--op", name, "--types", listed, "--format", "json"))
    answered(invoke("diff", policy, other, "--op", name, "--types", listed))


@settings(FUZZ, max_examples=40)
@given(
    name=st.sampled_from(OPERATIONS),
    policy=st.sampled_from(POLICIES),
    types=st.lists(st.sampled_from(CATALOGUE), min_size=1, max_size=2, unique=True),
)
def test_fuzz_mkdocs_blocks_of_an_operation(name, policy, types):
    markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")
    from promote_cli.markdown import BlockError

    block = f"::: promote table -p {policy} --op {name} --types {','.join(types)}\n"
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            html = markdown.markdown(block, extensions=["promote_cli.markdown"])
    except BlockError as exc:
        assert "\n" not in str(exc) and "internal error" not in str(exc), str(exc)
    else:
        assert "<table" in html
    assert printed.getvalue() == ""


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["op", "equal", "uint2", "bf16", "-p", "keras"], "refused: Keras 3 has no uint2 type"),
        (["op", "add", "int4", "int8", "-p", "keras"], "refused: Keras 3 has no int4 type"),
        (
            ["op", "add", "bool", "float32*", "-p", "keras"],
            "refused: Keras 3 has no weak type float32*; write a Python scalar as int, float,"
            " complex or P(bool)",
        ),
    ],
)
def test_an_operation_refuses_a_type_keras_lacks_as_pair_does(args, line):
    done = invoke(*args)
    assert (done.exit_code, done.stdout.splitlines()[0]) == (1, line)
    pair = invoke("pair", *args[2:4], "-p", "keras")
    assert (pair.exit_code, pair.stdout.splitlines()[0]) == (1, line)


def test_every_operation_of_every_framework_refuses_every_type_it_lacks():
    # Each framework with operations, each operation, each catalogue type its policy lacks:
    # refused (exit 1), as pair refuses it; the first such type of each kind, to stay cheap.
    for policy in POLICIES:
        universe = set(frameworks.get(policy).universe_for(None))
        lacking = {}
        for t in CATALOGUE:
            if t not in universe and t not in WEAK:  # int*: a Python int, which all take
                lacking.setdefault(t.rstrip("0123456789*_efnuzb"), t)
        for name in OPERATIONS:
            for t in lacking.values():
                done = invoke("op", name, *[t] * arity(name), "-p", policy)
                answered(done)
                assert done.exit_code in (1, 2), (policy, name, t, done.stdout)


def test_a_sphinx_directive_of_an_operation_with_a_type_keras_lacks_builds():
    pytest.importorskip("sphinx", reason="the docs extra is not installed")
    from test_docs_sphinx import project, sphinx

    body = "\n".join(
        [
            "Ops",
            "===",
            "",
            ".. promotion-table:: keras",
            "   :op: equal",
            "   :types: uint2, bfloat16, int8",
            "",
            ".. promotion-diff:: keras numpy",
            "   :op: add",
            "   :types: int4, float8_e4m3fnuz, int8",
            "",
        ]
    )
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        done = sphinx(project(Path(tmp), body))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
