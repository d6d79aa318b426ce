"""Keras 3's operations: ``keras.ops.*`` eagerly on the CPU, per backend and ``floatx`` (3.15.1).

Measured on Keras 3.15.1 over every operation of the vocabulary x every operand of the keras
policy (arrays and 0-d arrays of its 17 types, Python scalars on either side) x the three
``floatx`` settings, on all five backends: **tensorflow** (Keras's default), **numpy**,
**openvino** and **torch** eagerly, **jax** by tracing (below), and checked by ``promote
verify``. Rules are declared for each, per backend (``Operations.setting``: the rules, not only
the maps, depend on the options): one pair rule, one kind and a few per-type exceptions each.

The jax backend compiles one XLA program per eager call and dtype combination (some 50 s an
operation and setting), so its cells were measured by tracing: its oracle
(``promote_cli.frameworks.keras.oracle``) traces every call of one function in one
``jax.eval_shape`` (Keras and ``jax.numpy`` decide dtypes at trace time), lowers the unary functions
and reductions (``argmax`` of a complex array traces but does not lower, as an eager call fails),
and keeps 0-d arrays and Python scalars
concrete (``jnp.power`` looks at its exponent). Proven against eager calls on 22,067 distinct
cells (every unary and reduction cell and every cell of ``pow``, ``where``,
``bitwise_left_shift`` and ``atan2`` under the three ``floatx``, random cells of the rest; 3,814
with a Python scalar, 8,074 with a 64-bit type, 3,076 with bool, 4,276 with float8, 5,418
refused): all agree, and no XLA run-time failure turned up (so the jax backend has no gaps).
Tracing every array instead disagreed on ``pow`` with a 0-d integer exponent; tracing without
lowering, on complex ``argmax``.

Pair rules (the promotion an operation starts from):

- most binary operations promote as ``keras.ops.add`` does (the keras policy);
- ``remainder`` (``keras.ops.mod``), ``atan2``, ``bitwise_and`` and ``bitwise_left_shift`` first
  convert each operand to a tensor on its own (``convert_to_tensor``), so a Python scalar is
  strong there: on tensorflow ``True``, ``1``, ``1.0``, ``1j`` become bool, int32, float32 (any
  ``floatx``) and complex64; on numpy an int or float takes ``floatx``'s width (int16/float16
  under float16 and bfloat16), each 64-bit array is narrowed first, and under ``floatx=bfloat16``
  every Python scalar is ``np.asarray(x).astype(None)``, float64, then narrowed to float32
  (``remainder(int8, 1)`` is float32 there);
- on tensorflow ``equal``, ``less`` and ``logical_and`` apply ``keras.backend.result_type`` with
  weak Python scalars (no conversion to the other operand's dtype: ``equal(uint8, True)`` is
  bool where ``add`` refuses);
- on numpy ``equal``, ``less`` and ``logical_and`` are NumPy's own functions on the operands
  as given: bool for every pair, float8 included;
- openvino makes a Python scalar a constant of its own (``True`` and ``1`` int32, ``1.0``
  float32, ``1j`` refused) where it converts (``remainder``, ``atan2``, ``bitwise_and``); in the
  tensor's dtype for ``bitwise_left_shift``; in the other operand's dtype for ``where`` unless
  that is bool or the scalar a float with an integer (``where(int8, 1)`` is int8,
  ``where(int8, 1.0)`` float32); ``floor_divide`` makes a bool ``x1`` int32 and, with a Python
  ``x2``, takes ``x1``'s dtype (``floatx`` for an integer by a float); ``logical_and`` converts
  each operand to bool without promoting;
- torch hands most functions to torch's own promotion (the torch policy, complex32 included) on
  the tensors Keras made (a Python scalar a 0-d bool, int32, ``floatx`` or complex64 tensor;
  uint16 stored as int32, uint32 as int64, uint64 refused); ``divide`` keeps a Python bool, int
  or float a Python scalar (``divide(S(float16), 1.0)`` is float16, ``add`` float32 under
  float32); ``subtract`` casts a bool operand to the other's dtype; ``maximum``, ``minimum``,
  ``floor_divide`` cast to ``keras.backend.result_type``; ``bitwise_left_shift`` keeps a Python
  int shift amount (``bool << 1`` is int64); a complex32 result is refused (Keras has none) but
  ``equal(float16, complex64 0-d)`` is bool;
- jax hands every function but ``where`` and ``atan2`` to ``jax.numpy`` on the arrays Keras
  made (the keras policy: JAX's promotion without x64, a Python int or float weak but under
  ``floatx=bfloat16`` a strong float32, the result an array); ``where`` gets the Python scalars
  as given (weak under every ``floatx``: ``where(uint8, 1)`` is uint8 under bfloat16, where
  ``add`` is float32), and so does ``bitwise_left_shift`` for a Python int or bool ``y``;
  ``atan2`` converts each operand (a Python bool, int, float, complex: bool, int32, float32,
  complex64, strong; float32 under bfloat16) and applies ``result_type`` with a float;
- a unary operation or a reduction starts from the array's own dtype, 64-bit ones included
  (``keras.ops.ones((2,), "float64")`` stays float64), as the backend stores it (torch; jax
  makes every 64-bit array 32-bit).

Kinds and maps: ``divide``, ``atan2``, ``sqrt``, ``log``, ``sin``, ``floor``, ``ceil`` make a bool
or an integer ``result_type(t, float)``: the float of ``floatx``'s width (float16 under float16 and
bfloat16); ``exp`` makes it ``floatx`` itself (bfloat16 under bfloat16) on numpy, tensorflow, jax,
and so do ``sqrt``, ``log``, ``sin``, ``floor``, ``ceil`` and ``mean`` on openvino (``sqrt(int8)``
is bfloat16 under bfloat16 there); ``mean`` of a bool or integer is float32 under every ``floatx``
on numpy, tensorflow and jax, and on jax so are ``divide``, ``sqrt`` and ``log`` (``jax.numpy``'s
own float, not Keras's); ``sum`` and ``prod`` accumulate bool and small integers in int32, small
unsigned ones in uint32, 64-bit ones keep theirs (on jax they are 32-bit); ``argmax`` is int32. On
numpy many functions of a 64-bit type narrow it (``exp(float64)`` is float32, ``square(int64)``
int32), the overrides below.

Quirks: on numpy and tensorflow ``bitwise_left_shift(x, y)`` with a Python int or bool ``y`` does
not convert ``y`` (``isinstance(y, int)``): the result is ``x``'s dtype (numpy: a bool ``x`` gives
int64 with ``1``, int8 with ``True``; tensorflow refuses converting ``True`` to most dtypes and
``1`` to bool). ``matmul`` takes arrays only and, on numpy and openvino, makes int8 @ int8 int32
(to match JAX), as on jax (``preferred_element_type``). On jax ``power(x1, x2)`` with ``x2`` a
0-d integer or bool array takes ``lax.integer_pow`` (a concrete integer exponent): ``x1``'s dtype
as converted, bool int32 (``power(uint32, S(int64))`` is uint32, a (2,) exponent gives int32);
``bitwise_left_shift``, ``pow``, ``floor_divide``, ``remainder`` of bools are int32; ``argmax``
of a float8 array is refused (on the CPU Keras first casts a float array to ``result_type(t,
float32)``, which refuses float8) but of a 0-d one int32. openvino has no complex types
(refused) but computes with float8 (``sqrt`` of float8 is float8).

Refusals and missing kernels: float8 operands are refused (Keras has no implicit float8 conversion)
but by openvino's unary operations and numpy's comparisons; on jax they are refused only where Keras
computes a dtype (``atan2``, ``ceil``, ``floor``, ``sin``, ``mean``, ``argmax``) and otherwise
computed in float8 (``sqrt``, ``sum``, ``matmul``), or promoted by JAX (float8 with a Python
scalar is float8, with another dtype refused). On jax the refusals are JAX's: bool ``negative``,
``sign``, ``round``, ``subtract``; bitwise functions of floats; complex ``floor_divide``,
``remainder``, ``floor``, ``ceil``, ``argmax``. On tensorflow, Keras computes a dtype
that TensorFlow's op registry may not take ("Value for attr 'T' of bool is not in the list of
allowed values"): bool ``subtract``, ``multiply``, ``pow``, ``maximum``; unsigned ``negative``;
complex ``argmax``, ``max``, ``isnan``; bitwise functions of floats. These are refusals, as in the
tensorflow policy's operations, except bool ``add``, which the keras policy answers bool as a
missing kernel: ``keras.ops.add`` is the same call, so it is answered the same (``no-kernel``, a
gap in ``promote verify``). ``floor_divide`` and ``round`` of complex have no CPU kernel ("Could
not find device for node"): gaps too. On torch, "not implemented for 'Float8_e4m3fn'" and the like
are gaps as in the torch policy's operations (float8 everywhere, bool ``pow``, ``round``,
``floor_divide``), but bitwise functions of floats and ordering of complex refuse (the kernel is
never coming); float8 ``multiply`` runs for two full tensors only, with a 0-d or Python second
operand it is a gap; two float8 operands of one dtype reach torch's ``floor_divide``,
``maximum``, ``minimum``, ``remainder`` before Keras looks at them: gaps.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple

from promote_cli.dtypes import get as dtype
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.keras.promotion import (
    _NARROW,
    _TORCH_STORES,
    POLICY,
    Typed,
    _python,
    result_type,
)
from promote_cli.frameworks.torch import promotion as torch_policy
from promote_cli.operands import DIMENSIONED, PYTHON, ZERO_D, Operand
from promote_cli.ops import (
    ACCUMULATE,
    ALWAYS_BOOL,
    COMPLEX_TO_FLOAT,
    INDEX,
    INT_TO_DEFAULT,
    INT_TO_FLOAT,
    NO_KERNEL,
    REFUSES_OPERAND,
    SAME,
    VOCABULARY,
    Maps,
    Operations,
    Pair,
    Rule,
)

_ARRAYS = frozenset({DIMENSIONED})
# torch: no bitwise kernel for any float or complex type, the kind's refusal (as torch's own).
_FLOATS = (
    "bfloat16 float16 float32 float64 float8_e4m3fn float8_e5m2 complex32 complex64 complex128"
)
_STRONG_TF = {"bool": "bool", "int*": "int32", "float*": "float32", "complex*": "complex64"}
_FUNCTIONS = {
    "remainder": "mod",
    "pow": "power",
    "abs": "absolute",
    "atan2": "arctan2",
    "cumulative_sum": "cumsum",
}


def _width(floatx: str) -> str:
    """``result_type(int, float)``'s float: Keras reads only floatx's width (bfloat16: float16)."""
    return "float32" if floatx == "float32" else "float16"


def _storage(x: Operand, backend: str) -> str | Outcome:
    """The dtype an array holds: its own, but on torch uint16 and uint32 are stored as int32 and
    int64, and uint64 cannot be stored; on jax (no x64) each 64-bit type is made 32-bit."""
    if backend == "jax":
        return _NARROW.get(x.dtype, x.dtype)
    if backend != "torch":
        return x.dtype
    if x.dtype == "uint64":
        return refuse("backend", "Keras's torch backend cannot store uint64")
    return _TORCH_STORES.get(x.dtype, x.dtype)


def _stored(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """A unary operation's start: the array's own dtype, not narrowed."""
    t = _storage(a, opts["backend"])
    if isinstance(t, Outcome):
        return t
    return Outcome(t, "stored", f"the array's own dtype, {ref(t)}")


def _declared(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``keras.backend.result_type`` of the two, a Python int or float weak."""
    backend = opts["backend"]
    args: list[Typed] = []
    for x in (a, b):
        t = _storage(x, backend) if x.category != PYTHON else None
        if isinstance(t, Outcome):
            return t
        args.append(_python(x, backend) if t is None else Typed(t))
    return result_type(args, backend, opts["floatx"])


