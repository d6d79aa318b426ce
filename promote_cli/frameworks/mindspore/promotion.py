"""MindSpore: ``mindspore.ops.add`` in PyNative mode on CPU, a table plus Python-scalar rules.

Source: MindSpore 2.10.0, measured: every pair of the 15 dtypes a CPU tensor can have, as
dimensioned and 0-d tensors and with Python scalars. Two tensors follow the Ascend aclnn
deduction table (the ``ascend`` policy) with one difference, stored below in the seed's order
and spelling; a refusal is MindSpore's ``TypeError: Type implicit conversion between UInt8 and
UInt16 is not supported``.

Operands: 0-d tensors are not special to ``ops.add`` (``D(uint8) + S(int64)`` is int64, as two
dimensioned tensors; ``Mul`` and ``Div`` differ, see ``pairs.py``). A Python ``bool`` keeps the
tensor's type; a Python int keeps it too, except that a bool tensor becomes int64; a Python
float keeps a floating or complex type and turns bool and integer tensors into float32. uint16,
uint32 and uint64 accept only a Python ``bool`` (a Python int is an int64 tensor to them, a
float a float32 one: refused). ``ops.add`` takes no Python complex. Two Python scalars make a
tensor too: int64 from bools and ints, float32 with a float, bool from two bools. An n-ary
promotion is a left fold of ``ops.add``. A Python int is converted to a C++ ``long`` first: one
outside int64 is refused whatever it meets; inside it, no value is looked at (``uint8 + 300``
wraps).

Missing CPU kernels are not promotion rules: ``ops.add`` has no bool kernel on CPU ("For
primitive[Add], the input argument[x] must be a type of {...}") where the ``+`` operator answers
bool, so bool x bool is bool here; float8_e4m3fn and float8_e5m2 exist as dtypes but no CPU
tensor of them can be made (``Zeros``/``Cast`` unsupported), so they are refused as types.
``mindspore.numpy.result_type`` has rules of its own (NumPy-like: uint8 x uint16 = uint16, a
Python int is a strong int32) that no operation applies; this policy does not follow it.

A 0-d float16 tensor on the left of a dimensioned bfloat16 one (or 0-d bfloat16 and float16)
ends the process: MindSpore 2.10.0 dies of SIGSEGV in ``ops.add`` and every other binary
function and operator measured (``ops.mul``, ``ops.div``, ``*`` and ``/`` of a dimensioned
float16 tensor and a 0-d bfloat16 one too).
Refused (``crash``): there is no type to give.

Where it departs from Ascend (its neighbour): bool x uint16/uint32/uint64 is the unsigned type
(Ascend: ×), there is no complex32, and Python scalars are operands (Ascend has none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from promote_cli.dtypes import get as dtype
from promote_cli.engine import IDEMPOTENT, Outcome, ref, refuse
from promote_cli.frameworks.mindspore import FRAMEWORK
from promote_cli.halftable import TablePolicy, mirror
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand, int_value
from promote_cli.shared import aclnn

# The Ascend table without complex32, bool x u16/u32/u64 filled in; row i lists columns 0..i.
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
bool  f32  f16  f64  bf16 s8   u8   s16  u16  s32  u32  s64  u64  bool
c64   c64  c64  c128 c64  c64  c64  c64  ×    c64  ×    c64  ×    c64  c64
c128  c128 c128 c128 c128 c128 c128 c128 ×    c128 ×    c128 ×    c128 c128 c128
"""
TABLE = mirror(_LOWER_HALF, aclnn.COLUMN.by_label())
TYPES = (
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
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
)
# The unsigned types MindSpore promotes with nothing but themselves and bool.
_LONE_UNSIGNED = frozenset({"uint16", "uint32", "uint64"})
_NO_CPU_TENSOR = "MindSpore has {t} but cannot make a CPU tensor of it (Zeros/Cast unsupported)"
CRASH = "crash"  # Outcome.rule: the call ends the process
_CRASH = (
    "MindSpore 2.10.0 ends the process (SIGSEGV) when a 0-d {a} tensor meets a dimensioned"
    " {b} tensor (measured)"
)
_HALVES = frozenset({"float16", "bfloat16"})


