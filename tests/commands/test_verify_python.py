"""``promote verify P --python PATH`` (and ``promote measure``): a framework's oracle asked under
another interpreter, in a worker, with that interpreter's own packages. A real run against an
older NumPy needs an environment CI does not have; here the other interpreter is this one (the
worker path is real: numpy's in-process oracle runs in a child), and bad paths are refused in
one line, exit 2."""

from __future__ import annotations

import json
import os
import stat
import sys

import pytest

from promote_cli import frameworks
from promote_cli.verify import driver


def _script(tmp_path, name: str, body: str):
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_numpy_is_asked_in_a_worker_under_the_interpreter_given(run):
    pytest.importorskip("numpy")
    result = run(
        "verify", "numpy", "-O", "ml_dtypes=false", "--no-ops", "--json", "--python",
        sys.executable,
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout
    [entry] = json.loads(result.stdout)["policies"]
    assert entry["status"] == "verified"
    assert entry["python"] == os.path.abspath(sys.executable)
    assert entry["version"].startswith("2.")
    # the set ml_dtypes=false is in, the entry's own: measured with ml_dtypes 0.7.0 beside
    assert entry["measured_version"] == "2.4.6 (ml_dtypes 0.7.0)"
    # NumPy's 16 dtypes and 4 Python scalars, every ordered pair.
    assert entry["cells"] == 400
    assert entry["mismatches"] == []


def test_the_worker_keeps_the_other_interpreters_own_sys_path(tmp_path):
    # The child's packages are its environment's, not promote's: a module only on the child's
    # own path (PYTHONPATH given to it) is found there.
    from promote_cli.worker import Worker

    (tmp_path / "only_here.py").write_text("WHERE = 'child'\n")
    env = {"PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    with Worker("only_here", timeout=60, env=env, python=sys.executable) as worker:
        assert worker.ready.ok, worker.ready
        assert worker.get("WHERE").value == "child"


def test_another_version_is_said_in_one_line_and_the_differing_cells_still_listed(run, monkeypatch):
    pytest.importorskip("numpy")
    monkeypatch.setattr(driver, "measured_version", lambda entry, combos: "1.0")
    result = run(
        "verify", "numpy", "-O", "ml_dtypes=false", "--no-ops", "--python", sys.executable
    )  # fmt: skip
    lines = result.stdout.splitlines()
    assert lines[1].startswith("  numpy: numpy 2.")
    assert lines[1].endswith(
        f" ({os.path.abspath(sys.executable)}) is not 1.0, the version promote's numpy rules"
        " were measured on; the cells that differ are listed"
    )


def test_a_version_is_compared_by_its_release_and_the_ml_dtypes_release_it_names():
    def report(version: str, measured: str) -> driver.Report:
        return driver.Report("numpy", driver.VERIFIED, version=version, measured=measured)

    assert not report("2.4.6 (ml_dtypes 0.6.0)", "2.4.6").other_version
    assert not report("2.4.6 (ml_dtypes 0.6.0)", "2.4.6 (ml_dtypes 0.6.0)").other_version
    assert report("2.4.6 (ml_dtypes 0.7.0)", "2.4.6 (ml_dtypes 0.6.0)").other_version
    assert not report("2.13.0+cpu", "2.13.0").other_version  # a local build's label
    assert report("1.26.4", "2.4.6").other_version
    assert not report("1.26.4", "").other_version  # a policy file: nothing measured


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "nosuch", "no such file"),
        (lambda tmp: tmp, "a directory, not a Python interpreter"),
        (lambda tmp: _not_executable(tmp), "not executable"),
        (
            lambda tmp: _script(tmp, "sh", "echo hello"),
            "not a Python interpreter (it did not run Python code)",
        ),
        (
            lambda tmp: _script(tmp, "python3.8", "echo promote-probe 3 8 10"),
            "Python 3.8.10; promote's oracle code needs Python >= 3.10",
        ),
    ],
)
@pytest.mark.parametrize("command", ["verify", "measure"])
def test_a_bad_interpreter_is_one_line_and_exit_2(run, tmp_path, make, message, command):
    path = make(tmp_path)
    result = run(command, "numpy", "--python", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"promote: error: --python {path}: {message}\n"
    assert result.stdout == ""


def _not_executable(tmp):
    path = tmp / "python"
    path.write_text("")
    return path


def test_python_is_for_a_framework_not_for_your_own_oracle(run):
    result = run("verify", "numpy", "--oracle", "mod:fn", "--python", sys.executable)
    assert result.exit_code == 2
    assert "--python asks a framework's oracle; --oracle runs your own function" in result.stderr


def test_the_installed_release_of_a_package_is_read_in_the_environment_asked(tmp_path):
    from importlib import metadata

    from promote_cli.verify.workers import package_version

    here = metadata.version("click")
    assert package_version("click") == package_version("click", sys.executable) == here
    assert package_version("no-such-distribution", sys.executable) == ""
    # an interpreter that prints something else than a version is not believed
    liar = tmp_path / "python"
    liar.write_text("#!/bin/sh\necho '0.7.0; rm -rf /'\n")
    liar.chmod(0o755)
    assert package_version("ml_dtypes", str(liar)) == ""


def test_verify_asks_the_ml_dtypes_release_installed_where_the_oracle_runs():
    from promote_cli.verify.cases import settings

    numpy = frameworks.get("numpy")
    # with 0.6 installed: off and 0.6 (measured apart), never 0.7's setting
    assert settings(numpy, None, {"ml_dtypes": "0.6"}) == [
        {"ml_dtypes": False, "promotion": "weak"},
        {"ml_dtypes": "0.6", "promotion": "weak"},
    ]
    # a release not measured (or none installed): the entry's own set, 0.6 and 0.5 apart
    assert settings(numpy) == [
        {"ml_dtypes": False, "promotion": "weak"},
        {"ml_dtypes": "0.7", "promotion": "weak"},
    ]
