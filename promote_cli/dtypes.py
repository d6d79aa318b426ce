"""The dtype catalogue: every type any policy speaks of, under one canonical name each.

Canonical names follow NumPy / ml_dtypes spelling where one exists (``int8``, ``bfloat16``,
``float8_e4m3fn``). Python scalar operands appear as ``int*``, ``float*``, ``complex*``. The
facts come from ``_catalogue.py``, which ``catalogue_gen`` measures from NumPy and ml_dtypes.
"""

from __future__ import annotations

from promote_cli._catalogue import ROWS
from promote_cli.errors import UsageError
from promote_cli.record import Record

# The kinds a number can be, in the order NumPy (NEP 50) and PyTorch rank them when a weaker
# operand of a higher kind lifts a result: bool < integer < floating < complex. One table, as
# array-api-strict's ``_dtype_categories``; a policy asks the catalogue, never a type's spelling.
KIND_RANK = {"bool": 0, "uint": 1, "int": 1, "float": 2, "complex": 3}
CATEGORIES = ("bool", "integer", "floating", "complex")  # each rank's name


# A Record, not a frozen dataclass: importing dataclasses costs ~8 ms of start-up.
class DType(Record):
    name: str
    kind: str
    bits: int | None
    exponent: int | None
    mantissa: int | None
    numpy: bool  # NumPy (with ml_dtypes) can hold it in an array
    note: str = ""

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_complex(self) -> bool:
        return self.kind == "complex"

    @property
    def signed(self) -> bool:
        return self.kind in ("int", "float", "complex")

    @property
    def rank(self) -> int:
        """The kind's place in ``KIND_RANK`` (bool 0, integers 1, floats 2, complex 3)."""
        return KIND_RANK[self.kind]

    @property
    def category(self) -> str:
        """``bool``, ``integer`` (signed or not), ``floating`` or ``complex``."""
        return CATEGORIES[self.rank]

    @property
    def weak(self) -> bool:
        return is_weak(self.name)


CATALOGUE: dict[str, DType] = {row[0]: DType(*row) for row in ROWS}
WEAK = ("int*", "float*", "complex*")  # the Python scalars' weak types


def is_weak(name: str) -> bool:
    """A weakly typed (Python scalar or WeakTensor) type: ``int*``, TensorFlow's ``int32*`` ...
    The one place that decides it: a trailing ``*`` in the catalogue's naming scheme."""
    return name.endswith("*")


def get(name: str) -> DType:
    """The catalogue entry for a canonical name."""
    try:
        return CATALOGUE[name]
    except KeyError:
        raise UsageError(f"{name!r} is not a canonical dtype name") from None
