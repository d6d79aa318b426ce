"""Hostile input, one attack per test: user input entering at a boundary (an npy header, a
template, a policy file, an oracle, a docs block, the environment's encoding) is one line and
exit 2, never promote's internal error (exit 3); what a run reports is what is on disk;
``promote tables`` writes only regular files of its own inside its directory.

Some attacks need root (``chattr +i``), as CI jobs and containers run; those tests skip
elsewhere."""

from __future__ import annotations

import json
import os
import stat
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from promote_cli import docset, docsync

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))

root_only = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="the attack needs root"
)


@pytest.fixture
def run(run):
    return lambda *args, **kwargs: run(*map(str, args), **kwargs)


def one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


def usage_error(result) -> str:
    """The one ``promote: error:`` line of a run that exited 2."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    line = one_line(result.stderr)
    assert line.startswith("promote: error: "), line
    return line


def promote(*args, env=None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "promote_cli", *map(str, args)],
        env={**ENV, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


def raw_npy(path: Path, header: str) -> Path:
    """A .npy file of format 1.0 whose header text is ``header``, as written (no data)."""
    text = header.encode("latin1")
    text += b" " * ((64 - (10 + len(text) + 1) % 64) % 64) + b"\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text)
    return path


def pair(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.arange(5, dtype=np.float16))
    np.save(b, np.arange(3, dtype=np.float32))
    return a, b


# --- exit 2, not 3: npy headers, templates, the environment's encoding ------------------------


@pytest.mark.parametrize(
    "descr", ["<Z4000000000", "|V4000000000", "<f99999999999999999999"], ids=str
)
def test_a_raw_descr_of_absurd_width_is_the_files_fault(run, tmp_path, descr):
    bad = raw_npy(tmp_path / "z.npy", repr({"descr": descr, "fortran_order": False, "shape": (1,)}))
    _, b = pair(tmp_path)
    assert "z.npy: " in usage_error(run("convert", bad, b))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy", "z.npy"]


def test_a_template_that_emits_a_lone_surrogate_is_exit_2(run, tmp_path):
    t = tmp_path / "t.md.j2"
    t.write_text('{{ "\\ud800" }}', encoding="utf-8")
    line = usage_error(run("table", "-t", "f2,bf", "--template", t))
    assert "its output is not text" in line
    out = tmp_path / "out.md"
    usage_error(run("table", "-t", "f2,bf", "--template", t, "-o", out))
    assert not out.exists()


def test_an_encoding_that_cannot_show_the_table_is_one_line_and_exit_2():
    done = promote("table", "-p", "torch", env={"PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 2, done.stderr
    line = one_line(done.stderr)
    assert "output's encoding (latin-1" in line and "PYTHONIOENCODING=utf-8" in line
    assert "Traceback" not in done.stderr
    fine = promote("pair", "f2", "bf", env={"PYTHONIOENCODING": "latin-1"})
    assert (fine.returncode, fine.stdout) == (0, "f4 (float32)\n")


def test_a_closed_stdout_is_one_line_and_exit_2():
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "table", "-p", "jax"],
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 2, done.stderr
    assert one_line(done.stderr) == "promote: error: cannot write to standard output: it is closed"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_stdout_on_a_full_disk_is_one_line_and_after_a_commit_says_what_was_written(tmp_path):
    a, b = pair(tmp_path)
    with open("/dev/full", "w") as full:
        table, converted = (
            subprocess.run(
                [sys.executable, "-m", "promote_cli", *map(str, args)],
                env=ENV,
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
            for args in (["table", "-p", "jax"], ["convert", a, b, "-p", "jax"])
        )
    full_disk = "promote: error: cannot write to standard output (No space left on device)"
    assert (table.returncode, one_line(table.stderr)) == (2, full_disk)
    assert converted.returncode == 2
    assert one_line(converted.stderr) == (
        f"{full_disk} ({tmp_path}/a.promoted.npy, {tmp_path}/b.promoted.npy written before"
        " it, complete)"
    )
    assert np.load(tmp_path / "a.promoted.npy").dtype == np.float32


def test_json_with_a_file_name_that_is_not_utf8_is_valid_utf8(tmp_path):
    a, b = pair(tmp_path)
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xff.npy"))
    os.rename(a, odd)
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "convert", odd, b, "--json", "--dry-run"],
        env=ENV,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("utf-8")  # raises on a raw 0xFF byte
    report = json.loads(text)
    assert "caf\\udcff.npy" in text  # escaped, and read back as Python spells the name
    assert os.fsencode(report["files"][0]["input"]).endswith(b"caf\xff.npy")


# --- policy files -------------------------------------------------------------------------

POLICIES = {
    "list-cell": 'name = "x"\ntypes = ["bool"]\n[table]\nbool = [["bool"]]\n',
    "list-override": 'name = "x"\nextends = "jax"\n[cells]\n"i1 x u1" = ["i2"]\n',
    "self-extends": 'name = "x"\nextends = "./p.toml"\n',
    "deep": 'name = "x"\nlattice = ' + "[" * 2000 + "]" * 2000 + "\n",
    "nine-deep": 'name = "x"\n[lattice]\nbool = ' + "[" * 9 + "]" * 9 + "\n",
}
# Each command that takes a policy, with what it is asked.
COMMANDS = {
    "pair": ["pair", "i1", "u1", "-p"],
    "table": ["table", "-p"],
    "check": ["check"],
    "diff": ["diff", "jax"],
    "graph": ["graph", "-p"],
    "op": ["op", "sqrt", "i1", "-p"],
}


@pytest.mark.parametrize("command", COMMANDS, ids=str)
@pytest.mark.parametrize("kind", POLICIES, ids=str)
def test_a_malformed_policy_file_is_one_line_for_every_command(run, tmp_path, kind, command):
    (tmp_path / "p.toml").write_text(POLICIES[kind], encoding="utf-8")
    line = usage_error(run(*COMMANDS[command], tmp_path / "p.toml"))
    assert "p.toml" in line


def test_extends_that_comes_back_is_a_cycle_named_by_its_files(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.toml").write_text('name = "a"\nextends = "./b.toml"\n', encoding="utf-8")
    Path("b.toml").write_text('name = "b"\nextends = "./a.toml"\n', encoding="utf-8")
    line = usage_error(run("pair", "i1", "u1", "-p", "./a.toml"))
    assert line == (
        "promote: error: b.toml:2: extends ./a.toml, which is a.toml: a cycle"
        " (a.toml -> b.toml -> a.toml)"
    )


def test_a_policy_file_past_the_size_limit_is_refused_unread(run, tmp_path):
    from promote_cli import policyfile

    big = tmp_path / "big.toml"
    big.write_text('name = "x"\n' + "# padding\n" * (policyfile.MAX_BYTES // 10), encoding="utf-8")
    assert "is larger than" in usage_error(run("pair", "i1", "u1", "-p", big))


def test_a_lattice_without_bool_refuses_a_python_bool_instead_of_failing(run, tmp_path):
    nobool = tmp_path / "nobool.toml"
    nobool.write_text(
        'name = "x"\n[lattice]\n"int*" = ["int8"]\nint8 = ["int16"]\n'
        '[materialise]\n"int*" = "int8"\n',
        encoding="utf-8",
    )
    result = run("pair", "P(bool)", "int8", "-p", nobool)
    assert result.exit_code == 1  # a refusal is an answer: the policy has no bool
    assert result.stdout == "refused: x's lattice has no bool\n"


def test_whatever_a_file_policy_raises_while_answering_is_the_files_fault(run, tmp_path):
    """The boundary holds for failure modes no check foresaw: a method of a policy declared in
    a file that raises (here made to) is a usage error naming the file; a built-in policy's
    is still promote's own bug."""
    from promote_cli import lattice

    def broken(self, *nodes):
        raise KeyError("a failure no check foresaw")

    mine = tmp_path / "mine.toml"
    mine.write_text('name = "x"\n[lattice]\nint8 = ["int16"]\n', encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lattice.Lattice, "lub", broken)
        line = usage_error(run("pair", "int8", "int16", "-p", mine))
        assert line.startswith(f"promote: error: {mine}: promote cannot answer")
        assert "KeyError" in line
        result = run("pair", "i1", "i2", "-p", "jax")
    assert result.exit_code == 3 and "internal error: KeyError" in one_line(result.stderr)


