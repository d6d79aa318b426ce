"""Operation tables and diffs (``promote table --op``, ``promote diff --op``): what the legend
says a cell is, several one-operand operations as rows, and diffs of one-operand operations.

The values are measured calls (sqrt(int8), sum(uint8), mean(int32), argmax(float32):
numpy 2.4, torch 2.13, jax 0.10.2, array-api-strict 2.6, mlx 0.32) and cells ``promote verify``
checks against the installed frameworks."""

from __future__ import annotations

import json

import pytest
from table_parsers import html_table, markdown_tables, rst_table
from test_json_schema import check_vocabulary

import promote_cli
from promote_cli.errors import UsageError
from promote_cli.rules import NO_KERNEL
from promote_cli.vocabulary import FUNCTIONS, UNARY

PAIR_LEGEND = "rows are the first operand, columns the second"


def lines(result) -> list[str]:
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


# --- legends ------------------------------------------------------------------------------


def test_a_unary_table_says_each_cell_is_the_function_applied_to_the_columns_type(run):
    term = lines(run("table", "-p", "numpy", "--op", "sqrt", "-t", "int8,float32"))
    assert term[-1] == (
        "NumPy (numpy), canonical notation, ml_dtypes=false, promotion=weak; each cell is what"
        " np.sqrt returns for an array of the column's type."
    )
    md = run("table", "-p", "numpy", "--op", "sqrt", "-t", "int8,float32", "-f", "markdown")
    assert "each cell is what np.sqrt returns for an array of the column's type." in md.stdout
    rst = run("table", "-p", "numpy", "--op", "sqrt", "-t", "int8,float32", "-f", "rst")
    assert ".. list-table:: What np.sqrt returns" in rst.stdout
    assert "each cell is what np.sqrt returns for an array of the column's type." in rst.stdout
    for out in (term, md.stdout, rst.stdout):
        assert PAIR_LEGEND not in str(out)


def test_a_reduction_table_says_default_arguments(run):
    term = lines(run("table", "-p", "torch", "--op", "sum", "-t", "uint8"))
    assert term[-1].endswith(
        "each cell is what torch.sum returns for an array of the column's type with default"
        " arguments."
    )
    assert term[-3].split() == ["│", "sum(x)", "│", "int64", "│"]  # measured: torch's sum(uint8)


def test_a_binary_table_names_x1_x2_and_the_function(run):
    term = lines(run("table", "-p", "torch", "--op", "divide", "-t", "int32,float16"))
    assert term[-1] == (
        "PyTorch (torch), torch notation, release=2.13; rows are x1, columns x2; each cell is what"
        " torch.true_divide returns."
    )
    where = lines(run("table", "-p", "numpy", "--op", "where", "-t", "int8,float16"))
    assert where[-1].endswith(
        "rows are x1, columns x2 (the values; the condition is a bool array); each cell is what"
        " np.where returns."
    )


def test_a_missing_function_says_so_instead_of_naming_one(run):
    out = lines(run("table", "-p", "tensorflow", "--op", "bitwise_left_shift", "-t", "i8"))
    assert out[-3].endswith("each cell is refused: TensorFlow has no bitwise_left_shift.")
    assert out[-2] == "×: TensorFlow refuses the call."


def test_refusals_are_the_calls_not_the_pairs(run):
    out = lines(run("table", "-p", "array-api", "--op", "sqrt", "-t", "int8,float32"))
    assert out[-4].split() == ["│", "sqrt(x)", "│", "×", "│", "float32", "│"]
    assert out[-1] == "×: Array API standard refuses the call."


def test_a_cell_without_a_cpu_kernel_is_marked_and_explained_in_every_format(run):
    # torch.add has no uint16 CPU kernel; the dtype rule says uint16 (verify counts a gap).
    args = ("table", "-p", "torch", "--op", "add", "-t", "uint16,int8")
    term = lines(run(*args))
    assert "uint16‡" in term[3]
    assert term[-1].startswith("‡: the dtype rule's answer, but the framework has no CPU kernel")
    (md,) = markdown_tables(run(*args, "-f", "markdown").stdout)
    assert md.rows[0][1][0] == "uint16‡"
    assert "‡ marks a cell where PyTorch has no CPU kernel" in run(*args, "-f", "markdown").stdout
    assert rst_table(run(*args, "-f", "rst").stdout).rows[0][1][0] == "uint16‡"
    assert run(*args, "-f", "csv").stdout.splitlines()[1] == "uint16,uint16‡,×"
    page = run(*args, "-f", "html", "--standalone").stdout
    assert "<h1>What torch.add returns</h1>" in page
    assert 'title="uint16 -&gt; uint16: the promoted type; but PyTorch has no CPU kernel' in page
    assert "‡ marks a cell where PyTorch has no CPU kernel" in page
    cell = json.loads(run(*args, "-f", "json").stdout)["cells"][0][0]
    assert (cell["result"], cell["rule"]) == ("uint16", NO_KERNEL)


