"""``promote pair`` and ``promote policies`` from the command line."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from promote_cli import PromotionError, promote

ROOT = Path(__file__).resolve().parents[2]


def test_pair_prints_the_result_in_the_policy_notation(run):
    result = run("pair", "f16", "f32", "--policy", "openvino")
    assert (result.exit_code, result.stdout) == (0, "f32\n")


def test_colliding_labels_show_the_canonical_name(run):
    result = run("pair", "i8", "u8", "--policy", "jax")
    assert result.exit_code == 0
    assert result.stdout == "f8 (float64)\n"
    assert "read i8 as int64, u8 as uint64" in result.stderr


def test_notation_option_reads_and_prints_in_another_notation(run):
    result = run("pair", "i8", "u8", "--policy", "jax", "--notation", "openvino")
    assert result.stdout == "i16\n"  # int8 x uint8 in JAX, printed in bit notation


def test_openvino_default_refusal_names_the_unsafe_result_and_the_option(run):
    result = run("pair", "f16", "bf16", "--policy", "openvino")
    assert result.exit_code == 1
    assert result.stdout.startswith("refused: ")
    assert "promote_unsafe=true would give f32" in result.stdout


def test_options_change_the_answer(run):
    result = run("pair", "f16", "bf16", "-p", "openvino", "-O", "promote_unsafe=true")
    assert (result.exit_code, result.stdout) == (0, "f32\n")
    result = run("pair", "u4", "i4", "-O", "x64=false")
    assert result.stdout == "i4 (int32)\n"


def test_json_has_every_field_with_defaults_filled_in(run):
    result = run(
        "pair", "S(i64)", "D(u8)", "-p", "openvino", "--json", "-O", "pytorch_scalar_promotion=true"
    )
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["options"] == {
        "promote_unsafe": False,
        "pytorch_scalar_promotion": True,
        "u64_integer_promotion_target": "float32",
    }
    assert doc["operands"] == [
        {"spelling": "S(i64)", "canonical": "int64", "category": "S", "label": "S(i64)"},
        {"spelling": "D(u8)", "canonical": "uint8", "category": "D", "label": "u8"},
    ]
    assert doc["result"] is None and doc["refused"] and doc["unsafe_result"] == "uint8"
    assert "would give u8" in doc["reason"]
    assert doc["rule"] == "pytorch-scalar"


def test_json_weak_result(run):
    doc = json.loads(run("pair", "int", "float", "--json").stdout)
    assert (doc["result"], doc["label"], doc["refused"]) == ("float*", "f*", False)


def test_explain_names_the_rule_and_the_chains(run):
    result = run("pair", "u1", "i1", "--explain")
    assert result.exit_code == 0
    assert "u1 (uint8) -> i2 (int16) and i1 (int8) -> i2 (int16)" not in result.stdout
    assert "u1 -> i2 and i1 -> i2: they meet at i2" in result.stdout
    result = run("pair", "i16", "u32", "-p", "openvino", "-O", "promote_unsafe=1", "--explain")
    assert "rule: signed-with-unsigned" in result.stdout and "-> i64" in result.stdout


def test_more_than_two_operands_are_combined(run):
    # JAX: uint64 x int8 meets at the weak float, which then yields to float16.
    assert run("pair", "u8", "i1", "f2").stdout == "f2\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pair", "int8", "flaot16"], "did you mean 'float16'"),
        (["pair", "i8", "u8", "-p", "ascend"], "ambiguous"),
        (["pair", "f16", "i8", "-p", "nope"], "unknown policy 'nope'"),
        (["pair", "f16", "i8", "-O", "x64=maybe"], "option x64 takes true or false"),
        (["pair", "f16", "i8", "-O", "fast=1"], "policy jax has no option 'fast'"),
        (["pair", "f16", "i8", "-O", "x64"], "-O takes NAME=VALUE"),
        (["pair", "f16"], "pair needs two operands"),
        (["pair", "f16", "i8", "--notation", "klingon"], "unknown notation 'klingon'"),
        (["pair", "P(f16)", "i8"], "is not a Python scalar"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "promote_cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr


def test_refusal_from_a_real_process_exits_1():
    proc = subprocess.run(
        [sys.executable, "-m", "promote_cli", "pair", "u16", "f32", "--policy", "ascend"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 1
    assert (
        proc.stdout == "refused: aclnn cannot deduce a common type for u16 and f32"
        " (× in the deduction table)\n"
    )


# What `pair`, `op`, `expr` and `--help` may import beyond the standard library: click, and
# promote itself. No numpy, ml_dtypes, jinja2, rich, nor any framework (their policies are
# data): a new framework's library is covered with no line here.
LIGHT = ("click", "promote_cli")


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        (["pair", "f16", "bf16"], "f4"),
        (["pair", "f16", "bf16", "-p", "openvino", "-O", "promote_unsafe=1"], "f32"),
        (["pair", "u16", "f32", "-p", "ascend"], "refused: aclnn"),
        (["pair", "uint64", "int64", "-p", "mlx"], "float32"),
        (["pair", "fp8e4m3", "fp8e5m2", "-p", "tinygrad"], "float16"),
        # keras.backend.result_type("uint64", "int8"), measured: float32
        (["pair", "uint64", "int8", "-p", "keras", "-O", "backend=jax"], "float32"),
        (["pair", "int32", "int64", "-p", "paddle"], "refused: Paddle"),
        (["pair", "bool", "uint16", "-p", "mindspore"], "uint16"),
        (
            ["pair", "bfloat16", "float", "-p", "numpy", "-O", "ml_dtypes=0.6", "--chain"],
            "float32",
        ),
        (["--help"], "Usage: promote"),
        # promote op, under every policy with operations: sum(uint8) as each framework measured it
        (["op", "sum", "uint8", "-p", "numpy"], "uint64"),
        (["op", "sum", "uint8", "-p", "torch"], "int64"),
        (["op", "sum", "uint8", "-p", "jax", "-O", "x64=false"], "u4 (uint32)"),
        (["op", "sum", "uint8", "-p", "tensorflow"], "u32"),
        (["op", "sum", "uint8", "-p", "array-api"], "uint64"),
        (["op", "sum", "uint8", "-p", "mlx"], "uint32"),
        (["op", "sum", "uint8", "-p", "keras", "-O", "backend=torch"], "int32"),
        (["op", "sum", "uint8", "-p", "tinygrad"], "uint32"),
        (["op", "sum", "uint8", "-p", "paddle"], "uint8"),
        (["op", "sum", "uint8", "-p", "mindspore"], "int64"),
        (["op", "multiply", "uint16", "bool", "-p", "mindspore"], "refused"),
        # promote expr, under the policies it answers
        (
            ["expr", "x / y + w.sum()", "x=int8", "y=int16", "w=uint8", "-p", "numpy,torch"],
            "  code",
        ),
    ],
)
def test_start_up_imports_none_of_the_heavy_libraries(args, stdout):
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"  # what the interpreter's start (site, .pth) imported
        "from promote_cli.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "tops = {name.split('.')[0] for name in set(sys.modules) - before}\n"
        f"heavy = sorted(tops - sys.stdlib_module_names - set({LIGHT!r}))\n"
        "print('heavy:', heavy, file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout.startswith(stdout)
    assert "heavy: []" in proc.stderr


def test_policies_lists_types_and_options(run):
    result = run("policies")
    assert result.exit_code == 0
    assert "-O promote_unsafe=false" in result.stdout
    assert "-O u64_integer_promotion_target=f32" in result.stdout
    assert "-O x64=true" in result.stdout
    doc = {p["name"]: p for p in json.loads(run("policies", "--json").stdout)["policies"]}
    assert {"jax", "openvino", "ascend", "numpy"} <= set(doc)
    assert [t["label"] for t in doc["ascend"]["default_table"][:4]] == ["f32", "f16", "f64", "bf16"]
    assert len(doc["openvino"]["types"]) == 19  # the 18 static input types and dynamic


def test_python_api():
    import promote_cli

    assert promote_cli.promote("int8", "uint8") == "int16"
    assert promote_cli.promote("i*", "f*") == "float*"
    with pytest.raises(promote_cli.PromotionError) as info:
        promote_cli.promote("f16", "bf16", policy="openvino")
    assert info.value.unsafe_result == "float32"
    with pytest.raises(ValueError, match="unknown dtype"):
        promote_cli.promote("f16", "nonsense")
    with pytest.raises(ValueError, match="no option"):
        promote_cli.promote("f16", "f32", policy="ascend", x64=True)
    m = promote_cli.matrix("ascend", ["f16", "bf16"])
    assert [[c.result for c in row] for row in m.cells] == [
        ["float16", "float32"],
        ["float32", "bfloat16"],
    ]


def test_module_entry_point_and_version():
    proc = subprocess.run(
        [sys.executable, "-m", "promote_cli", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0 and proc.stdout.startswith("promote, version ")


@pytest.mark.parametrize("policy", ["jax", "numpy", "torch", "array-api"])
def test_a_weak_type_of_another_framework_is_refused_not_a_crash(policy, run):
    # TensorFlow's widthed weak types are not Python scalars of these frameworks.
    with pytest.raises(PromotionError, match="has no weak type int32"):
        promote("int32*", "float32", policy=policy, notation="canonical")
    result = run("pair", "int32*", "float32", "--policy", policy, "--notation", "canonical")
    assert result.exit_code == 1 and "has no weak type int32*" in result.stdout


def test_tensorflow_still_takes_its_weak_types():
    assert promote("i32*", "f32", policy="tensorflow") == "float32"


def test_option_values_are_read_in_the_same_notation_as_the_operands(run):
    # --notation jax reads i8 as int64: the operand, and the option value too.
    result = run(
        "pair", "u64", "i8", "-p", "openvino", "-O", "promote_unsafe=true",
        "-O", "u64_integer_promotion_target=i8", "--notation", "jax",
    )  # fmt: skip
    assert result.exit_code == 0 and result.stdout == "i8 (int64)\n"


def test_reasons_and_explanations_are_worded_in_the_active_notation(run):
    refused = run("pair", "f16", "bf16", "-p", "openvino")
    assert "f16 and bf16 differ in exponent and mantissa" in refused.stdout
    in_jax = run("pair", "f2", "bf", "-p", "openvino", "--notation", "jax")
    assert "f2 and bf differ in exponent and mantissa; widening to f4" in in_jax.stdout
    explained = run("pair", "uint8", "int8", "--explain", "--notation", "canonical")
    assert "rule: lattice: uint8 -> int16 and int8 -> int16: they meet at int16" in explained.stdout


@pytest.mark.parametrize(
    ("args", "entries"),
    [
        (["pair", "f16", "bf16"], {"jax", "numpy"}),  # numpy: its reader says what f16 is there
        (["pair", "u16", "f32", "-p", "ascend"], {"ascend", "numpy"}),
        (["op", "sqrt", "int8", "-p", "numpy"], {"numpy"}),
        # TF's legacy mode applies NumPy's promotion from promote_cli/shared, not numpy's entry
        (["op", "divide", "i32", "i32", "-p", "tensorflow"], {"tensorflow"}),
    ],
)
def test_an_answer_reads_no_other_framework_and_neither_locale_nor_difflib(args, entries):
    # Start-up (docs/guide/design.md): the notations come from frameworks/_index.py, not from
    # every framework's entry; no option click makes on the way is worded through gettext
    # (whose first lookup imports locale), and -p is not first tried as a long option (whose
    # error imports difflib for a suggestion).
    code = (
        "import sys\n"
        "from promote_cli.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print('loaded:', sorted(m for m in sys.modules if m.startswith('promote_cli.frameworks.')"
        " or m in ('locale', 'difflib')), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    loaded = ast.literal_eval(proc.stderr.rsplit("loaded: ", 1)[1])
    assert "locale" not in loaded and "difflib" not in loaded
    read = {m.split(".")[2] for m in loaded if m.startswith("promote_cli.frameworks.")}
    assert read == {*entries, "_index"}


@pytest.mark.parametrize(
    ("args", "stdout", "code", "torn_down"),
    [
        (["pair", "int8", "uint8", "-p", "numpy"], "int16\n", 0, False),
        (["op", "+=", "int8", "float32", "-p", "numpy"], "refused: ", 1, False),
        (["pair", "int8", "nope", "-p", "numpy"], "", 2, False),
        (["policies"], "jax", 0, True),  # any other command exits as Python does
        (["--version"], "promote", 0, True),
    ],
)
def test_an_answer_ends_the_process_once_flushed_without_a_shut_down(args, stdout, code, torn_down):
    # The console script's entry point, with an exit handler that says whether Python's own
    # shut-down ran: after pair and op it does not (entry.ANSWER_ONLY), their output whole.
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('SHUT-DOWN', file=sys.stderr))\n"
        f"sys.argv = ['promote', *{args!r}]\n"
        "from promote_cli.entry import main\n"
        "main()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == code, proc.stderr
    assert proc.stdout.startswith(stdout)
    assert ("SHUT-DOWN" in proc.stderr) is torn_down
