"""The torch policy's ``release`` option: torch 2.14's bcomplex32 and 2.15's maximum/minimum of
uint16/32/64, as measured on torch 2.14.1 and 2.15.0 (CPU; ``measured/release-2.14`` and
``release-2.15``, compared cell for cell offline by test_measured). Every expected value here is
a measured cell."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from promote_cli import PromotionError, api, frameworks, promote, promote_many
from promote_cli.frameworks.torch import RELEASES
from promote_cli.options import release_of
from promote_cli.rules import NO_KERNEL

NEWER = ("2.14", "2.15")
# this checkout, whatever the working directory a test runs in
ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def op(name: str, *operands: str, release: str) -> tuple[str | None, str]:
    """``promote op``'s answer under ``-O release=``: (the dtype or None, the rule)."""
    out = api.request("torch", options={"release": release}, operands=operands, op=name).outcome()
    return out.result, out.rule


def test_the_release_option_defaults_to_the_pinned_2_13_and_reads_versions():
    (option,) = frameworks.get("torch").options
    assert (option.name, option.kind, option.default, option.package) == (
        "release",
        "release",
        "2.13",
        "torch",
    )
    assert option.choices == RELEASES == ("2.13", "2.14", "2.15")
    assert option.parse("2.15.0", None) == "2.15"
    assert option.parse("true", None) == "2.15"  # the newest measured
    # the version string torch reports, local build tag and all
    assert release_of("2.15.0+cu132", RELEASES) == "2.15"


@pytest.mark.parametrize("value", ["false", "2.12", "2.16", "2.15.x"])
def test_a_release_never_measured_or_off_is_a_usage_error(run, value):
    result = run("pair", "int8", "int8", "-p", "torch", "-O", f"release={value}")
    assert result.exit_code == 2
    assert "option release takes true (the newest measured, 2.15)" in result.output


def test_maximum_of_uint16_has_a_kernel_from_2_15_on():
    # 2.15 gained maximum_cpu/minimum_cpu for uint16/32/64; 2.13 and 2.14 raise
    # "maximum_cpu" not implemented for 'UInt16'
    for name in ("maximum", "minimum"):
        for t in ("uint16", "uint32", "uint64"):
            assert op(name, t, t, release="2.15") == (t, "same")
            for release in ("2.13", "2.14"):
                assert op(name, t, t, release=release) == (t, NO_KERNEL)
    assert op("maximum", "uint16", "S(int8)", release="2.15")[0] == "uint16"
    assert op("maximum", "float8_e5m2", "float8_e5m2", release="2.15")[1] == NO_KERNEL


def test_maximum_cli_answers_uint16_under_2_15_and_a_gap_under_2_13(run):
    newer = run("op", "maximum", "uint16", "uint16", "-p", "torch", "-O", "release=2.15")
    assert (newer.exit_code, newer.output.strip()) == (0, "uint16")
    pinned = run("op", "maximum", "uint16", "uint16", "-p", "torch")
    assert pinned.output.strip() == "uint16 (no CPU kernel: the call raises on the CPU)"


@pytest.mark.parametrize(
    ("operands", "before", "after"),
    [
        # a bfloat16 operand of the higher category, a complex of a lower one: toComplexType
        (["bfloat16", "complex"], "complex64", "bcomplex32"),
        (["S(bfloat16)", "complex"], "complex64", "bcomplex32"),
        (["bfloat16", "S(complex128)"], "complex64", "bcomplex32"),
        (["bfloat16", "S(complex32)"], "complex64", "bcomplex32"),
        # two dimensioned tensors: c10's table, which 2.14 left alone
        (["bfloat16", "complex64"], "complex64", "complex64"),
        (["bfloat16", "complex32"], "complex64", "complex64"),
        # float16 keeps its complex32
        (["float16", "complex"], "complex32", "complex32"),
    ],
)
def test_bfloat16_with_a_weaker_complex_is_bcomplex32_from_2_14_on(operands, before, after):
    assert promote_many(operands, policy="torch") == before
    for release in NEWER:
        assert promote_many(operands, policy="torch", release=release) == after


@pytest.mark.parametrize(
    ("other", "want"),
    [
        ("bool", "bcomplex32"),
        ("uint8", "bcomplex32"),
        ("int64", "bcomplex32"),
        ("bfloat16", "bcomplex32"),
        ("bcomplex32", "bcomplex32"),
        ("float16", "complex64"),  # float16's exponent does not fit bfloat16's, nor the reverse
        ("float32", "complex64"),
        ("complex32", "complex64"),
        ("complex64", "complex64"),
        ("float64", "complex128"),
        ("complex128", "complex128"),
        ("uint16", None),  # "Promotion for uint16, uint32, uint64 types is not supported"
        ("float8_e4m3fn", None),  # "Promotion for Float8 Types is not supported"
        ("int4", None),  # "ix_b != -1 INTERNAL ASSERT FAILED"
    ],
)
def test_bcomplex32s_row_of_promote_types(other, want):
    for release in NEWER:
        if want is None:
            with pytest.raises(PromotionError):
                promote("bcomplex32", other, policy="torch", release=release)
        else:
            assert promote("bcomplex32", other, policy="torch", release=release) == want
            assert promote(other, "bcomplex32", policy="torch", release=release) == want


