"""TensorFlow's operations: ``tf.experimental.numpy`` with NumPy behaviour (TensorFlow 2.21),
and ``tf.Tensor``'s operators.

Measured on TensorFlow 2.21 with ``tnp.experimental_enable_numpy_behavior(
dtype_conversion_mode=...)`` in the three modes (``legacy``'s rules and maps are its own,
below), over every operand pair (tensors, Python scalars and
WeakTensors on either side), and checked by ``promote verify``. The functions are ``tnp``'s;
the operators (``OPERATORS``, below) are ``tf.Tensor``'s own, with pair rules of their own:
``a + b`` follows the tensorflow policy, ``tnp.add(a, b)`` does not.

Two pair rules live inside ``tnp``, and a rule names the one its function uses (``pairs.py``:
``numpy_result_type``, ``as_bools``):

- ``tnp``'s arithmetic (``add`` ... ``atan2``, ``bitwise_and``) promotes with **NumPy's**
  ``np.result_type`` (NumPy 2, NEP 50, with ml_dtypes' bfloat16), whatever
  ``dtype_conversion_mode`` says: ``tnp.add(int32, float16)`` is float64 where ``a + b`` gives
  float16. A WeakTensor counts as its plain dtype there (``int8 + int32*`` is int32); bfloat16
  promotes only with bool, uint8, int8, float32, float64 and complex (``bfloat16 + 1.0`` is
  float64), and NumPy refuses the rest;
- ``equal``, ``less``, ``matmul`` and ``where`` promote with the tensorflow policy (so they
  depend on the mode); ``where`` returns its result as a tensor (a weak result comes out
  strong); ``logical_and`` casts each operand to bool and never promotes.

Maps: an integer becomes float32 (``sqrt``, ``exp``, ``log``, ``sin``, ``floor``, ``ceil``,
``mean``; bfloat16 too), but ``divide`` makes 32- and 64-bit integers float64. ``sum`` and
``prod`` accumulate in TensorFlow's default int, int32 (uint32 for small unsigned types, 64-bit
types keep theirs); ``cumsum`` accumulates unsigned types in int32, and uint64 in float32.
``tnp`` has no left shift: ``bitwise_left_shift`` is absent (``tf.bitwise.left_shift`` is
TensorFlow's own and takes one dtype). Refusals are TensorFlow's op registrations ("Value for
attr 'T' of int8 is not in the list of allowed values"): strings for nearly everything, ``pow``
of bool and unsigned types, ``atan2`` of integers, ``matmul`` of bool, int8, int16.

No CPU kernel ("Could not find device for node") is a gap only where another device of
TensorFlow has the kernel; where the op definition admits the type but no device registers a
kernel that runs it, it is a refusal:

- ``floor_divide`` of complex is a gap: ``FloorDiv`` admits complex64/128, the CPU has no complex
  kernel, but XLA has (``tf.function(jit_compile=True)`` runs it: complex64);
- ``round`` of complex is a refusal: ``Round`` admits complex64/128, but its CPU and GPU kernels
  (``cwise_op_round.cc``) are real types only, and XLA, which registers it, refuses to compile
  it ("Operands to RoundToEven must be real-valued floating-point");
- ``matmul`` of unsigned types is a refusal: ``MatMul`` admits uint8-uint64, but no device
  registers a kernel for them: not the CPU (floats, complex, int16/32/64), not XLA, and not the
  GPU (``matmul_op_real.cc``: half, bfloat16, float, double; complex elsewhere).

A Python scalar's value (``int:300``) is taken by every binary function and operator in the
modes ``all`` and ``safe``: checked as ``+`` converts it (an int32 first) where the operation
promotes; converted to the tensor's dtype where an operator does not (``!=``, the orderings,
``& | ^``); and what an integer kernel then does with the wrapped value (a negative power, a zero
divisor) in ``specials.py``. Under ``legacy`` too: its operators check a value as its ``+``
does, its ``tnp`` functions make it a NumPy array first (``specials.py``).
"""

from __future__ import annotations

