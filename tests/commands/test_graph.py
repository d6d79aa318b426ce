"""``promote graph``: lattice pictures, checked against the lattices the frameworks draw."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import BadInputError

ROOT = Path(__file__).resolve().parents[2]

# The dict JAX's "Type promotion semantics" page draws its lattice picture from (networkx
# source in a comment under the image; that version writes complex64 as c8, complex128 c16).
JAX_DOC_LATTICE = {
    "b1": ["i*"], "u1": ["u2", "i2"], "u2": ["i4", "u4"], "u4": ["u8", "i8"], "u8": ["f*"],
    "i*": ["u1", "i1"], "i1": ["i2"], "i2": ["i4"], "i4": ["i8"], "i8": ["f*"],
    "f*": ["c*", "f2", "bf"], "bf": ["f4"], "f2": ["f4"], "f4": ["c8", "f8"], "f8": ["c16"],
    "c*": ["c8"], "c8": ["c16"], "c16": [],
}  # fmt: skip
JAX_DOC_NAMES = {
    "b1": "bool", "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
    "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "bf": "bfloat16",
    "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128",
    "i*": "int*", "f*": "float*", "c*": "complex*",
}  # fmt: skip

# The array API standard's tables, drawn as a lattice: each type to the types directly above.
ARRAY_API_EDGES = {
    ("int8", "int16"), ("int16", "int32"), ("int32", "int64"),
    ("uint8", "uint16"), ("uint16", "uint32"), ("uint32", "uint64"),
    ("uint8", "int16"), ("uint16", "int32"), ("uint32", "int64"),
    ("float32", "float64"), ("complex64", "complex128"),
    ("float32", "complex64"), ("float64", "complex128"),
}  # fmt: skip

_DOT_EDGE = re.compile(r'^\s*"([^"]+)" -> "([^"]+)";$', re.M)
_DOT_NODE = re.compile(r'^\s*"([^"]+)" \[label="([^"]+)"(, style=dashed)?\];$', re.M)


def dot_edges(text: str) -> set[tuple[str, str]]:
    return set(_DOT_EDGE.findall(text))


def test_jax_dot_draws_the_lattice_of_jaxs_page(run):
    result = run("graph", "--policy", "jax", "--format", "dot")
    assert result.exit_code == 0
    edges = dot_edges(result.stdout)
    want = {(JAX_DOC_NAMES[a], JAX_DOC_NAMES[b]) for a, ups in JAX_DOC_LATTICE.items() for b in ups}
    drawn = {(a, b) for a, b in edges if {a, b} <= set(JAX_DOC_NAMES.values())}
    assert drawn == want
    # Nodes carry the policy's labels (with the canonical name where a label could mislead),
    # and the weak types are dashed.
    nodes = {n: (label, bool(dashed)) for n, label, dashed in _DOT_NODE.findall(result.stdout)}
    assert nodes["int64"] == ("i8 (int64)", False)
    assert nodes["float*"] == ("f*", True)


def test_array_api_dot_is_the_standards_tables(run):
    result = run("graph", "-p", "array-api")
    edges = dot_edges(result.stdout)
    assert {(a, b) for a, b in edges if "*" not in a + b} == ARRAY_API_EDGES
    # Python scalars hang below the kinds they may mix with.
    assert {("int*", "int8"), ("int*", "uint8"), ("float*", "float32")} <= edges
    assert not any(b == "bool" or a == "bool" for a, b in edges)


def test_tensorflow_dot_draws_the_guides_examples_as_paths(run):
    # The guide: i8 and i32 first meet at i32; u64 and f16 at f16.
    edges = dot_edges(run("graph", "-p", "tensorflow").stdout)
    up = {}
    for a, b in edges:
        up.setdefault(a, set()).add(b)

    def above(n, seen=None):
        seen = seen or {n}
        for m in up.get(n, ()):
            if m not in seen:
                seen.add(m)
                above(m, seen)
        return seen

    assert "int32" in above("int8")
    assert "float16" in above("uint64")
    assert {"int32*", "int64*", "float32*", "float64*", "complex128*"} <= set(up)


def test_edges_are_sorted_by_their_lower_end(run):
    # Byte stability across hash seeds is test_tables_freshness's cross-process check.
    dot = run("graph", "-p", "jax").stdout
    sources = [a for a, _ in _DOT_EDGE.findall(dot)]
    assert sources[0] == "bool"
    # Edges come grouped by their lower end, in the catalogue's order.
    order = list(CATALOGUE)
    assert sources == sorted(sources, key=order.index)


def test_mermaid_has_every_edge_of_the_dot_output(run):
    mermaid = run("graph", "-p", "tensorflow", "-f", "mermaid").stdout
    assert mermaid.splitlines()[3] == "flowchart LR"
    ids = dict(re.findall(r'^  (\w+)\["([^"]+)"\]$', mermaid, re.M))
    assert ids["int32_weak"] == "i32*" and ids["bool"] == "b"
    m_edges = set(re.findall(r"^  (\w+) --> (\w+)$", mermaid, re.M))
    d_edges = dot_edges(run("graph", "-p", "tensorflow").stdout)
    # Mermaid ids are words: a weak type's * becomes _weak; TensorFlow's other names are words.
    weak_ids = {
        "int32*": "int32_weak",
        "int64*": "int64_weak",
        "float32*": "float32_weak",
        "float64*": "float64_weak",
        "complex128*": "complex128_weak",
    }
    assert m_edges == {(weak_ids.get(a, a), weak_ids.get(b, b)) for a, b in d_edges}
    assert ("bool", "int32_weak") in m_edges and ("float16", "float32") in m_edges
    assert "class int32_weak,int64_weak,float32_weak,float64_weak,complex128_weak weak" in mermaid


def test_options_change_the_lattice(run):
    strict = dot_edges(run("graph", "-p", "jax", "-O", "strict=true").stdout)
    assert ("int8", "int16") not in strict  # strict mode: no implicit promotion between types
    assert ("int*", "int8") in strict
    assert "(strict=true)" in run("graph", "-p", "jax", "-O", "strict=true").stdout


@pytest.mark.parametrize("policy", ["numpy", "torch", "openvino", "ascend"])
def test_a_policy_that_is_not_a_lattice_exits_2_saying_so(run, policy):
    result = run("graph", "-p", policy)
    assert result.exit_code == 2
    assert f"{policy} is not a lattice policy" in result.stderr
    assert "jax, tensorflow, array-api" in result.stderr


def test_svg_needs_graphviz_and_says_so(run, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    result = run("graph", "-p", "jax", "-f", "svg")
    assert result.exit_code == 2
    assert "apt-get install graphviz" in result.stderr


def test_svg_through_graphviz():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (apt-get install graphviz)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "graph", "-p", "tensorflow", "-f", "svg"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "<svg" in done.stdout
    texts = set(re.findall(r"<text[^>]*>([^<]+)</text>", done.stdout))
    assert {"i32*", "f64*", "c128", "bf16"} <= texts


def test_markdown_wraps_the_mermaid_graph_for_github(run):
    page = run("graph", "-p", "array-api", "-f", "markdown").stdout
    assert page.startswith(
        "<!-- generated by promote 0.1.0: promote graph --policy array-api --format markdown;"
    )
    block = page.split("```mermaid\n", 1)[1].split("```", 1)[0]
    bare = run("graph", "-p", "array-api", "-f", "mermaid").stdout
    edges = re.compile(r"^  (\w+) --> (\w+)$", re.M)
    assert edges.findall(block) == edges.findall(bare) != []


def test_each_text_output_names_the_command_that_prints_it(run):
    dot = run("graph", "-p", "jax", "-O", "x64=false", "-n", "canonical").stdout
    assert dot.splitlines()[0] == (
        "// generated by promote 0.1.0: promote graph --policy jax --format dot"
        " --notation canonical -O x64=false; edit the generator, not this file"
    )
    mermaid = run("graph", "-p", "tensorflow", "-f", "mermaid").stdout
    assert "  %% generated by promote 0.1.0: promote graph --policy tensorflow" in mermaid


def test_promote_tables_checks_in_every_lattice_as_mermaid_and_dot(run):
    from promote_cli.docset import documentation_set

    files = documentation_set()
    for policy in ("jax", "tensorflow", "array-api"):
        assert files[f"{policy}.dot"] == run("graph", "-p", policy).stdout
        assert files[f"{policy}.lattice.md"] == run("graph", "-p", policy, "-f", "markdown").stdout
    for policy in ("numpy", "torch", "openvino", "ascend"):
        assert f"{policy}.dot" not in files and f"{policy}.lattice.md" not in files
    assert not any(name.endswith(".svg") for name in files)


def test_a_graphviz_failure_is_bad_input_not_an_internal_error(monkeypatch):
    import subprocess

    from promote_cli import graph

    class Failed:
        returncode, stdout, stderr = 1, b"", "Error: syntax error in line 1"

    monkeypatch.setattr(graph.shutil, "which", lambda name: "/usr/bin/dot")
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: Failed())
    with pytest.raises(BadInputError, match="Graphviz dot failed"):
        graph.to_svg("digraph { a -> }")
