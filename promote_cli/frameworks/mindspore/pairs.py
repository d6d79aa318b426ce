"""MindSpore's pair rules other than its policy's (``Rule.pair``): ``Mul``/``Div`` promote
with a rule of their own, comparisons take what MindSpore does not convert as it is, a shift
takes the tensor's type. ``PAIRS`` names them for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.mindspore.operations import LONE_UNSIGNED
from promote_cli.frameworks.mindspore.promotion import POLICY
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.ops import Pair


def mul_promotion(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Mul and Div promote as add does, but for two things: a bool tensor does not convert to
    uint16, uint32 or uint64 ("the promote output type is invalid"), and a Python int or float
    with one of those is the scalar rule of every other integer (the type kept, or float32)."""
    arrays = {x.dtype for x in (a, b) if x.category != PYTHON}
    scalars = {x.dtype for x in (a, b) if x.category == PYTHON}
    lone = arrays & set(LONE_UNSIGNED)
    if lone and "bool" in arrays and a.category == b.category == DIMENSIONED:
        t = lone.pop()
        return refuse(
            "mul-promotion", f"MindSpore's Mul and Div do not convert {ref('bool')} to {ref(t)}"
        )
    if lone and scalars & {"int*", "float*"}:
        t = lone.pop()
        if "int*" in scalars:
            return Outcome(t, "scalar", "a Python int keeps the tensor's type")
        return Outcome("float32", "scalar", "a Python float makes an integer tensor float32")
    return POLICY.promote(a, b, opts)


def as_given(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Comparisons promote as add does; where MindSpore does not convert (uint8 and uint16, a
    uint16 tensor and a Python int), they take the operands as they are (``unconverted``)."""
    found = POLICY.promote(a, b, opts)
    if found.refused and "complex*" not in (a.dtype, b.dtype):
        t = a.dtype if a.category != PYTHON else b.dtype
        return Outcome(
            t, "unconverted", f"MindSpore does not convert {ref(a.dtype)} and {ref(b.dtype)}"
        )
    return found


def tensor_type(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """A Python scalar shifts as the tensor's own type; two tensors must agree (same_dtype)."""
    if PYTHON in (a.category, b.category) and a.category != b.category:
        t = a.dtype if a.category != PYTHON else b.dtype
        return Outcome(t, "scalar", "a Python scalar takes the tensor's type")
    return POLICY.promote(a, b, opts)


def less_reflected(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``t < u`` (``Tensor.__lt__``) is ``ops.less``'s (``as_given``); ``1 < t`` is ``t > 1``
    (``Tensor.__gt__``), which promotes as add does."""
    return POLICY.promote(a, b, opts) if a.category == PYTHON else as_given(a, b, opts)


def greater_reflected(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``t > u`` (``Tensor.__gt__``) promotes as add does; ``1 > t`` is ``t < 1``
    (``Tensor.__lt__``), ``ops.less``'s (``as_given``)."""
    return as_given(a, b, opts) if a.category == PYTHON else POLICY.promote(a, b, opts)


PAIRS: Mapping[str, Pair] = {
    "mul_promotion": Pair(mul_promotion, "Mul's and Div's promotion"),
    "as_given": Pair(as_given, "add's promotion where MindSpore converts"),
    "tensor_type": Pair(tensor_type, "the tensor's type"),
    "less_reflected": Pair(less_reflected, "as_given; a Python scalar on the left: add's"),
    "greater_reflected": Pair(greater_reflected, "add's; a Python scalar on the left: as_given"),
}
