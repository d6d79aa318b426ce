"""The ONNX oracle: one-node models, run for real by ONNX Runtime's CPU execution provider.

Each question is one node of the operator its operation maps to (``constraints.json``; a pair
is ``Add``), at opset ``OPSET``, built with ``onnx.helper`` (``make_node``, ``make_graph``,
``make_model``): the operands are the graph's initializers (a dimensioned tensor of shape
``[2]``, a 0-d one of shape ``[]``, every element 1; ``Where``'s condition true, ``CumSum``'s
axis 0), so that every ONNX type can be given, float8 and int4 too, which no NumPy array holds.
``onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])`` checks the types
(ONNX's type inference) and finds the kernel, graph optimisations off so that nothing is folded
away; ``run_with_ort_values`` runs it, and the answer is the output's element type.

ONNX Runtime raises a ``Fail`` or ``InvalidGraph`` ("Type parameter (T) of Optype (Add) bound
to different types", "Type 'tensor(bool)' of input parameter ... is invalid"), or an
``InvalidArgument`` at run time ("Cannot apply CumSum operator on a scalar"): refusals. A type
the schema allows but the CPU provider has no kernel for ("Could not find an implementation
for Add(14)", "Failed to find kernel for Pow(15)", "MLDataType for: tensor(complex64) is not
currently registered") is a gap; it
names the type ONNX's type inference gave the output (``onnx.shape_inference``, strict), which
ONNX Runtime had resolved before it looked for the kernel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promote_cli.frameworks.onnx.constraints import ONNX_NAMES, ONNX_TYPES, OPSET, Operator, data
from promote_cli.operands import ZERO_D, Operand
from promote_cli.verify import answered
from promote_cli.verify.protocol import OPERATION, PAIR, Asks, Cell, Gap, Question, in_process

RUNS = in_process("onnxruntime is imported once; each question is a session of its own")
ASKS = Asks(operations=True)
# What ONNX Runtime says where the CPU provider has no kernel for the types the schema allows.
_NO_KERNEL = (
    "Could not find an implementation for",
    "Failed to find kernel for",
    "is not currently registered or supported",
)


class Handle:
    """onnx and onnxruntime, imported once, and the session options every question shares."""

    def __init__(self) -> None:
        import onnx
        import onnxruntime as ort
        from onnxruntime.capi import onnxruntime_pybind11_state as state

        self.onnx, self.ort = onnx, ort
        ort.set_default_logger_severity(4)  # a refusal is an answer, not a log line
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        options.log_severity_level = 4
        options.intra_op_num_threads = 1
        self.options = options
        self.refusals: tuple[type[BaseException], ...] = (
            state.Fail,
            state.InvalidGraph,
            state.InvalidArgument,
            state.NotImplemented,
            state.RuntimeException,
        )


def load() -> Any:
    return Handle()


def version(handle: Any) -> str:
    return str(handle.ort.__version__)


def _tensor(handle: Handle, name: str, dtype: str, value: Any, dims: list[int]) -> Any:
    onnx = handle.onnx
    onnx_type = onnx.TensorProto.DataType.Value(ONNX_NAMES[dtype].upper())
    count = 2 if dims else 1
    if dtype == "string":
        value = b"1"
    elif dtype.startswith("complex"):
        value = complex(value)
    return onnx.helper.make_tensor(name, onnx_type, dims, [value] * count)


def model(handle: Handle, operator: Operator, operands: Sequence[Operand]) -> Any:
    """The one-node model of ``operator`` on ``operands``."""
    helper = handle.onnx.helper
    tensors, names = [], []
    for slot in operator.slots:
        if isinstance(slot, int):
            x = operands[slot]
            name = f"x{slot}"
            dims = [] if x.category == ZERO_D else [2]
            tensors.append(_tensor(handle, name, x.dtype, True if x.dtype == "bool" else 1, dims))
        else:
            name, dtype, value = slot
            tensors.append(_tensor(handle, name, dtype, value, []))
        names.append(name)
    node = helper.make_node(operator.name, names, ["y"], **dict(operator.attributes))
    graph = helper.make_graph(
        [node], operator.name, [], [helper.make_empty_tensor_value_info("y")], tensors
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])


def _named(type_str: str) -> str:
    return ONNX_TYPES[type_str.removeprefix("tensor(").removesuffix(")")]


def _inferred(handle: Handle, built: Any) -> str | None:
    """The output type ONNX's type inference gives ``built`` (None: it gives none)."""
    onnx = handle.onnx
    try:
        inferred = onnx.shape_inference.infer_shapes(built, strict_mode=True)
    except onnx.shape_inference.InferenceError:
        return None
    for out in inferred.graph.output:
        elem = out.type.tensor_type.elem_type
        if elem:
            return ONNX_TYPES[onnx.helper.tensor_dtype_to_string(elem).lower().split(".")[-1]]
    return None


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """Each question's node built and run on the CPU provider; its output's element type."""
    ort, operators = handle.ort, data().operators

    def ask(q: Question) -> str | Cell:
        if q.kind not in (PAIR, OPERATION):
            raise ValueError(f"ONNX's oracle is not asked {q.kind}")
        operator = operators["add" if q.kind == PAIR else q.operation]
        built = model(handle, operator, q.operands)
        try:
            session = ort.InferenceSession(
                built.SerializeToString(), handle.options, providers=["CPUExecutionProvider"]
            )
            out = session.run_with_ort_values(["y"], {})[0]
        except handle.refusals as exc:
            text = str(exc)
            if any(s in text for s in _NO_KERNEL):
                return Gap(text.strip().splitlines()[0][:300], _inferred(handle, built))
            raise
        return _named(out.data_type())

    return answered(questions, ask, handle.refusals)
