"""Text meant for readers says what it means: the legend names who reads a
label otherwise, the lattice pictures have a key, and mistakes get a message that helps."""

from __future__ import annotations

import re

import pytest


def _legend_rows(page: str) -> dict[str, str]:
    legend = page.split('<table class="legend">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r"<tr><td><code>(.*?)</code></td><td><code>(.*?)</code></td><td>(.*?)</td>", legend
    )
    return {label: elsewhere for label, _, elsewhere in rows}


def test_the_standalone_legend_says_who_reads_a_label_otherwise(run):
    page = run("table", "-p", "jax", "-f", "html", "--standalone").stdout
    rows = _legend_rows(page)
    assert rows["u1"] == "OpenVINO: uint1"
    assert rows["i8"] == "OpenVINO, TensorFlow: int8"
    assert rows["c8"] == "NumPy type codes: complex64"
    assert rows["f2"] == "" and rows["bf"] == ""
    assert "other notations read" not in page
    assert len(set(v for v in rows.values() if v)) == len([v for v in rows.values() if v])


def test_the_openvino_legend_says_jax_reads_its_u1_as_uint8(run):
    rows = _legend_rows(
        run("table", "-p", "openvino", "-f", "html", "--standalone", "-t", "u1,u8").stdout
    )
    assert rows["u1"] == "JAX, NumPy type codes: uint8"


def test_the_standalone_page_names_its_source_in_words(run):
    page = run("table", "-p", "jax", "-f", "html", "--standalone").stdout
    assert "seed table" not in page and "0.10.2 lattice;" not in page
    assert "JAX 0.10.2" in page and "Type promotion semantics" in page


@pytest.mark.parametrize("policy", ["jax", "tensorflow"])
def test_lattice_pictures_with_weak_types_have_a_key(run, policy):
    dot = run("graph", "-p", policy).stdout
    assert "subgraph cluster_key" in dot
    assert (
        '"key: weak" [label="a dashed box is a weak type (a Python scalar)", style=dashed];' in dot
    )
    mermaid = run("graph", "-p", policy, "-f", "mermaid").stdout
    assert 'key_weak["key: a dashed box is a weak type (a Python scalar)"]' in mermaid
    assert "class key_weak weak" in mermaid


def test_a_lattice_without_weak_types_has_no_key(run):
    from promote_cli import api
    from promote_cli.graph import lattice_of, to_dot
    from promote_cli.lattice import Lattice

    req = api.request("jax")
    lat = lattice_of(req.policy, req.options)
    strong = Lattice({"int8": ("int16",), "int16": ()})
    assert "cluster_key" in to_dot(lat, req.notation, "t")
    assert "cluster_key" not in to_dot(strong, req.notation, "t")


@pytest.mark.parametrize("spelling", ["S(int)", "D(float)", "S(complex)"])
def test_a_python_scalar_inside_an_array_category_is_explained_not_misspelt(run, spelling):
    result = run("pair", spelling, "f16", "-p", "openvino")
    assert result.exit_code == 2
    assert "is a Python scalar, not a dtype" in result.stderr
    assert "uint" not in result.stderr and "did you mean" not in result.stderr


@pytest.mark.parametrize("types", ["f2,,bf", "f2,bf,", ",f2"])
def test_an_empty_item_in_types_is_refused(run, types):
    result = run("table", "-t", types)
    assert result.exit_code == 2
    assert f"--types {types!r} has an empty item" in result.stderr


def test_reasons_use_the_right_article(run):
    out = run("pair", "int", "int8", "-p", "numpy", "-n", "canonical", "--explain").stdout
    assert "does not change the dtype of an array of int8" in out
    assert " a int" not in out
