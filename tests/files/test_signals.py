"""Ctrl-C and SIGTERM at every moment of a run: what a run reports is what is on disk.
Real processes are interrupted at random moments, hundreds of times, each run's exit code,
its lines and its files checked; then the moments that random timing rarely hits (just after a
commit's last rename, while it keeps backups, an interrupt lost in a weakref callback) are made
to happen by patching the one call they follow.

A run interrupted before promote's first instruction (the interpreter's own start-up: see
``promote_cli.entry``) behaves as Python does; every other run ends with exit 130 and
``promote: interrupted`` having written nothing, or exit 0 with its outputs complete (and, if a
signal came after the commit, ``promote: interrupted after writing ...``). No run leaves a
temporary or backup file, prints a traceback, or reports what did not happen.

``PROMOTE_SIGNAL_RUNS`` sets the number of random runs: 42 by default (about 6 s of the suite's
wall time on two cores), 840 in CI (``.ci/run`` searches again after the suite), thousands for a
long search.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
RUNS = int(os.environ.get("PROMOTE_SIGNAL_RUNS", "42"))

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/status"), reason="reads /proc/PID/status to see the handlers"
)


def promote_command() -> list[str]:
    """The console script, as users run it (``python -m promote_cli`` without one)."""
    script = Path(sys.executable).parent / "promote"
    return [str(script)] if script.exists() else [sys.executable, "-m", "promote_cli"]


def handled(pid: int) -> bool:
    """Whether promote's handlers are installed (SIGTERM caught), or the run has settled
    (SIGTERM ignored): a signal now is promote's to report. (Not SIGINT: a process started in
    the background of a shell inherits SIGINT ignored, before promote's first instruction.)"""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except (FileNotFoundError, ProcessLookupError):
        return True  # it has ended: the signal is not sent to it
    caught, ignored = int(fields["SigCgt"], 16), int(fields["SigIgn"], 16)
    return bool((caught | ignored) & (1 << (signal.SIGTERM - 1)))


class Case(NamedTuple):
    """One kind of run: its arguments, its outputs (with the bytes they hold before), and how
    to tell a complete new output."""

    args: list[str]
    outputs: dict[Path, bytes]
    complete: object  # Path -> bool


def pair_case(where: Path) -> Case:
    return Case(["pair", "f2", "bf", "-p", "jax"], {}, None)


def table_case(where: Path) -> Case:
    out = where / "out.md"
    out.write_bytes(b"old table\n")
    expected = subprocess.run(
        [*promote_command(), "table", "-p", "jax", "-f", "markdown"],
        env=ENV,
        capture_output=True,
        check=True,
    ).stdout
    return Case(
        ["table", "-p", "jax", "-f", "markdown", "-o", str(out)],
        {out: b"old table\n"},
        lambda path: path.read_bytes() == expected,
    )


def convert_case(where: Path) -> Case:
    a, b = where / "a.npy", where / "b.npy"
    np.save(a, np.arange(1000, dtype=np.float16))
    np.save(b, np.arange(3, dtype=np.float32))
    out = where / "out"
    out.mkdir()
    outputs = {out / "a.npy": b"old a", out / "b.npy": b"old b"}
    for path, old in outputs.items():
        path.write_bytes(old)

    def complete(path: Path) -> bool:
        try:
            got = np.load(path)
        except Exception:
            return False
        want = np.arange(1000 if path.name == "a.npy" else 3, dtype=np.float32)
        return got.dtype == np.float32 and np.array_equal(got, want)

    return Case(
        ["convert", str(a), str(b), "-p", "jax", "-o", str(out), "--force"], outputs, complete
    )


class Outcome(NamedTuple):
    promote_had_it: bool
    returncode: int
    stdout: str
    stderr: str
    files: str  # "old", "new" or a description of what is wrong
    hidden: list[str]


