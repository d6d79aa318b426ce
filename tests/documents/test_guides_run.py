"""Every command in the guide runs as written, and prints what its page shows.

Each page of docs/guide is read top to bottom in a directory of its own: a fenced block whose
info string names a file after its language (```` ```toml tab.toml ````) is written to that
file, as the page tells its reader to save it; each ``console`` block is run command by command
(``$ command`` lines, stdout and stderr together, as on a terminal) and what it prints is
compared with the lines under it, as tests/documents/test_readme.py does for the README (a line
``...`` stands for any lines, a line ending in `` ...`` for any line starting with what comes
before); each ``python`` block runs as a script there. Blocks that cannot run here are named below
with the reason (installing, a CI service's configuration, a docs build), and each of those is
tested where it can be.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_readme import commands, shown_as

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```$", re.M | re.S)

# Blocks not run here, by (page, language): each with where it is tested instead, or why not.
NOT_RUN = {
    (
        "install.md",
        "sh",
    ): "installs packages (tests/documents/test_readme.py checks the two set-up lines;"
    " tests/commands/test_shell_completion.py the completion lines)",
    ("ci.md", "sh"): "a pre-commit and CI recipe: tests/documents/test_ci_recipes.py runs it",
    ("ci.md", "yaml"): "a CI service's configuration: tests/documents/test_ci_recipes.py reads it",
    ("drift.md", "sh"): "installs other releases of a framework into a venv",
    ("drift.md", "text"): "the record of a run against a release promote has measured since",
    ("nep50.md", "sh"): "measures NumPy 1.26.4 in an environment of its own, then rewrites this"
    " page (tests/measured/test_nep50.py checks the page against the measurement)",
    ("expr.md", "rst"): "a Sphinx page: tests/documents/test_docs_sphinx.py builds it",
    ("tables.md", "jinja"): "a template: tests/commands/test_render.py renders it",
    ("verify.md", "text"): "the record of a run that found mismatches (ml_dtypes 0.7.0, before"
    " promote modelled it), and the shape of one line",
    ("verify.md", "sh"): "installs the conformance extra (CI runs it: .ci/run)",
    ("measurements.md", "sh"): "writes measurement files into the checkout, or runs for minutes"
    " (tests/measured/test_measured.py and tests/measured/test_flip_rules.py test both)",
    ("design.md", ""): "a drawing of the layers (tests/properties/test_architecture.py reads it)",
    ("benchmarks.md", "sh"): "a benchmark of minutes that needs 8 GiB of disk",
    ("pair.md", "text"): "the command's synopsis, as `promote pair --help` prints it",
}
# What a page's commands need beyond promote's own dependencies: the frameworks it asks
# (installed by the conformance extra) or a program (Graphviz's dot).
NEEDS = {
    "drift.md": ("torch", "mlx"),
    "verify.md": ("array_api_strict",),
    "graph.md": ("dot",),
}
# Pages that belong to others' work (exit codes, file safety) hold no runnable block; the rest
# are every page of the guide.
PAGES = sorted(p.name for p in GUIDE.glob("*.md"))


def page_blocks(text: str) -> list[tuple[str, str, str]]:
    """(language, file name or "", body) of each fenced block, in order; MyST's directives
    (```` ```{include} ````) are the docs build's, not a reader's."""
    out = []
    for info, body in FENCE.findall(text):
        parts = info.split() or [""]
        if parts[0].startswith("{"):
            continue
        out.append((parts[0], parts[1] if len(parts) > 1 else "", body))
    return out


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, str]:
    """``promote`` and ``python`` on PATH run this interpreter on this checkout."""
    bin_dir = tmp_path_factory.mktemp("bin")
    # promote as installed: importable whatever PYTHONPATH a page's command sets
    promote = bin_dir / "promote"
    promote.write_text(
        f'#!/bin/sh\nPYTHONPATH="${{PYTHONPATH:+$PYTHONPATH:}}{ROOT}" exec "{sys.executable}"'
        ' -m promote_cli "$@"\n',
        encoding="utf-8",
    )
    python = bin_dir / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    for script in (promote, python):
        script.chmod(0o755)
    out = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    out.update(
        PATH=f"{bin_dir}{os.pathsep}{out.get('PATH', '')}",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
    )
    return out


def test_every_block_of_the_guide_is_run_or_named_with_its_reason():
    kinds = set()
    for page in PAGES:
        for lang, name, _ in page_blocks((GUIDE / page).read_text(encoding="utf-8")):
            if lang in ("console", "python") or name:
                continue
            assert (page, lang) in NOT_RUN, f"{page}: a {lang} block neither run nor exempted"
            kinds.add((page, lang))
    assert kinds == set(NOT_RUN), "an exemption names a block that is gone"


def test_the_guides_that_teach_start_from_a_command():
    # A guide starts from a task and its command: its first block is one a reader runs.
    for page in ("pair.md", "operations.md", "tables.md", "convert.md", "diff.md", "expr.md"):
        blocks = page_blocks((GUIDE / page).read_text(encoding="utf-8"))
        assert blocks and blocks[0][0] == "console", page


@pytest.mark.parametrize(
    "page",
    [
        p
        for p in PAGES
        if any(
            lang in ("console", "python")
            for lang, _, _ in page_blocks((GUIDE / p).read_text(encoding="utf-8"))
        )
    ],
)
def test_each_page_runs_as_written(page, env, tmp_path):
    for need in NEEDS.get(page, ()):
        if need == "dot":
            if shutil.which("dot") is None:
                pytest.skip("Graphviz's dot is not installed (Debian: apt-get install graphviz)")
        else:
            pytest.importorskip(need, reason=f"{need} is not installed (the conformance extra)")
    for lang, name, body in page_blocks((GUIDE / page).read_text(encoding="utf-8")):
        if name:
            (tmp_path / name).write_text(body, encoding="utf-8")
            continue
        if lang == "python":
            done = subprocess.run(
                [sys.executable, "-c", body],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert done.returncode == 0, f"{page}: a python block fails:\n{done.stderr}"
        if lang != "console":
            continue
        for (command, expected), (code, printed) in zip(
            commands(body), run_block(body, tmp_path, env), strict=True
        ):
            # a refusal (1) is an answer a page shows, and so is bad input (2) when the page
            # shows its one line; a bug (3) never is
            shows_error = bool(expected) and expected[-1].startswith("promote: error:")
            assert code in (0, 1) or (code == 2 and shows_error), (page, command, printed)
            assert shown_as(expected).fullmatch(printed), (
                f"{page}\n$ {command}\n--- the page shows:\n"
                + "\n".join(expected)
                + f"\n--- it prints:\n{printed}"
            )


def run_block(body: str, cwd: Path, env: dict[str, str]) -> list[tuple[int, str]]:
    """Each command of a console block, run in one shell as a reader types them (``echo $?``
    says what the command before it exited with): its exit code and what it printed."""
    mark = "@@promote-guide: command done@@"
    script = "".join(
        f"{{ {command}\n}} 2>&1; __code=$?; printf '{mark} %d\\n' $__code; (exit $__code)\n"
        for command, _ in commands(body)
    )
    done = subprocess.run(
        ["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    out, printed = [], ""
    for line in done.stdout.split("\n")[:-1]:
        line += "\n"
        if line.startswith(mark):
            out.append((int(line.split()[-1]), printed))
            printed = ""
        else:
            printed += line
    assert len(out) == len(commands(body)), done.stdout + done.stderr
    return out
