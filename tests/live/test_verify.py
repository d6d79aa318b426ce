"""``promote verify``: the driver with fake oracles (no framework needed), each oracle's mechanics
against values from its framework's documentation, and the real frameworks (``conformance``)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from oracles import pair, stand_in

from promote_cli import frameworks
from promote_cli.engine import remembering
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.options import Option
from promote_cli.verify import driver
from promote_cli.verify.driver import oracle
from promote_cli.verify.protocol import Asks, Refusal

ROOT = Path(__file__).resolve().parents[2]
PYTHON_SCALARS = {
    Operand("bool", PYTHON),
    Operand("int*", PYTHON),
    Operand("float*", PYTHON),
    Operand("complex*", PYTHON),
}


def fake_oracle(policy: str, *, every: bool = False, **told):
    """A stand-in framework for ``policy`` (``oracles.stand_in``); with ``every`` it also
    answers what verify asks beyond pairs (triples, values, three spellings) and calls the
    operations, as perfectly."""
    if every:
        told["asks"] = Asks(nary=True, operations=True, spellings=("f2", "int8", "nope"))
    return stand_in(policy, **told)


def _stand_in(real, entry, module):
    """``frameworks.oracle`` answering ``module`` for ``entry`` (even one without an oracle)."""
    return lambda name: module if name == entry.name else real(name)


@pytest.fixture
def install(monkeypatch):
    """install(policy, module): make ``promote verify`` use a fake oracle for ``policy``."""

    def put(policy, module):
        entry = frameworks.entry(policy)
        monkeypatch.setitem(sys.modules, f"{entry.package}.oracle", module)
        monkeypatch.setattr(frameworks, "oracle", _stand_in(frameworks.oracle, entry, module))

    return put


# --- what the driver enumerates -------------------------------------------------------------


def test_numpy_cells_are_its_16_dtypes_and_4_python_scalars():
    # NumPy's own dtypes: bool, 4 uints, 4 ints, float16/32/64, longdouble, complex64/128,
    # clongdouble; NEP 50's scalars: bool, int, float, complex. No 0-d category in NumPy 2.
    ops = frameworks.get("numpy").operands()
    assert len(ops) == 20 and len(set(ops)) == 20
    assert set(ops) >= PYTHON_SCALARS
    assert {op.category for op in ops} == {DIMENSIONED, PYTHON}
    assert Operand("longdouble") in ops and Operand("clongdouble") in ops


def test_openvino_cells_are_its_18_types_and_dynamic_as_0d_and_dimensioned_inputs():
    # ConvertPromoteTypes-14 takes 18 element types; pytorch_scalar_promotion reads the rank.
    ops = frameworks.get("openvino").operands()
    assert len(ops) == 38  # its 18 input types and dynamic, 0-d and dimensioned
    assert {op.category for op in ops} == {DIMENSIONED, ZERO_D}
    assert Operand("float8_e4m3fn", ZERO_D) in ops and Operand("uint1") in ops


def test_jax_cells_include_weak_scalars_and_each_type_as_a_0d_array():
    # 0-d arrays are asked because eager jnp.power takes a concrete 0-d integer exponent as a
    # Python int (the jit option); a weak type is only ever a Python scalar's
    ops = frameworks.get("jax").operands()
    assert set(ops) >= PYTHON_SCALARS
    arrays = {op.dtype for op in ops if op.category == DIMENSIONED}
    assert {op.dtype for op in ops if op.category == ZERO_D} == arrays and len(arrays) == 32
    assert not any(op.dtype.endswith("*") and op.category != PYTHON for op in ops)
    assert Operand("int4") in ops and Operand("float8_e4m3b11fnuz", ZERO_D) in ops


def test_option_values_try_both_booleans_every_choice_and_every_dtype():
    assert driver.option_values(Option("strict", "bool", False, "")) == (False, True)
    mode = Option("mode", "choice", "all", "", choices=("all", "safe"))
    assert driver.option_values(mode) == ("all", "safe")
    target = {o.name: o for o in frameworks.get("openvino").options}["u64_integer_promotion_target"]
    values = driver.option_values(target)
    assert values[0] == "float32"  # the spec's default comes first
    # OpenVINO accepts each of its 25 static element types and dynamic as the target.
    assert len(values) == 26 and {"dynamic", "nf4", "string", "float8_e8m0fnu"} <= set(values)


def test_settings_are_the_product_of_the_options_and_pinning_holds_one_fixed():
    jax = frameworks.get("jax")
    assert len(driver.settings(jax)) == 8
    pinned = driver.settings(jax, {"x64": False, "jit": False})
    assert pinned == [
        {"x64": False, "strict": False, "jit": False},
        {"x64": False, "strict": True, "jit": False},
    ]


# --- the driver and the command, with fake oracles ------------------------------------------


@pytest.mark.slow(seconds=9)
def test_a_perfect_framework_agrees_on_every_cell_including_refusals():
    asked = []
    # The stand-in answers each of the 150,176 cells as the policy does, and verify asks the
    # policy too: remembered, each cell's promotion is computed once for both.
    with remembering():
        report = driver.verify(
            frameworks.get("openvino"), load_oracle=lambda name: fake_oracle(name, asked=asked)
        )
    assert report.status == driver.VERIFIED and report.mismatches == []
    openvino = frameworks.get("openvino")
    assert report.cells == len(driver.settings(openvino)) * 38 * 38 == len(asked)
    assert report.version == "9.9"
    # OpenVINO refuses f16 x bf16 by default: two refusals agree.
    defaults = {o.name: o.default for o in openvino.options}
    assert (defaults, Operand("float16"), Operand("bfloat16")) in asked


def test_a_wrong_cell_is_reported_in_the_policy_notation_and_exits_1(run, install):
    # numpy.promote_types(int8, uint8) is int16 (NumPy's docs); this framework says int32.
    install("numpy", fake_oracle("numpy", wrong={(Operand("int8"), Operand("uint8")): "int32"}))
    result = run("verify", "numpy", "-O", "ml_dtypes=false")
    assert result.exit_code == 1
    # One mismatch: the summary's example is the whole list.
    assert (
        "    1 pair: promote's rule table\n"
        "      ml_dtypes=false, promotion=weak: int8 x uint8 -> promote says int16,"
        " framework says int32\n" in result.stdout
    )
    assert "numpy: numpy 9.9, 400 cells in" in result.stdout
    assert ": 1 mismatch\n" in result.stdout


def test_a_framework_refusal_where_promote_answers_is_a_mismatch(run, install):
    # JAX's seed table: u1 x i1 (uint8 x int8) = i2 (int16). Options are printed in the line.
    install("jax", fake_oracle("jax", wrong={(Operand("uint8"), Operand("int8")): "refused"}))
    result = run("verify", "jax", "-O", "x64=true", "-O", "strict=false", "-O", "jit=false")
    assert result.exit_code == 1
    assert (
        "      x64=true, strict=false, jit=false: u1 (uint8) x i1 (int8) -> promote says"
        " i2 (int16), framework says refused (ValueError: no promotion path)\n"
    ) in result.stdout


def test_pinned_options_are_the_only_setting_tried(run, install):
    asked = []
    install("jax", fake_oracle("jax", asked=asked))
    result = run("verify", "jax", "-O", "x64=false")
    assert result.exit_code == 0, result.output
    assert {opts["x64"] for opts, _, _ in asked} == {False}
    assert {opts["strict"] for opts, _, _ in asked} == {False, True}


def test_a_missing_framework_is_skipped_unless_required(run, install):
    install("numpy", fake_oracle("numpy", missing=True))
    result = run("verify", "numpy")
    assert result.exit_code == 0
    assert result.stdout.startswith("numpy: not installed, skipped (No module named 'fakework';")
    required = run("verify", "numpy", "--require")
    assert required.exit_code == 1
    assert "numpy: not installed; --require was given" in required.stdout


def test_a_missing_framework_says_how_to_install_it(run, install):
    from promote_cli.verify import extra_install

    install("jax", fake_oracle("jax", missing=True))
    line = run("verify", "jax").stdout.splitlines()[0]
    # the release CI pins (constraints.txt), which is the one the rules were measured on
    constraints = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    [pinned] = [c for c in constraints if c.startswith("jax==")]
    assert line == (
        "jax: not installed, skipped (No module named 'fakework'; to install it: pip install"
        f" {pinned}, the release promote's rules were measured on"
        f" (or every framework at once: {extra_install('conformance')}))"
    )
    # promote is on no package index: the extra comes from where this promote is, a checkout.
    assert "promote-cli[" not in line and f"{ROOT}[conformance]" in line


@pytest.mark.parametrize(
    ("origin", "command"),
    [
        (
            {
                "url": "https://example.org/me/promote",
                "vcs_info": {"vcs": "git", "commit_id": "abc"},
            },
            "pip install 'promote-cli[conformance] @ git+https://example.org/me/promote@abc'",
        ),
        ({"url": "file:///src/promote", "dir_info": {}}, "pip install '/src/promote[conformance]'"),
        (
            {"url": "file:///src/promote", "dir_info": {"editable": True}},
            "pip install -e '/src/promote[conformance]'",
        ),
        ({}, "pip install '/path/to/promote[conformance]' (a clone of promote)"),
    ],
)
def test_the_extra_is_installed_from_where_promote_came_from(
    monkeypatch, tmp_path, origin, command
):
    """An installed promote (no checkout around it) names the URL or directory pip recorded
    (PEP 610's direct_url.json), never a package index name."""
    import json
    from importlib import metadata

    import promote_cli.verify as verify

    class Dist:
        def read_text(self, name):
            return json.dumps(origin) if origin and name == "direct_url.json" else None

    monkeypatch.setattr(metadata, "distribution", lambda name: Dist())
    monkeypatch.setattr(
        verify, "__file__", str(tmp_path / "site" / "promote_cli" / "verify" / "x.py")
    )
    assert verify.extra_install("conformance") == command


def test_every_entry_with_an_oracle_names_the_package_to_install():
    tomllib = pytest.importorskip("tomllib")
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extra = extra["project"]["optional-dependencies"]["conformance"]
    for entry in frameworks.entries():
        if entry.oracle:  # none: its entry says why
            assert oracle(entry.name) is None
            continue
        assert entry.install, entry.name
        listed = any(req.startswith(entry.install.split("[")[0]) for req in extra)
        assert listed == entry.in_extra, entry.name


def test_an_oracle_module_declares_how_it_runs_and_nothing_of_its_entry():
    from importlib import import_module

    from promote_cli.verify.protocol import Asks, Runs

    for entry in frameworks.entries():
        if entry.oracle:
            continue
        module = import_module(f"{entry.package}.oracle")
        assert isinstance(module.RUNS, Runs) and module.RUNS.why, entry.name
        assert isinstance(module.ASKS, Asks), entry.name
        assert all(callable(getattr(module, f)) for f in ("load", "version", "answer"))
        repeated = {"POLICY", "FRAMEWORK", "INSTALL", "IN_CONFORMANCE_EXTRA", "OPTIONS"}
        assert not repeated & set(vars(module)), entry.name
        # A worker names what must be installed and the options that need a process each.
        if module.RUNS.worker:
            assert module.RUNS.requires, entry.name
            assert set(module.RUNS.per) <= {o.name for o in entry.options}, entry.name


def test_ascend_has_nothing_to_verify_even_when_frameworks_are_required(run):
    result = run("verify", "ascend", "--require")
    assert result.exit_code == 0
    assert result.stdout.startswith("ascend: no installable framework, nothing to verify\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("verify", "nosuch"), "unknown policy 'nosuch'"),
        (("verify", "numpy", "-O", "x64=true"), "no policy being verified has an option 'x64'"),
        (("verify", "jax", "-O", "x64=perhaps"), "option x64 takes true or false"),
    ],
)
def test_usage_errors_exit_2_before_any_framework_is_imported(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_json_lists_each_mismatch_with_canonical_names(run, install):
    install(
        "numpy",
        fake_oracle("numpy", wrong={(Operand("float16"), Operand("int*", PYTHON)): "float64"}),
    )
    result = run("verify", "numpy", "--json", "-O", "ml_dtypes=false")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["ok"] is False
    [entry] = doc["policies"]
    assert (entry["policy"], entry["status"], entry["cells"]) == ("numpy", "mismatch", 400)
    # NEP 50: float16 + a Python int stays float16.
    assert entry["mismatches"] == [
        {
            "question": "pair",
            "options": {"ml_dtypes": False, "promotion": "weak"},
            "a": {"canonical": "float16", "category": "D", "label": "float16"},
            "b": {"canonical": "int*", "category": "P", "label": "int*"},
            "more": [],
            "promote": {
                "result": "float16",
                "label": "float16",
                "refused": False,
                "rule": "nep50",
                "reason": "NEP 50: a Python int does not change the dtype of an array of float16",
                "unsafe_result": None,
                "materialised": None,
            },
            "framework": {
                "result": "float64",
                "label": "float64",
                "refused": False,
                "rule": "framework",
                "reason": "what the framework returned",
                "unsafe_result": None,
                "materialised": None,
            },
        }
    ]


def test_an_oracle_bug_is_not_mistaken_for_a_refusal():
    with pytest.raises(KeyError, match="an oracle bug"):
        driver.verify(frameworks.get("numpy"), load_oracle=lambda name: fake_oracle(name, bug=True))


def test_progress_hears_the_total_at_the_end():
    heard = []
    driver.verify(
        frameworks.get("numpy"),
        progress=lambda done, total, phase: heard.append((done, total, phase)),
        load_oracle=lambda name: fake_oracle(name),
    )
    # NumPy's 16 dtypes and 4 Python scalars; with ml_dtypes imported, its 19 types more.
    assert heard[-1] == (20**2 + 39**2, 20**2 + 39**2, "pairs")


@pytest.mark.slow
def test_progress_covers_every_phase_not_only_the_pairs():
    heard = []
    report = driver.verify(
        frameworks.get("numpy"),
        {"ml_dtypes": False},
        progress=lambda done, total, phase: heard.append((phase, done, total)),
        load_oracle=lambda name: fake_oracle(name, every=True),
        operations=True,
    )
    assert report.status == driver.VERIFIED, report.mismatches[:3]
    phases = list(dict.fromkeys(phase for phase, _, _ in heard))
    assert phases == ["pairs", "triples", "values", "spellings", "operations"]
    for phase in phases:
        done, total = [(d, n) for p, d, n in heard if p == phase][-1]
        assert done == total > 0, phase  # each phase is heard to its end
    counted = {"triples": report.triples, "values": report.values, "spellings": 3}
    for phase, n in counted.items():
        assert [t for p, _, t in heard if p == phase][-1] == n
    assert [t for p, _, t in heard if p == "operations"][-1] == report.ops.total


# --- each oracle asks its framework (values from the frameworks' documentation) -------------


def ask(policy: str, a: Operand, b: Operand, **opts) -> str:
    return pair(policy, a, b, **opts)


@pytest.mark.conformance("torch")
def test_torch_oracle_asks_torch():
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch==2.13.0)")
    d, s, p = Operand, (lambda t: Operand(t, ZERO_D)), (lambda t: Operand(t, PYTHON))
    # torch.promote_types and the "Type promotion" section of the tensor attributes docs.
    assert ask("torch", d("int8"), d("float32")) == "float32"
    assert ask("torch", d("int32"), d("int64")) == "int64"
    assert ask("torch", d("bool"), d("uint8")) == "uint8"
    assert ask("torch", d("bfloat16"), d("float16")) == "float32"
    # A 0-d tensor of the same kind does not widen a dimensioned one: int32 + long_zerodim.
    assert ask("torch", d("int32"), s("int64")) == "int32"
    # torch.result_type docs: int tensor with 1.0 -> float32; uint8 tensor with tensor(1) -> uint8.
    assert ask("torch", d("int32"), p("float*")) == "float32"
    assert ask("torch", d("uint8"), s("int64")) == "uint8"
    # uint16/32/64 and the float8 types refuse to promote with other types.
    assert ask("torch", d("uint16"), d("int8")) == "refused"
    assert ask("torch", d("float8_e5m2"), d("float16")) == "refused"
    assert ask("torch", d("nf4"), d("int8")) == "refused"  # not a torch dtype at all


