"""The two pair rules inside ``tnp`` other than the tensorflow policy's (``Rule.pair``): its
arithmetic calls NumPy's ``np.result_type``, and ``logical_and`` casts each operand to bool.
``PAIRS`` names them for the rules (see ``operations.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.dtypes import is_weak
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.numpy import promotion as numpy_policy
from promote_cli.operands import DIMENSIONED, PYTHON, Operand
from promote_cli.ops import Pair

# bfloat16 in np.result_type (ml_dtypes): what it promotes to with each type it promotes with.
_BFLOAT16 = {
    "bool": "bfloat16",
    "uint8": "bfloat16",
    "int8": "bfloat16",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float64": "float64",
    "complex64": "complex64",
    "complex128": "complex128",
    "int*": "bfloat16",
    "float*": "float64",
    "complex*": "complex64",
}
_NUMPY = numpy_policy.POLICY


def numpy_result_type(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``np.result_type`` as ``tnp``'s arithmetic calls it: a WeakTensor (``int32*``) as its
    plain dtype, a Python scalar weak (NEP 50), ml_dtypes' bfloat16 beside NumPy's types; two
    strings fall back to TensorFlow's own rule (string)."""
    a, b = (
        Operand(x.dtype.removesuffix("*"), DIMENSIONED) if _weak_tensor(x) else x for x in (a, b)
    )
    if "string" in (a.dtype, b.dtype):
        if a.dtype == b.dtype:
            return Outcome("string", "string", "two strings: TensorFlow's own rule")
        return refuse("numpy", f"NumPy has no promotion of {ref(a.dtype)} with {ref(b.dtype)}")
    if "bfloat16" in (a.dtype, b.dtype):
        other = b.dtype if a.dtype == "bfloat16" else a.dtype
        result = _BFLOAT16.get(other)
        if result is None:
            return refuse(
                "numpy", f"np.result_type has no promotion of {ref('bfloat16')} with {ref(other)}"
            )
        return Outcome(result, "numpy", f"np.result_type with ml_dtypes' bfloat16: {ref(result)}")
    return _NUMPY.promote(a, b, {})


def _weak_tensor(op: Operand) -> bool:
    return (
        op.category == PYTHON
        and is_weak(op.dtype)
        and op.dtype not in ("int*", "float*", "complex*")
    )


def as_bools(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``tnp.logical_and`` casts each operand to bool: there is nothing to promote."""
    for x in (a, b):
        if x.dtype == "string":
            return refuse("cast", f"TensorFlow cannot cast {ref('string')} to {ref('bool')}")
    return Outcome("bool", "cast", "each operand is cast to bool")


PAIRS: Mapping[str, Pair] = {
    "numpy_result_type": Pair(numpy_result_type, "np.result_type"),
    "as_bools": Pair(as_bools, "a cast to bool"),
}