def _torch_made(x: Operand, floatx: str, keep: bool) -> Operand | Outcome:
    """An operand as the torch backend hands it to torch: an array as stored, a Python scalar
    kept (``keep``: ``divide``'s ``isinstance(x, (int, float))``) or made a 0-d tensor (bool,
    int32, ``floatx``, complex64)."""
    if x.category == PYTHON:
        if keep and x.dtype != "complex*":
            return x
        scalar = {"bool": "bool", "int*": "int32", "float*": floatx, "complex*": "complex64"}
        return Operand(scalar[x.dtype], ZERO_D)
    t = _storage(x, "torch")
    return t if isinstance(t, Outcome) else Operand(t, x.category)


def _torch_pair(a: Operand, b: Operand, opts: Mapping[str, Any], keep: bool = False) -> Outcome:
    made = [_torch_made(x, opts["floatx"], keep) for x in (a, b)]
    for m in made:
        if isinstance(m, Outcome):
            return m
    out = torch_policy.result_type(made)  # type: ignore[arg-type]
    return out if out.refused else out._replace(why=f"torch's promotion: {out.why}")


def _torch_tensors(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """torch's own promotion of the tensors Keras made (complex32 included)."""
    return _torch_pair(a, b, opts)


def _torch_kept(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """torch's own promotion, a Python bool, int or float kept a Python scalar (``divide``)."""
    return _torch_pair(a, b, opts, keep=True)


def _torch_subtract(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """torch's ``subtract``: a bool operand is cast to the other's dtype first."""
    made = [_torch_made(x, opts["floatx"], False) for x in (a, b)]
    for m in made:
        if isinstance(m, Outcome):
            return m
    x, y = made
    if x.dtype == "bool":  # type: ignore[union-attr]
        x = Operand(y.dtype, x.category)  # type: ignore[union-attr]
    if y.dtype == "bool":  # type: ignore[union-attr]
        y = Operand(x.dtype, y.category)  # type: ignore[union-attr]
    return torch_policy.result_type([x, y])  # type: ignore[list-item]


def _raw(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """numpy's ``equal``, ``less``, ``logical_and``: NumPy's function on the operands as given,
    no Keras conversion (float8 included): the output is bool whatever they are."""
    return Outcome("bool", "raw", "NumPy's own function on the operands as given, no promotion")


# jax: the dtype of jnp.asarray(x) (without x64).
_JAX_SCALAR = {"bool": "bool", "int*": "int32", "float*": "float32", "complex*": "complex64"}


def _jnp(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """jax's ``where`` (``jnp.where`` on the operands as given) and ``bitwise_left_shift`` by a
    Python int or bool (not converted): JAX's promotion without x64, the Python scalar weak even
    under ``floatx=bfloat16`` (no ``astype(None)``), the result an array."""
    out = POLICY.promote(a, b, {**opts, "floatx": "float32"})
    return out if out.refused else out._replace(why=f"the Python scalar not converted: {out.why}")


def _jax_shift(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """jax's ``bitwise_left_shift(x, y)``: ``y`` a Python int or bool is not converted."""
    if b.category == PYTHON and b.dtype in ("int*", "bool"):
        return _jnp(a, b, opts)
    return POLICY.promote(a, b, opts)


def _jax_pow(operands: Any, ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """jax's ``power(x1, x2)`` with ``x2`` a 0-d integer or bool array: ``jnp.power`` sees a
    concrete integer exponent and takes ``lax.integer_pow``, so the result is ``x1``'s dtype as
    converted (bool: int32), whatever ``x2``'s."""
    x1, x2 = operands
    if x2.category != ZERO_D or dtype(x2.dtype).kind not in ("bool", "int", "uint"):
        return None
    t = _convert(x1, "jax", opts["floatx"])
    if isinstance(t, Outcome):
        return t
    out = "int32" if t.dtype == "bool" else t.dtype
    return Outcome(
        out, "integer-pow", f"a concrete integer exponent: lax.integer_pow keeps x1's {ref(out)}"
    )


# openvino's get_ov_output of a Python scalar with no type (True is an int there).
_OV_SCALAR = {"bool": "int32", "int*": "int32", "float*": "float32"}


def _ov_scalar(x: Operand) -> Typed | Outcome:
    if x.dtype == "complex*":
        return refuse("backend", "Keras's openvino backend makes no constant of a Python complex")
    return Typed(_OV_SCALAR[x.dtype])


def _convert(x: Operand, backend: str, floatx: str) -> Typed | Outcome:
    """An operand as ``convert_to_tensor`` makes it on its own (a strong dtype)."""
    if backend == "openvino":
        return _ov_scalar(x) if x.category == PYTHON else Typed(x.dtype)
    if backend == "torch":
        made = _torch_made(x, floatx, False)
        return made if isinstance(made, Outcome) else Typed(made.dtype)
    if backend == "tensorflow":
        return Typed(_STRONG_TF[x.dtype] if x.category == PYTHON else x.dtype)
    if backend == "jax":
        if x.category != PYTHON:
            return Typed(_NARROW.get(x.dtype, x.dtype))
        # jnp.asarray(x): Keras reads its dtype, not its weak flag; under bfloat16 astype(None)
        return Typed("float32" if floatx == "bfloat16" else _JAX_SCALAR[x.dtype])
    if x.category != PYTHON:
        alone = result_type([Typed(x.dtype)], backend, floatx)
    elif floatx == "bfloat16":  # np.asarray(x).astype(None): float64
        alone = result_type([Typed("float64")], backend, floatx)
    else:
        alone = result_type([_python(x, backend)], backend, floatx)
    return alone if alone.refused else Typed(alone.result)  # type: ignore[arg-type]


def _converted(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """``result_type`` of the two operands, each converted to a tensor first."""
    backend, floatx = opts["backend"], opts["floatx"]
    args = [_convert(x, backend, floatx) for x in (a, b)]
    for x in args:
        if isinstance(x, Outcome):
            return x
    out = result_type(args, backend, floatx)  # type: ignore[arg-type]
    return out if out.refused else out._replace(why=f"each operand converted first: {out.why}")


def _strong(args: list[Typed | Outcome], opts: Mapping[str, Any], why: str) -> Outcome:
    for x in args:
        if isinstance(x, Outcome):
            return x
    out = result_type(args, opts["backend"], opts["floatx"])  # type: ignore[arg-type]
    return out if out.refused else out._replace(why=f"{why}: {out.why}")


def _like_tensor(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
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
            return _ov_scalar(x)
        return Typed(other.dtype)

    if a.category == PYTHON:
        args = [literal(a, b), _ov_scalar(b) if b.category == PYTHON else Typed(b.dtype)]
    else:
        args = [Typed(a.dtype), literal(b, a)]
    return _strong(args, opts, "a Python scalar takes the tensor's dtype")


def _tensor_typed(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """openvino's ``bitwise_left_shift``, ``divide``, ``matmul``: a Python scalar is made in the
    dtype of the (last) tensor operand."""
    tensors = [x for x in (a, b) if x.category != PYTHON]
    element = tensors[-1].dtype if tensors else None
    args = [
        Typed(element)
        if x.category == PYTHON and element and x.dtype != "complex*"
        else _convert(x, "openvino", "")
        for x in (a, b)
    ]
    return _strong(args, opts, "a Python scalar is made in the tensor's dtype")


def _each_bool(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """openvino's ``logical_and``: each operand converted to bool, no promotion; the backend has
    no complex type."""
    for x in (a, b):
        if dtype(x.dtype).kind == "complex":
            return refuse("backend", "Keras's openvino backend has no complex types")
    return Outcome("bool", "each-bool", "each operand is converted to bool, no promotion")


def _ov_floor_divide(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
    """openvino's ``floor_divide``: a bool ``x1`` becomes int32; with a Python ``x2`` both take
    ``x1``'s dtype (floatx when ``x1`` is an integer and ``x2`` a float); else result_type."""
    first = _convert(a, "openvino", "")
    if isinstance(first, Outcome):
        return first
    t = "int32" if first.dtype == "bool" else first.dtype
    if b.category == PYTHON and b.dtype != "complex*":
        if b.dtype == "float*" and dtype(t).kind in ("int", "uint"):
            t = opts["floatx"]
        return Outcome(t, "python-divisor", f"a Python divisor takes x1's dtype: {ref(t)}")
    return _strong([Typed(t), _convert(b, "openvino", "")], opts, "x1 as int32 if bool")


def _shift(operands: Any, ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """``bitwise_left_shift(x, y)`` with a Python int or bool ``y``: ``y`` is not converted, the
    backend shifts ``x`` (converted) by it, in ``x``'s dtype."""
    x, y = operands
    if y.category != PYTHON or y.dtype not in ("int*", "bool") or x.category == PYTHON:
        return None
    backend = opts["backend"]
    made = _convert(x, backend, opts["floatx"])
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


_SHIFTABLE = frozenset({"uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"})
# The dtypes TensorFlow converts a Python 1 or True to (float8: no cast at all).
_TF_TAKES = {
    "int*": _SHIFTABLE | {"bfloat16", "float16", "float32", "float64", "complex64", "complex128"},
    "bool": frozenset(
        {"uint64", "int32", "int64", "bool", "float16", "float32", "float64", "complex128"}
    ),
}


def _torch_shift(operands: Any, ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``bitwise_left_shift(x, y)`` with a Python int or bool ``y``: ``y`` stays a
    Python scalar, so torch promotes ``x`` with it (a bool ``x`` by ``1`` is int64)."""
    x, y = operands
    if y.category != PYTHON or y.dtype not in ("int*", "bool") or x.category == PYTHON:
        return None
    stored = _storage(x, "torch")
    if isinstance(stored, Outcome):
        return stored
    out = torch_policy.result_type([Operand(stored, x.category), y])
    if out.refused:
        return out
    t: str = out.result  # type: ignore[assignment]
    if dtype(t).kind in ("float", "complex"):
        return refuse("op-refuses", f"torch.bitwise_left_shift does not accept {ref(t)}")
    why = f"a Python {y.dtype.rstrip('*')} shift stays a Python scalar: {out.why}"
    if t == "bool":
        return Outcome(t, NO_KERNEL, f"{why}; torch has no CPU kernel of bool left shift")
    return Outcome(t, "python-shift", why)


def _float8_scalar(operands: Any, ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """torch's float8 ``multiply`` has a kernel for two full tensors only: with a 0-d tensor or
    a Python scalar second it has none ("mul_cpu_reduced_float" not implemented)."""
    x, y = operands
    out = _torch_tensors(x, y, opts)
    if out.result in _FLOAT8 and y.category != DIMENSIONED:
        return Outcome(out.result, NO_KERNEL, f"{out.why}; no CPU kernel of float8 by a scalar")
    return None


def _float8_same(operands: Any, ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """torch runs ``floor_divide``, ``maximum``, ``minimum``, ``remainder`` of two float8
    operands of one dtype before Keras looks at the dtypes, and has no CPU kernel for it."""
    x, y = operands
    if x.dtype == y.dtype and x.dtype in _FLOAT8:
        return Outcome(
            x.dtype, NO_KERNEL, f"torch has no CPU kernel for {ref(x.dtype)} (a gap, not a rule)"
        )
    return None


def _float8_mod(operands: Any, ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """torch's ``mod``: Keras's ``result_type`` refuses a float8 operand beside another dtype;
    two of one float8 dtype reach torch, which has no CPU kernel for them."""
    decided = _float8_same(operands, ops, opts)
    if decided is None and any(x.dtype in _FLOAT8 for x in operands):
        return refuse("float8", "Keras has no implicit conversion from float8 types")
    return decided


_FLOAT8 = ("float8_e4m3fn", "float8_e5m2")


def _matmul(operands: Any, ops: Operations, opts: Mapping[str, Any]) -> Outcome | None:
    """numpy's, openvino's and torch's matmul of two int8 arrays is int32 (Keras aligns it with
    JAX)."""
    if all(x.dtype == "int8" for x in operands):
        return Outcome("int32", "int8-matmul", "int8 @ int8 is int32 (Keras matches JAX)")
    return None


class _R(NamedTuple):
    """One measured rule; ``W`` in an override is floatx's width float, ``X`` floatx."""

    kind: str
    refuses: str = ""
    no_kernel: str = ""
    overrides: Mapping[str, str] = {}
    categories: frozenset[str] | None = None
    pair: Pair | None = None
    cells: Mapping[str, str] = {}


_DECLARED, _CONVERTED, _RAW = _declared, _converted, _raw
# Measured: the kind, and the promoted types refused, without a kernel or with their own output.
_TENSORFLOW = {
    "abs": _R(COMPLEX_TO_FLOAT, refuses="float8_e4m3fn float8_e5m2"),
    "add": _R(SAME, no_kernel="bool"),
    "argmax": _R(INDEX, refuses="complex128 complex64 float8_e4m3fn float8_e5m2"),
    "atan2": _R(INT_TO_FLOAT, refuses="complex64", pair=_CONVERTED),
    "bitwise_and": _R(
        SAME, refuses="bfloat16 bool complex64 float16 float32 float64", pair=_CONVERTED
    ),
    "bitwise_invert": _R(
        SAME,
        refuses="bfloat16 bool complex128 complex64 float16 float32 float64"
        " float8_e4m3fn float8_e5m2",
    ),
    "bitwise_left_shift": _R(
        SAME, refuses="bfloat16 bool complex64 float16 float32 float64", pair=_CONVERTED
    ),
    "ceil": _R(
        INT_TO_FLOAT,
        refuses="complex128 complex64 float8_e4m3fn float8_e5m2",
        overrides={"int64": "X"},
    ),
    "cumulative_sum": _R(SAME, refuses="float8_e4m3fn float8_e5m2", overrides={"bool": "int32"}),
    "divide": _R(INT_TO_FLOAT),
    "equal": _R(ALWAYS_BOOL, pair=_DECLARED),
    "exp": _R(INT_TO_DEFAULT, refuses="float8_e4m3fn float8_e5m2"),
    "floor": _R(
        INT_TO_FLOAT,
        refuses="complex128 complex64 float8_e4m3fn float8_e5m2",
        overrides={"int64": "X"},
    ),
    "floor_divide": _R(SAME, refuses="bool", no_kernel="complex64"),
    "imag": _R(COMPLEX_TO_FLOAT, refuses="float8_e4m3fn float8_e5m2"),
    "isnan": _R(ALWAYS_BOOL, refuses="complex128 complex64 float8_e4m3fn float8_e5m2"),
    "less": _R(ALWAYS_BOOL, refuses="bool complex64", pair=_DECLARED),
    "log": _R(
        INT_TO_FLOAT,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "int64": "X"},
    ),
    "logical_and": _R(ALWAYS_BOOL, pair=_DECLARED),
    "logical_not": _R(ALWAYS_BOOL, refuses="float8_e4m3fn float8_e5m2"),
    "matmul": _R(SAME, categories=_ARRAYS),
    "max": _R(SAME, refuses="complex128 complex64 float8_e4m3fn float8_e5m2"),
    "maximum": _R(SAME, refuses="bool complex64"),
    "mean": _R(
        SAME,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint16": "float32",
            "uint32": "float32",
            "uint64": "float32",
            "uint8": "float32",
        },
    ),
    "minimum": _R(SAME, refuses="bool complex64"),
    "multiply": _R(SAME, refuses="bool"),
    "negative": _R(SAME, refuses="bool float8_e4m3fn float8_e5m2 uint16 uint32 uint64 uint8"),
    "pow": _R(SAME, refuses="bool"),
    "prod": _R(
        ACCUMULATE,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "uint64": "uint32"},
    ),
    "real": _R(COMPLEX_TO_FLOAT, refuses="bool float8_e4m3fn float8_e5m2"),
    "remainder": _R(SAME, refuses="complex64", overrides={"bool": "int32"}, pair=_CONVERTED),
    "round": _R(SAME, refuses="bool float8_e4m3fn float8_e5m2", no_kernel="complex128 complex64"),
    "sign": _R(SAME, refuses="bool float8_e4m3fn float8_e5m2 uint64"),
    "sin": _R(
        INT_TO_FLOAT,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "int64": "X"},
    ),
    "sqrt": _R(
        INT_TO_FLOAT,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "int64": "X"},
    ),
    "square": _R(SAME, refuses="float8_e4m3fn float8_e5m2", overrides={"bool": "int32"}),
    "subtract": _R(SAME, refuses="bool"),
    "sum": _R(ACCUMULATE, refuses="float8_e4m3fn float8_e5m2"),
    "where": _R(SAME),
}
_NUMPY = {
    "abs": _R(COMPLEX_TO_FLOAT),
    "add": _R(SAME),
    "argmax": _R(INDEX, refuses="float8_e4m3fn float8_e5m2"),
    "atan2": _R(INT_TO_FLOAT, refuses="complex64", pair=_CONVERTED),
    "bitwise_and": _R(SAME, refuses="bfloat16 complex64 float16 float32", pair=_CONVERTED),
    "bitwise_invert": _R(
        SAME,
        refuses="bfloat16 complex128 complex64 float16 float32 float64 float8_e4m3fn float8_e5m2",
        overrides={"int64": "int32", "uint64": "uint32"},
    ),
    "bitwise_left_shift": _R(
        SAME,
        refuses="bfloat16 complex64 float16 float32",
        overrides={"bool": "int8"},
        pair=_CONVERTED,
    ),
    "ceil": _R(
        INT_TO_FLOAT,
        refuses="complex128 complex64 float8_e4m3fn float8_e5m2",
        overrides={"float64": "float32"},
    ),
    "cumulative_sum": _R(
        SAME,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "int32",
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
            "uint64": "uint32",
        },
    ),
    "divide": _R(INT_TO_FLOAT),
    "equal": _R(ALWAYS_BOOL, pair=_RAW),
    "exp": _R(
        INT_TO_DEFAULT,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "floor": _R(
        INT_TO_FLOAT,
        refuses="complex128 complex64 float8_e4m3fn float8_e5m2",
        overrides={"float64": "float32"},
    ),
    "floor_divide": _R(SAME, refuses="complex64", overrides={"bool": "int8"}),
    "imag": _R(COMPLEX_TO_FLOAT),
    "isnan": _R(ALWAYS_BOOL),
    "less": _R(ALWAYS_BOOL, pair=_RAW),
    "log": _R(
        INT_TO_FLOAT,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "logical_and": _R(ALWAYS_BOOL, pair=_RAW),
    "logical_not": _R(ALWAYS_BOOL),
    "matmul": _R(SAME, categories=_ARRAYS),
    "max": _R(SAME),
    "maximum": _R(SAME),
    "mean": _R(
        SAME,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "float32",
            "complex128": "complex64",
            "float64": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint16": "float32",
            "uint32": "float32",
            "uint64": "float32",
            "uint8": "float32",
        },
    ),
    "minimum": _R(SAME),
    "multiply": _R(SAME),
    "negative": _R(SAME, refuses="bool"),
    "pow": _R(SAME, overrides={"bool": "int8"}),
    "prod": _R(
        ACCUMULATE,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
            "uint64": "uint32",
        },
    ),
    "real": _R(COMPLEX_TO_FLOAT),
    "remainder": _R(SAME, refuses="complex64", overrides={"bool": "int32"}, pair=_CONVERTED),
    "round": _R(SAME, overrides={"bool": "float16"}),
    "sign": _R(SAME, refuses="bool"),
    "sin": _R(
        INT_TO_FLOAT,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "sqrt": _R(
        INT_TO_FLOAT,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "float64": "float32"},
    ),
    "square": _R(
        SAME,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "int32",
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
            "uint64": "uint32",
        },
    ),
    "subtract": _R(SAME, refuses="bool"),
    "sum": _R(ACCUMULATE),
    "where": _R(SAME),
}
_OPENVINO = {
    "abs": _R(SAME, refuses="complex128 complex64"),
    "add": _R(SAME),
    "argmax": _R(INDEX, refuses="complex128 complex64"),
    "atan2": _R(INT_TO_FLOAT, refuses="complex64", pair=_CONVERTED),
    "bitwise_and": _R(SAME, refuses="bfloat16 complex64 float16 float32", pair=_CONVERTED),
    "bitwise_invert": _R(
        SAME,
        refuses="bfloat16 complex128 complex64 float16 float32 float64 float8_e4m3fn float8_e5m2",
    ),
    "bitwise_left_shift": _R(
        SAME, refuses="bfloat16 bool complex64 float16 float32", pair=_tensor_typed
    ),
    "ceil": _R(INT_TO_DEFAULT, refuses="complex128 complex64"),
    "cumulative_sum": _R(SAME, refuses="complex128 complex64", overrides={"bool": "int32"}),
    "divide": _R(INT_TO_FLOAT),
    "equal": _R(ALWAYS_BOOL),
    "exp": _R(INT_TO_DEFAULT, refuses="complex128 complex64"),
    "floor": _R(INT_TO_DEFAULT, refuses="complex128 complex64"),
    "floor_divide": _R(SAME, refuses="complex128 complex64", pair=_ov_floor_divide),
    "imag": _R(SAME, refuses="complex128 complex64"),
    "isnan": _R(ALWAYS_BOOL, refuses="complex128 complex64"),
    "less": _R(ALWAYS_BOOL),
    "log": _R(INT_TO_DEFAULT, refuses="complex128 complex64"),
    "logical_and": _R(SAME, pair=_each_bool),
    "logical_not": _R(ALWAYS_BOOL, refuses="complex128 complex64"),
    "matmul": _R(SAME, categories=_ARRAYS),
    "max": _R(SAME, refuses="complex128 complex64"),
    "maximum": _R(SAME, refuses="bool"),
    "mean": _R(INT_TO_DEFAULT, refuses="complex128 complex64"),
    "minimum": _R(SAME, refuses="bool"),
    "multiply": _R(SAME),
    "negative": _R(SAME, refuses="bool complex128 complex64"),
    "pow": _R(SAME, refuses="bool"),
    "prod": _R(ACCUMULATE, refuses="complex128 complex64"),
    "real": _R(SAME, refuses="complex128 complex64"),
    "remainder": _R(SAME, refuses="bool complex64", pair=_CONVERTED),
    "round": _R(SAME, refuses="complex128 complex64"),
    "sign": _R(SAME, refuses="bool complex128 complex64"),
    "sin": _R(INT_TO_DEFAULT, refuses="complex128 complex64"),
    "sqrt": _R(INT_TO_DEFAULT, refuses="complex128 complex64"),
    "square": _R(SAME, refuses="complex128 complex64", overrides={"bool": "int32"}),
    "subtract": _R(SAME),
    "sum": _R(ACCUMULATE, refuses="complex128 complex64"),
    "where": _R(SAME, refuses="complex64", pair=_like_tensor),
}
_TORCH = {
    "abs": _R(COMPLEX_TO_FLOAT),
    "add": _R(SAME, no_kernel="float8_e4m3fn float8_e5m2"),
    "argmax": _R(INDEX, refuses="complex128 complex64", no_kernel="float8_e4m3fn float8_e5m2"),
    "atan2": _R(INT_TO_FLOAT, refuses="complex64", pair=_CONVERTED),
    "bitwise_and": _R(
        SAME,
        refuses=_FLOATS,
        pair=_torch_tensors,
    ),
    "bitwise_invert": _R(
        SAME,
        refuses=_FLOATS,
    ),
    "bitwise_left_shift": _R(
        SAME,
        refuses=_FLOATS,
        no_kernel="bool",
        pair=_torch_tensors,
    ),
    "ceil": _R(
        INT_TO_FLOAT,
        refuses="complex128 complex64 float8_e4m3fn float8_e5m2",
        overrides={"float64": "float32", "int64": "X"},
    ),
    "cumulative_sum": _R(
        SAME,
        no_kernel="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "int32",
            "complex128": "complex64",
            "float64": "float32",
            "int64": "int32",
        },
    ),
    "divide": _R(
        SAME,
        no_kernel="complex32 float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
        pair=_torch_kept,
    ),
    "equal": _R(ALWAYS_BOOL, pair=_torch_tensors),
    "exp": _R(INT_TO_DEFAULT, no_kernel="float8_e4m3fn float8_e5m2"),
    "floor": _R(
        INT_TO_FLOAT,
        refuses="complex128 complex64 float8_e4m3fn float8_e5m2",
        overrides={"float64": "float32", "int64": "X"},
    ),
    "floor_divide": _R(SAME, refuses="complex64", no_kernel="bool", pair=_DECLARED),
    "imag": _R(
        COMPLEX_TO_FLOAT,
        refuses="bfloat16 bool float16 float32 float64 float8_e4m3fn float8_e5m2"
        " int16 int32 int64 int8 uint8",
    ),
    "isnan": _R(ALWAYS_BOOL),
    "less": _R(
        ALWAYS_BOOL,
        refuses="complex32 complex64 complex128",
        no_kernel="float8_e4m3fn float8_e5m2",
        pair=_torch_tensors,
    ),
    "log": _R(
        SAME,
        no_kernel="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "logical_and": _R(
        ALWAYS_BOOL, no_kernel="complex32 float8_e4m3fn float8_e5m2", pair=_torch_tensors
    ),
    "logical_not": _R(ALWAYS_BOOL, no_kernel="float8_e4m3fn float8_e5m2"),
    "matmul": _R(
        SAME,
        no_kernel="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "float64": "float32", "int64": "int32"},
        categories=_ARRAYS,
    ),
    "max": _R(SAME, refuses="complex64 complex128", no_kernel="float8_e4m3fn float8_e5m2"),
    "maximum": _R(SAME, refuses="complex64", pair=_DECLARED),
    "mean": _R(
        SAME,
        refuses="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "minimum": _R(SAME, refuses="complex64", pair=_DECLARED),
    "multiply": _R(SAME),
    "negative": _R(SAME, refuses="bool", no_kernel="float8_e4m3fn float8_e5m2"),
    "pow": _R(SAME, no_kernel="bool complex32 float8_e4m3fn float8_e5m2", pair=_torch_tensors),
    "prod": _R(
        ACCUMULATE,
        no_kernel="float8_e4m3fn float8_e5m2",
        overrides={"complex128": "complex64", "float64": "float32", "int64": "int32"},
    ),
    "real": _R(COMPLEX_TO_FLOAT),
    "remainder": _R(
        SAME,
        refuses="float8_e4m3fn float8_e5m2 complex32 complex64 complex128",
        overrides={"bool": "int32"},
        pair=_torch_tensors,
    ),
    "round": _R(SAME, refuses="complex64 complex128", no_kernel="bool float8_e4m3fn float8_e5m2"),
    "sign": _R(SAME, refuses="complex128 complex64", no_kernel="float8_e4m3fn float8_e5m2"),
    "sin": _R(
        SAME,
        no_kernel="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int64": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "sqrt": _R(
        INT_TO_DEFAULT,
        no_kernel="float8_e4m3fn float8_e5m2",
        overrides={
            "bool": "float32",
            "int16": "float32",
            "int32": "float32",
            "int8": "float32",
            "uint8": "float32",
        },
    ),
    "square": _R(SAME, no_kernel="float8_e4m3fn float8_e5m2", overrides={"bool": "int32"}),
    "subtract": _R(
        SAME, refuses="bool complex32", no_kernel="float8_e4m3fn float8_e5m2", pair=_torch_subtract
    ),
    "sum": _R(ACCUMULATE, no_kernel="float8_e4m3fn float8_e5m2"),
    "where": _R(SAME),
}


# jnp's own float for a bool or an integer (its default float without x64), whatever floatx.
_JNP_FLOAT = dict.fromkeys(
    ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"), "float32"
)
# Measured by tracing (``promote_cli.frameworks.keras.oracle``); 64-bit types arrive made 32-bit.
_JAX = {
    "abs": _R(COMPLEX_TO_FLOAT),
    "add": _R(SAME),
    "argmax": _R(
        INDEX,
        refuses="complex",
        cells={"D(float8_e4m3fn)": REFUSES_OPERAND, "D(float8_e5m2)": REFUSES_OPERAND},
    ),
    "atan2": _R(INT_TO_FLOAT, pair=_CONVERTED),
    "bitwise_and": _R(SAME, refuses="float complex"),
    "bitwise_invert": _R(SAME, refuses="float complex"),
    "bitwise_left_shift": _R(
        SAME, refuses="float complex", overrides={"bool": "int32"}, pair=_jax_shift
    ),
    "ceil": _R(INT_TO_FLOAT, refuses="complex float8_e4m3fn float8_e5m2"),
    "cumulative_sum": _R(SAME, overrides={"bool": "int32"}),
    "divide": _R(SAME, overrides=_JNP_FLOAT),
    "equal": _R(ALWAYS_BOOL),
    "exp": _R(INT_TO_DEFAULT),
    "floor": _R(INT_TO_FLOAT, refuses="complex float8_e4m3fn float8_e5m2"),
    "floor_divide": _R(SAME, refuses="complex", overrides={"bool": "int32"}),
    "imag": _R(COMPLEX_TO_FLOAT),
    "isnan": _R(ALWAYS_BOOL),
    "less": _R(ALWAYS_BOOL),
    "log": _R(SAME, overrides=_JNP_FLOAT),
    "logical_and": _R(ALWAYS_BOOL),
    "logical_not": _R(ALWAYS_BOOL),
    "matmul": _R(SAME, categories=_ARRAYS),
    "max": _R(SAME),
    "maximum": _R(SAME),
    "mean": _R(SAME, refuses="float8_e4m3fn float8_e5m2", overrides=_JNP_FLOAT),
    "minimum": _R(SAME),
    "multiply": _R(SAME),
    "negative": _R(SAME, refuses="bool"),
    "pow": _R(SAME, overrides={"bool": "int32"}),
    "prod": _R(ACCUMULATE),
    "real": _R(COMPLEX_TO_FLOAT),
    "remainder": _R(SAME, refuses="complex", overrides={"bool": "int32"}),
    "round": _R(SAME, refuses="bool"),
    "sign": _R(SAME, refuses="bool"),
    "sin": _R(INT_TO_FLOAT, refuses="float8_e4m3fn float8_e5m2"),
    "sqrt": _R(SAME, overrides=_JNP_FLOAT),
    "square": _R(SAME, overrides={"bool": "int32"}),
    "subtract": _R(SAME, refuses="bool"),
    "sum": _R(ACCUMULATE),
    "where": _R(SAME, pair=_jnp),
}


def _maps(opts: Mapping[str, Any]) -> Maps:
    floatx = opts["floatx"]
    return Maps(
        inexact={"bool": _width(floatx), "int": _width(floatx), "uint": _width(floatx)},
        accumulate={
            "bool": "int32",
            "int": "int32",
            "uint": "int32" if opts["backend"] == "torch" else "uint32",
            "int64": "int64",
            "uint64": "uint64",
        },
        real={"complex64": "float32", "complex128": "float64"},
        index="int32",
        default_float=floatx,
    )


_SPECIAL = {
    "tensorflow": {"bitwise_left_shift": _shift},
    "numpy": {"bitwise_left_shift": _shift, "matmul": _matmul},
    "openvino": {"matmul": _matmul},
    "jax": {"matmul": _matmul, "pow": _jax_pow},
    "torch": {
        "bitwise_left_shift": _torch_shift,
        "multiply": _float8_scalar,
        "remainder": _float8_mod,
        "floor_divide": _float8_same,
        "maximum": _float8_same,
        "minimum": _float8_same,
        "matmul": _matmul,
    },
}
_UNARY_KINDS = ("unary", "reduction")


@cache
def _rules(backend: str, floatx: str) -> Mapping[str, Rule]:
    tokens = {"W": _width(floatx), "X": floatx}
    rules = {}
    declared = {
        "tensorflow": _TENSORFLOW,
        "numpy": _NUMPY,
        "openvino": _OPENVINO,
        "torch": _TORCH,
        "jax": _JAX,
    }[backend]
    for name, r in declared.items():
        unary = VOCABULARY[name].arity in _UNARY_KINDS
        rules[name] = Rule(
            f"keras.ops.{_FUNCTIONS.get(name, name)}",
            r.kind,
            refuses=tuple(r.refuses.split()),
            no_kernel=tuple(r.no_kernel.split()),
            overrides={t: tokens.get(o, o) for t, o in r.overrides.items()},
            categories=r.categories,
            cells=r.cells,
            pair=_stored if unary else r.pair,
            pair_name="the array's own dtype" if unary else "",
            special=_SPECIAL[backend].get(name),
        )
    return rules


def _setting(opts: Mapping[str, Any]) -> Mapping[str, Rule]:
    return _rules(opts["backend"], opts["floatx"])


OPERATIONS = Operations(
    POLICY,
    _maps,
    _rules("tensorflow", "float32"),
    "keras.ops on the CPU in Keras 3.15.1, measured on every backend and floatx (jax's by"
    " tracing, proven against eager calls)",
    setting=_setting,
)
