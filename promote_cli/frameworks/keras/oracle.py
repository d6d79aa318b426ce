"""The Keras oracle: ``keras.ops.add`` on every backend, each in a process of its own.

Keras fixes its backend when it is imported (``KERAS_BACKEND``; its 64-bit narrowing and Python
scalar types are module constants), so each backend is asked in a fresh Python process running this
module (``python -m promote_cli.frameworks.keras.oracle BACKEND``). That process sets each
``floatx`` in turn (``keras.config.set_floatx``), asks every cell of the policy's operands and
prints the answers as JSON; the parent asks it once per backend and looks the cells up. Keras is
verified
on all five backends, so ``load`` wants each of them installed.

Operands are ``keras.ops.zeros((2,), t)``, ``keras.ops.zeros((), t)`` and the Python values
``True``, ``1``, ``1.0``, ``1j``; the answer is ``standardize_dtype`` of ``keras.ops.add(x, y)``.
A refusal is what the backend raises on making an operand or adding: ``ValueError``,
``TypeError``, ``KeyError`` (openvino has no complex), ``RuntimeError``, ``NotImplementedError``
and TensorFlow's ``OpError``.

``calling`` asks every operation of ``promote_cli.frameworks.keras.operations`` the same way, in a
second worker per backend (``python -m promote_cli.frameworks.keras.oracle BACKEND ops``), on
``keras.ops.ones`` arrays (``where``'s condition is a bool array), on every backend under every
``floatx``: eagerly, but on the jax backend by tracing (``_traced``: an eager call compiles an XLA
program).
IndexError (TensorFlow's matmul of a 0-d tensor) is a refusal there too.

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
from promote_cli.ops import cell_key
from promote_cli.verify import PYTHON_VALUES, Answer, Call, Refused, ask_all, looking_up, worker

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
            "promote_cli.frameworks.keras.oracle",
            backend,
            env={"KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""},
        )
    yield looking_up(handle[backend][opts["floatx"]])


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    backend = opts["backend"]
    key = f"{backend} ops"
    if key not in handle:
        handle[key] = worker(
            "promote_cli.frameworks.keras.oracle",
            backend,
            "ops",
            env={"KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""},
        )
    cells = handle[key][opts["floatx"]]

    def call(function: str, operation: Any, operands: Any) -> str:
        result, error, kernel = cells[_op_key(operation.name, operands)]
        if result is None:
            refused = Refused(error or "refused")
            refused.kernel = bool(kernel)
            raise refused
        return result

    yield call


def _op_key(name: str, operands: Any) -> str:
    """An operation cell's key in the worker's answers: ``add D(int8) P(float*)``."""
    return f"{name} {cell_key(operands)}"


def _refusals(backend: str) -> tuple[type[BaseException], ...]:
    errors: tuple[type[BaseException], ...] = (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        RuntimeError,
        NotImplementedError,
    )
    if backend == "tensorflow":
        import tensorflow as tf

        errors += (tf.errors.OpError,)
    return errors


def _ops_worker(backend: str) -> dict[str, dict[str, list[Any]]]:
    """Every operation cell under every floatx, called on Keras on ``backend``."""
    import warnings

    warnings.simplefilter("ignore")
    import keras

    from promote_cli.frameworks.keras.operations import OPERATIONS
    from promote_cli.frameworks.keras.promotion import FLOATX
    from promote_cli.ops import REDUCTION, UNARY, VOCABULARY
    from promote_cli.verify import missing_kernel
    from promote_cli.verify.operations import cases, every_operand

    assert keras.backend.backend() == backend, keras.backend.backend()
    refusals = _refusals(backend)
    standard = keras.backend.standardize_dtype
    ops = OPERATIONS
    operands = every_operand(ops)
    before = keras.config.floatx()
    out = {}
    for floatx in FLOATX:
        keras.config.set_floatx(floatx)
        rules = ops.under({"backend": backend, "floatx": floatx})
        made: dict[Operand, Any] = {}

        def operand(op: Operand, made: dict[Operand, Any] = made) -> Any:
            if op.category == PYTHON:
                return PYTHON_VALUES[op.dtype]
            if op not in made:
                made[op] = keras.ops.ones(() if op.category == ZERO_D else (2,), dtype=op.dtype)
            return made[op]

        condition = keras.ops.ones((2,), dtype="bool")
        cells: dict[str, list[Any]] = {}
        for name, rule in rules.items():
            if rule.function is None:
                continue
            fn = getattr(keras.ops, rule.function.removeprefix("keras.ops."))
            arity = VOCABULARY[name].arity
            asked = cases(ops, VOCABULARY[name], operands)

            def args(case: Any, arity: str = arity, condition: Any = condition) -> list[Any]:
                values = [operand(x) for x in case]
                return [condition, *values] if arity == "where" else values

            def refused(name: str, case: Any, exc: BaseException) -> list[Any]:
                text = f"{type(exc).__name__}: {exc}"
                # TensorFlow's registry refuses; keras.ops.add's bool is a gap, as for pairs.
                kernel = missing_kernel(text) or (
                    name == "add" and bool(_TF_NO_KERNEL.search(text))
                )
                return [None, str(Refused(exc)), kernel]

            if backend == "jax":
                unary = arity in (UNARY, REDUCTION)
                found = _traced(fn, [args(c) for c in asked], refusals, unary)
                for case, answer in zip(asked, found, strict=True):
                    cells[_op_key(name, case)] = (
                        refused(name, case, answer)
                        if isinstance(answer, BaseException)
                        else [standard(answer), None, False]
                    )
                continue
            for case in asked:
                try:
                    cells[_op_key(name, case)] = [standard(fn(*args(case)).dtype), None, False]
                except refusals as exc:
                    cells[_op_key(name, case)] = refused(name, case, exc)
        out[floatx] = cells
    keras.config.set_floatx(before)
    return out


def _traced(
    fn: Any, calls: list[list[Any]], refusals: tuple[type[BaseException], ...], lower: bool
) -> list[Any]:
    """The jax backend's answers to ``fn(*args)`` for each of ``calls``, by tracing: the dtype
    of each output, or the exception the call raises.

    Every call of one function is traced in a single ``jax.eval_shape`` (no compile); with
    ``lower`` (unary functions and reductions) the calls that traced are then lowered together
    (``jit(...).lower``, still no compile): ``argmax`` of a complex array traces but does not
    lower, as calling it shows. The arrays of shape (2,) are traced; 0-d arrays and Python
    scalars stay the concrete values an eager call gets, because ``jnp.power`` looks at its
    exponent: a concrete integer scalar takes ``lax.integer_pow`` (the base's dtype,
    ``power(uint32, S(int64))`` is uint32), a traced one promotes. What tracing cannot see is
    an XLA run-time failure; a sample of eager calls found none (see
    ``promote_cli.frameworks.keras.operations``)."""
    import jax

    arrays = {id(x): x for args in calls for x in args if getattr(x, "ndim", 0)}
    keys = list(arrays)
    found: list[Any] = [None] * len(calls)

    def call(by: dict[int, Any], i: int) -> Any:
        return fn(*[by.get(id(x), x) for x in calls[i]])

    def trace(*tracers: Any) -> tuple:
        by = dict(zip(keys, tracers, strict=True))
        for i in range(len(calls)):
            try:
                found[i] = call(by, i).dtype
            except refusals as exc:
                found[i] = exc
        return ()

    def lowered(indices: list[int]) -> None:
        def program(*tracers: Any) -> list[Any]:
            by = dict(zip(keys, tracers, strict=True))
            return [call(by, i) for i in indices]

        try:
            jax.jit(program).lower(*arrays.values())
        except refusals as exc:
            if len(indices) == 1:
                found[indices[0]] = exc
                return
            half = len(indices) // 2
            lowered(indices[:half])
            lowered(indices[half:])

    jax.eval_shape(trace, *arrays.values())
    alive = [i for i, f in enumerate(found) if not isinstance(f, BaseException)]
    if lower and alive:
        lowered(alive)
    return found


def _worker(backend: str) -> dict[str, dict[str, list[str | None]]]:
    """Every cell under every floatx, asked of Keras on ``backend`` (this process's)."""
    import warnings

    warnings.simplefilter("ignore")  # backends warn about devices and experimental dtypes
    import keras

    from promote_cli.frameworks.keras.promotion import FLOATX, POLICY

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
    ops = POLICY.operands()

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
    if sys.argv[1] == "openvino":  # imported first, sending no telemetry (see openvino.load)
        from promote_cli.frameworks.openvino import oracle as openvino

        openvino.load()
    ask = _ops_worker if sys.argv[2:] == ["ops"] else _worker
    json.dump(ask(sys.argv[1]), sys.stdout)
