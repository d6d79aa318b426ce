"""MindSpore's operations: one rule per function of the vocabulary (MindSpore 2.10, CPU).

Measured on MindSpore 2.10.0 in PyNative mode on the CPU (``launch_blocking``, each call
synchronised) over every operand of the mindspore policy: tensors ``ops.ones((2,), t)`` of its
15 dtypes, and the Python ``True``, ``1``, ``1.0``, ``1j`` on either side of a binary function and
as either value of ``where``; and 0-d tensors ``ops.ones((), t)`` since ``Mul`` and ``Div``
take them as scalars (declined: ``pairs.mul_promotion``, and ``remainder``, which multiplies);
125,382 cells in all (pairs, triples, values, operations, programs), checked by ``promote
verify``.

The functions are ``mindspore.ops``', the namespace whose ``ops.add`` the mindspore policy is.
``mindspore.mint``, the torch-like namespace a user porting from torch would reach for, is
Ascend-first: on the CPU ``mint.equal``, ``mint.atan2``, ``mint.argmax``, ``mint.cumsum`` and
``mint.bitwise_not`` have no kernel registered for any type ("The kernel EqualExt
unregistered"), and ``mint`` has no left shift; ``mindspore.ops`` has the whole vocabulary.

Every function promotes with the policy (``ops.add``'s rule) and applies its kind, except where a
rule names a pair of ``pairs.py`` (``Mul``'s, the comparisons', the shift's). What a user porting
from torch or NumPy would not expect:

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
and the comparisons (``Rule.no_kernel_mixed``: no cast is inserted to reach them; the cells where
a Python scalar meets one are listed, ``Rule.cells``). A refusal by a function's
type check ("For primitive[Ceil], the input argument[input_x] must be a type of {...}") is a rule,
with one exception: ``ops.add`` of bools, which the policy already answers bool as MindSpore's
``+`` computes it, is a gap.

Operators (``OPERATORS``): ``mindspore.Tensor``'s methods call primitives of their own, and a
Python scalar on the left calls the tensor's reflected method (``1 < t`` is ``t > 1``) or none
(``1 & t``, and no ``<<``/``>>`` at all), so ``_OPERATORS`` declares most of them, each from its
measurements. ``a += b`` rebinds: ``__iadd__`` & co return a new tensor.
"""

from __future__ import annotations

import itertools

from promote_cli.frameworks.mindspore.promotion import POLICY, TYPES
from promote_cli.operands import DIMENSIONED
from promote_cli.rules import (
    ANY_VALUE,
    INT64_VALUE,
    NO_KERNEL,
    REBINDS,
    REFUSES_OPERAND,
    RUNS,
    Cell,
    D,
    Maps,
    Operations,
    Operators,
    P,
    Rule,
    S,
    Updates,
    with_operators,
)
from promote_cli.vocabulary import ALWAYS_BOOL, SAME

# Where a function the rules do not list is found: ``ops.`` + its array API name.
NAMESPACE = "ops."


