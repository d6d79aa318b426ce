from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
DOCS = Path(__file__).resolve().parents[1] / "docs"


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
    _end_site_build()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if _status and any(name in sys.modules for name in _FRAMEWORKS):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_status[-1])


# The documentation site (docs/) is built once per run, by ``sphinx-build -W`` as the README
# says, in a process of its own: 40-50 s of CPU, the largest single step of the suite. It
# starts as soon as the tests are collected, so it runs beside them on a second core, and the
# tests that read it (those asking for the ``site`` fixture) run last, when it is done.
_site: dict = {}


def _start_site_build() -> None:
    if _site or shutil.which("dot") is None:
        return
    where = Path(tempfile.mkdtemp(prefix="promote-site-"))
    _site.update(where=where, out=where / "html", err=open(where / "stderr", "w+"))  # noqa: SIM115
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-q",
        str(DOCS),
        str(where / "html"),
    ]
    _site["process"] = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=_site["err"])


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what they deselect
def pytest_collection_modifyitems(session, config, items):
    readers = {id(item) for item in items if "site" in getattr(item, "fixturenames", ())}
    if readers and not config.option.collectonly:
        items[:] = [i for i in items if id(i) not in readers] + [
            i for i in items if id(i) in readers
        ]
        _start_site_build()


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site's directory (html/), built once per run (see above)."""
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (Debian: apt-get install graphviz)")
    _start_site_build()
    _site["process"].wait(timeout=900)
    _site["err"].seek(0)
    err = _site["err"].read()
    assert _site["process"].returncode == 0 and err == "", err
    return _site["out"]


def _end_site_build() -> None:
    process = _site.get("process")
    if process is not None and process.poll() is None:  # a run stopped early (-x, Ctrl-C)
        process.kill()
        process.wait()
    if _site:
        _site["err"].close()
        shutil.rmtree(_site["where"], ignore_errors=True)
        _site.clear()