def test_torch_result_type_on_1d_tensors_is_promote_types():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    names = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16"]
    names += ["float32", "float64", "complex64", "complex128"]
    for a in names:
        for b in names:
            ta = torch.zeros(1, dtype=getattr(torch, a))
            tb = torch.zeros(1, dtype=getattr(torch, b))
            assert ask("torch", Operand(a), Operand(b)) == str(torch.result_type(ta, tb))[6:]


@pytest.mark.conformance("array-api")
def test_array_api_oracle_asks_array_api_strict():
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed")
    d, p = Operand, (lambda t: Operand(t, PYTHON))
    # The standard's promotion tables: signed x unsigned, mixed kinds undefined.
    assert ask("array-api", d("int8"), d("uint8")) == "int16"
    assert ask("array-api", d("float32"), d("complex128")) == "complex128"
    assert ask("array-api", d("int8"), d("float32")) == "refused"
    assert ask("array-api", d("uint64"), d("int64")) == "refused"
    # Python scalars take the array's dtype; a float scalar with an integer array is undefined.
    assert ask("array-api", d("int8"), p("int*")) == "int8"
    assert ask("array-api", d("float32"), p("complex*")) == "complex64"
    assert ask("array-api", d("int8"), p("float*")) == "refused"
    assert ask("array-api", d("float16"), d("float32")) == "refused"  # no float16 in the standard