def _with_0d(cells: dict[Cell, str]) -> dict[Cell, str]:
    """``cells`` and the same cells with any of their tensors 0-d (measured alike)."""
    out = dict(cells)
    for key, verdict in cells.items():
        for forms in itertools.product(
            *((x, S(x.dtype)) if x.category == "D" else (x,) for x in key)
        ):
            out.setdefault(tuple(forms), verdict)
    return out


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
    index_dtype="int64",
    default_float="float32",
)
LONE_UNSIGNED = ("uint16", "uint32", "uint64")
_INTEGRAL = ("bool", "int", "uint")
_COMPLEX = ("complex64", "complex128")
_SCALARS = ("bool", "int*", "float*")  # the Python scalars MindSpore's Mul takes
# Mul and Div: a uint16/32/64 tensor with a Python bool, int or float has no kernel (the
# kernel of that type takes two tensors of it), nor bfloat16 with a Python float.
_MUL_CELLS: dict[Cell, str] = {
    **{(D(t), P(s)): NO_KERNEL for t in LONE_UNSIGNED for s in _SCALARS},
    **{(P(s), D(t)): NO_KERNEL for t in LONE_UNSIGNED for s in _SCALARS},
    (D("bfloat16"), P("float*")): NO_KERNEL,
    (P("float*"), D("bfloat16")): NO_KERNEL,
}
# ops.equal(1, t), ops.less(1, t): "Failed calling Equal" (t == 1 works).
_SCALAR_FIRST: dict[Cell, str] = {
    (P(s), array(t)): REFUSES_OPERAND
    for s in (*_SCALARS, "complex*")
    for t in TYPES
    for array in (D, S)
}
# The types a complex type promotes with (the rest are refused: uint16, uint32, uint64).
_WITH_COMPLEX = (
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
)
# remainder(x, y) computes x - floor_divide(x, y) * y: the product is a complex Mul, which has a
# kernel only for two tensors of its type, here when ``y`` is a tensor of another type.
_COMPLEX_PRODUCT: dict[Cell, str] = {
    **{(D("complex128"), D(t)): NO_KERNEL for t in (*_WITH_COMPLEX, "complex64")},
    **{(D("complex64"), D(t)): NO_KERNEL for t in _WITH_COMPLEX},
    (D("float64"), D("complex64")): NO_KERNEL,
}
_MUL = "mul_promotion"  # pairs.py
_AS_GIVEN = "as_given"  # pairs.py

