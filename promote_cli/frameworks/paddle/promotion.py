"""PaddlePaddle: the eager ``x + y`` of dygraph mode, PyTorch's table behind Paddle's own rules.

Source: ``paddle/phi/common/type_promotion.h`` (Paddle 3.3.1): ``promoteTypes`` is c10's lookup
table (the ``torch`` policy's, without complex32), and ``GetPromoteDtype``/``NeedTypePromotion``
decide when it is consulted; the Python-scalar rules are ``eager_math_op_patch``'s. Measured on
CPU: every pair of the 14 dtypes a CPU tensor can have, as dimensioned tensors, 0-d tensors and
Python scalars (``paddle.add`` and ``+`` agree on tensors; only ``+`` takes Python scalars).

Two tensors, in the order the rules are checked:

1. the same dtype gives that dtype;
2. with a 0-d tensor: when both are 0-d, or the two are not of a common kind (integer:
   uint8..int64, bool not included; floating: float16, bfloat16, float32, float64; complex),
   the table decides; otherwise the dimensioned tensor's type wins (``D(uint8) x S(int64)`` is
   uint8, ``D(complex64) x S(float64)`` complex128);
3. two dimensioned tensors promote only float x float and anything x complex, by the table;
   anything else is refused ("Type promotion only support calculations between floating-point
   numbers and between complex and real numbers").

float8_e4m3fn and float8_e5m2 are not in the table: they promote with nothing but themselves.
A tensor with a Python scalar: a ``bool`` keeps the tensor's type; an int keeps it, except that a
bool tensor becomes int64; a float keeps a floating or complex type and makes bool and integers
float32 (whatever ``paddle.set_default_dtype`` says); a complex promotes the tensor's type with
complex64 by the table. Two Python scalars are refused: ``paddle.add`` takes only tensors, and
``1 + 1.0`` is Python's own. An n-ary promotion is a left fold (Paddle has no n-ary
``result_type``; ``add_n`` needs equal dtypes), the same question as the chain but that the
chain adds two Python scalars in Python first. Values are not looked at: any Python int is taken
(``uint8 + 300`` wraps, ``int8 + 2**64`` is int8).

Missing CPU kernels are not promotion rules: the CPU build has no ``add`` kernel for float16 and
bfloat16 and no ``scale`` or ``add`` kernel for the float8 types; its error names the dtype the
operands were already promoted to, and that dtype is this policy's answer
(``float16 + float16`` is float16). uint16, uint32 and uint64 are Paddle dtypes that ``full``
has no kernel for (``paddle.ones``, ``zeros``, ``full`` raise; ``paddle.uint16`` even prints as
bfloat16), but ``paddle.cast`` makes CPU tensors of them, on which ``+x`` returns the tensor
(uint16, uint32, uint64) and ``-x``, ``~x``, ``abs``, ``x + x`` and ``x + 1`` raise (measured
on 3.3.1): questions promote declines, as types it does not model.

Where it departs from PyTorch (its neighbour): the same table, but dimensioned tensors of
different types promote only float x float and x complex; bool is not an integer for the 0-d
rule and float x complex are different kinds (``D(complex64) x S(float64)`` is complex128, where
PyTorch gives complex64); a Python complex with float16 is complex64 (PyTorch complex32); no
uint16/32/64 tensors, no complex32, and float8 never promotes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from promote_cli.dtypes import get as dtype
from promote_cli.engine import IDEMPOTENT, SYMMETRIC, Outcome, ref, refuse
from promote_cli.frameworks.paddle import FRAMEWORK
from promote_cli.halftable import HalfTable, TablePolicy
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.shared import c10

TYPES = (
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "float8_e4m3fn",
    "float8_e5m2",
)
# promoteTypes: c10's table over the types Paddle keeps (every type but float8).
_IN_TABLE = TYPES[:-2]
TABLE = HalfTable(
    _IN_TABLE,
    {(a, b): c10.TABLE.cells[a, b] for a in _IN_TABLE for b in _IN_TABLE},
)
_UNMODELLED = (
    "paddle.cast makes {t} tensors (paddle.ones and full have no kernel for it), and Paddle has"
    " almost no kernel for them: +x returns the tensor ({t}), -x, ~x, abs, x + x and x + 1 raise"
    " (measured on 3.3.1); promote does not model {t}"
)


def _kind(t: str) -> str | None:
    """The common-kind rule's kind: bool and float8 belong to none."""
    info = dtype(t)
    if info.is_integer:
        return "integer"
    if info.is_float and info.bits >= 16:  # type: ignore[operator]
        return "floating"
    return "complex" if info.is_complex else None


class PaddlePolicy(TablePolicy, framework=FRAMEWORK):
    table = TABLE
    universe = TYPES
    default_types = TYPES
    known_unsupported: ClassVar[Mapping[str, str]] = {"complex32": "Paddle has no complex32"}
    declined_types: ClassVar[Mapping[str, str]] = {
        t: _UNMODELLED.format(t=ref(t)) for t in ("uint16", "uint32", "uint64")
    }
    categories = frozenset({"D", ZERO_D, PYTHON})
    properties = frozenset({SYMMETRIC, IDEMPOTENT})
    cell_reason = "promoteTypes({a}, {b}) = {result}, c10's table as Paddle keeps it"
    outside_reason = "Paddle does not promote {odd} with another type (not in promoteTypes)"

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        if a.category == b.category == PYTHON:
            return refuse(
                "operand", "no Paddle operation takes two Python scalars (paddle.add takes tensors)"
            )
        if b.category == PYTHON:
            return self._with_scalar(a.dtype, b.dtype)
        if a.category == PYTHON:
            return self._with_scalar(b.dtype, a.dtype)
        return self._tensors(a, b)

    def _tensors(self, a: Operand, b: Operand) -> Outcome:
        if a.dtype == b.dtype:
            return Outcome(a.dtype, "same-type", "a type with itself is itself")
        zero_d = [op for op in (a, b) if op.category == ZERO_D]
        if zero_d:
            kind = _kind(a.dtype)
            if len(zero_d) == 2 or kind is None or kind != _kind(b.dtype):
                return self.lookup(a.dtype, b.dtype)
            wins = b if zero_d[0] is a else a
            return Outcome(
                wins.dtype,
                "zero-dim",
                f"a 0-d tensor of the same kind ({kind}) does not change the dimensioned"
                f" tensor's {ref(wins.dtype)}",
            )
        kinds = {_kind(a.dtype), _kind(b.dtype)}
        if kinds == {"floating"} or "complex" in kinds:
            return self.lookup(a.dtype, b.dtype)
        return refuse(
            "dimensioned",
            f"Paddle promotes two tensors only float with float or with complex, not {ref(a.dtype)}"
            f" with {ref(b.dtype)}",
        )

    def _with_scalar(self, t: str, scalar: str) -> Outcome:
        if scalar == "bool":
            return Outcome(t, "scalar", "a Python bool keeps the tensor's type")
        if scalar == "int*":
            if t == "bool":
                return Outcome("int64", "scalar", "a Python int makes a bool tensor int64")
            return Outcome(t, "scalar", "a Python int keeps the tensor's type")
        if scalar == "float*":
            if dtype(t).is_float or dtype(t).is_complex:
                return Outcome(t, "scalar", "a Python float keeps a floating or complex type")
            return Outcome("float32", "scalar", "a Python float makes bool and integers float32")
        out = self.lookup(t, "complex64")
        if out.refused:
            return out
        return Outcome(out.result, "scalar", f"a Python complex is complex64; {out.why}")


POLICY = PaddlePolicy()