from promote_cli.frameworks.tensorflow.promotion import POLICY
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.rules import (
    ANY_VALUE,
    CHECKED,
    REBINDS,
    BySetting,
    Maps,
    Operations,
    Operators,
    Rule,
    Updates,
    with_operators,
)
from promote_cli.vocabulary import INT_TO_FLOAT, SAME

# Where a function the rules do not list is found: ``tnp.`` + its array API name.
NAMESPACE = "tnp."

MAPS = Maps(
    inexact={"bool": "float32", "int": "float32", "uint": "float32"},
    accumulate={
        "bool": "int32",
        "int": "int32",
        "uint": "uint32",
        "int64": "int64",
        "uint64": "uint64",
    },
    real={"complex64": "float32", "complex128": "float64"},
    index_dtype="int64",
    default_float="float32",
)

_NP = "numpy_result_type"  # tnp's arithmetic promotes with np.result_type (pairs.py)
_BF16 = {"bfloat16": "float32"}  # tnp's float functions compute bfloat16 in float32
_INT8 = {"bool": "int8"}

RULES = {
    "add": Rule("tnp.add", pair=_NP),
    "subtract": Rule("tnp.subtract", refuses=("bool", "string"), pair=_NP),
    "multiply": Rule("tnp.multiply", refuses=("string",), pair=_NP),
    "divide": Rule(
        "tnp.divide",
        refuses=("string",),
        overrides={t: "float64" for t in ("int32", "int64", "uint32", "uint64")},
        pair=_NP,
    ),
    "floor_divide": Rule(
        "tnp.floor_divide",
        refuses=("string",),
        no_kernel=("complex",),
        overrides=_INT8,
        pair=_NP,
        value_special="zero_divisor",
    ),
    "remainder": Rule(
        "tnp.remainder",
        refuses=("complex", "string"),
        overrides=_INT8,
        pair=_NP,
        value_special="zero_divisor",
    ),
    "pow": Rule(
        "tnp.power", refuses=("bool", "uint", "string"), pair=_NP, value_special="negative_power"
    ),
    "maximum": Rule("tnp.maximum", refuses=("complex", "string"), pair=_NP),
    "minimum": Rule("tnp.minimum", refuses=("complex", "string"), pair=_NP),
    "equal": Rule("tnp.equal"),
    "less": Rule("tnp.less", refuses=("complex", "string")),
    "logical_and": Rule(
        "tnp.logical_and",
        pair="as_bools",
        value=ANY_VALUE,
        value_special="int32_value",
    ),
    "bitwise_and": Rule("tnp.bitwise_and", refuses=("float", "complex", "string"), pair=_NP),
    "bitwise_left_shift": Rule(
        None, note="tnp has no left shift; tf.bitwise.left_shift takes one dtype only"
    ),
    "atan2": Rule(
        "tnp.arctan2", SAME, refuses=("bool", "uint", "int", "complex", "string"), pair=_NP
    ),
    "matmul": Rule(
        "tnp.matmul",
        refuses=("bool", "int8", "int16", "uint", "string"),  # uint: no device's kernel
        categories=frozenset({DIMENSIONED}),
    ),
    "negative": Rule("tnp.negative", refuses=("bool", "uint", "string")),
    "abs": Rule("tnp.abs", refuses=("bool", "uint", "string")),
    "sqrt": Rule("tnp.sqrt", refuses=("string",), overrides=_BF16),
    "exp": Rule("tnp.exp", refuses=("string",), overrides=_BF16),
    "log": Rule("tnp.log", refuses=("string",), overrides=_BF16),
    "sin": Rule("tnp.sin", refuses=("string",), overrides=_BF16),
    "floor": Rule("tnp.floor", INT_TO_FLOAT, refuses=("complex", "string"), overrides=_BF16),
    "ceil": Rule("tnp.ceil", INT_TO_FLOAT, refuses=("complex", "string"), overrides=_BF16),
    "round": Rule("tnp.round", refuses=("complex", "string")),  # complex: no device's kernel
    "sign": Rule("tnp.sign", refuses=("bool", "uint", "string")),
    "square": Rule("tnp.square", refuses=("bool", "string")),
    "logical_not": Rule("tnp.logical_not", refuses=("string",)),
    "bitwise_invert": Rule("tnp.bitwise_not", refuses=("float", "complex", "string")),
    "real": Rule("tnp.real", refuses=("bool", "string")),
    "imag": Rule("tnp.imag"),
    "isnan": Rule("tnp.isnan", refuses=("complex", "string")),
    "sum": Rule("tnp.sum", refuses=("string",)),
    "prod": Rule("tnp.prod", refuses=("string",)),
    "mean": Rule("tnp.mean", refuses=("string",)),
    "max": Rule("tnp.max", refuses=("complex", "string")),
    "argmax": Rule("tnp.argmax", refuses=("complex", "string")),
    "cumulative_sum": Rule(
        "tnp.cumsum",
        refuses=("bool", "string"),
        overrides={"uint8": "int32", "uint16": "int32", "uint32": "int32", "uint64": "float32"},
    ),
    "where": Rule("tnp.where", materialise=True),
}

