"""Write the onnx policy's data, ``constraints.json``, from the installed onnx's operator schemas.

ONNX has no implicit promotion: each operator declares, per opset, the types each input and
output may have, as type constraints (``onnx.defs.get_schema(op, opset).type_constraints``:
each constraint's ``type_param_str``, ``T``, and its ``allowed_type_strs``, ``tensor(float)``
...). Inputs that share a constraint must have one type (``Add`` binds ``A`` and ``B`` to one
``T``). That is the whole rule, so it is kept as data: for each array API name of promote's
vocabulary, the ONNX operator it maps to (``MAPPING`` below, the one hand-written decision), the
version of that operator at ``OPSET``, the inputs the operands fill and the constraint of each,
the output's constraint and every constraint's allowed types, in canonical names; and for each
name ONNX has no single operator for, why (``ABSENT``). The rules read only that file, so
``promote pair -p onnx`` imports neither onnx nor onnxruntime;
``tests/properties/test_policy_onnx.py`` checks it against the installed onnx when there is one.

    python -m promote_cli.frameworks.onnx.schemas_gen           # writes constraints.json
    python -m promote_cli.frameworks.onnx.schemas_gen --check   # exit 1 when it is stale

``OPSET`` is 28, the newest opset of onnx 1.23.2, which onnxruntime 1.32.0 fully supports: its
CPU execution provider registers a kernel for the version at opset 28 of every operator that
is not a function (ONNX expands those into other operators), but ``ImageDecoder`` (missing at
every opset since 20, where it appeared), as it does at every opset from 20 up
(``onnxruntime.capi._pybind_state.get_all_opkernel_def()``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import onnx
from onnx import defs

from promote_cli import atomic
from promote_cli.frameworks.onnx.constraints import FILE, ONNX_TYPES, OPSET

# Each function of the vocabulary and its ONNX operator: its attributes, and the inputs that
# are not the function's operands, with the tensor the oracle gives them (an input name, its
# type, its value): ``Where``'s condition, ``CumSum``'s axis. The operands fill the other
# inputs in order; an optional input left out takes its default (``ReduceSum`` without
# ``axes`` reduces every axis, as the array API's ``sum`` does).
MAPPING: dict[str, tuple[str, dict[str, Any], tuple[tuple[str, str, Any], ...]]] = {
    "add": ("Add", {}, ()),
    "subtract": ("Sub", {}, ()),
    "multiply": ("Mul", {}, ()),
    "divide": ("Div", {}, ()),
    # fmod=0 (the default): the sign of the divisor, Python's and the array API's %
    "remainder": ("Mod", {}, ()),
    "pow": ("Pow", {}, ()),
    "maximum": ("Max", {}, ()),
    "minimum": ("Min", {}, ()),
    "equal": ("Equal", {}, ()),
    "less": ("Less", {}, ()),
    "logical_and": ("And", {}, ()),
    "bitwise_and": ("BitwiseAnd", {}, ()),
    "bitwise_left_shift": ("BitShift", {"direction": "LEFT"}, ()),
    "matmul": ("MatMul", {}, ()),
    "negative": ("Neg", {}, ()),
    "abs": ("Abs", {}, ()),
    "sqrt": ("Sqrt", {}, ()),
    "exp": ("Exp", {}, ()),
    "log": ("Log", {}, ()),
    "sin": ("Sin", {}, ()),
    "floor": ("Floor", {}, ()),
    "ceil": ("Ceil", {}, ()),
    "round": ("Round", {}, ()),
    "sign": ("Sign", {}, ()),
    "logical_not": ("Not", {}, ()),
    "bitwise_invert": ("BitwiseNot", {}, ()),
    "isnan": ("IsNaN", {}, ()),
    "sum": ("ReduceSum", {}, ()),
    "prod": ("ReduceProd", {}, ()),
    "mean": ("ReduceMean", {}, ()),
    "max": ("ReduceMax", {}, ()),
    "argmax": ("ArgMax", {}, ()),
    "cumulative_sum": ("CumSum", {}, (("axis", "int64", 0),)),
    "where": ("Where", {}, (("condition", "bool", True),)),
}
ABSENT = {
    "floor_divide": "ONNX's Div truncates integers and has no floor division; Floor(Div(a, b))"
    " is two operators",
    "atan2": "ONNX has no two-argument arctangent (Atan takes one input)",
    "square": "ONNX has no square operator; Mul(x, x) or Pow(x, 2) takes two inputs",
    "real": "ONNX has no complex arithmetic operators (no Real, no Imag)",
    "imag": "ONNX has no complex arithmetic operators (no Real, no Imag)",
}


def canonical(type_str: str) -> str:
    """``tensor(float)`` -> ``float32``; an ONNX type that is not a tensor is a bug here."""
    if not (type_str.startswith("tensor(") and type_str.endswith(")")):
        raise ValueError(f"not a tensor type: {type_str}")
    return ONNX_TYPES[type_str[len("tensor(") : -1]]


def entry(name: str) -> dict[str, Any]:
    """The data of the vocabulary's ``name``: its operator's schema at ``OPSET``."""
    op, attributes, fixed = MAPPING[name]
    schema = defs.get_schema(op, OPSET)
    constraints = {
        c.type_param_str: [canonical(t) for t in c.allowed_type_strs]
        for c in schema.type_constraints
    }

    def param(formal: Any) -> str:
        # an input or output typed by a constraint names it; one typed directly (ArgMax's
        # tensor(int64) output) is its own one-type constraint
        if formal.type_str not in constraints:
            constraints[formal.type_str] = [canonical(formal.type_str)]
        return str(formal.type_str)

    # The node's inputs in order: an operand (its index) or a fixed tensor; the optional
    # inputs after the operands are left out. A variadic input (Max's data_0) takes both.
    from promote_cli.vocabulary import VOCABULARY, takes_one

    arity = 1 if takes_one(VOCABULARY[name]) else 2
    given = {i: [i, t, v] for i, t, v in fixed}
    slots: list[Any] = []
    operands: list[list[str]] = []
    variadic = onnx.defs.OpSchema.FormalParameterOption.Variadic
    for formal in schema.inputs:
        if formal.name in given:
            slots.append(given[formal.name])
            continue
        if len(operands) == arity:
            break
        for _ in range(arity - len(operands) if formal.option == variadic else 1):
            slots.append(len(operands))
            operands.append([formal.name, param(formal)])
    if len(operands) != arity:
        raise ValueError(f"{op} has {len(operands)} inputs for {name}'s {arity} operands")
    out = schema.outputs[0]
    return {
        "operator": op,
        "since": schema.since_version,
        "attributes": attributes,
        "slots": slots,
        "operands": operands,
        "output": [out.name, param(out)],
        "constraints": constraints,
    }


def data() -> dict[str, Any]:
    return {
        "generated": "python -m promote_cli.frameworks.onnx.schemas_gen",
        "onnx": onnx.__version__,
        "opset": OPSET,
        "operators": {name: entry(name) for name in MAPPING},
        "absent": ABSENT,
    }


def text() -> str:
    return json.dumps(data(), indent=1) + "\n"


def main(argv: list[str]) -> int:
    found = text()
    if "--check" in argv:
        same = FILE.is_file() and FILE.read_text(encoding="utf-8") == found
        print(f"{FILE.name}: {'up to date' if same else 'stale'} (onnx {onnx.__version__})")
        return 0 if same else 1
    if not FILE.is_file() or FILE.read_text(encoding="utf-8") != found:
        atomic.replace_file(FILE, found.encode())
    print(f"wrote {Path(FILE).name} from onnx {onnx.__version__}, opset {OPSET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
