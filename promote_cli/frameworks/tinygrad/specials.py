"""tinygrad's own cases: ``1 << t`` keeps the Python int's type (``Rule.special``), and a
shift by a Python int's value that Python's own ``<<`` cannot fold (``Rule.value_special``).
``SPECIALS`` names them for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.tinygrad.promotion import POLICY, TYPES
from promote_cli.operands import PYTHON, Operand, int_value
from promote_cli.rules import REFUSES_TYPE, SpecialFunction

_INTEGRAL = tuple(t for t in TYPES if dtype(t).kind in ("bool", "int", "uint"))


def left_operand_shift(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``1 << t``: a shift keeps its left operand's type, here the weak int; realising checks
    that the shift amount has that type or uint32, so only a uint32 tensor passes."""
    left, right = operands
    if left.category != PYTHON or left.dtype != "int*" or right.dtype not in _INTEGRAL:
        return None
    if right.dtype == "uint32":
        return Outcome(
            "int*",
            "shift-left-operand",
            f"a shift keeps its left operand's type: a Python int stays {ref('int*')}",
            materialised=POLICY.materialise("int*", opts),
        )
    if right.dtype == "bool":
        return None  # bool and int* promote to int* anyway
    return refuse(
        REFUSES_TYPE,
        f"1 << t keeps the Python int's {ref('int*')}, and tinygrad refuses it when realised:"
        f" a shift amount must have the shifted type or uint32, not {ref(right.dtype)}",
    )


# The largest count measured to fold (``t << 2**32`` builds a 2**32-bit Python int), and the
# smallest measured to raise MemoryError; the counts between depend on the machine's memory.
_FOLDED, _TOO_LARGE = 2**32, 2**63 - 1


def _count(value: int, shifted: str, left: bool) -> int:
    """The shift count tinygrad folds for ``t << value`` (``left``) or ``t >> value`` on a
    ``shifted`` tensor, as measured: the value wrapped to the tensor's width, but for ``<<`` of
    int64 and bool (whose result is ``int*``) the value itself, and for ``>>`` of a bool the
    value wrapped as int32 (``int*``'s default int); a negative value is negative for ``>>`` of
    int64 and bool (``int64 >> -(2**63) - 1`` is refused)."""
    if shifted in ("bool", "int64") and (left or value < 0):
        return value  # a negative value stays negative for >> of these too, wrapped or not
    if shifted == "bool":
        shifted = "int32"
    bits = dtype(shifted).bits or 64  # every integral type has a width
    count = value % 2**bits
    return count - 2**bits if dtype(shifted).kind == "int" and count >= 2 ** (bits - 1) else count


def _shift_value(operands: Sequence[Operand], left: bool) -> Outcome | None:
    tensor, scalar = operands
    value = int_value(scalar)
    if tensor.category == PYTHON or value is None or tensor.dtype not in _INTEGRAL:
        return None
    count = _count(value, tensor.dtype, left)
    sign = "<<" if left else ">>"
    if count < 0:
        return refuse(
            "value",
            f"t {sign} {value} on {ref(tensor.dtype)}: tinygrad folds the shift count {count} in"
            " Python ints, which raises ValueError: negative shift count",
        )
    if left and count >= _TOO_LARGE:
        return refuse(
            "value",
            f"t << {value} on {ref(tensor.dtype)}: tinygrad folds the shifted range in Python"
            f" ints (vmin << {count}), which raises MemoryError",
        )
    if left and count > _FOLDED:
        return refuse(
            "value",
            f"t << {value} on {ref(tensor.dtype)}: tinygrad folds vmin << {count} in Python ints,"
            " which succeeds or raises MemoryError as the machine's memory allows: not answered",
        )
    return None


def shift_value_left(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``t << v`` (``lshift``, ``<<=``): a count that Python's ``<<`` cannot fold is refused."""
    return _shift_value(operands, left=True)


def shift_value_right(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``t >> v`` (``>>=``): a negative count (the value wrapped to the width) is refused."""
    return _shift_value(operands, left=False)


def negative_int_power(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """``t ** -1`` and ``-1 ** t`` of a bool or integer tensor: any negative Python int on either
    side raises RuntimeError "base needs to be float" (a float tensor takes it)."""
    tensor = next((x for x in operands if x.category != PYTHON), None)
    for scalar in operands:
        value = int_value(scalar)
        if tensor is not None and value is not None and value < 0 and tensor.dtype in _INTEGRAL:
            return refuse(
                "value",
                f"a negative Python int ({value}) and a tensor of {ref(tensor.dtype)} in a power:"
                " tinygrad raises RuntimeError: base needs to be float",
            )
    return None


SPECIALS: Mapping[str, SpecialFunction] = {
    "negative_int_power": negative_int_power,
    "left_operand_shift": left_operand_shift,
    "shift_value_left": shift_value_left,
    "shift_value_right": shift_value_right,
}
