"""Shell completion as docs/guide/install.md sets it up: click's scripts, for bash and zsh,
completing promote's commands and its policy names, in a real shell where there is one."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = (ROOT / "docs" / "guide" / "install.md").read_text(encoding="utf-8")


def documented(shell: str) -> str:
    """The line install.md tells users of ``shell`` to add to its start-up file."""
    [line] = re.findall(rf"^(eval .*)# {shell}: ", INSTALL, re.M)
    return line.strip()


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    """An environment whose ``promote`` on PATH runs this checkout, as the console script."""
    script = tmp_path / "promote"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m promote_cli "$@"\n')
    script.chmod(0o755)
    return {
        **os.environ,
        "PATH": f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
    }


def in_bash(setup: str, words: list[str], env: dict[str, str]) -> list[str]:
    """What bash's completion offers for ``words`` (the last one being completed)."""
    quoted = " ".join(f"'{w}'" for w in words)
    program = (
        f"{setup}\n"
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
        "_promote_completion promote\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line]


def test_the_documented_lines_are_clicks_for_bash_and_zsh():
    assert documented("bash") == 'eval "$(_PROMOTE_COMPLETE=bash_source promote)"'
    assert documented("zsh") == 'eval "$(_PROMOTE_COMPLETE=zsh_source promote)"'


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_commands_and_policy_names(env):
    setup = documented("bash")
    assert in_bash(setup, ["promote", "pa"], env) == ["pair"]
    assert in_bash(setup, ["promote", "pair", "int8", "uint8", "-p", "t"], env) == [
        "torch",
        "tensorflow",
        "tinygrad",
    ]
    # several policies: the last item of the comma list is completed
    assert in_bash(setup, ["promote", "op", "sum", "int8", "-p", "numpy,ji"], env) == []
    assert in_bash(setup, ["promote", "table", "-p", "numpy,ja"], env) == ["numpy,jax"]
    assert "all" in in_bash(setup, ["promote", "pair", "-p", "a"], env)


def test_zsh_script_asks_what_zsh_would_and_gets_policy_names(env):
    script = subprocess.run(
        ["promote"], env={**env, "_PROMOTE_COMPLETE": "zsh_source"}, capture_output=True, text=True
    ).stdout
    assert script.startswith("#compdef promote")
    assert (
        "_PROMOTE_COMPLETE=zsh_complete" in script
        and "compdef _promote_completion promote" in script
    )
    # The question the script asks: the words so far and the index of the one being completed.
    asked = {
        **env,
        "_PROMOTE_COMPLETE": "zsh_complete",
        "COMP_WORDS": "promote pair int8 uint8 -p t",
        "COMP_CWORD": "5",
    }
    answer = subprocess.run(["promote"], env=asked, capture_output=True, text=True).stdout
    # zsh's protocol: type, value, description (_ for none), three lines per item
    assert answer.splitlines()[1::3] == ["torch", "tensorflow", "tinygrad"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed here")
def test_zsh_loads_the_documented_script(env):
    program = "autoload -Uz compinit && compinit -u\n" + documented("zsh") + "\n"
    program += "print -r -- ${_comps[promote]}\n"
    done = subprocess.run(["zsh", "-f", "-c", program], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "_promote_completion"
