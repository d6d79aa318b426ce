"""ONNX: no promotion at all; each operator's type constraints at opset 28, run by ONNX
Runtime's CPU execution provider (``promotion.py``, ``constraints.json``)."""

from promote_cli.framework import Framework

FRAMEWORK = Framework(
    name="onnx",
    title="ONNX",
    source="each operator's type constraints (onnx 1.23.2, opset 28), run by onnxruntime"
    " 1.32.0's CPU execution provider",
    version="1.32.0",
    notation="canonical",
    install="onnxruntime",
    in_extra=True,
    # The rules are onnx's schemas (constraints.json names the release they were read from),
    # the measurements onnxruntime's; the oracle builds its models with onnx.
    measured_with=(("onnx", "1.23.2"),),
)
