"""ONNX: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source=(
        "each operator's type constraints at opset 28 (`onnx.defs.get_schema`, onnx 1.23.2), "
        "run by onnxruntime 1.32's CPU provider, measured"
    ),
    kind="no promotion: `Add`'s constraint",
    reproduces=(
        "`Add`'s type constraint at opset 28 (onnx 1.23.2), run by onnxruntime 1.32.0's CPU "
        "execution provider"
    ),
    operands="`D(t)`, `S(t)` (the same to ONNX)",
    nary=(
        "no n-ary function: the fold a graph of pairwise `Add` nodes computes, each of which "
        "takes one type"
    ),
    chain="the same fold (the sum of two 0-d inputs is 0-d)",
    asked=(
        "a one-node model (`onnx.helper`, opset 28) of `Add`, or of the operation's operator, "
        "on initializers of shape `[2]` / `[]`, run by `onnxruntime.InferenceSession(..., "
        'providers=["CPUExecutionProvider"])` with graph optimisations off; a type the schema '
        "allows but the CPU provider has no kernel for is a gap, naming the type ONNX's type "
        "inference gives"
    ),
    tried="none",
)
