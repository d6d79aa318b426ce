"""Regenerate every generated file of a source checkout, in the order they depend on each other:

    python -m promote_cli.regenerate          # every step below
    python -m promote_cli.regenerate index    # step 2 alone: no framework needs installing

1. ``promote_cli/_catalogue.py``, the dtype catalogue (``catalogue_gen``, from NumPy and
   ml_dtypes; then ``ruff format``);
2. ``promote_cli/frameworks/_index.py``, what reading a spelling needs of every notation
   (``frameworks.index_source``, from the registry's entries): after a framework's notation
   changes, or a framework is added;
<<<<<<< HEAD
3. ``promote_cli/shared/ml_dtypes-<release>.json``, the numpy policy's ``ml_dtypes``
   tables (``ml_gen``, from NumPy with the installed release of ml_dtypes imported);
=======
3. ``promote_cli/frameworks/numpy/ml_dtypes-<release>.json``, the numpy policy's ``ml_dtypes``
   tables (``ml_gen``, from NumPy with the installed release of ml_dtypes imported), and
   ``promote_cli/frameworks/onnx/constraints.json``, the onnx policy's type constraints
   (``schemas_gen``, from the installed onnx's operator schemas);
>>>>>>> onnx
4. every framework's measurements, ``promote_cli/frameworks/<name>/measured/*.json``
   (``promote measure --all --require``: every framework must be installed, as the
   ``conformance`` extra and ``torch`` install them);
5. ``tables/``, the documentation set (``promote tables``), and the NEP 50 migration page's
   block (``docs/guide/nep50.md``, from ``measured/promotion-legacy/nep50.json``, which
   ``promote measure numpy -O promotion=legacy --python <NumPy 1.26>`` measures: like the
   other settings measured apart, not by this run);
6. the last full ``promote verify`` run, ``docs/verified.json`` (``benchmarks/verified.py
   --write``: every framework again, the longest step);
7. the README's figures (``docs/figures.py --write-readme``; the docs site computes its own
   figures when it is built).

Each step runs as its own process, as a person would type it, and the first that fails stops the
run with its exit code. A file whose content did not change is left alone (a measurement keeps
its date). Then review the diff: a changed measurement that the rules no longer match fails
``tests/measured/test_measured.py``, naming each cell.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from promote_cli import atomic

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "promote_cli" / "_catalogue.py"
INDEX = ROOT / "promote_cli" / "frameworks" / "_index.py"


def steps() -> list[tuple[str, list[str]]]:
    python = sys.executable
    return [
        (
            "the numpy policy's ml_dtypes tables",
            [python, "-m", "promote_cli.frameworks.numpy.ml_gen"],
        ),
        (
            "the onnx policy's type constraints",
            [python, "-m", "promote_cli.frameworks.onnx.schemas_gen"],
        ),
        (
            "every framework's measurements",
            [python, "-m", "promote_cli", "measure", "--all", "--require"],
        ),
        ("tables/", [python, "-m", "promote_cli", "tables"]),
        (
            "the NEP 50 migration page",
            [python, "-m", "promote_cli.frameworks.numpy.nep50", "--write-docs"],
        ),
        (
            "the last full verify run",
            [python, str(ROOT / "benchmarks" / "verified.py"), "--write"],
        ),
        (
            "the README's figures",
            [python, str(ROOT / "docs" / "figures.py"), "--write-readme"],
        ),
    ]


# ruff as this interpreter has it (the dev extra), whatever PATH says.
RUFF = (sys.executable, "-m", "ruff")


def catalogue() -> int:
    """``_catalogue.py`` from ``catalogue_gen``, formatted as CI checks it."""
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli.catalogue_gen"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.stderr.write(done.stderr)
        return done.returncode
    if CATALOGUE.read_text(encoding="utf-8") == _formatted(done.stdout):
        print(f"{CATALOGUE.relative_to(ROOT)}: unchanged")
        return 0
    atomic.replace_file(CATALOGUE, done.stdout.encode())
    formatted = subprocess.run([*RUFF, "format", "--quiet", str(CATALOGUE)], check=False)
    print(f"wrote {CATALOGUE.relative_to(ROOT)}")
    return formatted.returncode


def index() -> int:
    """``frameworks/_index.py`` from the registry's entries (written as ``ruff format`` would)."""
    from promote_cli import frameworks

    text = frameworks.index_source()
    if INDEX.is_file() and INDEX.read_text(encoding="utf-8") == text:
        print(f"{INDEX.relative_to(ROOT)}: unchanged")
        return 0
    atomic.replace_file(INDEX, text.encode())
    print(f"wrote {INDEX.relative_to(ROOT)}")
    return 0


def _formatted(source: str) -> str:
    done = subprocess.run(
        [*RUFF, "format", "--quiet", "--stdin-filename", str(CATALOGUE), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else source


def main() -> int:
    if sys.argv[1:] == ["index"]:
        return index()
    if importlib.util.find_spec("ruff") is None:
        print(
            "promote: error: regenerating needs ruff, which formats the generated source:"
            " pip install -e '.[test]'",
            file=sys.stderr,
        )
        return 2
    print("== the dtype catalogue", flush=True)
    code = catalogue() or index()
    if code:
        return code
    for what, command in steps():
        print(
            f"== {what}: {' '.join(Path(c).name if c == sys.executable else c for c in command)}",
            flush=True,
        )
        code = subprocess.run(command, cwd=ROOT, check=False).returncode
        if code:
            print(f"stopped: {what} exited {code}", file=sys.stderr)
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
