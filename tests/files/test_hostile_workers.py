"""A worker is untrusted (``verify --python W``, ``measure --python W``, a framework's own
worker, ``--oracle``): whatever it prints, however long, whenever it dies or hangs, promote
says so in one bounded line, with exit 1 (the framework failed: a crash, a hang) or 2 (W is
not a usable interpreter), never 3.

The parent's side is fuzzed without processes (Hypothesis over the lines a child writes and
the records it answers); a fake interpreter ``W``, which passes promote's probe and then
misbehaves, is run for real a few times.
"""

from __future__ import annotations

import io
import os
import queue
import stat
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promote_cli import worker
from promote_cli.cli import cli
from promote_cli.rules import D
from promote_cli.verify.protocol import PAIR, Question
from promote_cli.verify.workers import (
    SAID,
    Child,
    FrameworkFailed,
    UnusableInterpreter,
    WorkerFailed,
)
from promote_cli.worker import FAILED, Reply

FUZZ = settings(
    derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
cell_records = st.one_of(
    st.sampled_from(["int8", "float32", ["refused", "no"], ["gap", "no kernel", "int8"],
                     ["rebound", "int16"], ["unobservable", "?"], ["nodes", ["int8", None]]]),
    json_values,
)  # fmt: skip


class _Pipe:
    """What ``Worker._read`` reads from: the child's stdout, killable."""

    def __init__(self, data: bytes) -> None:
        self.stdout = io.BytesIO(data)
        self.killed = False

    def kill(self) -> None:
        self.killed = True


@settings(FUZZ, max_examples=100)
@given(
    lines=st.lists(
        st.binary(max_size=40)
        | json_values.map(lambda v: worker.json.dumps(v).encode())
        | st.sampled_from([b"[" * 5000 + b"]" * 5000, b"\xff\xfe{", b"NaN", b'{"kind": 7}']),
        max_size=5,
    )
)
def test_fuzz_whatever_a_child_writes_is_read_as_records_or_failures(lines):
    reader = worker.Worker.__new__(worker.Worker)
    reader._proc = _Pipe(b"\n".join(lines) + b"\n")  # type: ignore[assignment]
    reader._records = queue.Queue()
    reader._read()
    got = []
    while (record := reader._records.get_nowait()) is not None:
        got.append(worker._reply(record))
    assert all(isinstance(r, Reply) for r in got)
    assert all(len(r.text) <= worker.MAX_TEXT and len(r.error) <= worker.MAX_TEXT for r in got)


def test_a_line_longer_than_any_answer_ends_the_child():
    reader = worker.Worker.__new__(worker.Worker)
    reader._proc = _Pipe(b"x" * (worker.MAX_RECORD + 10) + b"\n")  # type: ignore[assignment]
    reader._records = queue.Queue()
    reader._read()
    assert reader._records.get_nowait() == {"kind": FAILED, "error": "an answer too long to read"}
    assert reader._proc.killed  # type: ignore[attr-defined]


class _Replies:
    """A worker that answers each call with the next reply given."""

    timeout = 5.0

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)

    def call(self, name: str, *args: object) -> Reply:
        return self.replies.pop(0) if self.replies else Reply("exited", exit_code=0)

    def close(self) -> None:
        pass


def _child(replies: list[Reply], python: str | None) -> Child:
    child = Child.__new__(Child)
    child.name, child.python, child.log = "W's numpy", python, "/nonexistent/promote-log"
    child.worker = _Replies(replies)  # type: ignore[assignment]
    return child


QUESTIONS = [Question(PAIR, (D("int8"), D("uint8")))] * 3

replies = st.builds(
    Reply,
    kind=st.sampled_from(["returned", "raised", "failed", "exited", "timed-out"]),
    value=st.one_of(st.lists(cell_records, max_size=5), json_values),
    text=st.text(max_size=10),
    error=st.text(max_size=50) | st.just("E" * 10_000) | st.just("\x1b[31m\n" * 300),
    exit_code=st.one_of(st.none(), st.integers(-15, 5)),
)


