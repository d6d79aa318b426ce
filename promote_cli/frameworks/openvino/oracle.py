"""The OpenVINO oracle: build a ``ConvertPromoteTypes-14`` node and read its output type.

Each cell is a real ``opset14.convert_promote_types`` node over two ``Parameter`` inputs, 0-d
(``S(t)``) or of shape ``[2]`` (``D(t)``), with the option setting as its three attributes. The
node checks its types when it is built; the error it raises (``RuntimeError``) is the refusal.
Element types are spelled in OpenVINO's own notation, which is ``ov.Type``'s attribute names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.frameworks.openvino import FRAMEWORK as ENTRY
from promote_cli.operands import DIMENSIONED, ZERO_D, Operand
from promote_cli.verify import Refused, answered, openvino_telemetry_declined
from promote_cli.verify.protocol import (
    CHAIN,
    PAIR,
    RESULT_TYPE,
    VALUE,
    Asks,
    Cell,
    Question,
    in_process,
)

RUNS = in_process("each cell is a graph node built and dropped; OpenVINO keeps no state")
ASKS = Asks(nary=True)

_NOTATION = ENTRY.declared_in


def load() -> Any:
    with openvino_telemetry_declined():
        import openvino as ov
    from openvino import opset1, opset14

    return ov, opset1, opset14


def version(handle: Any) -> str:
    # get_version() is "2026.4.1-22982-<commit>-releases/2026/4"; the release is enough.
    return str(handle[0].get_version().split("-")[0])


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """A pair: a ``ConvertPromoteTypes-14`` node over two ``Parameter`` inputs with the option
    setting as its attributes, and its output type. OpenVINO has no n-ary promotion: both n-ary
    questions build the graph ``(a + b) + c``, a node per step whose output feeds the next one
    as a new input of its element type, 0-d only when both inputs of the step were (the shape
    an elementwise op between the nodes gives)."""
    ov, opset1, opset14 = handle
    read = _NOTATION.spellings()
    target = _NOTATION.label(opts["u64_integer_promotion_target"])

    def parameter(op: Operand) -> Any:
        element = getattr(ov.Type, _NOTATION.label(op.dtype), None)
        if element is None:
            raise Refused(f"OpenVINO has no element type {op.dtype}")
        return opset1.parameter([] if op.category == ZERO_D else [2], element)

    def promoted(a: Operand, b: Operand) -> str:
        node = opset14.convert_promote_types(
            parameter(a),
            parameter(b),
            opts["promote_unsafe"],
            opts["pytorch_scalar_promotion"],
            target,
        )
        return str(read[node.get_output_element_type(0).get_type_name()])

    def fold(ops: Sequence[Operand]) -> str:
        acc = ops[0]
        for op in ops[1:]:
            scalar = acc.category == ZERO_D and op.category == ZERO_D
            acc = Operand(promoted(acc, op), ZERO_D if scalar else DIMENSIONED)
        return acc.dtype

    def ask(q: Question) -> str:
        if q.kind == PAIR:
            return promoted(*q.operands)
        if q.kind in (RESULT_TYPE, CHAIN, VALUE):
            return fold(q.operands)
        raise ValueError(f"OpenVINO's oracle is not asked {q.kind}")

    return answered(questions, ask, (RuntimeError,))