def test_bcomplex32_is_no_type_of_torch_2_13(run):
    with pytest.raises(PromotionError, match=r"PyTorch has bcomplex32 only from 2\.14 on"):
        promote("bcomplex32", "bfloat16", policy="torch")
    result = run("pair", "bcomplex32", "bfloat16", "-p", "torch")
    assert result.exit_code == 1
    assert "-O release=2.14" in result.output
    universe = frameworks.get("torch").universe_for
    assert "bcomplex32" not in universe({"release": "2.13"})
    assert "bcomplex32" in universe({"release": "2.14"})


@pytest.mark.parametrize(
    ("name", "operands", "want"),
    [
        # "add_stub" not implemented for 'BComplex32': no arithmetic kernel
        ("add", ("bcomplex32", "bcomplex32"), ("bcomplex32", NO_KERNEL)),
        ("add", ("bfloat16", "complex"), ("bcomplex32", NO_KERNEL)),
        ("multiply", ("bcomplex32", "bcomplex32"), ("bcomplex32", NO_KERNEL)),
        ("multiply", ("bfloat16", "S(complex64)"), ("bcomplex32", NO_KERNEL)),
        ("sum", ("bcomplex32",), ("bcomplex32", NO_KERNEL)),
        ("logical_and", ("bcomplex32", "bcomplex32"), ("bool", NO_KERNEL)),
        ("abs", ("bcomplex32",), ("bfloat16", NO_KERNEL)),
        ("cumulative_sum", ("bcomplex32",), ("bcomplex32", NO_KERNEL)),
        ("cumulative_sum", ("S(bcomplex32)",), ("bcomplex32", "accumulate")),  # a 0-d one is copied
        # with another type to compute in, the kernel is that type's
        ("add", ("bcomplex32", "float32"), ("complex64", "same")),
        # what runs
        ("equal", ("bcomplex32", "bcomplex32"), ("bool", "always-bool")),
        ("where", ("bfloat16", "complex"), ("bcomplex32", "same")),
        ("real", ("bcomplex32",), ("bfloat16", "complex-to-float")),
        ("isnan", ("bcomplex32",), ("bool", "always-bool")),
        # pow returns early: an exponent of 1 copies (runs), a base of 1 or an exponent of 0
        # fills a dimensioned result, and bcomplex32 has no fill kernel ("fill_cpu")
        ("pow", ("bcomplex32", "bool:true"), ("bcomplex32", "same")),
        ("pow", ("bcomplex32", "bool:false"), ("bcomplex32", NO_KERNEL)),
        ("pow", ("int", "bcomplex32"), ("bcomplex32", NO_KERNEL)),
        ("pow", ("int", "S(bcomplex32)"), ("bcomplex32", "same")),
        # the functions that refuse complex refuse it
        ("maximum", ("bcomplex32", "bcomplex32"), (None, "op-refuses")),
        ("floor", ("bcomplex32",), (None, "op-refuses")),
    ],
)
def test_bcomplex32s_operations_as_measured_on_2_14_and_2_15(name, operands, want):
    for release in NEWER:
        assert op(name, *operands, release=release) == want


def test_the_pinned_release_still_answers_2_13s_operations():
    # under 2.13 bfloat16 with a Python complex is complex64, and add has its kernel
    assert op("add", "bfloat16", "complex", release="2.13") == ("complex64", "same")
    assert op("pow", "float16", "bool:false", release="2.13") == ("float16", "same")


def test_the_release_option_through_a_real_subprocess():
    pair = ["pair", "bfloat16", "complex", "-p", "torch", "-O", "release=2.14"]
    found = subprocess.run(
        [sys.executable, "-m", "promote_cli", *pair],
        capture_output=True,
        text=True,
        check=False,
        env=ENV,
    )
    assert (found.returncode, found.stdout.strip()) == (0, "bcomplex32")


def test_pair_and_op_paths_import_no_torch_for_a_release():
    code = (
        "import sys; from promote_cli import api;"
        " api.promote('uint16', 'uint16', policy='torch', op='maximum', release='2.15');"
        " api.promote('bfloat16', 'complex', policy='torch', release='2.14');"
        " print(sorted(m for m in ('torch', 'numpy') if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=ENV
    )
    assert found.stdout.strip() == "[]"
