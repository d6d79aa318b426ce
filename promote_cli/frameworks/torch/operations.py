"""PyTorch's operations: one rule per function of the vocabulary (torch 2.13, CPU).

Measured on torch 2.13 (CPU) over every operand pair (tensors, 0-d tensors, Python scalars on
either side) and checked by ``promote verify``. Every function promotes with
``torch.result_type`` (the categories of the torch policy) and applies the kind PyTorch itself
declares (``ELEMENTWISE_TYPE_PROMOTION_KIND`` in ``torch/_prims_common``): ``true_divide``,
``atan2``, ``sqrt``, ``exp``, ``log``, ``sin`` make a bool or an integer the default dtype
(float32); ``abs``, ``real``, ``imag`` make complex32/64/128 float16/32/64; ``sum``, ``prod``,
``cumsum`` accumulate every bool and integer, unsigned ones included, in int64; ``argmax`` is
int64. ``mean`` refuses a bool or an integer ("could not infer output dtype"), ``square`` of a
bool is int64, ``subtract`` refuses any bool operand, a Python bool included.

Departures from the functions' signatures: ``torch.add(1, t)`` raises TypeError (a Python scalar
only goes second), so a Python scalar on the left is answered as the operator ``1 + t`` (its
``__radd__``) computes it: the same dtype. ``maximum``, ``minimum``, ``logical_and``, ``atan2``
and ``matmul`` take no Python scalar at all; ``matmul`` takes no 0-d tensor and does not promote
(two dtypes raise "expected both vectors to have same dtype").

Missing CPU kernels (NotImplementedError "... not implemented for 'UInt16'") are gaps, not
rules: the promotion and the kind are defined (the ``meta`` device answers them), only the CPU
has no loop. uint16/32/64 have kernels for few functions, the float8 types for almost none,
complex32 for some; ``promote`` answers the kind's dtype there and marks it ``no-kernel``.
Some calls take another way for some operands or values, and run there: float8's ``mul``
unless its second operand is one number, ``pow`` by an exponent of 0 or 1 or of a base of 1,
``1j / float16_tensor`` (a reciprocal, then ``mul``), ``cumsum`` of a 0-d tensor (notes.md).
Where a whole kind lacks a kernel (bitwise functions of floats, rounding of complex) the kernel
is never coming: those are refusals.

Newer releases (``-O release=``, measured on torch 2.14.1 and 2.15.0, CPU) change these rules
only where measured (``_SINCE``): 2.14's bcomplex32 has almost no kernel, and 2.15's
``maximum`` and ``minimum`` have uint16/32/64 ones.
"""

from __future__ import annotations

from promote_cli.frameworks.torch import RELEASES
from promote_cli.frameworks.torch.promotion import DEFAULT_TYPES, POLICY, added_types, since
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D
from promote_cli.rules import (
    ANY_VALUE,
    IN_PLACE,
    RUNS,
    BySetting,
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
from promote_cli.vocabulary import SAME

# Where a function the rules do not list is found: ``torch.`` + its array API name.
NAMESPACE = "torch."

MAPS = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},  # the default dtype
    accumulate={"bool": "int64", "int": "int64", "uint": "int64"},
    real={
        "complex32": "float16",
        "bcomplex32": "bfloat16",
        "complex64": "float32",
        "complex128": "float64",
    },
    index_dtype="int64",
    default_float="float32",
)
_WIDE_UNSIGNED = ("uint16", "uint32", "uint64")
_FLOAT8 = (
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
)
# Missing CPU kernels, the common patterns (see the module docstring).
_NONE_UF = (*_WIDE_UNSIGNED, *_FLOAT8)  # neither wide unsigned nor float8 kernels
_NONE_FC = (*_FLOAT8, "complex32")  # no float8 nor complex32 kernels
_ALL_GAPS = (*_WIDE_UNSIGNED, *_FLOAT8, "complex32")
_ARRAYS = frozenset({DIMENSIONED, ZERO_D})  # no Python scalar: "must be Tensor, not int"
_DIMENSIONED_ONLY = frozenset({(DIMENSIONED,)})
_LEFT_SCALAR = "a Python scalar on the left is the operator's (1 + t): the same dtype"
# float8's ``mul`` kernel has no path for a second operand of one number ("mul_cpu_reduced_float"
# not implemented): a 0-d tensor or a Python scalar there (``1 * t`` is ``t.__rmul__(1)``, the
# scalar second); two tensors, or a 0-d tensor first, run (even a dimensioned tensor of one
# element second has no kernel: ``promote verify`` asks two elements)
_ONE_NUMBER_SECOND = frozenset(
    {(a, b) for a in (DIMENSIONED, ZERO_D, PYTHON) for b in (ZERO_D, PYTHON)}
    | {(PYTHON, DIMENSIONED)}
)
# ``pow`` returns before its kernel for an exponent of 0 (a fill), 1 (a copy) and a base of 1 (a
# fill), so any type runs there; a bool base is no 1 to it (``Scalar::equal``)
_POW_SKIPS = {
    "left": (1, 1.0, 1 + 0j),
    "right": (0, 1, 0.0, 1.0, 0j, 1 + 0j, False, True),
}
_POW_FILLS = {"left": (1, 1.0, 1 + 0j), "right": (0, 0.0, 0j, False)}  # the rest copy

