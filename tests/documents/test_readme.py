"""The README is the front door: short, and everything it shows runs as written. Each
``console`` block is run command by command in a fresh directory, with promote imported from a
copy of the repository's files and nothing beside that copy (no ``../shared``, as in a fresh
clone), and what each command prints is compared with what the README shows under it. The docs
recipe's configuration blocks build a real Sphinx and a real MkDocs page; the set-up commands
run as far as a test can (installing is tried by hand, or with ``PROMOTE_FRESH_VENV=1``).

In an expected output, a line ``...`` stands for any lines, and a line ending in `` ...`` for
any line starting with what comes before it (a long line, cut where the README's column ends).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def _figures():
    spec = importlib.util.spec_from_file_location("figures", ROOT / "docs" / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blocks(kind: str, text: str = README) -> list[str]:
    return [body for lang, body in FENCE.findall(text) if lang == kind]


def section(title: str) -> str:
    start = README.index(title)
    end = README.find("\n## ", start + len(title))
    nxt = README.find("\n### ", start + len(title))
    ends = [e for e in (end, nxt) if e != -1]
    return README[start : min(ends) if ends else len(README)]


def commands(block: str) -> list[tuple[str, list[str]]]:
    """``$ command`` lines and the lines shown under each."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def shown_as(expected: list[str]) -> re.Pattern[str]:
    parts = []
    for line in expected:
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        elif line.endswith(" ..."):
            parts.append(re.escape(line[:-4]) + r"[^\n]*\n")
        else:
            parts.append(re.escape(line) + r"\n")
    return re.compile("".join(parts))


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The repository's files (what git tracks, as they are now) in a directory of their own:
    what a fresh clone holds, with nothing beside it."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=False
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot tell which files a clone holds")
    home = tmp_path_factory.mktemp("fresh") / "promote"
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (home / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, home / name)
    assert not (home.parent / "shared").exists()
    return home


@pytest.fixture(scope="module")
def shell_env(clone, tmp_path_factory) -> dict[str, str]:
    """An environment whose ``promote`` and ``python`` run this interpreter on the clone."""
    bin_dir = tmp_path_factory.mktemp("bin")
    for name, run in (("promote", "-m promote_cli"), ("python", "")):
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" {run} "$@"\n', encoding="utf-8")
        script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=str(clone),
        PYTHONUNBUFFERED="1",  # stdout and stderr interleave as on a terminal
    )
    return env