# tf.Tensor's operators, as TensorFlow 2.21 overrides them, with NumPy behaviour on in either
# mode (``override_binary_operator.py``, ``tensor_math_operator_overrides.py``): not tnp's
# functions, so none promotes with NumPy's result_type. The arithmetic ones promote with the
# tensorflow policy (the mode's), but a Python bool converts to fewer dtypes (``uint8 == True``
# raises); ``!=``, the orderings and ``& | ^`` do not promote at all (each operand must be of
# the tensor's dtype, a Python scalar converted to it).
_OP = "tensor_operator"  # the tensorflow policy, a Python bool converted (pairs.py)
_SAME = "as_tensor_dtype"  # no promotion: the legacy conversion to the tensor's dtype
_LEFT = "as_left_dtype"  # the same, and a Python scalar on the left raises AttributeError
_NOT_SHIFTED = "tf.Tensor defines no __lshift__ or __rshift__ (tf.bitwise.left_shift is a function)"
_ORDER = ("bool", "complex", "string")  # Less & co admit neither
_BITS = ("float", "complex", "string")
# A Python scalar's value, where the operator does not promote: converted to the tensor's
# dtype, not to int32 as + converts it (value=ANY_VALUE, then this special: specials.py)
_CONVERTED = "converted"

# Tensors are immutable: ``a += b`` is ``a = a + b``, the name bound to a new tensor.
OPERATORS = Operators(
    "tf.Tensor",
    Updates(REBINDS),
    rules={
        # AddV2 admits no bool (tnp.add makes two bools a logical or); string + string joins
        "+": Rule("tf.Tensor.__add__", refuses=("bool",), pair=_OP),
        "-": Rule("tf.Tensor.__sub__", refuses=("bool", "string"), pair=_OP),
        # a bool tensor on either side: both cast to int32, multiplied, cast back to bool
        "*": Rule(
            "tf.Tensor.__mul__",
            refuses=("string",),
            pair="bool_multiply",
            value=ANY_VALUE,
            value_special="bool_multiplied",
        ),
        # _TRUEDIV_TABLE: (u)int8/16 -> float32, (u)int32/64 -> float64, no bool (tnp.divide
        # casts two bools to float32); a weak int stays weak: float64*
        "/": Rule(
            "tf.Tensor.__truediv__",
            refuses=("bool", "string"),
            overrides={
                **{t: "float64" for t in ("int32", "int64", "uint32", "uint64")},
                "int32*": "float64*",
                "int64*": "float64*",
            },
            pair=_OP,
        ),
        # FloorDiv and FloorMod admit no bool (tnp's floor_divide and remainder give int8)
        "//": Rule(
            "tf.Tensor.__floordiv__",
            refuses=("bool", "string"),
            no_kernel=("complex",),
            pair=_OP,
            value_special="zero_divisor",
        ),
        "%": Rule(
            "tf.Tensor.__mod__",
            refuses=("bool", "complex", "string"),
            pair=_OP,
            value_special="zero_divisor",
        ),
        "**": Rule(
            "tf.Tensor.__pow__",
            refuses=("bool", "uint", "string"),
            pair=_OP,
            value_special="negative_power",
        ),
        "&": Rule(
            "tf.Tensor.__and__",
            refuses=_BITS,
            pair=_LEFT,
            value=ANY_VALUE,
            value_special=_CONVERTED,
        ),
        "|": Rule(
            "tf.Tensor.__or__", refuses=_BITS, pair=_LEFT, value=ANY_VALUE, value_special=_CONVERTED
        ),
        "^": Rule(
            "tf.Tensor.__xor__",
            refuses=_BITS,
            pair=_LEFT,
            value=ANY_VALUE,
            value_special=_CONVERTED,
        ),
        "<<": Rule(None, note=_NOT_SHIFTED),
        ">>": Rule(None, note=_NOT_SHIFTED),
        "==": Rule("tf.Tensor.__eq__", pair=_OP),
        # tensor_not_equals does not promote (where tensor_equals does)
        "!=": Rule("tf.Tensor.__ne__", pair=_SAME, value=ANY_VALUE, value_special=_CONVERTED),
        "<": Rule(
            "tf.Tensor.__lt__",
            refuses=_ORDER,
            pair=_SAME,
            value=ANY_VALUE,
            value_special=_CONVERTED,
        ),
        "<=": Rule(
            "tf.Tensor.__le__",
            refuses=_ORDER,
            pair=_SAME,
            value=ANY_VALUE,
            value_special=_CONVERTED,
        ),
        ">": Rule(
            "tf.Tensor.__gt__",
            refuses=_ORDER,
            pair=_SAME,
            value=ANY_VALUE,
            value_special=_CONVERTED,
        ),
        ">=": Rule(
            "tf.Tensor.__ge__",
            refuses=_ORDER,
            pair=_SAME,
            value=ANY_VALUE,
            value_special=_CONVERTED,
        ),
        # NumPy behaviour sets __pos__ to return the tensor itself, of any dtype
        "+x": Rule("tf.Tensor.__pos__"),
    },
)

