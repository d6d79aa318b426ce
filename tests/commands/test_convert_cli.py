"""``promote convert``: the command's behaviour through CliRunner, and once as a real process.

Expected dtypes come from the seed documents (OpenVINO's spec examples, Ascend's table, JAX's
table) and expected values from NumPy itself (``np.load(A).astype(result)``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from numpy.lib import format as npformat

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run(run):
    """conftest's CliRunner fixture, taking paths as well as strings."""
    return lambda *args: run(*(str(a) for a in args))


def save(path: Path, array) -> Path:
    np.save(path, array)
    return path


def snapshot(*paths: Path) -> dict:
    return {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in paths}


def files(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


def descr_of(path: Path) -> str:
    """The descr a file's header writes, read with numpy's own header reader."""
    with open(path, "rb") as f:
        npformat.read_magic(f)
        length = int.from_bytes(f.read(2), "little")
        return eval(f.read(length).decode("latin1"), {})["descr"]  # a test's own file


# --- the plain path --------------------------------------------------------------------------


def test_jax_f16_f32_writes_both_as_f32_beside_the_inputs(run, tmp_path):
    a = save(tmp_path / "a.npy", np.linspace(-3, 3, 24, dtype=np.float16).reshape(4, 6))
    b = save(tmp_path / "b.npy", np.arange(5, dtype=np.float32))
    before = snapshot(a, b)
    result = run("convert", a, b, "--policy", "jax")
    assert result.exit_code == 0, result.output
    # JAX's table: f2 x f4 -> f4
    out_a, out_b = tmp_path / "a.promoted.npy", tmp_path / "b.promoted.npy"
    assert np.load(out_a).dtype == np.float32
    assert np.load(out_a).tobytes() == np.load(a).astype(np.float32).tobytes()
    assert np.load(out_b).tobytes() == np.load(b).tobytes()
    assert snapshot(a, b) == before
    lines = result.stdout.splitlines()
    assert lines[0] == "jax: result f4 (float32)"
    assert "convert" in lines[2] and "a.promoted.npy" in lines[2]
    assert "copy" in lines[3]
    assert not [n for n in files(tmp_path) if n.endswith(".promote-tmp")]


def test_outputs_go_under_out_dir_or_to_the_named_files(run, tmp_path):
    a = save(tmp_path / "a.npy", np.arange(3, dtype=np.int8))
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.uint8))
    (tmp_path / "out").mkdir()
    assert run("convert", a, b, "-o", tmp_path / "out").exit_code == 0
    assert files(tmp_path / "out") == {"a.npy", "b.npy"}
    # JAX: i1 x u1 -> i2
    assert np.load(tmp_path / "out" / "a.npy").dtype == np.int16
    r = run("convert", a, b, "--out-a", tmp_path / "x.npy", "--out-b", tmp_path / "y.npy")
    assert r.exit_code == 0
    assert np.array_equal(np.load(tmp_path / "y.npy"), np.arange(3, dtype=np.int16))


def test_skip_unchanged_writes_nothing_for_an_input_of_the_result_type(run, tmp_path):
    a = save(tmp_path / "a.npy", np.arange(3, dtype=np.float16))
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    result = run("convert", a, b, "--skip-unchanged")
    assert result.exit_code == 0
    assert files(tmp_path) == {"a.npy", "b.npy", "a.promoted.npy"}
    assert "skip" in result.stdout


def test_dry_run_writes_nothing(run, tmp_path):
    a = save(tmp_path / "a.npy", np.zeros((2, 3), np.float16))
    b = save(tmp_path / "b.npy", np.zeros(4, np.float64))
    result = run("convert", a, b, "--dry-run")
    assert result.exit_code == 0
    assert files(tmp_path) == {"a.npy", "b.npy"}
    assert "dry run" in result.stdout
    assert "2x3" in result.stdout and "12 B" in result.stdout and "48 B" in result.stdout


