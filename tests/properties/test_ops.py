"""Per-operation dtype rules (vocabulary, rules, frameworks/<name>/operations.py): five calls
as measured on the installed frameworks, small examples with a reason each, the CLI, and
the declarations' shape."""

from __future__ import annotations

import json
import subprocess
import sys
from unittest.mock import ANY

import pytest
from click.testing import CliRunner

import promote_cli
from promote_cli import api, frameworks
from promote_cli.cli import cli
from promote_cli.errors import PolicyDefinitionError, PromotionError, UsageError
from promote_cli.operands import PYTHON, Operand
from promote_cli.rules import (
    ABSENT,
    NO_KERNEL,
    REFUSES_OPERAND,
    REFUSES_TYPE,
    SAME_DTYPE,
    SHAPE,
    SIGNATURE,
)
from promote_cli.vocabulary import KINDS, VOCABULARY
from promote_cli.walk import answer

REFUSED = None
# Five calls whose result types differ most between frameworks, measured: numpy 2.4, torch 2.13,
# jax 0.10.2 (x64 on), tnp (mode all), array-api-strict 2.6, mlx 0.32 (research/ops13); tinygrad
# 0.14 and paddle 3.3.1 measured with their operations (keras per backend and mindspore, with its
# kernel check: their own test files).
FIVE = [
    ("sqrt", ["int8"], {"numpy": "float16", "torch": "float32", "jax": "float32",
                        "tensorflow": "float32", "array-api": REFUSED, "mlx": "float32",
                        "tinygrad": "float32", "paddle": "float32"}),
    ("sum", ["uint8"], {"numpy": "uint64", "torch": "int64", "jax": "uint64",
                        "tensorflow": "uint32", "array-api": "uint64", "mlx": "uint32",
                        "tinygrad": "uint32", "paddle": "uint8"}),
    ("divide", ["int32", "int32"], {"numpy": "float64", "torch": "float32",
                                    "jax": "float32", "tensorflow": "float64",
                                    "array-api": REFUSED, "mlx": "float32",
                                    "tinygrad": "float32", "paddle": "float32"}),
    ("mean", ["int32"], {"numpy": "float64", "torch": REFUSED, "jax": "float32",
                         "tensorflow": "float32", "array-api": REFUSED, "mlx": "float32",
                         "tinygrad": "float32", "paddle": "int32"}),
    ("argmax", ["float32"], {"numpy": "int64", "torch": "int64", "jax": "int64",
                             "tensorflow": "int64", "array-api": "int64", "mlx": "uint32",
                             "tinygrad": "int32", "paddle": "int64"}),
]  # fmt: skip


@pytest.mark.parametrize(("op", "args", "want"), FIVE, ids=[r[0] for r in FIVE])
def test_sqrt_sum_divide_mean_argmax_come_out_as_measured_in_every_framework(op, args, want):
    for policy, expected in want.items():
        if expected is REFUSED:
            with pytest.raises(PromotionError):
                promote_cli.promote_many(args, policy=policy, op=op)
        else:
            assert promote_cli.promote_many(args, policy=policy, op=op) == expected, policy


# One example per rule that is not the plain kind, with why.
EXAMPLES = [
    # NumPy's binary int-to-float ufuncs pick their loop operand by operand.
    ("numpy", "atan2", ["int8", "uint8"], {}, "float16"),
    # ... but a Python scalar is resolved first (NEP 50): bool x int -> int64 -> float64.
    ("numpy", "atan2", ["bool", "int"], {}, "float64"),
    ("numpy", "square", ["bool"], {}, "int8"),  # no bool loop: int8
    ("numpy", "round", ["bool"], {}, "float16"),
    ("torch", "square", ["bool"], {}, "int64"),
    ("torch", "add", ["int", "int8"], {}, "int8"),  # a scalar on the left: 1 + t
    ("jax", "sum", ["uint8"], {"x64": "false"}, "uint32"),
    ("jax", "argmax", ["float32"], {"x64": "false"}, "int32"),
    ("jax", "floor_divide", ["bool", "bool"], {}, "int32"),  # int32 even with x64
    ("jax", "pow", ["int8", "P(bool)"], {"strict": "true"}, "int8"),  # integer_pow
    ("jax", "pow", ["float", "int8"], {}, "float64"),  # a scalar base is made strong
    ("jax", "divide", ["int8", "float"], {}, "float*"),  # weak stays weak
    ("tensorflow", "add", ["int32", "float16"], {}, "float64"),  # tnp uses np.result_type
    # ml_dtypes' bfloat16: np.result_type(bfloat16, 1.0) as each release makes NumPy answer
    ("tensorflow", "add", ["bfloat16", "float"], {"ml_dtypes": "0.6"}, "float64"),
    ("tensorflow", "add", ["bfloat16", "float"], {"ml_dtypes": "0.7"}, "bfloat16"),
    ("tensorflow", "where", ["int", "float"], {}, "float32"),  # weak results come out strong
    ("tensorflow", "cumulative_sum", ["uint64"], {}, "float32"),
    ("array-api", "matmul", ["int8", "float32"], {}, "float32"),  # NumPy's rule, not the API's
    ("array-api", "maximum", ["float32", "complex"], {}, "complex64"),  # arrays are checked
    ("mlx", "floor", ["int8"], {}, "int8"),  # MLX keeps integers where others convert
    ("mlx", "cumulative_sum", ["uint8"], {}, "uint8"),  # cumsum widens only bool
]


