"""``promote expr``: code read with ``ast`` into nodes, each answered as ``promote op``
answers that operation; a column per policy, the first node where they part marked.

The dtypes asserted are the frameworks' measured answers (each node is an operation whose
cells ``promote verify`` compares and the measurements keep)."""

from __future__ import annotations

import json
import warnings

import pytest

import promote_cli
from promote_cli import api, evaluation, frameworks
from promote_cli.errors import PromotionError, UsageError
from promote_cli.evaluation import Step, evaluate, unanswered
from promote_cli.exprtable import parting
from promote_cli.operands import Operand
from promote_cli.program import LITERAL, NAME, OPERATION, dimensions, parse


def test_nodes_come_in_pythons_evaluation_order():
    program = parse("y = x / w; y += w.sum(); sqrt(y) + 1")
    shown = [(n.text, n.operation) for n in program.shown()]
    assert shown == [
        ("x / w", "/"),
        ("w.sum()", "sum"),
        ("y += w.sum()", "+="),
        ("sqrt(y)", "sqrt"),
        ("sqrt(y) + 1", "+"),
    ]
    assert program.reads == ("x", "w")
    assert program.nodes[program.final].text == "sqrt(y) + 1"


@pytest.mark.parametrize("between", ["; ", "\n"], ids=["one line", "two lines"])
def test_a_node_is_named_by_its_source_text_beyond_ascii(between):
    # Offsets into the line are UTF-8 bytes: a name of two-byte letters before a node must
    # not shift its text, on one line or on two.
    program = parse(f"été = x / 2{between}été * (w + 1)")
    assert [n.text for n in program.shown()] == [
        "x / 2",
        "w + 1",
        "été * (w + 1)",
    ]


def test_python_arithmetic_between_literals_is_done_first():
    program = parse("x + (2 ** 8 - 1)")
    literal = program.nodes[program.shown()[0].args[1]]
    assert (literal.kind, literal.value) == (LITERAL, 255)


@pytest.mark.parametrize(
    ("code", "where", "says"),
    [
        ("x +", "line 1, column", "not Python"),
        ("x if y else w", "line 1, column 1", "IfExp is not modelled"),
        ("a < b < c", "line 1, column 1", "chained comparison"),
        ("not x", "line 1, column 1", "logical_not"),
        ("x + foo(y)", "line 1, column 5", "foo is not one of the 39 operations"),
        ("np.linalg.norm(x)", "line 1, column 1", "call the array API's functions"),
        ("np.cos(x)", "line 1, column 1", "cos is not one of the 39 operations"),
        ("x[1:]", "line 1, column 1", "index with integers only"),
        ("x = 1\ny[0] = x", "line 2, column 1", "assign to one name"),
        ("for i in x: pass", "line 1, column 1", "a for statement is not modelled"),
        ("x + 'a'", "line 1, column 5", "str literals are not modelled"),
        ("x @= y", "line 1, column 1", "the update @= is not modelled (write x = x @ y)"),
        ("1 / 0", "line 1, column 1", "Python raises ZeroDivisionError"),
        ("x.astype(foo)", "line 1, column 10", "unknown dtype 'foo'"),
        ("x + (2 ** 4096) ** 4096", "line 1, column 6", "a Python int this large"),
        ("x + (1 << 10 ** 9)", "line 1, column 6", "a Python int this large"),
        ("(" * 2000 + "x" + ")" * 2000, "line 1, column 201", "too many nested parentheses"),
        ("-" * 100_000 + "x", "the code is nested too deeply", ""),
    ],
)
def test_what_is_not_modelled_is_one_line_pointing_at_its_column(code, where, says):
    with pytest.raises(UsageError) as raised:
        parse(code)
    assert str(raised.value).startswith(where), raised.value
    assert says in str(raised.value)


def test_the_namespaces_and_the_frameworks_spellings_name_one_function():
    for code in (
        "pow(x, y)",
        "xp.pow(x, y)",
        "np.power(x, y)",
        "jnp.power(x, y)",
        "torch.pow(x, y)",
    ):
        (node,) = parse(code).shown()
        assert node.operation == "pow", code


def test_each_node_is_the_operations_measured_answer_under_each_policy():
    # x / y: true division of integers (NumPy: float64; PyTorch its default float);
    # w.sum(): each framework's accumulator for uint8 (NumPy uint64, PyTorch int64).
    question = api.expr_request(
        "x / y + w.sum()", {"x": "int8", "y": "int16", "w": "uint8"}, ["numpy", "torch"]
    )
    answers = question.answers()
    table = [[s.operand.dtype for s in a if s.node.kind == OPERATION] for a in answers]
    assert table == [["float64", "uint64", "float64"], ["float32", "int64", "float32"]]
    assert parting(answers) == 2  # the node x / y


def test_a_reduction_is_a_0d_array_where_the_policy_tells_them_apart():
    # PyTorch: a 0-d int64 tensor does not widen an int8 tensor (it is a "scalar"): int8.
    steps = promote_cli.expr_steps("x + w.sum()", {"x": "int8", "w": "uint8"}, policy="torch")
    assert [(s.operand.dtype, s.operand.category) for s in steps[2:]] == [
        ("int64", "S"),
        ("int8", "D"),
    ]


def test_an_in_place_update_refused_stops_that_column_at_its_node():
    question = api.expr_request("x += y; x * y", {"x": "int8", "y": "float32"}, ["numpy", "torch"])
    numpy, torch = question.answers()
    assert numpy[2].operand is None and numpy[2].outcome.rule == "update-refused"
    assert numpy[3].operand is None and numpy[3].outcome is None  # stopped before x * y
    assert torch[2].outcome.rule == "update-refused"
    # a float array updated by an int one stays float, in place
    (again,) = api.expr_request("y += x", {"x": "int8", "y": "float32"}, ["torch"]).answers()
    assert (again[2].operand.dtype, again[2].outcome.rule) == ("float32", "in-place")


