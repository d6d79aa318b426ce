import pytest

from promote_cli import frameworks
from promote_cli.errors import PolicyDefinitionError
from promote_cli.frameworks import get
from promote_cli.halftable import TablePolicy, mirror
from promote_cli.operands import Operand

READ = {"a": "int8", "b": "int16", "c": "float32"}


def test_lower_half_is_mirrored_and_crosses_are_refusals():
    table = mirror(
        """
        a  a
        b  b  b
        c  ×  c  c
        """,
        READ,
    )
    assert table.order == ("int8", "int16", "float32")
    assert table.cells["int16", "int8"] == table.cells["int8", "int16"] == "int16"
    assert table.cells["float32", "int8"] is None and table.cells["int8", "float32"] is None
    assert len(table.cells) == 9


def test_a_row_of_the_wrong_length_is_a_policy_definition_error():
    with pytest.raises(PolicyDefinitionError, match="row 1 has 1 cells, not 2"):
        mirror("a a\nb b\n", READ)


JAX = frameworks.notation("jax")


class _Tiny(TablePolicy):
    name = title = source = "tiny"
    notation_name = "jax"
    table = mirror("i1  i1\ni2  i2  i2\nf4  ×   f4  f4\n", frameworks.notation("jax").by_label())
    universe = default_types = table.order
    crossed_reason = "tiny refuses {a} with {b}"
    outside_reason = "tiny has no {odd}"


def test_table_lookup_gives_the_stored_cell_with_the_policys_reason():
    out = _Tiny().lookup("int16", "int8")
    assert (out.result, out.rule, out.text(frameworks.notation_of(_Tiny()))) == (
        "int16",
        "table",
        "i2 x i1 = i2 in the table",
    )


def test_table_lookup_refuses_a_crossed_pair_with_the_policys_reason():
    for a, b in (("int8", "float32"), ("float32", "int8")):
        out = _Tiny().lookup(a, b)
        assert out.refused and out.rule == "table"
        assert (
            out.text(frameworks.notation_of(_Tiny()))
            == f"tiny refuses {'i1 with f4' if a == 'int8' else 'f4 with i1'}"
        )


def test_table_lookup_refuses_a_type_outside_the_table_naming_it():
    out = _Tiny().lookup("int8", "float64")
    assert (
        out.refused
        and out.rule == "unsupported"
        and out.text(frameworks.notation_of(_Tiny())) == "tiny has no f8"
    )


def test_ascend_refuses_a_crossed_cell_in_its_own_words_and_notation():
    pol = get("ascend")
    out = pol.promote(Operand("uint16"), Operand("float32"), pol.resolve_options())
    assert out.refused and out.rule == "table"
    assert (
        out.text(frameworks.notation_of(pol))
        == "aclnn cannot deduce a common type for u16 and f32 (× in the deduction table)"
    )


def test_torch_refuses_a_type_its_table_lacks_as_an_internal_assertion():
    # int3 x int8: neither a float8 nor a barebones unsigned type, and not in c10's table.
    pol = get("torch")
    out = pol.promote(Operand("int3"), Operand("int8"), pol.resolve_options())
    assert out.refused and out.rule == "unsupported"
    assert out.text(frameworks.notation_of(pol)).startswith(
        "int3 is not in PyTorch's promotion table"
    )
