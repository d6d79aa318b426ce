"""The OpenVINO oracle: build a ``ConvertPromoteTypes-14`` node and read its output type.

Each cell is a real ``opset14.convert_promote_types`` node over two ``Parameter`` inputs, 0-d
(``S(t)``) or of shape ``[2]`` (``D(t)``), with the option setting as its three attributes. The
node checks its types when it is built; the error it raises (``RuntimeError``) is the refusal.
Element types are spelled in OpenVINO's own notation, which is ``ov.Type``'s attribute names.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.frameworks.openvino import FRAMEWORK as ENTRY
from promote_cli.operands import DIMENSIONED, ZERO_D, Operand
from promote_cli.verify import Answer, Many, Refused, refusing, refusing_many

POLICY = "openvino"
FRAMEWORK = "openvino"
INSTALL = "openvino"
IN_CONFORMANCE_EXTRA = True
OPTIONS = ("promote_unsafe", "pytorch_scalar_promotion", "u64_integer_promotion_target")

_NOTATION = ENTRY.declared_in


def load() -> Any:
    with telemetry_declined():
        import openvino as ov
    from openvino import opset1, opset14

    return ov, opset1, opset14


@contextmanager
def telemetry_declined() -> Iterator[None]:
    """Around ``import openvino``: OpenVINO decides at import whether to send telemetry
    (``openvino_telemetry``: a GA4 event from a forked process, unless a consent file in
    ``~/intel`` declines) and skips it when ``CI=true``. Verifying sends nothing anywhere, so
    the variable is set for the import only, and put back; the decision is not made again."""
    before = os.environ.get("CI")
    os.environ["CI"] = "true"
    try:
        yield
    finally:
        if before is None:
            del os.environ["CI"]
        else:
            os.environ["CI"] = before


def version(handle: Any) -> str:
    # get_version() is "2026.4.1-22982-<commit>-releases/2026/4"; the release is enough.
    return handle[0].get_version().split("-")[0]


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    ov, opset1, opset14 = handle
    read = _NOTATION.spellings()
    target = _NOTATION.label(opts["u64_integer_promotion_target"])

    def parameter(op: Operand) -> Any:
        element = getattr(ov.Type, _NOTATION.label(op.dtype), None)
        if element is None:
            raise Refused(f"OpenVINO has no element type {op.dtype}")
        return opset1.parameter([] if op.category == ZERO_D else [2], element)

    @refusing(RuntimeError)
    def answer(a: Operand, b: Operand) -> str:
        node = opset14.convert_promote_types(
            parameter(a),
            parameter(b),
            opts["promote_unsafe"],
            opts["pytorch_scalar_promotion"],
            target,
        )
        return read[node.get_output_element_type(0).get_type_name()]

    yield answer


@contextmanager
def answering_many(handle: Any, opts: Mapping[str, Any]) -> Iterator[Many]:
    """OpenVINO has no n-ary promotion: both questions build the graph ``(a + b) + c``, a
    ConvertPromoteTypes node per step whose output feeds the next one as a new input of its
    element type, 0-d only when both inputs of the step were (the shape an elementwise op
    between the nodes gives)."""
    with answering(handle, opts) as answer:

        @refusing_many(Refused)
        def fold(ops: Sequence[Operand]) -> str:
            acc = ops[0]
            for op in ops[1:]:
                scalar = acc.category == ZERO_D and op.category == ZERO_D
                acc = Operand(answer(acc, op), ZERO_D if scalar else DIMENSIONED)
            return acc.dtype

        yield Many(fold, fold)