def test_tensorflow_oracle_asks_tensorflow():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    d, p = Operand, (lambda t: Operand(t, PYTHON))
    # The TF-NumPy type promotion guide: bit-widening i8 + u8 and precision-losing i64 + bf16
    # promote in ALL mode and raise in SAFE mode; a Python int does not widen an i8.
    assert ask("tensorflow", d("int8"), d("uint8"), mode="all") == "int16"
    assert ask("tensorflow", d("int8"), d("uint8"), mode="safe") == "refused"
    assert ask("tensorflow", d("int64"), d("bfloat16"), mode="all") == "bfloat16"
    assert ask("tensorflow", d("int64"), d("bfloat16"), mode="safe") == "refused"
    assert ask("tensorflow", d("int8"), p("int*"), mode="all") == "int8"


def test_tensorflow_oracle_restores_the_conversion_mode():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    from tensorflow.python.framework import ops

    before = ops.get_dtype_conversion_mode()
    ask("tensorflow", Operand("int8"), Operand("uint8"), mode="safe")
    assert ops.get_dtype_conversion_mode() == before


def test_jax_oracle_asks_jax_and_restores_its_flags():
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    before = (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion)
    d, p = Operand, (lambda t: Operand(t, PYTHON))
    # JAX's type promotion page: u1 x i1 = i2, i8 x f2 = f2, i* x u1 = u1, i* x f* = f*.
    assert ask("jax", d("uint8"), d("int8"), x64=True, strict=False) == "int16"
    assert ask("jax", d("int64"), d("float16"), x64=True, strict=False) == "float16"
    assert ask("jax", p("int*"), d("uint8"), x64=True, strict=False) == "uint8"
    assert ask("jax", p("int*"), p("float*"), x64=True, strict=False) == "float*"
    assert ask("jax", d("int8"), d("int16"), x64=True, strict=True) == "refused"
    # Without x64, 64-bit types do not exist: u4 x i4 = i4 rather than i8.
    assert ask("jax", d("uint32"), d("int32"), x64=False, strict=False) == "int32"
    assert (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion) == before


