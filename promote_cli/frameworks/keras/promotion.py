"""Keras 3: ``keras.backend.result_type``, Keras's own promotion function, per backend and
``floatx``; and what ``keras.ops.add`` computes eagerly on each backend (``added``), which the
operations start from and each step of a chain is.

Source: ``keras/src/backend/common/dtypes.py`` (Keras 3.15.1: ``_type_promotion_lattice``,
``_lattice_result_type``, ``BIT64_TO_BIT32_DTYPE``) and each backend's ``add``, measured on all
five backends Keras supports (jax, torch, tensorflow, numpy, openvino) x the three ``floatx``
settings: every pair of every operand category, triples under both n-ary questions, and Python
values.

**Promotion** (``pair`` with two or more operands, ``promote_many``, the tables) is
``keras.backend.result_type``, the function Keras users call (``result_type(x.dtype, int)``):
the least upper bound on the lattice below (JAX's, with an edge from the weak int to complex64
and no weak complex) of the operands as it is given them, an array's dtype name and a Python
scalar's type: ``int`` and ``float`` weak, ``bool`` and ``complex`` strong (bool, complex64;
complex128 on TensorFlow). A weak result takes ``floatx``'s width (int32/float32, or
int16/float16 under float16 and bfloat16: Keras reads only the width); 64-bit results are then
narrowed (uint64 -> uint32, complex128 -> complex64, and except on TensorFlow int64 -> int32,
float64 -> float32); any float8 operand is refused. It is one bound over all operands, not a
fold. It looks at dtypes only, so a 0-d array is an array and the backend matters only for
TensorFlow's 64-bit types.

**The operation** ``keras.ops.add`` (``promote op add``, and each step of ``--chain``) applies
that rule on some backends only (options ``backend`` and ``floatx``, Keras's defaults
tensorflow and float32):

- numpy: each tensor is first converted on its own (``result_type`` of its one dtype, which
  narrows 64-bit types and refuses float8), then ``result_type`` of the two: ``uint64 x int8``
  is int32 (``result_type``: float32). A Python int is made an array of the sum's dtype
  (``np.asarray(v, dtype)``): ``uint8 + 300`` raises OverflowError.
- tensorflow: the declared rule. ``bool + bool`` is refused: TensorFlow's AddV2 admits no bool
  on any device, so no kernel is missing (a refusal, not a gap); a Python ``True`` with a
  complex64 or bfloat16 tensor fails to convert and is refused; a Python int outside int64
  raises unless the sum is float16, float32 or float64.
- openvino: the declared rule; the backend has no complex types (refused); a Python int outside
  ``[-2**63, 2**64)`` raises with an integer sum.
- jax: Keras does not promote; ``jnp.add`` does, on arrays made without x64 (64-bit types
  become 32-bit): the ``jax`` policy with ``x64=false``, its weak results an array (weakly
  typed: a chain's next step sees the weak flag, ``(int32 + 1.0) + float16`` is float16). A
  Python int outside int32 raises OverflowError.
- torch: Keras does not promote; ``torch.add`` does, on tensors where uint16 is stored as int32
  and uint32 as int64 (uint64 cannot be stored) and a Python scalar becomes a 0-d tensor
  (bool, int32 or int64 for an int outside int32, ``floatx``, complex64): the ``torch`` policy,
  with its categories, so 0-d tensors are special on this backend only. ``float16 + 1j`` is a
  torch complex32 tensor, which Keras cannot name (``standardize_dtype`` refuses it) but
  returns: answered complex32. float8 + float8 is answered float8 although torch's CPU add has
  no float8 kernel (a gap: CUDA has one), and a chain stops there.

``floatx=bfloat16`` has a bug on jax and numpy that ``add`` reproduces: a non-tensor operand
is converted with ``astype(None)``, i.e. to float32 on jax (every Python scalar becomes a strong
float32 array, ``int8 + 1 = float32``) and, on numpy, a Python complex to float64 (its
imaginary part dropped).

Where the two differ: ``result_type`` and ``add`` differ on every backend (measured over all
settings: 1,163 of the 6,375 pairs of arrays and Python scalars, 4,123 of the 19,995 triples
against the chain of ``add``): symbolic tensors (a functional model being built) get
``result_type``'s answer, eager tensors the backend's ``add``.

Where it departs from JAX (its model): the declared rule refuses float8 with everything, meets
``uint64 x int8`` at the weak float (JAX without x64 narrows first: int32), keeps a Python
complex strong, and narrows 64-bit results.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.dtypes import is_weak
from promote_cli.engine import SYMMETRIC, Materialised, Outcome, Policy, ref, refuse
from promote_cli.frameworks.keras import FRAMEWORK
from promote_cli.lattice import Lattice, read_edges
from promote_cli.notations import CANONICAL
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.record import Record
from promote_cli.shared import c10
from promote_cli.shared.jax_lattice import JaxLattice

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
# Why keras.ops.add of two bools raises on tensorflow: a refusal, not a missing kernel.
ADDV2_BOOL = (
    "tf.add (AddV2) admits no bool on any device: TensorFlow's op registry refuses it (\"Value"
    " for attr 'T' of bool is not in the list of allowed values\"), a refusal, not a missing"
    " kernel"
)
# How the torch backend stores Keras's unsigned types.
TORCH_STORES = {"uint16": "int32", "uint32": "int64"}
_MATERIALISED = {"int*": "int32", "float*": "float32", "complex*": "complex64"}
_X32 = {"x64": False, "strict": False}
# The torch release Keras's torch backend was measured with (constraints.txt pins 2.13.0): its
# torch.add promotes as that release's c10 does (promote_cli/shared/c10.py).
TORCH_RELEASE = "2.13"
# JAX's promotion, which jnp.add applies on the jax backend (promote_cli/shared/jax_lattice.py).
_JAX = JaxLattice()


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


def _int_value(op: Operand) -> int | None:
    return op.value if op.dtype == "int*" and isinstance(op.value, int) else None


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
    python_bool = any(op.category == PYTHON and op.dtype == "bool" for op in (a, b))
    if backend == "tensorflow" and python_bool and out.result in ("complex64", "bfloat16"):
        return refuse(
            "conversion",
            f"the result would be {ref(out.result)}, but TensorFlow cannot convert a"
            " Python bool to it",
        )
    for op in (a, b):
        value = _int_value(op)
        if value is not None:
            return _declared_value(value, out, backend) or out
    return out


def value_in(value: int, t: str, backend: str) -> Outcome | None:
    """A Python int made a tensor of ``t`` by numpy, tensorflow or openvino: the refusal, or
    None when it fits (as ``keras.ops.add`` makes it one of the sum's dtype)."""
    return _declared_value(value, Outcome(t, "value", ""), backend)


def _declared_value(value: int, out: Outcome, backend: str) -> Outcome | None:
    """A Python int's value where numpy, tensorflow or openvino make it a tensor of the sum's
    dtype ``out.result`` (None: it fits)."""
    t = out.result
    assert t is not None
    kind = dtype(t).kind
    c_long = -(2**63) <= value < 2**63
    if backend == "tensorflow":  # tf.convert_to_tensor reads the int as int64 first
        if c_long or t in ("float16", "float32", "float64"):
            return None
        return refuse(
            "value",
            f"TensorFlow raises ValueError: it cannot convert the out-of-range integer {value}"
            f" to a tensor of {ref(t)}",
        )
    if backend == "openvino":
        if -(2**63) <= value < 2**64 or kind not in ("bool", "int", "uint"):
            return None
        return refuse("value", "OpenVINO raises OverflowError: Python int too large to convert")
    # numpy: np.asarray(value, dtype=t)
    if kind in ("int", "uint"):
        info = dtype(t)
        bits = info.bits or 0
        low, high = (0, 2**bits) if kind == "uint" else (-(2 ** (bits - 1)), 2 ** (bits - 1))
        if c_long or (t == "uint32" and 0 <= value < 2**64):
            if low <= value < high:
                return None
            return refuse(
                "value",
                f"NumPy raises OverflowError: Python integer {value} out of bounds for {ref(t)}",
            )
        return refuse(
            "value",
            f"NumPy raises OverflowError: Python int {value} too large to convert to C long",
        )
    if t == "bfloat16" and not -(2**63) <= value < 2**64:
        return refuse(
            "value", f"ml_dtypes raises TypeError converting {value} to {ref(t)} (expected number)"
        )
    return None


def torch_result_type(operands: Sequence[Operand]) -> Outcome:
    """``torch.result_type`` of the tensors Keras made on the torch backend, as the torch
    release Keras was measured with answers it."""
    return c10.result_type(operands, TORCH_RELEASE)


def _jax_raw(a: Operand, b: Operand, floatx: str) -> Outcome:
    """jnp.add on the arrays Keras made (no x64), the result as JAX types it (weak or not)."""

    def made(op: Operand) -> Operand:
        if op.category == PYTHON:
            # floatx=bfloat16: jnp.asarray(x).astype(None) makes every scalar strong float32.
            return Operand("float32") if floatx == "bfloat16" else op.typed()
        return Operand(NARROW.get(op.dtype, op.dtype))  # arrays made without x64

    for op in (a, b):
        value = _int_value(op)
        if value is not None and not -(2**31) <= value < 2**31:
            return refuse(
                "value",
                f"JAX raises OverflowError: Python int {value} too large to convert to"
                f" {ref('int32')} (Keras's arrays are made without x64)",
            )
    out = _JAX.promote(made(a), made(b), _X32)
    if out.result is None:
        return refuse(out.rule, f"jnp.add without x64: {out.why}")
    return out


def _jax(a: Operand, b: Operand, backend: str, floatx: str) -> Outcome:
    """jax: jnp.add on the arrays Keras made (no x64), as the jax policy without x64 answers."""
    out = _jax_raw(a, b, floatx)
    if out.result is None:
        return out
    result = _MATERIALISED.get(out.result, out.result)
    return Outcome(result, "jax", f"jnp.add without x64: {out.why}, an array of {ref(result)}")


def _torch(a: Operand, b: Operand, backend: str, floatx: str) -> Outcome:
    """torch: torch.add on the tensors Keras made, by the torch policy's categories."""

    def made(op: Operand) -> Operand | Outcome:
        if op.category == PYTHON:
            value = _int_value(op)
            if value is not None and not -(2**63) <= value < 2**63:
                return refuse(
                    "value",
                    f"torch raises ValueError: Overflow when unpacking long long ({value})",
                )
            scalar = {"bool": "bool", "int*": "int32", "float*": floatx, "complex*": "complex64"}
            if value is not None and not -(2**31) <= value < 2**31:
                return Operand("int64", ZERO_D)  # torch.as_tensor of a large Python int
            return Operand(scalar[op.dtype], ZERO_D)
        if op.dtype == "uint64":
            return refuse("backend", "Keras's torch backend cannot store uint64")
        return Operand(TORCH_STORES.get(op.dtype, op.dtype), op.category)

    x, y = made(a), made(b)
    for m in (x, y):
        if isinstance(m, Outcome):
            return m
    out = torch_result_type([x, y])  # type: ignore[list-item]
    if out.refused:
        return out
    why = f"torch.add: {out.why}"
    if out.result == "complex32":
        why += (
            "; a torch.complex32 tensor, which Keras has no name for"
            " (keras.backend.standardize_dtype refuses it)"
        )
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


def added(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """What ``keras.ops.add(a, b)`` computes eagerly on the backend ``opts["backend"]``: the
    promotion ``add`` and most binary operations start from, and each step of a chain. A Python
    int's value is checked as that backend makes it a tensor."""
    backend = opts["backend"]
    return _BY_BACKEND[backend](a, b, backend, opts["floatx"])


def _typed(op: Operand, backend: str) -> Typed:
    """An operand as ``keras.backend.result_type`` is given it: an array's dtype, a Python
    scalar's type (``int``, ``float`` weak; ``bool``, ``complex`` strong)."""
    return python_scalar(op, backend) if op.category == PYTHON else Typed(op.dtype)


class KerasPolicy(Policy, framework=FRAMEWORK):
    universe = TYPES
    default_types = TYPES
    categories = frozenset({DIMENSIONED, ZERO_D, PYTHON})  # 0-d matters to torch's add only
    # Not IDEMPOTENT: 64-bit types narrow (float64 x float64 = float32 but on TensorFlow).
    properties = frozenset({SYMMETRIC})

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return self.join([a, b], opts)

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """``keras.backend.result_type`` of all operands at once (one least upper bound)."""
        backend = opts["backend"]
        return result_type([_typed(op, backend) for op in operands], backend, opts["floatx"])

    def operate(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """A chain's step is ``keras.ops.add``, not ``result_type``; on tensorflow it refuses
        a bool sum (as the ``add`` rule does)."""
        out = added(a, b, opts)
        if opts["backend"] == "tensorflow" and out.result == "bool":
            return refuse("operator", ADDV2_BOOL)
        return out

    def chain(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """The chain of ``keras.ops.add``, which on the torch backend stops at a float8 sum:
        torch's CPU add has no float8 kernel, so that step raises (the gap names its dtype) and
        no later step runs."""
        if opts["backend"] == "torch":
            for end in range(2, len(operands)):
                out = super().chain(operands[:end], opts)
                if out.refused or out.result in _FLOAT8:
                    return out
        return super().chain(operands, opts)

    def carried(self, a: Operand, b: Operand, out: Outcome, opts: Mapping[str, Any]) -> Operand:
        """On the jax backend the array ``keras.ops.add`` returns keeps JAX's weak flag
        (``int32 + 1.0`` is a weak float32 array, so ``+ float16`` gives float16)."""
        if opts["backend"] == "jax":
            raw = _jax_raw(a, b, opts["floatx"]).result
            if raw is not None and is_weak(raw):
                return Operand(raw, DIMENSIONED)
        return super().carried(a, b, out, opts)

    def made(self, dtype: str, opts: Mapping[str, Any]) -> str:
        """The tensor ``keras.ops.ones`` makes on the backend: jax's without x64 (float64 is
        float32), torch's uint16 and uint32 stored as int32 and int64."""
        backend = opts["backend"]
        if backend == "jax":
            return NARROW.get(dtype, dtype)
        return TORCH_STORES.get(dtype, dtype) if backend == "torch" else dtype

    def materialise(self, weak: str, opts: Mapping[str, Any]) -> Materialised:
        """A weakly typed jax array (a chain's intermediate) as its dtype reads: 32-bit."""
        return Materialised(_MATERIALISED[weak], "on the jax backend (no x64)")

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """What ``keras.ops.add`` does with the value, where it differs from the type's answer
        (an array of ``against``): the backend's refusal, or torch's int64 scalar."""
        if against is None or _int_value(scalar) is None:
            return None
        array = Operand(against)
        typed = added(array, scalar.typed(), opts)
        valued = added(array, scalar, opts)
        return None if valued.result == typed.result else valued


POLICY = KerasPolicy()