def test_json_report_gives_result_actions_and_shapes(run, tmp_path):
    a = save(tmp_path / "a.npy", np.asfortranarray(np.zeros((2, 3), np.int32)))
    b = save(tmp_path / "b.npy", np.array(1.5, np.float32))
    report = json.loads(run("convert", a, b, "--json", "--dry-run").stdout)
    assert report["result"] == "float32"  # JAX's table: i4 x f4 -> f4
    assert [f["action"] for f in report["files"]] == ["convert", "copy"]
    assert report["files"][0]["shape"] == [2, 3] and report["files"][0]["fortran_order"]
    assert report["files"][1]["shape"] == []
    assert report["written"] is False


def test_refusal_exits_1_and_writes_nothing(run, tmp_path):
    # OpenVINO spec: ConvertPromoteTypes(f16, i64) -> f16 raises unless promote_unsafe
    a = save(tmp_path / "a.npy", np.zeros(3, np.float16))
    b = save(tmp_path / "b.npy", np.zeros(3, np.int64))
    result = run("convert", a, b, "--policy", "openvino")
    assert result.exit_code == 1
    assert result.stderr.startswith("promote: refused: ")
    assert len(result.stderr.splitlines()) == 1
    assert files(tmp_path) == {"a.npy", "b.npy"}
    ok = run("convert", a, b, "--policy", "openvino", "-O", "promote_unsafe=true")
    assert ok.exit_code == 0
    assert np.load(tmp_path / "b.promoted.npy").dtype == np.float16


