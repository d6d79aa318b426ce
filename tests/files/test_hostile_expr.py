"""``promote expr`` at its boundary: whatever Python source it is given (every expression and
statement form of the language, and text that is not Python), each of its four front ends
(the table, ``--json``, the Python API and the MkDocs block) answers, or names what it does
not model in one line with its line and column (exit 2); never promote's internal error.

Hypothesis draws the programs (``derandomize``: the same cases every run); a few hundred in all,
in a few seconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import promote_cli
from promote_cli.cli import cli
from promote_cli.errors import PromotionError, UsageError

FUZZ = settings(derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))  # fmt: skip


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def told(result) -> str:
    """What a run said: its answer (exit 0 or 1), or its one ``promote: error:`` line with a
    line and column where the code is at fault (exit 2). Never exit 3, never a traceback."""
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr[-2000:])
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("promote: error: "), result.stderr
        return lines[0]
    return result.stdout


# Every expression form of Python's grammar, and every statement form, with x and y as holes.
EXPRESSIONS = [
    "x", "1", "True", "None", "...", "'s'", "b'b'", "f'{x}'", "1.5", "1j", "x + y", "x @ y",
    "-x", "~x", "not x", "x and y", "x or y", "x if y else x", "lambda: x", "(z := x)",
    "[x, y]", "(x, y)", "{x: y}", "{x, y}", "[i for i in x]", "(i for i in x)",
    "{i for i in x}", "{i: i for i in x}", "await x", "yield x", "yield from x", "x < y",
    "x < y < x", "x is y", "x is not y", "x in y", "x not in y", "x == y", "x != y", "x(y)",
    "sqrt(x)", "np.sqrt(x)", "x.T", "x.mT", "x.foo", "x[0]", "x[0, 1]", "x[1:2]", "x[...]",
    "x[None]", "x[y]", "*x", "x.astype(float32)", "x.astype('nope')", "x.sum()", "x.sum(0)",
    "where(x, y, x)", "sqrt(x, y)", "f(x=1)", "2 ** -1", "1e308 * 10", "10 ** 100000",
    "2 ** 70", "x ** 10000000000", "1 @ 2", "x @ 1", "x[5]", "x[0][0][0]", "x " + "#",
]  # fmt: skip
STATEMENTS = [
    "x = y", "x, y = y, x", "x = y = 1", "x.a = 1", "x[0] = 1", "x += y", "x @= y", "x **= 2",
    "x <<= 1", "x.a += 1", "x[0] += 1", "x: int = 1", "x: int", "del x", "pass", "import os",
    "from os import path", "global x", "nonlocal x", "assert x", "raise x", "return x",
    "break", "continue", "if x: pass", "while x: pass", "for i in x: pass",
    "with x: pass", "try:\n pass\nexcept E:\n pass", "def f(): pass", "async def f(): pass",
    "class C: pass", "match x:\n case 1: pass", "type T = int", "@d\ndef f(): pass",
]  # fmt: skip
FORMS = EXPRESSIONS + STATEMENTS

programs = st.lists(
    st.one_of(
        st.sampled_from(FORMS),
        st.tuples(
            st.sampled_from(EXPRESSIONS),
            st.sampled_from(["+", "*", "/", "<", "&"]),
            st.sampled_from(EXPRESSIONS),
        ).map(" ".join),
    ),
    min_size=1,
    max_size=3,
).flatmap(lambda parts: st.sampled_from(["; ", "\n"]).map(lambda sep: sep.join(parts)))


def test_every_python_form_answers_or_is_named_at_its_line_and_column():
    # Each form of the grammar alone, then after an assignment (its place is line 2).
    for form in FORMS:
        for code in (form, f"y = x\n{form}"):
            result = invoke("expr", "-p", "numpy", "--", code, "x=int8", "y=int16")
            said = told(result)
            if result.exit_code == 2 and "not Python" not in said and "bound" not in said:
                assert said.startswith("promote: error: line "), (code, said)


@settings(FUZZ, max_examples=60)
@given(
    code=programs | st.text(max_size=30),
    x=st.sampled_from(["int8", "S(float32)", "uint64", "bool", "int", "float"]),
    as_json=st.booleans(),
)
def test_fuzz_expr_source_answers_or_names_what_it_does_not_model(code, x, as_json):
    json_flag = ["--json"] if as_json else []
    result = invoke("expr", "-p", "numpy,jax", *json_flag, "--", code, f"x={x}", "y=int16")
    said = told(result)
    if result.exit_code == 0 and as_json:
        assert json.loads(said)["command"] == "expr"


@settings(FUZZ, max_examples=80)
@given(code=programs | st.text(max_size=30))
def test_fuzz_expr_through_the_api_raises_only_promotes_two_errors(code):
    try:
        answer = promote_cli.expr(code, {"x": "int8", "y": "uint8"}, policy="torch")
    except (UsageError, PromotionError) as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(answer, str) and answer


@pytest.mark.parametrize(
    ("code", "what"),
    [
        ("x is y", "'is' asks whether two objects are one"),
        ("x is not y", "'is not' asks whether two objects are one"),
        ("x in y", "'in' asks an array for the truth value of a search"),
        ("x not in y", "'not in' asks an array for the truth value of a search"),
        ("1 is 2", "'is' asks whether two objects are one"),
        ("y = x\ny in x", "'in' asks an array"),
    ],
)
def test_identity_and_membership_are_named_as_not_modelled_at_their_place(code, what):
    line = told(invoke("expr", code, "x=int8", "y=int8", "-p", "numpy"))
    where = "line 2, column 1: " if "\n" in code else "line 1, column 1: "
    assert line.startswith(f"promote: error: {where}{what}"), line
    with pytest.raises(UsageError, match=re.escape(what)):
        promote_cli.expr(code, {"x": "int8", "y": "int8"})


def test_an_update_the_vocabulary_lacks_is_named_with_what_to_write():
    line = told(invoke("expr", "x @= y", "x=int8", "y=int16", "-p", "numpy"))
    assert line == (
        "promote: error: line 1, column 1: the update @= is not modelled (write x = x @ y)"
    )


def test_a_statement_is_named_with_its_article():
    assert told(invoke("expr", "import os", "-p", "numpy")) == (
        "promote: error: line 1, column 1: an import statement is not modelled: give"
        " expressions and assignments"
    )


@pytest.mark.parametrize(
    ("code", "final"),
    [("x", "int8"), ("1", "int:1"), ("True", "bool:true"), ("x = 1; x", "int:1"),
     ("2 ** -1", "float:0.5"), ("1e308 * 10", "float:inf"), ("x #", "int8")],
)  # fmt: skip
def test_code_without_an_operation_answers_alike_in_every_front_end(code, final):
    # The table and --json say no node computes (exit 0); the API gives the value's type.
    table = invoke("expr", code, "x=int8", "-p", "numpy")
    assert table.exit_code == 0, table.stderr
    assert "no node computes: the code names a value and applies no operation to it" in (
        table.stdout
    )
    as_json = invoke("expr", code, "x=int8", "-p", "numpy", "--json")
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["nodes"] == []
    assert promote_cli.expr(code, {"x": "int8"}, policy="numpy") == final


def test_code_without_an_operation_answers_in_a_mkdocs_block():
    markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")
    html = markdown.markdown("::: promote expr x x=int8 -p numpy\n",
                             extensions=["promote_cli.markdown"])  # fmt: skip
    assert "no node computes" in html and "<tbody></tbody>" in html


def test_a_mkdocs_block_names_what_expr_does_not_model_in_one_line():
    markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")
    from promote_cli.markdown import BlockError

    with pytest.raises(BlockError) as raised:
        markdown.markdown("::: promote expr 'x in y' x=int8 y=int8 -p numpy\n",
                          extensions=["promote_cli.markdown"])  # fmt: skip
    assert "\n" not in str(raised.value)
    assert "line 1, column 1: 'in' asks an array" in str(raised.value)


def test_an_int_literal_past_pythons_digit_limit_is_reported_at_its_column():
    # The command line lifts the limit (the literal is then NumPy's to refuse); the API keeps
    # Python's, whose SyntaxError says column 0.
    code = "x + 1 + " + "7" * 5000
    with pytest.raises(UsageError) as raised:
        promote_cli.expr(code, {"x": "int8"}, policy="numpy")
    assert str(raised.value).startswith("line 1, column 9: not Python: Exceeds the limit")
    with pytest.raises(UsageError, match=r"^line 2, column 3: not Python"):
        promote_cli.expr("y = x\nx+" + "7" * 5000, {"x": "int8"}, policy="numpy")
    result = invoke("expr", code, "x=int8", "-p", "numpy")
    assert result.exit_code == 1 and "OverflowError" in result.stdout


def test_is_in_a_real_process_is_one_line_and_exit_2():
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "expr", "x is y", "x=int8", "y=int8"],
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2])),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "promote: error: line 1, column 1: 'is' asks whether two objects are one, not an"
        " array operation: use x == y"
    ]


def test_what_the_api_prints_for_a_statement_is_nothing():
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), pytest.raises(UsageError):
        promote_cli.expr("for i in x: pass", {"x": "int8"})
    assert printed.getvalue() == ""