def test_numpy_oracle_asks_numpy():
    pytest.importorskip("numpy")
    d, p = Operand, (lambda t: Operand(t, PYTHON))
    # NumPy's promote_types docs and NEP 50's examples.
    assert ask("numpy", d("int8"), d("uint8")) == "int16"
    assert ask("numpy", d("int64"), d("float16")) == "float64"
    assert ask("numpy", d("uint8"), p("int*")) == "uint8"
    assert ask("numpy", d("int8"), p("float*")) == "float64"
    assert ask("numpy", d("float32"), p("complex*")) == "complex64"
    assert ask("numpy", d("longdouble"), d("float64")) == "longdouble"


def test_openvino_oracle_builds_the_operation():
    pytest.importorskip("openvino", reason="OpenVINO is not installed")
    d, s = Operand, (lambda t: Operand(t, ZERO_D))
    defaults = {
        "promote_unsafe": False,
        "pytorch_scalar_promotion": False,
        "u64_integer_promotion_target": "float32",
    }
    unsafe = {**defaults, "promote_unsafe": True}
    scalar = {**defaults, "pytorch_scalar_promotion": True}
    # Examples of the ConvertPromoteTypes-14 specification (the seed).
    assert ask("openvino", d("int8"), d("float32"), **defaults) == "float32"
    assert ask("openvino", d("int32"), d("uint8"), **defaults) == "int32"
    assert ask("openvino", d("int8"), d("uint8"), **unsafe) == "int16"
    assert ask("openvino", d("float16"), d("bfloat16"), **defaults) == "refused"
    assert ask("openvino", d("float16"), d("bfloat16"), **unsafe) == "float32"
    assert ask("openvino", d("uint64"), d("int8"), **unsafe) == "float32"
    assert ask("openvino", s("float16"), d("int8"), **scalar) == "float16"
    # S(i64) x D(u8) -> u8 holds only with promote_unsafe (see the openvino policy's docstring).
    assert ask("openvino", s("int64"), d("uint8"), **{**scalar, "promote_unsafe": True}) == "uint8"
    assert ask("openvino", s("int64"), d("uint8"), **scalar) == "refused"