def test_a_refusal_in_json_exits_1_and_names_no_result(run, tmp_path):
    a = save(tmp_path / "a.npy", np.zeros(3, np.float16))
    b = save(tmp_path / "b.npy", np.zeros(3, np.int64))
    result = run("convert", a, b, "--policy", "openvino", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (
        report["result"] is None
        and report["refused"]
        and report["reason"]
        and report["written"] is False
    )


def test_zero_d_array_is_a_scalar_operand(run, tmp_path):
    # OpenVINO spec: ConvertPromoteTypes(S(i64), D(u8)) -> u8 with pytorch_scalar_promotion,
    # (unsafe: it narrows i64), while i64 x u8 -> i64 by the general rules.
    s = save(tmp_path / "s.npy", np.array(7, np.int64))
    d = save(tmp_path / "d.npy", np.arange(4, dtype=np.uint8))
    flags = ["--policy", "openvino", "-O", "promote_unsafe=true", "--dry-run", "--json"]
    scalar = json.loads(run("convert", s, d, *flags, "-O", "pytorch_scalar_promotion=true").stdout)
    assert scalar["result"] == "uint8"
    general = json.loads(run("convert", s, d, *flags).stdout)
    assert general["result"] == "int64"
    one_d = save(tmp_path / "one.npy", np.array([7], np.int64))
    dims = json.loads(
        run("convert", one_d, d, *flags, "-O", "pytorch_scalar_promotion=true").stdout
    )
    assert dims["result"] == "int64"


# --- ml_dtypes -------------------------------------------------------------------------------


def test_void_input_needs_a_dtype(run, tmp_path):
    bf = save(tmp_path / "bf.npy", np.arange(4).astype(ml_dtypes.bfloat16))
    f = save(tmp_path / "f.npy", np.arange(4, dtype=np.float16))
    missing = run("convert", f, bf)
    assert missing.exit_code == 2
    assert "bf.npy" in missing.stderr and "--dtype-b" in missing.stderr
    wrong_width = run("convert", f, bf, "--dtype-b", "float8_e4m3fn")
    assert wrong_width.exit_code == 2 and "1 byte wide" in wrong_width.stderr
    assert files(tmp_path) == {"bf.npy", "f.npy"}


@pytest.mark.parametrize("spelling", [["{bf}:bf"], ["{bf}", "--dtype-b", "bf"]])
def test_bfloat16_input_and_named_descr_output(run, tmp_path, spelling):
    bf = save(tmp_path / "bf.npy", np.arange(4).astype(ml_dtypes.bfloat16))
    f = save(tmp_path / "f.npy", np.arange(4, dtype=np.float16))
    args = [s.format(bf=bf) for s in spelling]
    # JAX's table: bf x f2 -> f4
    result = run("convert", f, *args, "--policy", "jax")
    assert result.exit_code == 0, result.stderr
    assert np.load(tmp_path / "bf.promoted.npy").dtype == np.float32
    expected = np.load(bf).view(ml_dtypes.bfloat16).astype(np.float32)
    assert np.load(tmp_path / "bf.promoted.npy").tobytes() == expected.tobytes()


def test_ml_dtypes_output_header_name_or_void(run, tmp_path):
    # Ascend's table: bf16 x c32 -> c32 (complex32, two float16 halves)
    bf = save(tmp_path / "bf.npy", np.array([1.5, -2], ml_dtypes.bfloat16))
    c = save(tmp_path / "c.npy", np.array([1 + 2j, 3], ml_dtypes.complex32))
    assert (
        run(
            "convert", bf, c, "--policy", "ascend", "--dtype-a", "bf16", "--dtype-b", "c32"
        ).exit_code
        == 0
    )
    out = tmp_path / "bf.promoted.npy"
    assert descr_of(out) == "complex32"
    loaded = np.load(out)
    assert loaded.dtype == np.dtype(ml_dtypes.complex32)
    assert (
        loaded.tobytes()
        == np.array([1.5, -2], ml_dtypes.bfloat16).astype(ml_dtypes.complex32).tobytes()
    )
    r = run(
        "convert",
        bf,
        c,
        "--policy",
        "ascend",
        "--dtype-a",
        "bf16",
        "--dtype-b",
        "c32",
        "--void-header",
        "--force",
    )
    assert r.exit_code == 0
    assert descr_of(out) == "|V4"
    assert np.load(out).view(ml_dtypes.complex32).tobytes() == loaded.tobytes()


def test_float8_e5m2_input_and_openvino_f8_rule(run, tmp_path):
    # OpenVINO spec: ConvertPromoteTypes(f8e4m3, f8e5m2) -> f16 (unsafe: bit widening)
    e4 = save(tmp_path / "e4.npy", np.array([1, 2.5], ml_dtypes.float8_e4m3fn))
    e5 = save(tmp_path / "e5.npy", np.array([0.5, -3], ml_dtypes.float8_e5m2))
    result = run(
        "convert",
        f"{e4}:f8e4m3",
        f"{e5}:f8e5m2",
        "--policy",
        "openvino",
        "-O",
        "promote_unsafe=true",
    )
    assert result.exit_code == 0, result.stderr
    out = np.load(tmp_path / "e5.promoted.npy")
    assert out.dtype == np.float16 and out.tolist() == [0.5, -3.0]


def test_uint1_written_and_unregistered_cast_refused(run, tmp_path):
    u1 = save(tmp_path / "u1.npy", np.array([0, 1, 1], ml_dtypes.uint1))
    v1 = save(tmp_path / "v1.npy", np.array([1, 0], ml_dtypes.uint1))
    # u1 x u1 -> u1: a plain copy, now with a header np.load understands
    ok = run("convert", f"{u1}:u1", f"{v1}:u1", "--policy", "openvino")
    assert ok.exit_code == 0, ok.stderr
    assert np.load(tmp_path / "u1.promoted.npy").tolist() == [0, 1, 1]
    # OpenVINO gives u1 x i4 -> i4 (unsafe); ml_dtypes 0.6.0 has no uint1 -> int4 cast, 0.7.0
    # has: convert refuses exactly when astype raises.
    i4 = save(tmp_path / "i4.npy", np.array([-3, 2], ml_dtypes.int4))
    (tmp_path / "out").mkdir()
    done = run(
        "convert",
        f"{u1}:u1",
        f"{i4}:i4",
        "--policy",
        "openvino",
        "-O",
        "promote_unsafe=true",
        "-o",
        tmp_path / "out",
    )
    try:
        expected = np.array([0, 1, 1], ml_dtypes.uint1).astype(ml_dtypes.int4)
    except TypeError:
        assert done.exit_code == 1
        assert "cannot cast uint1 to int4" in done.stderr
        assert files(tmp_path / "out") == set()
    else:
        assert done.exit_code == 0, done.stderr
        assert np.load(tmp_path / "out" / "u1.npy").tobytes() == expected.tobytes()


def test_explicit_dtype_that_no_npy_can_hold(run, tmp_path):
    v = save(tmp_path / "v.npy", np.zeros(2, ml_dtypes.uint4))
    f = save(tmp_path / "f.npy", np.zeros(2, np.float32))
    result = run("convert", f"{v}:u3", f, "--policy", "openvino")
    assert result.exit_code == 2
    assert "uint3" in result.stderr and "no NumPy" in result.stderr


# --- layout ----------------------------------------------------------------------------------


def test_fortran_order_big_endian_empty_and_0d(run, tmp_path):
    f = save(tmp_path / "f.npy", np.asfortranarray(np.arange(12, dtype=">i4").reshape(3, 4)))
    e = save(tmp_path / "e.npy", np.zeros((0, 5), np.float16))
    assert run("convert", f, e, "--policy", "numpy").exit_code == 0
    out = np.load(tmp_path / "f.promoted.npy")
    assert out.dtype == np.promote_types(np.int32, np.float16) == np.dtype("=f8")
    assert np.isfortran(out)
    assert out.tobytes(order="A") == np.load(f).astype(np.float64).tobytes(order="A")
    empty = np.load(tmp_path / "e.promoted.npy")
    assert empty.shape == (0, 5) and empty.dtype == np.float64
    z = save(tmp_path / "z.npy", np.array(-2, ">i2"))
    assert run("convert", z, e, "--policy", "numpy", "--force").exit_code == 0
    zero_d = np.load(tmp_path / "z.promoted.npy")
    assert zero_d.shape == () and zero_d == -2.0


# --- safety ----------------------------------------------------------------------------------


def test_an_output_that_is_an_input_is_refused_through_links_too(run, tmp_path):
    a = save(tmp_path / "a.npy", np.arange(3, dtype=np.float16))
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    before = snapshot(a, b)
    (tmp_path / "link.npy").symlink_to(a)
    os.link(b, tmp_path / "hard.npy")
    for out_a in (a, tmp_path / "link.npy", tmp_path / "hard.npy", b):
        result = run("convert", a, b, "--out-a", out_a, "--force")
        assert result.exit_code == 2, out_a
        assert "is the input" in result.stderr
    assert run("convert", a, b, "-o", tmp_path, "--force").exit_code == 2
    assert snapshot(a, b) == before


def test_two_outputs_to_one_file_are_refused(run, tmp_path):
    a = save(tmp_path / "a.npy", np.arange(3, dtype=np.float16))
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    same = run("convert", a, b, "--out-a", tmp_path / "o.npy", "--out-b", tmp_path / "o.npy")
    assert same.exit_code == 2 and "both outputs" in same.stderr
    twice = run("convert", a, a)  # the same input twice: one default output
    assert twice.exit_code == 2 and "both outputs" in twice.stderr
    assert files(tmp_path) == {"a.npy", "b.npy"}


def test_existing_output_needs_force(run, tmp_path):
    a = save(tmp_path / "a.npy", np.arange(3, dtype=np.float16))
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    existing = tmp_path / "b.promoted.npy"
    existing.write_bytes(b"precious")
    result = run("convert", a, b)
    assert result.exit_code == 2 and "--force" in result.stderr
    assert existing.read_bytes() == b"precious"
    assert not (tmp_path / "a.promoted.npy").exists()
    assert run("convert", a, b, "--force").exit_code == 0
    assert np.load(existing).dtype == np.float32


def test_a_missing_output_directory_is_refused(run, tmp_path):
    a = save(tmp_path / "a.npy", np.arange(3, dtype=np.float16))
    result = run(
        "convert", a, a, "--out-a", tmp_path / "no" / "x.npy", "--out-b", tmp_path / "y.npy"
    )
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_each_malformed_input_is_one_error_line_and_exit_2(run, tmp_path):
    from test_npy import write_corpus

    good = save(tmp_path / "good.npy", np.zeros(2, np.float32))
    for name, (path, words) in write_corpus(tmp_path).items():
        result = run("convert", good, path)
        assert result.exit_code == 2, name
        assert result.stderr.count("\n") == 1, (name, result.stderr)
        assert str(path) in result.stderr and words in result.stderr, name
        assert "Traceback" not in result.stderr
    assert not [n for n in files(tmp_path) if "promoted" in n]


# --- value checks ----------------------------------------------------------------------------


def test_strict_exits_1_and_writes_nothing_when_a_value_changes(run, tmp_path):
    # int64 above 2**53 loses precision in float64 (JAX: i8 x f8 -> f8)
    i = save(tmp_path / "i.npy", np.array([2**53 + 1, 3, -(2**60) - 1], np.int64))
    f = save(tmp_path / "f.npy", np.array([0.5], np.float64))
    counted = run("convert", i, f, "--check-values", "--json", "--dry-run")
    assert counted.exit_code == 0
    changed = json.loads(counted.stdout)["files"][0]["changed"]
    assert changed["rounded"] == 2 and changed["total"] == 2
    strict = run("convert", i, f, "--strict")
    assert strict.exit_code == 1
    assert "nothing was written" in strict.stderr
    assert files(tmp_path) == {"i.npy", "f.npy"}
    fine = save(tmp_path / "small.npy", np.array([1, 2], np.int64))
    assert run("convert", fine, f, "--strict").exit_code == 0
    assert (tmp_path / "small.promoted.npy").exists()


def test_check_values_counts_each_kind_in_the_plain_report(run, tmp_path):
    # JAX: u2 x f2 -> f2, and 65535 overflows float16 (max 65504)
    u = save(tmp_path / "u.npy", np.array([65535, 1, 2049], np.uint16))
    h = save(tmp_path / "h.npy", np.array([1.0], np.float16))
    result = run("convert", u, h, "--check-values")
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if line.startswith(str(u)))
    assert "2: 1 overflowed to inf/NaN, 1 rounded (precision lost)" in row