def test_promotion_tables_keep_their_legend(run):
    out = lines(run("table", "-p", "torch", "-t", "int8,uint8"))
    assert out[-1] == f"PyTorch (torch), torch notation, release=2.13; {PAIR_LEGEND}."
    page = run("table", "-p", "torch", "-t", "int8", "-f", "html", "--standalone").stdout
    assert "<h1>PyTorch type promotion</h1>" in page and "<h2>Functions</h2>" not in page


@pytest.mark.parametrize(
    "op", ["sqrt", "sqrt,sum", "divide", "where"], ids=["unary", "list", "binary", "where"]
)
def test_operation_tables_speak_the_json_vocabulary(run, op):
    doc = json.loads(run("table", "-p", "numpy", "--op", op, "-t", "i1,f2", "-f", "json").stdout)
    check_vocabulary(doc, "table")
    assert doc["op"] == op
    assert doc["functions"]["sqrt" if "sqrt" in op else op] == f"np.{op.split(',')[0]}"


# --- several one-operand operations as rows ------------------------------------------------


def test_a_list_of_operations_gives_one_row_each(run):
    out = run(
        "table", "-p", "torch", "--op", "sqrt,exp,sum", "-t", "int8,bool,float16", "-f", "csv"
    )
    assert out.stdout.splitlines() == [
        ",int8,bool,float16",
        "sqrt(x),float32,float32,float16",
        "exp(x),float32,float32,float16",
        "sum(x),int64,int64,float16",
    ]


def test_group_words_name_every_operation_of_their_arity_in_vocabulary_order(run):
    unary = [o for o, op in FUNCTIONS.items() if op.arity == UNARY]
    reductions = ["sum", "prod", "mean", "max", "argmax", "cumulative_sum"]
    for spec, want in [
        ("unary", unary),
        ("reductions", reductions),
        ("unary,reductions", unary + reductions),
        ("mean,unary,sqrt", ["mean", *unary]),  # each once, where first named
    ]:
        done = run("table", "-p", "numpy", "--op", spec, "-t", "int8", "-f", "csv")
        assert [r.split(",")[0] for r in done.stdout.splitlines()[1:]] == [f"{o}(x)" for o in want]


def test_one_operand_operations_side_by_side_in_one_table(run):
    args = ("-t", "int8,uint8,int32,float32", "-f", "csv")
    done = run("table", "-p", "mlx", "--op", "sqrt,sum,mean,argmax", *args)
    assert done.stdout.splitlines()[1:] == [
        "sqrt(x),float32,float32,float32,float32",
        "sum(x),int32,uint32,int32,float32",
        "mean(x),float32,float32,float32,float32",
        "argmax(x),uint32,uint32,uint32,uint32",
    ]


def test_a_binary_operation_in_a_list_is_one_usage_line(run):
    for spec in ("sqrt,divide", "where,unary", "sqrt,,exp"):
        done = run("table", "-p", "torch", "--op", spec)
        assert done.exit_code == 2, spec
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "divide takes two operands" in run("table", "-p", "torch", "--op", "sqrt,divide").stderr


def test_a_list_answers_no_single_question():
    with pytest.raises(UsageError, match="names 2 operations"):
        promote_cli.promote_many(["int8"], policy="numpy", op="sqrt,exp")


def test_promote_op_with_a_list_is_a_usage_error(run):
    done = run("op", "unary", "int8", "-p", "numpy")
    assert done.exit_code == 2 and "ask about one operation at a time" in done.stderr


def test_a_list_table_in_every_format_parses_to_the_same_cells(run):
    args = ("table", "-p", "jax", "--op", "sum,argmax", "-t", "u1,f2", "-O", "x64=false")
    want = [["u4", "f2"], ["i4", "i4"]]  # jax notation: uint32, float16, int32
    (md,) = markdown_tables(run(*args, "-f", "markdown").stdout)
    assert [[text for text, _ in row[1:]] for row in md.rows] == want
    rst = rst_table(run(*args, "-f", "rst").stdout)
    assert [[text for text, _ in row[1:]] for row in rst.rows] == want
    header, cells = html_table(run(*args, "-f", "html").stdout)
    assert header == ["u1", "f2"]
    assert cells[("argmax(x)", "u1")][0] == "i4" and cells[("sum(x)", "u1")][0] == "u4"
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert [[c["label"] for c in row] for row in doc["cells"]] == want
    assert doc["rows"][1] == {"label": "argmax(x)", "op": "argmax", "function": "jnp.argmax"}
    page = run(*args, "-f", "html", "--standalone").stdout
    assert "<h1>What JAX&#39;s operations return</h1>" in page
    assert "<tr><td><code>argmax</code></td><td><code>jnp.argmax</code></td></tr>" in page


