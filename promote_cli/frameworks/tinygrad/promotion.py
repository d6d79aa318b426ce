"""tinygrad: ``tinygrad.dtype.least_upper_dtype`` over its ``promo_lattice``.

Source: ``tinygrad/dtype.py`` (tinygrad 0.14.0): ``promo_lattice`` (the edges below, verbatim)
and ``least_upper_dtype(*ds)``, the least of the operands' common ancestors by ``DType``'s own
order (priority, then size, then name). Checked against every cell of every operand category of
``x + y`` on tinygrad tensors and against ``least_upper_dtype`` on every triple.

The four float8 types sit between the weak float and float16/bfloat16, so two different float8
types have two least bounds, float16 and bfloat16; tinygrad's order takes float16. That tie-break
is declared with the lattice, so the graph is still drawn, but the answer is not associative
(``(fp8e4m3 . fp8e5m2) . bfloat16`` is float32, ``fp8e4m3 . (fp8e5m2 . bfloat16)`` bfloat16)
and the policy does not claim the ``lattice`` property. An n-ary promotion is one intersection
over all operands, as ``least_upper_dtype(a, b, c)`` computes it (``a + b + c`` on tensors is
the left fold instead).

A weak result stays weak, even from two strong operands: ``uint64 x int64`` is ``float*``, the
dtype tinygrad reports (``dtypes.weakfloat``; it is realised as the default float, float32).
Operands: 0-d tensors are not special. A Python scalar is the dtype ``dtypes.from_py`` gives
it, as ``Tensor`` arithmetic does: a ``bool`` is ``bool``, an int ``int*`` (weakint), a float
``float*`` (weakfloat), whatever its value (``uint8 + 300`` is uint8: tinygrad wraps the value,
it never checks it); tinygrad has no complex types, and a Python complex is refused ("Could not
infer dtype of 1j"). Two Python scalars are ``least_upper_dtype`` of their two weak types
(``int x float = float*``); the chain adds them in Python first.

The chain, ``(a + b) + c`` on tensors: a weak result is a lazy weak tensor (``Tensor(int8) +
1.0`` is a weakfloat tensor) and promotes as its weak type does, so ``(int8 + 1.0) + float16``
is float16. Such a tensor is the operand ``D(float*)`` (``D(int*)``): tinygrad cannot allocate
one, but every step of a chain can make one.

tinygrad's ``fp8e4m3`` is NVIDIA's ``__nv_fp8_e4m3``, OCP E4M3FN: the catalogue's
float8_e4m3fn bit for bit (0x7e is 448, 0x7f NaN), although its ``DType.name`` is
"float8_e4m3"; the catalogue's float8_e4m3 (IEEE-like) is a type tinygrad does not have.

Where it departs from its neighbours: JAX's lattice without complex types, the float8 types
placed under float16/bfloat16 (JAX promotes them with nothing but bool, integers and weak
scalars; ``int64 x fp8e4m3 = fp8e4m3`` here), float8 x float8 = float16 (JAX refuses), and a
weak result of two strong operands is not materialised (JAX: float64). Unlike PyTorch, 0-d
tensors and Python scalars are no category of their own, uint16/32/64 and float8 promote, and
``bool x P(int)`` is ``int*`` (PyTorch int64).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from promote_cli.engine import (
    IDEMPOTENT,
    SYMMETRIC,
    TOTAL,
    Materialised,
    Outcome,
    ref,
    refuse,
)
from promote_cli.frameworks.tinygrad import FRAMEWORK
from promote_cli.lattice import Lattice, LatticePolicy, read_edges
from promote_cli.operands import DIMENSIONED, PYTHON, Operand

# promo_lattice, in tinygrad's names.
_EDGES = """
bool         int*
int*         int8 uint8
int8         int16
uint8        int16 uint16
int16        int32
uint16       int32 uint32
int32        int64
uint32       int64 uint64
int64        float*
uint64       float*
float*       fp8e4m3 fp8e5m2 fp8e4m3fnuz fp8e5m2fnuz
fp8e4m3      float16 bfloat16
fp8e5m2      float16 bfloat16
fp8e4m3fnuz  float16 bfloat16
fp8e5m2fnuz  float16 bfloat16
float16      float32
bfloat16     float32
float32      float64
float64
"""
# DType.__lt__: (priority, itemsize, name); it decides only between the float8 types' two bounds.
_ORDER = """
bool int* int8 uint8 int16 uint16 int32 uint32 int64 uint64 float*
fp8e4m3 fp8e4m3fnuz fp8e5m2 fp8e5m2fnuz float16 bfloat16 float32 float64
"""
# The weak types a lazy tensor can have (``dtypes.weakint``, ``dtypes.weakfloat``).
_WEAK_TENSORS = ("int*", "float*")
TYPES = (
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float16",
    "bfloat16",
    "float32",
    "float64",
)


class TinygradPolicy(LatticePolicy, framework=FRAMEWORK):
    edges = _EDGES
    universe = TYPES
    default_types = TYPES
    known_unsupported: ClassVar[Mapping[str, str]] = {
        "complex64": "tinygrad has no complex types",
        "complex128": "tinygrad has no complex types",
        "float8_e4m3": "tinygrad's fp8e4m3 (DType name float8_e4m3) is OCP E4M3FN, the"
        " catalogue's float8_e4m3fn; it has no IEEE-like float8_e4m3",
    }
    categories = frozenset({"D", PYTHON})
    # Not LATTICE: the float8 tie-break makes the answer non-associative. TOTAL over its
    # types: only a Python complex is refused.
    properties = frozenset({SYMMETRIC, IDEMPOTENT, TOTAL})

    def materialise(self, weak: str, opts: Mapping[str, Any]) -> Materialised:
        """A weak result is realised as tinygrad's default type of its kind (dtypes.default_int,
        dtypes.default_float), which the DEFAULT_INT and DEFAULT_FLOAT variables can change."""
        default = {"int*": ("int32", "DEFAULT_INT"), "float*": ("float32", "DEFAULT_FLOAT")}
        dtype, variable = default[weak]
        return Materialised(dtype, f"unless {variable} says otherwise")

    @cached_property
    def lattice(self) -> Lattice:
        """The declared lattice with tinygrad's DType order as its tie-break."""
        labels = self.declared_in.by_label()
        order = [labels[word] for word in _ORDER.split()]
        return Lattice(read_edges(self.edges, self.declared_in), tie_break=order)

    def normalise(self, op: Operand, opts: Mapping[str, Any] | None = None) -> Operand | Outcome:
        if op.category != PYTHON and op.dtype in _WEAK_TENSORS:
            # A lazy weak tensor (``Tensor(int8) + 1.0``): it promotes as its weak type.
            return Operand(op.dtype, DIMENSIONED)
        return super().normalise(op, opts)

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return self.join([a, b], opts)

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """``least_upper_dtype`` over all operands at once, a Python scalar as the dtype
        ``dtypes.from_py`` gives it (Python scalars alone included: ``int x float`` is
        ``float*``). A Python complex is refused: ``dtypes.from_py(1j)`` raises (two Python
        scalars of a chain are added by Python before, so ``1 + 1j`` is Python's complex)."""
        if any(op.category == PYTHON and op.dtype == "complex*" for op in operands):
            return refuse(
                "operand", "tinygrad has no complex types: a Python complex cannot join a tensor"
            )
        return self.least_bound(operands, opts)

    def bounded(
        self, lat: Lattice, nodes: Sequence[str], top: str, opts: Mapping[str, Any]
    ) -> Outcome:
        tied = lat.minimal(*nodes)
        if len(tied) == 1:
            return Outcome(top, "lattice", lat.explain(nodes, top))
        names = " and ".join(map(ref, dict.fromkeys(nodes)))
        bounds = " and ".join(map(ref, sorted(tied, key=lat.rank.__getitem__)))
        return Outcome(
            top,
            "tie-break",
            f"{names} have two least bounds, {bounds}; least_upper_dtype takes the first in"
            f" tinygrad's DType order, {ref(top)}",
        )


POLICY = TinygradPolicy()
