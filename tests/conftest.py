from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner

# The helpers here (oracles, live, seeds ...), and the test modules of every folder: a test
# imports another's helpers by name (``from test_npy import write_corpus``).
_HERE = Path(__file__).parent
_SKIP = ("data", "__pycache__", ".hypothesis")
_FOLDERS = sorted(d for d in _HERE.iterdir() if d.is_dir() and d.name not in _SKIP)
sys.path[:0] = [str(_HERE), *map(str, _FOLDERS)]
DOCS = Path(__file__).resolve().parents[1] / "docs"


# The tests interrupt real promote runs with Ctrl-C (SIGINT) and expect promote to handle it.
# A process started with SIGINT ignored passes the ignore on to every child, and promote then
# leaves it ignored (tests/files/test_signals.py checks that), as it should for a shell's background
# job; so a suite run in the background (``pytest &``) gives its children SIGINT at its
# default, as a terminal would.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# Bytecode, kept for the run. About 370 tests start promote (or Python) in a process of its
# own. Where PYTHONDONTWRITEBYTECODE is set (it is on the machines CI runs on), nothing compiled
# is kept, and each of those processes compiles promote's modules again: `promote table` takes
# 0.29 s so, 0.21 s compiled. So the processes the tests start keep their bytecode in a
# directory of the run's own (PYTHONPYCACHEPREFIX), made here, in the controller, before any
# worker starts, and removed when the run ends: nothing is written beside the sources, as the
# variable asks. The workers themselves are started without it: a prefix is where Python reads
# bytecode too, so under one a worker would compile the standard library and every package it
# imports once more (2-3 s of collection each), where their installed bytecode is at hand.
_PYCACHE_DIR = "PROMOTE_TESTS_PYCACHE"  # the run's directory, passed from controller to workers
_PYCACHE: list[str] = []
if (
    sys.dont_write_bytecode
    and "PYTHONPYCACHEPREFIX" not in os.environ
    and _PYCACHE_DIR not in os.environ
):
    _PYCACHE.append(tempfile.mkdtemp(prefix="promote-pycache-"))
    os.environ[_PYCACHE_DIR] = _PYCACHE[0]


def _children_keep_bytecode() -> None:
    """The processes this one starts from now on keep their bytecode in the run's directory."""
    where = os.environ.get(_PYCACHE_DIR)
    if where:
        os.environ["PYTHONPYCACHEPREFIX"] = where
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


if "PYTEST_XDIST_WORKER" in os.environ:  # a worker, before it collects (the docs build starts)
    _children_keep_bytecode()


def pytest_configure(config):
    if config.getoption("dist", "no") == "no":  # -n 0: the tests run in this process
        _children_keep_bytecode()


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
# after every report is written and flushed; nothing of promote runs at shutdown. A pytest-xdist
# worker always ends so: its interpreter's teardown frees every measured cell it read and every
# answer it kept (millions of objects), which took about 5 s of the run's wall time at its end,
# the controller waiting for it; a worker has no exit handler of pytest's to run (the
# controller owns the temporary directories).
_FRAMEWORKS = ("jax", "torch", "tensorflow", "mlx", "openvino")
_status: list[int] = []


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    _status.append(int(exitstatus))
    _end_site_build(
        stopped=bool(session.shouldstop or session.shouldfail)
        or exitstatus == pytest.ExitCode.INTERRUPTED
    )
    for where in _shared_sites:  # xdist's controller, when every worker is done
        shutil.rmtree(where, ignore_errors=True)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    for where in _PYCACHE:
        shutil.rmtree(where, ignore_errors=True)
    worker = "PYTEST_XDIST_WORKER" in os.environ
    if _status and (worker or any(name in sys.modules for name in _FRAMEWORKS)):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_status[-1])


# The documentation site (docs/) is built once per run, by ``sphinx-build -W`` as the README
# says, in a process of its own: 40-50 s of CPU, the largest single step of the suite. It
# starts as soon as the tests are collected, so it runs beside them, and the tests that read it
# (those asking for the ``site`` fixture) run last, when it is done. With pytest-xdist's
# workers (the README's command runs one per core) the first worker to collect a reader starts
# it in a directory named after the run, and every worker reads the same site.
_site: dict = {}
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # set in xdist's workers only
_SHARED = Path(tempfile.gettempdir()) / f"promote-site-{_RUN}" if _RUN else None
# The build, writing its exit status when it ends (so a worker that did not start it knows).
_BUILD = """import os, subprocess, sys
where = sys.argv[1]
with open(os.path.join(where, "stderr"), "w") as err:
    code = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=err)
with open(os.path.join(where, "status.tmp"), "w") as f:
    f.write(str(code))
os.replace(os.path.join(where, "status.tmp"), os.path.join(where, "status"))
"""


