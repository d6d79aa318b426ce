"""A seeded fuzzer at every boundary where user data enters promote: npy headers,
jinja2 templates, TOML policy files, ``verify --oracle`` modules, MkDocs blocks and Sphinx
directives, the output's encoding, and command lines. Each feeds generated hostile input to the
boundary and asserts what a user must see: success, a refusal, or **one line and exit 2**;
never promote's internal error (exit 3), never a traceback, never two lines.

Hypothesis draws the inputs (``derandomize``: the same cases on every run, so a failure is
reproducible and the suite stays fast); a few thousand cases in all, in well under 30 s.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import struct
import textwrap
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promote_cli import frameworks
from promote_cli.cli import cli
from promote_cli.dtypes import CATALOGUE

# Hostile descrs ask NumPy for aliases it deprecates ('a'): not what is tested here.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FUZZ = settings(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def fuzz(cases: int) -> settings:
    """Hypothesis, seeded (``derandomize``), drawing ``cases`` inputs."""
    return settings(FUZZ, max_examples=cases)


def invoke(*args: str, charset: str = "utf-8"):
    return CliRunner(charset=charset).invoke(cli, list(args), catch_exceptions=False)


DEFAULT_NOTE = "note: policy jax (the default; -p to choose)"


def assert_told(result, *, codes=(0, 1, 2)) -> None:
    """Success, a refusal, or one ``promote: error:`` line and exit 2: never exit 3."""
    assert result.exit_code in codes, (result.exit_code, result.stderr[-2000:])
    lines = result.stderr.splitlines()
    if result.exit_code == 2:
        assert len(lines) == 1 and lines[0].startswith("promote: error: "), result.stderr
    elif lines[:1] == [DEFAULT_NOTE]:
        lines = lines[1:]  # an answer of the default policy says so first (policies.md)
    else:
        assert len(lines) <= 1 and "internal error" not in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """One directory for the module: each case overwrites the files it uses."""
    return tmp_path_factory.mktemp("fuzz")


# --- npy headers ----------------------------------------------------------------------------

_TYPE_NAMES = sorted(CATALOGUE)
_DESCR_CODES = "bBhHiIlLqQefdgFDGV?UOMmSaWZ"

descrs = st.one_of(
    st.builds(
        lambda order, code, width: f"{order}{code}{width}",
        st.sampled_from(["<", ">", "|", "=", ""]),
        st.sampled_from(list(_DESCR_CODES)),
        st.one_of(
            st.integers(0, 20).map(str),
            st.integers(0, 10**30).map(str),
            st.integers(2**31 - 2, 2**64).map(str),
            st.just(""),
        ),
    ),
    st.sampled_from(["<f4", "|b1", "<V2", "bfloat16", "float8_e4m3fn", "O", "<U5", "<M8[s]"]),
    st.text(max_size=12),
)
literals = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True),
        descrs,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=5), st.integers()), inner, max_size=3),
    ),
    max_leaves=12,
)
small_shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)
headers = st.one_of(
    # a header valid but for its descr: every check up to the data's width is reached
    st.fixed_dictionaries(
        {"descr": descrs, "fortran_order": st.booleans(), "shape": small_shapes}
    ).map(repr),
    # the three keys, with values of any shape
    st.fixed_dictionaries(
        {
            "descr": st.one_of(descrs, literals),
            "fortran_order": st.one_of(st.booleans(), literals),
            "shape": st.one_of(
                small_shapes,
                st.lists(st.integers(-3, 2**63), max_size=6).map(tuple),
                st.lists(st.integers(0, 3), min_size=60, max_size=70).map(tuple),
                literals,
            ),
        }
    ).map(repr),
    # any literal, or text that is no literal at all
    literals.map(repr),
    st.text(max_size=60),
)


def npy_file(path: Path, header: str, version: int, data: bytes) -> None:
    text = header.encode("utf-8" if version == 3 else "latin1", "replace")
    length = "<H" if version == 1 else "<I"
    path.write_bytes(
        b"\x93NUMPY" + bytes([version, 0]) + struct.pack(length, len(text)) + text + data
    )


@pytest.mark.slow
@fuzz(500)
@given(
    header=headers,
    version=st.sampled_from([1, 2, 3]),
    data=st.binary(max_size=64),
)
def test_fuzz_npy_headers(scratch, header, version, data):
    bad, good = scratch / "bad.npy", scratch / "good.npy"
    npy_file(bad, header, version, data)
    if not good.exists():
        import numpy as np

        np.save(good, np.arange(3, dtype=np.float32))
    assert_told(invoke("convert", str(bad), str(good), "--dry-run"))


@fuzz(150)
@given(raw=st.binary(max_size=120), magic=st.booleans())
def test_fuzz_npy_bytes(scratch, raw, magic):
    bad, good = scratch / "raw.npy", scratch / "good.npy"
    bad.write_bytes((b"\x93NUMPY" if magic else b"") + raw)
    if not good.exists():
        import numpy as np

        np.save(good, np.arange(3, dtype=np.float32))
    assert_told(invoke("convert", str(bad), f"{good}:f4", "--dry-run"))


# --- templates ------------------------------------------------------------------------------

_NAMES = [
    "table",
    "standalone",
    "table.rows",
    "table.columns",
    "table.rows[0].cells",
    "table.legend",
    "table.title",
    "table.policy",
    "nosuch",
    "loop",
    "range",
    "lipsum",
    "self",
    "table.to_dict",
    "table.__class__",
    "table._private",
    "''.__class__",
]
_FILTERS = ["length", "md", "rst", "csv_row", "join", "int", "string", "list", "first", "e",
            "safe", "upper", "nosuch", "attr('x')", "map('upper')", "sort", "tojson", "abs",
            "format(1)", "replace('a', 'b')", "selectattr('differs')", "sum"]  # fmt: skip
_STRINGS = ['"\\ud800"', '"\\x00\\x1b"', '"a"', "'{{'", '"\\udcff"', '"%s"', '"×"']

expressions = st.recursive(
    st.one_of(
        st.sampled_from(_NAMES),
        st.integers(-10, 100).map(str),
        st.sampled_from(_STRINGS),
        st.sampled_from(["none", "true", "[]", "{}", "(1, 2)", "1.5", "0"]),
    ),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(_FILTERS)).map(lambda t: f"{t[0]} | {t[1]}"),
        st.tuples(
            inner, st.sampled_from([".x", ".label", "[0]", "[99]", "['k']", "()", ".items()"])
        ).map("".join),
        st.tuples(
            inner, st.sampled_from(["+", "-", "/", "//", "%", "~", "==", "*", "and", "in"]), inner
        ).map(" ".join),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: f"{e} is defined"),
    ),
    max_leaves=6,
)
fragments = st.one_of(
    st.text(max_size=10),
    expressions.map(lambda e: "{{ " + e + " }}"),
    expressions.map(lambda e: "{% for x in " + e + " %}{{ x }}{% endfor %}"),
    expressions.map(lambda e: "{% if " + e + " %}y{% else %}n{% endif %}"),
    expressions.map(lambda e: "{% set v = " + e + " %}{{ v }}"),
    st.sampled_from(
        [
            "{% include 'x' %}",
            "{% import 'x' as y %}",
            "{% extends 'x' %}",
            "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
            "{% raw %}{{{% endraw %}",
            "{{",
            "{%",
            "{#",
            "}}",
            "{% endfor %}",
            "{% for %}",
            "{{ table.rows | map(attribute='header') | join(',') }}",
        ]
    ),
)


@pytest.mark.slow
@fuzz(400)
@given(parts=st.lists(fragments, max_size=5), raw=st.booleans())
def test_fuzz_templates(scratch, parts, raw):
    template = scratch / "t.md.j2"
    # surrogatepass: a lone surrogate in the text makes bytes that are not UTF-8
    template.write_bytes("".join(parts).encode("utf-8", "surrogatepass"))
    out = scratch / "out.md"
    args = ["table", "-t", "f2,bf", "--template", str(template)]
    result = invoke(*args, *(["-o", str(out)] if raw else []))
    assert_told(result, codes=(0, 2))


# --- policy files ---------------------------------------------------------------------------


def toml_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch) if ord(ch) < 0xD800 else 0xFFFD:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml(doc: dict) -> str:
    """``doc`` as TOML: scalars and arrays at the top, dicts as ``[tables]``."""
    lines = [
        f"{toml_string(k)} = {toml_value(v)}" for k, v in doc.items() if not isinstance(v, dict)
    ]
    for key, table in doc.items():
        if isinstance(table, dict):
            lines.append(f"[{toml_string(key)}]")
            lines.extend(f"{toml_string(k)} = {toml_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"


type_names = st.one_of(
    st.sampled_from(_TYPE_NAMES),
    st.sampled_from(["i1", "u1", "f2", "bf", "f4", "×", "refused", "P(bool)", "int", "S(int8)"]),
    st.text(max_size=6),
)
values = st.recursive(
    st.one_of(type_names, st.integers(-5, 2**64), st.booleans(), st.floats()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(type_names, inner, max_size=3)
    ),
    max_leaves=8,
)
_SMALL = ["bool", "int8", "uint8", "int16", "float16", "float32", "int*", "float*"]
small_types = st.lists(st.sampled_from(_SMALL), min_size=1, max_size=5, unique=True)


@st.composite
def policy_documents(draw) -> dict:
    kind = draw(st.sampled_from(["lattice", "table", "extends", "any"]))
    doc: dict = {}
    if draw(st.integers(0, 9)):
        doc["name"] = draw(st.one_of(st.just("mine"), st.text(max_size=8), values))
    for key in ("title", "source", "notation", "properties", "types"):
        if draw(st.integers(0, 4)) == 0:
            doc[key] = draw(
                st.one_of(
                    st.text(max_size=8),
                    st.sampled_from(["canonical", "jax", "numpy", "openvino", "nosuch"]),
                    st.lists(st.sampled_from(["symmetric", "idempotent", "lattice", "total", "x"])),
                    small_types,
                    values,
                )
            )
    types = draw(small_types)
    if kind == "lattice":
        doc["lattice"] = {
            t: draw(st.one_of(st.lists(st.sampled_from(types), max_size=3), values)) for t in types
        }
        if draw(st.booleans()):
            doc["materialise"] = draw(st.dictionaries(type_names, values | type_names, max_size=2))
    elif kind == "table":
        doc["types"] = draw(st.one_of(st.just(types), small_types))
        doc["table"] = {
            t: draw(
                st.one_of(st.lists(st.sampled_from([*types, "×"]), max_size=len(types) + 1), values)
            )
            for t in types
        }
    elif kind == "extends":
        parents = ["jax", "numpy", "ascend", "./p.toml", "./no.toml", "/dev/zero", "no", ""]
        doc["extends"] = draw(st.sampled_from(parents) | values)
        pairs = st.tuples(type_names, type_names).map(lambda p: f"{p[0]} x {p[1]}")
        doc["cells"] = draw(
            st.dictionaries(pairs | st.text(max_size=6), values | type_names, max_size=3)
        )
    else:
        doc.update(draw(st.dictionaries(st.text(max_size=6), values, max_size=3)))
    return doc


@st.composite
def policy_texts(draw) -> str:
    text = toml(draw(policy_documents()))
    for _ in range(draw(st.integers(0, 2))):  # a few edits: TOML that does not parse
        at = draw(st.integers(0, len(text)))
        text = (
            text[:at]
            + draw(st.sampled_from(["[", "]", '"', "=", "\n", "{", "'''", "x"]))
            + text[at:]
        )
    return text


@pytest.mark.slow(seconds=10)
@fuzz(600)
@given(
    text=policy_texts(),
    command=st.sampled_from(["pair", "pair-p", "table", "check", "diff", "graph", "op"]),
    operand=st.sampled_from(["bool", "int8", "P(bool)", "int", "float", "S(int8)", "int:300", "x"]),
)
def test_fuzz_policy_files(scratch, text, command, operand):
    path = scratch / "p.toml"
    path.write_text(text, encoding="utf-8")
    heavy = "extends" in text  # a built-in's 35 types: check and diff are asked less often
    args = {
        "pair": ["pair", operand, "int8", "-p", str(path)],
        "pair-p": ["pair", operand, operand, "--policy-file", str(path), "--chain"],
        "table": ["table", "-p", str(path), "-f", "markdown"],
        "check": ["check", str(path)] if not heavy else ["pair", "int8", operand, "-p", str(path)],
        "diff": ["diff", "numpy", str(path)]
        if not heavy
        else ["table", "-p", str(path), "-t", "i1,u1"],
        "graph": ["graph", "-p", str(path), "-f", "mermaid"],
        "op": ["op", "sqrt", operand, "-p", str(path)],
    }[command]
    assert_told(invoke(*args))


# --- verify --oracle ------------------------------------------------------------------------

_AT_IMPORT = [
    "",
    "print('imported')",
    "raise ValueError('at import')",
    "raise SystemExit(3)",
    "import sys; sys.exit(0)",
    "import os; os._exit(4)",
    "import no_such_module_here",
    "def (:",
    'import sys; sys.stdout.write(\'{"kind": "returned"}\\n\')',
    "import os; os.write(1, b'not json\\n')",
    "input()",
    "import sys; sys.stdout.close()",
]
_BODIES = [
    "return a",
    "return b",
    "return 'int8'",
    "return 'not a dtype'",
    "return None",
    "return 42",
    "return ['int8']",
    "return 'x' * 3_000_000",
    "raise ValueError(a)",
    "raise SystemExit(0)",
    "raise SystemExit(5)",
    "raise KeyboardInterrupt",
    "import os; os._exit(9)",
    "import os; os.kill(os.getpid(), 11)",
    "print(a, b); return a",
    "return Odd()",
    "return f(a, b)",
    "while True: pass",
]
_ODD = textwrap.dedent(
    """
    class Odd:
        def __str__(self):
            raise RuntimeError("no str")
    """
)


@fuzz(30)
@given(
    at_import=st.sampled_from(_AT_IMPORT),
    body=st.sampled_from(_BODIES),
    as_json=st.booleans(),
)
def test_fuzz_oracles(scratch, monkeypatch_module, at_import, body, as_json):
    name = f"oracle_fuzz_{zlib.crc32(f'{at_import}|{body}'.encode())}"
    (scratch / f"{name}.py").write_text(
        f"{at_import}\n{_ODD}\ndef f(a, b):\n    {body}\n", encoding="utf-8"
    )
    policy = scratch / "tab.toml"
    policy.write_text(
        'name = "tab"\ntypes = ["bool", "int8"]\n[table]\nbool = ["bool"]\n'
        'int8 = ["int8", "int8"]\n',
        encoding="utf-8",
    )
    args = ["verify", str(policy), "--oracle", f"{name}:f", "--timeout", "1"]
    result = invoke(*args, *(["--json"] if as_json else []))
    assert_told(result)
    if as_json:
        report = json.loads(result.stdout)  # one object, whatever the oracle did
        assert report["ok"] is (result.exit_code == 0)


@pytest.fixture(scope="module")
def monkeypatch_module(scratch):
    patch = pytest.MonkeyPatch()
    patch.syspath_prepend(str(scratch))
    yield patch
    patch.undo()


# --- docs blocks ------------------------------------------------------------------------------

_WORDS = ["table", "graph", "diff", "nosuch", "-p", "--policy", "jax", "numpy", "openvino", "x",
          "-t", "f2,bf", "i1,,u1", "-O", "x64=maybe", "x64=false", "--op", "sqrt", "divide",
          "nosuch_op", "-f", "svg", "mermaid", "dot", "html", "json", "-o", "out.md", "--check",
          "--help", "-h", "--standalone", "--template", "--notation", "canonical", "'", '"',
          "--types", "--diff-against", "none", "torch", "\x1b[31m", "--mark", "lossy"]  # fmt: skip


HOSTILE_POLICIES = [
    'name = "x"\n[table]\nbool = [["bool"]]\n',
    'name = "x"\nextends = "./h.toml"\n',
    'name = "x"\nlattice = ' + "[" * 2000 + "]" * 2000 + "\n",
    'name = "x"\n[lattice]\n"int*" = ["int8"]\n[materialise]\n"int*" = "int8"\n',
]


@fuzz(300)
@given(
    words=st.lists(st.sampled_from(_WORDS) | st.text(max_size=4), max_size=7),
    hostile=st.sampled_from([None, *HOSTILE_POLICIES]),
    verb=st.sampled_from(["table", "graph", "diff", None]),
)
def test_fuzz_mkdocs_blocks(scratch, words, hostile, verb):
    markdown = pytest.importorskip("markdown", reason="the docs extra is not installed")
    from promote_cli.markdown import BlockError

    if verb is not None:
        words = [verb, *words]
    if hostile is not None:  # a policy file that fails at its own boundary
        (scratch / "h.toml").write_text(hostile)
        policy = ["jax" if verb == "diff" else "-p", str(scratch / "h.toml")]
        words = [verb or "table", *policy, *words[1:]]
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            block = "::: promote " + " ".join(words) + "\n"
            markdown.markdown(block, extensions=["promote_cli.markdown"])
    except BlockError as exc:
        assert "\n" not in str(exc) and "internal error" not in str(exc), str(exc)
    assert printed.getvalue() == ""  # nothing (a command's --help, say) escapes into the build


def test_fuzz_sphinx_directives(tmp_path):
    """One build of many generated directives: each renders or is an error at its own line."""
    pytest.importorskip("sphinx", reason="the docs extra is not installed")
    from test_docs_sphinx import project, sphinx

    hostile = tmp_path / "h.toml"
    hostile.write_text('name = "x"\nextends = "./h.toml"\n')
    rng = random.Random(23)
    arguments = ["jax", "numpy", "jaxx", str(hostile), "", "jax numpy", "x" * 300, "\x1b"]
    options = [
        ":types: f2, bf",
        ":types: ,",
        ":options: x64=maybe",
        ":options: =",
        ":notation: nosuch",
        ":op: sqrt",
        ":op: nosuch",
        ":diff-against: nosuch",
        ":style: raw-html",
        ":style: fancy",
    ]
    body, lines = ["Fuzz", "====", ""], []
    for _ in range(60):
        kind = rng.choice(["promotion-table", "promotion-diff", "promotion-lattice"])
        lines.append(len(body) + 1)
        body.append(f".. {kind}:: {rng.choice(arguments)} {rng.choice(['', *arguments])}".rstrip())
        body.extend(f"   {rng.choice(options)}" for _ in range(rng.randint(0, 2)))
        body.append("")
    src = project(tmp_path, "\n".join(body))
    done = sphinx(src)
    assert "Exception occurred" not in done.stderr and "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if ": ERROR: " in line]
    at = {int(line.split(":")[1]) for line in errors if line.startswith(str(src / "index.rst"))}
    assert at <= set(lines) and errors, done.stderr[-3000:]
    assert all("internal error" not in line for line in errors), done.stderr


# --- the output's encoding, and command lines -----------------------------------------------

_COMMANDS = [
    ["table", "-p", "torch"],
    ["table", "-p", "jax", "-f", "markdown", "--mark", "lossy"],
    ["pair", "f2", "bf", "--explain"],
    ["diff", "jax", "torch"],
    ["check", "ascend"],
    ["policies", "--json"],
    ["ops"],
    ["expr", "x / y + w.sum()", "x=int8", "y=int16", "w=uint8", "--explain"],
]


@pytest.mark.parametrize("charset", ["latin-1", "ascii", "cp1252", "koi8-r", "utf-16"])
@pytest.mark.parametrize("args", _COMMANDS, ids=lambda a: " ".join(a))
def test_fuzz_output_encodings(args, charset):
    assert_told(invoke(*args, charset=charset))


_ARGV = ["pair", "op", "ops", "table", "diff", "graph", "check", "policies", "-p", "--policy",
         "jax", "numpy", "torch", "openvino", "ascend", "f2", "bf", "i1", "u8", "int:300",
         "P(bool)", "S(int8)", "float", "-O", "x64=false", "promote_unsafe=1", "=", "-n", "jax",
         "canonical", "--json", "--explain", "--chain", "-t", "f2,bf,f4", "--op", "sqrt",
         "divide", "sum", "-f", "json", "csv", "term", "list", "--diff-against", "none",
         "--categories", "--mark", "lossy", "--standalone", "--", "-", "", "\x00", "\udcff",
         "--format", "--types", "expr", "x + 1", "x=int8", "x[0] @ x", "w=", "x += y",
         "y=float16"]  # fmt: skip


@fuzz(400)
@given(argv=st.lists(st.sampled_from(_ARGV) | st.text(max_size=5), min_size=1, max_size=7))
def test_fuzz_command_lines(argv):
    # Commands that only read and print: nothing here may write a file or import a framework.
    if argv[0] in ("convert", "tables", "verify") or "-o" in argv or "--check" in argv:
        return
    assert_told(invoke(*argv))


# --- promote expr's programs, and op and pair with extreme values ---------------------------

# Every policy whose promote expr answers are checked, read from the registry
_EXPR_POLICIES = ",".join(e.name for e in frameworks.entries() if e.expressions.checked)
_EXPR_TYPES = ["bool", "uint8", "int16", "int64", "uint64", "float16", "bfloat16", "float32",
               "complex64", "S(int8)", "S(float32)", "S(uint8)"]  # fmt: skip
_EXPR_LITERALS = ["1", "-3", "0", "300", "2**70", "1.5", "1j", "True", "1e300", "-0.5"]
_EXPR_BINARY = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "<<", "==", "<", "@"]
_EXPR_CALLS = ["maximum", "minimum", "atan2", "pow"]
_EXPR_UNARY = ["abs", "sqrt", "sign", "real", "isnan", "negative", "-", "~"]
_EXPR_AFTER = [".sum()", ".T", "[0]", ".max()", ".astype(float32)"]

programs = st.recursive(
    st.sampled_from(["x", "y", *_EXPR_LITERALS]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(_EXPR_BINARY), inner).map(lambda t: f"({' '.join(t)})"),
        st.tuples(st.sampled_from(_EXPR_CALLS), inner, inner).map(
            lambda t: f"{t[0]}({t[1]}, {t[2]})"
        ),
        st.tuples(st.sampled_from(_EXPR_UNARY), inner).map(
            lambda t: f"{t[0]}({t[1]})" if t[0].isalpha() else f"{t[0]}{t[1]}"
        ),
        st.tuples(inner, st.sampled_from(_EXPR_AFTER)).map(lambda t: f"({t[0]}){t[1]}"),
    ),
    max_leaves=6,
)


@fuzz(60)
@given(
    code=programs,
    update=st.one_of(st.none(), st.tuples(st.sampled_from(_EXPR_BINARY), programs)),
    x=st.sampled_from(_EXPR_TYPES),
    y=st.sampled_from(_EXPR_TYPES),
    options=st.sampled_from([[], ["-O", "jax:x64=false"], ["-O", "numpy:promotion=legacy"]]),
)
def test_fuzz_expr_programs(code, update, x, y, options):
    # Each program under every policy expr answers: a table, refusals, or one usage line;
    # never exit 3 ((maximum(y, 1j) ** -3) under JAX was an AssertionError, a bare name a
    # TypeError).
    if update is not None:
        code = f"x {update[0]}= {update[1]}; {code}"
    assert_told(invoke("expr", code, f"x={x}", f"y={y}", "-p", _EXPR_POLICIES, *options))


_HUGE = "9" * 4301  # beyond the digits Python writes at once
_VALUES = ["int:300", "int:-1", f"int:{2 * 2**1023}", f"int:-{_HUGE}", f"int:{_HUGE}",
           "int:0x" + "f" * 300, "float:1e308", "complex:1e300j", "bool:true"]  # fmt: skip
_OPERANDS = ["bool", "uint8", "int8", "uint64", "float16", "bfloat16", "float64", "complex64",
             "longdouble", "S(int8)", "N(float64)", "N(longdouble)=1e300", "int",
             "float"]  # fmt: skip
_POLICIES = list(frameworks.names())


@fuzz(150)
@given(
    verb=st.sampled_from(["pair", "op"]),
    name=st.sampled_from(["add", "/", "**", "pow", "equal", "<", "atan2", "matmul", "+=", "<<"]),
    a=st.sampled_from(_OPERANDS + _VALUES),
    b=st.sampled_from(_OPERANDS + _VALUES),
    policy=st.sampled_from(_POLICIES),
    legacy=st.booleans(),
)
def test_fuzz_op_and_pair_with_extreme_values(verb, name, a, b, policy, legacy):
    # Ints beyond float64 and beyond Python's 4,300 digits, NumPy scalars, types a policy
    # lacks: an answer, a refusal or one usage line under every policy; never exit 3.
    args = [verb, *([name] if verb == "op" else []), a, b, "-p", policy, "--explain"]
    if legacy and policy == "numpy":
        args += ["-O", "promotion=legacy"]
    assert_told(invoke(*args))
