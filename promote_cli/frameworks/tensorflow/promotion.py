"""TensorFlow: the new type promotion (``dtype_conversion_mode`` 'all' or 'safe'), a lattice;
and the legacy mode before it, NumPy's ``np.result_type``.

Source: TensorFlow's ``tensorflow/python/framework/flexible_dtypes.py`` (checked against
TensorFlow 2.21), which ``tf.experimental.numpy.experimental_enable_numpy_behavior(
dtype_conversion_mode=...)`` switches on, and the "TF-NumPy Type Promotion" guide. The module
stores a promotion table that marks each cell SAFE or ALL; the guide draws the lattice the
table was generated from. This policy declares the lattice's direct edges below (its least
upper bounds reproduce every cell of TensorFlow's table;
``tests/properties/test_policy_tensorflow.py`` checks that) and keeps the ALL-only marks as data.

Weak types are nodes of the lattice, one per kind and width as TensorFlow spells them: ``i32*``,
``i64*``, ``f32*``, ``f64*``, ``c128*`` (there is no ``c64*``). A Python ``int`` is ``i32*``, a
``float`` ``f32*``, a ``complex`` ``c128*``, a Python ``bool`` the ``bool`` dtype; a Python int
(``int:VALUE``) outside int32's range raises ``OverflowError`` in TensorFlow, in
``result_type`` and in the operators alike, whatever the tensor's dtype; inside it no value is
checked (``uint8 + 300`` is uint8). A result can be weak even from two strong inputs
(``u64 x i8 = f64*``), as TensorFlow returns it. An n-ary promotion is a left fold, as
``flexible_dtypes.result_type`` computes it (in ``safe`` mode the first disallowed step
raises). Tensors of rank 0 are not special.

The chain question, ``(a + b) + c`` with ``+`` or ``tf.add``: the same fold with weak
intermediates (WeakTensors) and two Python scalars added in Python first, plus two refusals of
the operator that ``result_type`` does not have: ``tensor + True`` raises ("Cannot convert True
to EagerTensor of dtype uint8") for uint8, uint16, uint32, int8, int16, bfloat16 and
complex64 tensors, although ``result_type`` answers the tensor's dtype, and ``AddV2`` does not
admit bool (its op definition's ``T`` excludes it, so no device has a kernel: a refusal, not a
missing kernel), so bool + bool raises. And a negative Python int with a uint64 tensor raises
("OverflowError: can't convert negative int to unsigned"), in either order and every mode, the
first time in a process (so does an int from 2**64 up where it is converted to uint64: in
legacy mode, and in the comparisons of every mode); but TensorFlow caches the tensors it
makes of Python scalars, and the same call made again answers uint64 (a comparison bool), from
a stale cache entry (measured on 2.21: ``u64 + -1`` then ``u64 + -1`` again is uint64
``[0, 0]``, ``u64 * -300`` again ``[2**64 - 1, ...]``). Which one a program sees depends on
what ran before: promote declines the question (``engine.DECLINED``), in every operation and
operator (the oracle empties that cache before each call, and measures the first time).

Option ``mode``: ``all`` (default) allows every cell; ``safe`` refuses the cells TensorFlow marks
ALL, the promotions it calls risky (precision loss or bit-widening, ``i32 x f32``,
``i8 x u32``). Types outside the table (TensorFlow's int2/int4/uint2/uint4, float4, float8 and
quantized types) make
``result_type`` raise; ``string`` promotes only with itself.

Option ``mode=legacy`` is ``dtype_conversion_mode="legacy"``, TF-NumPy's promotion before the
new one (``maybe_promote_tensors``): ``np.result_type`` of the dtypes and the Python scalars'
values, as the numpy policy answers it with ml_dtypes (TensorFlow's bfloat16 is ml_dtypes');
NEP 50 with NumPy 2 installed, as measured (``int32 + float16`` is float64). No WeakTensor is
made, so the weak types are refused; a string is NumPy's object (string with anything, unless
NumPy's sequence promotion fails first); ``result_type`` checks no value, and the operator
converts a Python int to the promoted dtype through int64 (uint64: its own range; a float
tensor takes any int).

Where it departs from its neighbours: JAX's lattice with widths on the weak types — a Python
int is 32-bit, so ``i8 x i32* = i8`` as in JAX but ``i64* x f32* = f32*`` and an integer with
``f32*`` meets at ``f64*`` (``i8 x f32* = f64*``, where JAX gives ``f*``); no float8 types; and a
safe mode that refuses where JAX and PyTorch widen silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from promote_cli.engine import DECLINED, Materialised, Outcome, ref, refuse
from promote_cli.frameworks.tensorflow import FRAMEWORK
from promote_cli.lattice import Lattice, LatticePolicy, read_edges
from promote_cli.operands import PYTHON, Operand, int_value

# Each type and the types directly above it, in TensorFlow's notation.
_EDGES = """
b      i32*
i32*   i64*
i64*   u8 i8 f32*
u8     i16 u16
u16    i32 u32
u32    i64 u64
u64    f64*
i8     i16
i16    i32
i32    i64
i64    f64*
f32*   f64*
f64*   bf16 f16 c128*
bf16   f32
f16    f32
f32    f64 c64
f64    c128
c128*  c64
c64    c128
c128
string
"""

# The cells TensorFlow marks ALL (refused in safe mode): each type, then the types it meets
# only in 'all' mode. The marks are symmetric; each pair is listed once.
_ALL_ONLY = """
u8    i8 f32*
u16   i8 i16 bf16 f16 f32*
u32   i8 i16 i32 bf16 f16 f32 c64 f32*
u64   i8 i16 i32 i64 bf16 f16 f32 f64 c64 c128 f32* f64* c128*
i8    f32*
i16   bf16 f16 f32*
i32   bf16 f16 f32 c64 f32*
i64   bf16 f16 f32 f64 c64 c128 f32* f64* c128*
bf16  f16 c128*
f16   c128*
f32   c128*
f64   c64
"""

# A Python scalar's weak type.
_PYTHON = {"int*": "int32*", "float*": "float32*", "complex*": "complex128*"}
_OTHER_TF_TYPES = {
    t: f"TensorFlow's promotion table has no {t}; result_type raises (cast explicitly)"
    for t in (
        "int2",
        "int4",
        "uint2",
        "uint4",
        "float4_e2m1fn",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e4m3b11fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
    )
}
# TensorFlow's table order: strong types, then the weak ones.
_TABLE_ORDER = """
b u8 u16 u32 u64 i8 i16 i32 i64 bf16 f16 f32 f64 c64 c128
i32* i64* f32* f64* c128*
"""
# Tensors ``tensor + True`` cannot convert a Python bool to (the operator raises).
_NO_PYTHON_BOOL = frozenset(("uint8", "uint16", "uint32", "int8", "int16", "bfloat16", "complex64"))
_READ = FRAMEWORK.declared_in.by_label()
DEFAULT_TYPES = tuple(_READ[t] for t in _TABLE_ORDER.split())
_READ_WEAK = frozenset(t for t in DEFAULT_TYPES if t.endswith("*"))

# mode=legacy: TF-NumPy's promotion before the new one, ``np.result_type`` of the dtypes (a
# WeakTensor does not exist there) and the Python scalars' values, as NumPy answers it with
# the installed release of ml_dtypes imported (TensorFlow's bfloat16 is ml_dtypes'): the numpy
# policy's setting, which the option ``ml_dtypes`` names.
LEGACY = "legacy"
# function=true under mode=legacy: measured (TensorFlow 2.21) to differ from eager legacy in
# how a graph constant takes a Python int (see the notes), and not modelled.
_TRACED_LEGACY = (
    "function=true is not modelled under mode=legacy: inside tf.function a Python int becomes a"
    " graph constant as NumPy makes it (an int in [2**63, 2**64) taken and wrapped, complex64"
    " taking any int), which eager legacy refuses; see the TensorFlow notes"
)
_NEWEST = next(o for o in FRAMEWORK.options if o.name == "ml_dtypes").choices[-1]
_AS_OBJECT = {"string": "object"}  # a string tensor's NumPy dtype
# mode=legacy: the Python ints the operator converts to a tensor of each dtype (the promoted
# one, which a Python int never changes but bool's, int64): int64's range, uint64's own, and
# any int where it becomes a float (float16/32/64, complex128; bfloat16 and complex64 convert
# through int64). TensorFlow raises ValueError ("Can't convert Python sequence with
# out-of-range integer to Tensor"); for uint64, OverflowError.
_LEGACY_INT_RANGE: Mapping[str, tuple[int, int] | None] = {
    "uint64": (0, 2**64),
    **dict.fromkeys(("float16", "float32", "float64", "complex128")),
}
_INT64_RANGE = (-(2**63), 2**63)


@cache
def all_only() -> frozenset[frozenset[str]]:
    """The unordered pairs TensorFlow allows only with dtype_conversion_mode='all'."""
    return frozenset(
        frozenset((a, b))
        for a, above in read_edges(_ALL_ONLY, FRAMEWORK.declared_in).items()
        for b in above
    )


def legacy_string_refused(a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome | None:
    """mode=legacy: a tensor's operator with a string and another type. ``np.result_type``
    makes them object, which TensorFlow reads as string, but nothing else converts to a string
    tensor ("Cast int8 to string is not supported"); else None."""
    if opts["mode"] != LEGACY or "string" not in (a.dtype, b.dtype):
        return None
    other = b.dtype if a.dtype == "string" else a.dtype
    if other == "string":
        return None
    return refuse(
        "operator",
        f"TensorFlow cannot convert {ref(other)} to a string tensor (result_type says"
        f" {ref('string')})",
    )


def python_bool_refused(a: Operand, b: Operand) -> Outcome | None:
    """The refusal of a tensor's operator (``+``, ``==``, ``*`` ...) given a Python bool it
    cannot convert to the tensor's dtype, else None."""
    for scalar, tensor in ((a, b), (b, a)):
        if (
            scalar.category == PYTHON
            and scalar.dtype == "bool"
            and tensor.category != PYTHON
            and tensor.dtype in _NO_PYTHON_BOOL
        ):
            return refuse(
                "operator",
                f"TensorFlow raises TypeError: Cannot convert True to EagerTensor of dtype"
                f" {ref(tensor.dtype)} (result_type would say {ref(tensor.dtype)})",
            )
    return None