# --- start-up and a real process ---------------------------------------------------------------


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT))


def test_convert_in_a_real_process_refuses_to_replace_its_output(tmp_path):
    a = save(tmp_path / "a.npy", np.arange(6, dtype=np.int16).reshape(2, 3))
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    cmd = [sys.executable, "-m", "promote_cli", "convert", str(a), str(b), "-p", "jax"]
    done = subprocess.run(cmd, env=_env(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # no progress bar when stderr is not a terminal (and no default-policy note: -p is given)
    assert done.stderr == ""
    assert np.load(tmp_path / "a.promoted.npy").dtype == np.float32  # JAX: i2 x f4 -> f4
    again = subprocess.run(cmd, env=_env(), capture_output=True, text=True)
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "exists" in again.stderr


# promote convert in a fresh process, saying on stderr whether ml_dtypes was imported: the
# in-process tests cannot tell, this module imports it.
_CONVERT_TELLING_IMPORTS = (
    "import sys\n"
    "from promote_cli.cli import main\n"
    "try:\n    main(sys.argv[1:])\nexcept SystemExit as exc:\n    code = exc.code\n"
    "print('ml_dtypes imported:', 'ml_dtypes' in sys.modules, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def _convert_in_a_fresh_process(*args) -> tuple[subprocess.CompletedProcess, bool]:
    done = subprocess.run(
        [sys.executable, "-c", _CONVERT_TELLING_IMPORTS, "convert", *map(str, args)],
        env=_env(),
        capture_output=True,
        text=True,
    )
    *errors, told = done.stderr.splitlines()
    assert told in ("ml_dtypes imported: True", "ml_dtypes imported: False"), done.stderr
    assert done.returncode == 0, errors
    return done, told.endswith("True")


def test_a_float16_to_float32_convert_never_imports_ml_dtypes(tmp_path):
    # Importing ml_dtypes 0.7 costs about 0.55 s of CPU: NumPy's own types never need it.
    a = save(tmp_path / "a.npy", np.linspace(-3, 3, 24, dtype=np.float16).reshape(4, 6))
    b = save(tmp_path / "b.npy", np.arange(5, dtype=np.float32))
    _, imported = _convert_in_a_fresh_process(a, b, "--check-values")
    assert not imported
    # JAX's table: f2 x f4 -> f4
    assert np.load(tmp_path / "a.promoted.npy").tobytes() == np.load(a).astype(np.float32).tobytes()
    i = save(tmp_path / "i.npy", np.arange(-3, 3, dtype=np.int8))
    u = save(tmp_path / "u.npy", np.arange(6, dtype=np.uint8))
    _, imported = _convert_in_a_fresh_process(i, u, "-p", "numpy", "-O", "ml_dtypes=true")
    assert not imported
    assert np.load(tmp_path / "u.promoted.npy").tolist() == list(range(6))  # NumPy: int16
    assert np.load(tmp_path / "u.promoted.npy").dtype == np.int16


def test_a_bfloat16_file_still_converts_exactly_in_a_fresh_process(tmp_path):
    values = np.array([1.5, -2, 3.140625, 1e30, -0.0, np.inf, 2**-130], ml_dtypes.bfloat16)
    raw = save(tmp_path / "raw.npy", values)  # np.save writes a raw descr, |V2 or <V2
    i = save(tmp_path / "i.npy", np.arange(7, dtype=np.int8))
    # JAX's table: bf16 x i1 -> bf16, written with the descr 'bfloat16'
    (tmp_path / "out").mkdir()
    (tmp_path / "again").mkdir()
    _, imported = _convert_in_a_fresh_process(f"{raw}:bf16", i, "-o", tmp_path / "out")
    assert imported
    named = tmp_path / "out" / "raw.npy"
    assert descr_of(named) == "bfloat16"
    assert np.load(named).tobytes() == values.tobytes()
    # A header that names the type: read without being told, and bf16 x f2 -> f4
    f = save(tmp_path / "f.npy", np.zeros(7, np.float16))
    _, imported = _convert_in_a_fresh_process(named, f, "-o", tmp_path / "again")
    assert imported
    out = np.load(tmp_path / "again" / "raw.npy")
    assert out.dtype == np.float32
    assert out.tobytes() == values.astype(np.float32).tobytes()


_ANSI = __import__("re").compile(r"\x1b\[[0-9;]*m")


def test_the_report_never_cuts_a_path_on_an_80_column_terminal(tmp_path):
    from terminal import on_a_terminal

    deep = tmp_path / "some" / "rather" / "long" / "directory" / "for" / "the" / "inputs"
    deep.mkdir(parents=True)
    a = save(deep / "big.precision.measurements.npy", np.zeros(1000, np.float16))
    b = save(deep / "small3.calibration.npy", np.zeros(3, np.int8))
    out = _ANSI.sub("", on_a_terminal(["convert", str(a), str(b), "--check-values"], columns=80))
    for path in (a, b, deep / "big.precision.measurements.promoted.npy"):
        assert str(path) in out, f"{path} is not shown whole:\n{out}"
    assert str(deep / "small3.calibration.promoted.npy") in out
    assert "i1 (int8) -> f2" in out  # the dtype cell whole too
    assert "…" not in out
    assert (deep / "small3.calibration.promoted.npy").exists()


def test_a_report_that_fits_is_a_table_with_every_cell_whole(tmp_path):
    from terminal import on_a_terminal

    a = save(tmp_path / "a.npy", np.zeros(2, np.float16))
    b = save(tmp_path / "b.npy", np.zeros(2, np.int8))
    out = _ANSI.sub("", on_a_terminal(["convert", str(a), str(b), "--dry-run"], columns=250))
    assert "┃ input" in out and f"│ {a} " in out and str(tmp_path / "b.promoted.npy") in out
    assert "…" not in out
