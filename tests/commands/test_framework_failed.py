"""A framework that crashes (a segmentation fault in its own code) or never returns (Paddle's
integer pow with a negative exponent) inside a verify worker: ``promote verify`` and ``promote
measure`` say the framework failed, naming how and what it last logged, and exit 1; it is not
reported as promote's own bug (exit 3)."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from promote_cli import frameworks
from promote_cli.verify import driver
from promote_cli.verify.workers import FrameworkFailed, WorkerFailed, WorkerOracle

# An oracle module of a worker whose framework segfaults, hangs or has a bug when asked.
ORACLE = """
import os, signal, time
from promote_cli.verify.protocol import Asks, in_worker

RUNS = in_worker("a test's stand-in", requires=("os",), timeout={timeout})
ASKS = Asks()

def load():
    return "handle"

def version(handle):
    return "9.9"

def answer(handle, opts, questions):
    {how}
"""
HOW = {
    "segfault": "os.kill(os.getpid(), signal.SIGSEGV)",
    "hang": "time.sleep(60)",
    "bug": "raise KeyError('an oracle bug')",
}


@pytest.fixture
def oracle_that(tmp_path, monkeypatch):
    def make(how: str, timeout: float = 60):
        name = f"failing_oracle_{how}"
        source = ORACLE.format(timeout=timeout, how=HOW[how])
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # the worker imports it too
        return WorkerOracle(importlib.import_module(name))

    yield make
    for how in HOW:
        sys.modules.pop(f"failing_oracle_{how}", None)


@pytest.mark.parametrize(
    ("how", "timeout", "said"),
    [("segfault", 60, "killed by SIGSEGV"), ("hang", 2, "no answer within 2 s")],
)
def test_a_framework_that_crashes_or_hangs_is_its_failure(oracle_that, how, timeout, said):
    orc = oracle_that(how, timeout)
    report = driver.verify(frameworks.get("numpy"), {}, load_oracle=lambda name: orc)
    assert report.status == driver.FRAMEWORK_FAILED
    assert said in report.note and "answering" in report.note
    assert driver.failed(report, require=False)


def test_an_oracle_that_raises_is_still_promotes_own_bug(oracle_that):
    orc = oracle_that("bug")
    with pytest.raises(WorkerFailed) as raised:
        driver.verify(frameworks.get("numpy"), {}, load_oracle=lambda name: orc)
    assert not isinstance(raised.value, FrameworkFailed)
    assert "KeyError: 'an oracle bug'" in str(raised.value)


def test_verify_says_the_framework_failed_in_one_line_and_exits_1(run, oracle_that, monkeypatch):
    orc = oracle_that("segfault")
    monkeypatch.setattr(driver, "oracle", lambda name, python=None, timeout=None: orc)
    done = run("verify", "numpy", "--no-ops")
    assert done.exit_code == 1
    line, summary = done.stdout.splitlines()
    assert line == (
        "numpy: the framework failed, not promote: failing_oracle_segfault, answering: killed"
        " by SIGSEGV"
    )
    assert summary == (
        "0 of 1 policies verified: 0 pair cells compared, 0 mismatches, 1 framework failed"
    )
    done = run("verify", "numpy", "--no-ops", "--json")
    assert done.exit_code == 1
    assert '"status": "framework-failed"' in done.stdout


def test_measure_says_the_framework_failed_writes_nothing_and_exits_1(
    run, oracle_that, monkeypatch, tmp_path
):
    module = sys.modules[oracle_that("segfault").module]
    monkeypatch.setattr(frameworks, "oracle", lambda name: module)
    into = tmp_path / "measured"
    done = run("measure", "numpy", "--into", str(into))
    assert done.exit_code == 1
    assert done.stdout == (
        "numpy: the framework failed, not promote; nothing written: failing_oracle_segfault,"
        " answering: killed by SIGSEGV\n"
    )
    assert not into.exists()


def test_drift_says_the_framework_failed_in_one_line_and_exits_1(run, oracle_that, monkeypatch):
    orc = oracle_that("segfault")
    monkeypatch.setattr(driver, "oracle", lambda name, python=None, timeout=None: orc)
    done = run("drift", "numpy")
    assert done.exit_code == 1
    assert done.stdout.splitlines() == [
        "numpy: the framework failed, not promote: failing_oracle_segfault, answering: killed"
        " by SIGSEGV",
        "1 framework: 1 failed",
    ]