RULES = {
    "add": Rule("torch.add", no_kernel=_NONE_UF, note=_LEFT_SCALAR),
    "subtract": Rule(
        "torch.sub", refuses_operand=("bool", P("bool")), no_kernel=_NONE_UF, note=_LEFT_SCALAR
    ),
    "multiply": Rule(
        "torch.mul",
        no_kernel=_FLOAT8,
        no_kernel_categories=dict.fromkeys(_FLOAT8, _ONE_NUMBER_SECOND),
        note=_LEFT_SCALAR,
    ),
    "divide": Rule(
        "torch.true_divide",
        no_kernel=_NONE_FC,
        # ``1j / float16_tensor`` is ``float16_tensor.reciprocal() * 1j``: complex32's ``mul``
        # runs where its ``div`` has no kernel (a complex32 or float8 tensor's reciprocal has none)
        cells={(P("complex*"), D("float16")): RUNS, (P("complex*"), S("float16")): RUNS},
        note=_LEFT_SCALAR,
        value=ANY_VALUE,
        value_special="reciprocal",
    ),
    "floor_divide": Rule(
        "torch.floor_divide",
        refuses=("complex",),
        no_kernel=("bool", *_NONE_UF),
        note=_LEFT_SCALAR,
        value=ANY_VALUE,
        value_special="wrapped_divisor",
    ),
    "remainder": Rule(
        "torch.remainder",
        refuses=("complex",),
        no_kernel=("bool", *_NONE_UF),
        note=_LEFT_SCALAR,
        value=ANY_VALUE,
        value_special="wrapped_divisor",
    ),
    "pow": Rule(
        "torch.pow",
        no_kernel=("bool", *_ALL_GAPS),
        skips_kernel=_POW_SKIPS,
        fills=_POW_FILLS,
        note=_LEFT_SCALAR,
        value=ANY_VALUE,
        value_special="exponent",
    ),
    "maximum": Rule("torch.maximum", refuses=("complex",), no_kernel=_NONE_UF, categories=_ARRAYS),
    "minimum": Rule("torch.minimum", refuses=("complex",), no_kernel=_NONE_UF, categories=_ARRAYS),
    "equal": Rule("torch.eq", note=_LEFT_SCALAR),
    "less": Rule("torch.lt", refuses=("complex",), no_kernel=_NONE_UF, note=_LEFT_SCALAR),
    "logical_and": Rule("torch.logical_and", no_kernel=_ALL_GAPS, categories=_ARRAYS),
    "bitwise_and": Rule("torch.bitwise_and", refuses=("float", "complex"), note=_LEFT_SCALAR),
    "bitwise_left_shift": Rule(
        "torch.bitwise_left_shift",
        refuses=("float", "complex"),
        no_kernel=("bool", *_WIDE_UNSIGNED),
        note=_LEFT_SCALAR,
    ),
    "atan2": Rule("torch.atan2", refuses=("complex",), no_kernel=_FLOAT8, categories=_ARRAYS),
    "matmul": Rule(
        "torch.matmul",
        same_dtype=True,
        no_kernel=("bool", *_ALL_GAPS),
        categories=frozenset({DIMENSIONED}),
    ),
    "negative": Rule("torch.neg", refuses=("bool",), no_kernel=_NONE_UF),
    "abs": Rule("torch.abs", no_kernel=("bool", *_WIDE_UNSIGNED, "float8_e8m0fnu")),
    "sqrt": Rule("torch.sqrt", no_kernel=_NONE_FC),
    "exp": Rule("torch.exp", no_kernel=_NONE_FC),
    "log": Rule("torch.log", no_kernel=_NONE_FC),
    "sin": Rule("torch.sin", no_kernel=_NONE_FC),
    "floor": Rule("torch.floor", refuses=("complex",), no_kernel=("bool", *_FLOAT8)),
    "ceil": Rule("torch.ceil", refuses=("complex",), no_kernel=("bool", *_FLOAT8)),
    "round": Rule("torch.round", refuses=("complex",), no_kernel=("bool", *_FLOAT8)),
    "sign": Rule("torch.sign", refuses=("complex",), no_kernel=_NONE_UF),
    "square": Rule("torch.square", overrides={"bool": "int64"}, no_kernel=_ALL_GAPS),
    "logical_not": Rule("torch.logical_not", no_kernel=_ALL_GAPS),
    "bitwise_invert": Rule(
        "torch.bitwise_not", refuses=("float", "complex"), no_kernel=_WIDE_UNSIGNED
    ),
    "imag": Rule("torch.imag", refuses=("bool", "int", "uint", "float")),
    "sum": Rule("torch.sum", no_kernel=_NONE_FC),
    "prod": Rule("torch.prod", no_kernel=_NONE_FC),
    "mean": Rule("torch.mean", SAME, refuses=("bool", "int", "uint"), no_kernel=_NONE_FC),
    "max": Rule("torch.amax", refuses=("complex",), no_kernel=_NONE_UF),
    "argmax": Rule("torch.argmax", refuses=("bool", "complex"), no_kernel=_NONE_UF),
    "cumulative_sum": Rule(
        "torch.cumsum",
        no_kernel=_NONE_FC,
        # a 0-d tensor is copied, not summed (2.14's bcomplex32 too)
        no_kernel_categories=dict.fromkeys((*_NONE_FC, "bcomplex32"), _DIMENSIONED_ONLY),
        note="dim=0",
    ),
}

