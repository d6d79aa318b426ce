"""NumPy (>= 2, NEP 50): ``numpy.promote_types`` and ``numpy.result_type``, a table policy.

Source: NumPy 2's promotion of its own dtypes (the table below, in NumPy's type codes) and
NEP 50 for Python scalars. NumPy's promotion is *not* a lattice: it is not associative
(``(int8 x uint8) x float16 = float32`` but ``int8 x (uint8 x float16) = float16``), so it is
stored as a table; the table is symmetric and only its lower half is kept.

Python scalars (NEP 50) are weak: one of a kind no higher than the array's keeps the array's
dtype (``int8 + int = int8``, ``float16 + float = float16``); a higher kind takes NumPy's
default of that kind (``int8 + float = float64``), except that a complex scalar keeps a float's
precision (``float32 + complex = complex64``). A Python ``bool`` is the ``bool`` dtype. 0-d
arrays are not special in NumPy 2.

Where it departs from its neighbours: integers widen floats (``int16 x float16 = float32``,
``int64 x float16 = float64``, where JAX and PyTorch keep the float), ``uint64 x int*`` is
``float64``, and it has ``longdouble``; the ml_dtypes types (bfloat16, float8 ...) are outside
its universe, which is what makes every bfloat16 cell of the JAX page "different".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.dtypes import get, is_weak
from promote_cli.engine import IDEMPOTENT, SYMMETRIC, TOTAL, Outcome, ref
from promote_cli.halftable import TablePolicy, mirror
from promote_cli.notations import NOTATIONS
from promote_cli.operands import PYTHON, Operand

# numpy.promote_types in NumPy's type codes; row i lists columns 0..i.
_LOWER_HALF = """
b1   b1
u1   u1   u1
u2   u2   u2   u2
u4   u4   u4   u4   u4
u8   u8   u8   u8   u8   u8
i1   i1   i2   i4   i8   f8   i1
i2   i2   i2   i4   i8   f8   i2   i2
i4   i4   i4   i4   i8   f8   i4   i4   i4
i8   i8   i8   i8   i8   f8   i8   i8   i8   i8
f2   f2   f2   f4   f8   f8   f2   f4   f8   f8   f2
f4   f4   f4   f4   f8   f8   f4   f4   f8   f8   f4   f4
f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   f8
g    g    g    g    g    g    g    g    g    g    g    g    g    g
c8   c8   c8   c8   c16  c16  c8   c8   c16  c16  c8   c8   c16  G    c8
c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  G    c16  c16
G    G    G    G    G    G    G    G    G    G    G    G    G    G    G    G    G
"""

# NumPy's default type of each kind a Python scalar can be.
_DEFAULT = {"int": "int64", "float": "float64", "complex": "complex128"}
_COMPLEX_OF = {
    "float16": "complex64",
    "float32": "complex64",
    "float64": "complex128",
    "longdouble": "clongdouble",
}


TABLE = mirror(_LOWER_HALF, NOTATIONS["numpy"].by_label())
TYPES = TABLE.order


class NumpyPolicy(TablePolicy):
    name = "numpy"
    title = "NumPy"
    source = "numpy.promote_types / numpy.result_type (NumPy 2, NEP 50)"
    notation_name = "canonical"
    table = TABLE
    universe = TYPES
    default_types = TYPES
    categories = frozenset({"D", PYTHON})
    properties = frozenset({SYMMETRIC, IDEMPOTENT, TOTAL})
    cell_reason = "numpy.promote_types"

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        weak_a, weak_b = is_weak(a.dtype), is_weak(b.dtype)
        if not (weak_a or weak_b):
            return self.lookup(a.dtype, b.dtype)
        if weak_a and weak_b:
            kind = max(get(a.dtype), get(b.dtype), key=lambda t: t.rank).kind
            return Outcome(_DEFAULT[kind], "nep50", f"two Python scalars: NumPy's default {kind}")
        strong, weak = (get(b.dtype), get(a.dtype)) if weak_a else (get(a.dtype), get(b.dtype))
        kind, scalar = strong.kind, weak.kind
        if strong.rank >= weak.rank:
            why = (
                f"NEP 50: a Python {scalar} does not change the dtype of an array of"
                f" {ref(strong.name)}"
            )
            return Outcome(strong.name, "nep50", why)
        if scalar == "complex" and kind == "float":
            result = _COMPLEX_OF[strong.name]
            return Outcome(
                result, "nep50", f"NEP 50: a Python complex keeps {strong.name}'s precision"
            )
        result = TABLE.cells[strong.name, _DEFAULT[scalar]]
        why = f"NEP 50: a Python {scalar} outranks {kind}; NumPy's default {_DEFAULT[scalar]}"
        return Outcome(result, "nep50", why)


POLICY = NumpyPolicy()
