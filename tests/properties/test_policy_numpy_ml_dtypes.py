"""The numpy policy's ``ml_dtypes`` option: NumPy as it answers once ml_dtypes is imported.

Expected values are NumPy 2.4.6's with ml_dtypes 0.6.0 and 0.7.0, each run for real (``promote
verify numpy`` in an environment with each): ``np.result_type`` refuses many pairs that real
``a + b`` answers, and ``a + b`` depends on the order of its operands; 0.7 changed both.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from promote_cli import frameworks
from promote_cli.operands import Operand

HERE = Path(frameworks.__file__).parents[1] / "shared"  # where NumPy's promotion reads them

ML = ("-p", "numpy", "-O", "ml_dtypes=0.6")
ML7 = ("-p", "numpy", "-O", "ml_dtypes=0.7")


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


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        # np.promote_types(uint8, ml_dtypes.int4) is int16 with 0.7 (refused with 0.6).
        (["uint8", "int4"], "int16\n"),
        (["int2", "uint8"], "int16\n"),
        # A Python float keeps an ml_dtypes float (float64 with 0.6) ...
        (["float8_e4m3fn", "float"], "float8_e4m3fn\n"),
        # ... and a Python int an ml_dtypes int, in result_type and in a + b.
        (["int4", "int"], "int4\n"),
        (["int4", "int", "--chain"], "int4\n"),
        # np.promote_types(bfloat16, float16) is float32 (refused with 0.6).
        (["bfloat16", "float16"], "float32\n"),
        # float16 + complex32 is complex32 (complex64 with 0.6).
        (["float16", "complex32", "--chain"], "complex32\n"),
        # NumPy converts the int for a signed ml_dtypes int to int16 and wraps it: 300 fits.
        (["int4", "int:300", "--chain"], "int4\n"),
        # Any Python int converts to an ml_dtypes float (TypeError with 0.6).
        (["bfloat16", "int:9223372036854775808", "--chain"], "bfloat16\n"),
    ],
)
def test_numpy_with_ml_dtypes_0_7_answers_as_numpy_does(run, args, stdout):
    result = run("pair", *args, *ML7)
    assert (result.exit_code, result.stdout) == (0, stdout)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["uint4", "int:300", "--chain"], "Python integer 300 out of bounds for uint8"),
        (["int4", "int:2147483648", "--chain"], "integer 2147483648 out of bounds for int16"),
        # Three operands with an ml_dtypes 0.7 type: declined, not guessed.
        (["int4", "float16", "int"], "not modelled: np.result_type of three or more operands"),
    ],
)
def test_numpy_with_ml_dtypes_0_7_refuses_only_a_value_or_declines(run, args, reason):
    # With 0.7 np.result_type answers every pair (0.6 refused 354 of the 1,121 measured).
    result = run("pair", *args, *ML7)
    assert result.exit_code == 1
    assert result.stdout.startswith("refused: ") and reason in result.stdout


@pytest.mark.parametrize(
    ("value", "release"),
    [("true", "0.7"), ("0.7.0", "0.7"), ("0.6", "0.6"), ("yes", "0.7"), ("0.5.1", "0.5")],
)
def test_the_option_names_a_measured_release_and_true_is_the_newest(run, value, release):
    result = run("pair", "uint8", "int4", "-p", "numpy", "-O", f"ml_dtypes={value}", "--explain")
    assert f"ml_dtypes={release}" in result.output


def test_an_ml_dtypes_release_not_measured_is_one_line_naming_the_measured_ones(run):
    result = run("pair", "uint8", "int4", "-p", "numpy", "-O", "ml_dtypes=0.4")
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        "promote: error: option ml_dtypes takes false, true (the newest measured, 0.7) or a"
        " measured ml_dtypes release (0.5, 0.6, 0.7), not '0.4'"
    )


def test_without_the_option_numpy_has_no_ml_dtypes_types(run):
    result = run("pair", "bfloat16", "float32", "-p", "numpy")
    assert result.exit_code == 1
    assert result.stdout == "refused: NumPy has no bfloat16 type unless -O ml_dtypes=true\n"


def test_the_option_adds_the_19_ml_dtypes_types_to_the_operands():
    numpy = frameworks.get("numpy")
    plain, with_ml = numpy.operands(), numpy.operands({"ml_dtypes": "0.7"})
    assert len(plain) == 20 and len(with_ml) == 39
    assert Operand("bfloat16") in with_ml and Operand("int4") in with_ml
    assert Operand("bfloat16") not in plain


@pytest.mark.skipif(
    not (importlib.util.find_spec("numpy") and importlib.util.find_spec("ml_dtypes")),
    reason="numpy and ml_dtypes answer the tables",
)
def test_the_ml_dtypes_tables_are_what_the_numpy_they_were_taken_from_answers():
    import ml_dtypes
    import numpy as np

    from promote_cli.frameworks.numpy import ml_gen

    if not ml_gen.FILE.exists():
        pytest.skip(f"ml_dtypes {ml_dtypes.__version__} is not a measured release")
    checked_in = ml_gen.FILE.read_text(encoding="utf-8")
    taken = json.loads(checked_in)
    if (taken["numpy"], taken["ml_dtypes"]) != (np.__version__, ml_dtypes.__version__):
        pytest.skip(
            f"the tables were taken from NumPy {taken['numpy']} with ml_dtypes"
            f" {taken['ml_dtypes']}; installed: NumPy {np.__version__}, ml_dtypes"
            f" {ml_dtypes.__version__}"
        )
    assert ml_gen.render() == checked_in, (
        f"{ml_gen.FILE.name} is not what this NumPy answers:"
        " python -m promote_cli.frameworks.numpy.ml_gen"
    )


def test_each_measured_release_has_its_tables_and_type_numbers():
    from promote_cli.frameworks.numpy import ML_RELEASES

    for release in ML_RELEASES:
        data = json.loads((HERE / f"ml_dtypes-{release}.json").read_text(encoding="utf-8"))
        assert data["ml_dtypes"].startswith(release + ".")
        # each release registers its types in its own order: bfloat16 first in both
        assert data["numbers"]["bfloat16"] == 256
    numbers = {
        r: json.loads((HERE / f"ml_dtypes-{r}.json").read_text(encoding="utf-8"))["numbers"]
        for r in ML_RELEASES
    }
    assert [numbers[r]["int4"] for r in ("0.5", "0.6", "0.7")] == [270, 272, 273]
    # 0.6 added int1, uint1 and complex32
    assert len(numbers["0.5"]) == 16 and len(numbers["0.6"]) == len(numbers["0.7"]) == 19


def test_ml_dtypes_0_5_lacks_the_types_0_6_added(run):
    result = run("pair", "int1", "int8", "-p", "numpy", "-O", "ml_dtypes=0.5")
    assert (result.exit_code, result.stdout) == (1, "refused: ml_dtypes 0.5.4 has no int1 type\n")
    # its pairs are 0.6's where both have the types: np.promote_types(uint8, int4) raises
    result = run("pair", "uint8", "int4", "-p", "numpy", "-O", "ml_dtypes=0.5")
    assert result.exit_code == 1 and "could not be promoted by int4" in result.stdout
