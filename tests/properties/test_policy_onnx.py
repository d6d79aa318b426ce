"""The onnx policy: each operator's type constraints at opset 28 (``constraints.json``, read
from onnx 1.23.2's schemas), where nothing promotes. Expected values are onnx's schemas and
onnxruntime 1.32.0's CPU provider as measured (every cell against onnxruntime itself is
``promote verify``'s conformance test; every measured cell against the rules is
``test_measured.py``'s)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from promote_cli import frameworks
from promote_cli.frameworks.onnx.constraints import FILE, OPSET, data
from promote_cli.operands import Operand
from promote_cli.vocabulary import FUNCTIONS, OPERATOR_FORMS
from promote_cli.walk import answer


def rules():
    return frameworks.operations(frameworks.get("onnx"))


def op(name: str, *operands: str):
    return answer(rules(), name, [Operand.of(x) for x in operands], {})[0]


def test_a_pair_of_two_types_is_refused_naming_adds_constraint(run):
    got = run("pair", "float16", "float32", "-p", "onnx")
    assert got.exit_code == 1
    assert "Add-14 binds A and B to one type T: float16 and float32 differ" in got.output


def test_a_pair_of_one_type_is_that_type_only_where_adds_constraint_allows_it(run):
    assert run("pair", "int8", "int8", "-p", "onnx").output.strip() == "int8"
    assert run("pair", "S(bfloat16)", "bfloat16", "-p", "onnx").output.strip() == "bfloat16"
    got = run("pair", "bool", "bool", "-p", "onnx")  # Add's T has no bool
    assert got.exit_code == 1
    assert "input A is T, which opset 28 does not allow to be bool" in got.output


def test_onnx_has_no_python_scalars(run):
    got = run("pair", "int8", "int", "-p", "onnx")
    assert got.exit_code == 1
    assert "ONNX has no Python scalar operands" in got.output


@pytest.mark.parametrize(
    ("name", "onnx"),
    [
        ("add", "Add"),
        ("divide", "Div"),
        ("remainder", "Mod"),
        ("pow", "Pow"),
        ("maximum", "Max"),
        ("equal", "Equal"),
        ("logical_and", "And"),
        ("bitwise_left_shift", "BitShift"),
        ("negative", "Neg"),
        ("isnan", "IsNaN"),
        ("sum", "ReduceSum"),
        ("argmax", "ArgMax"),
        ("cumulative_sum", "CumSum"),
        ("where", "Where"),
        ("matmul", "MatMul"),
        ("round", "Round"),
    ],
)
def test_each_array_api_name_is_its_onnx_operator(name, onnx):
    assert rules().rule(name, {}).function == onnx


def test_names_onnx_has_no_single_operator_for_are_absent_saying_why():
    absent = {n for n in FUNCTIONS if rules().rule(n, {}).function is None}
    assert absent == {"floor_divide", "atan2", "square", "real", "imag"}
    assert "no complex arithmetic" in op("real", "float32").why
    assert all(rules().rule(n, {}).function is None for n in OPERATOR_FORMS)  # no array type


@pytest.mark.parametrize(
    ("name", "operands", "want"),
    [
        ("divide", ("int8", "int8"), "int8"),  # Div keeps T: integer division, no float
        ("equal", ("int8", "int8"), "bool"),  # Equal's output is T1, bool
        ("equal", ("string", "string"), "bool"),  # Equal-19's T has strings
        ("isnan", ("float8_e4m3fn",), "bool"),  # IsNaN's T1 has the float8 types
        ("argmax", ("float16",), "int64"),  # ArgMax's output is tensor(int64)
        ("sum", ("int32",), "int32"),  # ReduceSum has no accumulator
        ("pow", ("int32", "float16"), "int32"),  # Pow's exponent is T1, apart from T
        ("logical_not", ("bool",), "bool"),
        ("where", ("string", "string"), "string"),
    ],
)
def test_an_operation_answers_its_output_constraints_type(name, operands, want):
    assert op(name, *operands).result == want


@pytest.mark.parametrize(
    ("name", "operands", "says"),
    [
        ("add", ("int8", "uint8"), "Add-14 binds A and B to one type T"),
        ("maximum", ("int8", "int16"), "Max-13 binds data_0 and data_0 to one type T"),
        ("sqrt", ("int8",), "Sqrt-13's input X is T, which opset 28 does not allow"),
        ("pow", ("int8", "int8"), "Pow-15's input X is T"),  # T has no int8; T1 does
        ("bitwise_left_shift", ("float32", "float32"), "BitShift-28's input X is T"),
        ("logical_and", ("int8", "int8"), "And-7's input A is T"),  # bool only
    ],
)
def test_a_type_outside_a_constraint_or_two_types_bound_to_one_is_refused(name, operands, says):
    out = op(name, *operands)
    assert out.refused and out.rule == "constraint" and says in out.why


def test_a_type_the_schema_allows_without_an_ort_cpu_kernel_is_a_gap_not_a_refusal():
    out = op("add", "bfloat16", "bfloat16")
    assert (out.result, out.rule) == ("bfloat16", "no-kernel")
    out = op("where", "complex64", "complex64")
    assert (out.result, out.rule) == ("complex64", "no-kernel")


def test_matmul_argmax_and_cumsum_refuse_a_0d_tensor():
    for name in ("argmax", "cumulative_sum"):
        assert op(name, "S(float32)").refused and op(name, "float32").result
    assert op("matmul", "S(float32)", "float32").refused


def test_table_of_add_has_only_its_diagonal(run):
    got = run("table", "--policy", "onnx", "--op", "add", "--types", "int8,uint8,float32")
    assert got.exit_code == 0
    rows = [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in got.output.splitlines()
        if line.startswith("│")
    ]
    assert rows == [
        ["", "int8", "uint8", "float32"],
        ["int8", "int8", "×", "×"],
        ["uint8", "×", "uint8", "×"],
        ["float32", "×", "×", "float32"],
    ]


def test_diff_with_torch_on_divide_shows_where_an_exporter_must_insert_a_cast(run):
    got = run("diff", "torch", "onnx", "--op", "divide", "--types", "int8,int32,float32")
    assert got.exit_code == 1  # cells differ
    cells = {
        (words[0], words[2]): (words[4], words[6])
        for words in (line.split() for line in got.output.splitlines())
        if len(words) == 7 and words[1] == "x"
    }
    assert cells[("int8", "int8")] == ("float32", "int8")  # torch divides in float, ONNX Div not
    assert cells[("int8", "float32")] == ("float32", "refused")  # ONNX needs a Cast first
    assert len(cells) == 8 and ("float32", "float32") not in cells
    assert "torch vs onnx, divide: 8 of 9 cells differ (3 types)" in got.output


def test_ops_shows_each_names_onnx_operator_and_the_opset(run):
    got = run("ops", "-p", "onnx")
    assert got.exit_code == 0
    assert f"opset {OPSET}" in got.output
    rows = {line.split()[0]: line.split() for line in got.output.splitlines() if line.strip()}
    assert rows["remainder"][2] == "Mod" and rows["atan2"][2] == "-"


def test_the_constraints_data_say_where_they_come_from():
    raw = json.loads(FILE.read_text(encoding="utf-8"))
    assert raw["generated"] == "python -m promote_cli.frameworks.onnx.schemas_gen"
    assert (raw["onnx"], raw["opset"]) == ("1.23.2", OPSET)
    assert data().operators["add"].constraints["T"][:2] == ("uint8", "uint16")


def test_the_constraints_data_match_the_installed_onnx():
    onnx = pytest.importorskip("onnx")
    if onnx.__version__ != data().onnx:
        pytest.skip(f"onnx {onnx.__version__} is installed; constraints.json is {data().onnx}'s")
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli.frameworks.onnx.schemas_gen", "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.conformance("onnx")
def test_onnxruntime_has_a_cpu_kernel_for_every_operator_of_the_opset_chosen():
    # OPSET is the newest the measured onnxruntime fully supports: a CPU kernel for the
    # version at OPSET of every operator that is not a function (ONNX expands those), but
    # ImageDecoder, missing at every opset since 20, where it appeared. (Constant has no
    # kernel: ONNX Runtime makes its value an initializer.)
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    import live
    from onnxruntime.capi import _pybind_state

    if live.unmeasured(["onnx"]):
        pytest.skip(live.unmeasured(["onnx"]))
    kernels: dict[str, list[tuple[int, int]]] = {}
    for k in _pybind_state.get_all_opkernel_def():
        if k.provider == "CPUExecutionProvider" and k.domain in ("", "ai.onnx"):
            kernels.setdefault(k.op_name, []).append(k.version_range)
    missing = []
    for name in sorted({s.name for s in onnx.defs.get_all_schemas() if s.domain == ""}):
        schema = onnx.defs.get_schema(name, OPSET)
        if schema.deprecated or schema.has_function or schema.has_context_dependent_function:
            continue
        since = schema.since_version
        if name != "Constant" and not any(lo <= since <= hi for lo, hi in kernels.get(name, [])):
            missing.append(f"{name}-{since}")
    assert missing == ["ImageDecoder-20"]
