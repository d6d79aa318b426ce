import pytest

from promote_cli.errors import PolicyDefinitionError
from promote_cli.halftable import mirror

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
