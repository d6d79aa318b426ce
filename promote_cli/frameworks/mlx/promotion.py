"""MLX: ``mlx.core`` type promotion, JAX's lattice with its weak nodes materialised.

Source: MLX 0.32.4 measured on CPU (``mx.add`` on arrays and Python scalars, and
``mx.result_type``, which agrees with ``mx.add`` wherever it answers): every pair of every
operand category. The least upper bound on the lattice below, then a weak bound resolved to a
32-bit type (``int*`` -> int32, ``float*`` -> float32, ``complex*`` -> complex64), reproduces
every cell. MLX never reports a weak result: what an operation returns is an array.

Operands: 0-d arrays are not special. A Python ``bool`` is the ``bool`` dtype; a Python int,
float or complex is weak (``int8 + 1`` stays int8), so ``bool + 1`` is int32 and
``int8 + 1.0`` float32. ``mx.result_type`` refuses Python scalars ("Inputs must be arrays or
dtypes"); ``mx.add`` takes them, and this policy answers what ``mx.add`` does, two Python
scalars included (``mx.add(1, 1.0)`` is a float32 array). An n-ary promotion is a left fold,
as ``mx.result_type(a, b, c)`` computes it, and the fold is order-dependent:
``(uint64, int8, float16)`` gives float32 but ``(float16, uint64, int8)`` float16. With a Python
scalar among three or more operands (``mx.result_type`` refuses them) the fold is of
``mx.add``'s pairs: ``(int, int, uint8)`` is int32, since ``mx.add(1, 1)`` is an int32 array,
where the chain ``(1 + 1) + uint8`` is uint8.

Values (``check_value``): MLX converts a Python int to the array's integer type and raises
"Converting 300 to uint8 would result in overflow." where it does not fit; uint64 takes any int64
(``uint64 + -1`` is uint64), a bool or floating array any int (``bool + 2**32`` is int32, not
checked), and an int outside int64 fails for every array (``RuntimeError: std::bad_cast``).
Floats are never checked.

Where it departs from JAX (its model): two strong operands that meet at a weak node get the
32-bit type (``uint64 x int64 = float32``; JAX gives float64 with x64, int32 without); 64-bit
types are kept (JAX without x64 narrows them); there is no complex128, so
``float64 x complex64 = complex64``; weak Python-scalar results are materialised
(``int8 x P(float) = float32``, JAX ``float*``); no int4 or float8 types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.dtypes import get
from promote_cli.engine import IDEMPOTENT, SYMMETRIC, TOTAL, Outcome, ref, refuse
from promote_cli.frameworks.mlx import FRAMEWORK
from promote_cli.lattice import Lattice, LatticePolicy
from promote_cli.operands import PYTHON, Operand, int_value

# Each type and the types directly above it, in MLX's names.
_EDGES = """
bool       int*
int*       uint8 int8
uint8      uint16 int16
uint16     uint32 int32
uint32     uint64 int64
uint64     float*
int8       int16
int16      int32
int32      int64
int64      float*
float*     float16 bfloat16 complex*
float16    float32
bfloat16   float32
float32    float64
float64    complex64
complex*   complex64
complex64
"""
# What a weak bound becomes: MLX computes in 32 bits unless an operand asked for more.
_MATERIALISED = {"int*": "int32", "float*": "float32", "complex*": "complex64"}
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
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
)


class MlxPolicy(LatticePolicy, framework=FRAMEWORK):
    edges = _EDGES
    universe = TYPES
    default_types = TYPES
    categories = frozenset({"D", PYTHON})
    # Not LATTICE: the materialised answer does not associate ((uint64 . int8) . float16 is
    # float32, uint64 . (int8 . float16) float16), so the n-ary answer is a fold. TOTAL: MLX
    # refuses no pair.
    properties = frozenset({SYMMETRIC, IDEMPOTENT, TOTAL})

    def bounded(
        self, lat: Lattice, nodes: Sequence[str], top: str, opts: Mapping[str, Any]
    ) -> Outcome:
        why = lat.explain(nodes, top)
        result = _MATERIALISED.get(top, top)
        if result != top:
            why += f", which MLX materialises as {ref(result)}"
        return Outcome(result, "lattice", why)

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """MLX converts a Python int to the array's integer type and raises when it does not
        fit; uint64 takes any int64 (-1 included), bool and floating types take any. An int
        outside int64 fails before any type is looked at."""
        value = int_value(scalar)
        if value is None:
            return None
        if not -(2**63) <= value < 2**63:
            return refuse(
                "value",
                f"MLX raises RuntimeError: std::bad_cast (the Python int {value} is outside"
                f" {ref('int64')})",
            )
        if against is None or against in ("bool", "uint64") or not get(against).is_integer:
            return None
        info = get(against)
        bits = info.bits or 0
        low, high = (
            (0, 2**bits - 1) if info.kind == "uint" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        )
        if low <= value <= high:
            return None
        return refuse(
            "value",
            f"MLX raises ValueError: Converting {value} to {ref(against)} would result in"
            " overflow (mx.result_type, which never looks at values, would say"
            f" {ref(against)})",
        )


POLICY = MlxPolicy()
