"""The CPU the test suite uses: the README's test command, run here, with where the CPU went.

The suite is held to 300 s of CPU (user + system, of every process it starts) on the 2-core
machine, the README's command in a venv with the ``test`` extra only. CPU seconds, not wall
time: the machine is shared, and the wall time of one run says more of its neighbours than of
the suite. This runs ``python -m pytest -q -p no:cacheprovider`` (the README's command, given
the options after ``--`` too) and prints

- the run's CPU, user and system, of pytest and every process it started (``getrusage``'s
  children, as ``/usr/bin/time`` counts them), and its wall time;
- each worker's start-up: the CPU spent before its first test (interpreter, imports,
  collection), where the run pays it once a worker;
- the tests that used the most CPU, each with the processes it started, and the same summed by
  file: a test's CPU is its process's (``time.process_time``) plus that of the processes it
  started and waited for (``RUSAGE_CHILDREN``).

Counting adds a few system calls a test (about 0.1 s a run); ``--plain`` runs the command
alone, to compare.

    python benchmarks/suite_cpu.py [--top 40] [--plain] [-- PYTEST-ARGS ...]

Run it from a clean clone, in the venv the README makes (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest

COMMAND = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
_OUT = "PROMOTE_SUITE_CPU_DIR"  # where each pytest process writes what it counted


def _cpu() -> float:
    """This process's CPU and that of the children it waited for, in seconds."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def _own() -> float:
    """This process's CPU alone (a controller's children are the workers)."""
    return time.process_time()


# --- the plugin (-p suite_cpu), loaded by the controller and by every worker ----------------

_tests: dict[str, float] = {}
_marks: dict[str, float] = {}


def pytest_collection_finish(session) -> None:
    _marks["collected"] = _cpu()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A test's CPU: set-up, call and tear-down, in the process that runs it."""
    before = _cpu()
    _marks.setdefault("first", before)
    try:
        return (yield)
    finally:
        _tests[item.nodeid] = _tests.get(item.nodeid, 0.0) + _cpu() - before


def pytest_sessionfinish(session) -> None:
    where = os.environ.get(_OUT)
    if not where:
        return
    who = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    found = {"marks": _marks, "end": _cpu(), "own": _own(), "tests": _tests}
    Path(where, f"{who}.json").write_text(json.dumps(found), encoding="utf-8")


# --- the run ------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=40, help="tests to list (default 40)")
    parser.add_argument("--plain", action="store_true", help="the command alone, not counted")
    parser.add_argument("args", nargs="*", help="more pytest options (after --)")
    opts = parser.parse_args()
    env, plugin = dict(os.environ), []
    with tempfile.TemporaryDirectory(prefix="promote-suite-cpu-") as where:
        if not opts.plain:
            env[_OUT] = where
            here = str(Path(__file__).resolve().parent)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
            plugin = ["-p", "suite_cpu"]  # the workers are given it too; no test's pytest is
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([*COMMAND, *plugin, *opts.args], env=env, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        counted = {p.stem: json.loads(p.read_text()) for p in Path(where).glob("*.json")}
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    print(f"\n{' '.join(['python', *COMMAND[1:], *opts.args])}: exit {done.returncode}")
    print(
        f"CPU {user + system:.1f} s (user {user:.1f} s, system {system:.1f} s), wall {wall:.1f} s"
    )
    if not counted:
        return done.returncode
    tests: dict[str, float] = {}
    for who, found in sorted(counted.items()):
        marks = found["marks"]
        if "first" in marks:
            ran = found["end"] - marks["first"]
            print(
                f"{who}: {marks['first']:.1f} s of CPU before its first test (collected at"
                f" {marks.get('collected', 0):.1f} s), {ran:.1f} s in {len(found['tests'])}"
                f" tests, {found['end']:.1f} s in all"
            )
        else:
            print(f"{who}: {found['own']:.1f} s of CPU of its own")
        tests.update(found["tests"])
    counted_cpu = sum(f["end"] if "first" in f["marks"] else f["own"] for f in counted.values())
    print(
        f"the rest (xdist's gateways, processes left running): {user + system - counted_cpu:.1f} s"
    )
    by_file: dict[str, float] = defaultdict(float)
    for nodeid, cpu in tests.items():
        by_file[nodeid.split("::")[0]] += cpu
    print(f"\nthe {opts.top} tests that used the most CPU (s):")
    for nodeid, cpu in sorted(tests.items(), key=lambda t: -t[1])[: opts.top]:
        print(f"{cpu:7.2f}  {nodeid}")
    print(f"\nby file, the {opts.top} largest (s), of {sum(tests.values()):.1f} s in tests:")
    for path, cpu in sorted(by_file.items(), key=lambda t: -t[1])[: opts.top]:
        print(f"{cpu:7.2f}  {path}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
