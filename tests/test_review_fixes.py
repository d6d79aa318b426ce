"""Regressions found in review: each would fail without its fix."""

from __future__ import annotations

import json

import pytest

from promote_cli import PromotionError, promote
from promote_cli.api import outcome
from promote_cli.errors import BadInputError


@pytest.mark.parametrize("policy", ["jax", "numpy", "torch", "array-api"])
def test_a_weak_type_of_another_framework_is_refused_not_a_crash(policy, run):
    # TensorFlow's widthed weak types are not Python scalars of these frameworks.
    with pytest.raises(PromotionError, match="has no weak type int32"):
        promote("int32*", "float32", policy=policy, notation="canonical")
    result = run("pair", "int32*", "float32", "--policy", policy, "--notation", "canonical")
    assert result.exit_code == 1 and "has no weak type int32*" in result.stdout


def test_tensorflow_still_takes_its_weak_types():
    assert promote("i32*", "f32", policy="tensorflow") == "float32"


def test_a_left_fold_carries_only_the_categories_it_has_seen():
    opts = {"pytorch_scalar_promotion": True}
    # S(i8) x S(i16) is a 0-d i16; S(i16) x D(u8) is refused in safe mode. A later dimensioned
    # operand must not turn the 0-d intermediate into a dimensioned one.
    alone = outcome(["S(i16)", "D(u8)"], policy="openvino", **opts)
    folded = outcome(["S(i8)", "S(i16)", "D(u8)"], policy="openvino", **opts)
    assert alone.refused and folded.refused
    assert folded.unsafe_result == alone.unsafe_result == "uint8"


def test_default_tables_mark_weak_types_as_python_scalars(run):
    doc = json.loads(run("table", "-p", "tensorflow", "-f", "json").stdout)
    text = json.dumps(doc)
    assert '"category": "D", "label": "i32*"' not in text.replace("\n", "")
    categories = {c["canonical"]: c["category"] for c in doc["columns"]}
    assert categories["int32*"] == "P" and categories["int32"] == "D"


def test_a_graphviz_failure_is_bad_input_not_an_internal_error(monkeypatch):
    import subprocess

    from promote_cli import graph

    class Failed:
        returncode, stdout, stderr = 1, b"", "Error: syntax error in line 1"

    monkeypatch.setattr(graph.shutil, "which", lambda name: "/usr/bin/dot")
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: Failed())
    with pytest.raises(BadInputError, match="Graphviz dot failed"):
        graph.to_svg("digraph { a -> }")