def interrupt(case: Case, delay: float, sig: int) -> Outcome:
    for path, old in case.outputs.items():
        path.write_bytes(old)
    proc = subprocess.Popen(
        [*promote_command(), *case.args],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    had_it = handled(proc.pid)
    if proc.poll() is None:
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    old = [path.read_bytes() == before for path, before in case.outputs.items()]
    new = [case.complete(path) for path in case.outputs]  # type: ignore[operator]
    files = "old" if all(old) else "new" if all(new) else f"mixed: old {old}, new {new}"
    if not case.outputs:  # a command that writes nothing: its output is what it printed
        files = "new" if out == "f4 (float32)\n" else "old" if not out else f"printed {out!r}"
    dirs = {path.parent for path in case.outputs}
    hidden = sorted(p.name for d in dirs for p in d.iterdir() if p.name.startswith("."))
    return Outcome(had_it, proc.returncode, out, err, files, hidden)


def check(outcome: Outcome) -> str:
    """What the run did, as a short label; fails on any outcome that is not allowed."""
    rc, err = outcome.returncode, outcome.stderr
    assert outcome.hidden == [], outcome
    assert outcome.files in ("old", "new"), outcome
    if not outcome.promote_had_it and "promote: " not in err:
        # Before promote's first instruction: Python's own KeyboardInterrupt, or SIGTERM's kill.
        assert outcome.files == ("new" if rc == 0 else "old"), outcome
        return f"before promote: exit {rc}"
    assert "Traceback" not in err and "Exception ignored" not in err, err
    if rc == 130:
        assert err == "promote: interrupted\n", outcome
        # Nothing written; a command that only prints may have printed its answer already.
        assert outcome.files == "old" or outcome.stdout == "f4 (float32)\n", outcome
        return "interrupted, nothing written"
    assert rc == 0 and outcome.files == "new", outcome
    if err:
        assert re.fullmatch(r"promote: interrupted after writing .*, complete\n", err), err
        return "interrupted after writing"
    return "completed"


def duration(case: Case) -> float:
    started = time.perf_counter()
    subprocess.run([*promote_command(), *case.args], env=ENV, capture_output=True, check=True)
    return time.perf_counter() - started


@pytest.mark.slow(seconds=7)
def test_signals_at_random_moments_leave_what_they_report(tmp_path):
    cases = []
    for i, make in enumerate([pair_case, table_case, convert_case]):
        where = tmp_path / f"case{i}"
        where.mkdir()
        cases.append(make(where))
    # Three runs of pair (the cheapest) for two of each command that writes, so that the three
    # workers, one a case (runs of one case share its files), take about the same time.
    shares = [3 * RUNS // 7, 2 * RUNS // 7]
    shares.append(RUNS - sum(shares))

    def worker(k: int) -> list[str]:
        rng, case = random.Random(23 + k), cases[k]
        # The run's length, measured as it runs beside the others: signals fall anywhere in it
        # and a little after. A machine busier than when measured stretches the runs, so a
        # case that sees no run reach its end in 15 widens its window.
        scale = 1.25 * max(duration(case), duration(case))
        labels: list[str] = []
        for n in range(shares[k]):
            delay, sig = rng.uniform(0, scale), rng.choice([signal.SIGINT, signal.SIGTERM])
            labels.append(check(interrupt(case, delay, sig)))
            recent = labels[-15:]
            if n % 15 == 14 and not any(label in ENDED for label in recent):
                scale *= 1.3
        return labels

    with ThreadPoolExecutor(len(cases)) as pool:
        labels = [label for part in pool.map(worker, range(len(cases))) for label in part]
    seen = {label: labels.count(label) for label in sorted(set(labels))}
    print(f"{len(labels)} interrupted runs: {seen}")
    # The runs genuinely cover both outcomes of a run that promote handles.
    assert seen.get("interrupted, nothing written", 0) >= RUNS // 4, seen
    assert sum(seen.get(label, 0) for label in ENDED) >= 1, seen


ENDED = ("completed", "interrupted after writing")  # runs that reached their end


# --- the moments random timing rarely hits --------------------------------------------------

DRIVER = textwrap.dedent(
    """
    import os, signal, sys
    PATCH = {patch!r}
    SIGNAL = getattr(signal, {sig!r})
    real = getattr(os, PATCH)
    calls = []

    def patched(*args, **kwargs):
        result = real(*args, **kwargs)
        calls.append(args)
        if len(calls) == {at}:
            os.kill(os.getpid(), SIGNAL)  # arrives while promote is inside this call's caller
        return result

    setattr(os, PATCH, patched)
    sys.argv = ["promote", *sys.argv[1:]]
    from promote_cli.entry import main
    {prelude}
    main()
    """
)


def drive(args: list[str], patch: str, at: int, sig: str = "SIGINT", prelude: str = "", **kwargs):
    code = DRIVER.format(patch=patch, at=at, sig=sig, prelude=prelude)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


@pytest.fixture
def outputs(tmp_path):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.arange(5, dtype=np.float16))
    np.save(b, np.arange(3, dtype=np.float32))
    for name in ("a.promoted.npy", "b.promoted.npy"):
        (tmp_path / name).write_bytes(b"old")
    return tmp_path


def state(where: Path) -> list[tuple[str, str]]:
    return sorted(
        (p.name, "old" if p.read_bytes() == b"old" else "new")
        for p in where.iterdir()
        if "promoted" in p.name or p.name.startswith(".")
    )


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("at", [1, 2], ids=["between-the-renames", "after-the-last-rename"])
def test_a_signal_during_the_commit_lets_it_finish_and_says_so(outputs, sig, at):
    """What this guards against: 31 of 40 such runs printed 'interrupted' and exit 130
    ("nothing is written") with both outputs written, and 6 left a .promote-old backup."""
    done = drive(
        ["convert", "a.npy", "b.npy", "-p", "jax", "--force"], "replace", at, sig, cwd=outputs
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "promote: interrupted after writing a.promoted.npy, b.promoted.npy, complete\n"
    )
    assert "a.promoted.npy" in done.stdout  # the report was printed too
    assert state(outputs) == [("a.promoted.npy", "new"), ("b.promoted.npy", "new")]
    assert np.load(outputs / "a.promoted.npy").dtype == np.float32


def test_a_signal_while_the_commit_keeps_backups_stops_it_with_nothing_changed(outputs):
    done = drive(["convert", "a.npy", "b.npy", "-p", "jax", "--force"], "link", 1, cwd=outputs)
    assert (done.returncode, done.stderr) == (130, "promote: interrupted\n")
    assert state(outputs) == [("a.promoted.npy", "old"), ("b.promoted.npy", "old")]


def test_a_second_signal_during_the_clean_up_does_not_cut_it_short(outputs):
    """The first signal while the output is written, the second as its temporary file is
    removed: the clean-up finishes, nothing is left."""
    code = DRIVER.format(patch="unlink", at=1, sig="SIGINT", prelude="").replace(
        "from promote_cli.entry import main",
        "from promote_cli.entry import main\n"
        "from promote_cli import atomic\n"
        "real_write = atomic.write_all\n"
        "def first(fd, data):\n"
        "    real_write(fd, data)\n"
        "    os.kill(os.getpid(), SIGNAL)\n"
        "atomic.write_all = first",
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "table", "-t", "f2,bf", "-o", "t.md"],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=outputs,
    )
    assert (done.returncode, done.stderr) == (130, "promote: interrupted\n")
    assert not (outputs / "t.md").exists()
    assert [p for p in outputs.iterdir() if p.name.startswith(".")] == []


