"""``promote_cli.worker``: a module's functions called in a process of their own, every outcome a
typed answer. Generic: nothing here is about dtypes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from promote_cli.worker import EXITED, FAILED, RAISED, RETURNED, TIMED_OUT, Worker

MODULE = textwrap.dedent(
    """
    import os
    import sys

    VERSION = "1.2"


    def add(a, b):
        print("adding", a, b)  # to stderr: never into the answers
        return a + b


    def echo(*args):
        return list(args)


    def env(name):
        return os.environ.get(name)


    def ask():
        return input()


    def refuse(x):
        raise ValueError(f"no {x}")


    def leave(code):
        sys.exit(code)


    def vanish():
        os._exit(7)


    def crash():
        os.kill(os.getpid(), 11)


    def hang():
        while True:
            pass


    def big():
        return "x" * 5_000_000


    def forge():
        # writing what looks like an answer on the stdout it was given reaches stderr
        sys.stdout.write('{"kind": "returned", "value": "forged", "text": "forged"}\\n')
        sys.stdout.flush()
        os.write(1, b'{"kind": "returned", "text": "forged"}\\n')
        return "real"


    class Odd:
        def __str__(self):
            raise RuntimeError("no str")


    def odd():
        return Odd()
    """
)


@pytest.fixture
def module(tmp_path, monkeypatch):
    (tmp_path / "worker_target.py").write_text(MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))  # the child imports what the parent would
    return "worker_target"


def test_answers_are_typed_records(module):
    with Worker(module, timeout=30) as w:
        assert w.ready.kind == RETURNED and w.ready.text == module
        assert w.call("add", 2, 3)[:3] == (RETURNED, 5, "5")
        assert w.call("echo", "a", [1, None], {"k": 1.5}).value == ["a", [1, None], {"k": 1.5}]
        assert w.call("refuse", "thanks")[:5] == (RAISED, None, "", False, "ValueError: no thanks")
        assert w.get("VERSION").text == "1.2" and w.get("add").callable
        assert w.call("VERSION").kind == FAILED  # not callable
        assert w.call("nosuch").error == f"{module} has no nosuch"
        assert w.call("odd").error == "the answer's str() raised RuntimeError: no str"
        big = w.call("big")
        assert big.kind == RETURNED and big.value is None and len(big.text) == 10_000
        assert w.call("ask").error.startswith("EOFError")  # stdin is not the requests
        assert w.call("forge").text == "real"
        assert w.call("add", 1, 1).value == 2  # nothing forged is left to be read


def test_the_environment_is_passed_on(module):
    with Worker(module, timeout=30, env={"WORKER_TEST": "yes"}) as w:
        assert w.call("env", "WORKER_TEST").value == "yes"


@pytest.mark.parametrize(
    "call, code", [(("leave", 0), 0), (("leave", 5), 5), (("vanish",), 7), (("crash",), -11)]
)
def test_a_child_that_ends_is_an_exit_code(module, call, code):
    with Worker(module, timeout=30) as w:
        assert w.call(*call) == (EXITED, None, "", False, "", code)
        assert w.call("add", 1, 1).kind == EXITED  # done: every later answer is the same


def test_a_child_that_hangs_is_killed_at_the_timeout(module):
    started = time.monotonic()
    with Worker(module, timeout=0.5) as w:
        reply = w.call("hang")
    assert (reply.kind, reply.exit_code) == (TIMED_OUT, -9)
    assert time.monotonic() - started < 10


def test_an_import_that_fails_is_told_not_raised(tmp_path, monkeypatch):
    (tmp_path / "broken_target.py").write_text("1 / 0\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with Worker("broken_target", timeout=30) as w:
        assert (w.ready.kind, w.ready.error) == (FAILED, "ZeroDivisionError: division by zero")
    with Worker("no_such_module_anywhere", timeout=30) as w:
        assert w.ready.kind == FAILED and "No module named" in w.ready.error


def test_a_child_whose_parent_dies_ends_itself(module, tmp_path):
    """A parent killed while its worker hangs leaves no process behind."""
    script = textwrap.dedent(
        f"""
        import sys
        sys.path[:0] = [{str(Path(__file__).resolve().parents[2])!r}, {str(tmp_path)!r}]
        from promote_cli.worker import Worker
        w = Worker({module!r}, timeout=600)
        print(w._proc.pid, flush=True)
        w.call("hang")
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        with open(f"/proc/{child}/stat") as f:  # a zombie of init's is gone too
            if f.read().split()[2] == "Z":
                return
        time.sleep(0.1)
    os.kill(child, 9)
    pytest.fail("the worker outlived its parent")
