"""Keras 3: what ``keras.ops.add`` computes eagerly, per backend and per ``floatx``.

Source: ``keras/src/backend/common/dtypes.py`` (Keras 3.15.1: ``_type_promotion_lattice``,
``_lattice_result_type``, ``BIT64_TO_BIT32_DTYPE``) and each backend's ``add``, measured on all
five backends Keras supports (jax, torch, tensorflow, numpy, openvino) x the three ``floatx``
settings: every pair of every operand category.

Keras declares a rule, ``keras.backend.result_type``: the least upper bound on the lattice
below (JAX's, with an edge from the weak int to complex64 and no weak complex), where a Python
int or float is weak and a Python bool and complex are strong (bool, complex64); a weak result
takes ``floatx``'s width (int32/float32, or int16/float16 under float16 and bfloat16: Keras
reads only the width); 64-bit results are then narrowed (uint64 -> uint32, complex128 ->
complex64, and except on TensorFlow int64 -> int32, float64 -> float32); any float8 operand is
refused. Only some backends' ``add`` apply it, so this policy answers the operation, as a user
running a model eagerly sees it (options ``backend`` and ``floatx``, Keras's defaults
tensorflow and float32):

- numpy: each tensor is first converted on its own (``result_type`` of its one dtype, which
  narrows 64-bit types and refuses float8), then ``result_type`` of the two: ``uint64 x int8``
  is int32 (declared: float32).
- tensorflow: the declared rule. TensorFlow's CPU ``add`` has no bool kernel: bool + bool is
  answered bool (a missing kernel is not a promotion rule); a Python ``True`` with a complex64
  or bfloat16 tensor fails to convert and is refused.
- openvino: the declared rule; the backend has no complex types (refused).
- jax: Keras does not promote; ``jnp.add`` does, on arrays made without x64 (64-bit types
  become 32-bit): the ``jax`` policy with ``x64=false``, its weak results materialised.
- torch: Keras does not promote; ``torch.add`` does, on tensors where uint16 is stored as int32
  and uint32 as int64 (uint64 cannot be stored) and a Python scalar becomes a 0-d tensor
  (bool, int32, ``floatx``, complex64): the ``torch`` policy, with its categories, so 0-d
  tensors are special on this backend only. A complex32 result (float16 + 1j) is refused
  because Keras has no complex32; float8 + float8 is answered float8 although torch's CPU add
  has no float8 kernel.

``floatx=bfloat16`` has a bug on jax and numpy that this policy reproduces: a non-tensor operand
is converted with ``astype(None)``, i.e. to float32 on jax (every Python scalar becomes a strong
float32 array, ``int8 + 1 = float32``) and, on numpy, a Python complex to float64 (its
imaginary part dropped). Python ints are not looked at by value (torch makes a large one int64).

Where ``keras.backend.result_type`` differs, and why the policy follows the op: symbolic
tensors (a functional model being built) get ``result_type``'s answer, eager calls the
backend's; they differ on every backend (jax and torch in 58 to 170 of 425 cells), and the
tensors a model computes with have the op's types. ``result_type(a, b, c)`` is also one least
bound, where a chain of ``add`` (this policy's n-ary answer) is a left fold.

Where it departs from JAX (its model): the declared rule refuses float8 with everything, meets
``uint64 x int8`` at the weak float (JAX without x64 narrows first: int32), keeps a Python
complex strong, and narrows 64-bit results; on the jax backend it is JAX without x64.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.dtypes import is_weak
from promote_cli.engine import SYMMETRIC, Outcome, Policy, ref, refuse
from promote_cli.frameworks.jax import promotion as jax
from promote_cli.frameworks.keras import FRAMEWORK
from promote_cli.frameworks.torch import promotion as torch
from promote_cli.lattice import Lattice, read_edges
from promote_cli.notations import CANONICAL
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.record import Record

TYPES = (
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "float8_e4m3fn",
    "float8_e5m2",
)
BACKENDS = ("tensorflow", "jax", "torch", "numpy", "openvino")
FLOATX = ("float32", "float16", "bfloat16")

# _type_promotion_lattice; int* and float* are Keras's weak "int" and "float".
_EDGES = """
bool        int*
int*        uint8 int8 complex64
uint8       int16 uint16
uint16      int32 uint32
uint32      int64 uint64
uint64      float*
int8        int16
int16       int32
int32       int64
int64       float*
float*      bfloat16 float16
bfloat16    float32
float16     float32
float32     float64 complex64
float64     complex128
complex64   complex128
complex128
float8_e4m3fn
float8_e5m2
"""
LATTICE = Lattice(read_edges(_EDGES, CANONICAL))

# BIT64_TO_BIT32_DTYPE, and what TensorFlow keeps of it.
NARROW = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
_NARROW_TF = {"uint64": "uint32", "complex128": "complex64"}
_FLOAT8 = frozenset({"float8_e4m3fn", "float8_e5m2"})
# How the torch backend stores Keras's unsigned types.
TORCH_STORES = {"uint16": "int32", "uint32": "int64"}
_MATERIALISED = {"int*": "int32", "float*": "float32", "complex*": "complex64"}
_X32 = {"x64": False, "strict": False}


class Typed(Record):
    """An operand as ``result_type`` sees it: a dtype, weak or not."""

    dtype: str
    weak: bool = False


def narrowed(t: str, backend: str) -> str:
    return (_NARROW_TF if backend == "tensorflow" else NARROW).get(t, t)


def result_type(args: Sequence[Typed], backend: str, floatx: str) -> Outcome:
    """``keras.backend.result_type`` over ``args``, as Keras computes it on ``backend``."""
    eight = [a.dtype for a in args if a.dtype in _FLOAT8]
    if eight:
        return refuse(
            "float8", f"Keras has no implicit conversion from float8 types such as {ref(eight[0])}"
        )
    kinds = {a.dtype for a in args}
    if len(kinds) == 1 and not all(a.weak for a in args):
        top, weak, why = args[0].dtype, False, "one dtype"
    elif all(a.weak for a in args):
        top, weak = LATTICE.lub(*kinds), True  # type: ignore[assignment]
        why = f"Python scalars only: {LATTICE.explain(list(kinds), top)}"
    else:
        nodes = [_weak_node(a) for a in args]
        top = LATTICE.lub(*nodes)  # type: ignore[assignment]
        if top is None:
            return refuse("lattice", f"{' and '.join(map(ref, nodes))} have no common type")
        weak, why = is_weak(top), LATTICE.explain(nodes, top)
    result = top
    if weak and top != "bool":
        result = _floatx_width(top, floatx)
        why += f"; a weak result takes floatx's width: {ref(result)}"
    final = narrowed(result, backend)
    if final != result:
        why += f"; Keras narrows 64-bit {ref(result)} to {ref(final)}"
    return Outcome(final, "result_type", why)


def _weak_node(a: Typed) -> str:
    if not a.weak:
        return a.dtype
    return "float*" if dtype(a.dtype).is_float else "int*"


def _floatx_width(t: str, floatx: str) -> str:
    # Keras takes floatx()[-2:], so bfloat16 gives 16-bit results too (float16, not bfloat16).
    bits = floatx[-2:]
    kind = "float" if t == "float*" or dtype(t).is_float else "int"
    return f"{kind}{bits}"


def python_scalar(op: Operand, backend: str) -> Typed:
    """A Python scalar as Keras types it: int and float weak, bool and complex strong."""
    return {
        "bool": Typed("bool"),
        "int*": Typed("int64" if backend == "tensorflow" else "int32", weak=True),
        "float*": Typed("float32", weak=True),
        "complex*": Typed("complex128" if backend == "tensorflow" else "complex64"),
    }[op.dtype]


def _declared(a: Operand, b: Operand, backend: str, floatx: str) -> Outcome:
    """numpy, tensorflow, openvino: Keras converts each operand, then applies result_type."""
    args = []
    for op in (a, b):
        if op.category != PYTHON:
            if backend != "numpy":
                args.append(Typed(op.dtype))
                continue
            alone = result_type([Typed(op.dtype)], backend, floatx)  # convert_to_tensor
            if alone.refused:
                return alone
            args.append(Typed(alone.result))  # type: ignore[arg-type]
        elif op.dtype in ("int*", "float*"):
            args.append(python_scalar(op, backend))
        elif op.dtype == "complex*" and backend == "numpy" and floatx == "bfloat16":
            # np.asarray(1j).astype(None): float64, the imaginary part dropped.
            args.append(Typed("float64"))
        else:
            args.append(Typed(narrowed(python_scalar(op, backend).dtype, backend)))
    out = result_type(args, backend, floatx)
    if out.refused:
        return out
    if backend == "openvino" and any(dtype(t.dtype).is_complex for t in args):
        return refuse("backend", "Keras's openvino backend has no complex types")
    if backend == "tensorflow":
        if out.result in ("complex64", "bfloat16") and Operand("bool", PYTHON) in (a, b):
            return refuse(
                "conversion",
                f"the result would be {ref(out.result)}, but TensorFlow cannot convert a"
                " Python bool to it",
            )
        if out.result == "bool":
            return Outcome(
                "bool",
                out.rule,
                out.why + "; TensorFlow's CPU add has no bool kernel (a missing kernel, not a"
                " refusal)",
            )
    return out


def _jax(a: Operand, b: Operand, backend: str, floatx: str) -> Outcome:
    """jax: jnp.add on the arrays Keras made (no x64), as the jax policy without x64 answers."""

    def made(op: Operand) -> Operand:
        if op.category == PYTHON:
            # floatx=bfloat16: jnp.asarray(x).astype(None) makes every scalar strong float32.
            return Operand("float32") if floatx == "bfloat16" else op
        return Operand(NARROW.get(op.dtype, op.dtype))  # arrays made without x64

    out = jax.POLICY.promote(made(a), made(b), _X32)
    if out.result is None:
        return refuse(out.rule, f"jnp.add without x64: {out.why}")
    result = _MATERIALISED.get(out.result, out.result)
    return Outcome(result, "jax", f"jnp.add without x64: {out.why}, an array of {ref(result)}")


def _torch(a: Operand, b: Operand, backend: str, floatx: str) -> Outcome:
    """torch: torch.add on the tensors Keras made, by the torch policy's categories."""

    def made(op: Operand) -> Operand | Outcome:
        if op.category == PYTHON:
            scalar = {"bool": "bool", "int*": "int32", "float*": floatx, "complex*": "complex64"}
            return Operand(scalar[op.dtype], ZERO_D)
        if op.dtype == "uint64":
            return refuse("backend", "Keras's torch backend cannot store uint64")
        return Operand(TORCH_STORES.get(op.dtype, op.dtype), op.category)

    x, y = made(a), made(b)
    for m in (x, y):
        if isinstance(m, Outcome):
            return m
    out = torch.result_type([x, y])  # type: ignore[list-item]
    if out.refused:
        return out
    why = f"torch.add: {out.why}"
    if out.result == "complex32":
        return refuse("backend", f"{why}; Keras has no complex32 and rejects the result")
    if out.result in _FLOAT8:
        why += "; torch's CPU add has no float8 kernel (a missing kernel, not a refusal)"
    return Outcome(out.result, "torch", why)


_BY_BACKEND: dict[str, Callable[[Operand, Operand, str, str], Outcome]] = {
    "numpy": _declared,
    "tensorflow": _declared,
    "openvino": _declared,
    "jax": _jax,
    "torch": _torch,
}


class KerasPolicy(Policy, framework=FRAMEWORK):
    universe = TYPES
    default_types = TYPES
    categories = frozenset({DIMENSIONED, ZERO_D, PYTHON})  # 0-d matters on torch only
    # Not IDEMPOTENT: 64-bit types narrow (float64 x float64 = float32 but on TensorFlow).
    properties = frozenset({SYMMETRIC})

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        backend = opts["backend"]
        return _BY_BACKEND[backend](a, b, backend, opts["floatx"])


POLICY = KerasPolicy()
