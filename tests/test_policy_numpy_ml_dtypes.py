"""The numpy policy's ``ml_dtypes`` option: NumPy as it answers once ml_dtypes is imported.

Expected values are NumPy 2.4 with ml_dtypes 0.6 (measured in /work/research/nary10/ml_dtypes.md
and by ``promote verify numpy``): ``np.result_type`` refuses many pairs that real ``a + b``
answers, and ``a + b`` depends on the order of its operands.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from promote_cli import frameworks
from promote_cli.frameworks.numpy import _ml_measured as _numpy_ml
from promote_cli.operands import Operand

ML = ("-p", "numpy", "-O", "ml_dtypes=true")


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        # np.promote_types(bfloat16, float32) is float32: float32 holds every bfloat16.
        (["bfloat16", "float32"], "float32\n"),
        # uint8 casts safely to every ml_dtypes float, int8 too.
        (["uint8", "float8_e4m3fn"], "float8_e4m3fn\n"),
        (["float16", "float8_e5m2"], "float32\n"),
        # np.result_type(bfloat16, 1.0) is NumPy's default float ...
        (["bfloat16", "float"], "float64\n"),
        # ... while bf16_array + 1.0 is float32, the loop search's answer.
        (["bfloat16", "float", "--chain"], "float32\n"),
        # result_type refuses bfloat16 x float16; a + b finds the float32 loop.
        (["float16", "bfloat16", "--chain"], "float32\n"),
        # a + b depends on the order: the first operand's loop is tried first.
        (["float8_e3m4", "int4", "--chain"], "float8_e3m4\n"),
        (["int4", "float8_e3m4", "--chain"], "int4\n"),
        # A Python int never keeps int4: the loop is int8.
        (["int4", "int", "--chain"], "int8\n"),
        # np.result_type(1, np.float64, int1): float64 leads and int1 is no obstacle ...
        (["int", "float64", "int1"], "float64\n"),
    ],
)
def test_numpy_with_ml_dtypes_answers_as_numpy_does(run, args, stdout):
    result = run("pair", *args, *ML)
    assert (result.exit_code, result.stdout) == (0, stdout)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        # np.promote_types(bfloat16, float16) raises DTypePromotionError even with ml_dtypes.
        (["bfloat16", "float16"], "DTypePromotionError: The DType bfloat16 could not be promoted"),
        (["uint8", "int4"], "could not be promoted"),
        # ... but np.result_type(int1, np.float64, 1) raises: int1 meets float64 last.
        (["int1", "float64", "int"], "no common DType"),
        (["int4", "int:300", "--chain"], "Python integer 300 out of bounds for int8"),
        (["bfloat16", "int:9223372036854775808", "--chain"], "expected number, got int"),
    ],
)
def test_numpy_with_ml_dtypes_refuses_with_numpys_reason(run, args, reason):
    result = run("pair", *args, *ML)
    assert result.exit_code == 1
    assert result.stdout.startswith("refused: ") and reason in result.stdout


def test_without_the_option_numpy_has_no_ml_dtypes_types(run):
    result = run("pair", "bfloat16", "float32", "-p", "numpy")
    assert result.exit_code == 1
    assert result.stdout == "refused: NumPy has no bfloat16 type unless -O ml_dtypes=true\n"


def test_the_option_adds_the_19_ml_dtypes_types_to_the_operands():
    numpy = frameworks.get("numpy")
    plain, with_ml = numpy.operands(), numpy.operands({"ml_dtypes": True})
    assert len(plain) == 20 and len(with_ml) == 39
    assert Operand("bfloat16") in with_ml and Operand("int4") in with_ml
    assert Operand("bfloat16") not in plain


@pytest.mark.skipif(
    not (importlib.util.find_spec("numpy") and importlib.util.find_spec("ml_dtypes")),
    reason="numpy and ml_dtypes measure the table",
)
def test_the_measured_table_is_what_the_installed_numpy_and_ml_dtypes_answer():
    from promote_cli.frameworks.numpy import ml_gen as numpy_ml_gen

    checked_in = Path(_numpy_ml.__file__).read_text(encoding="utf-8")
    assert numpy_ml_gen.render() == checked_in, (
        "promote_cli/policies/_numpy_ml.py is stale (or measured with other versions):"
        " python -m promote_cli.frameworks.numpy.ml_gen > promote_cli/policies/_numpy_ml.py"
    )
