from __future__ import annotations

import os
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


# The conformance tests import several frameworks into this one process (JAX, PyTorch,
# TensorFlow, MLX, OpenVINO). Their native thread pools and destructors do not always survive
# interpreter shutdown together: once in several full runs here the process died of a fatal
# signal after the last test had passed and the summary was printed, turning a green run red.
# So when such a framework is loaded, the session ends with os._exit and pytest's own exit status,
# after every report is written and flushed; nothing of promote runs at shutdown.
_FRAMEWORKS = ("jax", "torch", "tensorflow", "mlx", "openvino")
_status: list[int] = []


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    _status.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if _status and any(name in sys.modules for name in _FRAMEWORKS):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_status[-1])
