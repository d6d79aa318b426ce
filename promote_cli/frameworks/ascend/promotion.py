"""Huawei Ascend CANN ``aclnn``: the mutual type-deduction table (互推导关系), a table policy.

Source: the CANN documentation page the seed reproduces. When an aclnn API such as aclnnAdd
gets inputs of two dtypes it deduces one and converts both; a ``×`` cell means the API rejects
the pair, which is a refusal here.

The table is symmetric, so only its lower half is stored; ``tests/properties/test_seed_policies.py``
checks the mirrored table against every cell of the seed.

Where it departs from its neighbours: the page calls the rules PyTorch-like, but uint16, uint32
and uint64 promote with nothing but themselves (PyTorch promotes them with floats), and
bf16 x c32 = c32 (PyTorch gives complex64). 0-d tensors are not special; there are no Python
scalars.
"""

from __future__ import annotations

from promote_cli.engine import IDEMPOTENT, SYMMETRIC
from promote_cli.frameworks.ascend import FRAMEWORK
from promote_cli.halftable import TablePolicy, mirror

# The seed's order and spelling; row i lists columns 0..i.
_LOWER_HALF = """
f32   f32
f16   f32  f16
f64   f64  f64  f64
bf16  f32  f32  f64  bf16
s8    f32  f16  f64  bf16 s8
u8    f32  f16  f64  bf16 s16  u8
s16   f32  f16  f64  bf16 s16  s16  s16
u16   ×    ×    ×    ×    ×    ×    ×    u16
s32   f32  f16  f64  bf16 s32  s32  s32  ×    s32
u32   ×    ×    ×    ×    ×    ×    ×    ×    ×    u32
s64   f32  f16  f64  bf16 s64  s64  s64  ×    s64  ×    s64
u64   ×    ×    ×    ×    ×    ×    ×    ×    ×    ×    ×    u64
bool  f32  f16  f64  bf16 s8   u8   s16  ×    s32  ×    s64  ×    bool
c32   c64  c32  c128 c32  c32  c32  c32  ×    c32  ×    c32  ×    c32  c32
c64   c64  c64  c128 c64  c64  c64  c64  ×    c64  ×    c64  ×    c64  c64  c64
c128  c128 c128 c128 c128 c128 c128 c128 ×    c128 ×    c128 ×    c128 c128 c128 c128
"""
TABLE = mirror(_LOWER_HALF, FRAMEWORK.declared_in.by_label())
TYPES = TABLE.order


class AscendPolicy(TablePolicy, framework=FRAMEWORK):
    table = TABLE
    universe = TYPES
    default_types = TYPES
    properties = frozenset({SYMMETRIC, IDEMPOTENT})
    cell_reason = "the aclnn deduction table's cell"
    crossed_reason = "aclnn cannot deduce a common type for {a} and {b} (× in the deduction table)"


POLICY = AscendPolicy()