class TensorFlowPolicy(LatticePolicy, framework=FRAMEWORK):
    edges = _EDGES
    universe = (*DEFAULT_TYPES, "string")
    default_types = DEFAULT_TYPES
    known_unsupported: ClassVar[Mapping[str, str]] = _OTHER_TF_TYPES
    categories = frozenset({"D", PYTHON})

    def node(self, op: Operand) -> str:
        return _PYTHON.get(op.dtype, op.dtype)

    def universe_for(self, opts: Mapping[str, Any] | None) -> tuple[str, ...]:
        """mode=legacy has no weak types: no WeakTensor is made, a Python scalar is a value."""
        universe = super().universe_for(opts)
        if (opts or {}).get("mode") != LEGACY:
            return universe
        return tuple(t for t in universe if not t.endswith("*"))

    def excluded(self, opts: Mapping[str, Any]) -> str:
        return _TRACED_LEGACY if opts.get("function") and opts.get("mode") == LEGACY else ""

    def normalise(self, op: Operand, opts: Mapping[str, Any] | None = None) -> Operand | Outcome:
        if self.excluded(opts or {}):
            return refuse(DECLINED, _TRACED_LEGACY)
        if (opts or {}).get("mode") == LEGACY and op.category == PYTHON and op.dtype in _READ_WEAK:
            return refuse(
                "operand",
                f"dtype_conversion_mode='legacy' has no WeakTensor ({ref(op.dtype)}): a Python"
                " scalar is its value there, and tf.constant gives a plain tensor",
            )
        return super().normalise(op, opts)

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        if opts["mode"] == LEGACY:
            return self.legacy_join([a, b], opts)
        return super().decide(a, b, opts)

    def result_type(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """mode=legacy: ``tnp.result_type``, ``np.result_type`` of all operands at once (not a
        fold), which checks no value (the operator does, ``check_value``)."""
        if opts["mode"] != LEGACY or len(operands) < 2:
            return super().result_type(operands, opts)
        normalised = self._all_normalised(operands, opts)
        if isinstance(normalised, Outcome):
            return normalised
        return self.legacy_join(normalised, opts)

    def legacy_join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """mode=legacy's promotion: ``np.result_type`` (the numpy policy with ml_dtypes), and
        a string is NumPy's object, which TensorFlow reads back as a string: object with
        anything is object, unless NumPy's sequence promotion meets two others that do not
        promote before it (``np.result_type(uint16, string, bfloat16)`` raises; with the string
        first it does not)."""
        from promote_cli.shared.numpy_promotion import (
            NUMPY,
            declines_sequence,
            promote_sequence,
            release,
        )

        as_numpy = {"ml_dtypes": opts.get("ml_dtypes", _NEWEST)}
        if any(op.dtype == "string" for op in operands):
            # np.result_type takes the dtypes first, then the Python scalars
            ordered = sorted(operands, key=lambda op: op.category == PYTHON)
            dtypes = [_AS_OBJECT.get(o.dtype, o.dtype) for o in ordered]
            ml = release(as_numpy["ml_dtypes"])
            declined = declines_sequence(ml, dtypes)
            if declined is not None:
                return declined
            found = promote_sequence(dtypes, ml)
            if isinstance(found, str):
                return refuse(
                    LEGACY,
                    "dtype_conversion_mode='legacy' calls np.result_type, which cannot promote"
                    f" {ref(found if found != 'object' else 'string')} with the others",
                )
            return Outcome(
                "string",
                LEGACY,
                "np.result_type makes a string object, and object with anything object, which"
                " TensorFlow reads back as string",
            )
        strong = [op if op.category == PYTHON else Operand(op.dtype) for op in operands]
        out = NUMPY.join(strong, as_numpy)
        if out.rule == DECLINED:
            return out
        return out._replace(
            rule=LEGACY, why=f"dtype_conversion_mode='legacy' calls np.result_type: {out.why}"
        )

    def operate(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """``a + b``: ``result_type`` unless a Python bool cannot be converted to the tensor's
        dtype or both are bool (``AddV2``'s op definition does not admit bool); in legacy mode
        a string meets no other type."""
        unconverted = python_bool_refused(a, b) or legacy_string_refused(a, b, opts)
        if unconverted is not None:
            return unconverted
        for scalar, tensor in ((a, b), (b, a)):
            if (
                tensor.category != PYTHON
                and tensor.dtype == "uint64"
                and (int_value(scalar) or 0) < 0
            ):
                return unsigned_unconverted(int_value(scalar) or 0)
        out = self.promote(a, b, opts)
        if out.result == "bool":
            return refuse(
                "operator",
                "TensorFlow's AddV2 does not admit bool (its op definition's T excludes it, on"
                " every device): + raises for bool inputs",
            )
        return out

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """TensorFlow converts every Python int to int32 first, whatever the tensor; in legacy
        mode to the tensor's promoted dtype (``_LEGACY_INT_RANGE``)."""
        value = int_value(scalar)
        if value is not None and opts["mode"] == LEGACY:
            return _legacy_int_refused(value, against)
        if value is None or -(2**31) <= value < 2**31:
            return None
        return refuse(
            "value",
            f"TensorFlow raises OverflowError: Python int {value} too large to convert to np.int32",
        )

    def materialise(self, weak: str, opts: Mapping[str, Any]) -> Materialised:
        """A weak type carries its width: a WeakTensor of ``f64*`` has dtype float64, and
        ``tf.constant`` of it is a float64 tensor, in either mode."""
        return Materialised(weak.removesuffix("*"))

    def bounded(
        self, lat: Lattice, nodes: Sequence[str], top: str, opts: Mapping[str, Any]
    ) -> Outcome:
        if opts["mode"] == "safe" and frozenset(nodes) in all_only():
            return refuse(
                "safe-mode",
                f"{' x '.join(map(ref, nodes))} -> {ref(top)} risks precision loss or"
                " bit-widening; dtype_conversion_mode='safe' disallows it"
                f" (mode=all gives {ref(top)})",
                unsafe_result=top,
            )
        return super().bounded(lat, nodes, top, opts)

    def why_unbounded(
        self, nodes: Sequence[str], operands: Sequence[Operand], opts: Mapping[str, Any]
    ) -> str:
        return (
            f"TensorFlow does not convert between {' and '.join(map(ref, nodes))}"
            " implicitly (convert explicitly)"
        )


def _legacy_int_refused(value: int, against: str | None) -> Outcome | None:
    """mode=legacy: the operator's conversion of the Python int ``value`` to the tensor of
    ``against`` it promotes with (bool's is int64), refused outside that dtype's range."""
    if against is None or against == "string":
        return None
    promoted = "int64" if against == "bool" else against
    bounds = _LEGACY_INT_RANGE.get(promoted, _INT64_RANGE)
    if bounds is None or bounds[0] <= value < bounds[1]:
        return None
    if promoted == "uint64":
        return unsigned_unconverted(value)
    return refuse(
        "value",
        f"TensorFlow raises ValueError: Can't convert Python sequence with out-of-range integer"
        f" to Tensor ({value} to {ref(promoted)}, through int64)",
    )


def unsigned_unconverted(value: int) -> Outcome:
    """A Python int outside [0, 2**64) converted to a uint64 tensor's dtype, in any operation:
    declined, as its answer depends on what the process did before (see the module's
    docstring; measured with -1, -300 and 2**64 in every mode)."""
    why = "can't convert negative int to unsigned" if value < 0 else "int too big to convert"
    return refuse(
        DECLINED,
        f"TensorFlow raises OverflowError: {why} ({value} with"
        f" a {ref('uint64')} tensor) the first time in a process, but the same call made again"
        f" answers {ref('uint64')} ({ref('bool')} for a comparison) from its scalar cache, with"
        " a wrong value: which one a program sees depends on what ran before",
    )


POLICY = TensorFlowPolicy()
