"""``promote convert`` under interruption: SIGKILL, Ctrl-C and SIGTERM mid-write, a full disk
(RLIMIT_FSIZE), a failing write, an exception. The final name holds nothing or a complete,
valid file; no temporary file is left (except after SIGKILL); the inputs are untouched."""

from __future__ import annotations

import errno
import hashlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from promote_cli import atomic, npy
from promote_cli.errors import BadInputError

ROOT = Path(__file__).resolve().parents[2]
BIG = 48 * 1024 * 1024  # float16 elements: a 96 MiB input, a 192 MiB output


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Iterator[tuple[Path, Path, str]]:
    """A large float16 input, a small float32 one (JAX: f2 x f4 -> f4), and a digest of both."""
    where = tmp_path_factory.mktemp("inputs")
    a, b = where / "a.npy", where / "b.npy"
    np.save(a, (np.arange(BIG) % 2048).astype(np.float16))
    np.save(b, np.arange(3, dtype=np.float32))
    yield a, b, _digest(a, b)
    a.unlink()  # pytest keeps recent temporary directories: do not keep 100 MB in them


def _digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            while chunk := f.read(1 << 22):
                h.update(chunk)
    return h.hexdigest()


def _temps(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".promote-tmp"))


def _start(args: list[str], **kwargs) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "promote_cli", "convert", *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def _written(pid: int) -> int:
    """Bytes the process has passed to write() (its output is preallocated, so the file's size
    says nothing about progress)."""
    with open(f"/proc/{pid}/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("wchar:"))


def _wait_for_writing(proc: subprocess.Popen, timeout: float = 30) -> bool:
    """True once the process has written 8 MiB of data, False if it ended first."""
    if not os.path.exists(f"/proc/{proc.pid}/io"):
        proc.kill()
        pytest.skip("needs /proc/PID/io to see a conversion's progress")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if _written(proc.pid) >= 8 << 20:
                return proc.poll() is None
        except (FileNotFoundError, ProcessLookupError, StopIteration):
            return False
        if proc.poll() is not None:
            return False
        time.sleep(0.0005)
    raise AssertionError("promote convert neither wrote nor ended")


def test_sigkill_mid_write_leaves_old_or_complete_file(big, tmp_path):
    a, b, digest = big
    out = tmp_path / "out"
    out.mkdir()
    old = np.arange(5, dtype=np.float64)
    killed_mid_write = 0
    for _ in range(4):
        np.save(out / "a.npy", old)  # a previous result that --force will replace
        (out / "b.npy").unlink(missing_ok=True)
        proc = _start([a, b, "-o", out, "--force"])
        if _wait_for_writing(proc):
            proc.send_signal(signal.SIGKILL)
            killed_mid_write += 1
        proc.wait()
        final = np.load(out / "a.npy")
        if final.dtype == old.dtype:
            assert np.array_equal(final, old)
        else:  # the new file, complete
            assert final.dtype == np.float32 and final.shape == (BIG,)
            assert np.array_equal(final[-2048:], np.arange(2048, dtype=np.float32))
        for name in _temps(out):  # SIGKILL leaves its temporary file: hidden, named as such
            assert name.startswith((".a.npy.", ".b.npy."))
            (out / name).unlink()
        if killed_mid_write >= 2:
            break
    assert killed_mid_write, "never caught the process mid-write; make the input bigger"
    assert _digest(a, b) == digest
    (out / "a.npy").unlink()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_interrupt_mid_write_cleans_up(big, tmp_path, sig):
    a, b, digest = big
    proc = _start([a, b, "-o", tmp_path])
    if not _wait_for_writing(proc):
        pytest.skip("the conversion finished before it could be interrupted")
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == "promote: interrupted"
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert _digest(a, b) == digest


def _fsize_limit(limit: int):
    def apply() -> None:
        import resource

        # Ignored, exceeding the limit makes write() fail with EFBIG instead of killing us.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_full_disk_on_the_first_output_leaves_nothing(big, tmp_path):
    a, b, digest = big
    proc = _start([a, b, "-o", tmp_path], preexec_fn=_fsize_limit(8 << 20))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert err.count("\n") == 1 and "cannot write" in err and "a.npy" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert _digest(a, b) == digest


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_disk_full_second_output_discards_the_first(tmp_path):
    small = tmp_path / "small.npy"
    large = tmp_path / "large.npy"
    np.save(small, np.arange(1000, dtype=np.float16))  # 4 kB as float32: fits
    np.save(large, np.zeros(4 << 20, np.float32))  # 16 MiB: does not
    out = tmp_path / "out"
    out.mkdir()
    proc = _start([small, large, "-o", out], preexec_fn=_fsize_limit(8 << 20))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert "cannot write" in err and "large.npy" in err
    assert sorted(p.name for p in out.iterdir()) == []


def _jobs(tmp_path: Path, n: int = 1 << 20) -> list[npy.Job]:
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.arange(n, dtype=np.int32))
    np.save(b, np.zeros(3, np.float16))
    sources = []
    for p in (a, b):
        h = npy.read_header(p)
        sources.append(npy.Source(h, h.dtype))
    return npy.plan(
        sources, "float64", [tmp_path / "x.npy", tmp_path / "y.npy"], skip_unchanged=False
    )


def test_a_write_failing_in_the_writer_thread_leaves_nothing(tmp_path, monkeypatch):
    jobs = _jobs(tmp_path)
    real, calls = atomic.write_all, []

    def flaky(fd, data):
        calls.append(len(data))
        if len(calls) == 4:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    monkeypatch.setattr(atomic, "write_all", flaky)
    with pytest.raises(BadInputError, match=r"cannot write .*x\.npy: No space left on device"):
        npy.execute(jobs, chunk_bytes=64 << 10)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_an_exception_mid_stream_leaves_nothing(tmp_path, error):
    jobs = _jobs(tmp_path)
    seen = []

    def progress(n: int) -> None:
        seen.append(n)
        if len(seen) == 3:
            raise error

    with pytest.raises(type(error)):
        npy.execute(jobs, progress=progress, chunk_bytes=64 << 10)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]


def test_strict_failure_leaves_no_temporary_files(tmp_path):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.array([2**60 + 1], np.int64))
    np.save(b, np.zeros(2, np.float64))
    jobs = [
        npy.Job(
            npy.read_header(p),
            np.dtype(t),
            np.dtype(np.float64),
            tmp_path / f"{p.stem}.o",
            npy.CONVERT if t == "int64" else npy.COPY,
        )
        for p, t in ((a, "int64"), (b, "float64"))
    ]
    done = npy.execute(jobs, strict=True)
    assert done.strict_refused and not done.written and done.changes[0].counts["rounded"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]