def test_mlx_oracle_asks_mlx():
    pytest.importorskip("mlx.core", reason="MLX is not installed (pip install 'mlx[cpu]')")
    d, p = Operand, (lambda t: Operand(t, PYTHON))
    # MLX's "Type promotion" examples: u64 x i64 is float32, Python scalars are weak.
    assert ask("mlx", d("uint64"), d("int64")) == "float32"
    assert ask("mlx", d("uint8"), d("int8")) == "int16"
    assert ask("mlx", d("int8"), p("int*")) == "int8"
    assert ask("mlx", p("float*"), d("int8")) == "float32"
    assert ask("mlx", p("int*"), p("float*")) == "float32"


def test_tinygrad_oracle_asks_tinygrad_without_a_compiler():
    pytest.importorskip("tinygrad", reason="tinygrad is not installed")
    d, p = Operand, (lambda t: Operand(t, PYTHON))
    # tinygrad's promo_lattice: uint64 and int64 meet at the weak float, fp8 under float16.
    assert ask("tinygrad", d("uint64"), d("int64")) == "float*"
    assert ask("tinygrad", d("int64"), d("float8_e4m3fn")) == "float8_e4m3fn"
    assert ask("tinygrad", d("float8_e4m3fn"), d("float8_e5m2")) == "float16"
    assert ask("tinygrad", p("float*"), d("int8")) == "float*"
    assert ask("tinygrad", d("int8"), p("complex*")) == "refused"  # no complex dtypes
    # least_upper_dtype(weakint, weakfloat): the pair question is tinygrad's function.
    assert ask("tinygrad", p("int*"), p("float*")) == "float*"


# --- the real frameworks --------------------------------------------------------------------

# NumPy's operations are verified in full by the real process below (NumPy is installed
# wherever promote is), so here its pairs, n-ary questions, values and spellings alone: not a
# second run of its 112,896 operation cells.
FRAMEWORKS = [
    ("jax", "jax", ()),
    ("numpy", "numpy", ("--no-ops",)),
    ("openvino", "openvino", ()),
    ("torch", "torch", ()),
    ("tensorflow", "tensorflow", ()),
    ("array-api", "array_api_strict", ()),
]


@pytest.mark.slow
@pytest.mark.conformance
@pytest.mark.parametrize(("policy", "module", "flags"), FRAMEWORKS)
def test_policy_matches_the_installed_framework(run, policy, module, flags):
    pytest.importorskip(module, reason=f"{module} is not installed (the conformance extra)")
    if policy not in frameworks.names():
        pytest.skip(f"the {policy} policy has not landed yet; its oracle waits for it")
    result = run("verify", "--require", "--json", *flags, policy)
    doc = json.loads(result.stdout)
    [entry] = doc["policies"]
    assert entry["mismatches"] == [], entry["mismatches"][:10]
    assert (result.exit_code, entry["status"]) == (0, "verified")
    pol = frameworks.get(policy)
    grids = [len(pol.operands(opts)) ** 2 for opts in driver.settings(pol)]
    # array-api is the smallest grid: 13 dtypes and 4 Python scalars (0-d arrays are not special).
    assert entry["cells"] == sum(grids) and len(grids) == entry["option_settings"]
    assert min(grids) >= 17**2


@pytest.mark.slow
@pytest.mark.conformance("numpy")
def test_verify_runs_as_a_real_process():
    pytest.importorskip("numpy")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "verify", "--require", "numpy", "ascend"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("numpy: numpy 2.") and lines[0].endswith(": all agree")
    # NumPy's 39 functions call np.<function> on 6,896 operand cases (16 unary/reduction rows
    # + binary pairs + where) of its 16 array types and 4 Python scalars, under each of the two
    # settings of its ml_dtypes option; its 22 operators and 12 augmented assignments apply
    # Python's operator to the same arrays (23,904 cells more). Its 47 binary functions,
    # operators and augmented assignments are each called with every array type and each of 25
    # Python values on either side (75,200 cells: 16 + 16 array types x 25 x 2 x 47).
    assert lines[1].startswith(
        "  numpy operations: 112,896 cells (75,200 with a Python scalar's value) over 39"
        " functions, 22 operators and 12 augmented assignments in "
    )
    assert lines[1].endswith(" s: all agree")  # no gaps: nothing to say about kernels
    # 340 seeded random programs (40 calling where) under each of the two settings, every
    # node compared
    # programs are run under the settings of the entry's own measurements: with ml_dtypes 0.7
    # installed both of them, with another release only ml_dtypes=false
    from importlib import metadata

    both = metadata.version("ml_dtypes").startswith("0.7.")
    programs = "680 random programs, 2,144 nodes" if both else "340 random programs, 1,072 nodes"
    assert lines[2] == f"  numpy expressions: {programs}: all agree"
    assert lines[3] == "ascend: no installable framework, nothing to verify"
    # Pairs: 20 operands without ml_dtypes, 39 with it (20**2 + 39**2).
    assert lines[4] == (
        "1 of 2 policies verified: 1,921 pair cells and 112,896 operation cells (0 kernel gaps)"
        " compared, 0 mismatches"
    )
    assert done.stderr == ""  # no progress bar when stderr is not a terminal


