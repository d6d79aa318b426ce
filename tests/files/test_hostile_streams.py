"""Standard output and standard error closed (``>&-``, ``2>&-``) or full (``/dev/full``), in
real processes: a closed or full stdout is one line and exit 2; a closed or full stderr leaves
the answer's own exit code (0, 1 refused, 2 bad input), and nothing reaches a file promote
opens through a descriptor the caller closed. Also what running out of memory or threads,
or a package that cannot be imported, is: one line and exit 2 saying so, never exit 3."""

from __future__ import annotations

import ast
import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from promote_cli.cli import cli

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
FULL = "/dev/full"
needs_full = pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full")

# pair and op end through the console script's quick exit (entry.ANSWER_ONLY); table, expr
# and the refusals the ordinary way.
# a policy named: the default's note (docs/guide/policies.md) is not what these test
ANSWERS = [
    (["pair", "int8", "uint8", "-p", "jax"], 0),
    (["pair", "int8", "uint8", "-p", "jax", "--json"], 0),
    (["op", "add", "int8", "uint8", "-p", "numpy"], 0),
    (["pair", "u16", "f32", "-p", "ascend"], 1),
    (["table", "-p", "numpy", "--types", "int8,uint8"], 0),
]
BAD = [["pair", "bogus", "int8"], ["table", "-p", "bogus"], ["expr", "x is y", "x=int8"]]


def run(args, *, close=(), stdout=subprocess.PIPE, stderr=subprocess.PIPE):
    def closing() -> None:
        for fd in close:
            os.close(fd)

    return subprocess.run(
        [sys.executable, "-m", "promote_cli", *args],
        env=ENV,
        stdout=stdout,
        stderr=stderr,
        text=True,
        timeout=120,
        preexec_fn=closing,
    )


@pytest.mark.parametrize(("args", "code"), ANSWERS)
def test_a_closed_stdout_is_one_line_and_exit_2_whichever_way_the_command_ends(args, code):
    done = run(args, close=(1,), stdout=None)
    assert done.returncode == 2, done.stderr
    assert done.stderr == "promote: error: cannot write to standard output: it is closed\n"


@pytest.mark.parametrize(("args", "code"), ANSWERS)
def test_a_closed_stderr_leaves_the_answers_exit_code(args, code):
    done = run(args, close=(2,), stderr=None)
    assert done.returncode == code
    assert done.stdout


@pytest.mark.parametrize("args", BAD)
def test_a_closed_or_full_stderr_leaves_bad_inputs_exit_2(args):
    assert run(args, close=(2,), stderr=None).returncode == 2
    if os.path.exists(FULL):
        with open(FULL, "w") as full:
            assert run(args, stderr=full).returncode == 2


@needs_full
@pytest.mark.parametrize(("args", "code"), ANSWERS[:4])
def test_a_full_stderr_leaves_the_answers_exit_code_and_a_full_stdout_is_exit_2(args, code):
    with open(FULL, "w") as full:
        quiet = run(args, stderr=full)
        loud = run(args, stdout=full)
    assert (quiet.returncode, bool(quiet.stdout)) == (code, True)
    assert loud.returncode == 2
    assert loud.stderr == (
        "promote: error: cannot write to standard output (No space left on device)\n"
    )


def test_both_closed_is_exit_2_and_silent():
    done = run(ANSWERS[0][0], close=(1, 2), stdout=None, stderr=None)
    assert done.returncode == 2


def test_a_descriptor_the_caller_closed_is_never_a_file_promote_opens(tmp_path):
    # With stdout and stderr closed, the first files promote opens would get descriptors 1
    # and 2, and whatever writes to them (a C library's printf, its warnings) would land in
    # a user's file: the console script holds 0, 1 and 2 open on /dev/null, for reading.
    code = (
        "import os, sys; from promote_cli import entry\n"
        "entry._hold_standard_descriptors()\n"
        "fds = [os.open(p, os.O_WRONLY | os.O_CREAT) for p in sys.argv[1:]]\n"
        "try:\n"
        "    os.write(1, b'spilled')\n"
        "except OSError as exc:\n"
        "    fds.append(exc.errno)\n"
        "os.write(fds[0], repr(fds).encode())\n"
    )
    first, second = tmp_path / "a", tmp_path / "b"
    done = subprocess.run(
        [sys.executable, "-c", code, str(first), str(second)],
        env=ENV,
        timeout=120,
        preexec_fn=lambda: (os.close(1), os.close(2)),
    )
    assert done.returncode == 0
    opened = ast.literal_eval(first.read_text())  # [fd of a, fd of b, errno of the write to fd 1]
    assert opened[0] > 2 and opened[1] > 2 and opened[2] == errno.EBADF
    assert second.read_text() == ""


# --- running out ------------------------------------------------------------------------------


def _raising(monkeypatch, error: BaseException):
    """``promote pair`` raising ``error`` where it resolves its question."""

    def boom(*args, **kwargs):
        raise error

    monkeypatch.setattr("promote_cli.api.request", boom)


def _import_error_from(cause: BaseException) -> ImportError:
    try:
        try:
            raise cause
        except BaseException as exc:
            raise ImportError("\n\nIMPORTANT: PLEASE READ THIS FOR ADVICE\n") from exc
    except ImportError as made:
        return made


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (MemoryError(), "promote: error: ran out of memory (MemoryError)"),
        (
            RuntimeError("can't start new thread"),
            "promote: error: ran out of threads (RuntimeError: can't start new thread)",
        ),
        (
            _import_error_from(ImportError("libopenblas.so: failed to map segment from shared")),
            "promote: error: ran out of memory (ImportError: libopenblas.so: failed to map"
            " segment from shared)",
        ),
        (
            ModuleNotFoundError("No module named 'numpy._core'", name="numpy._core"),
            "promote: error: cannot import numpy._core: ModuleNotFoundError: No module named"
            " 'numpy._core'",
        ),
    ],
)
def test_running_out_or_a_broken_package_is_one_line_and_exit_2(monkeypatch, error, line):
    _raising(monkeypatch, error)
    done = CliRunner().invoke(cli, ["pair", "int8", "uint8"])
    assert done.exit_code == 2, done.stderr
    assert done.stderr.splitlines() == [line + (
        ": raise the limit (ulimit -v, ulimit -u) or free some, and run again"
        if "ran out" in line else ""
    )]  # fmt: skip


def test_promotes_own_import_error_is_still_its_bug(monkeypatch):
    _raising(monkeypatch, ModuleNotFoundError("No module", name="promote_cli.nosuch"))
    done = CliRunner().invoke(cli, ["pair", "int8", "uint8"])
    assert done.exit_code == 3 and "internal error" in done.stderr