@pytest.mark.parametrize(("policy", "op", "args", "opts", "want"), EXAMPLES)
def test_rule_examples(policy, op, args, opts, want):
    assert promote_cli.promote_many(args, policy=policy, op=op, **opts) == want


@pytest.mark.parametrize(
    ("policy", "op", "args", "rule"),
    [
        ("torch", "subtract", ["int8", "P(bool)"], REFUSES_OPERAND),
        ("torch", "matmul", ["int8", "int16"], SAME_DTYPE),
        ("torch", "maximum", ["float32", "int"], SIGNATURE),
        ("numpy", "matmul", ["S(int8)", "int8"], SHAPE),
        ("tensorflow", "bitwise_left_shift", ["int8", "int8"], ABSENT),
        ("array-api", "where", ["int", "float"], SIGNATURE),
    ],
)
def test_refusals_say_which_rule(policy, op, args, rule):
    req = promote_cli.api.request(policy, operands=args, op=op)
    out = req.outcome()
    assert out.refused and out.rule == rule, out


def test_a_missing_cpu_kernel_answers_the_rule_and_says_so():
    req = api.request("torch", operands=["uint16", "uint16"], op="add")
    out = req.outcome()
    assert (out.result, out.rule) == ("uint16", NO_KERNEL)
    assert "no CPU kernel" in out.why


@pytest.mark.parametrize(
    ("op", "args", "result", "rule"),
    [
        # FloorDiv admits complex; no CPU kernel, but XLA (jit_compile=True) runs it: a gap.
        ("floor_divide", ["complex64", "complex64"], "complex64", NO_KERNEL),
        ("floor_divide", ["complex128", "int"], "complex128", NO_KERNEL),
        # Round admits complex, but no device runs it: CPU/GPU kernels are real types only and
        # XLA refuses "Operands to RoundToEven must be real-valued" (TensorFlow 2.21).
        ("round", ["complex64"], None, REFUSES_TYPE),
        # MatMul admits uint8-uint64, but neither CPU, XLA nor GPU registers a kernel for them.
        ("matmul", ["uint8", "uint8"], None, REFUSES_TYPE),
        ("matmul", ["uint64", "uint32"], None, REFUSES_TYPE),
    ],
)
def test_tensorflow_missing_kernels_are_gaps_only_where_some_device_has_one(op, args, result, rule):
    out = api.request("tensorflow", operands=args, op=op).outcome()
    assert (out.result, out.rule) == (result, rule), out


def test_tensorflow_bool_plus_bool_is_refused_by_addv2s_definition_not_a_gap():
    out = api.request("tensorflow", operands=["bool", "bool", "bool"], chain=True).outcome()
    assert out.refused and "AddV2 does not admit bool" in out.why, out


def test_openvino_and_ascend_refuse_operations_saying_why():
    for name in ("openvino", "ascend"):
        with pytest.raises(PromotionError, match="no per-operation rules"):
            promote_cli.promote_many(["float16"], policy=name, op="sqrt")


def test_every_framework_either_declares_operations_or_says_why_not():
    from importlib.util import find_spec

    for entry in frameworks.entries():
        declared = find_spec(f"{entry.package}.operations") is not None
        assert declared != bool(entry.operations), entry.name
    assert frameworks.entry("openvino").operations and frameworks.entry("ascend").operations


