"""The shape of the package: no import circles (counting modules imported by a name passed to
``import_module``), one framework per directory, and the plugins below the command line."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "promote_cli"


def module_names() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = module_names()


def _pattern(node: ast.JoinedStr, here: str) -> re.Pattern[str]:
    """An f-string module name as a pattern: ``f"{__name__}.{directory}"`` in the registry
    matches each of its direct subpackages, ``f"{x.package}.oracle"`` every oracle."""
    parts = []
    if node.values and not isinstance(node.values[0], ast.Constant):
        # A name computed from a variable: one of this package's own modules.
        first = node.values[0].value  # type: ignore[attr-defined]
        if not (isinstance(first, ast.Name) and first.id == "__name__"):
            parts.append(re.escape(here) + r"\.")
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(re.escape(str(value.value)))
        elif isinstance(value.value, ast.Name) and value.value.id == "__name__":
            parts.append(re.escape(here))
        else:
            parts.append(r"[\w.]+")
    return re.compile("".join(parts) + "$")


def imports(name: str, path: Path) -> set[str]:
    """Every module of the package that ``name`` imports, anywhere in it (functions and
    ``TYPE_CHECKING`` blocks included), and those a call of ``import_module`` names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module.
            subs = {f"{node.module}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(subs)
            if len(subs) < len(node.names):
                found.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "import_module":
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
            elif isinstance(arg, ast.JoinedStr):
                pattern = _pattern(arg, name)
                found.update(m for m in MODULES if pattern.match(m))
    return {m for m in found if m in MODULES and m != name}


@functools.cache
def package_graph() -> dict[str, set[str]]:
    """Every module's imports of the package (each source parsed once a run, when a test asks:
    not while the tests are collected, in every worker)."""
    return {name: imports(name, path) for name, path in MODULES.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_one_that_imports_it_back():
    assert circles(package_graph()) == []


def test_the_circle_finder_finds_a_circle_through_import_module():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    registry = package_graph()["promote_cli.frameworks"]
    # The registry names its frameworks' modules only through import_module.
    assert "promote_cli.frameworks.jax.promotion" in registry
    assert "promote_cli.frameworks.keras.oracle" in registry


@pytest.mark.parametrize("module", ["promote_cli.sphinx", "promote_cli.markdown"])
def test_the_docs_plugins_import_no_command_line(module):
    assert not any(m.startswith("promote_cli.cli") for m in package_graph()[module])


@pytest.mark.parametrize(
    "module, needs", [("promote_cli.sphinx", "sphinx"), ("promote_cli.markdown", "markdown")]
)
def test_importing_a_docs_plugin_imports_no_click(module, needs):
    pytest.importorskip(needs, reason=f"{module} needs {needs} (the docs extra)")
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}, sys; assert 'click' not in sys.modules"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_nothing_below_the_frameworks_imports_one_of_them():
    # The registry and the code above it import frameworks; the catalogue, notations,
    # operands, options and the engine never do.
    below = ("dtypes", "_catalogue", "notations", "operands", "options", "engine", "errors")
    for name in below:
        taken = {
            m
            for m in package_graph()[f"promote_cli.{name}"]
            if m.startswith("promote_cli.frameworks")
        }
        assert taken == set(), name


def test_every_framework_directory_is_one_registry_line_and_its_entry_names_it():
    from promote_cli import frameworks

    directories = sorted(
        p.name for p in (PACKAGE / "frameworks").iterdir() if (p / "__init__.py").is_file()
    )
    assert directories == sorted(frameworks.FRAMEWORKS)
    assert len(frameworks.FRAMEWORKS) == len(set(frameworks.FRAMEWORKS))  # each once
    for directory, entry in zip(frameworks.FRAMEWORKS, frameworks.entries(), strict=True):
        assert entry.package == f"promote_cli.frameworks.{directory}", entry.name
        assert (PACKAGE / "frameworks" / directory / "promotion.py").is_file()


def test_no_module_outside_a_framework_directory_names_one_framework_module():
    # Everything one framework's lives in its directory: outside it, its modules are reached
    # through the registry only (the registry itself names them by pattern, not by name).
    own = re.compile(r"promote_cli\.frameworks\.(\w+)\b")
    for name, taken in package_graph().items():
        if name == "promote_cli.frameworks" or name.startswith("promote_cli.frameworks."):
            continue
        named = {m for m in taken if own.match(m)}
        assert named == set(), f"{name} imports {sorted(named)}"


def test_no_framework_imports_another_frameworks_package():
    # What two frameworks share (c10's promotion, JAX's lattice, NumPy's) is declared below
    # both, in promote_cli/shared/: a framework's modules import their own directory's only.
    own = re.compile(r"promote_cli\.frameworks\.(\w+)")
    crossing = []
    for name, taken in package_graph().items():
        found = own.match(name)
        if found is None or found.group(1) == "_index":
            continue
        for module in taken:
            other = own.match(module)
            if other is not None and other.group(1) != found.group(1):
                crossing.append(f"{name} imports {module}")
    assert crossing == [], "\n".join(crossing)


def test_the_cross_framework_check_sees_an_import_of_another_framework(tmp_path):
    # The check above reads the same graph as every test here: a framework module that names
    # another framework's module is one of its edges.
    path = tmp_path / "pairs.py"
    path.write_text("from promote_cli.frameworks.numpy import promotion\n", encoding="utf-8")
    taken = imports("promote_cli.frameworks.tensorflow.pairs", path)
    assert taken == {"promote_cli.frameworks.numpy.promotion"}


DESIGN = PACKAGE.parent / "docs" / "guide" / "design.md"
LEFT = 26  # the width of the picture's left column, where each layer names its modules


def layers() -> list[set[str]]:
    """The layers the design page draws, top first: the modules each names in the left column
    of its picture (``verify/`` followed by names on its line and the indented lines under it
    names verify's modules; ``x/`` a whole package; ``frameworks/<name>/`` every framework's)."""
    text = DESIGN.read_text(encoding="utf-8")
    picture = text.split("```\n", 2)[1]
    out: list[set[str]] = [set()]
    package = ""
    for line in picture.splitlines():
        left = line[:LEFT].strip()
        if left in ("", "|"):
            if out[-1]:
                out.append(set())
            continue
        if not line.startswith("   "):
            package = ""
        words = re.split(r"[\s,]+", left)
        for word in words:
            if word == "promote_cli":  # the package's own face
                out[-1].add(word)
            elif word == "frameworks/<name>/":
                out[-1].add("promote_cli.frameworks.*")
            elif word.endswith("/") and len(words) > 1:  # verify/ driver cases: its modules
                package = word.strip("/")
            elif word.endswith("/"):  # npy/: the package and its modules
                out[-1].add(f"promote_cli.{word.strip('/')}")
            else:
                name = word.replace("/", ".").replace(".__init__", "").replace("<command>", "*")
                out[-1].add(f"promote_cli.{package + '.' if package else ''}{name}")
    return [layer for layer in out if layer]


def layer_of(module: str, drawn: list[set[str]]) -> int | None:
    """The index of the layer that names ``module``, or its package (``npy`` holds
    ``npy.header``): the longest name that holds it wins, as ``verify.protocol`` is drawn
    apart from ``verify``'s driver. ``promote_cli`` alone is the package's own face."""
    found = [
        (len(whole), i)
        for i, layer in enumerate(drawn)
        for whole in (name.removesuffix(".*") for name in layer)
        if module == whole or (whole != "promote_cli" and module.startswith(f"{whole}."))
    ]
    return max(found)[1] if found else None


def test_the_design_page_draws_every_module_and_no_import_runs_up_its_layers():
    drawn = layers()
    placed = {m: layer_of(m, drawn) for m in MODULES}
    # The two generators a developer runs by hand stand apart from the layers.
    generators = {"promote_cli.catalogue_gen", "promote_cli.regenerate", "promote_cli._catalogue"}
    assert [m for m, i in placed.items() if i is None and m not in generators] == []
    up = [
        f"{a} (layer {placed[a]}) imports {b} (layer {placed[b]})"
        for a, found in package_graph().items()
        for b in found
        if placed[a] is not None and placed[b] is not None and placed[b] < placed[a]
    ]
    assert up == [], "\n".join(up)


# Modules longer than about 600 lines, each with why it may be: declarations and data read as
# tables, or a module whose split is under way elsewhere. Every other module has one job and
# fits.
LONGEST = 600
LONG_BY_DECLARATION = {
    # NumPy's table of the lower half, its type numbers and the legacy promotion's loops.
    "promote_cli.shared.numpy_promotion": "declarations",
    # The command's report: its options, the progress line, the text and JSON reports.
    "promote_cli.cli.verify": "about 600",
}


def test_no_module_is_longer_than_about_600_lines_but_declarations():
    long = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in MODULES.items()
        if name != "promote_cli._catalogue"  # generated data (catalogue_gen)
    }
    over = {name: n for name, n in long.items() if n > LONGEST and name not in LONG_BY_DECLARATION}
    assert over == {}
    # and the list names only modules that still need it
    assert [m for m in LONG_BY_DECLARATION if long.get(m, 0) <= LONGEST] == []