def test_control_characters_in_a_policy_name_are_escaped_everywhere(run, tmp_path):
    p = tmp_path / "esc.toml"
    p.write_text(
        'name = "e\\u001b[31mvil\\nx"\ntitle = "T\\u001b]0;pwned\\u0007"\nextends = "jax"\n'
        '[cells]\n"i1 x u1" = "i4"\n',
        encoding="utf-8",
    )
    for args in (["diff", "jax", p], ["check", p], ["table", "-p", p, "-t", "i1,u1"]):
        result = run(*args)
        assert result.exit_code in (0, 1), result.stderr
        assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout
        assert "e\\x1b[31mvil\\nx" in result.stdout
    assert "jax vs e\\x1b[31mvil\\nx: 2 of 1225 cells differ" in run("diff", "jax", p).stdout


# --- verify --oracle ------------------------------------------------------------------------

ORACLES = textwrap.dedent(
    """
    import os
    import sys

    import numpy as np


    def chatty(a, b):
        print("asked", a, b)  # an oracle's print never reaches promote's output
        return np.promote_types(a, b)


    def exits(a, b):
        sys.exit(int(os.environ.get("ORACLE_EXIT", "0")))


    class Odd:
        def __str__(self):
            raise ValueError("no str")


    def odd(a, b):
        return Odd()


    def hangs(a, b):
        while True:
            pass


    def crashes(a, b):
        os.kill(os.getpid(), 11)
    """
)
TABLE = (
    'name = "tab"\ntypes = ["bool", "int8"]\n[table]\nbool = ["bool"]\nint8 = ["int8", "int8"]\n'
)