def test_the_api_returns_the_final_dtype_or_raises_naming_the_node():
    assert promote_cli.expr("x @ x.T", {"x": "float16"}, policy="torch") == "float16"
    assert promote_cli.expr("y = x.astype(float32); y + x", {"x": "int8"}, policy="numpy") == (
        "float32"
    )
    with pytest.raises(PromotionError) as raised:
        promote_cli.expr("x += y", {"x": "int8", "y": "float32"}, policy="numpy")
    assert raised.value.rule == "update-refused"
    assert str(raised.value).startswith("x += y (line 1, column 1): ")
    assert "same_kind" in str(raised.value)


def test_an_option_goes_to_each_policy_that_has_it_or_to_the_one_named():
    # With ml_dtypes imported NumPy refuses bfloat16 x float16 (np.result_type), and NumPy's
    # operations on ml_dtypes' types are refused as unmeasured; PyTorch gives float32.
    q = api.expr_request(
        "x + y", {"x": "bfloat16", "y": "float16"}, ["numpy", "torch"], {"ml_dtypes": "true"}
    )
    numpy, torch = q.answers()
    assert [c.title for c in q.columns] == ["numpy ml_dtypes=0.7", "torch"]
    assert (numpy[-1].operand, torch[-1].operand.dtype) == (None, "float32")
    q = api.expr_request("x", {"x": "uint8"}, ["torch", "numpy"], {"numpy:ml_dtypes": "1"})
    assert [c.title for c in q.columns] == ["torch", "numpy ml_dtypes=0.7"]
    with pytest.raises(UsageError, match="none of torch, numpy has no option 'backend'"):
        api.expr_request("x", {"x": "uint8"}, ["torch", "numpy"], {"backend": "torch"})


def test_a_policy_without_operations_is_refused_as_a_column_saying_why():
    with pytest.raises(
        UsageError,
        match="promote expr answers jax, numpy, torch, tensorflow, array-api, mlx, keras,"
        " tinygrad, paddle, mindspore: under openvino, OpenVINO has no per-operation rules: the"
        " OpenVINO specification defines how two element types promote",
    ):
        api.expr_request("x + y", {"x": "int8", "y": "int8"}, ["numpy", "openvino"])


def test_a_policy_with_operations_whose_programs_are_not_checked_is_refused_as_a_column(
    monkeypatch,
):
    # A framework whose random programs do not yet agree with promote expr (a new one, whose
    # entry does not say Expressions(checked=True)): numpy, as if it were one.
    monkeypatch.setattr(evaluation, "checked", lambda: ("jax",))
    with pytest.raises(
        UsageError,
        match=r"promote expr answers jax: under numpy, the arrays an expression passes from node"
        r" to node are not checked against the framework yet \(promote op answers each",
    ):
        api.expr_request("x + y", {"x": "int8", "y": "int8"}, ["numpy"])


def test_a_literal_is_a_python_scalar_with_its_value():
    # NumPy 2 converts 300 to the uint8 array's dtype and raises OverflowError; 2 fits.
    with pytest.raises(PromotionError, match="Python integer 300 out of bounds for uint8"):
        promote_cli.expr("y = x + 300", {"x": "uint8"}, policy="numpy")
    assert promote_cli.expr("y = x * 2", {"x": "uint8"}, policy="numpy") == "uint8"


def test_a_literal_whose_value_is_not_checked_points_at_its_node():
    # where's value operands are not checked against a value (only binary operations are).
    with pytest.raises(UsageError) as raised:
        promote_cli.expr("where(x < y, x, 2)", {"x": "int8", "y": "int8"}, policy="numpy")
    assert str(raised.value) == (
        "line 1, column 1: numpy's where is not checked against a Python int's value yet: bind"
        " the literal to a name of its kind (i=int)"
    )
    assert promote_cli.expr("where(x < y, x, n)", {"x": "int8", "y": "int8", "n": "int"}) == "int8"


def test_an_unbound_name_is_a_usage_error():
    with pytest.raises(UsageError, match="w is not bound: give w=TYPE"):
        api.expr_request("x + w", {"x": "int8"}, ["numpy"])


def test_the_table_marks_the_first_node_where_the_policies_part(run):
    done = run("expr", "x / y + w.sum()", "x=int8", "y=int16", "w=uint8", "-p", "numpy,torch")
    assert done.exit_code == 0
    assert done.stdout.splitlines() == [
        "  code             numpy    torch",
        "> x / y            float64  float32",
        "  w.sum()          uint64   int64",
        "  x / y + w.sum()  float64  float32",
        "> the policies part at x / y: numpy float64, torch float32",
    ]


@pytest.mark.parametrize("x64", ["true", "false"])
def test_a_weakly_typed_arrays_integer_power_keeps_it_weak_as_jax_does(run, x64):
    # jnp.maximum(jnp.ones(3, jnp.int16), 1j) ** -3 is complex128 with weak_type=True under
    # x64 (complex64 without), as jnp.maximum(...) itself is: lax.integer_pow keeps the flag
    code = "(maximum(y, 1j) ** -3)"
    done = run("expr", code, "y=int16", "-p", "jax", "-O", f"x64={x64}")
    assert done.exit_code == 0, done.output
    assert [line.split()[-1] for line in done.stdout.splitlines()[1:]] == ["complex*"] * 2
    # (y + 1.0) ** 2 is float64 with weak_type=True: weak all the way
    done = run("expr", "(y + 1.0) ** 2 + 1", "y=int8", "-p", "jax", "-O", f"x64={x64}")
    assert [line.split()[-1] for line in done.stdout.splitlines()[1:]] == ["float*"] * 3


def test_jax_one_operand_functions_keep_a_weak_arrays_flag_and_reductions_drop_it(run):
    # JAX 0.10.2, x64: jnp.ones(3, int32) - jnp.ones(3, uint64) is float64 with
    # weak_type=True; jnp.square and jnp.abs keep the flag (lax carries weak_type), so a
    # float8_e5m2 array takes it as a Python float; jnp.sum drops it (weak_type=False)
    names = ("x=uint64", "y=int32", "z=float8_e5m2", "-p", "jax")
    done = run("expr", "z ** square(y - x)", *names)
    assert done.exit_code == 0, done.output
    assert [line.split()[-1] for line in done.stdout.splitlines()[1:]] == [
        "float*",
        "float*",
        "float8_e5m2",
    ]
    # jnp.abs(uint64_array + 1j) is float64, weak; with a float8_e5m2 array, float8_e5m2
    done = run("expr", "abs(x + 1j) + z", *names)
    assert [line.split()[-1] for line in done.stdout.splitlines()[1:]] == [
        "complex*",
        "float*",
        "float8_e5m2",
    ]
    done = run("expr", "z + sum(y - x)", *names)  # the strong float64 sum: refused
    assert done.exit_code == 1, done.output
    assert [line.split()[-1] for line in done.stdout.splitlines()[1:3]] == [
        "float*",
        "float64",
    ]


