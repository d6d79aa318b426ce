"""The special cases of Keras's operations (``Rule.special``), decided before the promotion:
what a backend does that its pair rule and the kind cannot say, each measured (see
``operations.py``). ``SPECIALS`` names them for the rules (``backends.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.keras.convert import FLOAT8, convert, storage
from promote_cli.frameworks.keras.pairs import torch_tensors
from promote_cli.frameworks.torch import promotion as torch_policy
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.ops import NO_KERNEL, SpecialFunction

_SHIFTABLE = frozenset({"uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"})
# The dtypes TensorFlow converts a Python 1 or True to (float8: no cast at all).
_TF_TAKES = {
    "int*": _SHIFTABLE | {"bfloat16", "float16", "float32", "float64", "complex64", "complex128"},
    "bool": frozenset(
        {"uint64", "int32", "int64", "bool", "float16", "float32", "float64", "complex128"}
    ),
}


def python_shift(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's and tensorflow's ``bitwise_left_shift(x, y)`` with a Python int or bool ``y``:
    ``y`` is not converted, the backend shifts ``x`` (converted) by it, in ``x``'s dtype."""
    x, y = operands
    if y.category != PYTHON or y.dtype not in ("int*", "bool") or x.category == PYTHON:
        return None
    backend = opts["backend"]
    made = convert(x, backend, opts["floatx"])
    if isinstance(made, Outcome):
        return made
    t, amount = made.dtype, "True" if y.dtype == "bool" else "1"
    why = f"a Python {amount} is not converted: {ref(t)} is shifted by it"
    if backend == "tensorflow":
        if t not in _TF_TAKES[y.dtype]:
            return refuse("conversion", f"TensorFlow cannot convert {amount} to {ref(t)}")
        if t not in _SHIFTABLE:
            return refuse("op-refuses", f"tf.bitwise.left_shift does not accept {ref(t)}")
        return Outcome(t, "python-shift", why)
    if t == "bool":  # NumPy's own left_shift of a bool array by a Python int or bool
        out = "int64" if y.dtype == "int*" else "int8"
        return Outcome(out, "python-shift", f"{why}: np.left_shift gives {ref(out)}")
    if t not in _SHIFTABLE:
        return refuse("op-refuses", f"np.left_shift does not accept {ref(t)}")
    return Outcome(t, "python-shift", why)


def torch_shift(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``bitwise_left_shift(x, y)`` with a Python int or bool ``y``: ``y`` stays a
    Python scalar, so torch promotes ``x`` with it (a bool ``x`` by ``1`` is int64)."""
    x, y = operands
    if y.category != PYTHON or y.dtype not in ("int*", "bool") or x.category == PYTHON:
        return None
    stored = storage(x, "torch")
    if isinstance(stored, Outcome):
        return stored
    out = torch_policy.result_type([Operand(stored, x.category), y])
    if out.result is None:
        return out
    t = out.result
    if dtype(t).kind in ("float", "complex"):
        return refuse("op-refuses", f"torch.bitwise_left_shift does not accept {ref(t)}")
    why = f"a Python {y.dtype.rstrip('*')} shift stays a Python scalar: {out.why}"
    if t == "bool":
        return Outcome(t, NO_KERNEL, f"{why}; torch has no CPU kernel of bool left shift")
    return Outcome(t, "python-shift", why)


def float8_by_scalar(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's float8 ``multiply`` has a kernel for two full tensors only: with a 0-d tensor or
    a Python scalar second it has none ("mul_cpu_reduced_float" not implemented)."""
    x, y = operands
    out = torch_tensors(x, y, opts)
    if out.result in FLOAT8 and y.category != DIMENSIONED:
        return Outcome(out.result, NO_KERNEL, f"{out.why}; no CPU kernel of float8 by a scalar")
    return None


def float8_same(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch runs ``floor_divide``, ``maximum``, ``minimum``, ``remainder`` of two float8
    operands of one dtype before Keras looks at the dtypes, and has no CPU kernel for it."""
    x, y = operands
    if x.dtype == y.dtype and x.dtype in FLOAT8:
        return Outcome(
            x.dtype, NO_KERNEL, f"torch has no CPU kernel for {ref(x.dtype)} (a gap, not a rule)"
        )
    return None


def float8_mod(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``mod``: Keras's ``result_type`` refuses a float8 operand beside another dtype;
    two of one float8 dtype reach torch, which has no CPU kernel for them."""
    decided = float8_same(operands, opts)
    if decided is None and any(x.dtype in FLOAT8 for x in operands):
        return refuse("float8", "Keras has no implicit conversion from float8 types")
    return decided


def int8_matmul(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's, openvino's and torch's matmul of two int8 arrays is int32 (Keras aligns it with
    JAX)."""
    if all(x.dtype == "int8" for x in operands):
        return Outcome("int32", "int8-matmul", "int8 @ int8 is int32 (Keras matches JAX)")
    return None


def integer_pow(operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome | None:
    """jax's ``power(x1, x2)`` with ``x2`` a 0-d integer or bool array: ``jnp.power`` sees a
    concrete integer exponent and takes ``lax.integer_pow``, so the result is ``x1``'s dtype as
    converted (bool: int32), whatever ``x2``'s."""
    x1, x2 = operands
    if x2.category != ZERO_D or dtype(x2.dtype).kind not in ("bool", "int", "uint"):
        return None
    t = convert(x1, "jax", opts["floatx"])
    if isinstance(t, Outcome):
        return t
    out = "int32" if t.dtype == "bool" else t.dtype
    return Outcome(
        out, "integer-pow", f"a concrete integer exponent: lax.integer_pow keeps x1's {ref(out)}"
    )


SPECIALS: Mapping[str, SpecialFunction] = {
    "python_shift": python_shift,
    "torch_shift": torch_shift,
    "float8_by_scalar": float8_by_scalar,
    "float8_same": float8_same,
    "float8_mod": float8_mod,
    "int8_matmul": int8_matmul,
    "integer_pow": integer_pow,
}