# truediv's table makes (u)int8/16 float32 in every mode; the legacy maps' float is float64
_TRUEDIV_FLOAT32 = dict.fromkeys(("int8", "int16", "uint8", "uint16"), "float32")
# mode=legacy: every binary operator promotes both operands first, with np.result_type
# (``maybe_promote_tensors``), the reflected ones too, then calls its op on one dtype: ``!=``,
# the orderings and ``& | ^`` promote (``uint8 != int8`` is bool, ``1 & x`` is x's type), and
# ``*`` casts to int32 and back only where the promoted type is bool (``bool * int8`` is int8).
# What the op admits stays as in the other modes.
_LEGACY_OPERATORS = OPERATORS._replace(
    rules={
        **OPERATORS.rules,
        "*": OPERATORS.rules["*"]._replace(pair=_OP, value=CHECKED, value_special=""),
        "/": OPERATORS.rules["/"]._replace(
            overrides={**OPERATORS.rules["/"].overrides, **_TRUEDIV_FLOAT32}
        ),
        **{
            name: OPERATORS.rules[name]._replace(pair=_OP, value=CHECKED, value_special="")
            for name in ("&", "|", "^", "!=", "<", "<=", ">", ">=")
        },
    },
)
_RULES = with_operators(RULES, OPERATORS, NAMESPACE)