def test_expr_table_is_used_by_the_views_alone():
    # promote expr's table view stands beside render: the command and the docs plugins reach
    # it through the question they share (asking); nothing else imports it.
    users = {name for name, taken in package_graph().items() if "promote_cli.exprtable" in taken}
    assert users == {"promote_cli.asking", "promote_cli.cli.expr"}


def _called_down(run, tracked: tuple[type, ...], code: str) -> list[str]:
    """Every call ``run()`` makes, inside promote_cli, of a function given ``code`` or an
    object of ``tracked`` (what promote expr makes of the code), that goes up the design
    page's layers from the promote_cli function that calls it."""
    drawn = layers()
    up: list[str] = []

    def place(frame) -> tuple[str, int | None] | None:
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("promote_cli"):
            return None
        return module, layer_of(module, drawn)

    def carries(frame) -> bool:
        names = frame.f_code.co_varnames[
            : frame.f_code.co_argcount + frame.f_code.co_kwonlyargcount
        ]
        given = [frame.f_locals.get(n) for n in names]
        return any(v is code or isinstance(v, tracked) for v in given)

    def profile(frame, event, arg):
        if event != "call":
            return
        callee = place(frame)
        if callee is None or not carries(frame):
            return
        caller_frame = frame.f_back
        while caller_frame is not None and place(caller_frame) is None:
            caller_frame = caller_frame.f_back
        if caller_frame is None:
            return
        caller = place(caller_frame)
        assert caller is not None
        if callee[1] is not None and caller[1] is not None and callee[1] < caller[1]:
            up.append(f"{caller[0]} -> {callee[0]}.{frame.f_code.co_name}")

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return up


