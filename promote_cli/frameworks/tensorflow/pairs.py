"""The two pair rules inside ``tnp`` other than the tensorflow policy's (``Rule.pair``): its
arithmetic calls NumPy's ``np.result_type``, and ``logical_and`` casts each operand to bool.
``PAIRS`` names them for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.dtypes import get as dtype_info
from promote_cli.dtypes import is_weak
from promote_cli.engine import DECLINED, Outcome, ref, refuse
from promote_cli.frameworks.tensorflow.promotion import (
    POLICY,
    legacy_string_refused,
    python_bool_refused,
)
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.rules import Pair
from promote_cli.shared.numpy_promotion import NUMPY as _NUMPY


def numpy_result_type(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``np.result_type`` as ``tnp``'s arithmetic calls it: a WeakTensor (``int32*``) as its
    plain dtype, a Python scalar weak (NEP 50), ml_dtypes' bfloat16 beside NumPy's types as the
    installed release of ml_dtypes makes NumPy answer (the option ``ml_dtypes``); two strings
    fall back to TensorFlow's own rule (string)."""
    a, b = (
        Operand(x.dtype.removesuffix("*"), DIMENSIONED) if _weak_tensor(x) else x for x in (a, b)
    )
    if "string" in (a.dtype, b.dtype):
        if a.dtype == b.dtype:
            return Outcome("string", "string", "two strings: TensorFlow's own rule")
        return refuse("numpy", f"NumPy has no promotion of {ref(a.dtype)} with {ref(b.dtype)}")
    if "bfloat16" in (a.dtype, b.dtype):
        release = opts.get("ml_dtypes") or POLICY.options[-1].choices[-1]
        out = _NUMPY.promote(a, b, {"ml_dtypes": release})
        if out.result is None:
            return refuse("numpy", f"np.result_type with ml_dtypes {release}: {out.why}")
        return Outcome(
            out.result,
            "numpy",
            f"np.result_type with ml_dtypes {release}'s bfloat16: {ref(out.result)}",
        )
    return _NUMPY.promote(a, b, {})


def _weak_tensor(op: Operand) -> bool:
    return (
        op.category == PYTHON
        and is_weak(op.dtype)
        and op.dtype not in ("int*", "float*", "complex*")
    )