# These frameworks are each verified in a process of their own: their imports are large (the
# Keras and MindSpore oracles start workers of their own besides). The operations of tinygrad,
# MindSpore and Paddle are verified by their own files' tests (tests/test_ops_<name>.py, the
# same full run, with the counts of their cells), so here they are asked without (--no-ops):
# not a second run of each operation (Paddle's waits out each pow that never returns, 3 s each).
OWN_PROCESS = [
    ("mlx", "mlx", 1, 18, ()),  # 14 dtypes + 4 Python scalars
    ("tinygrad", "tinygrad", 1, 21, ("--no-ops",)),  # 17 dtypes + 4 Python scalars
    ("mindspore", "mindspore", 1, 34, ("--no-ops",)),  # 15 dtypes as D and S + 4 scalars
    ("paddle", "paddle", 1, 32, ("--no-ops",)),  # 14 dtypes as 0-d and dimensioned, 4 scalars
    ("keras", "keras", 15, 38, ()),  # 5 backends x 3 floatx; 17 dtypes x D, S + 4 scalars
]


@pytest.mark.conformance
@pytest.mark.parametrize(("policy", "module", "settings", "operands", "flags"), OWN_PROCESS)
def test_policy_matches_the_installed_framework_in_a_process_of_its_own(
    policy, module, settings, operands, flags
):
    # find_spec, not importorskip: importing Paddle here would crash a process holding TensorFlow.
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (the conformance extra)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "verify", "--require", "--json", *flags, policy],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    [entry] = json.loads(done.stdout)["policies"]
    assert entry["mismatches"] == [], entry["mismatches"][:10]
    assert (done.returncode, entry["status"]) == (0, "verified"), done.stderr
    assert (entry["option_settings"], entry["cells"]) == (settings, settings * operands**2)


def test_tensorflow_logs_nothing_between_the_report_lines():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed")
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    proc = subprocess.run(
        [sys.executable, "-m", "promote_cli", "verify", "tensorflow"],
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # as a terminal shows them: interleaved
        text=True,
        timeout=600,  # with the operators: 100 s on a quiet machine, 280 s on a busy 2-core one
    )
    assert proc.returncode == 0, proc.stdout
    heads = ["tensorflow: tensorflow-cpu ", "  tensorflow operations: "]
    from importlib import metadata

    if metadata.version("ml_dtypes").startswith("0.7."):
        # Its random programs are asked only under the release its programs were measured
        # with; under ml_dtypes 0.6 TensorFlow is asked as measured apart (no programs).
        heads.append("  tensorflow expressions: ")
    heads.append("1 of 1 policies verified: ")
    lines = proc.stdout.splitlines()
    assert len(lines) == len(heads), proc.stdout
    for line, head in zip(lines, heads, strict=True):
        assert line.startswith(head), proc.stdout