@pytest.mark.parametrize("code", ["y", "1", "z = y; z"])
def test_code_that_applies_no_operation_prints_its_header_and_says_so(run, code):
    done = run("expr", code, "y=int16", "-p", "jax,numpy")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines() == [
        "  code  jax  numpy",
        "no node computes: the code names a value and applies no operation to it",
    ]


def test_a_column_that_raises_says_where_and_exits_1(run):
    done = run("expr", "x += y", "x=int8", "y=float16", "-p", "numpy,torch")
    assert done.exit_code == 1
    lines = done.stdout.splitlines()
    assert lines[1] == "  x += y  raises  raises"
    assert lines[2].startswith("numpy raises at x += y: np.ndarray.__iadd__ cannot write")


def test_json_gives_every_node_in_the_common_vocabulary(run):
    # uint8 += int8: NumPy's same_kind refuses the int16 result in a uint8 array (uint < int);
    # PyTorch's canCast takes it (integer to integer), in place.
    done = run("expr", "x += y", "x=uint8", "y=int8", "-p", "numpy,torch", "--json")
    body = json.loads(done.stdout)
    assert body["command"] == "expr" and body["parts_at"] == 2
    assert [c["policy"] for c in body["columns"]] == ["numpy", "torch"]
    (node,) = body["nodes"]
    numpy, torch = node["answers"]
    assert (numpy["refused"], numpy["rule"], numpy["result"]) == (True, "update-refused", None)
    assert (torch["refused"], torch["rule"], torch["result"]) == (False, "in-place", "uint8")
    assert torch["value"] == {"label": "uint8", "canonical": "uint8", "category": "D"}


@pytest.mark.parametrize(
    ("code", "dims"),
    [
        ("x", [2]),
        ("x[0]", [2, 1]),
        ("x[0, 1]", [2, 0]),
        ("x @ x", [2, 2]),
        ("x[0] @ x", [2, 1, 1]),
        ("x[0] @ x[1]", [2, 1, 1, 0]),
        ("x.sum() + x", [2, 0, 2]),
        ("s + s", [0, 0]),
        ("cumulative_sum(x[0])", [2, 1, 1]),
    ],
)
def test_a_bound_array_is_a_matrix_and_each_node_has_its_dimensions(code, dims):
    program = parse(code)
    got = dimensions(program, {"x": Operand("int8"), "s": Operand("int8", "S")})
    assert got == dims


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("x[0, 1, 2]", "3 indices into an array of 2 dimensions"),
        ("x.sum() @ x", "@ takes two arrays of 1 or 2 dimensions"),
        ("cumulative_sum(x)", "needs an axis"),
        ("y = x[0]; y += x", "more dimensions than its left"),
    ],
)
def test_shapes_that_raise_everywhere_are_usage_errors(code, says):
    with pytest.raises(UsageError, match=says):
        dimensions(parse(code), {"x": Operand("int8")})


def test_an_element_is_a_0d_array_where_the_policy_tells_them_apart():
    # PyTorch: x[0, 0] is a 0-d tensor, which does not widen an int8 tensor: int8.
    steps = promote_cli.expr_steps("y + x[0, 0]", {"x": "int64", "y": "int8"}, policy="torch")
    assert [(s.operand.dtype, s.operand.category) for s in steps[2:]] == [
        ("int64", "S"),
        ("int8", "D"),
    ]
    assert promote_cli.expr("y + x[0]", {"x": "int64", "y": "int8"}, policy="torch") == "int64"


def _disagreements(
    policy_name: str,
    prims,
    count: int,
    seed: int,
    literals: bool = True,
    options: dict | None = None,
) -> tuple[int, list[str]]:
    """Random programs run for real (``prims``, under the framework's own settings for
    ``options``) and answered by ``promote expr`` under ``policy_name`` with ``options``: how
    many nodes were compared, and those that differ."""
    from promote_cli import frameworks
    from promote_cli.verify import expressions as real
    from promote_cli.verify.protocol import Result, Unobservable
    from promote_cli.vocabulary import FUNCTIONS

    pol = frameworks.get(policy_name)
    opts = pol.resolve_options(options or {})
    declared = frameworks.operations(pol)
    rules = declared.under(opts)
    types = sorted({x.dtype for x in pol.operands(opts) if x.category != "P"})
    if declared.types is not None:  # the types its operations take
        types = [t for t in types if t in declared.types]
    # the types its runs leave out, and why: its entry (JAX's int1, uint1 and float6 types)
    types = [t for t in types if t not in frameworks.entry(policy_name).expressions.unrun]
    zero_d = any(x.category == "S" for x in pol.operands())
    types = [t for t in types if _makes(prims, t, pol.made(t, opts))]
    compared, wrong = 0, []

    for code, bindings in real.programs(seed, count, types, zero_d, literals=literals):
        program = parse(code)
        functions = {
            n.operation: rules[n.operation].function
            for n in program.nodes
            if n.operation in FUNCTIONS
        }
        model = evaluate(program, bindings, pol, opts)
        with warnings.catch_warnings():  # what the arrays' values warn (a zero divisor ...)
            warnings.simplefilter("ignore")
            cells = real.run(program, bindings, functions, prims)

        def materialise(t: str) -> str:
            return pol.materialise(t, opts).dtype

        if any(isinstance(c, Unobservable) for c in cells):
            continue  # its values raise (a zero divisor): nothing to compare
        for step, cell in zip(model, cells, strict=True):
            if step.node.kind in (NAME, LITERAL):
                continue
            if unanswered(step):
                break  # a node promote does not answer under this policy: nothing to compare
            compared += 1
            if step.outcome is not None and step.outcome.rule == "no-kernel":
                if isinstance(cell, Result):
                    wrong.append(f"{code} {bindings}: {step.node.text}: a gap, real {cell}")
                break  # a gap promote claims: the program is not followed further
            if not real.agrees(step, cell, materialise):
                said = step.operand.dtype if step.operand else step.outcome and step.outcome.rule
                wrong.append(f"{code} {bindings}: {step.node.text}: promote {said}, real {cell}")
                break
    return compared, wrong