def test_following_the_code_of_promote_expr_never_goes_back_up_a_layer():
    from click.testing import CliRunner

    from promote_cli.cli import cli
    from promote_cli.evaluation import Question, Step
    from promote_cli.exprtable import ExprTable
    from promote_cli.program import Node, Program

    code = "y = x / 2; y += w.sum(); where(x > w, y, w)"
    tracked = (Program, Node, Question, Step, ExprTable)
    args = ["expr", code, "x=int8", "w=uint8", "-p", "numpy,torch,jax", "--explain"]
    done: list[int] = []

    def run() -> None:
        done.append(CliRunner().invoke(cli, args).exit_code)

    up = _called_down(run, tracked, code)
    assert done == [0]
    assert up == [], "\n".join(up)


def test_the_follower_finds_a_call_that_goes_up_a_layer():
    # A function of the catalogue's layer (a frame whose module is promote_cli.dtypes) that
    # asks the command line's question with the code: a call up, from the bottom to asking.
    from promote_cli import asking

    code = "x + 1"
    scope = {"__name__": "promote_cli.dtypes", "asking": asking, "code": code}
    exec("def up():\n    asking.expr_question(code, ['x=int8'], 'numpy', [])", scope)
    assert _called_down(scope["up"], (), code) == [
        "promote_cli.dtypes -> promote_cli.asking.expr_question"
    ]


# The operations, from the bottom: the vocabulary, the rule declarations, the steps that read
# a rule, the walk that answers a cell, the table side. Each imports only those before it.
OPERATIONS = ("vocabulary", "rules", "steps", "walk", "asked")


@pytest.mark.parametrize("at", range(len(OPERATIONS)))
def test_each_operations_module_imports_only_those_below_it(at):
    above = {f"promote_cli.{m}" for m in OPERATIONS[at + 1 :]}
    taken = package_graph()[f"promote_cli.{OPERATIONS[at]}"]
    assert taken & above == set(), OPERATIONS[at]
    # and nothing that answers a request, names a framework or runs one
    higher = ("promote_cli.api", "promote_cli.frameworks", "promote_cli.verify", "promote_cli.cli")
    assert {m for m in taken if m.startswith(higher)} == set(), OPERATIONS[at]


def test_the_design_page_draws_the_operations_modules_in_their_order():
    drawn = layers()
    placed = [layer_of(f"promote_cli.{m}", drawn) for m in OPERATIONS]
    assert None not in placed
    # top first: the table side highest, the vocabulary lowest, each in a layer of its own
    assert placed == sorted(placed, reverse=True) and len(set(placed)) == len(placed), placed


def test_no_operations_module_is_longer_than_600_lines():
    # One job a module: the answer of an operation was one module of 1,432 lines.
    long = {
        m: n
        for m in OPERATIONS
        if (n := len((PACKAGE / f"{m}.py").read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}