@pytest.fixture
def oracle_dir(tmp_path, monkeypatch):
    (tmp_path / "oracles23.py").write_text(ORACLES, encoding="utf-8")
    (tmp_path / "raises23.py").write_text("raise ZeroDivisionError('at import')\n")
    (tmp_path / "tab.toml").write_text(TABLE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "spec, env, words",
    [
        ("raises23:f", {}, "cannot import raises23: ZeroDivisionError: at import"),
        (".rel:f", {}, "--oracle takes MODULE:FUNCTION"),
        ("oracles23:odd", {}, "the answer's str() raised ValueError: no str"),
        ("oracles23:exits", {"ORACLE_EXIT": "0"}, "ended its process (exit code 0)"),
        ("oracles23:exits", {"ORACLE_EXIT": "5"}, "ended its process (exit code 5)"),
        ("oracles23:crashes", {}, "killed by SIGSEGV"),
        ("oracles23:nosuch", {}, "oracles23 has no nosuch"),
    ],
    ids=["raises-at-import", "relative", "str-raises", "exit-0", "exit-5", "crash", "missing"],
)
def test_an_oracle_that_fails_is_exit_2_and_json_stays_one_object(
    run, oracle_dir, monkeypatch, spec, env, words
):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = run("verify", "./tab.toml", "--oracle", spec, "--json")
    assert words in usage_error(result)
    report = json.loads(result.stdout)
    assert report["ok"] is False and words in report["error"]


def test_an_oracle_that_hangs_is_stopped_at_its_timeout(run, oracle_dir):
    result = run("verify", "./tab.toml", "--oracle", "oracles23:hangs", "--timeout", "0.5")
    assert "no answer within 0.5 s" in usage_error(result)