@pytest.mark.conformance("numpy")
def test_random_programs_give_what_numpy_gives_node_by_node():
    np = pytest.importorskip("numpy")
    from promote_cli.frameworks.numpy.oracle import Primitives

    compared, wrong = _disagreements(
        "numpy", Primitives(np, frameworks.get("numpy").resolve_options()), 300, 24
    )
    assert compared > 600
    assert wrong == [], f"{len(wrong)} programs differ:\n" + "\n".join(wrong[:20])


@pytest.mark.conformance("torch")
def test_random_programs_give_what_pytorch_gives_node_by_node():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (the conformance extra)")
    from promote_cli.frameworks.torch.oracle import Primitives

    compared, wrong = _disagreements(
        "torch", Primitives(torch, frameworks.get("torch").resolve_options()), 300, 25
    )
    assert compared > 600
    assert wrong == [], f"{len(wrong)} programs differ:\n" + "\n".join(wrong[:20])


@pytest.mark.conformance("jax")
@pytest.mark.parametrize("x64", [True, False])
def test_random_programs_give_what_jax_gives_node_by_node(x64):
    pytest.importorskip("jax", reason="JAX is not installed (the conformance extra)")
    from promote_cli.frameworks.jax import oracle

    # no literals: JAX's operations are not checked against a Python scalar's value here
    options = {"x64": x64}
    opts = frameworks.get("jax").resolve_options(options)
    prims = oracle.Primitives(oracle.load(), opts)
    with prims.configured(opts):
        compared, wrong = _disagreements("jax", prims, 200, 26, literals=False, options=options)
    assert compared > 600
    assert wrong == [], f"{len(wrong)} programs differ:\n" + "\n".join(wrong[:20])


@pytest.mark.conformance("mlx")
def test_random_programs_give_what_mlx_gives_node_by_node():
    pytest.importorskip("mlx.core", reason="MLX is not installed (the conformance extra)")
    from promote_cli.frameworks.mlx import oracle

    prims = oracle.Primitives(oracle.load(), {})
    with prims.configured({}):
        compared, wrong = _disagreements("mlx", prims, 300, 27)
    assert compared > 600
    assert wrong == [], f"{len(wrong)} programs differ:\n" + "\n".join(wrong[:20])


@pytest.mark.conformance("array-api")
def test_random_programs_give_what_array_api_strict_gives_node_by_node():
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed")
    from promote_cli.frameworks.array_api import oracle

    compared, wrong = _disagreements("array-api", oracle.Primitives(oracle.load(), {}), 300, 28)
    assert compared > 600
    assert wrong == [], f"{len(wrong)} programs differ:\n" + "\n".join(wrong[:20])


# The issue's line, run for real in each framework (NumPy 2.4.6, torch 2.13.0, JAX 0.10.2 with
# and without x64, MLX 0.32.4): x / 2, w.sum(), and their sum.
@pytest.mark.parametrize(
    ("policy", "options", "dtypes"),
    [
        ("numpy", {}, ["float64", "uint64", "float64"]),
        ("torch", {}, ["float32", "int64", "float32"]),
        ("jax", {"x64": "true"}, ["float32", "uint64", "float32"]),
        ("jax", {"x64": "false"}, ["float32", "uint32", "float32"]),
        ("mlx", {}, ["float32", "uint32", "float32"]),
    ],
)
def test_the_issues_line_under_each_framework_as_it_ran(policy, options, dtypes):
    bindings = {"x": "int8", "w": "uint8"}
    steps = promote_cli.expr_steps("x / 2 + w.sum()", bindings, policy=policy, **options)
    assert [s.operand.dtype for s in steps if s.node.kind == OPERATION] == dtypes


def test_an_update_by_a_python_float_numpy_refuses_jax_rebinds_mlx_replaces():
    # Run for real: NumPy raises UFuncTypeError (same_kind); JAX binds x to a new array,
    # float32 without x64 (JAX's default), float64 with; MLX's x becomes float32, the same
    # object.
    numpy, jax, mlx = api.expr_request(
        "x += f", {"x": "int8", "f": "float"}, ["numpy", "jax", "mlx"]
    ).answers()
    assert numpy[-1].operand is None and numpy[-1].outcome.rule == "update-refused"
    assert (jax[-1].outcome.rule, jax[-1].outcome.materialised.dtype) == ("rebinds", "float64")
    x32 = promote_cli.expr_steps("x += 1.5", {"x": "int8"}, policy="jax", x64=False)
    assert (x32[-1].outcome.rule, x32[-1].outcome.materialised.dtype) == ("rebinds", "float32")
    assert (mlx[-1].outcome.rule, mlx[-1].operand.dtype) == ("replaces", "float32")
    literal = promote_cli.expr_steps("x += 1.5", {"x": "int8"}, policy="mlx")
    assert literal[-1].operand.dtype == "float32"