def as_bools(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``tnp.logical_and`` casts each operand to bool: there is nothing to promote. Inside
    ``tf.function`` a string tensor with a Python scalar is declined: the graph's optimizer
    folds ``x and False`` to False and never casts the string, so the answer is bool when the
    scalar is False as a bool (``False``, ``0``, ``1j``: a complex by its real part) and the
    refusal otherwise (measured with every value of verify's), and the pair sees no value."""
    if opts.get("function") and "string" in (a.dtype, b.dtype):
        scalar = next((x for x in (a, b) if _python_scalar(x)), None)
        if scalar is not None:
            return refuse(
                DECLINED,
                f"not modelled: inside tf.function, tnp.logical_and of a {ref('string')} tensor"
                f" and a Python scalar ({ref(scalar.dtype)}) is {ref('bool')} where the scalar"
                " is False as a bool (x and False is folded: the string is never cast), else"
                " refused (Cast string to bool is not supported): it depends on the value",
            )
    for x in (a, b):
        if x.dtype == "string":
            return refuse("cast", f"TensorFlow cannot cast {ref('string')} to {ref('bool')}")
    return Outcome("bool", "cast", "each operand is cast to bool")


def tensor_operator(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """A tensor's operator (``a + b``, ``a == b``): the tensorflow policy's promotion (the
    mode's), refused where TensorFlow cannot convert a Python bool to the tensor's dtype (or,
    in legacy mode, another type to a string tensor)."""
    refused = _bool_unconverted(a, b, opts) or legacy_string_refused(a, b, opts)
    return refused if refused is not None else POLICY.promote(a, b, opts)


def _bool_unconverted(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome | None:
    """``python_bool_refused``, eagerly: "Cannot convert True to EagerTensor" is the eager
    conversion's; inside ``tf.function`` a Python bool becomes a graph constant of the tensor's
    dtype (``uint8_tensor == True`` is bool there)."""
    return None if opts.get("function") else python_bool_refused(a, b)


def legacy_promotion(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """mode=legacy's ``tnp.equal``, ``less``, ``matmul``, ``where``: the policy's promotion
    (``np.result_type``), refused where it makes a string of a string and another operand,
    which TensorFlow cannot cast to a string tensor."""
    refused = legacy_string_refused(a, b, opts)
    return refused if refused is not None else POLICY.promote(a, b, opts)


def bool_multiply(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``a * b``: with a bool tensor on either side, ``tf.Tensor.__mul__`` casts both operands
    to int32, multiplies and casts the product back to bool (a logical and), whatever the other
    operand is; else the operators' promotion (``tensor_operator``)."""
    if not any(x.category != PYTHON and x.dtype == "bool" for x in (a, b)):
        return tensor_operator(a, b, opts)
    if "string" in (a.dtype, b.dtype):
        return refuse("cast", f"TensorFlow cannot cast {ref('string')} to {ref('int32')}")
    return Outcome(
        "bool", "cast", f"a {ref('bool')} tensor's * casts both to {ref('int32')} and back"
    )


# The tensor dtypes TensorFlow converts each Python scalar to (``convert_to_tensor(x, dtype)``),
# by kind: an int is no bool, a float no integer, a complex nothing real; a Python bool goes
# to every dtype but the ones ``python_bool_refused`` names.
_CONVERTS = {
    "bool": ("bool", "uint", "int", "float", "complex"),
    "int*": ("uint", "int", "float", "complex"),
    "float*": ("float", "complex"),
    "complex*": ("complex",),
}


def as_tensor_dtype(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``a != b``, ``a < b`` (and ``<=``, ``>``, ``>=``), ``a & b``: no promotion, the legacy
    conversion. Two tensors (WeakTensors too) must have one dtype; a Python scalar is
    converted to the tensor's dtype, where it converts (``_CONVERTS``). Two Python scalars
    are no tensor's operator: the policy's promotion answers, as for ``==``."""
    if _python_scalar(a) and _python_scalar(b):
        return tensor_operator(a, b, opts)
    if not any(map(_python_scalar, (a, b))):
        left, right = (x.dtype.removesuffix("*") for x in (a, b))
        if left != right:
            return refuse(
                "same-dtype",
                f"TensorFlow does not promote here: the operands must have one dtype"
                f" ({ref(left)} and {ref(right)} differ)",
            )
        return Outcome(left, "same-dtype", f"both operands are {ref(left)}")
    scalar, tensor = (a, b) if _python_scalar(a) else (b, a)
    t = tensor.dtype.removesuffix("*")
    refused = _bool_unconverted(scalar, tensor, opts)
    if refused is not None:
        return refused
    if dtype_info(t).kind not in _CONVERTS[scalar.dtype]:
        return refuse(
            "conversion",
            f"TensorFlow cannot convert a Python scalar ({ref(scalar.dtype)}) to a tensor of"
            f" {ref(t)}",
        )
    return Outcome(t, "conversion", f"the Python scalar is converted to the tensor's {ref(t)}")


def as_left_dtype(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``a & b``, ``a | b``, ``a ^ b``: ``as_tensor_dtype``, but a Python scalar on the left
    is refused: TensorFlow's ``and_``, ``or_`` and ``xor_`` read the left operand's
    ``.dtype`` (AttributeError), the reflected method included."""
    if _python_scalar(a) and not _python_scalar(b):
        return refuse(
            "operator",
            "TensorFlow raises AttributeError: its and_/or_/xor_ read the left operand's dtype,"
            " which a Python scalar has not",
        )
    return as_tensor_dtype(a, b, opts)


def _python_scalar(x: Operand) -> bool:
    """A Python scalar proper (a WeakTensor, ``int32*``, is a tensor of its dtype)."""
    return x.category == PYTHON and x.dtype in _CONVERTS


PAIRS: Mapping[str, Pair] = {
    "numpy_result_type": Pair(numpy_result_type, "np.result_type"),
    "as_bools": Pair(as_bools, "a cast to bool"),
    "tensor_operator": Pair(tensor_operator, "the tensorflow policy, as tf.Tensor converts"),
    "legacy_promotion": Pair(legacy_promotion, "np.result_type, no string with another type"),
    "bool_multiply": Pair(bool_multiply, "the tensorflow policy, a bool tensor's * a logical and"),
    "as_tensor_dtype": Pair(as_tensor_dtype, "no promotion: the tensor's dtype"),
    "as_left_dtype": Pair(as_left_dtype, "no promotion: the left tensor's dtype"),
}