@pytest.mark.parametrize("seconds", ["inf", "nan", "1e308", "0", "-1", "x"])
def test_a_timeout_a_clock_cannot_count_is_a_usage_error(run, oracle_dir, seconds):
    result = run("verify", "./tab.toml", "--oracle", "oracles23:chatty", "--timeout", seconds)
    assert "Invalid value for '--timeout'" in usage_error(result)


def test_what_an_oracle_prints_never_reaches_the_json(oracle_dir):
    done = promote(
        "verify",
        "./tab.toml",
        "--oracle",
        "oracles23:chatty",
        "--json",
        cwd=oracle_dir,
        env={"PYTHONPATH": f"{ROOT}{os.pathsep}{oracle_dir}"},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
    assert "asked bool bool" in done.stderr  # the oracle's own output, where it belongs


# --- what is reported is what is on disk ----------------------------------------------------


@root_only
def test_a_failed_commit_names_no_file_that_does_not_exist(run, tmp_path):
    """The commit's clean-up ran twice: the second unlink failed on a closed directory and
    the line named "emptied" files that were long gone."""
    a, b = pair(tmp_path)
    out_a, out_b = tmp_path / "x.npy", tmp_path / "y.npy"
    out_a.write_bytes(b"old a")
    out_b.write_bytes(b"old b")
    subprocess.run(["chattr", "+i", out_b], check=True)
    try:
        result = run("convert", a, b, "--out-a", out_a, "--out-b", out_b, "--force")
    finally:
        subprocess.run(["chattr", "-i", out_b], check=True)
    line = usage_error(result)
    assert line.endswith("Operation not permitted; nothing was written"), line
    assert "could not remove" not in line
    assert out_a.read_bytes() == b"old a" and out_b.read_bytes() == b"old b"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_an_output_that_appears_before_the_commit_is_refused_cleanly(tmp_path, monkeypatch):
    """The race: without --force, a file created under an output's name after the check."""
    from promote_cli import atomic, npy
    from promote_cli.errors import BadInputError

    a, b = pair(tmp_path)
    out = tmp_path / "y.npy"
    sources = [npy.Source(h, h.dtype) for h in map(npy.read_header, (a, b))]
    jobs = npy.plan(sources, "float32", [tmp_path / "x.npy", out], skip_unchanged=False)
    real = atomic.Batch.commit

    def racing(self, **kwargs):
        out.write_bytes(b"theirs")
        return real(self, **kwargs)

    monkeypatch.setattr(atomic.Batch, "commit", racing)
    with pytest.raises(BadInputError) as caught:
        npy.execute(jobs)
    assert str(caught.value) == f"output {out} appeared meanwhile; pass --force to replace it"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy", "y.npy"]
    assert out.read_bytes() == b"theirs"


def test_a_batchs_clean_up_runs_once_and_closes_each_descriptor_once(tmp_path, monkeypatch):
    from promote_cli import atomic, targets

    closes, real_close = [], os.close

    def close(fd):
        closes.append(fd)
        real_close(fd)  # a descriptor closed twice raises EBADF here

    monkeypatch.setattr(os, "close", close)
    with atomic.Batch() as batch:
        for name in ("x", "y"):
            batch.write(targets.target(tmp_path / name, into_ok=False), b"data")
        assert batch.discard() == [] and batch.discard() == []
    assert batch.close() == [] and len(closes) == 3  # two files and their directory, once each
    assert list(tmp_path.iterdir()) == []


def test_an_output_name_too_long_or_in_a_missing_directory_leaves_nothing(run, tmp_path):
    name = "x" * 300 + ".md"
    assert "File name too long" in usage_error(run("table", "-t", "f2,bf", "-o", tmp_path / name))
    # table -o makes no directory (as convert -o): a mistyped one is refused, nothing is made
    missing = usage_error(run("table", "-t", "f2,bf", "-o", tmp_path / "new" / "dir" / name))
    assert f"directory {tmp_path}/new/dir does not exist" in missing
    assert list(tmp_path.iterdir()) == []


# --- small things -----------------------------------------------------------------------------


def test_an_empty_type_after_the_colon_is_refused(run, tmp_path):
    a, b = pair(tmp_path)
    line = usage_error(run("convert", f"{a}:", b))
    assert (
        line == f"promote: error: {a}:: no type after ':'; write {a}:TYPE (a type such as"
        f" bfloat16), or {a} alone"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["convert", "", "{b}"],
        ["convert", "{a}", "{b}", "--out-a", ""],
        ["convert", "{a}", "{b}", "-o", ""],
        ["table", "-o", ""],
        ["table", "--check", ""],
        ["tables", ""],
        ["pair", "i1", "u1", "--policy-file", ""],
    ],
    ids=["input", "out-a", "out-dir", "table-o", "table-check", "tables", "policy-file"],
)
def test_a_name_given_as_empty_is_reported_as_such_not_as_dot(run, tmp_path, monkeypatch, args):
    a, b = pair(tmp_path)
    monkeypatch.chdir(tmp_path)
    line = usage_error(run(*(arg.format(a=a, b=b) for arg in args)))
    assert "''" in line and " .:" not in line and "is a directory" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]


