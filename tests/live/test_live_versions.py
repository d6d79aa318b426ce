"""The versions promote's rules were measured on, as CI pins them (``constraints.txt``), and the
live tests' skip when a framework is installed at another version (``live.py``)."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import live
import pytest

from promote_cli import frameworks
from promote_cli.frameworks.numpy import ML_RELEASES

ROOT = Path(__file__).resolve().parents[2]


def pins() -> dict[str, str]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            found[name.lower().replace("_", "-")] = version
    return found


def test_constraints_pin_every_framework_at_the_version_its_rules_were_measured_on():
    pinned = pins()
    for entry in frameworks.entries():
        if not entry.version:  # Ascend: a document, no installable framework
            continue
        assert pinned[entry.install.split("[")[0]] == entry.version, entry.name
    assert pinned["jaxlib"] == pinned["jax"] and pinned["mlx-cpu"] == pinned["mlx"]


def test_constraints_pin_the_ml_dtypes_every_framework_was_measured_with():
    # Keras's measurements were taken with ml_dtypes 0.6.0; NumPy's and TensorFlow's with each
    # release their option names, 0.6 among them: so CI asks every framework live with it.
    pinned = pins()["ml-dtypes"]
    for entry in frameworks.entries():
        for package, version in entry.measured_with:
            assert pinned == version if package == "ml_dtypes" else pins()[package] == version
    tables = "promote_cli/shared"  # beside NumPy's promotion, which reads them
    measured = {
        json.loads((ROOT / tables / f"ml_dtypes-{r}.json").read_text("utf-8"))["ml_dtypes"]
        for r in ML_RELEASES
    }
    assert pinned in measured


def test_keras_live_tests_skip_beside_another_ml_dtypes_than_measured_with(monkeypatch):
    real = metadata.version

    def version(dist: str) -> str:
        return (
            "0.7.0"
            if dist == "ml_dtypes"
            else frameworks.entry("keras").version
            if (dist == "keras")
            else real(dist)
        )

    monkeypatch.setattr(metadata, "version", version)
    monkeypatch.setattr(live, "asks", lambda name: (name,))
    assert live.unmeasured(["keras"]) == (
        "ml_dtypes 0.7.0 is installed; promote's keras rules were measured with ml_dtypes 0.6.0"
        " (pip install -c constraints.txt ... pins it)"
    )


def test_a_live_test_skips_naming_both_versions_when_a_framework_is_not_the_one_measured(
    monkeypatch,
):
    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda dist: "2.15.0" if dist == "torch" else real(dist)
    )
    why = live.unmeasured(["torch"])
    assert why.startswith("torch 2.15.0 is installed; promote's torch rules were measured on")
    assert "2.13.0" in why


def test_keras_live_tests_also_need_its_backends_at_their_measured_versions(monkeypatch):
    real = metadata.version

    def version(dist: str) -> str:
        if dist == "jax":
            return "0.11.0"
        if dist == "ml_dtypes":
            return "0.6.0"
        if dist == "keras":
            return frameworks.entry("keras").version
        return real(dist)

    monkeypatch.setattr(metadata, "version", version)
    assert sorted(live.asks("keras")) == [
        "jax",
        "keras",
        "numpy",
        "openvino",
        "tensorflow",
        "torch",
    ]
    assert live.unmeasured(["keras"]).startswith("jax 0.11.0 is installed")


def test_a_framework_that_is_not_installed_is_left_to_the_tests_own_skip(monkeypatch):
    def version(dist: str) -> str:
        raise metadata.PackageNotFoundError(dist)

    monkeypatch.setattr(metadata, "version", version)
    assert live.unmeasured(["torch", "keras", "numpy"]) == ""


@pytest.mark.conformance("torch")
def test_the_conformance_marker_skips_before_the_test_runs_when_torch_is_not_measured():
    # Runs only where torch is absent or at its measured version: the hook above it skipped it
    # otherwise (and this body would then never run).
    assert live.installed("torch").split("+")[0] in ("", frameworks.entry("torch").version)
