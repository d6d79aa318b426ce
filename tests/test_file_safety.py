"""What promote's file writers do to files around them: the mode of what they write (that of a
plain ``open()``, or of the file replaced), and which files ``promote tables`` may remove."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def umask():
    """Set the process umask for one test (CliRunner runs promote in this process)."""
    saved = os.umask(0o022)
    yield os.umask
    os.umask(saved)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def no_temp_files(directory: Path) -> bool:
    return not [p for p in directory.iterdir() if p.name.startswith(".")]


# --- modes ----------------------------------------------------------------------------------


def test_table_output_gets_the_mode_open_would_give(run, umask, tmp_path):
    out = tmp_path / "t.md"
    assert run("table", "-t", "f2,bf", "-o", str(out)).exit_code == 0
    assert mode(out) == 0o644
    umask(0o027)
    other = tmp_path / "u.md"
    assert run("table", "-t", "f2,bf", "-o", str(other)).exit_code == 0
    assert mode(other) == 0o640
    assert no_temp_files(tmp_path)


def test_table_output_keeps_the_mode_of_the_file_it_replaces(run, umask, tmp_path):
    out = tmp_path / "t.md"
    out.write_text("old\n")
    out.chmod(0o640)
    assert run("table", "-t", "f2,bf", "-o", str(out)).exit_code == 0
    assert out.read_text() != "old\n" and mode(out) == 0o640
    out.chmod(0o664)  # wider than the umask allows a new file: still kept
    out.write_text("old again\n")
    assert run("table", "-t", "f2,bf", "-o", str(out)).exit_code == 0
    assert mode(out) == 0o664


def test_table_output_mode_in_a_real_process(umask, tmp_path):
    out = tmp_path / "t.md"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "table", "-t", "f2,bf", "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
    )  # the child inherits the fixture's umask 022
    assert done.returncode == 0, done.stderr
    assert mode(out) == 0o644


def test_every_file_of_tables_gets_the_mode_open_would_give(run, umask, tmp_path):
    assert run("tables", str(tmp_path)).exit_code == 0
    modes = {p.name: mode(p) for p in tmp_path.iterdir()}
    assert "README.md" in modes and "jax.html" in modes
    assert set(modes.values()) == {0o644}, modes


def test_convert_outputs_get_the_mode_open_would_give(run, umask, tmp_path):
    np.save(tmp_path / "a.npy", np.arange(4, dtype=np.int8))
    np.save(tmp_path / "b.npy", np.ones(4, dtype=np.float16))
    assert run("convert", str(tmp_path / "a.npy"), str(tmp_path / "b.npy")).exit_code == 0
    assert mode(tmp_path / "a.promoted.npy") == 0o644
    assert mode(tmp_path / "b.promoted.npy") == 0o644


def test_convert_force_keeps_the_mode_of_the_file_it_replaces(run, umask, tmp_path):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.arange(4, dtype=np.int8))
    np.save(b, np.ones(4, dtype=np.float16))
    out_a = tmp_path / "a.promoted.npy"
    out_a.write_bytes(b"old")
    out_a.chmod(0o640)
    assert run("convert", str(a), str(b), "--force").exit_code == 0
    # JAX: i8 x f16 = f16 (the JAX promotion table)
    assert np.load(out_a).dtype == np.float16
    assert mode(out_a) == 0o640
    assert mode(tmp_path / "b.promoted.npy") == 0o644
    assert no_temp_files(tmp_path)