# ``a += b`` writes the result into ``a``'s tensor when torch's ``canCast`` allows it: no
# complex into a real tensor, no float into an integer one, nothing but bool into a bool one
# ("result type Float can't be cast to the desired output type Char").
OPERATORS = Operators(
    "torch.Tensor",
    rules={"+x": Rule("torch.Tensor.__pos__", refuses=("bool",))},
    updates=Updates(
        IN_PLACE,
        (("bool",), ("uint", "int"), ("float",), ("complex",)),
        "torch's canCast: no complex to real, float to integer or number to bool",
    ),
)

# bcomplex32 (torch 2.14) has almost no CPU kernel: these functions (and their operators) have
# none for it, measured on 2.14.1 and 2.15.0 ("add_stub" not implemented for 'BComplex32'); its
# eq, where, real, imag, isnan and +x run, and the functions that refuse complex refuse it.
_NO_BCOMPLEX32 = (
    *("add", "subtract", "multiply", "divide", "pow", "logical_and", "matmul", "negative"),
    *("abs", "sqrt", "exp", "log", "sin", "square", "logical_not"),
    *("sum", "prod", "mean", "cumulative_sum"),
)


def _without_bcomplex32(rule: Rule) -> Rule:
    # nor a fill kernel: pow's fill (``1 ** t``, ``t ** 0``) of a dimensioned one raises too
    no_fill = ("bcomplex32",) if rule.fills else ()
    return rule._replace(no_kernel=(*rule.no_kernel, "bcomplex32"), no_fill=no_fill)


# What each release changed in the rules (``RULES`` are 2.13's), oldest first: 2.14's
# bcomplex32 kernels, 2.15's maximum and minimum of uint16/32/64.
_SINCE = {
    "2.14": {name: _without_bcomplex32(RULES[name]) for name in _NO_BCOMPLEX32},
    "2.15": {
        "maximum": Rule(
            "torch.maximum", refuses=("complex",), no_kernel=_FLOAT8, categories=_ARRAYS
        ),
        "minimum": Rule(
            "torch.minimum", refuses=("complex",), no_kernel=_FLOAT8, categories=_ARRAYS
        ),
    },
}


def _rules(release: str) -> dict[str, Rule]:
    changed = {k: v for rules in since(release, _SINCE) for k, v in rules.items()}
    return with_operators({**RULES, **changed}, OPERATORS, NAMESPACE)


OPERATIONS = Operations(
    POLICY,
    MAPS,
    _rules(RELEASES[0]),
    "torch 2.13's functions and Tensor operators on the CPU, measured; under release=2.14 and"
    " 2.15 torch 2.14.1's and 2.15.0's",
    types=(*DEFAULT_TYPES, *added_types(RELEASES[-1])),
    outside="PyTorch's 1- to 7-bit integers and packed float4 are storage types: no function"
    " computes with them",
    operators=OPERATORS,
    values=True,
    by_setting=BySetting(
        ("release",),
        rules={(r,): _rules(r) for r in RELEASES},
        types={(r,): (*DEFAULT_TYPES, *added_types(r)) for r in RELEASES},
    ),
)
