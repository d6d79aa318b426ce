"""PyTorch: ``torch.promote_types`` and ``torch.result_type``, a table plus category rules.

Source: ``c10/core/ScalarType.cpp`` (``promoteTypes``: a 13 x 13 lookup table over the types
PyTorch has had longest, then rules for the types added since) and
``aten/src/ATen/native/TypeProperties.cpp`` (``result_type``: operand categories), checked cell
for cell, every category pair, against torch 2.13.0. The table is stored in c10's own codes
(``u1`` uint8, ``i8`` int64, ``c2`` complex32, ``b1`` bool, ``bf`` bfloat16); it is symmetric
and only its lower half is kept. Table and categories are ``promote_cli/shared/c10.py``, which
Paddle (its table) and Keras (its torch backend) share; the policy below adds the releases and
the Python ints PyTorch refuses.

``promote_types`` around the table, in c10's order: a type with itself is itself; any float8
type with another type raises; uint16/uint32/uint64 and the 1- to 7-bit unsigned shell types
promote only to a floating type they meet (``uint32 x float16 = float16``) and raise otherwise,
bool included; any other type missing from the table (int1..int7, float4_e2m1fn_x2 with a
signed or 8-bit type) trips an internal assertion, a refusal here.

``result_type`` sorts operands into three categories, strongest first: dimensioned tensors
``D(t)``, zero-dim tensors ``S(t)``, Python scalars ``P(bool)``, ``int``, ``float``,
``complex``. Types promote within a category; a weaker category only matters when it is of a
higher kind (bool < integer < floating < complex): ``D(int8) x S(int64) = int8``,
``D(int8) x S(float64) = float64``, ``D(float16) x P(complex) = complex32``. A Python int is
int64, a Python float is the default dtype, float32 (``torch.get_default_dtype()``; this policy
assumes the default), a Python complex its complex counterpart, complex64. An n-ary result is
computed the same way over all operands at once, which is not a fold of pairs:
``D(int8), S(float16), S(float64)`` gives float64.

Where it departs from its neighbours: bf16 x f16 = f32 and integers never widen a float (as in
JAX, unlike NumPy); uint8 x int8 = int16 but uint16/32/64 promote with nothing but floats (the
Ascend table refuses even that, and gives bf16 x c32 = c32 where PyTorch gives complex64);
uint8 x bool = uint8; float8 types promote with nothing; it has complex32; 0-d tensors are a
category of their own, as OpenVINO's ``pytorch_scalar_promotion`` imitates.

The two n-ary questions: the n-ary elementwise ops (``torch.addcmul(a, b, c)``, ``addcdiv``)
compute one dtype over all operands at once (``join``, TensorIterator's
``compute_common_dtype``); a chain ``(a + b) + c`` folds the binary rule, the intermediate
being a dimensioned tensor when either input was, else a 0-d one, and two Python scalars
meeting in Python first. ``int32, S(complex128), bfloat16`` gives complex64 at once but
complex128 as a chain.

Releases (``-O release=``; 2.13, torch 2.13.0, the default): torch 2.14 (2.14.1, 2.15.0
alike) adds bcomplex32, a complex of two bfloat16 halves, to the universe and to c10's table
(its row below, measured), and toComplexType maps bfloat16 to it, so ``D(bfloat16) x
P(complex)`` is bcomplex32 where 2.13 gives complex64; two dimensioned tensors are unchanged
(``bfloat16 x complex64 = complex64``).

Python scalar values: arithmetic never checks a value against the tensor's dtype (``uint8 +
300`` wraps to uint8); a Python int outside [-2**63, 2**64) raises ``OverflowError`` when it is
wrapped, and one in [2**63, 2**64) is wrapped as a uint64 number (so ``bool + 2**63`` is
refused, as uint64 and bool do not promote).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.torch import FRAMEWORK, RELEASES
from promote_cli.operands import Operand, int_value
from promote_cli.shared.c10 import ADDED, C10Table, added_types, result_type
from promote_cli.shared.c10 import DEFAULT_TYPES as DEFAULT_TYPES
from promote_cli.shared.c10 import TABLE as TABLE
from promote_cli.shared.c10 import TYPES as TYPES
from promote_cli.shared.c10 import since as since


class TorchPolicy(C10Table, framework=FRAMEWORK):
    def universe_for(self, opts: Mapping[str, Any] | None) -> tuple[str, ...]:
        """torch 2.13's types, and those the release asked added (2.14: bcomplex32)."""
        return (*self.universe, *added_types(_release(opts)))

    def missing_reason(self, dtype: str) -> str:
        for first, types in ADDED.items():
            if dtype in types:
                return f"PyTorch has {ref(dtype)} only from {first} on (-O release={first})"
        return super().missing_reason(dtype)

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return result_type([a, b], _release(opts))

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        return result_type(operands, _release(opts))

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """A Python int must fit int64 or uint64 to be wrapped as a number."""
        value = int_value(scalar)
        if value is None or against is None:
            return None
        if value >= 2**64:
            return refuse(
                "value", f"PyTorch raises OverflowError: int too big to convert ({value})"
            )
        if value < -(2**63):
            return refuse(
                "value",
                f"PyTorch raises OverflowError: can't convert negative int to unsigned ({value}"
                f" is below int64 and so is read as a {ref('uint64')})",
            )
        return None


def _release(opts: Mapping[str, Any] | None) -> str:
    return str((opts or {}).get("release") or RELEASES[0])


POLICY = TorchPolicy()
