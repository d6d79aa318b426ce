"""The notations: each framework's column names each type once, no alias contradicts a label,
and one label means different types in different columns (the collision promote guards
against); and the one place that says whether a type is weak."""

from __future__ import annotations

import pytest

from promote_cli import frameworks
from promote_cli.dtypes import CATALOGUE, WEAK, get, is_weak
from promote_cli.errors import PolicyDefinitionError
from promote_cli.notations import Column

NAMES = frameworks.notations().names()


@pytest.mark.parametrize("name", NAMES)
def test_no_label_in_a_column_names_two_types(name):
    nota = frameworks.notation(name)
    seen: dict[str, str] = {}
    for canonical in CATALOGUE:
        printed = nota.label(canonical)
        assert seen.setdefault(printed, canonical) == canonical, (
            f"{name}: {printed!r} prints both {seen[printed]} and {canonical}"
        )


@pytest.mark.parametrize("name", NAMES)
def test_no_alias_in_a_column_contradicts_a_label(name):
    nota = frameworks.notation(name)
    labels = nota.by_label()
    for alias, canonical in nota.aliases.items():
        assert labels.get(alias, canonical) == canonical, (
            f"{name}: {alias!r} is an alias of {canonical} but the label of {labels[alias]}"
        )


def test_every_framework_column_is_a_notation_and_canonical_comes_first():
    columns = [e.column.name for e in frameworks.entries() if e.column is not None]
    assert ("canonical", *columns) == NAMES
    assert "numpy" in NAMES and "jax" in NAMES and "openvino" in NAMES


def test_one_label_means_different_types_in_different_columns():
    # The collision the notations guard against: JAX and NumPy count bytes, OpenVINO and
    # TensorFlow bits, Ascend writes signed integers with an "s".
    assert frameworks.notation("jax").by_label()["i8"] == "int64"
    assert frameworks.notation("numpy").by_label()["i8"] == "int64"
    assert frameworks.notation("openvino").by_label()["i8"] == "int8"
    assert frameworks.notation("tensorflow").by_label()["i8"] == "int8"
    assert frameworks.notation("ascend").by_label()["s8"] == "int8"
    assert frameworks.notation("numpy").by_label()["c8"] == "complex64"
    assert frameworks.notation("jax").by_label()["c8"] == "complex128"


def test_a_name_alone_is_the_canonical_name_and_a_missing_type_has_no_label():
    assert frameworks.notation("torch").labels["complex32"] == "complex32"
    assert "complex32" not in frameworks.notation("jax").labels
    assert frameworks.notation("jax").label("complex32") == "complex32"  # its canonical name


def test_a_label_line_that_names_no_catalogued_type_is_a_policy_definition_error():
    column = Column("tiny", "Tiny", "a test's notation", labels="int8 i1\nint99 i99\n")
    with pytest.raises(PolicyDefinitionError, match="label line 2"):
        column.label_map()


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
