"""How each Keras backend makes an operand into a tensor before an operation computes with it:
the dtype an array is stored in, a Python scalar made a tensor of its own (``convert_to_tensor``),
or kept as a Python scalar. The pair rules (``pairs.py``) and special cases (``specials.py``)
of Keras's operations start from these; each is measured (see ``operations.py``)."""

from __future__ import annotations

from promote_cli.engine import Outcome, refuse
from promote_cli.frameworks.keras.promotion import (
    NARROW,
    TORCH_STORES,
    Typed,
    python_scalar,
    result_type,
)
from promote_cli.operands import PYTHON, ZERO_D, Operand

FLOAT8 = ("float8_e4m3fn", "float8_e5m2")
# A Python scalar made a tensor on its own: on tensorflow, and on jax (jnp.asarray(x), no x64).
_STRONG_TF = {"bool": "bool", "int*": "int32", "float*": "float32", "complex*": "complex64"}
_JAX_SCALAR = {"bool": "bool", "int*": "int32", "float*": "float32", "complex*": "complex64"}
# openvino's get_ov_output of a Python scalar with no type (True is an int there).
_OV_SCALAR = {"bool": "int32", "int*": "int32", "float*": "float32"}


def width(floatx: str) -> str:
    """``result_type(int, float)``'s float: Keras reads only floatx's width (bfloat16: float16)."""
    return "float32" if floatx == "float32" else "float16"


def storage(x: Operand, backend: str) -> str | Outcome:
    """The dtype an array holds: its own, but on torch uint16 and uint32 are stored as int32 and
    int64, and uint64 cannot be stored; on jax (no x64) each 64-bit type is made 32-bit."""
    if backend == "jax":
        return NARROW.get(x.dtype, x.dtype)
    if backend != "torch":
        return x.dtype
    if x.dtype == "uint64":
        return refuse("backend", "Keras's torch backend cannot store uint64")
    return TORCH_STORES.get(x.dtype, x.dtype)


def torch_made(x: Operand, floatx: str, keep: bool) -> Operand | Outcome:
    """An operand as the torch backend hands it to torch: an array as stored, a Python scalar
    kept (``keep``: ``divide``'s ``isinstance(x, (int, float))``) or made a 0-d tensor (bool,
    int32, ``floatx``, complex64)."""
    if x.category == PYTHON:
        if keep and x.dtype != "complex*":
            return x
        scalar = {"bool": "bool", "int*": "int32", "float*": floatx, "complex*": "complex64"}
        return Operand(scalar[x.dtype], ZERO_D)
    t = storage(x, "torch")
    return t if isinstance(t, Outcome) else Operand(t, x.category)


def ov_scalar(x: Operand) -> Typed | Outcome:
    """A Python scalar as openvino makes it a constant: True and 1 int32, 1.0 float32."""
    if x.dtype == "complex*":
        return refuse("backend", "Keras's openvino backend makes no constant of a Python complex")
    return Typed(_OV_SCALAR[x.dtype])


def convert(x: Operand, backend: str, floatx: str) -> Typed | Outcome:
    """An operand as ``convert_to_tensor`` makes it on its own (a strong dtype)."""
    if backend == "openvino":
        return ov_scalar(x) if x.category == PYTHON else Typed(x.dtype)
    if backend == "torch":
        made = torch_made(x, floatx, False)
        return made if isinstance(made, Outcome) else Typed(made.dtype)
    if backend == "tensorflow":
        return Typed(_STRONG_TF[x.dtype] if x.category == PYTHON else x.dtype)
    if backend == "jax":
        if x.category != PYTHON:
            return Typed(NARROW.get(x.dtype, x.dtype))
        # jnp.asarray(x): Keras reads its dtype, not its weak flag; under bfloat16 astype(None)
        return Typed("float32" if floatx == "bfloat16" else _JAX_SCALAR[x.dtype])
    if x.category != PYTHON:
        alone = result_type([Typed(x.dtype)], backend, floatx)
    elif floatx == "bfloat16":  # np.asarray(x).astype(None): float64
        alone = result_type([Typed("float64")], backend, floatx)
    else:
        alone = result_type([python_scalar(x, backend)], backend, floatx)
    return alone if alone.result is None else Typed(alone.result)
