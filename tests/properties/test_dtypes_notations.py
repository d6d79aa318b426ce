"""The catalogue and the notations: measured facts, and no silent misreading."""

from __future__ import annotations

from pathlib import Path

import pytest

from promote_cli import catalogue_gen, frameworks
from promote_cli._catalogue import ROWS
from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import UsageError
from promote_cli.notations import display, read_dtype
from promote_cli.operands import Operand, parse


def test_checked_in_catalogue_is_what_numpy_and_ml_dtypes_say():
    assert catalogue_gen.derive() == ROWS, (
        "promote_cli/_catalogue.py is stale: python -m promote_cli.catalogue_gen"
        " > promote_cli/_catalogue.py"
    )


def test_catalogue_has_every_type_promote_answers_for():
    names = [
        "bool",
        "int2",
        "int4",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint1",
        "uint2",
        "uint4",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float4_e2m1fn",
        "float8_e3m4",
        "float8_e4m3",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e4m3b11fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float8_e8m0fnu",
        "bfloat16",
        "float16",
        "float32",
        "float64",
        "complex32",
        "complex64",
        "complex128",
        "uint3",
        "uint6",
        "nf4",
        "string",
    ]
    assert set(names) <= set(CATALOGUE)


@pytest.mark.parametrize(
    ("name", "kind", "bits", "exponent", "mantissa"),
    [
        # IEEE 754 and the OCP / ml_dtypes definitions.
        ("bfloat16", "float", 16, 8, 7),
        ("float16", "float", 16, 5, 10),
        ("float8_e4m3fn", "float", 8, 4, 3),
        ("float8_e5m2", "float", 8, 5, 2),
        ("float4_e2m1fn", "float", 4, 2, 1),
        ("float8_e8m0fnu", "float", 8, 8, 0),
        ("complex32", "complex", 32, 5, 10),
        ("int4", "int", 4, None, None),
        ("uint1", "uint", 1, None, None),
    ],
)
def test_catalogue_facts(name, kind, bits, exponent, mantissa):
    t = CATALOGUE[name]
    assert (t.kind, t.bits, t.exponent, t.mantissa) == (kind, bits, exponent, mantissa)


@pytest.mark.parametrize(
    ("spelling", "notation", "canonical"),
    [
        ("i8", "jax", "int64"),
        ("i8", "openvino", "int8"),
        ("s8", "ascend", "int8"),
        ("s8", "jax", "int64"),  # JAX's prose writes s2 for int16
        ("u1", "jax", "uint8"),
        ("u1", "openvino", "uint1"),
        ("c8", "jax", "complex128"),
        ("c8", "numpy", "complex64"),
        ("g", "numpy", "longdouble"),
        ("G", "numpy", "clongdouble"),
        ("f8e4m3", "openvino", "float8_e4m3fn"),
        ("FP16", "openvino", "float16"),
        ("ACL_BF16", "ascend", "bfloat16"),
        ("np.float16", "canonical", "float16"),
        ("torch.bfloat16", "canonical", "bfloat16"),
        ("half", "canonical", "float16"),
        # A spelling only one notation knows is accepted in any notation.
        ("bf", "openvino", "bfloat16"),
        ("f8e5m2", "jax", "float8_e5m2"),
        ("c128", "jax", "complex128"),
    ],
)
def test_reading_spellings(spelling, notation, canonical):
    assert read_dtype(spelling, frameworks.notation(notation)) == canonical


def test_a_spelling_two_other_notations_disagree_on_is_refused_not_guessed():
    with pytest.raises(UsageError, match=r"'i8' is ambiguous.*int64 in jax.*int8 in openvino"):
        read_dtype("i8", frameworks.notation("ascend"))


def test_unknown_names_suggest_the_closest():
    with pytest.raises(UsageError, match=r"unknown dtype 'flaot16'.*did you mean 'float16'"):
        read_dtype("flaot16", frameworks.notation("canonical"))


@pytest.mark.parametrize("label", ["i8", "u8", "i4", "u4", "i2", "u2", "u1", "i1", "f8", "f4",
                                   "c8", "c4", "s8"])  # fmt: skip
def test_every_colliding_short_spelling_is_flagged(label):
    assert frameworks.notations().collides(label)


@pytest.mark.parametrize("label", ["f16", "bf16", "f32", "bf", "f2", "boolean", "c64", "s16"])
def test_unambiguous_labels_are_not_flagged(label):
    assert not frameworks.notations().collides(label)


def test_display_adds_the_canonical_name_only_where_it_could_mislead():
    assert display("int64", frameworks.notation("jax")) == "i8 (int64)"
    assert display("int8", frameworks.notation("openvino")) == "i8 (int8)"
    assert display("float16", frameworks.notation("openvino")) == "f16"
    assert display("bfloat16", frameworks.notation("jax")) == "bf"
    assert display("int4", frameworks.notation("jax")) == "int4"


@pytest.mark.parametrize(
    ("spelling", "operand"),
    [
        ("S(i64)", Operand("int64", "S")),
        ("D(f16)", Operand("float16", "D")),
        ("int", Operand("int*", "P")),
        ("P(float)", Operand("float*", "P")),
        ("c*", Operand("complex*", "P")),
        ("P(bool)", Operand("bool", "P")),
        ("bool", Operand("bool", "D")),
    ],
)
def test_operand_categories(spelling, operand):
    assert parse(spelling, frameworks.notation("openvino")) == operand


@pytest.mark.parametrize(
    ("spelling", "message"),
    [
        ("P(f16)", "is not a Python scalar"),
        ("S(i*)", "a Python scalar has no array category"),
        ("Q(i8)", "unknown dtype 'Q\\(i8\\)'"),
    ],
)
def test_malformed_operands(spelling, message):
    with pytest.raises(UsageError, match=message):
        parse(spelling, frameworks.notation("jax"))


def test_checked_in_notation_index_is_what_the_entries_declare():
    path = Path(frameworks.__file__).with_name("_index.py")
    assert path.read_text(encoding="utf-8") == frameworks.index_source(), (
        "promote_cli/frameworks/_index.py is stale: python -m promote_cli.regenerate index"
    )


def test_the_index_reads_every_spelling_as_every_notation_table_does():
    # What pair and op read from the index is what the entries' tables say, spelling by
    # spelling: each notation's readings, titles, prefixes, and the notations with a reader.
    indexed = frameworks.notations()
    assert indexed.index is not None, "the registry's index is not in use"
    tables = frameworks._from_entries()
    assert tables.index is None
    assert indexed.titles == tables.titles
    assert indexed.prefixes == tables.prefixes and indexed.readers == tables.readers
    every = {s for name in tables.names() for s in tables.spellings(name)}
    for spelling in sorted(every | {"nonsense", "F16", "f8e4m3fn"}):
        assert indexed.readings(spelling) == tables.readings(spelling), spelling
        assert list(indexed.readings(spelling)) == list(tables.readings(spelling)), spelling


def test_a_framework_added_after_the_index_was_written_is_read_from_the_entries(monkeypatch):
    from registry import forget, register

    register(monkeypatch, "abacus")
    try:
        assert frameworks.notations().index is None
        assert display("int64", frameworks.notation("jax")) == "i8 (int64)"
    finally:
        monkeypatch.undo()
        forget()
    assert frameworks.notations().index is not None
