"""Keras 3: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source=(
        "`keras.backend.result_type` (Keras 3.15) per backend; `keras.ops.add` on each backend, "
        "measured, for operations and chains"
    ),
    kind="Keras's lattice; rules per backend",
    reproduces=(
        "`keras.backend.result_type` (Keras 3.15); `keras.ops.add` on each backend (`op add`, "
        "`--chain`, values)"
    ),
    operands="`D(t)`, `S(t)` (special on torch only), Python scalars",
    nary=(
        "`keras.backend.result_type` (per `backend` and `floatx`): one least upper bound of dtype "
        "names and Python types; `bfloat16 complex128` is complex64 on torch, where "
        "`keras.ops.add` gives complex128 (`promote op add`)"
    ),
    chain=(
        "`keras.ops.add` step by step on the backend: on jax the intermediate keeps JAX's weak "
        "flag (`int32 float float16` is float16), on torch a float8 sum stops it (no kernel), on "
        "tensorflow `bool + bool` is refused (AddV2 admits no bool)"
    ),
    asked=(
        "`keras.backend.result_type` of dtype names and Python types (pairs, triples); "
        "`keras.ops.add` on `keras.ops.ones` of shape `(2,)` / `()` and Python values (chains, "
        "values), one process per backend (`KERAS_BACKEND` is fixed at import); every backend "
        "must be installed"
    ),
    tried="`backend` x `floatx` (set with `keras.config.set_floatx` in that process)",
    options=(
        (
            "backend",
            (
                "`KERAS_BACKEND`: `tensorflow`, `jax`, `torch`, `numpy` or `openvino`; each "
                "backend's `add` promotes its own way"
            ),
        ),
        (
            "floatx",
            (
                "`keras.config.floatx()`: `float32`, `float16` or `bfloat16`; the width of weak "
                "results and of Python floats on torch"
            ),
        ),
    ),
)