def test_every_policy_with_operations_declares_every_operation():
    for name in frameworks.names():
        try:
            declared = frameworks.operations(frameworks.get(name))
        except PromotionError:
            continue
        assert set(declared.rules) == set(VOCABULARY), name
        for rule in declared.rules.values():
            assert rule.kind in KINDS


def test_unknown_operation_and_wrong_arity_are_usage_errors():
    with pytest.raises(UsageError, match="did you mean 'sqrt'"):
        promote_cli.promote_many(["int8"], policy="numpy", op="sqr")
    with pytest.raises(UsageError, match="sqrt takes 1 operand"):
        promote_cli.promote("int8", "int8", policy="numpy", op="sqrt")


def test_op_with_the_chain_question_is_a_usage_error():
    # One operation call and a chain of + operators are two questions: no silent pick.
    with pytest.raises(UsageError, match="ask one of them"):
        promote_cli.promote_many(["int8", "int16", "int32"], policy="numpy", chain=True, op="add")


def test_a_value_in_an_operation_not_measured_with_values_is_a_usage_error():
    # np.where(cond, int8_array, 300): where's cases are measured for types only, so a value
    # there is a question promote cannot answer, not guessed; so is a value in any operation
    # of a framework whose operations were measured for types only (Operations.values unset).
    with pytest.raises(UsageError, match="give int rather than int:300"):
        promote_cli.promote("int8", "int:300", policy="numpy", op="where")
    done = CliRunner().invoke(cli, ["op", "where", "int8", "int:300", "-p", "numpy"])
    assert done.exit_code == 2
    assert "where is not checked against a Python scalar's value" in done.output
    numpy = frameworks.get("numpy")
    types_only = frameworks.operations(numpy)._replace(values=False)
    uint8, value = Operand("uint8"), Operand("int*", PYTHON, 300)
    with pytest.raises(UsageError, match="multiply is not checked against a Python scalar"):
        answer(types_only, "multiply", [uint8, value], numpy.resolve_options())
    # np.multiply(uint8_array, 300) with its values measured: NumPy 2 raises OverflowError
    with pytest.raises(PromotionError, match="Python integer 300 out of bounds for uint8"):
        promote_cli.promote("uint8", "int:300", policy="numpy", op="multiply")
    assert promote_cli.promote("uint8", "int", policy="numpy", op="add") == "uint8"


def test_op_cli_prints_the_dtype_and_explains():
    runner = CliRunner()
    done = runner.invoke(cli, ["op", "divide", "int32", "int32", "-p", "torch", "--explain"])
    assert done.exit_code == 0, done.output
    assert done.output.splitlines() == [
        "policy: torch (release=2.13)",  # the default release, said
        "operation: divide = torch.true_divide (kind: int-to-float)",
        "promotion (torch's promotion): int32 x int32 -> int32 (same-type)",
        "divide(int32, int32) -> float32",
        "rule: int-to-float: int32 -> float32: a bool or integer becomes the framework's float"
        " for it",
        "step: kind: the operation's kind applied to the promoted type (Rule.kind, Maps)",
    ]
    refused = runner.invoke(cli, ["op", "mean", "int32", "-p", "array-api"])
    assert (refused.exit_code, refused.output) == (1, "refused: xp.mean does not accept int32\n")


def test_op_explain_names_the_rule_of_the_chosen_option_setting():
    """Keras's rules depend on the backend: --explain names the kind and the promotion of the
    setting asked for (openvino makes sqrt of an int floatx itself), not the default's."""
    runner = CliRunner()
    args = ["op", "sqrt", "int8", "-p", "keras", "--explain"]
    default = runner.invoke(cli, args).output.splitlines()
    assert default[1] == "operation: sqrt = keras.ops.sqrt (kind: int-to-float)"
    assert default[3] == "sqrt(int8) -> float32"
    openvino = runner.invoke(cli, [*args, "-O", "backend=openvino", "-O", "floatx=bfloat16"])
    assert openvino.output.splitlines()[1:4] == [
        "operation: sqrt = keras.ops.sqrt (kind: int-to-default)",
        "promotion (the array's own dtype): int8 x int8 -> int8 (stored)",
        "sqrt(int8) -> bfloat16",
    ]


