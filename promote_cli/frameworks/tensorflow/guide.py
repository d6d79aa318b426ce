"""TensorFlow: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="TensorFlow's new type promotion (`flexible_dtypes`, TF 2.21)",
    kind="lattice with weak types",
    reproduces=(
        "TensorFlow's new type promotion, "
        "`experimental_enable_numpy_behavior(dtype_conversion_mode=...)` (TF 2.21, "
        "`flexible_dtypes`)"
    ),
    operands="`D(t)`, Python scalars, weak types",
    nary="`flexible_dtypes.result_type`, a left fold",
    chain=(
        "the fold with WeakTensor intermediates, plus the operator's refusals: `uint8 + P(bool)` "
        '("Cannot convert True to EagerTensor", also uint16/32, int8/16, bfloat16, complex64) '
        "and bool + bool (AddV2's op definition does not admit bool: a refusal on every device)"
    ),
    asked=(
        "TensorFlow's own table, `flexible_dtypes.result_type` (with its weak flag), Python "
        "scalars as values; under `legacy`, `tnp.result_type` and the `+` operator; operations "
        "eagerly, or under `function=true` each inside a `tf.function` of its own (tensors traced "
        "as arguments, Python scalars constants of the trace)"
    ),
    tried=(
        "`mode` = `all` / `safe` / `legacy` (`dtype_conversion_mode`), a worker process per mode; "
        "`function=true` only when pinned (measured apart: every operation traced), not under "
        "`legacy` (not modelled)"
    ),
    options=(
        (
            "mode",
            (
                "`dtype_conversion_mode`: `all`, `safe` (refuses precision loss and bit-widening) "
                "or `legacy` (TF-NumPy's `np.result_type`)"
            ),
        ),
        (
            "ml_dtypes",
            (
                "the release of ml_dtypes installed beside TensorFlow (`0.6` or `0.7`): "
                "`np.result_type`, which `tnp`'s arithmetic and `mode=legacy` call, answers as "
                "that release makes NumPy answer"
            ),
        ),
        (
            "function",
            (
                "`true`: the operation runs inside `tf.function` (its tensors traced, Python "
                "scalars constants of the trace): a Python int goes through int32 in every "
                "operator (`bool_tensor * 2**31` is refused, `uint8_tensor != 2**31` too) and a "
                "Python bool converts to every dtype (`uint8_tensor == True` is bool); the "
                "promotion itself is the same. Modes `all` and `safe` only (`legacy` is not "
                "modelled)"
            ),
        ),
    ),
)
