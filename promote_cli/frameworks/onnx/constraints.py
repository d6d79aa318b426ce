"""ONNX's operators as data: what ``constraints.json`` holds, read without onnx installed.

``constraints.json`` is written by ``schemas_gen`` from ``onnx.defs.get_schema(op, OPSET)``
(each operator's type constraints; see there). An operator takes the types its constraints
allow and promotes nothing: two inputs bound to one constraint (``Add``'s ``A`` and ``B``, both
``T``) must have one type, and the output has its constraint's type: an input's (``Add``'s
``C`` is ``T``) or one of its own (``Equal``'s ``T1``, bool; ``ArgMax``'s int64). ``bind`` is
that rule, for the policy's pairs (``Add``) and for every operation's operands alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from promote_cli.engine import Outcome, ref, refuse
from promote_cli.operands import Operand
from promote_cli.record import Record

FILE = Path(__file__).resolve().parent / "constraints.json"
OPSET = 28  # the newest opset of onnx 1.23.2; onnxruntime 1.32.0 has kernels for all of it

# ONNX's element types (``TensorProto.DataType``; ``tensor(float)`` spells them) in canonical
# names, in ``TensorProto``'s order.
ONNX_TYPES: Mapping[str, str] = {
    "float": "float32",
    "uint8": "uint8",
    "int8": "int8",
    "uint16": "uint16",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "string": "string",
    "bool": "bool",
    "float16": "float16",
    "double": "float64",
    "uint32": "uint32",
    "uint64": "uint64",
    "complex64": "complex64",
    "complex128": "complex128",
    "bfloat16": "bfloat16",
    "float8e4m3fn": "float8_e4m3fn",
    "float8e4m3fnuz": "float8_e4m3fnuz",
    "float8e5m2": "float8_e5m2",
    "float8e5m2fnuz": "float8_e5m2fnuz",
    "uint4": "uint4",
    "int4": "int4",
    "float4e2m1": "float4_e2m1fn",
    "float8e8m0": "float8_e8m0fnu",
    "uint2": "uint2",
    "int2": "int2",
    "float6e2m3": "float6_e2m3fn",
    "float6e3m2": "float6_e3m2fn",
}
ONNX_NAMES: Mapping[str, str] = {c: o for o, c in ONNX_TYPES.items()}

CONSTRAINT = "constraint"  # Outcome.rule of a refusal by a type constraint


class Operator(Record):
    """One function of the vocabulary as its ONNX operator at ``OPSET``."""

    name: str  # the operator: ``Add``
    since: int  # the version of it that opset ``OPSET`` has
    attributes: Mapping[str, Any]
    # the node's inputs in order: an operand's index, or a fixed tensor [input, dtype, value]
    slots: tuple[Any, ...]
    operands: tuple[tuple[str, str], ...]  # each operand's input and its constraint
    output: tuple[str, str]  # the output and its constraint
    constraints: Mapping[str, tuple[str, ...]]  # each constraint's types, canonical names

    @property
    def spelled(self) -> str:
        """``Add-14``, ONNX's name for the operator's version: how a reason names it."""
        return f"{self.name}-{self.since}"

    def bind(self, operands: Sequence[Operand]) -> Outcome:
        """The operands bound to the operator's inputs: each type must be one its input's
        constraint allows, and inputs of one constraint must have one type. The outcome is the
        type of the first operand's constraint (what the operation's kind then applies to)."""
        bound: dict[str, str] = {}
        for (formal, param), x in zip(self.operands, operands, strict=True):
            allowed = self.constraints[param]
            if x.dtype not in allowed:
                return refuse(
                    CONSTRAINT,
                    f"{self.spelled}'s input {formal} is {param}, which opset {OPSET} does not"
                    f" allow to be {ref(x.dtype)} (it allows {_listed(allowed)})",
                )
            if bound.setdefault(param, x.dtype) != x.dtype:
                inputs = " and ".join(f for f, p in self.operands if p == param)
                return refuse(
                    CONSTRAINT,
                    f"{self.spelled} binds {inputs} to one type {param}: {ref(bound[param])}"
                    f" and {ref(x.dtype)} differ (ONNX promotes nothing: an exporter inserts a"
                    " Cast)",
                )
        t = operands[0].dtype
        return Outcome(t, CONSTRAINT, f"{self.spelled} takes {_bound(bound)}")


def _listed(types: Sequence[str]) -> str:
    return ", ".join(ref(t) for t in types)


def _bound(bound: Mapping[str, str]) -> str:
    return "; ".join(f"{ref(t)} as its {p}" for p, t in bound.items())


class Data(Record):
    onnx: str  # the onnx release the schemas were read from
    opset: int
    operators: Mapping[str, Operator]  # by the vocabulary's name
    absent: Mapping[str, str]  # the vocabulary's names ONNX has no single operator for, why


@cache
def data() -> Data:
    """``constraints.json``, read once."""
    raw = json.loads(FILE.read_text(encoding="utf-8"))
    operators = {
        name: Operator(
            e["operator"],
            e["since"],
            e["attributes"],
            tuple(tuple(s) if isinstance(s, list) else s for s in e["slots"]),
            tuple((f, p) for f, p in e["operands"]),
            (e["output"][0], e["output"][1]),
            {p: tuple(ts) for p, ts in e["constraints"].items()},
        )
        for name, e in raw["operators"].items()
    }
    return Data(raw["onnx"], raw["opset"], operators, raw["absent"])