WEAKREF = textwrap.dedent(
    """
    import os, signal, sys, weakref

    class Thing:
        pass

    thing = Thing()

    def callback(ref):  # a KeyboardInterrupt raised here is "ignored" by Python
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10_000):
            pass

    ref = weakref.ref(thing, callback)
    sys.argv = ["promote", *sys.argv[1:]]
    from promote_cli.entry import main
    import promote_cli.api

    real = promote_cli.api.request

    def request(*args, **kwargs):
        global thing
        thing = None  # the callback runs now, in the middle of the command
        return real(*args, **kwargs)

    promote_cli.api.request = request
    main()
    """
)


@pytest.mark.parametrize(
    "args",
    [["pair", "f2", "bf", "-p", "jax"], ["convert", "a.npy", "b.npy", "-p", "jax", "--force"]],
)
def test_an_interrupt_lost_in_a_weakref_callback_is_still_reported(outputs, args):
    """What this guards against: such a SIGINT swallowed, the run completing with exit 0
    (2 of 250 runs)."""
    done = subprocess.run(
        [sys.executable, "-c", WEAKREF, *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=outputs,
    )
    assert (done.returncode, done.stderr) == (130, "promote: interrupted\n")
    assert state(outputs) == [("a.promoted.npy", "old"), ("b.promoted.npy", "old")]


def test_the_console_script_installs_its_handlers_before_importing_anything():
    """``import promote_cli.entry`` (the console script's import) loads promote's two small
    modules and nothing from the standard library that Python had not loaded already."""
    code = (
        "import sys; before = set(sys.modules); import promote_cli.entry;"
        " print(sorted(set(sys.modules) - before))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=ENV, capture_output=True, text=True, check=True
    )
    loaded = set(eval(done.stdout)) - {"_signal"}  # (Python may have loaded _signal already)
    assert loaded == {
        "__future__",  # for promote_cli.errors, after the handlers are in place
        "promote_cli",
        "promote_cli.entry",
        "promote_cli.errors",
        "promote_cli.interrupts",
    }


def test_a_run_started_with_sigint_ignored_keeps_ignoring_it(tmp_path):
    """A shell starts a background job with SIGINT ignored (Ctrl-C at the terminal is not for
    it); promote leaves it so, as Python does, and still handles SIGTERM."""
    case = table_case(tmp_path)
    out = next(iter(case.outputs))

    def run(sig: int) -> subprocess.CompletedProcess[str]:
        # SIGINT ignored, then promote exec'd in the same process (an ignored signal stays
        # ignored across exec); not preexec_fn, which forks a worker whose threads (JAX's) may
        # hold locks the child then waits on.
        command = [*promote_command(), *case.args]
        start = (
            "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN);"
            " os.execv(sys.argv[1], sys.argv[1:])"
        )
        proc = subprocess.Popen(
            [sys.executable, "-c", start, *command],
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        while proc.poll() is None and not handled(proc.pid):  # its SIGTERM handler is in place
            time.sleep(0.002)
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=120)
        return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)

    done = run(signal.SIGINT)
    assert (done.returncode, done.stderr) == (0, "")
    assert case.complete(out)  # type: ignore[operator]
    out.write_bytes(b"old table\n")
    done = run(signal.SIGTERM)
    assert (done.returncode, done.stderr) == (130, "promote: interrupted\n")
    assert out.read_bytes() == b"old table\n"


