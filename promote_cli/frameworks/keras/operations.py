"""Keras 3's operations: ``keras.ops.*`` eagerly on the CPU, per backend and ``floatx`` (3.15.1).

Measured on Keras 3.15.1 over every operation of the vocabulary x every operand of the keras
policy (arrays and 0-d arrays of its 17 types, Python scalars on either side) x the three
``floatx`` settings, on all five backends: **tensorflow** (Keras's default), **numpy**,
**openvino** and **torch** eagerly, **jax** by tracing (below), and checked by ``promote
verify``. Rules are declared for each, per backend (the rules, not only the maps, depend on the
options): one pair rule, one kind and a few per-type exceptions each.

Where each part lives: this module holds the maps (per ``backend`` and ``floatx``) and the
declaration, ``OPERATIONS``; ``backends.py`` the five tables of rules, data only; ``pairs.py``
the pair rules other than the keras policy's and ``specials.py`` the special cases, which the
rules name by key; ``convert.py`` how each backend makes an operand into a tensor, which both
start from.

The jax backend compiles one XLA program per eager call and dtype combination (some 50 s an
operation and setting), so its cells were measured by tracing: its oracle
(``oracle.py``) traces every call of one function in one
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

- most binary operations promote as ``keras.ops.add`` does (``pairs.added``; the keras
  policy's own pairs are ``keras.backend.result_type``, which the operations do not apply);
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
  int shift amount (``bool << 1`` is int64); a complex32 result is a torch complex32 tensor,
  which Keras cannot name but returns (``add``, ``subtract``: answered complex32; ``divide``,
  ``logical_and``, ``pow``: no CPU kernel, a gap), and ``equal(float16, complex64 0-d)`` is bool;
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
complex ``argmax``, ``max``, ``isnan``; bitwise functions of floats; bool ``add`` (AddV2 admits
bool on no device). These are refusals, as in the tensorflow policy's operations: an op
definition that admits a type on no device is a refusal, not a gap. ``floor_divide`` and
``round`` of complex fail with "Could not find device for node", but TensorFlow registers no
complex kernel of FloorDiv or Round on any device (``cwise_op_floor_div.cc``,
``cwise_op_round.cc``): refusals too (the oracle, which sees the CPU only, records a gap there,
which a refusal agrees with). On torch, "not implemented for 'Float8_e4m3fn'" and the like
are gaps as in the torch policy's operations (float8 everywhere, bool ``pow``, ``round``,
``floor_divide``), but bitwise functions of floats and ordering of complex refuse (the kernel is
never coming); float8 ``multiply`` runs for two full tensors only, with a 0-d or Python second
operand it is a gap; two float8 operands of one dtype reach torch's ``floor_divide``,
``maximum``, ``minimum``, ``remainder`` before Keras looks at them: gaps.
"""

from __future__ import annotations

from promote_cli.frameworks.keras import BACKENDS, FLOATX
from promote_cli.frameworks.keras.backends import BY_BACKEND
from promote_cli.frameworks.keras.convert import width
from promote_cli.frameworks.keras.promotion import POLICY
from promote_cli.rules import BySetting, Maps, Operations


def _maps(backend: str, floatx: str) -> Maps:
    return Maps(
        inexact={"bool": width(floatx), "int": width(floatx), "uint": width(floatx)},
        accumulate={
            "bool": "int32",
            "int": "int32",
            "uint": "int32" if backend == "torch" else "uint32",
            "int64": "int64",
            "uint64": "uint64",
        },
        real={"complex64": "float32", "complex128": "float64"},
        index_dtype="int32",
        default_float=floatx,
    )


# Keyed by the setting of (backend, floatx): the maps depend on both, the rules on the backend.
_SETTINGS = [(backend, floatx) for backend in BACKENDS for floatx in FLOATX]

_RULES = BY_BACKEND

OPERATIONS = Operations(
    POLICY,
    _maps("tensorflow", "float32"),
    _RULES["tensorflow"],
    "keras.ops on the CPU in Keras 3.15.1, measured on every backend and floatx (jax's by"
    " tracing, proven against eager calls)",
    by_setting=BySetting(
        ("backend", "floatx"),
        maps={(b, f): _maps(b, f) for b, f in _SETTINGS},
        rules={(b, f): _RULES[b] for b, f in _SETTINGS},
    ),
    one_operand_pair="stored",
    # On every backend every binary operation takes a Python scalar's value (measured under
    # each floatx): as keras.ops.add checks it (``Rule.value`` "checked"), or as the backend
    # makes the scalar a tensor of its own dtype (the rules' ``value_special``); notes.md says
    # what each does.
    values=True,
)