def crashes(a: Operand, b: Operand) -> bool:
    """Whether a 0-d float16 (bfloat16) tensor on the left meets a dimensioned bfloat16
    (float16) one: MindSpore 2.10.0 ends the process (SIGSEGV), measured in ``ops.add``,
    ``sub``, ``mul``, ``div``, ``remainder``, ``floor_divide``, ``pow``, ``equal``,
    ``maximum`` and their operators."""
    return a.category == ZERO_D and b.category == DIMENSIONED and {a.dtype, b.dtype} == _HALVES


class MindSporePolicy(TablePolicy, framework=FRAMEWORK):
    table = TABLE
    universe = TYPES
    default_types = TYPES
    known_unsupported: ClassVar[Mapping[str, str]] = {
        "complex32": "MindSpore has no complex32",
        "float8_e4m3fn": _NO_CPU_TENSOR.format(t="float8_e4m3fn"),
        "float8_e5m2": _NO_CPU_TENSOR.format(t="float8_e5m2"),
    }
    categories = frozenset({"D", ZERO_D, PYTHON})
    # Not symmetric: ``S(float16) + D(bfloat16)`` crashes, ``D(bfloat16) + S(float16)`` runs.
    properties = frozenset({IDEMPOTENT})
    cell_reason = "the aclnn deduction table's cell, as MindSpore's add applies it"
    crossed_reason = (
        "MindSpore does not convert between {a} and {b} implicitly (× in the aclnn table)"
    )

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        if crashes(a, b):
            return refuse(CRASH, _CRASH.format(a=ref(a.dtype), b=ref(b.dtype)))
        if a.category == b.category == PYTHON:
            return _two_scalars(a.dtype, b.dtype)
        if b.category == PYTHON:
            return _with_scalar(a.dtype, b.dtype)
        if a.category == PYTHON:
            return _with_scalar(b.dtype, a.dtype)
        return self.lookup(a.dtype, b.dtype)

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """MindSpore converts a Python int to a C++ ``long`` first, whatever it meets: one
        outside int64 raises. Inside int64 the value is not looked at (``uint8 + 300`` wraps)."""
        value = int_value(scalar)
        if value is None or -(2**63) <= value < 2**63:
            return None
        return refuse(
            "value",
            f"MindSpore raises RuntimeError: Unable to cast Python instance of type <class"
            f" 'int'> to C++ type 'long' (the Python int {value} is outside {ref('int64')})",
        )


def _with_scalar(t: str, scalar: str) -> Outcome:
    """A tensor of type ``t`` with a Python scalar: ``bool``, ``int*``, ``float*``, ``complex*``."""
    if scalar == "complex*":
        return refuse("scalar", "MindSpore's add takes no Python complex")
    if scalar == "bool":
        return Outcome(t, "scalar", "a Python bool keeps the tensor's type")
    if t in _LONE_UNSIGNED:
        wrapped = "int64" if scalar == "int*" else "float32"
        return refuse(
            "scalar",
            f"a Python {'int' if scalar == 'int*' else 'float'} is a {ref(wrapped)} tensor to"
            f" {ref(t)}, and MindSpore does not convert between them",
        )
    info = dtype(t)
    if scalar == "int*":
        if t == "bool":
            return Outcome("int64", "scalar", "a Python int makes a bool tensor int64")
        return Outcome(t, "scalar", "a Python int keeps the tensor's type")
    if info.is_float or info.is_complex:
        return Outcome(t, "scalar", "a Python float keeps a floating or complex tensor's type")
    return Outcome("float32", "scalar", "a Python float makes a bool or integer tensor float32")


def _two_scalars(x: str, y: str) -> Outcome:
    """``ops.add`` on two Python scalars: a tensor of MindSpore's default types."""
    if "complex*" in (x, y):
        return refuse("scalar", "MindSpore's add takes no Python complex")
    if "float*" in (x, y):
        return Outcome("float32", "scalar", "two Python scalars with a float make float32")
    if x == y == "bool":
        return Outcome("bool", "scalar", "two Python bools make a bool tensor")
    return Outcome("int64", "scalar", "Python ints (and bools) make an int64 tensor")


POLICY = MindSporePolicy()