@pytest.mark.skipif(
    importlib.util.find_spec("openvino") is None, reason="OpenVINO is not installed"
)
def test_openvino_oracle_imports_openvino_without_its_telemetry():
    """``import openvino`` would send a telemetry event from a forked process; the oracle's
    load declines it and leaves the environment as it found it. In a fresh process: the
    decision is made once, at the first import."""
    probe = (
        "import os, openvino_telemetry\n"
        "from promote_cli.frameworks.openvino import oracle as openvino\n"
        "openvino.load()\n"
        "print(openvino_telemetry.Telemetry().consent, 'CI' in os.environ)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]  # no consent; CI unset again


def test_verify_names_kernel_gaps_only_when_there_are_some(capsys):
    from collections import Counter

    from promote_cli.cli.verify import _print_ops
    from promote_cli.verify.driver import OpsReport

    def line(gaps: int) -> str:
        report = OpsReport(cells=Counter(add=10, sqrt=5), gaps=Counter(add=gaps), seconds=0.25)
        _print_ops("torch", report)
        return capsys.readouterr().out

    assert line(0) == "  torch operations: 15 cells over 2 functions in 0.2 s: all agree\n"
    assert line(1) == (
        "  torch operations: 15 cells over 2 functions in 0.2 s, 1 kernel gap (no CPU kernel:"
        " the dtype rule answers, the call raises): all agree\n"
    )


def test_verify_names_a_gap_claimed_where_the_kernel_ran():
    from promote_cli import api
    from promote_cli.cli.verify import _cells
    from promote_cli.verify.driver import OpMismatch

    # Had torch multiplied a float8 tensor by a 0-d one (it raises "mul_cpu_reduced_float" not
    # implemented, measured on torch 2.13.0), the line names the gap the rules claim.
    args = (Operand("float8_e5m2"), Operand("float8_e5m2", ZERO_D))
    mine = api.request("torch", operands=["float8_e5m2", "S(float8_e5m2)"], op="*").outcome()
    wrong = OpMismatch({}, "*", args, mine, "float8_e5m2")
    assert _cells(frameworks.get("torch"))(wrong) == (
        "",
        "*(float8_e5m2, S(float8_e5m2)) -> promote says float8_e5m2 (no CPU kernel),"
        " framework says float8_e5m2",
    )


def test_json_gives_a_framework_refusal_as_an_outcome_with_its_message(run, install):
    # A stand-in NumPy that raises for float16 + int8, where promote says float16.
    said = Refusal("TypeError: no loop for float16 and int8")
    install("numpy", fake_oracle("numpy", wrong={(Operand("float16"), Operand("int8")): said}))
    result = run("verify", "numpy", "--json", "-O", "ml_dtypes=false")
    assert result.exit_code == 1
    [entry] = json.loads(result.stdout)["policies"]
    [mismatch] = entry["mismatches"]
    assert mismatch["promote"]["result"] == "float16" and mismatch["promote"]["rule"] == "table"
    assert mismatch["framework"] == {
        "result": None,
        "label": None,
        "refused": True,
        "rule": "framework",
        "reason": "TypeError: no loop for float16 and int8",
        "unsafe_result": None,
        "materialised": None,
    }


# --- the summary, the limit on listed cells and the last line --------------------------------

# NumPy 2 (NEP 50, its docs): int8 with uint8, uint16, uint32 gives int16, int32, int64 (its
# table); float16 + a Python int stays float16. A stand-in NumPy that says otherwise on each:
WRONG_FIVE = {
    (Operand("int8"), Operand("uint8")): "int32",
    (Operand("int8"), Operand("uint16")): "int64",
    (Operand("int8"), Operand("uint32")): "refused",
    (Operand("int8"), Operand("uint64")): "float32",
    (Operand("float16"), Operand("int*", PYTHON)): "float64",
}


def test_mismatches_are_summarised_by_the_rule_of_promote_s_answer_with_examples(run, install):
    install("numpy", fake_oracle("numpy", wrong=WRONG_FIVE))
    result = run("verify", "numpy", "-O", "ml_dtypes=false")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("numpy: numpy 9.9, 400 cells in ")
    assert lines[0].endswith(": 5 mismatches")
    opts = "ml_dtypes=false, promotion=weak"
    assert lines[3:] == [
        "  numpy mismatches: 5 of 400 pairs",
        "  numpy mismatches by promote's rule (2 causes, up to 3 examples each):",
        "    4 pairs: promote's rule table",
        f"      {opts}: int8 x uint8 -> promote says int16, framework says int32",
        f"      {opts}: int8 x uint16 -> promote says int32, framework says int64",
        f"      {opts}: int8 x uint32 -> promote says int64, framework says refused"
        " (ValueError: no promotion path)",
        "    1 pair: promote's rule nep50",
        f"      {opts}: float16 x int* -> promote says float16, framework says float64",
        "  numpy mismatching cells, in the order asked (5 of 5):",
        f"  numpy {opts}: int8 x uint8 -> promote says int16, framework says int32",
        f"  numpy {opts}: int8 x uint16 -> promote says int32, framework says int64",
        f"  numpy {opts}: int8 x uint32 -> promote says int64, framework says refused"
        " (ValueError: no promotion path)",
        f"  numpy {opts}: int8 x uint64 -> promote says float64, framework says float32",
        f"  numpy {opts}: float16 x int* -> promote says float16, framework says float64",
        "1 of 1 policy has mismatches: 400 pair cells compared, 5 mismatches",
    ]
    # The two lines between: the version asked is not the one measured, and the stand-in
    # calls no operations.
    assert lines[1].startswith(
        "  numpy: numpy 9.9 is not 2.4.6 (ml_dtypes 0.7.0), the version promote's numpy"
    )
    assert lines[2].startswith("  numpy operations: not verified (")


def test_the_summary_names_the_versions_when_the_measured_one_answered(run, install, monkeypatch):
    module = fake_oracle("numpy", wrong=WRONG_FIVE)
    monkeypatch.setattr(module, "version", lambda handle: "2.4.6 (ml_dtypes 0.7.0)")
    install("numpy", module)
    lines = run("verify", "numpy", "-O", "ml_dtypes=false", "--no-ops").stdout.splitlines()
    # The version the checked-in measurements name, ml_dtypes' with NumPy's (2.4.6 with
    # ml_dtypes 0.6.0 when they were taken), read against the one that answered.
    pairs = ROOT / "promote_cli" / "frameworks" / "numpy" / "measured" / "pairs.json"
    measured = json.loads(pairs.read_text(encoding="utf-8"))["version"]
    assert measured.startswith("2.4.6 (ml_dtypes ")
    assert lines[1] == (
        "  numpy versions: numpy 2.4.6 (ml_dtypes 0.7.0) answered; promote's numpy rules were"
        f" measured on {measured}"
    )
    assert lines[2] == "  numpy mismatches: 5 of 400 pairs"


# Every pair with int8 or int16 on the left refused: 40 cells NumPy 2 promotes.
REFUSES_TWO_ROWS = {
    (Operand(left), op): "refused"
    for left in ("int8", "int16")
    for op in frameworks.get("numpy").operands({"ml_dtypes": False, "promotion": "weak"})
}


def _listed(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("  numpy ml_dtypes=")]


def test_the_listed_cells_stop_at_the_limit_and_say_how_to_see_every_one(run, install):
    install("numpy", fake_oracle("numpy", wrong=REFUSES_TWO_ROWS))
    args = ("verify", "numpy", "-O", "ml_dtypes=false", "--no-ops")
    default = run(*args)
    assert default.exit_code == 1
    assert len(_listed(default.stdout)) == 20  # a screenful, after the summary
    assert "  numpy mismatching cells, in the order asked (20 of 40):\n" in default.stdout
    assert (
        "  numpy: 20 more mismatching cells not listed (--limit all lists every one; --json"
        " gives each)\n" in default.stdout
    )
    two = run(*args, "--limit", "2")
    assert len(_listed(two.stdout)) == 2 and "  numpy: 38 more mismatching cells" in two.stdout
    none = run(*args, "--limit", "0")
    assert _listed(none.stdout) == [] and "in the order asked" not in none.stdout
    assert "  numpy: 40 mismatching cells not listed (--limit all" in none.stdout
    assert "    34 pairs: promote's rule table" in none.stdout  # the summary stays
    every = run(*args, "--limit", "all")
    assert len(_listed(every.stdout)) == 40 and "not listed" not in every.stdout
    assert {r.exit_code for r in (two, none, every)} == {1}
    # --json has every mismatch, whatever the limit.
    [entry] = json.loads(run(*args, "--limit", "1", "--json").stdout)["policies"]
    assert len(entry["mismatches"]) == 40


@pytest.mark.parametrize("limit", ["-1", "some", "2.5", ""])
def test_a_limit_that_is_no_count_is_one_line_and_exit_2(run, limit):
    result = run("verify", "numpy", "--limit", limit)
    assert result.exit_code == 2
    assert "is neither a number of cells (0 or more) nor 'all'" in result.stderr
    assert "Traceback" not in result.stderr


def test_json_counts_each_kind_of_question_and_each_cause(run, install):
    install("numpy", fake_oracle("numpy", wrong=REFUSES_TWO_ROWS))
    result = run("verify", "numpy", "-O", "ml_dtypes=false", "--no-ops", "--json")
    [entry] = json.loads(result.stdout)["policies"]
    assert entry["asked"] == [{"question": "pair", "cells": 400, "mismatches": 40}]
    # int8 and int16 against 16 array types and a Python bool (the table: NEP 50 reads True as
    # np.bool), and against the Python int, float and complex (NEP 50's weak scalars)
    assert entry["causes"] == [
        {"question": "pair", "rule": "table", "step": None, "count": 34},
        {"question": "pair", "rule": "nep50", "step": None, "count": 6},
    ]
    assert sum(c["count"] for c in entry["causes"]) == len(entry["mismatches"])


def test_the_last_line_says_verified_only_when_nothing_mismatches(run, install):
    install("numpy", fake_oracle("numpy", wrong=WRONG_FIVE))
    install("jax", fake_oracle("jax"))
    pinned = ("-O", "ml_dtypes=false", "-O", "x64=true", "--no-ops")
    jax = frameworks.get("jax")
    cells = 400 + sum(len(jax.operands(o)) ** 2 for o in driver.settings(jax, {"x64": True}))
    both = run("verify", "numpy", "jax", *pinned)
    assert both.exit_code == 1
    assert both.stdout.splitlines()[-1] == (
        f"1 of 2 policies has mismatches: {cells:,} pair cells compared, 5 mismatches;"
        " 1 agrees on every cell"
    )
    assert "verified" not in both.stdout.splitlines()[-1]
    alone = run("verify", "jax", "-O", "x64=true", "--no-ops")
    assert alone.exit_code == 0
    assert alone.stdout.splitlines()[-1] == (
        f"1 of 1 policies verified: {cells - 400:,} pair cells compared, 0 mismatches"
    )


def test_operations_are_grouped_by_the_rule_and_the_step_that_decided(capsys):
    from collections import Counter

    from promote_cli import api
    from promote_cli.cli.verify import _print
    from promote_cli.verify.driver import ExprMismatch, OpMismatch, OpsReport, Report

    def mismatch(op: str, *operands: str, framework: str) -> OpMismatch:
        mine = api.request("torch", operands=list(operands), op=op).outcome()
        return OpMismatch({}, op, tuple(Operand(x) for x in operands), mine, framework)

    # torch.divide of two int32 tensors is float32 (its int-to-float kind; torch 2.13.0);
    # torch.sum of an int8 tensor is int64; a stand-in torch that said float64 twice and int8:
    wrong = [
        mismatch("divide", "int32", "int32", framework="float64"),
        mismatch("sum", "int8", framework="int8"),
        mismatch("divide", "int16", "int16", framework="float64"),
    ]
    program = ExprMismatch({}, "x / y", (Operand("int8"), Operand("int8")), "x / y", "f4", "f8")
    ops = OpsReport(
        cells=Counter(divide=30, sum=5),
        mismatches=wrong,
        expression_mismatches=[program],
        programs=4,
        nodes=12,
    )
    report = Report("torch", driver.MISMATCH, "torch", "2.13.0", cells=9, ops=ops)
    report.measured = "2.13.0"
    _print(report, frameworks.get("torch"), False, 1)
    lines = capsys.readouterr().out.splitlines()
    assert lines[3:] == [
        "  torch versions: torch 2.13.0 answered; promote's torch rules were measured on 2.13.0",
        "  torch mismatches: 0 of 9 pairs, 3 of 35 operation cells, 1 of 4 programs",
        "  torch mismatches by promote's rule (3 causes, up to 3 examples each):",
        "    2 operation cells: promote's rule int-to-float, step kind",
        "      divide(int32, int32) -> promote says float32, framework says float64",
        "      divide(int16, int16) -> promote says float32, framework says float64",
        "    1 operation cell: promote's rule accumulate, step kind",
        "      sum(int8) -> promote says int64, framework says int8",
        "    1 program: promote expr's answer at a node",
        "      'x / y' x=int8 y=int8: at 'x / y' promote says f4, framework says f8",
    ]  # the examples are every mismatch: no list repeats them, whatever the limit


def test_a_question_promote_declines_is_counted_as_declined_never_compared(run, install):
    # NumPy's np.result_type of three operands with an ml_dtypes 0.7 type is not modelled:
    # whatever the framework answers there, promote declines, and nothing is compared.
    install("numpy", fake_oracle("numpy", asks=Asks(nary=True)))
    result = run("verify", "numpy", "-O", "ml_dtypes=0.7", "--no-ops", "--json")
    report = json.loads(result.stdout)["policies"][0]
    assert report["status"] == "verified" and report["mismatches"] == []
    assert report["declined"] > 0 and report["unobservable"] == 0
    # and said on the framework's line
    said = run("verify", "numpy", "-O", "ml_dtypes=0.7", "--no-ops").stdout.splitlines()[0]
    assert f"{report['declined']:,} declined (not modelled)" in said
