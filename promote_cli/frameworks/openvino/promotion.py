"""OpenVINO: the ``ConvertPromoteTypes-14`` operation, a chain of rules.

Source: the operation's specification (the seed) and its implementation,
``src/core/src/op/convert_promote_types.cpp`` (checked against OpenVINO 2026.4). The rules are
tried in order; the first that applies decides, and ``--explain`` names it. With
``promote_unsafe=false`` (the default) the operation raises on the promotions the spec calls
unsafe; here that is a refusal that also says what ``promote_unsafe=true`` would give.

Where the implementation departs from the spec's prose, this policy follows the implementation:

- ``pytorch_scalar_promotion`` in safe mode accepts a signed tensor type when twice its width
  covers the scalar's unsigned width (``S(u32) x D(i16) -> i16``, ``S(u8) x D(i8) -> i8``),
  although the spec says promotions to a type "with lower range of values" raise.
- The spec's example ``S(i64) x D(u8) -> u8`` holds only with ``promote_unsafe=true``; with the
  default attributes the operation raises (signedness differs).
- Mixing a float with an integer in safe mode only checks that the float has at least twice the
  integer's bits (``f8e4m3 x u4 -> f8e4m3`` passes; ``f32 x i32`` raises).

``dynamic`` (an element type decided at run time) is accepted as an input and gives
``dynamic`` with any supported type, whatever the attributes; ``u64_integer_promotion_target``
takes every element type OpenVINO has (the 25 static ones and ``dynamic``) and the operation
returns it unchanged, even types it does not accept as inputs (``nf4``, ``string``).

The n-ary questions: OpenVINO has no n-ary promotion; a graph computing ``(a + b) + c``
chains ConvertPromoteTypes nodes with an elementwise op between them, which is the left fold
both questions answer (the sum is 0-d only when both its inputs were; that matters only under
``pytorch_scalar_promotion``).

Where it departs from its neighbours: it is not a lattice (``u64 x i8`` goes to a configurable
target, f32 by default), refuses by default where PyTorch and JAX widen silently, and has no
complex types or Python scalars.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from promote_cli.dtypes import get as dtype
from promote_cli.engine import IDEMPOTENT, SYMMETRIC, Outcome, Policy, ref, refuse
from promote_cli.frameworks.openvino import FRAMEWORK
from promote_cli.operands import ZERO_D, Operand
from promote_cli.record import Record

SUPPORTED = (
    "bool",
    "uint1",
    "uint4",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int4",
    "int8",
    "int16",
    "int32",
    "int64",
    "float8_e4m3fn",
    "float8_e5m2",
    "bfloat16",
    "float16",
    "float32",
    "float64",
)
_OTHER_OV_TYPES = ("uint2", "uint3", "uint6", "nf4", "float4_e2m1fn", "float8_e8m0fnu", "string")
DYNAMIC = "dynamic"
_SIGNED = {"int4": 4, "int8": 8, "int16": 16, "int32": 32, "int64": 64}
_F8 = frozenset({"float8_e4m3fn", "float8_e5m2"})
_F16 = frozenset({"bfloat16", "float16"})


class Attributes(Record):
    promote_unsafe: bool = False
    pytorch_scalar_promotion: bool = False
    u64_integer_promotion_target: str = "float32"


class Input(Record):
    """One input as the operation sees it: its element type and whether it is 0-d."""

    type: str
    scalar: bool

    @property
    def bits(self) -> int:
        return dtype(self.type).bits or 0

    @property
    def real(self) -> bool:
        return dtype(self.type).is_float

    @property
    def signed(self) -> bool:
        return dtype(self.type).signed


def _checked(rule: str, attrs: Attributes, result: str, safe: bool, why: str) -> Outcome:
    """``result`` when it is safe or unsafe promotion is allowed; otherwise the op raises."""
    if safe or attrs.promote_unsafe:
        return Outcome(result, rule, why)
    return refuse(
        rule,
        f"{why}; unsafe with promote_unsafe=false (promote_unsafe=true would give {ref(result)})",
        unsafe_result=result,
    )


# Each rule returns None when it does not apply. The order is the implementation's.
Rule = Callable[[Attributes, Input, Input], "Outcome | None"]


def same_type(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    if a.type == b.type:
        return Outcome(a.type, "same-type", "both inputs have the same element type")
    return None


def dynamic(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    if DYNAMIC in (a.type, b.type):
        return Outcome(
            DYNAMIC, "dynamic", "an input of dynamic element type makes the result dynamic"
        )
    return None


def boolean(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    for x, y in ((a, b), (b, a)):
        if x.type == "bool":
            return Outcome(y.type, "boolean", "boolean takes the other input's type")
    return None


def float_with_integer(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    if a.real == b.real:
        return None
    real, integer = (a, b) if a.real else (b, a)
    why = (
        f"floating-point outranks integer: {ref(real.type)};"
        f" safe only when {real.bits} >= 2 x {integer.bits} bits"
    )
    return _checked("float-with-integer", attrs, real.type, real.bits >= 2 * integer.bits, why)


def pytorch_scalar(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    if not attrs.pytorch_scalar_promotion or a.scalar == b.scalar:
        return None
    target, scalar = (b, a) if a.scalar else (a, b)
    safe = (target.signed == scalar.signed and target.bits >= scalar.bits) or (
        target.signed and not scalar.signed and target.bits * 2 >= scalar.bits
    )
    why = (
        f"pytorch_scalar_promotion: the dimensioned input's {ref(target.type)} wins over"
        f" the 0-d {ref(scalar.type)}"
    )
    return _checked("pytorch-scalar", attrs, target.type, safe, why)


def signed_with_unsigned(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    if a.signed == b.signed:
        return None
    unsigned, signed = (b, a) if a.signed else (a, b)
    if unsigned.bits <= 32:
        bits = max(2 * unsigned.bits, signed.bits)
        result = next(t for t, w in _SIGNED.items() if w == bits)
        why = (
            f"signed and unsigned integers meet at {ref(result)}, the narrowest signed"
            f" type holding both"
        )
        return _checked(
            "signed-with-unsigned", attrs, result, 2 * unsigned.bits <= signed.bits, why
        )
    target = attrs.u64_integer_promotion_target
    why = (
        f"u64 with a signed integer would need i128; u64_integer_promotion_target"
        f" ({ref(target)}) is used"
    )
    return _checked("u64-with-signed", attrs, target, False, why)


def wider(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    if a.bits == b.bits:
        return None
    big = a if a.bits > b.bits else b
    return Outcome(big.type, "wider", f"same kind and sign: the wider {ref(big.type)}")


def same_width_floats(attrs: Attributes, a: Input, b: Input) -> Outcome | None:
    pair = {a.type, b.type}
    for family, result in ((_F8, "float16"), (_F16, "float32")):
        if pair <= family:
            why = (
                f"{ref(a.type)} and {ref(b.type)} differ in exponent and mantissa;"
                f" widening to {ref(result)} is needed"
            )
            return _checked("same-width-floats", attrs, result, False, why)
    return None


RULES: tuple[Rule, ...] = (
    same_type,
    dynamic,
    boolean,
    float_with_integer,
    pytorch_scalar,
    signed_with_unsigned,
    wider,
    same_width_floats,
)


def evaluate(attrs: Attributes, a: Input, b: Input) -> Outcome:
    for rule in RULES:
        outcome = rule(attrs, a, b)
        if outcome is not None:
            return outcome
    return refuse("unsupported-pair", f"no rule promotes {ref(a.type)} with {ref(b.type)}")


class OpenVinoPolicy(Policy, framework=FRAMEWORK):
    universe = (*SUPPORTED, DYNAMIC)
    default_types = SUPPORTED
    known_unsupported: ClassVar[Mapping[str, str]] = {
        t: f"OpenVINO's ConvertPromoteTypes does not support element type {ref(t)}"
        for t in _OTHER_OV_TYPES
    }
    categories = frozenset({"D", ZERO_D})
    properties = frozenset({SYMMETRIC, IDEMPOTENT})

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        attrs = Attributes(**opts)
        return evaluate(
            attrs, Input(a.dtype, a.category == ZERO_D), Input(b.dtype, b.category == ZERO_D)
        )


POLICY = OpenVinoPolicy()
