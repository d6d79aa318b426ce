"""CONTRIBUTING.md's three recipes, followed as written: the code blocks with a ``title`` are
what these tests write (a whole file, or with ``line="NAME"`` one line added to the literal
``NAME`` opens), and the commands a framework's recipe shows are run as written, so the recipes
cannot drift from the code.

Adding a framework and adding an output format change what is imported at start-up (the
registry, ``click.Choice`` of the formats), so they run on a copy of the package, as real
``promote`` processes; adding an operation is data read at call time, so it runs in-process.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from promote_cli import frameworks, rules, vocabulary
from promote_cli.errors import PromotionError

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "CONTRIBUTING.md"
# A fenced block with a title: ```python title="path" line="FRAMEWORKS"
BLOCK = re.compile(
    r'^```\w+ title="(?P<title>[^"]+)"(?: line="(?P<line>\w+)")?\n(?P<text>.*?)^```$',
    re.M | re.S,
)

# The installed abacus library, for the oracle of the recipe's abacus to ask: six dtypes and
# three functions, its promotion written as "the first type that holds both" (not as the
# recipe's lattice, so that verify compares two descriptions of one library).
ABACUS = """
__version__ = "1.0"
ORDER = ("bool", "uint8", "int8", "int16", "float16", "float32")
HOLDS = {
    "bool": {"bool"},
    "uint8": {"bool", "uint8"},
    "int8": {"bool", "int8"},
    "int16": {"bool", "uint8", "int8", "int16"},
    "float16": {"bool", "uint8", "float16"},
    "float32": set(ORDER),
}


class Array:
    def __init__(self, dtype):
        if dtype not in ORDER:
            raise TypeError(f"abacus has no dtype {dtype}")
        self.dtype = dtype

    def __add__(self, other):
        return add(self, other)

    def __truediv__(self, other):
        return divide(self, other)


zeros = ones = Array


def add(a, b):
    return Array(next(t for t in ORDER if {a.dtype, b.dtype} <= HOLDS[t]))


FLOAT = {"bool": "float16", "uint8": "float16", "int8": "float16", "int16": "float32"}


def divide(a, b):
    t = add(a, b).dtype
    return Array(FLOAT.get(t, t))


def sum(a):
    return Array("int16" if a.dtype in HOLDS["int16"] else a.dtype)
"""


FRAMEWORK = "Add a framework"
# Any fenced block: ```sh, ```python title="..." ...
FENCE = re.compile(r"^```(?P<lang>\w+)(?P<info>[^\n]*)\n(?P<text>.*?)^```$", re.M | re.S)


def section(heading: str) -> str:
    text = RECIPES.read_text(encoding="utf-8")
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def blocks(heading: str, lang: str) -> list[tuple[str, str, str]]:
    """The fenced blocks of ``lang`` in the section ``## heading``: (lang, info, text)."""
    return [
        (m["lang"], m["info"], m["text"])
        for m in FENCE.finditer(section(heading))
        if m["lang"] == lang
    ]


def recipe(heading: str) -> list[tuple[str, str | None, str]]:
    """The titled blocks of the section ``## heading``: (title, line, text)."""
    return [(m["title"], m["line"], m["text"]) for m in BLOCK.finditer(section(heading))]


def add_line(path: Path, name: str, line: str) -> None:
    """``line`` as the last item of the literal that ``NAME = (`` or ``NAME: ... = {`` opens in
    ``path``, before its closing bracket."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, s in enumerate(lines) if re.match(rf"{name}\b[^=]*= [({{]$", s.rstrip()))
    end = next(i for i in range(start, len(lines)) if lines[i].rstrip() in (")", "}"))
    lines.insert(end, line)
    path.write_text("".join(lines), encoding="utf-8")


def follow(blocks: list[tuple[str, str | None, str]], root: Path) -> None:
    """Do what the blocks say, under ``root``: write each file, add each line."""
    for title, line, text in blocks:
        path = root / title
        if line is None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        else:
            add_line(path, line, text)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The package and what it reads at run time (its templates), nothing else."""
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "promote_cli", tmp_path / "promote_cli", ignore=ignore)
    shutil.copytree(ROOT / "templates", tmp_path / "templates", ignore=ignore)
    return tmp_path


