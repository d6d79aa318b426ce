from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def run():
    """Run the CLI in-process: run("pair", "f16", "bf16") -> click Result (exit_code, stdout)."""
    from promote_cli.cli import cli

    runner = CliRunner()

    def invoke(*args: str, **kwargs):
        return runner.invoke(cli, list(args), catch_exceptions=False, **kwargs)

    return invoke