def run_shell(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", f"{command} 2>&1"],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_readme_is_a_front_door_not_a_manual():
    assert len(README.splitlines()) < 250
    # what a maintainer comes for, in order
    heads = re.findall(r"^#{2,3} (.+)$", README, re.M)
    assert heads[:2] == ["Set up", "What people come for"]
    numbered = [h.split(". ", 1) for h in heads if h[:1].isdigit()]
    assert [n for n, _ in numbered] == ["1", "2", "3", "4", "5", "6"]
    assert [t.split()[0] for _, t in numbered] == ["A", "A", "An", "Where", "Convert", "Verify"]
    # promote lint is issue 39's, not yet built: nothing shows or promises it
    assert "promote lint" not in README


def test_the_readme_holds_one_speed_figure_made_by_its_command():
    figures = _figures()
    found = figures.block_pattern("headline").search(README)
    assert found, "README.md has no figures:headline block"
    assert found.group(2) == figures.headline(), (
        "README.md's headline is stale; run: python docs/figures.py --write-readme"
    )
    assert "bench_startup.py --instructions" in found.group(2)
    # no figure of the project's tests or benchmarks beside it (they live in benchmarks.md)
    rest = README.replace(found.group(0), "")
    for measured in (r"\d+ s of (wall|CPU)", r"tests passed", r"\d+ min", r"\d+(\.\d+)? ?ms\b"):
        assert not re.search(measured, rest), measured


def test_console_blocks_are_numerous_enough_to_mean_something():
    assert len(blocks("console")) >= 6


@pytest.mark.parametrize(
    "block", blocks("console"), ids=lambda b: commands(b)[0][0].split(" --")[0][:40]
)
def test_each_console_block_prints_what_the_readme_shows(block, shell_env, tmp_path):
    for command, expected in commands(block):
        done = run_shell(command, tmp_path, shell_env)
        # a refusal (1) is an answer the README shows; usage errors and bugs are not
        assert done.returncode in (0, 1), (command, done.stdout)
        assert shown_as(expected).fullmatch(done.stdout), (
            f"$ {command}\n--- the README shows:\n" + "\n".join(expected) + "\n--- it prints:\n"
            f"{done.stdout}"
        )


def test_the_set_up_commands_are_the_two_documented(clone, shell_env):
    setup = section("## Set up")
    first, second = blocks("sh", setup)[:2]
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert first == venv + "pip install . && promote table --policy jax\n"
    assert second == venv + "pip install -e '.[test]' && python -m pytest\n"
    # What runs after the install, in the clone: the main job.
    done = run_shell("promote table --policy jax", clone, shell_env)
    assert done.returncode == 0
    assert "JAX (jax), jax notation, x64=true, strict=false" in done.stdout
    # pytest collects in a fresh clone (no ../shared, no extras needed to collect): every
    # test module imported. (Its asserts are not rewritten: this run's own workers rewrite the
    # same files; here that would be 60% of the collection's CPU.)
    collected = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            "--assert=plain",
        ],
        cwd=clone,
        env={**shell_env, "PYTHONPATH": str(clone)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert collected.returncode == 0, collected.stdout[-2000:]


@pytest.mark.skipif(
    not os.environ.get("PROMOTE_FRESH_VENV"),
    reason="installs into fresh venvs (network or a pip cache): set PROMOTE_FRESH_VENV=1",
)
def test_the_set_up_commands_work_in_a_fresh_clone_and_venv(clone):
    first, second = blocks("sh", section("## Set up"))[:2]
    done = subprocess.run(
        ["bash", "-c", first], cwd=clone, capture_output=True, text=True, timeout=1800
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "JAX (jax), jax notation" in done.stdout
    shutil.rmtree(clone / ".venv")
    done = subprocess.run(
        ["bash", "-c", second], cwd=clone, capture_output=True, text=True, timeout=3600
    )
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_sphinx_recipe_builds_a_page_with_the_table_and_its_legend(tmp_path):
    pytest.importorskip("sphinx", reason="the docs extra is not installed (pip install -e .[docs])")
    recipe = section("### 1. A table in your documentation")
    [conf] = blocks("python", recipe)
    [page] = blocks("rst", recipe)
    (tmp_path / "conf.py").write_text(conf, encoding="utf-8")
    (tmp_path / "index.rst").write_text("Types\n=====\n\n" + page, encoding="utf-8")
    out = tmp_path / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", str(tmp_path), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "rows are the first operand, columns the second" in html
    assert "i8 = int64" in html and "np.sqrt" in html


def test_the_mkdocs_recipe_builds_a_page_with_the_table_and_its_legend(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e .[docs])")
    recipe = section("### 1. A table in your documentation")
    [config] = blocks("yaml", recipe)
    [page] = blocks("markdown", recipe)
    (tmp_path / "mkdocs.yml").write_text("site_name: Types\n" + config, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "rows are the first operand, columns the second" in html and "i8 = int64" in html


def test_the_frameworks_list_is_what_the_registry_and_the_last_run_say():
    figures = _figures()
    found = figures.block_pattern("frameworks").search(README)
    assert found, "README.md has no figures:frameworks block"
    assert found.group(2) == figures.frameworks(), (
        "README.md's frameworks block is stale; run: python docs/figures.py --write-readme"
    )


def test_every_link_into_the_repository_exists():
    for target in re.findall(r"\]\(((?:docs|promote_cli|tests)/[^)#]*)", README):
        assert (ROOT / target).exists(), target


def test_no_install_command_names_a_package_index_that_has_no_promote():
    # promote is on no package index: every install shown is a path or a Git URL.
    pages = [README, *(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))]
    pages.append((ROOT / "docs" / "directives.rst").read_text(encoding="utf-8"))
    for text in pages:
        for block in re.findall(r"^```\w*\n(.*?)^```$", text, re.M | re.S):
            for line in block.splitlines():
                if "pip install" in line:
                    assert not re.search(r"promote-cli(?!\[\w+\] @ )", line), line
