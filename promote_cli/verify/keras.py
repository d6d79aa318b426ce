"""The Keras oracle: ``keras.ops.add`` on every backend, each in a process of its own.

Keras fixes its backend when it is imported (``KERAS_BACKEND``; its 64-bit narrowing and Python
scalar types are module constants), so each backend is asked in a fresh Python process running
this module (``python -m promote_cli.verify.keras BACKEND``). That process sets each ``floatx``
in turn (``keras.config.set_floatx``), asks every cell of the policy's operands and prints the
answers as JSON; the parent asks it once per backend and looks the cells up. Keras is verified
on all five backends, so ``load`` wants each of them installed.

Operands are ``keras.ops.zeros((2,), t)``, ``keras.ops.zeros((), t)`` and the Python values
``True``, ``1``, ``1.0``, ``1j``; the answer is ``standardize_dtype`` of ``keras.ops.add(x, y)``.
A refusal is what the backend raises on making an operand or adding: ``ValueError``,
``TypeError``, ``KeyError`` (openvino has no complex), ``RuntimeError``, ``NotImplementedError``
and TensorFlow's ``OpError``.

Missing CPU kernels are a documented gap, not a refusal; the error names the promoted dtype and
the oracle answers it: TensorFlow's bool ``add`` ("Value for attr 'T' of bool is not in the list
of allowed values") and torch's float8 ``add`` ("\\"add_stub\\" not implemented for
'Float8_e4m3fn'").
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Any

from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import PYTHON_VALUES, Answer, Refused, ask_all, looking_up, worker

POLICY = "keras"
FRAMEWORK = "keras"
INSTALL = "keras"
IN_CONFORMANCE_EXTRA = True
OPTIONS = ("backend", "floatx")

_BACKEND_MODULES = {
    "tensorflow": "tensorflow",
    "jax": "jax",
    "torch": "torch",
    "numpy": "numpy",
    "openvino": "openvino",
}
_TF_NO_KERNEL = re.compile(r"Value for attr 'T' of (\w+) is not in the list of allowed values")
_TORCH_NO_KERNEL = re.compile(r"\"add_stub\" not implemented for '(\w+)'")


def load() -> Any:
    if find_spec("keras") is None:
        raise ImportError("No module named 'keras'")
    missing = [b for b, module in _BACKEND_MODULES.items() if find_spec(module) is None]
    if missing:
        raise ImportError(
            f"Keras is verified on every backend; not installed: {', '.join(missing)}"
        )
    return {}  # backend -> the worker's answers, filled on first use


def version(handle: Any) -> str:
    from importlib.metadata import version as installed

    return installed("keras")


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    backend = opts["backend"]
    if backend not in handle:
        handle[backend] = worker(
            "promote_cli.verify.keras",
            backend,
            env={"KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""},
        )
    yield looking_up(handle[backend][opts["floatx"]])


def _worker(backend: str) -> dict[str, dict[str, list[str | None]]]:
    """Every cell under every floatx, asked of Keras on ``backend`` (this process's)."""
    import warnings

    warnings.simplefilter("ignore")  # backends warn about devices and experimental dtypes
    import keras

    from promote_cli import policies
    from promote_cli.policies.keras import FLOATX

    assert keras.backend.backend() == backend, keras.backend.backend()
    refusals: tuple[type[BaseException], ...] = (
        ValueError,
        TypeError,
        KeyError,
        RuntimeError,
        NotImplementedError,
    )
    if backend == "tensorflow":
        import tensorflow as tf

        refusals += (tf.errors.OpError,)
    standard = keras.backend.standardize_dtype
    ops = policies.get("keras").operands()

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return PYTHON_VALUES[op.dtype]
        return keras.ops.zeros(() if op.category == ZERO_D else (2,), dtype=op.dtype)

    def answer(a: Operand, b: Operand) -> str:
        try:
            return standard(keras.ops.add(operand(a), operand(b)).dtype)
        except refusals as exc:
            gap = _TF_NO_KERNEL.search(str(exc)) or _TORCH_NO_KERNEL.search(str(exc))
            if gap:  # a missing kernel: the error names the promoted dtype
                return gap.group(1).lower()
            raise Refused(exc) from exc

    before = keras.config.floatx()
    out = {}
    for floatx in FLOATX:
        keras.config.set_floatx(floatx)
        out[floatx] = ask_all(ops, answer)
    keras.config.set_floatx(before)
    return out


if __name__ == "__main__":
    json.dump(_worker(sys.argv[1]), sys.stdout)
