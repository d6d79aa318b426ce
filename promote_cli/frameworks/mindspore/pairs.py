"""MindSpore's pair rules other than its policy's (``Rule.pair``): ``Mul``/``Div`` promote
with a rule of their own, comparisons take what MindSpore does not convert as it is, a shift
takes the tensor's type. ``PAIRS`` names them for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.engine import DECLINED, Outcome, ref, refuse
from promote_cli.frameworks.mindspore.operations import LONE_UNSIGNED
from promote_cli.frameworks.mindspore.promotion import CRASH, POLICY, crashes
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.rules import Pair

# Measured on MindSpore 2.10.0 (every pair with a 0-d tensor, 1,070 cells): Mul and Div take
# a 0-d tensor as a scalar by rules of their own, which no rule here models. 324 of them differ
# from the same call on dimensioned tensors: D(uint8) * S(int64) is uint8 (add: int64),
# ops.mul(S(uint8), 1) is int64 where S(uint8) * 1 is uint8, D(int8) * S(int32) has no kernel,
# S(bool) * S(uint16) is refused; D(float16) * S(bfloat16) ends the process (SIGSEGV).
_ZERO_D_DECLINED = (
    "MindSpore's Mul and Div take a 0-d tensor as a scalar, by rules promote does not model"
    " ({a} tensor * 0-d {b} tensor is {a}, where + gives {b}; float16 tensor * 0-d"
    " bfloat16 tensor crashes the process): ask with dimensioned tensors, D(t)"
)


def mul_promotion(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Mul and Div promote as add does, but for three things: a bool tensor does not convert to
    uint16, uint32 or uint64 ("the promote output type is invalid"), a Python int or float
    with one of those is the scalar rule of every other integer (the type kept, or float32),
    and a 0-d tensor is a scalar to them, which promote declines (``_ZERO_D_DECLINED``)."""
    if crashes(b, a) and b.dtype == "bfloat16":  # and D(float16) * S(bfloat16) crashes too
        return POLICY.promote(b, a, opts)
    if ZERO_D in (a.category, b.category):
        why = _ZERO_D_DECLINED.format(a=ref("uint8"), b=ref("int64"))
        return refuse(DECLINED, why)
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


def remainder_promotion(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``remainder`` is ``x - floor_divide(x, y) * y``: its ``Mul`` takes a 0-d tensor as a
    scalar too (measured: ``remainder(S(uint16), bool)`` is refused where add gives uint16,
    ``remainder(S(complex64), int8)`` finds no kernel), which promote declines."""
    if ZERO_D in (a.category, b.category) and not crashes(a, b):
        return refuse(
            DECLINED,
            "remainder multiplies by y: " + _ZERO_D_DECLINED.format(a=ref("uint8"), b=ref("int64")),
        )
    return POLICY.promote(a, b, opts)


def runs_halves(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``t <= u`` (``Tensor.__le__``) runs where a 0-d float16 tensor meets a bfloat16 one,
    which crashes ``ops.add`` (measured: ``S(float16) <= bfloat16`` is bool)."""
    if crashes(a, b):
        return POLICY.lookup(a.dtype, b.dtype)
    return POLICY.promote(a, b, opts)


def as_given(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Comparisons promote as add does; where MindSpore does not convert (uint8 and uint16, a
    uint16 tensor and a Python int), they take the operands as they are (``unconverted``)."""
    found = POLICY.promote(a, b, opts)
    if found.refused and found.rule != CRASH and "complex*" not in (a.dtype, b.dtype):
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
    "remainder_promotion": Pair(remainder_promotion, "add's, a 0-d tensor declined"),
    "runs_halves": Pair(runs_halves, "add's, where a 0-d half tensor does not crash"),
    "as_given": Pair(as_given, "add's promotion where MindSpore converts"),
    "tensor_type": Pair(tensor_type, "the tensor's type"),
    "less_reflected": Pair(less_reflected, "as_given; a Python scalar on the left: add's"),
    "greater_reflected": Pair(greater_reflected, "add's; a Python scalar on the left: as_given"),
}