def test_a_list_table_written_with_o_passes_check_and_a_stale_one_fails(run, tmp_path):
    target = tmp_path / "ops.md"
    assert run("table", "-p", "torch", "--op", "unary,reductions", "-o", str(target)).exit_code == 0
    text = target.read_text(encoding="utf-8")
    assert "--op unary,reductions" in text.splitlines()[0]
    check = run("table", "-p", "torch", "--op", "unary,reductions", "--check", str(target))
    assert check.exit_code == 0, check.stdout
    target.write_text(text.replace("int64", "int32", 1), encoding="utf-8")
    stale = run("table", "-p", "torch", "--op", "unary,reductions", "--check", str(target))
    assert stale.exit_code == 1 and "(on disk)" in stale.stdout


def test_a_list_table_through_a_users_template(run, tmp_path):
    template = tmp_path / "rows.md.j2"
    template.write_text(
        "{% for r in table.rows %}{{ r.header.canonical }}={{ r.cells[0].text }}\n{% endfor %}"
        "{{ table.reading }}\n",
        encoding="utf-8",
    )
    done = run("table", "-p", "numpy", "--op", "sqrt,sum", "-t", "i1", "--template", str(template))
    assert done.stdout.splitlines()[:2] == ["sqrt=float16", "sum=int64"]
    assert done.stdout.splitlines()[2].endswith("(sqrt = np.sqrt, sum = np.sum)")


# --- diff of one-operand operations --------------------------------------------------------


def test_diff_of_a_unary_operation_lists_the_types_where_it_differs(run):
    done = run("diff", "numpy", "torch", "--op", "sqrt", "-t", "int8,float16")
    assert done.exit_code == 1
    assert done.stdout.splitlines()[:2] == [
        "sqrt(int8)  numpy float16  torch float32",
        "numpy vs torch, sqrt: 1 of 2 cells differ (1 operation x 2 types)",
    ]


def test_diff_of_a_reduction_compares_every_type_both_know(run):
    # MLX's argmax returns uint32 for every type; NumPy's int64. They share 13 types.
    done = run("diff", "numpy", "mlx", "--op", "argmax")
    assert done.exit_code == 1
    found = [x.split() for x in done.stdout.splitlines()]
    assert ["argmax(float32)", "numpy", "int64", "mlx", "uint32"] in found
    assert "numpy vs mlx, argmax: 13 of 13 cells differ (1 operation x 13 types)" in done.stdout


def test_diff_of_a_list_is_a_grid_of_operations_by_types(run):
    done = run("diff", "numpy", "torch", "--op", "sum,mean", "-t", "uint8,int32", "-f", "table")
    assert done.exit_code == 1
    grid = [x.split() for x in done.stdout.splitlines()[:3]]
    assert grid == [
        ["uint8", "int32"],
        ["sum(x)", "uint64/int64", "."],
        ["mean(x)", "float64/×", "float64/×"],  # torch.mean refuses integers
    ]
    assert "2 operations x 2 types" in done.stdout


def test_diff_of_one_operand_operations_speaks_the_json_vocabulary(run):
    done = run("diff", "numpy", "array-api", "--op", "unary", "-t", "int8,float32", "-f", "json")
    doc = json.loads(done.stdout)
    check_vocabulary(doc, "diff")
    assert doc["op"] == "unary" and doc["operations"][:3] == ["negative", "abs", "sqrt"]
    sqrt = next(d for d in doc["differences"] if d["row"]["op"] == "sqrt")
    assert sqrt["col"]["canonical"] == "int8"
    assert (sqrt["left"]["result"], sqrt["right"]["refused"]) == ("float16", True)
    assert doc["cells_compared"] == 16 * 2


def test_diff_of_identical_operations_exits_0(run):
    done = run("diff", "jax", "jax", "--op", "sqrt", "-t", "i8,f16")
    assert done.exit_code == 0
    assert done.stdout.splitlines()[-1] == (
        "jax (left) vs jax (right), sqrt: identical, all 2 cells of 1 operation x 2 types agree"
    )


def test_a_lossy_diff_of_an_operation_names_the_array_it_loses(run):
    done = run("diff", "numpy", "torch", "--op", "sqrt", "-t", "int64", "--lossy")
    assert done.stdout.splitlines()[0].split("  ") == [
        "sqrt(int64)",
        "numpy float64 (loses int64: int64 2**53 + 1 -> float64 9007199254740992)",
        "torch float32 (loses int64: int64 2**24 + 1 -> float32 16777216)",
    ]


def test_a_list_table_marks_where_the_compared_policy_differs(run):
    args = ("table", "-p", "numpy", "--op", "sqrt,sum", "-t", "int8,float16", "-f", "csv")
    done = run(*args, "--diff-against", "torch")
    assert done.stdout.splitlines()[1:] == ["sqrt(x),float16,float16", "sum(x),int64,float16"]
    doc = json.loads(run(*args[:-1], "json", "--diff-against", "torch").stdout)
    assert [[c["differs"] for c in row] for row in doc["cells"]] == [[True, False], [False, False]]
    assert doc["cells"][0][0]["other"] == "float32"  # torch.sqrt(int8)
