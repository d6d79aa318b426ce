"""The Python array API standard: the promotions it requires, a lattice.

Source: the standard's "Type Promotion Rules" (versions 2024.12 and 2025.12 agree; checked
against array-api-strict 2.6.1, whose ``result_type`` implements exactly the required rules).
Its tables join within a kind: signed integers, unsigned integers, the two together except
uint64 with a signed type, and the floating types, real and complex together
(``float64 x complex64 = complex128``). Everything else is left unspecified by the standard:
mixing kinds (bool with numbers, integers with floats) and uint64 with a signed integer; those
pairs are refused here with that reason. 0-d arrays follow the same rules.

Python scalars follow the standard's "Mixing arrays with Python scalars": a ``bool`` only with
a bool array, an ``int`` with integer and floating arrays, a ``float`` with floating arrays,
a ``complex`` with floating arrays, where a real array takes the complex type of its
precision (``float32 x complex = complex64``); the scalar never changes the array's type
otherwise. They are weak nodes of the lattice, ``int* -> int8, uint8, float*``,
``float* -> float32, complex*``, ``complex* -> complex64``. Two Python scalars alone have no
result (the standard's ``result_type`` needs an array or a dtype). A Python int
(``int:VALUE``) outside an integer array type's range raises ``OverflowError`` in
array-api-strict, in ``result_type`` and in the operators (the standard leaves it
unspecified); a float array takes any value. Before 2024.12 ``result_type``
took no scalars and a complex scalar did not mix with a real array.

The two n-ary questions: ``result_type(a, b, c)`` is the least upper bound of all operands;
a chain ``(a + b) + c`` is a fold in which two Python scalars meet in Python first (``True +
True`` is the int 2, so ``True, True, int8`` works as a chain but not in ``result_type``) and
``+`` refuses bool arrays ("Only numeric dtypes are allowed in __add__").

Where it departs from its neighbours: it is the strict core every framework extends — JAX,
NumPy and PyTorch give every refused pair an answer (``int8 x float32``, ``uint64 x int64``),
and it has no float16, bfloat16 or float8 types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from promote_cli.dtypes import get, is_weak
from promote_cli.engine import Outcome, ref, refuse
from promote_cli.frameworks.array_api import FRAMEWORK
from promote_cli.lattice import LatticePolicy
from promote_cli.operands import PYTHON, Operand, int_value

# Each type and the types directly above it.
_EDGES = """
bool
int*        int8 uint8 float*
int8        int16
int16       int32
int32       int64
int64
uint8       uint16 int16
uint16      uint32 int32
uint32      uint64 int64
uint64
float*      float32 complex*
float32     float64 complex64
float64     complex128
complex*    complex64
complex64   complex128
complex128
"""

TYPES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)


class ArrayApiPolicy(LatticePolicy, framework=FRAMEWORK):
    edges = _EDGES
    universe = TYPES
    default_types = TYPES
    known_unsupported: ClassVar[Mapping[str, str]] = {
        t: f"the array API standard has no {t} data type"
        for t in ("float16", "bfloat16", "longdouble", "complex32", "clongdouble")
    }
    categories = frozenset({"D", PYTHON})
    unbounded_rule = "unspecified"

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return self.join([a, b], opts)

    def join(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """The least upper bound of all operands, as ``result_type`` computes it."""
        if all(op.category == PYTHON for op in operands):
            return refuse(
                "scalars-only",
                "the array API standard promotes Python scalars only together with an array",
            )
        return self.least_bound(operands, opts)

    def operate(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        """``a + b``: ``+`` takes numeric arrays only, checked before any promotion."""
        for op in (a, b):
            if op.category != PYTHON and op.dtype == "bool":
                return refuse(
                    "operator",
                    "array-api-strict raises TypeError: Only numeric dtypes are allowed in"
                    " __add__ (a bool array)",
                )
        return self.promote(a, b, opts)

    def check_value(
        self, scalar: Operand, against: str | None, opts: Mapping[str, Any]
    ) -> Outcome | None:
        """A Python int must lie within an integer array type's bounds."""
        value = int_value(scalar)
        if value is None or against is None:
            return None
        info = get(against)
        if not info.is_integer:
            return None
        bits = info.bits or 0
        low, high = (
            (0, 2**bits - 1) if info.kind == "uint" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        )
        if low <= value <= high:
            return None
        return refuse(
            "value",
            "array-api-strict raises OverflowError: Python int scalars must be within the"
            f" bounds of the dtype for integer arrays ({value} is outside {ref(against)})",
        )

    def why_unbounded(
        self, nodes: Sequence[str], operands: Sequence[Operand], opts: Mapping[str, Any]
    ) -> str:
        """Why the standard gives no result for these operands."""
        scalars = [op for op in operands if op.category == PYTHON]
        arrays = [op for op in operands if op.category != PYTHON]
        for s in scalars:
            what = get(s.dtype).kind  # bool, int, float or complex
            for a in arrays:
                if self.lattice.lub(s.dtype, a.dtype) is None:
                    return (
                        f"the array API standard does not specify a Python {what} with a"
                        f" {ref(a.dtype)} array"
                    )
        if "uint64" in nodes and any(get(n).kind == "int" and not is_weak(n) for n in nodes):
            return "the array API standard leaves uint64 with a signed integer unspecified"
        # The standard's kinds: bool, integer and floating (real and complex together).
        kinds = sorted({"floating" if get(n).is_complex else get(n).category for n in nodes})
        return (
            "the array API standard leaves promotion between kinds"
            f" ({' and '.join(kinds)}) unspecified"
        )


POLICY = ArrayApiPolicy()