RULES = {
    "add": Rule("ops.add", no_kernel=("bool",)),
    "subtract": Rule("ops.sub", refuses=("bool",), no_kernel=("uint32", "uint64", "bfloat16")),
    "multiply": Rule(
        "ops.mul",
        pair=_MUL,
        no_kernel_mixed=_COMPLEX,
        cells=_MUL_CELLS,
    ),
    "divide": Rule(
        "ops.div",
        pair=_MUL,
        no_kernel_mixed=_COMPLEX,
        cells=_MUL_CELLS,
    ),
    "remainder": Rule(
        "ops.remainder",
        pair="remainder_promotion",
        cells={
            # its Mul does not convert bool to uint16/32/64; its Sub refuses bool
            **dict.fromkeys(
                (
                    (D("uint16"), D("bool")),
                    (D("uint32"), D("bool")),
                    (D("uint64"), D("bool")),
                    (P("bool"), D("bool")),
                ),
                REFUSES_OPERAND,
            ),
            # its Sub's missing kernels, reached with a Python scalar on the left
            **dict.fromkeys(
                (
                    (P("bool"), D("uint32")),
                    (P("bool"), D("uint64")),
                    (P("bool"), D("bfloat16")),
                    (P("int*"), D("bfloat16")),
                    (P("float*"), D("bfloat16")),
                ),
                NO_KERNEL,
            ),
            **_COMPLEX_PRODUCT,
        },
    ),
    "pow": Rule("ops.pow", no_kernel=("bool", "bfloat16")),
    "maximum": Rule("ops.maximum", no_kernel=("uint16", "bfloat16", "complex")),
    "minimum": Rule("ops.minimum", refuses=("complex",), no_kernel=("bool", "bfloat16")),
    "equal": Rule(
        "ops.equal",
        pair=_AS_GIVEN,
        no_kernel_operand=("bfloat16",),
        no_kernel_mixed=LONE_UNSIGNED,
        no_kernel_promotions=("unconverted",),  # two types the comparison takes as they are
        cells=_SCALAR_FIRST,
    ),
    "less": Rule(
        "ops.less",
        pair=_AS_GIVEN,
        no_kernel=("complex",),
        no_kernel_operand=("bfloat16",),
        no_kernel_mixed=LONE_UNSIGNED,
        no_kernel_promotions=("unconverted",),  # two types the comparison takes as they are
        cells=_SCALAR_FIRST,
    ),
    "logical_and": Rule(
        "ops.logical_and",
        refuses_operand=(P("int*"), P("float*"), P("complex*")),
        no_kernel=("bfloat16",),
    ),
    "bitwise_and": Rule("ops.bitwise_and", refuses=("float", "complex")),
    "bitwise_left_shift": Rule(
        "ops.bitwise_left_shift",
        pair="tensor_type",
        same_dtype=True,
        refuses=("bool", "float", "complex"),
        refuses_operand=(P("float*"), P("complex*")),
        value=ANY_VALUE,
        value_special="shift_value",
    ),
    "atan2": Rule("ops.atan2", SAME, no_kernel=(*_INTEGRAL, "bfloat16", "complex")),
    "matmul": Rule(
        "ops.matmul",
        same_dtype=True,
        no_kernel=("bool", *LONE_UNSIGNED, "bfloat16"),
        categories=frozenset({DIMENSIONED}),
    ),
    "negative": Rule("ops.neg", no_kernel=("bool",)),
    "abs": Rule("ops.abs", SAME, no_kernel=(*LONE_UNSIGNED, "bfloat16")),
    "sqrt": Rule("ops.sqrt", no_kernel=("bfloat16",)),
    "exp": Rule(
        "ops.exp",
        refuses=("uint", "int8", "int16", "int32"),
        no_kernel=("bool", "int64", "bfloat16"),
    ),
    "log": Rule(
        "ops.log",
        overrides={t: t for t in LONE_UNSIGNED},
        no_kernel=(*_INTEGRAL, "bfloat16"),
    ),
    "sin": Rule(
        "ops.sin",
        overrides={t: t for t in LONE_UNSIGNED},
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
    "logical_not": Rule("ops.logical_not", no_kernel=("bfloat16",)),
    "bitwise_invert": Rule("ops.invert", refuses=("bool", "float", "complex")),
    "real": Rule("ops.real", no_kernel=("uint8", "bfloat16")),
    "imag": Rule("ops.imag", refuses=("bfloat16",)),
    "isnan": Rule("ops.isnan", refuses=("bfloat16", "complex")),
    "sum": Rule("ops.sum", no_kernel=("bfloat16",)),
    "prod": Rule("ops.prod", no_kernel=("bfloat16",)),
    "mean": Rule("ops.mean", SAME, refuses=("bool",), no_kernel=("bfloat16",)),
    "max": Rule("ops.amax", no_kernel=("bool", "bfloat16", "complex")),
    # argmax of a 0-d tensor returns 0 without a kernel: bfloat16 and complex run (measured)
    "argmax": Rule(
        "ops.argmax",
        no_kernel=("bfloat16", "complex"),
        cells={(S(t),): RUNS for t in ("bfloat16", "complex64", "complex128")},
    ),
    "cumulative_sum": Rule(
        "ops.cumsum",
        SAME,
        refuses=("bool",),
        no_kernel=("bfloat16",),
        categories=frozenset({DIMENSIONED}),  # a 0-d tensor has no axis 0: refused (measured)
        note="axis=0",
    ),
    "where": Rule("ops.where", no_kernel=("bfloat16",)),
}

# The operators of mindspore.Tensor, where they are not their mindspore.ops function's (each
# measured): Tensor methods call primitives of their own, and a Python scalar on the left calls
# the tensor's reflected method (``1 < t`` is ``t > 1``), or none.
_LONE_MIXED: dict[Cell, str] = _with_0d(
    {
        **{(D(u), D(t)): NO_KERNEL for u in LONE_UNSIGNED for t in TYPES if t != u},
        **{(D(t), D(u)): NO_KERNEL for u in LONE_UNSIGNED for t in TYPES if t != u},
    }
)
# Mul's and Div's complex kernels take two tensors of that very type: two tensors of other types
# reach none (``Rule.no_kernel_mixed``, here cell by cell, as an operator's Python scalar can).
_MIXED_COMPLEX: dict[Cell, str] = {
    **{(D(c), D(t)): NO_KERNEL for c in _COMPLEX for t in (*_WITH_COMPLEX, *_COMPLEX) if t != c},
    **{(D(t), D(c)): NO_KERNEL for c in _COMPLEX for t in (*_WITH_COMPLEX, *_COMPLEX) if t != c},
}
# ops.mul(t, 1) and ops.div(t, 1), which a *= 1 and a /= 1 call: no kernel for a complex or
# uint16/32/64 tensor with a Python scalar, nor a bfloat16 one with a Python float.
_MUL_RIGHT: dict[Cell, str] = {
    **{(D(c), P(s)): NO_KERNEL for c in (*_COMPLEX, *LONE_UNSIGNED) for s in _SCALARS},
    (D("bfloat16"), P("float*")): NO_KERNEL,
}
_LONE_FLOAT: dict[Cell, str] = {  # a uint16/32/64 tensor times a Python float: no kernel
    **{(D(u), P("float*")): NO_KERNEL for u in LONE_UNSIGNED},
    **{(P("float*"), D(u)): NO_KERNEL for u in LONE_UNSIGNED},
}
_BFLOAT16_RIGHT: dict[Cell, str] = {(P(s), D("bfloat16")): NO_KERNEL for s in _SCALARS}
_ORDERED = Rule(None, ALWAYS_BOOL, no_kernel=("bfloat16", "complex"))
_OPERATORS = {
    # t + u and +t compute bool, which ops.add and ops.neg have no CPU kernel for.
    "+": Rule("mindspore.Tensor.__add__"),
    "+x": Rule("mindspore.Tensor.__pos__"),
    # Tensor.__sub__ takes bool (True - True is False, ops.sub refuses it) and has uint32,
    # uint64 and bfloat16 kernels ops.sub lacks; ``1 - t`` (__rsub__) is ops.sub's.
    "-": Rule(
        "mindspore.Tensor.__sub__",
        cells=_with_0d(
            {
                (P("bool"), D("bool")): REFUSES_OPERAND,
                (P("bool"), D("uint32")): NO_KERNEL,
                (P("bool"), D("uint64")): NO_KERNEL,
                **{(P(s), D("bfloat16")): NO_KERNEL for s in _SCALARS},
            }
        ),
    ),
    # a -= b (Tensor.__isub__) is ops.sub's rule, bool refused and its kernels missing.
    "-=": RULES["subtract"]._replace(function="mindspore.Tensor.__isub__"),
    # t * 1 and 1 * t (Tensor.__mul__/__rmul__) have the kernels ops.mul lacks for a uint16/32/64
    # tensor with a Python bool or int, a bfloat16 one with a Python float and a complex one
    # with any Python scalar; a *= 1 (__imul__) is ops.mul's, 1 *= t is 1 * t.
    "*": RULES["multiply"]._replace(
        function="mindspore.Tensor.__mul__",
        no_kernel_mixed=(),
        cells={**_MIXED_COMPLEX, **_LONE_FLOAT},
    ),
    "*=": RULES["multiply"]._replace(
        function="mindspore.Tensor.__imul__",
        no_kernel_mixed=(),
        cells={**_MIXED_COMPLEX, **_MUL_RIGHT, **_LONE_FLOAT},
    ),
    # t / 1 likewise; 1 / t (__rtruediv__) takes a uint16/32/64 or complex tensor but has no
    # bfloat16 kernel; a /= 1 (__itruediv__) is ops.div's, 1 /= t is 1 / t.
    "/": RULES["divide"]._replace(
        function="mindspore.Tensor.__truediv__",
        no_kernel_mixed=(),
        cells={**_MIXED_COMPLEX, **_BFLOAT16_RIGHT},
    ),
    "/=": RULES["divide"]._replace(
        function="mindspore.Tensor.__itruediv__",
        no_kernel_mixed=(),
        cells={**_MIXED_COMPLEX, **_MUL_RIGHT, **_BFLOAT16_RIGHT},
    ),
    # Tensor.__mod__ is a primitive of its own, not ops.remainder's x - floor_divide(x, y) * y:
    # it refuses uint16/32/64 outright and has no bool, bfloat16 or complex kernel.
    "%": Rule(
        "mindspore.Tensor.__mod__",
        refuses_operand=LONE_UNSIGNED,
        no_kernel=("bool", "bfloat16", "complex"),
    ),
    # No __rand__, __ror__ or __rxor__: 1 & t is refused (TypeError: unsupported operand).
    **{
        op: RULES["bitwise_and"]._replace(
            function=f"mindspore.Tensor.{dunder}", cells=_SCALAR_FIRST
        )
        for op, dunder in (("&", "__and__"), ("|", "__or__"), ("^", "__xor__"))
    },
    # No __lshift__ or __rshift__ at all.
    "<<": Rule(None, note="mindspore.Tensor has no __lshift__: t << 1 raises TypeError"),
    ">>": Rule(None, note="mindspore.Tensor has no __rshift__: t >> 1 raises TypeError"),
    # t == 1 and 1 == t take a uint16/32/64 tensor with a Python bool or int as it is (the kernel
    # of that type runs), where ops.equal(t, 1) has none; a Python complex is Python's False.
    "==": RULES["equal"]._replace(
        function="mindspore.Tensor.__eq__",
        no_kernel_mixed=(),
        no_kernel_promotions=(),
        cells={
            **_LONE_MIXED,
            **{(D(u), P("float*")): NO_KERNEL for u in LONE_UNSIGNED},
            **{(P("float*"), D(u)): NO_KERNEL for u in LONE_UNSIGNED},
        },
        special="python_bool",
    ),
    # t != u (NotEqual) promotes as add does: refused where add refuses (uint8 with uint16),
    # no bfloat16 kernel, a complex one; a Python complex is Python's True.
    "!=": Rule("mindspore.Tensor.__ne__", no_kernel=("bfloat16",), special="python_bool"),
    # t < u is ops.less's; 1 < t is t > 1 (__gt__ reflected), which promotes as add does: a
    # Python bool with a uint16/32/64 tensor runs, a Python int or float with one is refused.
    "<": RULES["less"]._replace(
        function="mindspore.Tensor.__lt__",
        pair="less_reflected",
        no_kernel_mixed=(),
        cells={
            **_LONE_MIXED,
            **{(D(u), P(s)): NO_KERNEL for u in LONE_UNSIGNED for s in _SCALARS},
        },
    ),
    # t <= u, t > u, t >= u promote as add does (refused where add refuses), with no bfloat16
    # or complex kernel; 1 > t is t < 1 (__lt__ reflected), ops.less's: a uint16/32/64 tensor
    # with a Python scalar reaches no kernel.
    "<=": _ORDERED._replace(function="mindspore.Tensor.__le__", pair="runs_halves"),
    ">": _ORDERED._replace(
        function="mindspore.Tensor.__gt__",
        pair="greater_reflected",
        cells={(P(s), D(u)): NO_KERNEL for u in LONE_UNSIGNED for s in _SCALARS},
    ),
    ">=": _ORDERED._replace(function="mindspore.Tensor.__ge__"),
    # ~t is logical_not: bool for every type.
    "~x": RULES["logical_not"]._replace(function="mindspore.Tensor.__invert__", kind=ALWAYS_BOOL),
}

# mindspore.Tensor's __iadd__ & co return a new tensor of the operator's dtype and leave the
# old one as it was: a += b rebinds the name.
OPERATORS = Operators("mindspore.Tensor", Updates(REBINDS), rules=_OPERATORS)

# A Python int reaches every function and operator as a C++ ``long`` before anything else
# (measured with each tensor type and 25 values on either side): one outside int64 is refused
# whatever it meets, even where ``ops.add`` would refuse the types alone (``ops.mul(uint16_t,
# 2**63)``), and one inside is not looked at (``uint8_t * 300`` is uint8, wrapped). The shift
# alone reads it as int64 or uint64 (``shift_value``, specials.py).
# A cell measured on 1-d tensors holds for 0-d ones too (``_with_0d``; measured).
_VALUED = {
    name: (rule if rule.value_special else rule._replace(value=INT64_VALUE))._replace(
        cells=_with_0d(dict(rule.cells))
    )
    for name, rule in with_operators(RULES, OPERATORS, NAMESPACE).items()
}

OPERATIONS = Operations(
    POLICY,
    MAPS,
    _VALUED,
    "MindSpore 2.10's mindspore.ops and Tensor operators on the CPU (PyNative), measured",
    operators=OPERATORS,
    values=True,
)