def test_ops_lists_each_policys_function():
    done = CliRunner().invoke(cli, ["ops"])
    assert done.exit_code == 0
    lines = done.output.splitlines()
    head = lines[0].split()
    line = next(x for x in lines if x.startswith("bitwise_left_shift"))
    # Read by column, so that a framework added to the registry adds a column, not a failure.
    assert dict(zip(head, line.split(), strict=True)) == {
        "operation": "bitwise_left_shift",
        "arity": "binary",
        "jax": "jnp.bitwise_left_shift",
        "numpy": "np.bitwise_left_shift",
        "torch": "torch.bitwise_left_shift",
        "tensorflow": "-",
        "array-api": "xp.bitwise_left_shift",
        "mlx": "mx.left_shift",
        "keras": "keras.ops.bitwise_left_shift",
        "tinygrad": "Tensor.lshift",
        "paddle": "paddle.bitwise_left_shift",
        "mindspore": "ops.bitwise_left_shift",
        **{name: ANY for name in head[12:]},
    }


def test_table_op_unary_is_one_row_over_the_types():
    done = CliRunner().invoke(
        cli, ["table", "-p", "torch", "--op", "sum", "-t", "int8,bool,float16", "-f", "csv"]
    )
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[-2:] == [",int8,bool,float16", "sum(x),int64,int64,float16"]


def test_op_runs_as_a_real_process_without_numpy():
    code = (
        "import sys; from promote_cli.cli import main\n"
        "try: main(['op', 'sqrt', 'int8', '-p', 'numpy'])\n"
        "except SystemExit as e: assert e.code == 0\n"
        "assert 'numpy' not in sys.modules and 'jinja2' not in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "float16\n"), done.stderr


def test_a_declaration_missing_an_operation_is_named_where_it_is_loaded(run, monkeypatch):
    declared = frameworks.operations(frameworks.get("numpy"))
    monkeypatch.delitem(declared.rules, "sqrt")  # type: ignore[attr-defined]
    with pytest.raises(PolicyDefinitionError, match=r"numpy\.operations declares no rule for sqrt"):
        frameworks.operations(frameworks.get("numpy"))
    result = run("op", "divide", "int8", "int8", "-p", "numpy")
    assert result.exit_code == 3
    assert "declares no rule for sqrt: every operation of `promote ops` needs one" in result.stderr


def test_numpy_operations_on_ml_dtypes_types_are_refused_as_unmeasured(run):
    # NumPy 2.4.6 with ml_dtypes 0.6.0 computes bf16_array + f16_array as float32 (its own
    # ufunc loop), where np.result_type refuses the pair: measured only for the pair question.
    done = run("op", "+", "bfloat16", "float16", "-p", "numpy", "-O", "ml_dtypes=true")
    assert done.exit_code == 1
    assert "measured on its own dtypes, not on ml_dtypes' types" in done.stdout
    assert run("op", "+", "int8", "float16", "-p", "numpy", "-O", "ml_dtypes=true").stdout == (
        "float16\n"
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        # a NumPy scalar where the function takes arrays only (np.matmul(np.float64(1), 3):
        # ValueError, not enough dimensions), and where the framework has none at all
        (("matmul", "N(float64)", "int:3", "-p", "numpy"), "np.matmul does not take a NumPy"),
        (("maximum", "N(float64)", "int", "-p", "torch"), "torch.maximum does not take a NumPy"),
        # a type the policy does not have, before Keras's own pair function sees it
        (("add", "longdouble", "float32", "-p", "keras"), "Keras 3 has no longdouble type"),
        (
            ("floor_divide", "longdouble", "int:3", "-p", "keras", "-O", "backend=torch"),
            "Keras 3 has no longdouble type",
        ),
    ],
)
def test_an_operand_outside_the_function_or_the_policy_is_refused_in_words(run, args, says):
    done = run("op", *args)
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"refused: {says}")


def test_json_and_explain_name_the_function_of_the_setting_asked():
    # NumPy 1.26 (promotion=legacy) has no np.cumulative_sum: its rule calls np.cumsum, and
    # --json named the default setting's function while --explain named the right one.
    runner = CliRunner()
    asked = ["op", "cumulative_sum", "int8", "-p", "numpy"]
    legacy = [*asked, "-O", "promotion=legacy"]
    assert json.loads(runner.invoke(cli, [*legacy, "--json"]).output)["function"] == "np.cumsum"
    explained = runner.invoke(cli, [*legacy, "--explain"]).output.splitlines()
    assert "operation: cumulative_sum = np.cumsum (kind: accumulate)" in explained
    default = json.loads(runner.invoke(cli, [*asked, "--json"]).output)
    assert default["function"] == "np.cumulative_sum"