def test_importing_promote_installs_no_handler():
    code = (
        "import signal, promote_cli.cli, promote_cli.atomic;"
        " print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)"
    )
    done = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True)
    assert done.stdout == "True\n", done.stderr


def test_a_signal_during_promote_tables_changes_nothing_or_everything(tmp_path):
    """The set is one commit: a signal amid its renames lets it finish (every file written,
    and said so); one while it keeps backups changes nothing. (Two policies' set, to be quick.)"""
    few = "import promote_cli.frameworks as f; f.FRAMEWORKS = ('jax', 'numpy')"
    directory = tmp_path / "t"
    done = drive(["tables", str(directory)], "replace", 3, "SIGTERM", prelude=few)
    assert done.returncode == 0, done.stderr
    summary, said = done.stderr.splitlines()  # its report, then the interruption
    files = int(re.search(r": (\d+) written, 0 unchanged$", summary).group(1))
    pattern = rf"promote: interrupted after writing .* and {files - 2} more files, complete"
    assert re.fullmatch(pattern, said), said
    written = {p: p.read_bytes() for p in directory.rglob("*") if p.is_file()}
    assert len(written) > 20 and not [p for p in directory.rglob(".*")]
    for path in directory.rglob("*.md"):
        path.write_text(path.read_text() + "edited\n")
    edited = {p: p.read_bytes() for p in directory.rglob("*") if p.is_file()}
    done = drive(["tables", str(directory)], "link", 2, prelude=few)
    assert (done.returncode, done.stderr) == (130, "promote: interrupted\n")
    assert {p: p.read_bytes() for p in directory.rglob("*") if p.is_file()} == edited
    assert not [p for p in directory.rglob(".*")]
