"""A weak result says what it becomes as an array: each policy with weak
results declares it (``Policy.materialise``), and text and JSON say it."""

from __future__ import annotations

import itertools
import json

import pytest

from promote_cli import api, frameworks
from promote_cli.dtypes import is_weak
from promote_cli.engine import Materialised


@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (["float", "i8"], "f* (weak; float64 with x64)"),
        (["float", "i8", "-O", "x64=false"], "f* (weak; float32 without x64)"),
        (["int", "int"], "i* (weak; int64 with x64)"),
        (["int", "b1", "-O", "x64=false"], "i* (weak; int32 without x64)"),
        (["complex", "float", "-O", "strict=true"], "c* (weak; complex128 with x64)"),
        (["float", "i8", "-p", "tensorflow"], "f64* (weak; float64)"),
        (["float", "int", "-p", "tensorflow"], "f32* (weak; float32)"),
        (["complex", "b", "-p", "tensorflow"], "c128* (weak; complex128)"),
    ],
)
def test_pair_says_what_a_weak_result_materialises_as(run, args, printed):
    result = run("pair", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == printed + "\n"


def test_a_strong_result_has_no_note(run):
    assert run("pair", "f2", "bf").stdout == "f4 (float32)\n"
    assert run("pair", "float", "f2").stdout == "f2\n"


def test_explain_says_it_too(run):
    out = run("pair", "float", "i8", "-O", "x64=false", "--explain").stdout
    assert "-> f* (weak; float32 without x64)" in out


@pytest.mark.parametrize(
    ("args", "materialised"),
    [
        (["float", "i8"], "float64"),
        (["float", "i8", "-O", "x64=false"], "float32"),
        (["f2", "bf"], None),
        (["int", "float", "-p", "tensorflow"], "float32"),
        (["int", "float", "-p", "numpy"], None),  # NumPy gives a strong float64
    ],
)
def test_json_outcome_has_materialised(run, args, materialised):
    doc = json.loads(run("pair", *args, "--json").stdout)
    assert doc["materialised"] == materialised


def test_table_json_cells_and_term_legend_say_it(run):
    doc = json.loads(run("table", "-p", "jax", "-t", "i*,f*,i1", "-f", "json").stdout)
    assert [c["materialised"] for c in doc["cells"][0]] == ["int64", "float64", None]
    legend = run("table", "-p", "jax", "-t", "i*,f*,i1", "-O", "x64=false").stdout
    assert "i* -> int32 without x64, f* -> float32 without x64" in legend


def test_every_weak_result_of_every_policy_is_materialised_as_a_strong_type_of_its_kind():
    from promote_cli.dtypes import get

    for name in frameworks.names():
        pol = frameworks.get(name)
        settings = [{}] + [{o.name: v} for o in pol.options if o.kind == "bool" for v in (0, 1)]
        for given in settings:
            opts = pol.resolve_options(given)
            ops = pol.operands()
            for a, b in itertools.product(ops, ops):
                out = pol.promote(a, b, opts)
                if out.result is None or not is_weak(out.result):
                    assert out.materialised is None, (name, a, b)
                    continue
                m = out.materialised
                assert isinstance(m, Materialised), (name, a, b)
                assert not is_weak(m.dtype) and get(m.dtype).kind in (
                    get(out.result).kind,
                    "int",
                ), (name, a, b, m)


def test_an_n_ary_weak_result_is_materialised_too():
    req = api.request("jax", options={"x64": False}, operands=["int", "float", "b1"])
    assert req.outcome().materialised == Materialised("float32", "without x64")
    tf = api.request("tensorflow", operands=["int", "int", "int"])
    assert tf.outcome().materialised == Materialised("int32")


@pytest.mark.conformance("jax")
@pytest.mark.parametrize("x64", [True, False])
def test_jax_materialises_weak_results_as_its_policy_says(x64):
    pytest.importorskip("jax", reason="jax is not installed (the conformance extra)")
    import jax
    from jax._src import dtypes as jax_dtypes

    pol = frameworks.get("jax")
    opts = pol.resolve_options({"x64": x64})
    scalars = {"int*": 1, "float*": 1.0, "complex*": 1j}
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", x64)
    try:
        for a, b in itertools.product(scalars, repeat=2):
            out = api.request("jax", options=opts, operands=[a, b]).outcome()
            dtype, weak = jax_dtypes.result_type(scalars[a], scalars[b], return_weak_type_flag=True)
            assert weak and out.materialised.dtype == dtype.name, (a, b)
            assert jax.numpy.asarray(scalars[a]).dtype.name == pol.materialise(a, opts).dtype
    finally:
        jax.config.update("jax_enable_x64", before)


@pytest.mark.conformance("tensorflow")
def test_tensorflow_materialises_weak_results_as_its_policy_says():
    pytest.importorskip("tensorflow", reason="tensorflow is not installed (the conformance extra)")
    from tensorflow.python.framework import flexible_dtypes, ops

    values = {"int*": 1, "float*": 1.0, "complex*": 1j}
    before = ops.promo_mode_enum_to_string(ops.get_dtype_conversion_mode())
    ops.set_dtype_conversion_mode("all")
    try:
        for a, b in itertools.product(values, repeat=2):
            out = api.request("tensorflow", operands=[a, b]).outcome()
            dtype, weak = flexible_dtypes.result_type(values[a], values[b])
            assert weak and out.materialised.dtype == dtype.name, (a, b)
    finally:
        ops.set_dtype_conversion_mode(before)
