"""ONNX's operations: each function of the vocabulary is one ONNX operator at opset 28, or
absent (``constraints.json``, from onnx 1.23.2's schemas; ``schemas_gen`` maps the names).

Nothing promotes: an operation binds its operands to its operator's type constraints (a type
outside its input's constraint is refused naming it; two inputs of one constraint must have one
type), and answers its output's type: the bound type (``Add``, ``ReduceSum``: no accumulator,
``CumSum``), or the one type of its output's own constraint (``Equal``'s T1 and ``IsNaN``'s T2
are bool, ``ArgMax`` gives int64). ``Pow`` binds its exponent to a constraint of its own, T1,
so ``Pow(int32, float16)`` is int32. Measured on onnxruntime 1.32.0's CPU execution provider
(``promote measure onnx``): its missing kernels (``NO_KERNEL``) are gaps, and ``MatMul``,
``ArgMax`` and ``CumSum`` refuse a 0-d tensor ("Input tensors of wrong rank (0)", "'axis' must
be in [-rank(indices), rank(indices)-1]", "Cannot apply CumSum operator on a scalar").
"""

from __future__ import annotations

from promote_cli.frameworks.onnx.constraints import OPSET, Operator, data
from promote_cli.frameworks.onnx.promotion import POLICY
from promote_cli.operands import DIMENSIONED
from promote_cli.rules import Maps, Operations, Rule, with_kinds
from promote_cli.vocabulary import ALWAYS_BOOL, FUNCTIONS, INDEX, OPERATOR_FORMS, SAME, Kind

MAPS = Maps(inexact={}, accumulate={}, real={}, index_dtype="int64", default_float="float32")

# The types each operator has no CPU kernel for, where its constraint allows them: measured
# (``promote measure onnx``), every cell a gap. ONNX Runtime's CPU provider has almost no
# bfloat16 kernel (Sign has one).
_BF16 = ("bfloat16",)
_REDUCE = ("uint32", "uint64", "bfloat16")
NO_KERNEL: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("add", "subtract", "multiply", "divide", "remainder", "pow"), _BF16),
    **dict.fromkeys(("equal", "less", "matmul", "negative", "abs", "sqrt", "exp"), _BF16),
    **dict.fromkeys(("log", "sin", "floor", "ceil", "round"), _BF16),
    "maximum": ("int16", "uint16", "bfloat16"),
    "minimum": ("int16", "uint16", "bfloat16"),
    **dict.fromkeys(("sum", "prod", "mean", "max", "cumulative_sum"), _REDUCE),
    "argmax": ("int16", "uint16", *_REDUCE),
    "where": ("bool", "int16", "uint16", "uint64", "bfloat16", "complex64", "complex128"),
}
# Pow's kernels take an exponent (T1) of int32, int64, float16, float32 or float64 only.
NO_KERNEL_EXPONENT = ("int8", "int16", "uint8", "uint16", "uint32", "uint64", "bfloat16")
# The operators that refuse a 0-d tensor (measured).
DIMENSIONED_ONLY = ("matmul", "argmax", "cumulative_sum")


def _kind(operator: Operator) -> Kind:
    """The output's type: an input's constraint's (SAME), or the one type of its own."""
    param = operator.output[1]
    if any(p == param for _, p in operator.operands):
        return SAME
    own = operator.constraints[param]
    kinds = {("bool",): ALWAYS_BOOL, (MAPS.index_dtype,): INDEX}
    if own not in kinds:
        raise ValueError(f"{operator.name}'s output {param} is {own}: no kind gives it")
    return kinds[own]


def _rule(name: str, operator: Operator) -> Rule:
    return Rule(
        operator.name,
        _kind(operator),
        categories=frozenset({DIMENSIONED}) if name in DIMENSIONED_ONLY else None,
        pair=name,
        no_kernel=NO_KERNEL.get(name, ()),
        no_kernel_operand=NO_KERNEL_EXPONENT if name == "pow" else (),
        note=f"{operator.spelled}, opset {OPSET}",
    )


_DATA = data()
# Python's operators: ONNX has no array type of its own, whose methods they would be.
_NO_ARRAY = "ONNX has no array type of its own: a model's nodes are its operators"
# A function of the vocabulary that schemas_gen's map does not name yet: ONNX has no namespace
# whose function of that name promote could assume (its operators are named per schema), so
# it is not answered until its operator is mapped and measured.
_UNMAPPED = (
    "no ONNX operator is mapped to it yet (frameworks/onnx/schemas_gen.py names each array API"
    " function's operator): map it, regenerate and measure"
)
RULES = with_kinds(
    {
        **{name: Rule(None, note=_UNMAPPED) for name in FUNCTIONS},
        **{name: Rule(None, note=why) for name, why in _DATA.absent.items()},
        **{name: _rule(name, op) for name, op in _DATA.operators.items()},
        **{name: Rule(None, note=_NO_ARRAY) for name in OPERATOR_FORMS},
    }
)

OPERATIONS = Operations(
    POLICY,
    MAPS,
    RULES,
    f"each operator's type constraints at opset {OPSET} (onnx 1.23.2), run by onnxruntime"
    " 1.32.0's CPU execution provider, measured",
)