def promote(copy: Path, *args: str, path: tuple[Path, ...] = ()) -> subprocess.CompletedProcess:
    """``promote ARGS`` run from the copy (and ``path``, where an installed library is)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (copy, *path)))}
    env.pop("COLUMNS", None)
    return subprocess.run(
        [sys.executable, "-m", "promote_cli", *args],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def python(copy: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python ARGS`` run from the copy (or ``cwd``), importing the copy's promote."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (copy, copy / "docs")))}
    env.pop("COLUMNS", None)
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd or copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
def test_a_framework_added_as_a_directory_and_a_registry_line_is_everywhere(copy, tmp_path):
    follow(recipe("Add a framework"), copy)
    assert "abacus" not in frameworks.names()  # the copy's registry, not this process's

    listed = promote(copy, "policies")
    assert listed.returncode == 0, listed.stderr
    assert "abacus: Abacus (abacus.add (abacus 1.0), measured)" in listed.stdout
    assert "types (6): bool uint8 int8 int16 float16 float32" in listed.stdout

    helped = " ".join(promote(copy, "table", "-h").stdout.split())
    assert "Whose rules: jax, openvino, ascend, " in helped
    assert " onnx, abacus (see `promote policies`)" in helped
    table = promote(copy, "table", "--policy", "abacus", "--format", "csv")
    assert table.returncode == 0, table.stderr
    rows = {r.split(",")[0]: r.split(",")[1:] for r in table.stdout.splitlines()}
    assert rows[""] == ["bool", "uint8", "int8", "int16", "float16", "float32"]
    assert rows["uint8"] == ["uint8", "uint8", "int16", "int16", "float16", "float32"]
    assert rows["int8"][4] == "float32"  # int8 x float16: where abacus departs from NumPy

    for args, want in [
        (("divide", "int8", "int8"), "float16"),
        (("divide", "int16", "uint8"), "float32"),
        (("sum", "bool"), "int16"),
        (("+", "uint8", "int8"), "int16"),  # abacus.Array.__add__ is abacus.add
        (("/=", "int8", "int8"), "float16"),  # a /= b binds a to a / b
    ]:
        done = promote(copy, "op", *args, "-p", "abacus")
        assert (done.returncode, done.stdout) == (0, f"{want}\n"), (args, done.stderr)
    absent = promote(copy, "op", "multiply", "int8", "int8", "-p", "abacus")
    assert absent.returncode == 1
    assert "Abacus has no multiply function (abacus has three functions)" in absent.stdout

    columns = json.loads(promote(copy, "ops", "--json").stdout)
    functions = {o["name"]: o["functions"]["abacus"] for o in columns["operations"]}
    assert functions["divide"] == "abacus.divide" and functions["sqrt"] is None

    missing = promote(copy, "verify", "abacus")
    assert missing.returncode == 0, missing.stderr
    assert missing.stdout.startswith("abacus: not installed, skipped (No module named 'abacus';")
    assert "pip install abacus" in missing.stdout

    # The recipe's commands, as its block shows them, each from the copy (``pip install
    # abacus``: the stand-in library on the path; ``python docs/figures.py``: on the copy's
    # README), in order: each runs, and says what the recipe says.
    site = tmp_path / "site"
    site.mkdir()
    (site / "abacus.py").write_text(ABACUS, encoding="utf-8")
    shutil.copy(ROOT / "README.md", copy / "README.md")
    shutil.copytree(ROOT / "docs", copy / "docs", ignore=shutil.ignore_patterns("_*"))
    commands = next(text for _, _, text in blocks(FRAMEWORK, "sh") if "policies" in text)
    ran = {}
    for line in commands.splitlines():
        words = shlex.split(line.split("#")[0])
        if words[:2] == ["pip", "install"]:
            continue
        if words[0] == "promote":
            done = promote(copy, *words[1:], path=(site,))
        else:
            done = python(copy, *words[1:])
        assert done.returncode == 0, (line, done.stdout + done.stderr)
        ran[" ".join(words[:2])] = done.stdout
    assert ran["promote op"] == "float16\n"
    proved = ran["promote verify"]
    assert proved.startswith("abacus: abacus 1.0, 36 cells in")
    assert "all agree" in proved and "0 mismatches" in proved
    # add, divide and their operators and augmented forms: 6 x 36 cells; sum: 6
    assert "abacus operations: 222 cells over 3 functions, 2 operators and 2 augmented" in proved
    files = copy / "promote_cli" / "frameworks" / "abacus" / "measured"
    assert sorted(p.name for p in files.iterdir()) == ["operations.json", "pairs.json"]
    assert json.loads((files / "pairs.json").read_text())["version"] == "1.0"
    written = copy / "tables"
    assert "| **int8** | int8 | int16 | int8 | int16 | float32 | float32 |" in (
        (written / "abacus.md").read_text()
    )
    assert (written / "ops" / "abacus.divide.md").is_file()
    index = (written / "README.md").read_text()
    assert "[md](abacus.md)" in index and "ops/abacus.md" in index
    readme = (copy / "README.md").read_text(encoding="utf-8")
    assert "| `abacus` | Abacus | abacus.add (abacus 1.0), measured | not yet verified |" in readme

    # The documentation site's page for it, with its notes, from docs/generate.py.
    # Its lattice is drawn in the direction Graphviz measures narrower; where Graphviz is absent
    # (the docs build needs it, the README's test command does not) the drawing points up, and
    # the rest of the page is the same.
    upward = "" if shutil.which("dot") else "generate.narrower = lambda policy: 'up'\n"
    page = subprocess.run(
        [
            sys.executable,
            "-c",
            "import generate\nfrom promote_cli import frameworks\n"
            + upward
            + "p = frameworks.get('abacus')\nprint(generate.policy_page(p, {}))\n"
            "print(generate.framework_notes(p))",
        ],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (copy, copy / "docs")))},
        capture_output=True,
        text=True,
        check=False,
    )
    assert page.returncode == 0, page.stderr
    assert page.stdout.startswith(".. Generated by docs/generate.py from")
    assert "Abacus (``abacus``)" in page.stdout
    assert ".. include:: ../notes/abacus.md" in page.stdout
    assert "only uint8 goes to float16" in page.stdout

    # The guide's tables, written from the registry: a row of abacus's in each, its cells from
    # its guide.py (its entry's where the registry says it: no options, an oracle).
    guide = python(
        copy,
        "-c",
        "import figures\nfor f in ('policy_sources', 'policy_reproduces', 'pair_nary',"
        " 'verify_asked'):\n    print(getattr(figures, f)().splitlines()[-1])",
        cwd=copy / "docs",
    )
    assert guide.returncode == 0, guide.stderr
    assert guide.stdout.splitlines() == [
        "| `abacus` | `abacus.add` (abacus 1.0), measured | lattice | `canonical` |",
        "| `abacus` | `abacus.add` (abacus 1.0): six types, where uint8 and int8 meet at int16"
        " | `D(t)`, no Python scalars | none |",
        "| `abacus` | no n-ary function: a left fold of `abacus.add` | the same fold |",
        "| `abacus` | `abacus.add` on `abacus.zeros(t)`; each function and operator on"
        " `abacus.ones(t)` | none |",
    ]

    # The tests' lists are the registry's: the offline comparison with its measurements (which
    # `promote measure` wrote above) and the property counts take abacus with no line added.
    shutil.copytree(ROOT / "tests", copy / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    suite = python(
        copy, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-v", "-k", "abacus",
        "tests/measured/test_measured.py", "tests/commands/test_check.py",
    )  # fmt: skip
    assert suite.returncode == 0, suite.stdout[-3000:]
    passed = re.findall(r"::(\w+)\[abacus\] PASSED", suite.stdout)
    assert "test_every_measured_cell_is_what_the_rules_give" in passed
    assert "test_counts_equal_a_count_over_the_measured_answers" in passed


def _rule(text: str) -> tuple[str, rules.Rule]:
    """A recipe's ``"name": Rule(...),`` line as the rule it declares: the names it uses are
    those ``promote_cli.rules`` and ``promote_cli.vocabulary`` export (the block is this
    repository's own text)."""
    names = {**vars(vocabulary), **vars(rules)}
    [(name, rule)] = eval("{" + text + "}", {"__builtins__": {}}, names).items()
    return name, rule


def test_an_operation_added_to_the_vocabulary_and_the_rules_is_asked(run, monkeypatch):
    blocks = {title: (line, text) for title, line, text in recipe("Add an operation")}
    numpy_rule = _rule(blocks["promote_cli/frameworks/numpy/operations.py"][1])
    absent = _rule(blocks["promote_cli/frameworks/<name>/operations.py"][1])
    # Every framework's rule tables, read before the vocabulary grows (the registry refuses a
    # declaration that lacks an operation of the vocabulary).
    declared = {}
    for name in frameworks.names():
        with contextlib.suppress(PromotionError):  # openvino, ascend: no operations
            declared[name] = frameworks.operations(frameworks.get(name))

    line, text = blocks["promote_cli/vocabulary.py"]
    for name, op in vocabulary._vocabulary(getattr(vocabulary, line), text).items():
        monkeypatch.setitem(vocabulary.VOCABULARY, name, op)  # type: ignore[index]
    # Each rule as the framework's declaration resolves it: its kind, where it states none,
    # the vocabulary's.
    numpy_rule, absent = (
        (name, rules.with_operators({name: rule}, None, "")[name])
        for name, rule in (numpy_rule, absent)
    )
    for name, found in declared.items():
        by = found.by_setting
        tables = [found.rules, *(by.rules.values() if by is not None else ())]
        for table in {id(t): t for t in tables}.values():
            monkeypatch.setitem(table, *(numpy_rule if name == "numpy" else absent))

    listed = json.loads(run("ops", "--json").stdout)
    [hypot] = [o for o in listed["operations"] if o["name"] == "hypot"]
    assert hypot["arity"] == "binary" and hypot["summary"] == "sqrt(x1**2 + x2**2)"
    assert hypot["functions"]["numpy"] == "np.hypot" and hypot["functions"]["torch"] is None

    # What NumPy 2 answers: each integer lifted to its float, then promoted.
    for args, want in [
        (("int8", "int8"), "float16"),
        (("uint8", "int16"), "float32"),
        (("int32", "float16"), "float64"),
    ]:
        done = run("op", "hypot", *args, "-p", "numpy")
        assert (done.exit_code, done.stdout) == (0, f"{want}\n"), args
    complex_ = run("op", "hypot", "complex64", "float32", "-p", "numpy")
    assert (
        complex_.exit_code == 1 and "refused: np.hypot does not accept complex64" in complex_.stdout
    )
    elsewhere = run("op", "hypot", "int8", "int8", "-p", "torch")
    assert elsewhere.exit_code == 1 and "no hypot function" in elsewhere.stdout

    table = run("table", "-p", "numpy", "--op", "hypot", "--types", "int8,uint8", "-f", "csv")
    assert table.exit_code == 0
    assert table.stdout.splitlines() == [
        ",int8,uint8",
        "int8,float16,float16",
        "uint8,float16,float16",
    ]


def test_an_output_format_added_as_a_template_and_two_lines_renders_tables(copy):
    follow(recipe("Add an output format"), copy)

    done = promote(copy, "table", "-p", "numpy", "--types", "int8,uint8", "--format", "tsv")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "\tint8\tuint8\nint8\tint8\tint16\nuint8\tint16\tuint8\n"

    written = promote(copy, "table", "-p", "numpy", "--types", "int8,uint8", "-o", "numpy.tsv")
    assert written.returncode == 0, written.stderr
    assert (copy / "numpy.tsv").read_text(encoding="utf-8") == done.stdout
    fresh = promote(copy, "table", "-p", "numpy", "--types", "int8,uint8", "--check", "numpy.tsv")
    assert fresh.returncode == 0, fresh.stderr
    assert "tsv" in promote(copy, "table", "--help").stdout


# Each framework's own function for a new unary operation no framework lists a rule for: the
# one of that name in its namespace (each exports it: np.cos, jnp.cos, keras.ops.cos ...).
COS = {
    "numpy": "np.cos",
    "jax": "jnp.cos",
    "torch": "torch.cos",
    "tensorflow": "tnp.cos",
    "keras": "keras.ops.cos",
    "mlx": "mx.cos",
    "array-api": "xp.cos",
    "paddle": "paddle.cos",
    "mindspore": "ops.cos",
    "tinygrad": "Tensor.cos",
}  # and ONNX: its operators are named per schema, so a new name waits for its mapping


@pytest.mark.slow
def test_an_operation_every_framework_applies_as_its_kind_is_one_vocabulary_line(copy):
    # cos does what sin does: one line in a copy's vocabulary, no rule in any framework.
    vocabulary = copy / "promote_cli" / "vocabulary.py"
    text = vocabulary.read_text(encoding="utf-8")
    [sin] = [line for line in text.splitlines() if line.startswith("sin ")]
    cos = "cos                 int-to-float      the cosine"
    vocabulary.write_text(text.replace(sin, f"{sin}\n{cos}", 1), encoding="utf-8")

    listed = json.loads(promote(copy, "ops", "--json").stdout)
    [entry] = [o for o in listed["operations"] if o["name"] == "cos"]
    assert entry["arity"] == "unary" and entry["summary"] == "the cosine"
    assert {p: f for p, f in entry["functions"].items() if f is not None} == COS
    for policy in COS:
        done = promote(copy, "op", "cos", "float32", "-p", policy, "--notation", "canonical")
        assert (done.returncode, done.stdout) == (0, "float32\n"), (policy, done.stderr)
    # An integer becomes each framework's float for it, as its sin does (measured).
    for policy, want in [("numpy", "float16"), ("torch", "float32"), ("mlx", "float32")]:
        done = promote(copy, "op", "cos", "int8", "-p", policy, "--notation", "canonical")
        assert (done.returncode, done.stdout) == (0, f"{want}\n"), policy
    onnx = promote(copy, "op", "cos", "float32", "-p", "onnx")
    assert onnx.returncode == 1 and "no ONNX operator is mapped to it yet" in onnx.stdout
    explained = promote(copy, "op", "cos", "int8", "-p", "numpy", "--explain").stdout
    assert "operation: cos = np.cos (kind: int-to-float)" in explained
    assert "step: kind" in explained
