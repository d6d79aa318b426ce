"""``promote table -o`` never writes over a file the table was made from (``--template``, a
policy file), under any of its names: the path itself, a symlink to it, a hard link of it, as
``promote convert`` refuses an output that is one of its inputs."""

from __future__ import annotations

import os
import textwrap

import pytest
from click.testing import CliRunner

from promote_cli.cli import cli

TEMPLATE = "{{ table.columns | length }}\n"
POLICY = textwrap.dedent("""\
    name = "tiny"
    [lattice]
    bool = ["uint8"]
    uint8 = ["int16"]
    """)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.parametrize("name", ["itself", "symlink", "hard link"])
def test_an_output_that_is_the_template_under_any_name_is_refused(tmp_path, name):
    template = tmp_path / "t.md.j2"
    template.write_text(TEMPLATE)
    out = template if name == "itself" else tmp_path / "out.md"
    if name == "symlink":
        out.symlink_to(template.name)
    elif name == "hard link":
        os.link(template, out)
    done = invoke("table", "-p", "numpy", "--types", "int8", "--template", str(template),
                  "-o", str(out))  # fmt: skip
    assert done.exit_code == 2
    assert done.stderr == (
        f"promote: error: output {out} is the input {template} (same file); choose another output\n"
    )
    assert template.read_text() == TEMPLATE
    assert os.stat(out).st_ino == os.stat(template).st_ino  # the link is not broken either


@pytest.mark.parametrize("how", ["-p", "--policy-file"])
def test_an_output_that_is_the_policy_file_under_a_hard_link_is_refused(tmp_path, how):
    policy = tmp_path / "tiny.toml"
    policy.write_text(POLICY)
    out = tmp_path / "tiny.md"
    os.link(policy, out)
    done = invoke("table", how, str(policy), "-o", str(out))
    assert done.exit_code == 2, done.stderr
    assert "is the input" in done.stderr and "(same file)" in done.stderr
    assert policy.read_text() == POLICY


def test_an_output_beside_the_template_is_written(tmp_path):
    template = tmp_path / "t.md.j2"
    template.write_text(TEMPLATE)
    done = invoke("table", "-p", "numpy", "--types", "int8,uint8", "--template", str(template),
                  "-o", str(tmp_path / "out.md"))  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert (tmp_path / "out.md").read_text() == "2\n"
    assert template.read_text() == TEMPLATE