def _lacking() -> str:
    """What the docs build needs and this environment lacks ("" when nothing)."""
    for module in ("sphinx", "sphinx_click", "myst_parser"):
        if find_spec(module) is None:
            return f"{module} is not installed: the docs extra (pip install -e '.[docs]')"
    if shutil.which("dot") is None:
        return "Graphviz's dot is not installed (Debian: apt-get install graphviz)"
    return ""


def _start_site_build() -> None:
    if _site or _lacking():
        return
    if _SHARED is None:
        where = Path(tempfile.mkdtemp(prefix="promote-site-"))
    else:
        where = _SHARED
        where.mkdir(exist_ok=True)
        try:  # one worker starts the build; the others only read it
            os.close(os.open(where / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            _site.update(where=where, out=where / "html")
            return
    _site.update(where=where, out=where / "html")
    sphinx = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", str(DOCS)]
    _site["process"] = subprocess.Popen(
        [sys.executable, "-c", _BUILD, str(where), *sphinx, str(where / "html")],
        start_new_session=True,  # its own group: stopping it stops sphinx too
    )


def _seconds(item: pytest.Item) -> float:
    """A slow test's wall time, as ``slow(seconds=...)`` states it (measured on 2 cores)."""
    return float(item.get_closest_marker("slow").kwargs.get("seconds", 5))  # type: ignore[union-attr]


def pytest_collection_modifyitems(session, config, items):
    """The tests marked ``slow`` first (pytest-xdist hands tests out in this order: one that
    takes half a minute, handed out last, would leave the other worker idle while the run waits
    for it), and the readers of the docs site last (it builds meanwhile)."""
    readers = {id(item) for item in items if "site" in getattr(item, "fixturenames", ())}
    slow = {id(item) for item in items if item.get_closest_marker("slow") is not None}
    items[:] = [
        *sorted((i for i in items if id(i) in slow), key=_seconds, reverse=True),
        *(i for i in items if id(i) not in slow and id(i) not in readers),
        *(i for i in items if id(i) in readers and id(i) not in slow),
    ]
    if readers and not config.option.collectonly:
        _start_site_build()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test that compares promote with a live framework skips, saying why, when that
    framework is installed at another version than its rules were measured on (``live.py``)."""
    marker = item.get_closest_marker("conformance")
    if marker is None:
        return
    import live

    from promote_cli import frameworks

    names = list(marker.args)
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        known = frameworks.names()
        names += [v for v in callspec.params.values() if isinstance(v, str) and v in known]
    why = live.unmeasured(names)
    if why:
        pytest.skip(why)


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site's directory (html/), built once per run (see above)."""
    lacking = _lacking()
    if lacking:
        pytest.skip(lacking)
    _start_site_build()
    status = _site["where"] / "status"
    deadline = time.monotonic() + 900
    while not status.exists():
        assert time.monotonic() < deadline, "the docs site did not build within 15 minutes"
        time.sleep(0.2)
    err = (_site["where"] / "stderr").read_text()
    assert status.read_text() == "0" and err == "", err
    return _site["out"]


def _end_site_build(stopped: bool) -> None:
    """A run that ends (this worker's part of it) removes its own site; a run stopped early
    (-x, Ctrl-C) stops a build still running. A shared site is another worker's to read: the
    controller removes it once every worker is done."""
    process = _site.get("process")
    if process is not None and process.poll() is None and (stopped or _SHARED is None):
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    if _site and _SHARED is None:  # a shared site is removed once every worker is done
        shutil.rmtree(_site["where"], ignore_errors=True)
    _site.clear()


_shared_sites: set[Path] = set()  # xdist's controller: the sites its workers share


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist's controller, for each worker it starts: the site the workers will share."""
    _shared_sites.add(
        Path(tempfile.gettempdir()) / f"promote-site-{node.workerinput['testrunuid']}"
    )


# With pytest-xdist (the README's command), the tests of one framework in these files run in
# one worker: the one that reads that framework's measurements and makes the one pass that
# several of them assert on (tests/measured/test_measured.py's ``found``; Keras's is 12 s of CPU). A
# test's framework is its parameter, the end of its id: ``test_x[keras]``. The groups go out
# first; every other test goes, one at a time, to the next free worker. (``xdist_group`` marks
# would say the same, but pytest-xdist 3.8 cannot apply them under pytest 9.) Another
# ``--dist`` mode given on the command line is used as given.
_BY_FRAMEWORK = ("tests/measured/test_measured.py",)


def _group(nodeid: str) -> str:
    path, _, name = nodeid.partition("::")
    if path in _BY_FRAMEWORK and name.endswith("]") and "[" in name:
        return f"{path}[{name[name.index('[') + 1 : -1]}]"
    return nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFramework(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _group(nodeid)

    return ByFramework(config, log)
