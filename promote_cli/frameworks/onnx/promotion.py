"""ONNX: no implicit promotion; a pair is ``Add``'s type constraint at opset 28.

Source: ``onnx.defs.get_schema("Add", 28)`` (onnx 1.23.2), kept as data in
``constraints.json`` (``schemas_gen``), and ONNX Runtime 1.32.0's CPU execution provider, which
runs every cell (``promote measure onnx``). ``Add`` binds both inputs to one type ``T`` (uint8
to uint64, int8 to int64, float16, float32, float64, bfloat16), so a pair of one allowed type
gives that type, and every other pair is refused naming the constraint: ONNX inserts no Cast,
an exporter does. Where it departs from every neighbour: nothing promotes, not even bool with
bool (``Add`` has no bool); a 0-d tensor is a tensor like any other (no weak scalars), and
there are no Python scalars. ONNX Runtime's CPU provider has no bfloat16 ``Add`` kernel: the
rule answers bfloat16 there, as ONNX's type inference does, and the run is a gap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.dtypes import CATALOGUE
from promote_cli.engine import SYMMETRIC, Outcome, Policy
from promote_cli.frameworks.onnx import FRAMEWORK
from promote_cli.frameworks.onnx.constraints import ONNX_TYPES, data
from promote_cli.operands import DIMENSIONED, ZERO_D, Operand

# Every ONNX element type (constraints.py names each), in the catalogue's order; the default
# table shows the ones Add takes.
TYPES = tuple(t for t in CATALOGUE if t in frozenset(ONNX_TYPES.values()))


class OnnxPolicy(Policy, framework=FRAMEWORK):
    universe = TYPES
    default_types = tuple(t for t in TYPES if t in data().operators["add"].constraints["T"])
    categories = frozenset({DIMENSIONED, ZERO_D})
    # Not idempotent: Add refuses bool with bool, and every type its T does not allow.
    properties = frozenset({SYMMETRIC})

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return data().operators["add"].bind((a, b))


POLICY = OnnxPolicy()
