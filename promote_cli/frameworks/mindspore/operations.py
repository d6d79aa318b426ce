"""MindSpore's operations: one rule per function of the vocabulary (MindSpore 2.10, CPU).

Measured on MindSpore 2.10.0 in PyNative mode on the CPU (``launch_blocking``, each call
synchronised) over every operand of the mindspore policy: tensors ``ops.ones((2,), t)`` of its
15 dtypes, and the Python ``True``, ``1``, ``1.0``, ``1j`` on either side of a binary function and
as either value of ``where`` (0-d tensors are not special in MindSpore, nor a category of the
policy); 6,211 cells, checked by ``promote verify``.

The functions are ``mindspore.ops``', the namespace whose ``ops.add`` the mindspore policy is.
``mindspore.mint``, the torch-like namespace a user porting from torch would reach for, is
Ascend-first: on the CPU ``mint.equal``, ``mint.atan2``, ``mint.argmax``, ``mint.cumsum`` and
``mint.bitwise_not`` have no kernel registered for any type ("The kernel EqualExt
unregistered"), and ``mint`` has no left shift; ``mindspore.ops`` has the whole vocabulary.

Every function promotes with the policy (``ops.add``'s rule) and applies its kind, except where a
``pair`` says otherwise. What a user porting from torch or NumPy would not expect:

- ``sum`` and ``prod`` accumulate bool, int8-int64 and uint8 in int64 but keep uint16, uint32 and
  uint64; ``mean`` keeps every integer type (``mean(int32)`` is int32) and refuses bool;
  ``argmax`` is int64; ``cumsum`` keeps the type and refuses bool.
- ``sqrt`` and ``div`` make a bool or an integer float32. ``exp``, ``log``, ``sin`` do too by
  their dtype rule, but their CPU kernels are float and complex only (exp's type check refuses
  uint8-uint64 and int8-int32 outright); ``log`` and ``sin`` of uint16/32/64 keep the type.
  ``atan2``, ``floor`` and ``round`` keep an integer type (no CPU kernel); ``ceil`` and ``sign``
  refuse the integer types their type checks leave out. ``abs`` keeps a complex type
  (``abs(complex64)`` is complex64); ``real`` and ``imag`` give the component float, and ``imag``
  of a real type is that type.
- ``mul`` and ``div`` promote with a rule of their own: a bool tensor with uint16/32/64 is refused
  ("the promote output type is invalid", where ``add`` gives the unsigned type), and a Python int
  or float with one of those follows the scalar rule of the other integers where ``add`` refuses.
- ``equal`` and ``less`` refuse a Python scalar on the left (``ops.equal(1, t)``: "Failed calling
  Equal"; ``t == 1`` works); pairs MindSpore does not convert (uint8 with uint16) reach the
  comparison as they are: bool by its rule, but the CPU has no kernel for them.
- ``bitwise_left_shift`` and ``matmul`` do not promote two tensors; a Python bool or int shifts as
  the tensor's type (uint16 included), a Python float is refused; ``matmul`` takes no Python
  scalar. ``logical_and`` takes a Python bool but no Python int or float. ``subtract`` refuses
  bool, as torch's does. ``remainder`` is ``x - floor_divide(x, y) * y``: it inherits its ``Mul``'s
  and ``Sub``'s refusals and missing kernels, depending on which operand is which.

Missing CPU kernels are gaps, not rules. MindSpore's message names the types its dtype rule gave
before the kernel search failed ("Select CPU operator[Exp] fail! Unsupported data type! ... but
get input[[const vector]{Int64}], output[[const vector]{Float32}]"; ``Round`` writes it to the
C++ log): ``promote`` answers that type and marks the cell ``no-kernel``, and ``promote verify``
counts it as a gap only if the named type is the answer. bfloat16 has almost no CPU kernels;
uint16/32/64 and complex have kernels only for two tensors of that very type in ``mul``, ``div``
and the comparisons (``Rule.cells``: no cast is inserted to reach them). A refusal by a function's
type check ("For primitive[Ceil], the input argument[input_x] must be a type of {...}") is a rule,
with one exception: ``ops.add`` of bools, which the policy already answers bool as MindSpore's
``+`` computes it, is a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cached_property
from typing import Any

from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.mindspore.promotion import POLICY
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.ops import (
    ACCUMULATE,
    ALWAYS_BOOL,
    COMPLEX_TO_FLOAT,
    INDEX,
    INT_TO_FLOAT,
    NO_KERNEL,
    REFUSES_OPERAND,
    Maps,
    Operations,
    Rule,
    cell_key,
)

MAPS = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},
    accumulate={
        "bool": "int64",
        "int": "int64",
        "uint8": "int64",
        "uint16": "uint16",
        "uint32": "uint32",
        "uint64": "uint64",
    },
    real={"complex64": "float32", "complex128": "float64"},
    index="int64",
    default_float="float32",
)
_LONE_UNSIGNED = ("uint16", "uint32", "uint64")
_INTEGRAL = ("bool", "int", "uint")
_NO_OPTS: Mapping[str, Any] = {}


def _mul_pair(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Mul and Div promote as add does, but for two things: a bool tensor does not convert to
    uint16, uint32 or uint64 ("the promote output type is invalid"), and a Python int or float
    with one of those is the scalar rule of every other integer (the type kept, or float32)."""
    arrays = {x.dtype for x in (a, b) if x.category != PYTHON}
    scalars = {x.dtype for x in (a, b) if x.category == PYTHON}
    lone = arrays & set(_LONE_UNSIGNED)
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