def test_a_help_flag_in_a_mkdocs_block_is_refused_not_printed(capsys):
    markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")
    from promote_cli.markdown import BlockError

    for flag in ("--help", "-h"):
        with pytest.raises(BlockError) as caught:
            markdown.markdown(f"::: promote table {flag}\n", extensions=["promote_cli.markdown"])
        assert "--help has no meaning in a page" in str(caught.value)
        assert "\n" not in str(caught.value)
    assert "Usage:" not in capsys.readouterr().out


# --- docs builders: the same hostile files are an error at the directive's line ---------------


def test_sphinx_reports_hostile_policy_files_at_the_directives_line(tmp_path):
    pytest.importorskip("sphinx", reason="the docs extra is not installed")
    from test_docs_sphinx import project, sphinx

    files = tmp_path / "files"
    files.mkdir()
    for kind, text in POLICIES.items():
        (files / f"{kind}.toml").write_text(text.replace("./p.toml", f"./{kind}.toml"))
    body = "Hostile\n=======\n\n" + "".join(
        f".. promotion-table:: {files / kind}.toml\n\n" for kind in POLICIES
    )
    src = project(tmp_path, body)
    done = sphinx(src)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "Exception occurred" not in done.stderr
    index = str(src / "index.rst")
    lines = [line for line in done.stderr.splitlines() if line.startswith(f"{index}:")]
    assert [int(line.split(":")[1]) for line in lines] == [4 + 2 * i for i in range(len(POLICIES))]
    assert all(": ERROR: promotion-table: " in line for line in lines), done.stderr


def test_mkdocs_blocks_report_hostile_policy_files_as_one_line(tmp_path):
    markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")
    from promote_cli.markdown import BlockError

    for kind, text in POLICIES.items():
        path = tmp_path / f"{kind}.toml"
        path.write_text(text.replace("./p.toml", f"./{kind}.toml"), encoding="utf-8")
        for block in (f"table -p {path}", f"diff jax {path}", f"graph -p {path} -f mermaid"):
            with pytest.raises(BlockError) as caught:
                markdown.markdown(f"::: promote {block}\n", extensions=["promote_cli.markdown"])
            assert str(caught.value).startswith(f"`::: promote {block}`: ")
            assert "\n" not in str(caught.value) and "internal error" not in str(caught.value)


# --- promote tables: regular files of its own, inside its directory, all or nothing ----------


@pytest.fixture(scope="module")
def the_set() -> dict[str, str]:
    return docset.documentation_set()


@pytest.fixture
def tables(run, tmp_path, monkeypatch, the_set):
    """``promote tables`` in-process over a directory it has written, with the set computed
    once for the module (it is the same for every run)."""
    monkeypatch.setattr(docsync, "documentation_set", lambda: the_set)
    directory = tmp_path / "t"
    assert run("tables", directory).exit_code == 0
    return directory


