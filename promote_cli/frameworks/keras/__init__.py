"""Keras 3: ``keras.backend.result_type`` per backend and floatx, and ``keras.ops.add`` on each
backend for the operations and the chain (``promotion.py``)."""

from promote_cli.framework import NUMPY_SPELLINGS, Expressions, Framework
from promote_cli.options import Option

BACKENDS = ("tensorflow", "jax", "torch", "numpy", "openvino")
FLOATX = ("float32", "float16", "bfloat16")

FRAMEWORK = Framework(
    name="keras",
    title="Keras 3",
    source="keras.backend.result_type; keras.ops.add per backend (Keras 3.15.1)",
    version="3.15.1",
    notation="canonical",
    prefixes=("keras",),
    options=(
        Option(
            "backend",
            "choice",
            "tensorflow",
            "KERAS_BACKEND: tensorflow (Keras's default), jax, torch, numpy or openvino",
            choices=BACKENDS,
        ),
        Option(
            "floatx",
            "choice",
            "float32",
            "keras.config.floatx(): the width of weak results (float32, float16, bfloat16)",
            choices=FLOATX,
        ),
    ),
    install="keras",
    in_extra=True,
    expressions=Expressions(
        namespaces=("ops", "keras.ops"),
        # NumPy's spellings, but invert: keras.ops has no invert (measured: hasattr)
        aliases=tuple(a for a in NUMPY_SPELLINGS if a[0] != "invert"),
    ),
)
