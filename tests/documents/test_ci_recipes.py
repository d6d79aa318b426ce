"""The CI and pre-commit recipes (docs/guide/ci.md) work as written:
they install promote the way it can be installed, from a Git URL filled in once, and the hooks
they name run with the arguments they give."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CI = (ROOT / "docs" / "guide" / "ci.md").read_text(encoding="utf-8")


def _hooks() -> dict[str, str]:
    """id -> entry, from .pre-commit-hooks.yaml (a list of flat mappings)."""
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks = {}
    for block in re.split(r"^- ", text, flags=re.M)[1:]:
        fields = dict(re.findall(r"^\s*(\w+): (.*)$", block, re.M))
        hooks[fields["id"]] = fields["entry"]
    return hooks


def _yaml(name: str) -> str:
    return CI.split(f"# {name}", 1)[1].split("```", 1)[0]


def test_the_workflow_installs_from_a_repository_named_once():
    workflow = _yaml(".github/workflows/docs.yml")
    # the one line to fill in, said as such, and used by the install step
    assert "PROMOTE: git+https://github.com/OWNER/REPO@COMMIT" in workflow
    assert "# Fill in once: the Git URL you got promote from" in workflow
    assert '- run: pip install "$PROMOTE"' in workflow
    assert workflow.count("OWNER/REPO") == 1
    assert "promote-cli" not in workflow


def test_the_pre_commit_example_has_marked_placeholders_only():
    config = _yaml(".pre-commit-config.yaml")
    assert "<owner>" not in config
    assert "repo: https://github.com/OWNER/REPO # fill in" in config
    assert "rev: COMMIT # fill in" in config


def test_the_pre_commit_example_runs_its_hooks_with_its_args(run, tmp_path, monkeypatch):
    config = _yaml(".pre-commit-config.yaml")
    used = re.findall(r"- id: (\S+)\n\s+args: \[(.*)\]", config)
    hooks = _hooks()
    assert {hook for hook, _ in used} == set(hooks) == {"promote-table", "promote-tables"}

    # The user's project: the files the hooks check, written as the page says.
    monkeypatch.chdir(tmp_path)
    assert run("tables", "docs/tables").exit_code == 0
    assert run("table", "-p", "jax", "-f", "html", "-o", "docs/jax_promotion.html").exit_code == 0
    for hook, args in used:
        words = shlex.split(hooks[hook]) + [a.strip() for a in args.split(",")]
        assert words[0] == "promote"
        fresh = run(*words[1:])
        assert fresh.exit_code == 0, (hook, fresh.stderr)
    Path("docs/jax_promotion.html").write_text("stale\n", encoding="utf-8")
    Path("docs/tables/jax.md").write_text("stale\n", encoding="utf-8")
    for hook, args in used:
        words = shlex.split(hooks[hook]) + [a.strip() for a in args.split(",")]
        stale = run(*words[1:])
        assert stale.exit_code == 1 and "regenerate it with: promote" in stale.stderr, hook