def snapshot(where: Path) -> dict[str, tuple]:
    """Every entry under ``where``: its kind, content (regular files) or target (links)."""
    out = {}
    for path in sorted(where.rglob("*")):
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            out[str(path)] = ("link", os.readlink(path))
        elif stat.S_ISREG(st.st_mode):
            out[str(path)] = ("file", path.read_bytes(), st.st_ino)
        else:
            out[str(path)] = (stat.S_IFMT(st.st_mode),)
    return out


def _symlink_out(path: Path) -> None:
    path.symlink_to("../victim.txt")


def _symlink_in(path: Path) -> None:
    path.symlink_to(path.with_suffix(".rst").name if path.suffix == ".md" else "jax.rst")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.mkdir()
    (path / "keep").write_text("mine")


@pytest.mark.parametrize("name", ["jax.md", "ops/numpy.html", "README.md"])
@pytest.mark.parametrize(
    "make",
    [_symlink_out, _symlink_in, _fifo, _directory],
    ids=["link-out", "link-in", "fifo", "dir"],
)
@pytest.mark.parametrize("force", [False, True], ids=["", "force"])
def test_tables_refuses_a_set_file_that_is_not_a_regular_file_and_changes_nothing(
    run, tables, name, make, force
):
    victim = tables.parent / "victim.txt"
    victim.write_text("not promote's\n")
    (tables / "jax.rst").write_text("edited, so that the run has something to write\n")
    (tables / name).unlink()
    make(tables / name)
    before = snapshot(tables.parent)
    result = run("tables", tables, *(["--force"] if force else []))
    line = usage_error(result)
    assert name.rsplit("/", 1)[-1] in line
    assert snapshot(tables.parent) == before
    assert victim.read_text() == "not promote's\n"
    check = run("tables", tables, "--check")
    assert check.exit_code == 2 and snapshot(tables.parent) == before


def test_tables_changes_nothing_when_a_write_fails_midway(run, tables, monkeypatch):
    """A failure after some files are staged (a full disk, ``ulimit -f``): the set is committed
    as one, so nothing changed, the index included; no temporary file is left."""
    from promote_cli import atomic

    for path in tables.rglob("*.md"):
        path.write_text(path.read_text() + "edited\n")
    before = snapshot(tables)
    real, written = atomic.write_all, []

    def disk_full(fd, data):
        if len(written) == 5:
            raise OSError(27, "File too large")
        written.append(fd)
        return real(fd, data)

    monkeypatch.setattr(atomic, "write_all", disk_full)
    assert "File too large" in usage_error(run("tables", tables))
    assert snapshot(tables) == before


def test_tables_under_a_file_size_limit_changes_nothing(tmp_path):
    """The same with the kernel's RLIMIT_FSIZE, in a real process (once, 5 of 247 files
    were written and no index)."""
    import resource

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    done = promote("tables", tmp_path / "t", preexec_fn=small_files)
    assert done.returncode == 2, done.stderr
    assert "File too large" in one_line(done.stderr)
    assert not (tmp_path / "t").exists()  # not even the directory it would have made


def test_tables_refuses_two_set_names_that_are_one_file(run, tables):
    (tables / "jax.md").unlink()
    os.link(tables / "jax.rst", tables / "jax.md")
    (tables / "jax.rst").write_text("edited\n")
    before = snapshot(tables)
    assert "are one file under two names" in usage_error(run("tables", tables))
    assert snapshot(tables) == before


def test_a_leftover_is_removed_in_the_same_commit(run, tables):
    """A file the previous run listed and this one no longer writes goes with the commit."""
    index = tables / "README.md"
    text = index.read_text()
    index.write_text(text.replace(docset.LIST_HEAD + "\n", docset.LIST_HEAD + "\nold.md\n"))
    (tables / "old.md").write_text(f"<!-- {docset.MARKER} -->\n")
    result = run("tables", tables)
    assert result.exit_code == 0, result.stderr
    assert not (tables / "old.md").exists() and index.read_text() == text
    assert not [p for p in tables.rglob(".*")]