# mode=legacy: tnp's defaults are NumPy's (float64, int64): an integer's float, the
# accumulators and cumsum's unsigned types are 64-bit, and bfloat16's float functions compute
# in float64; equal, less, matmul and where refuse a string with another type.
_LEGACY_MAPS = MAPS._replace(
    inexact={"bool": "float64", "int": "float64", "uint": "float64"},
    accumulate={"bool": "int64", "int": "int64", "uint": "uint64"},
    default_float="float64",
)
_LEGACY_FUNCTIONS = {
    **RULES,
    **{
        name: RULES[name]._replace(overrides={"bfloat16": "float64"})
        for name in ("sqrt", "exp", "log", "sin", "floor", "ceil")
    },
    **{
        name: RULES[name]._replace(pair="legacy_promotion")
        for name in ("equal", "less", "matmul", "where")
    },
    # truediv's table still makes (u)int8/16 float32 (two bools: float64, the map's)
    "divide": RULES["divide"]._replace(overrides={**RULES["divide"].overrides, **_TRUEDIV_FLOAT32}),
    "cumulative_sum": RULES["cumulative_sum"]._replace(
        overrides={"uint8": "int64", "uint16": "int64", "uint32": "int64", "uint64": "float64"}
    ),
}
# mode=legacy: tnp's binary functions make a Python scalar a NumPy array first, then cast it to
# the promoted type (specials.py): an int in [2**63, 2**64) is taken by every tensor (NumPy's
# uint64), one from 2**64 by none; the rest is checked as + checks it, then wrapped into the
# tensor's type as in the other modes (a zero divisor, a negative power). logical_and makes
# each operand a bool tensor on its own.
_LEGACY_VALUES = {
    "floor_divide": "legacy_zero_divisor",
    "remainder": "legacy_zero_divisor",
    "pow": "legacy_negative_power",
    "logical_and": "legacy_bools",
    **dict.fromkeys(
        (
            "add",
            "subtract",
            "multiply",
            "divide",
            "maximum",
            "minimum",
            "equal",
            "less",
            "bitwise_and",
            "atan2",
        ),
        "legacy_value",
    ),
}
_LEGACY_FUNCTIONS = {
    **_LEGACY_FUNCTIONS,
    **{
        name: _LEGACY_FUNCTIONS[name]._replace(value=ANY_VALUE, value_special=special)
        for name, special in _LEGACY_VALUES.items()
    },
}
# mode=legacy makes no WeakTensor (the policy refuses int32* ... there): every function and
# operator refuses one.
_WEAK_TENSORS = tuple(Operand(t, PYTHON) for t in POLICY.universe if t.endswith("*"))
_LEGACY_RULES = {
    name: rule._replace(refuses_operand=(*rule.refuses_operand, *_WEAK_TENSORS))
    for name, rule in with_operators(_LEGACY_FUNCTIONS, _LEGACY_OPERATORS, NAMESPACE).items()
}

# function=true: inside tf.function (measured in the modes all and safe; under legacy it is not
# modelled, POLICY.excluded). A Python scalar becomes a graph constant: a Python int goes
# through an int32 WeakTensor in every operator, so the operators that do not promote and a
# bool tensor's * check it as + does (uint8_tensor != 2**31, bool_tensor * 2**31: OverflowError;
# bool_tensor * 1e300 is bool), and a Python bool converts to every dtype (pairs.py).
_TRACED_OPERATORS = OPERATORS._replace(
    rules={
        **OPERATORS.rules,
        **{
            name: OPERATORS.rules[name]._replace(value=CHECKED, value_special="")
            for name in ("*", "&", "|", "^", "!=", "<", "<=", ">", ">=")
        },
    },
)
_TRACED_OPERATORS = _TRACED_OPERATORS._replace(
    rules={
        **_TRACED_OPERATORS.rules,
        "-": OPERATORS.rules["-"]._replace(value_special="traced_zero_minus"),
    }
)
# 0 - x rewritten as Neg by the graph's optimizer (specials.py)
_TRACED_FUNCTIONS = {
    **RULES,
    "subtract": RULES["subtract"]._replace(value_special="traced_zero_minus"),
}
_TRACED_RULES = with_operators(_TRACED_FUNCTIONS, _TRACED_OPERATORS, NAMESPACE)

OPERATIONS = Operations(
    POLICY,
    MAPS,
    _RULES,
    "tf.experimental.numpy with NumPy behaviour and tf.Tensor's operators (TensorFlow 2.21),"
    " measured in the three modes",
    operators=OPERATORS,
    values=True,
    by_setting=BySetting(
        ("mode", "function"),
        maps={
            **{(mode, traced): MAPS for mode in ("all", "safe") for traced in (False, True)},
            ("legacy", False): _LEGACY_MAPS,
            ("legacy", True): _LEGACY_MAPS,
        },
        rules={
            ("all", False): _RULES,
            ("safe", False): _RULES,
            ("legacy", False): _LEGACY_RULES,
            ("all", True): _TRACED_RULES,
            ("safe", True): _TRACED_RULES,
            ("legacy", True): _LEGACY_RULES,  # not modelled (POLICY.excluded refuses it)
        },
    ),
)
