"""The notation grid: one row per catalogued type, one column per notation, no column that
reads one label two ways; and the one place that says whether a type is weak."""

from __future__ import annotations

import pytest

from promote_cli.dtypes import CATALOGUE, WEAK, get, is_weak
from promote_cli.errors import PolicyDefinitionError
from promote_cli.notations import _GRID, NOTATIONS, _notations


@pytest.mark.parametrize("name", list(NOTATIONS))
def test_no_label_in_a_column_names_two_types(name):
    nota = NOTATIONS[name]
    seen: dict[str, str] = {}
    for canonical in CATALOGUE:
        printed = nota.label(canonical)
        assert seen.setdefault(printed, canonical) == canonical, (
            f"{name}: {printed!r} prints both {seen[printed]} and {canonical}"
        )


@pytest.mark.parametrize("name", list(NOTATIONS))
def test_no_alias_in_a_column_contradicts_a_label(name):
    nota = NOTATIONS[name]
    labels = nota.by_label()
    for alias, canonical in nota.aliases.items():
        assert labels.get(alias, canonical) == canonical, (
            f"{name}: {alias!r} is an alias of {canonical} but the label of {labels[alias]}"
        )


def test_the_grid_has_a_row_for_every_catalogued_type_in_catalogue_order():
    rows = [line.split()[0] for line in _GRID.strip().splitlines()[1:]]
    assert rows == list(CATALOGUE)


def test_one_label_means_different_types_in_different_columns():
    # The collision the grid exists to show: JAX and NumPy count bytes, OpenVINO and
    # TensorFlow bits, Ascend writes signed integers with an "s".
    assert NOTATIONS["jax"].by_label()["i8"] == "int64"
    assert NOTATIONS["numpy"].by_label()["i8"] == "int64"
    assert NOTATIONS["openvino"].by_label()["i8"] == "int8"
    assert NOTATIONS["tensorflow"].by_label()["i8"] == "int8"
    assert NOTATIONS["ascend"].by_label()["s8"] == "int8"
    assert NOTATIONS["numpy"].by_label()["c8"] == "complex64"
    assert NOTATIONS["jax"].by_label()["c8"] == "complex128"


def test_equals_sign_is_the_canonical_name_and_dash_is_no_label():
    assert NOTATIONS["torch"].labels["complex32"] == "complex32"
    assert "complex32" not in NOTATIONS["jax"].labels
    assert NOTATIONS["jax"].label("complex32") == "complex32"  # printed by its canonical name


def test_a_grid_row_with_a_missing_cell_is_a_policy_definition_error():
    grid = "canonical  jax  numpy\nint8  i1  i1\nint16  i2\n"
    with pytest.raises(PolicyDefinitionError, match="row int16"):
        _notations(grid, "")


@pytest.mark.parametrize(
    ("name", "weak"),
    [
        ("int*", True),
        ("float*", True),
        ("complex*", True),
        ("int32*", True),  # TensorFlow's weak int32, a Python int
        ("complex128*", True),
        ("int32", False),
        ("bool", False),  # a Python bool is the bool dtype, not a weak type
        ("float8_e4m3fn", False),
    ],
)
def test_weak_types_are_the_starred_catalogue_entries(name, weak):
    assert is_weak(name) is weak
    assert get(name).weak is weak


def test_every_python_scalar_type_is_weak_and_in_the_catalogue():
    assert all(is_weak(t) and t in CATALOGUE for t in WEAK)
    assert sorted(t for t in CATALOGUE if is_weak(t)) == sorted(
        ["int*", "float*", "complex*", "int32*", "int64*", "float32*", "float64*", "complex128*"]
    )
