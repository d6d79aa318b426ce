"""Every file promote touches, under hostile conditions: each test performs one
attack, in a temporary directory, and checks that nothing is replaced, lost or hung, and that
the user gets one line and exit 2 (or 130).

Some attacks need root (``mknod``, ``chattr +i``, ``mount --bind``), as CI jobs and containers
run; those tests skip elsewhere. No test touches a system path: devices are made with
``mknod`` inside the temporary directory, and ``/proc/self/fd/N`` names this process's own
pipes and files.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import stat
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from numpy.lib import format as npformat

from promote_cli import npy, targets
from promote_cli.errors import BadInputError

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))

root_only = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="the attack needs root"
)


@pytest.fixture
def run(run):
    """The CLI in-process, with paths given as they are typed (click parses strings)."""
    return lambda *args, **kwargs: run(*map(str, args), **kwargs)


def save(path: Path, array) -> Path:
    np.save(path, array)
    return path


def pair(tmp_path: Path) -> tuple[Path, Path]:
    """A float16 and a float32 input (JAX: f2 x f4 -> f4)."""
    return (
        save(tmp_path / "a.npy", np.arange(5, dtype=np.float16)),
        save(tmp_path / "b.npy", np.arange(3, dtype=np.float32)),
    )


def one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


def hidden(directory: Path) -> list[str]:
    """Temporary files (promote's are hidden: ``.NAME.XXXX.promote-tmp``)."""
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


def promote(*args, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """promote as a real process (a hang fails the test at ``timeout``, it does not hang it)."""
    return subprocess.run(
        [sys.executable, "-m", "promote_cli", *map(str, args)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )


def table_text(run, *args: str) -> str:
    result = run("table", *args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def mknod_null(path: Path) -> None:
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # what /dev/null is


# --- 1. an existing non-regular output is written into, or refused; never replaced ---------


@root_only
def test_table_o_writes_into_a_character_device_and_leaves_it_a_device(run, tmp_path):
    dev = tmp_path / "mynull"
    mknod_null(dev)
    result = run("table", "-t", "f2,bf", "-f", "markdown", "-o", str(dev))
    assert result.exit_code == 0, result.stderr
    st = os.lstat(dev)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert hidden(tmp_path) == []


def test_table_o_writes_into_a_fifo_for_its_reader(run, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run("table", "-t", "f2,bf", "-f", "markdown", "-o", str(fifo))
    reader.join(30)
    assert result.exit_code == 0, result.stderr
    assert got == [table_text(run, "-t", "f2,bf", "-f", "markdown").encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_table_o_through_a_proc_fd_link_writes_into_the_open_pipe(run, tmp_path):
    r, w = os.pipe()
    link = tmp_path / "stdout"
    link.symlink_to(f"/proc/self/fd/{w}")  # /dev/stdout is such a link
    try:
        result = run("table", "-t", "f2,bf", "-f", "csv", "-o", str(link))
        os.close(w)
        with os.fdopen(r, "rb") as f:
            written = f.read()
    finally:
        with contextlib.suppress(OSError):
            os.close(w)
    assert result.exit_code == 0, result.stderr
    assert written == table_text(run, "-t", "f2,bf", "-f", "csv").encode()
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["stdout"]


def test_table_o_through_a_proc_fd_link_appends_to_the_redirected_file(run, tmp_path):
    log = tmp_path / "log.txt"
    log.write_bytes(b"earlier output\n")
    inode = log.stat().st_ino
    link = tmp_path / "stdout"
    with open(log, "ab") as f:  # as `promote table -o /dev/stdout >> log.txt` runs
        link.symlink_to(f"/proc/self/fd/{f.fileno()}")
        result = run("table", "-t", "f2,bf", "-f", "csv", "-o", str(link))
    assert result.exit_code == 0, result.stderr
    text = table_text(run, "-t", "f2,bf", "-f", "csv")
    assert log.read_bytes() == b"earlier output\n" + text.encode()
    assert log.stat().st_ino == inode and link.is_symlink()


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _proc_fd_link(path: Path) -> None:
    path.symlink_to(f"/proc/self/fd/{sys.stderr.fileno()}")  # promote's own stderr


@pytest.mark.parametrize(
    "make",
    [
        _fifo,
        _proc_fd_link,
        pytest.param(mknod_null, marks=root_only, id="char-device"),
    ],
    ids=["fifo", "proc-fd-link", "char-device"],
)
def test_convert_refuses_a_non_regular_output_even_with_force(run, tmp_path, make):
    a, b = pair(tmp_path)
    out = tmp_path / "special"
    make(out)
    before = os.lstat(out)
    result = run("convert", a, b, "--out-a", out, "--force")
    assert result.exit_code == 2
    assert "cannot write" in one_line(result.stderr) and "special" in result.stderr
    after = os.lstat(out)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert not (tmp_path / "b.promoted.npy").exists() and hidden(tmp_path) == []


# --- 2. both outputs of convert, or neither -------------------------------------------------


@root_only
def test_force_replaces_both_outputs_or_neither_when_the_second_cannot_be_replaced(run, tmp_path):
    a, b = pair(tmp_path)
    out_a, out_b = tmp_path / "old_a.npy", tmp_path / "old_b.npy"
    out_a.write_bytes(b"old a")
    out_b.write_bytes(b"old b")
    subprocess.run(["chattr", "+i", out_b], check=True)
    try:
        result = run("convert", a, b, "--out-a", out_a, "--out-b", out_b, "--force")
    finally:
        subprocess.run(["chattr", "-i", out_b], check=True)
    assert result.exit_code == 2
    assert "nothing was written" in one_line(result.stderr)
    assert out_a.read_bytes() == b"old a" and out_b.read_bytes() == b"old b"
    assert hidden(tmp_path) == []


def test_a_failed_second_rename_removes_the_first_new_output(tmp_path, monkeypatch):
    """The same commit without root: the second rename fails (as on a read-only target)."""
    a, b = pair(tmp_path)
    jobs = plan_jobs([a, b], [tmp_path / "x.npy", tmp_path / "y.npy"])
    real, calls = os.replace, []

    def second_fails(src, dst, **kwargs):
        calls.append(dst)
        if len(calls) == 2:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", second_fails)
    with pytest.raises(BadInputError, match=r"y\.npy: Permission denied; nothing was written"):
        npy.execute(jobs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]


def plan_jobs(inputs: list[Path], outs: list[Path]) -> list[npy.Job]:
    sources = []
    for p in inputs:
        h = npy.read_header(p)
        sources.append(npy.Source(h, h.dtype))
    return npy.plan(sources, "float32", outs, skip_unchanged=False)


# --- 3. two outputs that are one file under two names ---------------------------------------


@contextlib.contextmanager
def bind_mount(source: Path, where: Path):
    done = subprocess.run(["mount", "--bind", source, where], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mount --bind is not permitted here: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", where], check=True)


@root_only
@pytest.mark.parametrize("existing", [False, True], ids=["new-outputs", "existing-outputs"])
def test_two_outputs_that_are_one_file_through_a_bind_mount_are_refused(run, tmp_path, existing):
    a, b = pair(tmp_path)
    real, alias = tmp_path / "real", tmp_path / "alias"
    real.mkdir()
    alias.mkdir()
    if existing:
        (real / "x.npy").write_bytes(b"precious")
    with bind_mount(real, alias):
        result = run(
            "convert", a, b, "--out-a", real / "x.npy", "--out-b", alias / "x.npy", "--force"
        )
    assert result.exit_code == 2
    assert "one file" in one_line(result.stderr)
    assert [p.name for p in real.iterdir()] == (["x.npy"] if existing else [])
    if existing:
        assert (real / "x.npy").read_bytes() == b"precious"


def test_two_outputs_that_are_hard_links_of_one_file_are_refused(run, tmp_path):
    a, b = pair(tmp_path)
    first, second = tmp_path / "x.npy", tmp_path / "y.npy"
    first.write_bytes(b"precious")
    os.link(first, second)
    result = run("convert", a, b, "--out-a", first, "--out-b", second, "--force")
    assert result.exit_code == 2 and "one file" in one_line(result.stderr)
    assert first.read_bytes() == b"precious"


# --- 4. a user's template is sandboxed ------------------------------------------------------


def template(tmp_path: Path, text: str | bytes, name: str = "t.md.j2") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode()
    path.write_bytes(text)
    return path


@pytest.mark.parametrize(
    "code",
    [
        "{{ lipsum.__globals__['os'].popen('touch MARK').read() }}",
        "{{ table.to_dict.__globals__['io'].open('MARK', 'w').close() }}",
        "{{ table.to_dict.__globals__['__builtins__']['open']('MARK', 'w') }}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ cycler.__init__.__globals__.os.popen('touch MARK').read() }}",
    ],
    ids=["lipsum-globals", "model-globals", "method-builtins", "subclasses", "cycler"],
)
def test_a_template_cannot_run_code_or_reach_python(run, tmp_path, monkeypatch, code):
    monkeypatch.chdir(tmp_path)
    result = run("table", "-t", "f2,bf", "--template", str(template(tmp_path, code)))
    assert result.exit_code == 2
    assert one_line(result.stderr).startswith("promote: error: template ")
    assert not (tmp_path / "MARK").exists()


def test_a_template_cannot_include_a_file_beside_it(run, tmp_path):
    (tmp_path / "secret.txt").write_text("TOP SECRET\n")
    t = template(tmp_path, "{% include 'secret.txt' %}")
    result = run("table", "-t", "f2,bf", "--template", str(t))
    assert result.exit_code == 2 and "may not include" in one_line(result.stderr)
    assert "TOP SECRET" not in result.stdout + result.stderr


def test_a_symlinked_template_renders_its_target_not_a_namesake_beside_it(run, tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "real.md.j2").write_text("RIGHT {{ table.policy }}\n")
    (tmp_path / "lib" / "t.md.j2").write_text("WRONG\n")  # the link's name, in the target's dir
    (tmp_path / "t.md.j2").symlink_to(tmp_path / "lib" / "real.md.j2")
    result = run("table", "-t", "f2,bf", "--template", str(tmp_path / "t.md.j2"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "RIGHT jax\n"


@pytest.mark.parametrize(
    "text, words",
    [
        ("{{ 1/0 }}", "ZeroDivisionError"),
        ("{% include 'missing.j2' %}", "may not include"),
        (b"caf\xe9 {{ table.policy }}", "not UTF-8"),
        ("{{ table.rows[99] }}", "has no element 99"),
        ("{{ (table.rows | list).append(1) }}", "SecurityError"),
    ],
    ids=["zero-division", "missing-include", "not-utf8", "index", "mutation"],
)
def test_a_failing_template_is_one_line_and_exit_2(run, tmp_path, text, words):
    result = run("table", "-t", "f2,bf", "--template", str(template(tmp_path, text)))
    assert result.exit_code == 2
    assert words in one_line(result.stderr), result.stderr


def test_a_template_still_sees_the_whole_model(run, tmp_path):
    t = template(
        tmp_path,
        "{{ table.policy }} {{ table.rows | length }} {{ standalone }}"
        " {{ table.rows[0].cells | selectattr('differs') | list | length }}\n",
    )
    result = run("table", "-t", "f2,bf", "--template", str(t))
    assert result.exit_code == 0, result.stderr
    # The f2 row: f2 x f2 is f2 for NumPy too; f2 x bf differs (NumPy has no bfloat16).
    assert result.stdout == "jax 2 False 1\n"


# --- 5. reads never hang or fill the memory ------------------------------------------------


def _limit_memory():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.mark.parametrize("check", [False, True], ids=["tables", "tables-check"])
def test_a_fifo_in_the_tables_directory_neither_hangs_nor_is_replaced(run, tmp_path, check):
    assert run("tables", tmp_path).exit_code == 0  # the set, in-process; the attack runs apart
    os.unlink(tmp_path / "jax.md")
    os.mkfifo(tmp_path / "jax.md")
    done = promote("tables", tmp_path, *(["--check"] if check else []), timeout=60)
    assert done.returncode == 2
    assert "is a FIFO" in one_line(done.stderr)
    assert stat.S_ISFIFO(os.lstat(tmp_path / "jax.md").st_mode)


@pytest.mark.slow
def test_a_link_to_dev_zero_in_the_tables_directory_is_refused(run, tmp_path):
    assert run("tables", tmp_path).exit_code == 0
    os.unlink(tmp_path / "jax.md")
    (tmp_path / "jax.md").symlink_to("/dev/zero")  # neither read nor written through
    done = promote("tables", tmp_path, "--check", timeout=60, preexec_fn=_limit_memory)
    assert done.returncode == 2
    assert "is a symbolic link (to /dev/zero)" in one_line(done.stderr)


@pytest.mark.slow
def test_a_huge_file_in_place_of_a_table_is_refused_unread(run, tmp_path):
    assert run("tables", tmp_path).exit_code == 0
    with open(tmp_path / "jax.md", "r+b") as f:
        f.truncate(1 << 40)  # sparse: 1 TiB
    done = promote("tables", tmp_path, "--check", timeout=60, preexec_fn=_limit_memory)
    assert done.returncode == 2
    assert "larger than" in one_line(done.stderr)


@pytest.mark.parametrize("flag", ["--check", "--template"])
def test_table_reads_no_fifo(tmp_path, flag):
    fifo = tmp_path / "t.md.j2"
    os.mkfifo(fifo)
    done = promote("table", "-t", "f2,bf", "-f", "markdown", flag, fifo, timeout=60)
    assert done.returncode == 2 and "is a FIFO" in one_line(done.stderr)


def test_a_policy_file_that_is_a_fifo_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "mine.toml")
    done = promote("pair", "f2", "bf", "-p", tmp_path / "mine.toml", timeout=60)
    assert done.returncode == 2 and "is a FIFO" in one_line(done.stderr)


# --- 6. file names are printed as typed, never as markup or terminal controls ---------------


def on_a_terminal(args: list, cwd: Path) -> tuple[int, str, str]:
    """Run promote with stdout on a pseudo-terminal 300 columns wide; (rc, stdout, stderr)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 300, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "promote_cli", *map(str, args)],
        env={**ENV, "COLUMNS": "300", "TERM": "xterm"},
        cwd=cwd,
        stdout=slave,
        stderr=subprocess.PIPE,
    )
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    _, err = proc.communicate(timeout=60)
    os.close(master)
    return proc.returncode, out.decode(), err.decode()


MARKUP_NAMES = [
    "d[/]x.npy",
    "[bold red]EVIL[/bold red].npy",
    "[link=https:evil]EVIL.npy",
    "esc\x1b]0;pwned\x07.npy",
]


def test_file_names_are_printed_as_typed_on_a_terminal(tmp_path):
    save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    for name in MARKUP_NAMES:
        (tmp_path / name).parent.mkdir(exist_ok=True)  # "d[/]x.npy": "]x.npy" in "d["
        save(tmp_path / name, np.arange(3, dtype=np.float16))
        rc, out, err = on_a_terminal(["convert", name, "b.npy", "--force"], tmp_path)
        assert rc == 0, err
        plain = re.sub(r"\x1b\[[0-9;]*m", "", out)  # rich's own colours
        shown = name.replace("\x1b", "\\x1b").replace("\x07", "\\x07")
        assert shown in plain, plain
        assert "\x1b]" not in out and "\x07" not in out
        assert (tmp_path / name.replace(".npy", ".promoted.npy")).exists()


def test_control_characters_in_names_are_escaped_in_reports_and_errors(run, tmp_path):
    a = save(tmp_path / "a\x1b[2Jb.npy", np.arange(3, dtype=np.float16))
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    result = run("convert", a, b)
    assert result.exit_code == 0 and "\x1b" not in result.stdout
    assert "a\\x1b[2Jb.npy" in result.stdout
    missing = run("convert", tmp_path / "no\nsuch\x1b[31m.npy", b)
    assert missing.exit_code == 2
    assert "no\\nsuch\\x1b[31m.npy" in one_line(missing.stderr)


# --- 7. the user's or the machine's errors are exit 2, with no temporary file left ----------


def test_an_output_name_too_long_for_the_file_system_is_exit_2(run, tmp_path):
    a, b = pair(tmp_path)
    long = tmp_path / ("x" * 300 + ".md")
    result = run("table", "-t", "f2,bf", "-o", str(long))
    assert result.exit_code == 2 and "File name too long" in one_line(result.stderr)
    result = run("convert", a, b, "--out-a", long)
    assert result.exit_code == 2 and "File name too long" in one_line(result.stderr)
    assert hidden(tmp_path) == []


def test_an_output_name_near_the_limit_still_gets_a_temporary_file(run, tmp_path):
    a, b = pair(tmp_path)
    out = tmp_path / ("y" * 250 + ".npy")  # 254 bytes: the final name fits, `.NAME.XXXX` not
    result = run("convert", a, b, "--out-a", out)
    assert result.exit_code == 0, result.stderr
    assert np.load(out).dtype == np.float32
    result = run("table", "-t", "f2,bf", "-o", str(tmp_path / ("z" * 252 + ".md")))
    assert result.exit_code == 0, result.stderr


class Failing:
    """A file whose reads fail as a dying disk's do."""

    def __init__(self, fp):
        self.fp = fp

    def __getattr__(self, name):
        return getattr(self.fp, name)

    def read(self, *args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    readinto = read

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fp.close()


def test_an_input_whose_header_fails_to_read_says_cannot_read(run, tmp_path, monkeypatch):
    """EIO while reading the header (injected: device-mapper's error target is not available
    here)."""
    from promote_cli.npy import header

    a, b = pair(tmp_path)
    real = header.open_input
    monkeypatch.setattr(header, "open_input", lambda path: Failing(real(path)))
    result = run("convert", a, b)
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"promote: error: {a}: cannot read it (Input/output error)"


def test_an_input_whose_data_fails_to_read_says_cannot_read(tmp_path, monkeypatch):
    """EIO while streaming the data (injected), after the first output was begun."""
    a, b = pair(tmp_path)
    jobs = plan_jobs([a, b], [tmp_path / "x.npy", tmp_path / "y.npy"])
    real = npy.outputs.open_data

    @contextlib.contextmanager
    def failing_open(job_npy):
        with real(job_npy) as fp:
            yield Failing(fp) if job_npy.path == b else fp

    monkeypatch.setattr(npy.outputs, "open_data", failing_open)
    with pytest.raises(BadInputError) as caught:
        npy.execute(jobs)
    assert str(caught.value) == f"{b}: cannot read it (Input/output error)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]


BIG = 48 * 1024 * 1024  # float16 elements: a 96 MiB input, a 192 MiB output


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    where = tmp_path_factory.mktemp("big")
    a, b = where / "a.npy", where / "b.npy"
    np.save(a, (np.arange(BIG) % 2048).astype(np.float16))
    np.save(b, np.arange(3, dtype=np.float32))
    yield a, b
    a.unlink()


def test_the_output_directory_renamed_mid_run_is_exit_2_and_leaves_nothing(big, tmp_path):
    from test_convert_safety import _start, _wait_for_writing

    a, b = big
    out, moved = tmp_path / "out", tmp_path / "moved"
    out.mkdir()
    proc = _start([a, b, "-o", out])
    if not _wait_for_writing(proc):
        pytest.skip("the conversion ended before it could be interrupted")
    out.rename(moved)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert "moved or removed" in one_line(err)
    assert list(moved.iterdir()) == [] and not out.exists()


def test_the_output_directory_removed_mid_run_is_exit_2(tmp_path):
    a, b = pair(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    jobs = plan_jobs([a, b], [out / "x.npy", out / "y.npy"])
    with pytest.raises(BadInputError, match="was moved or removed during the run"):
        npy.execute(jobs, progress=lambda n: shutil.rmtree(out, ignore_errors=True))
    assert not out.exists()


@root_only
def test_the_output_directory_made_read_only_mid_run_is_exit_2_and_keeps_no_data(tmp_path):
    a, b = pair(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    jobs = plan_jobs([a, b], [out / "x.npy", out / "y.npy"])
    frozen = []

    def freeze(n: int) -> None:
        if not frozen:
            subprocess.run(["chattr", "+i", out], check=True)
            frozen.append(out)

    try:
        with pytest.raises(BadInputError) as caught:
            npy.execute(jobs, progress=freeze)
        left = hidden(out)
    finally:
        subprocess.run(["chattr", "-i", out], check=True)
    message = str(caught.value)
    assert message.startswith("cannot write ") and "Operation not permitted" in message
    # An immutable directory keeps its entries: the temporary file is named, and emptied.
    assert left and all(name in message for name in left)
    assert all((out / name).stat().st_size == 0 for name in left)
    assert not (out / "x.npy").exists() and not (out / "y.npy").exists()


# --- 8. headers NumPy cannot load are refused -----------------------------------------------


def write_npy(path: Path, shape: tuple, data: bytes) -> Path:
    with open(path, "wb") as f:
        npformat.write_array_header_2_0(f, {"descr": "<f4", "fortran_order": False, "shape": shape})
        f.write(data)
    return path


@pytest.mark.parametrize(
    "shape, data",
    [((1,) * 65, b"\0" * 4), ((0, 2**62, 2**62), b""), ((0, 2**31, 2**31), b"")],
    ids=["65-dimensions", "0x2**62x2**62", "0x2**31x2**31-float32"],
)
def test_a_header_numpy_cannot_load_is_refused(run, tmp_path, shape, data):
    bad = write_npy(tmp_path / "bad.npy", shape, data)
    with pytest.raises(ValueError):
        np.load(bad)  # NumPy itself refuses it
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float32))
    result = run("convert", bad, b)
    assert result.exit_code == 2
    assert "cannot be loaded by NumPy" in one_line(result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.npy", "bad.npy"]


def test_the_most_dimensions_numpy_loads_still_convert(run, tmp_path):
    ok = write_npy(tmp_path / "ok.npy", (1,) * 64, b"\0\0\x80\x3f")
    assert np.load(ok).ndim == 64
    b = save(tmp_path / "b.npy", np.arange(3, dtype=np.float16))
    assert run("convert", ok, b).exit_code == 0
    assert np.load(tmp_path / "ok.promoted.npy").reshape(-1).tolist() == [1.0]


# --- 9. an input rewritten in place mid-run -------------------------------------------------


@pytest.mark.parametrize("dry_run", [False, True], ids=["convert", "dry-run-check-values"])
def test_an_input_rewritten_in_place_mid_run_is_an_error(tmp_path, dry_run):
    a = save(tmp_path / "a.npy", np.arange(1 << 20, dtype=np.int32))
    b = save(tmp_path / "b.npy", np.zeros(3, np.float16))
    old = time.time() - 3600
    os.utime(a, (old, old))  # as an input written long ago
    jobs = plan_jobs([a, b], [tmp_path / "x.npy", tmp_path / "y.npy"])
    rewritten = []

    def rewrite(n: int) -> None:
        if not rewritten:  # same size, same inode: only the bytes change
            with open(a, "r+b") as f:
                f.seek(-4096, os.SEEK_END)
                f.write(b"\xff" * 4096)
            rewritten.append(n)

    with pytest.raises(BadInputError, match=r"a\.npy: changed while it was being read"):
        npy.execute(
            jobs, progress=rewrite, dry_run=dry_run, check_values=dry_run, chunk_bytes=64 << 10
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]


# --- 10. signals during start-up ------------------------------------------------------------


def _catches(pid: int, sig: int) -> bool:
    with open(f"/proc/{pid}/status") as f:
        mask = next(int(line.split()[1], 16) for line in f if line.startswith("SigCgt:"))
    return bool(mask & (1 << (sig - 1)))


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.06])
def test_a_signal_during_start_up_is_exit_130_with_one_line(tmp_path, sig, delay):
    a, b = pair(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "promote_cli", "convert", a, b],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not _catches(proc.pid, signal.SIGTERM):  # promote's first instruction has run
        assert proc.poll() is None and time.monotonic() < deadline, "no handler installed"
        time.sleep(0.0002)
    with open(f"/proc/{proc.pid}/maps") as f:
        assert "numpy" not in f.read(), "the handler came only after NumPy was imported"
    time.sleep(delay)  # then while Python imports click, NumPy, ml_dtypes ...
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "promote: interrupted\n"), err
    assert out == "" and not (tmp_path / "a.promoted.npy").exists()


# --- 11. small things -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["convert"], ["table", "--nosuch"], ["table", "-f", "nosuch"], ["nosuch"]],
    ids=["missing-argument", "unknown-option", "bad-choice", "unknown-command"],
)
def test_click_usage_errors_are_one_line_and_exit_2(run, args):
    done = promote(*args)
    assert done.returncode == 2
    assert one_line(done.stderr).startswith("promote: error: ")
    result = run(*args)
    assert result.exit_code == 2 and one_line(result.stderr) == one_line(done.stderr)


@pytest.mark.parametrize(
    "fmt, ours, name",
    [
        ("rst", "table.rst.j2", "evil\n\n.. raw:: html\n\n   <script>x<\\script>\n.rst.j2"),
        ("markdown", "table.md.j2", "evil --><script>x<\\script><!-- .md.j2"),
        ("html", "table.html.j2", "evil\n--><script>x<\\script><!--.html.j2"),
    ],
)
def test_an_option_value_cannot_break_the_header_comment(run, tmp_path, fmt, ours, name):
    import html

    t = tmp_path / name
    shutil.copy(ROOT / "templates" / ours, t)
    result = run("table", "-t", "f2,bf", "-f", fmt, "--template", str(t))
    assert result.exit_code == 0, result.stderr
    theirs, plain = result.stdout.splitlines(), table_text(run, "-t", "f2,bf", "-f", fmt)
    at = next(i for i, line in enumerate(theirs) if "generated by" in line)
    assert theirs[at].endswith(
        "edit the generator, not this file" + (" -->" if fmt != "rst" else "")
    )
    # Only the header differs from our own template's output: nothing escaped from it.
    assert theirs[:at] + theirs[at + 1 :] == [
        line for i, line in enumerate(plain.splitlines()) if i != at
    ]
    from promote_cli.api import shell_split

    command = re.search(r": (promote .*); edit the generator", theirs[at]).group(1)
    words = shell_split(html.unescape(command))
    assert words[words.index("--template") + 1] == str(t)  # the line still regenerates it


def test_check_compares_with_the_command_it_runs_never_the_files_own_header(run, tmp_path):
    """The command line in a checked file's first line is text like the rest: another spelling
    of it is a stale file, and it is never parsed or run (once, ``--help`` printed help
    into the diff, ``-p ./x.toml`` loaded a policy file the checked file named)."""
    out = tmp_path / "t.rst"
    assert run("table", "-t", "f2,bf", "-f", "rst", "-o", str(out)).exit_code == 0
    canonical = out.read_text()
    assert "--types f2,bf;" in canonical.splitlines()[0]
    # The user's spelling of the same question is read by the command itself: up to date.
    result = run("table", "-t", "f2,bf16", "-f", "rst", "-O", "x64=TRUE", "--check", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    (tmp_path / "x.toml").write_text('name = "x"\nextends = "./missing.toml"\n')
    for header in ("--types f2,bf16 -O x64=TRUE", "--help", "-p ./x.toml", "--check /dev/zero"):
        out.write_text(canonical.replace("--types f2,bf;", f"{header};", 1))
        result = run("table", "-p", "jax", "-t", "f2,bf", "-f", "rst", "--check", str(out))
        assert result.exit_code == 1, result.stdout + result.stderr
        assert "Usage:" not in result.stdout and "missing.toml" not in result.stderr
        assert one_line(result.stderr).startswith(f"promote: {out} is stale; regenerate it with:")


def test_out_a_naming_a_directory_puts_the_output_in_it(run, tmp_path):
    a, b = pair(tmp_path)
    result = run("convert", a, b, "--out-a", f"{tmp_path / 'newdir'}/")
    assert result.exit_code == 2 and "no such directory" in one_line(result.stderr)
    assert not (tmp_path / "newdir").exists()
    (tmp_path / "out").mkdir()
    for spelled in (f"{tmp_path / 'out'}/", str(tmp_path / "out")):
        result = run("convert", a, b, "--out-a", spelled, "--force")
        assert result.exit_code == 0, result.stderr
        assert np.load(tmp_path / "out" / "a.npy").dtype == np.float32
    result = run("table", "-t", "f2,bf", "-o", f"{tmp_path / 'newdir'}/")
    assert result.exit_code == 2 and "names a directory" in one_line(result.stderr)
    assert not (tmp_path / "newdir").exists()


def test_atomic_target_decides_once(tmp_path):
    """The one place: what each kind of existing path means for a writer."""
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "fifo")
    assert targets.target(tmp_path / "new", into_ok=False).final == tmp_path / "new"
    assert targets.target(tmp_path / "link", into_ok=False).final == tmp_path / "file"
    assert targets.target(tmp_path / "fifo", into_ok=True).into
    with pytest.raises(BadInputError, match="is a FIFO"):
        targets.target(tmp_path / "fifo", into_ok=False)
    with pytest.raises(BadInputError, match="is a directory"):
        targets.target(tmp_path / "dir", into_ok=True)
    with pytest.raises(BadInputError, match="does not exist"):
        targets.target(tmp_path / "no" / "x", into_ok=True)