def test_a_node_a_policy_does_not_answer_stops_its_column_there(run):
    # MindSpore's * takes a 0-d tensor as a scalar, which its rules do not model
    # (Expressions.scalar_ops): x * w.sum() is not answered there, and that column takes no
    # part from there on; JAX and PyTorch go on, as run (x64 on: w.sum() uint64, x * w.sum()
    # a weak float64, as is the sum; torch: int64, int8, int8).
    done = run(
        "expr", "x * w.sum() + w.sum()", "x=int8", "w=uint8", "-p", "mindspore,jax,torch"
    )  # fmt: skip
    assert done.stdout.splitlines()[:5] == [
        "  code                   mindspore  jax     torch",
        "> w.sum()                int64      uint64  int64",
        "  x * w.sum()            ?          float*  int8",
        "  w.sum()                ·          uint64  int64",
        "  x * w.sum() + w.sum()  ·          float*  int8",
    ]
    assert done.stdout.splitlines()[5].startswith(
        "mindspore is not answered at x * w.sum(): MindSpore's * and / take a 0-d tensor as a"
        " scalar"
    )
    assert done.stdout.splitlines()[-1] == (
        "> the policies part at w.sum(): mindspore int64, jax uint64, torch int64"
    )


def test_a_literal_in_an_operation_not_measured_with_values_stops_every_column(run):
    # where's cases are measured for types only: a literal there is not answered, not guessed
    done = run("expr", "where(x > 0, x, 2)", "x=int8", "-p", "numpy,torch")
    assert done.stdout.splitlines()[:3] == [
        "  code                numpy  torch",
        "  x > 0               bool   bool",
        "  where(x > 0, x, 2)  ?      ?",
    ]
    assert (
        "numpy is not answered at where(x > 0, x, 2): numpy's where is not checked against a"
        " Python int's value yet" in done.stdout
    )