def _as_given(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """Comparisons promote as add does; where MindSpore does not convert (uint8 and uint16, a
    uint16 tensor and a Python int), they take the operands as they are."""
    found = POLICY.promote(a, b, opts)
    if found.refused and "complex*" not in (a.dtype, b.dtype):
        t = a.dtype if a.category != PYTHON else b.dtype
        return Outcome(
            t, "unconverted", f"MindSpore does not convert {ref(a.dtype)} and {ref(b.dtype)}"
        )
    return found


def _shift_pair(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """A Python scalar shifts as the tensor's own type; two tensors must agree (same_dtype)."""
    if PYTHON in (a.category, b.category) and a.category != b.category:
        t = a.dtype if a.category != PYTHON else b.dtype
        return Outcome(t, "scalar", "a Python scalar takes the tensor's type")
    return POLICY.promote(a, b, opts)


Test = Callable[[Operand, Operand], bool]


class _Cells(Mapping[str, str]):
    """A rule's cells (``Rule.cells``): listed, or ``(value, test)`` for every pair of the
    policy's operands that passes ``test``; worked out on first use, so that ``promote op``
    does not pay for them at import."""

    def __init__(self, *parts: Mapping[str, str] | tuple[str, Test]):
        self._parts = parts

    @cached_property
    def _table(self) -> dict[str, str]:
        pairs = [(a, b) for a in POLICY.operands() for b in POLICY.operands()]
        out: dict[str, str] = {}
        for part in self._parts:  # a later part wins
            if isinstance(part, tuple):
                value, test = part
                out.update({cell_key(pair): value for pair in pairs if test(*pair)})
            else:
                out.update(part)
        return out

    def __getitem__(self, key: str) -> str:
        return self._table[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


def _scalar_first(a: Operand, b: Operand) -> bool:
    return a.category == PYTHON != b.category


def _with(*types: str) -> Test:
    return lambda a, b: any(x.category != PYTHON and x.dtype in types for x in (a, b))


def _unless_alone(pair: Callable, *types: str) -> Test:
    """Cells promoting to one of ``types`` but not two tensors of it (no cast to reach the
    kernel: it takes only its own type)."""

    def when(a: Operand, b: Operand) -> bool:
        t = pair(a, b, _NO_OPTS).result
        own = a.category == b.category == DIMENSIONED and a.dtype == b.dtype == t
        return t in types and not own

    return when


def _bf16_with_float(a: Operand, b: Operand) -> bool:
    return {a.dtype, b.dtype} == {"bfloat16", "float*"}


def _scalar_with(*types: str) -> Test:
    """A tensor of one of ``types`` with a Python bool, int or float."""
    scalars = ("bool", "int*", "float*")

    def when(a: Operand, b: Operand) -> bool:
        x, y = (a, b) if b.category == PYTHON else (b, a)
        return (
            x.category != PYTHON
            and x.dtype in types
            and y.category == PYTHON
            and y.dtype in scalars
        )

    return when


def _complex_product(a: Operand, b: Operand) -> bool:
    """remainder(x, y) computes x - floor_divide(x, y) * y: the product is a complex Mul, which
    has a kernel only for two tensors of its type, when ``y`` is a tensor of another type."""
    t = POLICY.promote(a, b, _NO_OPTS).result
    return t in ("complex64", "complex128") and b.category != PYTHON and b.dtype != t


def _unconverted(a: Operand, b: Operand) -> bool:
    return _as_given(a, b, _NO_OPTS).rule == "unconverted"


RULES = {
    "add": Rule("ops.add", no_kernel=("bool",)),
    "subtract": Rule("ops.sub", refuses=("bool",), no_kernel=("uint32", "uint64", "bfloat16")),
    "multiply": Rule(
        "ops.mul",
        pair=_mul_pair,
        pair_name="Mul's promotion",
        cells=_Cells(
            (NO_KERNEL, _unless_alone(_mul_pair, "complex64", "complex128")),
            (NO_KERNEL, _scalar_with(*_LONE_UNSIGNED)),
            (NO_KERNEL, _bf16_with_float),
        ),
    ),
    "divide": Rule(
        "ops.div",
        INT_TO_FLOAT,
        pair=_mul_pair,
        pair_name="Div's promotion",
        cells=_Cells(
            (NO_KERNEL, _unless_alone(_mul_pair, "complex64", "complex128")),
            (NO_KERNEL, _scalar_with(*_LONE_UNSIGNED)),
            (NO_KERNEL, _bf16_with_float),
        ),
    ),
    "floor_divide": Rule("ops.floor_divide"),
    "remainder": Rule(
        "ops.remainder",
        cells=_Cells(
            # its Mul does not convert bool to uint16/32/64; its Sub refuses bool
            dict.fromkeys(
                ("D(uint16) D(bool)", "D(uint32) D(bool)", "D(uint64) D(bool)", "P(bool) D(bool)"),
                REFUSES_OPERAND,
            ),
            # its Sub's missing kernels, reached with a Python scalar on the left
            dict.fromkeys(
                (
                    "P(bool) D(uint32)",
                    "P(bool) D(uint64)",
                    "P(bool) D(bfloat16)",
                    "P(int*) D(bfloat16)",
                    "P(float*) D(bfloat16)",
                ),
                NO_KERNEL,
            ),
            (NO_KERNEL, _complex_product),
        ),
    ),
    "pow": Rule("ops.pow", no_kernel=("bool", "bfloat16")),
    "maximum": Rule("ops.maximum", no_kernel=("uint16", "bfloat16", "complex")),
    "minimum": Rule("ops.minimum", refuses=("complex",), no_kernel=("bool", "bfloat16")),
    "equal": Rule(
        "ops.equal",
        ALWAYS_BOOL,
        pair=_as_given,
        pair_name="add's promotion where MindSpore converts",
        cells=_Cells(
            (NO_KERNEL, _unconverted),
            (NO_KERNEL, _unless_alone(_as_given, *_LONE_UNSIGNED)),
            (NO_KERNEL, _with("bfloat16")),
            (REFUSES_OPERAND, _scalar_first),
        ),
    ),
    "less": Rule(
        "ops.less",
        ALWAYS_BOOL,
        pair=_as_given,
        pair_name="add's promotion where MindSpore converts",
        no_kernel=("complex",),
        cells=_Cells(
            (NO_KERNEL, _unconverted),
            (NO_KERNEL, _unless_alone(_as_given, *_LONE_UNSIGNED)),
            (NO_KERNEL, _with("bfloat16")),
            (REFUSES_OPERAND, _scalar_first),
        ),
    ),
    "logical_and": Rule(
        "ops.logical_and",
        ALWAYS_BOOL,
        refuses_operand=("int*", "float*", "complex*"),
        no_kernel=("bfloat16",),
    ),
    "bitwise_and": Rule("ops.bitwise_and", refuses=("float", "complex")),
    "bitwise_left_shift": Rule(
        "ops.bitwise_left_shift",
        pair=_shift_pair,
        pair_name="the tensor's type",
        same_dtype=True,
        refuses=("bool", "float", "complex"),
        refuses_operand=("float*", "complex*"),
    ),
    "atan2": Rule("ops.atan2", no_kernel=(*_INTEGRAL, "bfloat16", "complex")),
    "matmul": Rule(
        "ops.matmul",
        same_dtype=True,
        no_kernel=("bool", *_LONE_UNSIGNED, "bfloat16"),
        categories=frozenset({DIMENSIONED}),
    ),
    "negative": Rule("ops.neg", no_kernel=("bool",)),
    "abs": Rule("ops.abs", no_kernel=(*_LONE_UNSIGNED, "bfloat16")),
    "sqrt": Rule("ops.sqrt", INT_TO_FLOAT, no_kernel=("bfloat16",)),
    "exp": Rule(
        "ops.exp",
        INT_TO_FLOAT,
        refuses=("uint", "int8", "int16", "int32"),
        no_kernel=("bool", "int64", "bfloat16"),
    ),
    "log": Rule(
        "ops.log",
        INT_TO_FLOAT,
        overrides={t: t for t in _LONE_UNSIGNED},
        no_kernel=(*_INTEGRAL, "bfloat16"),
    ),
    "sin": Rule(
        "ops.sin",
        INT_TO_FLOAT,
        overrides={t: t for t in _LONE_UNSIGNED},
        no_kernel=(*_INTEGRAL, "bfloat16"),
    ),
    "floor": Rule("ops.floor", no_kernel=(*_INTEGRAL, "bfloat16", "complex")),
    "ceil": Rule("ops.ceil", refuses=(*_INTEGRAL, "complex"), no_kernel=("bfloat16",)),
    "round": Rule(
        "ops.round",
        no_kernel=("bool", "uint", "int8", "int16", "bfloat16", "complex"),
    ),
    "sign": Rule("ops.sign", refuses=("uint", "int8", "int16"), no_kernel=("bool", "bfloat16")),
    "square": Rule("ops.square", no_kernel=("bool", "bfloat16")),
    "logical_not": Rule("ops.logical_not", ALWAYS_BOOL, no_kernel=("bfloat16",)),
    "bitwise_invert": Rule("ops.invert", refuses=("bool", "float", "complex")),
    "real": Rule("ops.real", COMPLEX_TO_FLOAT, no_kernel=("uint8", "bfloat16")),
    "imag": Rule("ops.imag", COMPLEX_TO_FLOAT, refuses=("bfloat16",)),
    "isnan": Rule("ops.isnan", ALWAYS_BOOL, refuses=("bfloat16", "complex")),
    "sum": Rule("ops.sum", ACCUMULATE, no_kernel=("bfloat16",)),
    "prod": Rule("ops.prod", ACCUMULATE, no_kernel=("bfloat16",)),
    "mean": Rule("ops.mean", refuses=("bool",), no_kernel=("bfloat16",)),
    "max": Rule("ops.amax", no_kernel=("bool", "bfloat16", "complex")),
    "argmax": Rule("ops.argmax", INDEX, no_kernel=("bfloat16", "complex")),
    "cumulative_sum": Rule("ops.cumsum", refuses=("bool",), no_kernel=("bfloat16",), note="axis=0"),
    "where": Rule("ops.where", no_kernel=("bfloat16",)),
}

OPERATIONS = Operations(
    POLICY,
    lambda opts: MAPS,
    RULES,
    "MindSpore 2.10's mindspore.ops on the CPU (PyNative), measured",
)
