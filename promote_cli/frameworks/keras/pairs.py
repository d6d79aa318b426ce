"""The pair rules of Keras's operations (``Rule.pair``): the promotion an operation starts
from. ``added`` is ``keras.ops.add``'s, which most binary operations start from (the keras
policy's own pairs answer ``keras.backend.result_type``, which the operations do not apply);
the others are where a backend converts its operands otherwise than ``keras.ops.add`` does.
Each is measured (see ``operations.py``, whose docstring says which backend's functions use
which); ``PAIRS`` names them for the rules (``backends.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.keras import promotion
from promote_cli.frameworks.keras.convert import convert, ov_scalar, storage, torch_made
from promote_cli.frameworks.keras.promotion import (
    Typed,
    python_scalar,
    result_type,
    torch_result_type,
)
from promote_cli.operands import PYTHON, Operand
from promote_cli.rules import Pair


def added(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``keras.ops.add``'s promotion on the backend (``promotion.added``), a Python int's value
    checked as the backend makes it a tensor."""
    return promotion.added(a, b, opts)


def stored(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """A unary operation's start: the array's own dtype, not narrowed."""
    t = storage(a, opts["backend"])
    if isinstance(t, Outcome):
        return t
    return Outcome(t, "stored", f"the array's own dtype, {ref(t)}")


def declared(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``keras.backend.result_type`` of the two, a Python int or float weak."""
    backend = opts["backend"]
    args: list[Typed] = []
    for x in (a, b):
        if x.category == PYTHON:
            args.append(python_scalar(x, backend))
            continue
        t = storage(x, backend)
        if isinstance(t, Outcome):
            return t
        args.append(Typed(t))
    return result_type(args, backend, opts["floatx"])


def converted(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``result_type`` of the two operands, each converted to a tensor first."""
    backend, floatx = opts["backend"], opts["floatx"]
    args = [convert(x, backend, floatx) for x in (a, b)]
    return _strong(args, opts, "each operand converted first")


def raw(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """numpy's ``equal``, ``less``, ``logical_and``: NumPy's function on the operands as given,
    no Keras conversion (float8 included): the output is bool whatever they are."""
    return Outcome("bool", "raw", "NumPy's own function on the operands as given, no promotion")


def torch_tensors(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """torch's own promotion of the tensors Keras made (complex32 included)."""
    return _torch(a, b, opts, keep=False)


def torch_kept(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """torch's own promotion, a Python bool, int or float kept a Python scalar (``divide``)."""
    return _torch(a, b, opts, keep=True)


def _torch(a: Operand, b: Operand, opts: Mapping[str, Any], keep: bool) -> Outcome:
    made = _made(a, b, opts, keep)
    if isinstance(made, Outcome):
        return made
    out = torch_result_type(made)
    return out if out.refused else out._replace(why=f"torch's promotion: {out.why}")


def _made(a: Operand, b: Operand, opts: Mapping[str, Any], keep: bool) -> list[Operand] | Outcome:
    """The two operands as the torch backend hands them to torch, or why it cannot."""
    made = []
    for x in (a, b):
        m = torch_made(x, opts["floatx"], keep)
        if isinstance(m, Outcome):
            return m
        made.append(m)
    return made


def torch_subtract(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """torch's ``subtract``: a bool operand is cast to the other's dtype first."""
    made = _made(a, b, opts, keep=False)
    if isinstance(made, Outcome):
        return made
    x, y = made
    if x.dtype == "bool":
        x = Operand(y.dtype, x.category)
    if y.dtype == "bool":
        y = Operand(x.dtype, y.category)
    return torch_result_type([x, y])


def jnp_as_given(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """jax's ``where`` (``jnp.where`` on the operands as given) and ``bitwise_left_shift`` by a
    Python int or bool (not converted): JAX's promotion without x64, the Python scalar weak even
    under ``floatx=bfloat16`` (no ``astype(None)``), the result an array."""
    out = added(a, b, {**opts, "floatx": "float32"})
    return out if out.refused else out._replace(why=f"the Python scalar not converted: {out.why}")


def jax_shift(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """jax's ``bitwise_left_shift(x, y)``: ``y`` a Python int or bool is not converted."""
    if b.category == PYTHON and b.dtype in ("int*", "bool"):
        return jnp_as_given(a, b, opts)
    return added(a, b, opts)


def _strong(args: Sequence[Typed | Outcome], opts: Mapping[str, Any], why: str) -> Outcome:
    """``result_type`` of operands already made tensors (strong), or the first refusal."""
    typed = []
    for x in args:
        if isinstance(x, Outcome):
            return x
        typed.append(x)
    out = result_type(typed, opts["backend"], opts["floatx"])
    return out if out.refused else out._replace(why=f"{why}: {out.why}")


def like_tensor(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """openvino's ``where``: a Python scalar takes the other operand's dtype, unless that is bool
    or the scalar is a float and the dtype an integer (then it is int32 or float32)."""

    def literal(x: Operand, other: Operand) -> Typed | Outcome:
        if x.category != PYTHON:
            return Typed(x.dtype)
        integral = dtype(other.dtype).kind in ("int", "uint")
        if (
            other.category == PYTHON
            or x.dtype == "complex*"
            or other.dtype == "bool"
            or (x.dtype == "float*" and integral)
        ):
            return ov_scalar(x)
        return Typed(other.dtype)

    if a.category == PYTHON:
        args = [literal(a, b), ov_scalar(b) if b.category == PYTHON else Typed(b.dtype)]
    else:
        args = [Typed(a.dtype), literal(b, a)]
    return _strong(args, opts, "a Python scalar takes the tensor's dtype")


def tensor_typed(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """openvino's ``bitwise_left_shift``: a Python scalar is made in the dtype of the (last)
    tensor operand."""
    tensors = [x for x in (a, b) if x.category != PYTHON]
    element = tensors[-1].dtype if tensors else None
    args = [
        Typed(element)
        if x.category == PYTHON and element and x.dtype != "complex*"
        else convert(x, "openvino", "")
        for x in (a, b)
    ]
    return _strong(args, opts, "a Python scalar is made in the tensor's dtype")


def each_bool(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """openvino's ``logical_and``: each operand converted to bool, no promotion; the backend has
    no complex type."""
    for x in (a, b):
        if dtype(x.dtype).kind == "complex":
            return refuse("backend", "Keras's openvino backend has no complex types")
    return Outcome("bool", "each-bool", "each operand is converted to bool, no promotion")


def ov_floor_divide(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """openvino's ``floor_divide``: a bool ``x1`` becomes int32; with a Python ``x2`` both take
    ``x1``'s dtype (floatx when ``x1`` is an integer and ``x2`` a float); else result_type."""
    first = convert(a, "openvino", "")
    if isinstance(first, Outcome):
        return first
    t = "int32" if first.dtype == "bool" else first.dtype
    if b.category == PYTHON and b.dtype != "complex*":
        if b.dtype == "float*" and dtype(t).kind in ("int", "uint"):
            t = opts["floatx"]
        return Outcome(t, "python-divisor", f"a Python divisor takes x1's dtype: {ref(t)}")
    return _strong([Typed(t), convert(b, "openvino", "")], opts, "x1 as int32 if bool")


PAIRS: Mapping[str, Pair] = {
    "added": Pair(added, "keras.ops.add's promotion"),
    "stored": Pair(stored, "the array's own dtype"),
    "declared": Pair(declared, "keras.backend.result_type, a Python int or float weak"),
    "converted": Pair(converted, "each operand converted to a tensor first"),
    "raw": Pair(raw, "NumPy's own function on the operands as given"),
    "torch_tensors": Pair(torch_tensors, "torch's promotion of the tensors Keras made"),
    "torch_kept": Pair(torch_kept, "torch's promotion, a Python scalar kept"),
    "torch_subtract": Pair(torch_subtract, "torch's promotion, a bool cast to the other dtype"),
    "jnp_as_given": Pair(jnp_as_given, "jax.numpy's promotion of the operands as given"),
    "jax_shift": Pair(jax_shift, "jax.numpy's promotion, a Python int shift not converted"),
    "like_tensor": Pair(like_tensor, "a Python scalar made in the other operand's dtype"),
    "tensor_typed": Pair(tensor_typed, "a Python scalar made in the tensor's dtype"),
    "each_bool": Pair(each_bool, "each operand converted to bool"),
    "ov_floor_divide": Pair(ov_floor_divide, "x1's dtype for a Python divisor, else result_type"),
}
