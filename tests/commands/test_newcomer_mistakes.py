"""The stumbles issue 41 found, each now one good line (or no stumble at all)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("flaot32", "did you mean 'float32'?"),  # a transposition: the type, no weak float*
        ("int17", "did you mean 'int16' or 'int32'?"),  # a width int has not: its neighbours
        ("uint12", "did you mean 'uint8' or 'uint16'?"),
        ("complex65", "did you mean 'complex64' or 'complex128'?"),
    ],
)
def test_a_mistyped_type_suggests_the_types_meant(run, typed, suggested):
    done = run("pair", typed, "int8", "-p", "numpy")
    assert done.exit_code == 2
    assert done.stderr == (
        f"promote: error: unknown dtype {typed!r} in canonical notation; {suggested}\n"
    )


def test_no_suggestion_is_a_weak_type(run):
    for typed in ("flaot32", "flaot", "floa16", "bfloat"):
        assert "*" not in run("pair", typed, "int8", "-p", "numpy").stderr, typed


def test_verify_of_a_missing_policy_file_says_no_such_file(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run("verify", "./missing.toml")
    assert done.exit_code == 2
    assert done.stderr == "promote: error: missing.toml: no such policy file\n"
    # a file that exists still needs its oracle
    (tmp_path / "tab.toml").write_text('name = "tab"\nextends = "numpy"\n', encoding="utf-8")
    assert "add --oracle" in run("verify", "./tab.toml").stderr


def test_graph_help_names_no_list_the_registry_does_not_make(run):
    from promote_cli import frameworks
    from promote_cli.graph import has_lattice

    text = run("graph", "--help").stdout
    assert "jax, tensorflow, array-api" not in text
    lattices = [n for n in frameworks.names() if has_lattice(frameworks.get(n))]
    assert {"mlx", "tinygrad"} <= set(lattices)
    refusal = run("graph", "-p", "numpy").stderr
    assert f"(lattice policies: {', '.join(lattices)})" in refusal


def test_table_o_refuses_a_missing_directory_as_convert_does(run, tmp_path):
    import numpy as np

    done = run("table", "-p", "jax", "-t", "f2", "-o", str(tmp_path / "no" / "x.md"))
    assert done.exit_code == 2
    assert done.stderr.startswith(f"promote: error: cannot write {tmp_path / 'no' / 'x.md'}:")
    assert "does not exist; create it first (mkdir -p" in done.stderr
    assert not (tmp_path / "no").exists()
    np.save(tmp_path / "a.npy", np.ones(2, np.int8))
    np.save(tmp_path / "b.npy", np.ones(2, np.float16))
    done = run(
        "convert",
        str(tmp_path / "a.npy"),
        str(tmp_path / "b.npy"),
        "-p",
        "jax",
        "-o",
        str(tmp_path / "out"),
    )
    assert done.exit_code == 2 and "does not exist; create it first (mkdir -p" in done.stderr


def test_a_missing_framework_hint_pins_the_release_measured():
    from promote_cli import frameworks
    from promote_cli.verify.driver import install_hint

    pins = dict(
        line.split("==", 1)
        for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    )
    hint = install_hint(frameworks.entry("tensorflow"))
    assert hint.startswith(f"pip install tensorflow-cpu=={pins['tensorflow-cpu']}, the release")
    assert install_hint(frameworks.entry("mlx")).startswith("pip install 'mlx[cpu]==")


def test_mkdocs_page_with_two_tables_has_distinct_ids_and_one_stylesheet():
    markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")
    page = markdown.markdown(
        "::: promote table -p jax -t f2,f4\n\n::: promote table -p numpy -t int8 --mark lossy\n",
        extensions=["promote_cli.markdown"],
    )
    assert re.findall(r'<table id="([^"]+)">', page) == ["types", "types-2"]
    assert page.count("<style>") == 1
    assert "  #types .d, #types-2 .d {" in page
    assert "  #types-2 .l {" in page  # a rule only the second table has stays its own
    # a table alone is what promote table prints, its stylesheet and all
    alone = subprocess.run(
        [sys.executable, "-m", "promote_cli", "table", "-p", "jax", "-f", "html", "-t", "f2"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    ).stdout
    one = markdown.markdown("::: promote table -p jax -t f2\n", extensions=["promote_cli.markdown"])
    assert one.startswith(f'<div class="promotion">{alone}')