@settings(FUZZ, max_examples=100)
@given(answers=st.lists(replies, min_size=1, max_size=4), python=st.sampled_from([None, "/W"]))
def test_fuzz_whatever_a_worker_answers_is_cells_or_one_bounded_line(answers, python):
    try:
        cells = _child(answers, python).ask({}, QUESTIONS)
    except FrameworkFailed as exc:  # a crash or a hang: exit 1
        message = str(exc)
    except UnusableInterpreter as exc:  # --python W misbehaved: exit 2
        assert python is not None
        message = str(exc)
    except WorkerFailed as exc:  # a raised record in promote's own interpreter: its bug
        assert python is None and "raised" in {a.kind for a in answers}, exc
        message = str(exc)
    else:
        assert len(cells) == len(QUESTIONS)
        return
    assert "\n" not in message and len(message) <= 2 * SAID + 200, message


# --- a fake interpreter, run for real -----------------------------------------------------------

FAKE = """
import json, os, sys, time
mode = os.environ["HOSTILE_MODE"]
out = os.fdopen(os.dup(1), "w")
def say(text):
    out.write(text + "\\n"); out.flush()
if mode == "silent":
    sys.exit(0)
for line in sys.stdin:
    request = json.loads(line)
    if request.get("call") not in ("ask", "more"):
        say(json.dumps({"kind": "returned", "value": "1.0", "text": "1.0"}))
        continue
    asked = len(request["args"][1]) if request["call"] == "ask" else 0
    if mode == "garbage":
        say("garbage")
    elif mode == "long-error":
        say(json.dumps({"kind": "raised", "error": "E" * 10000}))
    elif mode == "extra":
        say(json.dumps({"kind": "returned", "value": ["int8"] * (asked + 3)}))
    elif mode == "no-kind":
        say(json.dumps({"value": ["int8"] * asked}))
    elif mode == "crash":
        os.kill(os.getpid(), 11)
    elif mode == "hang":
        time.sleep(600)
"""


@pytest.fixture(scope="module")
def fake_python(tmp_path_factory) -> Path:
    """``W``: passes promote's probe (and its package look-ups) as the real interpreter, and
    runs the fake worker in place of promote's."""
    import sys

    where = tmp_path_factory.mktemp("fake")
    (where / "fake.py").write_text(FAKE)
    w = where / "W"
    w.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        case "$2" in
          *promote-probe*|*importlib.metadata*) exec {sys.executable} "$@";;
        esac
        exec {sys.executable} {where / "fake.py"}
        """)
    )
    w.chmod(w.stat().st_mode | stat.S_IXUSR)
    return w


def _verify(w: Path, mode: str, *extra: str):
    os.environ["HOSTILE_MODE"] = mode
    try:
        return CliRunner().invoke(cli, ["verify", "numpy", "--python", str(w), "--no-ops", *extra])
    finally:
        del os.environ["HOSTILE_MODE"]


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("silent", "its worker, starting: it ended with exit code 0"),
        ("garbage", "its worker, answering: an answer that is not a record"),
        ("no-kind", "its worker, answering: an answer of no known kind"),
        ("extra", "its worker, answering: 403 answers to 400 questions"),
        ("long-error", "its worker, answering: " + "E" * (SAID - 1) + "…"),
    ],
)
def test_an_interpreter_that_misbehaves_as_a_worker_is_exit_2_in_one_line(fake_python, mode, says):
    done = _verify(fake_python, mode)
    assert done.exit_code == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"promote: error: --python {fake_python}: not a usable interpreter: {says}"
    ]


def test_an_interpreter_whose_worker_crashes_is_the_framework_failing(fake_python):
    done = _verify(fake_python, "crash")
    assert done.exit_code == 1, done.stderr
    assert "the framework failed, not promote" in done.stdout
    assert "killed by SIGSEGV" in done.stdout


@pytest.mark.parametrize("command", ["verify", "measure"])
def test_timeout_bounds_every_worker_without_oracle(fake_python, tmp_path, command):
    os.environ["HOSTILE_MODE"] = "hang"
    started = time.monotonic()
    try:
        into = ["--no-ops"] if command == "verify" else ["--into", str(tmp_path)]
        args = [command, "numpy", "--python", str(fake_python), "--timeout", "1", *into]
        done = CliRunner().invoke(cli, args)
    finally:
        del os.environ["HOSTILE_MODE"]
    assert time.monotonic() - started < 60
    assert done.exit_code == 1, done.stderr
    assert "no answer within 1 s (--timeout SECONDS allows more)" in done.stdout
    assert list(tmp_path.iterdir()) == []  # measure wrote nothing
