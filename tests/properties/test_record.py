"""``Record`` behaves as ``typing.NamedTuple`` does, for everything promote's records are used
for: each check builds the same class both ways and compares what a caller sees."""

from __future__ import annotations

import pickle
from typing import ClassVar, NamedTuple

import pytest

from promote_cli.record import Record


class Named(NamedTuple):
    dtype: str
    category: str = "dimensioned"
    value: int | None = None

    def described(self) -> str:
        return f"{self.category} {self.dtype}"


class Rec(Record):
    dtype: str
    category: str = "dimensioned"
    value: int | None = None

    def described(self) -> str:
        return f"{self.category} {self.dtype}"


CALLS = [
    (("int8",), {}),
    (("int8", "python"), {}),
    (("int8",), {"value": 300}),
    ((), {"dtype": "bool", "category": "zero-d"}),
    (("int8", "python", 7), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_record_is_built_read_and_shown_as_a_namedtuple_is(args, kwargs):
    named, rec = Named(*args, **kwargs), Rec(*args, **kwargs)
    assert tuple(rec) == tuple(named)
    assert (rec.dtype, rec.category, rec.value) == (named.dtype, named.category, named.value)
    assert repr(rec) == repr(named).replace("Named(", "Rec(")
    assert rec.described() == named.described()
    assert rec._asdict() == named._asdict()
    assert rec._replace(value=1) == named._replace(value=1)
    assert type(rec._replace(value=1)) is Rec
    assert hash(rec) == hash(tuple(named)) and rec == tuple(named)


def test_a_record_has_namedtuples_class_attributes():
    assert Rec._fields == Named._fields == ("dtype", "category", "value")
    assert Rec._field_defaults == Named._field_defaults
    assert Rec.__match_args__ == Named.__match_args__
    assert Rec._make(["a", "b", 1]) == Rec("a", "b", 1)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, "missing required argument: 'dtype'"),
        (("a", "b", 1, 2), {}, "takes 3 arguments but 4 were given"),
        (("a",), {"dtype": "b"}, "multiple values for argument 'dtype'"),
        (("a",), {"nosuch": 1}, "an unexpected keyword argument 'nosuch'"),
    ],
)
def test_a_wrong_call_is_a_type_error_naming_the_argument(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        Rec(*args, **kwargs)
    with pytest.raises(TypeError):  # NamedTuple refuses the same calls
        Named(*args, **kwargs)


def test_a_record_is_immutable_and_has_no_instance_dict():
    rec = Rec("int8")
    with pytest.raises(AttributeError):
        rec.dtype = "int16"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        rec.other = 1  # type: ignore[attr-defined]
    assert not hasattr(rec, "__dict__")
    with pytest.raises(ValueError, match="unexpected field names"):
        rec._replace(nosuch=1)


def test_a_record_pickles_to_an_equal_record_of_its_class():
    rec = Rec("int8", "python", 300)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(rec, protocol))
        assert back == rec and type(back) is Rec and back.value == 300


def test_a_record_matches_class_patterns_by_position():
    match Rec("int8", "python"):
        case Rec(dtype, "python"):
            assert dtype == "int8"
        case _:
            pytest.fail("the pattern did not match")


def test_a_classvar_is_a_class_attribute_not_a_field():
    class WithConstant(Record):
        LIMIT: ClassVar[int] = 3
        dtype: str

    assert WithConstant._fields == ("dtype",)
    assert WithConstant("a").LIMIT == 3


def test_a_field_without_a_default_after_one_with_is_refused_at_the_class():
    with pytest.raises(TypeError, match="field b without a default follows one with"):

        class Bad(Record):
            a: int = 0
            b: int


def test_a_subclass_adds_methods_but_not_fields():
    class Sub(Rec):
        def loud(self) -> str:
            return self.dtype.upper()

    assert Sub("int8").loud() == "INT8" and Sub._fields == Rec._fields
    with pytest.raises(TypeError, match="cannot add fields"):

        class Grown(Rec):
            extra: int