def test_numpy_1_26s_literals_are_answered_as_it_ran_them(run):
    # NumPy 1.26.4: x = np.ones(2, np.int8); w = np.ones(2, np.uint8); x / 2 is float64,
    # w.sum() uint64, x / 2 + w.sum() float64 (its operations take a value, measured).
    done = run(
        "expr", "x / 2 + w.sum()", "x=int8", "w=uint8", "-p", "numpy",
        "-O", "promotion=legacy", "--json",
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert [n["answers"][0]["result"] for n in json.loads(done.stdout)["nodes"]] == [
        "float64",
        "uint64",
        "float64",
    ]


def test_without_x64_jax_makes_each_64_bit_array_32_bit():
    # Run for real without x64: jnp.ones((2, 2), complex128) + jnp.ones((2, 2), int64) is
    # complex64, and its .astype(int64) int32.
    steps = promote_cli.expr_steps(
        "y = x + z; y.astype(int64)", {"x": "complex128", "z": "int64"}, policy="jax", x64=False
    )
    assert [s.operand.dtype for s in steps] == ["complex64", "int32", "complex64", "int32"]


def test_a_0d_arrays_sum_under_mlx_is_the_array_itself():
    # MLX 0.32.4: mx.sum of a 0-d int8 array is int8; of a matrix int32.
    steps = promote_cli.expr_steps("x[0, 0].sum() + x.sum()", {"x": "int8"}, policy="mlx")
    assert [s.operand.dtype for s in steps[1:]] == ["int8", "int8", "int32", "int32"]


def test_array_api_strict_refuses_a_row_index_a_complex_to_real_cast_and_a_0d_transpose():
    # array-api-strict 2.6.1: x[0] of a 2-D array raises IndexError; xp.astype(complex64 array,
    # float32) raises TypeError; .T of a 0-d array ValueError; x.sum() AttributeError (its
    # arrays have no reduction methods). x[0, 0], complex to complex, .T of a matrix and
    # xp.sum(x) run.
    with pytest.raises(PromotionError, match=r"ValueError: x\.T requires x to have 2 dimensions"):
        promote_cli.expr("xp.sum(x).T", {"x": "int8"}, policy="array-api")
    with pytest.raises(PromotionError, match=r"no \.sum\(\) method \(AttributeError\)"):
        promote_cli.expr("x.sum()", {"x": "int8"}, policy="array-api")
    assert promote_cli.expr("x.T", {"x": "int8"}, policy="array-api") == "int8"
    with pytest.raises(PromotionError, match="IndexError: an index of fewer integers"):
        promote_cli.expr("x[0] + x[0, 0]", {"x": "int8"}, policy="array-api")
    assert promote_cli.expr("x[0, 0] + x", {"x": "int8"}, policy="array-api") == "int8"
    with pytest.raises(PromotionError, match="TypeError: the standard does not permit casting"):
        promote_cli.expr("x.astype(float32)", {"x": "complex64"}, policy="array-api")
    assert promote_cli.expr("x.astype(complex128)", {"x": "complex64"}, policy="array-api") == (
        "complex128"
    )


def _makes(prims, dtype: str, made: str) -> bool:
    """Whether the framework makes an array of ``dtype`` at all (XLA has no float6 arrays),
    and of the type ``made`` the model says it makes (JAX without x64 makes int64 int32)."""
    try:
        with warnings.catch_warnings():  # PyTorch's "ComplexHalf support is experimental"
            warnings.simplefilter("ignore")
            got = prims.dtype(prims.array(dtype, 2))
    except Exception:
        return False
    assert got == made, f"{dtype}: the framework makes {got}, the model says {made}"
    return True


@pytest.mark.parametrize("spelling", ["N(float64)", "S(int64)=300"])
def test_a_numpy_scalar_or_a_held_value_is_not_a_binding(spelling):
    with pytest.raises(UsageError, match="a NumPy scalar or a held value is not modelled here"):
        api.expr_request("x + y", {"x": spelling, "y": "int8"}, ["numpy"])


def test_tensorflows_weak_tensor_flows_through_calls_methods_and_transposes_not_indexing():
    # Run for real (TensorFlow 2.21, NumPy behaviour in mode all): int8_tensor * 1.5 is a
    # float64 WeakTensor; tnp.sqrt, .mean() and .T of it are WeakTensors, so + a float32
    # tensor is float32; x[0] of it is a strong float64 tensor, so + float32 is float64.
    bindings = {"x": "int8", "y": "float32"}
    for code in ("sqrt(x * 1.5) + y", "(x * 1.5).mean() + y", "(x * 1.5).T + y"):
        assert promote_cli.expr(code, bindings, policy="tensorflow") == "float32", code
    assert promote_cli.expr("(x * 1.5)[0] + y", bindings, policy="tensorflow") == "float64"
    steps = promote_cli.expr_steps("isnan(x * 1.5)", bindings, policy="tensorflow")
    assert steps[-1].operand.dtype == "bool"  # a bool is never weak


def test_tensorflows_tensors_have_mean_and_max_methods_but_no_sum():
    # tf.Tensor under NumPy behaviour: x.mean() and x.max() run, x.sum() raises
    # AttributeError ('EagerTensor' object has no attribute 'sum'); tnp.sum(x) runs.
    assert promote_cli.expr("x.max()", {"x": "int8"}, policy="tensorflow") == "int8"
    with pytest.raises(PromotionError, match=r"no \.sum\(\) method \(AttributeError\)"):
        promote_cli.expr("x.sum()", {"x": "int8"}, policy="tensorflow")
    assert promote_cli.expr("tnp.sum(x)", {"x": "int8"}, policy="tensorflow") == "int32"


def test_mindspores_0d_tensor_widens_and_an_update_rebinds_but_its_scalar_product_is_unanswered():
    # Run for real (MindSpore 2.10, PyNative on the CPU): x / 2 is float32, w.sum() int64 and
    # their sum float32; an int8 tensor + its own 0-d int64 sum is int64 (a 0-d tensor widens,
    # unlike PyTorch's); x += 1.5 binds x to a new float32 tensor. float16_tensor * a 0-d
    # float64 tensor is float16 (Muls: the 0-d tensor as a scalar), not modelled: unanswered.
    steps = promote_cli.expr_steps(
        "x / 2 + w.sum()", {"x": "int8", "w": "uint8"}, policy="mindspore"
    )
    assert [s.operand.dtype for s in steps if s.node.kind == OPERATION] == [
        "float32",
        "int64",
        "float32",
    ]
    assert promote_cli.expr("x + x.sum()", {"x": "int8"}, policy="mindspore") == "int64"
    update = promote_cli.expr_steps("x += 1.5", {"x": "int8"}, policy="mindspore")[-1]
    assert (update.outcome.rule, update.operand.dtype) == ("rebinds", "float32")
    (column,) = api.expr_request(
        "x * y.sum()", {"x": "float16", "y": "float64"}, ["mindspore"]
    ).answers()
    assert unanswered(column[-1])


def test_paddles_sum_keeps_uint8_its_0d_tensor_does_not_widen_and_int_over_uint_raises():
    # Run for real (Paddle 3.3.1, CPU): w.sum() of uint8 is uint8; int8 + that 0-d uint8 is
    # int8, a 0-d int8 element + uint8 tensor uint8; int8 / uint8 raises TypeError ("Type
    # promotion only support calculations between floating-point numbers and ...").
    bindings = {"x": "int8", "w": "uint8"}
    assert promote_cli.expr("w.sum()", bindings, policy="paddle") == "uint8"
    assert promote_cli.expr("x + w.sum()", bindings, policy="paddle") == "int8"
    assert promote_cli.expr("x[0, 0] + w", bindings, policy="paddle") == "uint8"
    with pytest.raises(PromotionError, match="Paddle promotes two tensors only float"):
        promote_cli.expr("x / w", bindings, policy="paddle")


def test_tinygrads_weak_tensor_flows_until_a_reduction_and_x_plus_1_keeps_int8():
    # Run for real (tinygrad 0.14.0, PYTHON device, read with .tolist()): int8 + 1 is int8;
    # floor of a bool tensor is a weakint tensor, and weakint + int8 is int8 (NumPy: int8
    # too, from a bool floor); int8 + 1.5 a weakfloat tensor, whose sum is float32.
    assert promote_cli.expr("x + 1", {"x": "int8"}, policy="tinygrad") == "int8"
    steps = promote_cli.expr_steps("floor(x) + y", {"x": "bool", "y": "int8"}, policy="tinygrad")
    assert [s.operand.dtype for s in steps if s.node.kind == OPERATION] == [
        "int*",
        "int8",
    ]
    steps = promote_cli.expr_steps("(x + 1.5).sum()", {"x": "int8"}, policy="tinygrad")
    assert [s.operand.dtype for s in steps if s.node.kind == OPERATION] == [
        "float*",
        "float32",
    ]
    assert promote_cli.expr("Tensor.mul(x, y)", {"x": "int8", "y": "uint8"}, "tinygrad") == "int16"


def test_tinygrads_float_and_raises_where_it_is_built_once_the_line_is_built_whole():
    # Run for real: float32_tensor & int32_tensor is built lazily (float32) and fails when
    # realised ("UOp verification failed ... Ops.AND dtypes.float"): the column stops there,
    # after the line is built. z += y (int8 += int16: "assign dtype mismatch") raises as it
    # is built, before anything is realised: that is where the line raises.
    (column,) = api.expr_request(
        "(x & y).sum()", {"x": "float32", "y": "int32"}, ["tinygrad"]
    ).answers()
    stop = column[2]
    assert (stop.node.text, stop.operand, stop.outcome.rule) == ("x & y", None, "op-refuses")
    assert "refused when realised" in stop.outcome.why
    assert column[3].operand is None and column[3].outcome is None
    (column,) = api.expr_request(
        "w = x & y; z += y", {"x": "float32", "y": "int16", "z": "int8"}, ["tinygrad"]
    ).answers()
    assert column[2].operand.dtype == "float32"  # x & y, built
    assert (column[-1].node.text, column[-1].outcome.rule) == ("z += y", "update-refused")


def test_tinygrads_pow_of_two_integer_tensors_is_unanswered_and_a_row_has_no_transpose():
    # Run for real: uint32_tensor ** int32_tensor is int64 lazily, computed in float inside
    # the graph; ~ of it fails when realised (Ops.XOR dtypes.float), + 1 of it does not (the
    # PYTHON device's emulator cannot run it alone): not answered. int8_tensor ** 2 realises.
    # x[0].T raises IndexError (a row has no .T in tinygrad).
    (column,) = api.expr_request("~(x ** y)", {"x": "uint32", "y": "int32"}, ["tinygrad"]).answers()
    assert unanswered(column[2])
    assert promote_cli.expr("x ** 2", {"x": "int8"}, policy="tinygrad") == "int8"
    with pytest.raises(PromotionError, match=r"\.T of a tensor that is not a matrix"):
        promote_cli.expr("x[0].T", {"x": "int8"}, policy="tinygrad")


def test_each_value_of_a_tensors_option_declares_one_kind_of_tensor_promote_can_resolve():
    # Keras: every backend names the tensors keras.ops return there, and the policy (with its
    # options) that answers their operators is one promote has. A backend added without one
    # would make promote expr fail on it.
    declaring = [e for e in frameworks.entries() if e.expressions.tensors_option]
    assert [e.name for e in declaring] == ["keras"]
    for entry in declaring:
        (option,) = [o for o in entry.options if o.name == entry.expressions.tensors_option]
        assert sorted(t.value for t in entry.expressions.tensors) == sorted(option.choices)
        for value in option.choices:
            tensors = entry.expressions.tensors_under({option.name: value})
            assert tensors is not None and tensors.value == value
            if tensors.policy:
                resolved = frameworks.get(tensors.policy).resolve_options(dict(tensors.options))
                assert dict(tensors.options).items() <= resolved.items(), value


# Keras 3.15.1, run for real on each backend (KERAS_BACKEND, floatx float32): keras.ops return
# the backend's tensors, whose operators, methods and casts are the backend's own.
def _keras(code: str, bindings: dict[str, str], backend: str) -> list[Step]:
    steps = promote_cli.expr_steps(code, bindings, policy="keras", backend=backend)
    return [s for s in steps if s.node.kind not in (NAME, LITERAL)]


@pytest.mark.parametrize("backend", ["jax", "tensorflow", "torch", "numpy", "openvino"])
def test_keras_ops_add_of_int8_and_a_python_int_is_int8_on_every_backend(backend):
    assert promote_cli.expr("ops.add(x, 1)", {"x": "int8"}, policy="keras", backend=backend) == (
        "int8"
    )


@pytest.mark.parametrize(
    ("backend", "want"),
    # jax: int8 + 1.5 is a weak float32 array, which float16 wins against; torch and numpy:
    # a strong float32 tensor and array; tensorflow: a float32 + a float16 tf.Tensor raises
    # InvalidArgumentError (Keras does not turn on NumPy behaviour).
    [("jax", "float16"), ("torch", "float32"), ("numpy", "float32"), ("tensorflow", None)],
)
def test_an_operator_on_what_keras_ops_returns_is_the_backends_own(backend, want):
    (add, plus) = _keras("ops.add(x, 1.5) + y", {"x": "int8", "y": "float16"}, backend)
    assert add.operand is not None
    assert add.operand.dtype == ("float*" if backend == "jax" else "float32")
    if want is None:
        assert plus.operand is None and plus.outcome.rule == "op-refuses-operand"
        assert "one dtype only (InvalidArgumentError)" in plus.outcome.why
    else:
        assert plus.operand is not None and plus.operand.dtype == want


def test_keras_on_tensorflow_answers_an_operator_of_one_dtype_and_refuses_two():
    # tf.Tensor without NumPy behaviour: int8 / int8 is float32 (TensorFlow's truediv),
    # int8 + 300 makes 300 an int8 tensor (int8), int8 + int16 raises InvalidArgumentError,
    # int8 + 1.5 and True + int8 too (the scalar is made a float32 or bool tensor), x << y
    # raises TypeError (no operator), x.sum() AttributeError; int8 * int16 is not modelled.
    bindings = {"x": "int8", "y": "int16"}
    for code, want in (("x / x", "float32"), ("x + 300", "int8"), ("300 - x", "int8")):
        (answered,) = _keras(code, bindings, "tensorflow")
        assert answered.operand is not None and answered.operand.dtype == want, code
    for code in ("x + y", "x + 1.5", "True + x", "x << x", "x.sum()", "x.astype(float32)"):
        (raised,) = _keras(code, bindings, "tensorflow")
        assert raised.operand is None and not unanswered(raised), code
    (product,) = _keras("x * y", bindings, "tensorflow")
    assert unanswered(product)


# Run for real (TensorFlow 2.x under Keras 3.15.1, no NumPy behaviour): every binary operator
# of an int32 and an int64 tf.Tensor raises; a Python scalar is made a tensor of the other
# operand's dtype, or raises: per type, ``x + True``, ``x + 2**63``, ``x + 1.5``, ``x - 1``.
_TF_MEASURED = {
    "int8": ("raises", "raises", "raises", "int8"),
    "uint8": ("raises", "raises", "raises", "uint8"),
    "int32": ("int32", "raises", "raises", "int32"),
    "int64": ("int64", "raises", "raises", "int64"),
    "uint64": ("uint64", "uint64", "raises", "uint64"),
    "float16": ("float16", "float16", "float16", "float16"),
    "complex64": ("raises", "raises", "complex64", "complex64"),
}


def test_keras_on_tensorflow_mixes_no_two_dtypes_under_any_operator_as_measured():
    for op in ("+", "-", "/", "//", "%", "**", "&", "|", "^", "==", "!=", "<", "<=", ">", ">="):
        (raised,) = _keras(f"x {op} y", {"x": "int32", "y": "int64"}, "tensorflow")
        assert raised.operand is None and not unanswered(raised), op


@pytest.mark.parametrize("dtype", sorted(_TF_MEASURED))
def test_keras_on_tensorflow_makes_a_python_scalar_the_tensors_dtype_as_measured(dtype):
    codes = ("x + True", "x + 9223372036854775808", "x + 1.5", "x - 1")
    found = []
    for code in codes:
        (step,) = _keras(code, {"x": dtype}, "tensorflow")
        assert step.operand is not None or not unanswered(step), code
        found.append(step.operand.dtype if step.operand is not None else "raises")
    assert tuple(found) == _TF_MEASURED[dtype]


@pytest.mark.parametrize(
    ("backend", "method", "function"),
    # x.sum() is the backend's own: jax.Array's int32 (no x64), torch.Tensor's int64, NumPy's
    # int64; ops.sum(x) is Keras's int32 on each.
    [("jax", "int32", "int32"), ("torch", "int64", "int32"), ("numpy", "int64", "int32")],
)
def test_a_keras_tensors_sum_method_is_the_backends_and_ops_sum_keras(backend, method, function):
    (own,) = _keras("x.sum()", {"x": "int8"}, backend)
    (called,) = _keras("ops.sum(x)", {"x": "int8"}, backend)
    assert (own.operand.dtype, called.operand.dtype) == (method, function)


def test_keras_on_torch_has_no_astype_and_no_uint64_tensor():
    # torch.Tensor has no .astype (AttributeError); keras.ops.ones((2, 2), "uint64") raises
    # ValueError ("Unsupported dtype for PyTorch: uint64").
    (cast,) = _keras("x.astype(float32)", {"x": "int8"}, "torch")
    assert cast.operand is None and "no .astype()" in cast.outcome.why
    steps = promote_cli.expr_steps("x + x", {"x": "uint64"}, policy="keras", backend="torch")
    assert steps[0].operand is None and "no tensor of it on torch" in steps[0].outcome.why


def test_keras_on_openvino_leaves_its_tensors_operators_unanswered_but_indexes():
    # OpenVINOKerasTensor: x[0] is int8, x.sum() raises AttributeError; x + y aligns the types
    # its own way (int8 + uint8 is int16 there), which promote does not model.
    bindings = {"x": "int8", "y": "uint8"}
    (row,) = _keras("x[0]", bindings, "openvino")
    assert row.operand is not None and row.operand.dtype == "int8"
    (method,) = _keras("x.sum()", bindings, "openvino")
    assert method.operand is None and not unanswered(method)
    (plus,) = _keras("x + y", bindings, "openvino")
    assert unanswered(plus)


def test_a_node_promote_declines_is_not_answered_not_a_raise(run):
    # TensorFlow inside tf.function under mode=legacy is declined (the rule declined): the
    # column says ? and "is not answered", never that TensorFlow raises there
    done = run(
        "expr", "x + y", "x=int8", "y=int16", "-p", "tensorflow,numpy",
        "-O", "tensorflow:function=true", "-O", "tensorflow:mode=legacy",
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[1].split() == ["x", "+", "y", "?", "int16"]
    assert lines[2].startswith(
        "tensorflow mode=legacy function=true is not answered at x + y: function=true is not"
        " modelled under mode=legacy"
    )


def test_where_raises_at_a_condition_pytorch_does_not_take_and_numpy_reads_any(run):
    # PyTorch 2.13: "where expected condition to be a boolean tensor, but got a tensor with
    # dtype Char" (RuntimeError); NumPy reads an int8 condition as truth values.
    done = run("expr", "where(x, x, y)", "x=int8", "y=uint8", "-p", "torch,numpy")
    assert done.exit_code == 1
    assert done.stdout.splitlines() == [
        "  code            torch   numpy",
        "> where(x, x, y)  raises  int16",
        "torch raises at where(x, x, y): RuntimeError: where expected condition to be a boolean"
        " tensor (the condition is int8)",
        "> the policies part at where(x, x, y): torch raises, numpy int16",
    ]


@pytest.mark.parametrize(
    ("policy", "options", "condition", "dtype"),
    [
        # measured: each framework's where(c, int8_array, uint8_array)
        ("torch", {}, "bool", "int16"),
        ("torch", {}, "uint8", "int16"),  # PyTorch still takes a uint8 condition
        ("torch", {}, "S(float32)", None),  # a 0-d one too is refused
        ("numpy", {}, "complex64", "int16"),
        ("jax", {}, "float8_e5m2", "int16"),
        ("mlx", {}, "float16", "int16"),
        ("tensorflow", {}, "int64", "int16"),
        ("array-api", {}, "bool", "int16"),
        ("array-api", {}, "uint8", None),
        ("mindspore", {}, "int32", None),
        ("keras", {"backend": "torch"}, "float32", "int16"),
    ],
)
def test_where_takes_the_conditions_each_framework_measured_takes(
    policy, options, condition, dtype
):
    code = "where(c, x, y)"
    bindings = {"c": condition, "x": "int8", "y": "uint8"}
    if dtype is not None:
        assert api.expr(code, bindings, policy, **options) == dtype
        return
    with pytest.raises(PromotionError) as raised:
        api.expr(code, bindings, policy, **options)
    assert raised.value.rule == "op-refuses-operand"
    assert "(the condition is" in str(raised.value)


@pytest.mark.parametrize(
    ("policy", "options", "literal", "raises"),
    [
        ("numpy", {}, "1", ""),
        ("jax", {}, "1.5", ""),
        ("tensorflow", {}, "True", ""),
        ("torch", {}, "True", "TypeError: where() received an invalid combination of arguments"),
        ("array-api", {}, "0", "TypeError: `condition` must be an Array"),
        ("keras", {"backend": "torch"}, "1j", ""),
        ("keras", {"backend": "openvino"}, "1.5", ""),
        ("keras", {"backend": "openvino"}, "1j", "TypeError: The necessary overload for constant"),
    ],
)
def test_a_python_scalar_condition_is_taken_or_raised_at_as_each_framework_measured(
    policy, options, literal, raises
):
    code = f"where({literal}, x, y)"
    bindings = {"x": "int8", "y": "uint8"}
    if not raises:
        assert api.expr(code, bindings, policy, **options) == "int16"
        return
    with pytest.raises(PromotionError, match="where") as raised:
        api.expr(code, bindings, policy, **options)
    assert raises in str(raised.value)
    assert "(the condition is a Python" in str(raised.value)


def _console_blocks(page):
    """Each ``$ promote ...`` command of a page's console blocks, with what it shows printed."""
    import re
    import shlex

    text = page.read_text(encoding="utf-8")
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        command, _, shown = block.partition("\n")
        yield shlex.split(command.removeprefix("$ "))[1:], shown


def test_every_command_of_the_expr_guide_prints_what_it_shows(run):
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "guide" / "expr.md"
    blocks = list(_console_blocks(page))
    assert len(blocks) >= 2
    for args, shown in blocks:
        done = run(*args)
        # the page shows a long line as an 80-column terminal wraps it
        assert done.stdout.split() == shown.split(), args
