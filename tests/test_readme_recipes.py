"""The README's CI and pre-commit recipes work as written (issue 11, item 4): they install
promote the way it can be installed, and the hooks they name run with the arguments they give."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(title)
    return README[start : README.index("\n### ", start + len(title))]


RECIPES = _section("### Keeping your project's docs fresh in CI")


def _hooks() -> dict[str, str]:
    """id -> entry, from .pre-commit-hooks.yaml (a list of flat mappings)."""
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks = {}
    for block in re.split(r"^- ", text, flags=re.M)[1:]:
        fields = dict(re.findall(r"^\s*(\w+): (.*)$", block, re.M))
        hooks[fields["id"]] = fields["entry"]
    return hooks


def test_the_ci_recipe_installs_from_a_repository_not_an_index():
    assert "promote-cli==" not in README
    installs = re.findall(r"pip install (\S+)", RECIPES)
    assert '"git+https://github.com/OWNER/REPO@COMMIT"' in installs
    assert "**`OWNER/REPO` and `COMMIT` are placeholders you replace**" in RECIPES


def test_the_pre_commit_example_has_marked_placeholders_only():
    config = RECIPES.split("# .pre-commit-config.yaml", 1)[1].split("```", 1)[0]
    assert "<owner>" not in config
    assert "repo: https://github.com/OWNER/REPO # replace" in config
    assert "rev: COMMIT # replace" in config


def test_the_pre_commit_example_runs_its_hooks_with_its_args(run, tmp_path, monkeypatch):
    config = RECIPES.split("# .pre-commit-config.yaml", 1)[1].split("```", 1)[0]
    used = re.findall(r"- id: (\S+)\n\s+args: \[(.*)\]", config)
    hooks = _hooks()
    assert {hook for hook, _ in used} == set(hooks) == {"promote-table", "promote-tables"}

    # The user's project: the files the hooks check, written as the README says.
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
