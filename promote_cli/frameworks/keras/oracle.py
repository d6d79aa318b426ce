"""The Keras oracle: ``keras.ops`` on every backend, each backend in a worker process of its own.

Keras fixes its backend when it is imported (``KERAS_BACKEND``; its 64-bit narrowing and Python
scalar types are module constants), so each backend is asked in a worker of its own
(``RUNS.per``); each setting's ``floatx`` is set there (``keras.config.set_floatx``) for its
questions and put back. Keras is verified on all five backends, so each of them must be
installed.

A pair or a triple (``RESULT_TYPE``): ``keras.backend.result_type`` of the operands as its users
give them, an array's dtype name and a Python scalar's type (``bool``, ``int``, ``float``,
``complex``). A chain or a value: ``keras.ops.add`` step by step on ``keras.ops.ones((2,), t)``,
``keras.ops.ones((), t)`` and the Python values (``True``, ``1``, ``1.0``, ``1j``, or the value
asked), two Python scalars added by Python first; the result's dtype by
``keras.backend.standardize_dtype``, but a torch ``complex32`` tensor (Keras has no name for
it, yet ``keras.ops.add(float16, 1j)`` returns one) as ``complex32``, and on the jax backend a
weakly typed array as its weak type (``float*``: JAX keeps the flag, and a later step reads it).
An operation: the rule's ``keras.ops`` function on ``keras.ops.ones`` arrays (``where``'s
condition is a bool array), eagerly, but on the jax backend by tracing (``_traced``: an eager
call compiles an XLA program). A refusal is what the backend raises on making an operand or
calling: ``ValueError``, ``TypeError``, ``KeyError`` (openvino has no complex), ``IndexError``
(TensorFlow's matmul of a 0-d tensor), ``OverflowError`` (a Python int that does not fit),
``RuntimeError``, ``NotImplementedError`` and TensorFlow's ``OpError``.

A missing CPU kernel is a gap, not a refusal (``missing_kernel``): the backends' own messages
(torch's "not implemented for", TensorFlow's "Could not find device for node", XLA's run-time
failures) and, for ``keras.ops.add``, torch's "\"add_stub\" not implemented for
'Float8_e4m3fn'", which names the sum's dtype: the type the dtype rule gave. TensorFlow's "Value
for attr 'T' of bool is not in the list of allowed values" is a refusal: the op's registered
definition admits no bool on any device (AddV2), so no kernel is missing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.dtypes import get as kind_of
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import (
    answered,
    chained,
    openvino_telemetry_declined,
    python_result,
    python_value,
    weak_name,
)
from promote_cli.verify.protocol import (
    CHAIN,
    OPERATION,
    PAIR,
    RESULT_TYPE,
    VALUE,
    Asks,
    Cell,
    Gap,
    Question,
    Refusal,
    Result,
    first_line,
    in_worker,
    said,
)

RUNS = in_worker(
    "Keras fixes its backend when it is imported: a process per backend",
    requires=("keras", "tensorflow", "jax", "torch", "numpy", "openvino"),
    per=("backend",),
    env={"KERAS_BACKEND": "{backend}", "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""},
)
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)

_ADD_NO_KERNEL = re.compile(r"\"add_stub\" not implemented for '(\w+)'")
_ADDS = (CHAIN, VALUE)  # the questions keras.ops.add answers, beside the operation itself
# The backends' words for a kernel they lack (torch, TensorFlow, XLA).
_NO_KERNEL = (
    "not implemented for '",
    "could not find device for node",
    "jaxruntimeerror",
    "invalid integer data type 'v'",
    "invalid xla primitivetype",
    "cannot lower jaxpr",
)


def load() -> Any:
    """Keras on the backend ``KERAS_BACKEND`` names (this worker's)."""
    import warnings

    if os.environ.get("KERAS_BACKEND") == "openvino":  # imported first, sending no telemetry
        with openvino_telemetry_declined():
            import openvino  # noqa: F401
    warnings.simplefilter("ignore")  # backends warn about devices and experimental dtypes
    import keras

    return keras


def version(handle: Any) -> str:
    from importlib.metadata import version as installed

    return installed("keras")


def missing_kernel(text: str, question: Question) -> Gap | None:
    """A backend without the kernel; ``keras.ops.add``'s messages name the sum's dtype."""
    if question.kind in _ADDS or question.operation == "add":
        found = _ADD_NO_KERNEL.search(text)
        if found:
            return Gap(first_line(text), found.group(1).lower())
    low = text.lower()
    return Gap(first_line(text)) if any(words in low for words in _NO_KERNEL) else None


def _refusals(keras: Any) -> tuple[type[BaseException], ...]:
    errors: tuple[type[BaseException], ...] = (
        ValueError,
        TypeError,
        OverflowError,
        KeyError,
        IndexError,
        RuntimeError,
        NotImplementedError,
    )
    if keras.backend.backend() == "tensorflow":
        import tensorflow as tf

        errors += (tf.errors.OpError,)
    return errors


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    keras = handle
    backend = keras.backend.backend()
    if backend != opts["backend"]:
        raise RuntimeError(f"asked about backend {opts['backend']} in a {backend} worker")
    refusals = _refusals(keras)
    standard = keras.backend.standardize_dtype
    made: dict[Operand, Any] = {}

    def array(op: Operand, fill: Any) -> Any:
        return fill(() if op.category == ZERO_D else (2,), dtype=op.dtype)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        if op not in made:
            made[op] = array(op, keras.ops.ones)
        return made[op]

    def args(q: Question) -> list[Any]:
        values = [value(x) for x in q.operands]
        return [keras.ops.ones((2,), dtype="bool"), *values] if q.operation == "where" else values

    traced: dict[Question, Cell] = {}
    clear_scalars = _scalar_cache_clearer() if backend == "tensorflow" else None

    def named(dtype: Any) -> str:
        """A tensor's dtype as Keras names it; torch's complex32, which Keras cannot name."""
        if backend == "torch" and str(dtype) == "torch.complex32":
            return "complex32"
        return str(standard(dtype))

    def typed(op: Operand) -> Any:  # what keras.backend.result_type is given
        if op.category == PYTHON:
            return {"bool": bool, "int*": int, "float*": float, "complex*": complex}[op.dtype]
        return op.dtype

    def scalar(op: Operand) -> Any:
        return python_value(op) if op.category == PYTHON else value(op)

    def add(x: Any, y: Any) -> Any:  # ``x + y`` in user code: Python adds Python scalars
        python = (bool, int, float, complex)
        if isinstance(x, python) and isinstance(y, python):
            return x + y
        return keras.ops.add(x, y)

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            return str(keras.backend.result_type(*map(typed, q.operands)))
        if q.kind in _ADDS:
            found = chained(q.operands, scalar, add)
            if isinstance(found, (bool, int, float, complex)):
                return python_result(found)
            if getattr(found, "weak_type", False):  # a jax array keeps JAX's weak flag
                return weak_name(kind_of(named(found.dtype)).kind)
            return named(found.dtype)
        if q.kind != OPERATION:
            raise ValueError(f"Keras's oracle is not asked {q.kind}")
        fn = getattr(keras.ops, q.function.removeprefix("keras.ops."))
        if backend != "jax":
            if clear_scalars is not None and any(x.value is not None for x in q.operands):
                clear_scalars()
            return named(fn(*args(q)).dtype)
        if q not in traced:
            same = [o for o in questions if o.kind == OPERATION and o.function == q.function]
            found = _traced(fn, [args(o) for o in same], refusals, len(q.operands) == 1)
            for o, f in zip(same, found, strict=True):
                traced[o] = (
                    missing_kernel(said(f), o) or Refusal(first_line(f))
                    if isinstance(f, BaseException)
                    else Result(str(standard(f)))
                )
        return traced[q]

    before = keras.config.floatx()
    keras.config.set_floatx(opts["floatx"])
    try:
        return answered(questions, ask, refusals, missing_kernel)
    finally:
        keras.config.set_floatx(before)


def _scalar_cache_clearer() -> Any:
    """TensorFlow's eager scalar cache, emptied before each call with a Python value: a Python
    int that does not convert to the tensor's dtype (``bitwise_left_shift(uint64, -1)``) raises
    OverflowError in a fresh process, but after other calls have filled the cache the same
    call aborts the process ("Check failed: !PyErr_Occurred()" in
    ``TFE_TensorHandleCache::Insert``, the error still set). Emptied, each call answers as it
    does alone."""
    from tensorflow.python import pywrap_tfe

    return pywrap_tfe.TFE_ClearScalarCache


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


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): code written for
    Keras, run on this worker's backend. Names are ``keras.ops.ones`` tensors (the backend's
    own: a ``tf.Tensor``, a ``jax.Array``, a ``torch.Tensor``, a NumPy array, an
    ``OpenVINOKerasTensor``), functions are ``keras.ops``'s, and Python's operators, the
    reduction methods, ``x.astype(T)``, ``.T`` and indexing are the tensor's own, as the
    program writes them: AttributeError where the tensor lacks one (a refusal). Use inside
    ``configured(opts)``, which sets ``floatx``. On the tensorflow backend TensorFlow's scalar
    cache is emptied before every node (each array made and each dtype read), as
    ``_scalar_cache_clearer`` says why."""

    # The arrays are ones: x - x is a zero divisor, -x a negative exponent (TensorFlow's and
    # torch's integer kernels raise on them).
    value_errors = (
        "Integers to negative integer powers are not allowed",
        "Integer division by zero",
        "ZeroDivisionError",
    )

    def __init__(self, handle: Any, opts: Mapping[str, Any]) -> None:
        self.keras = handle
        self.backend = handle.backend.backend()
        if self.backend != opts["backend"]:
            raise RuntimeError(f"asked about backend {opts['backend']} in a {self.backend} worker")
        self.refusals = (*_refusals(handle), AttributeError)
        self.clear = _scalar_cache_clearer() if self.backend == "tensorflow" else None

    @contextmanager
    def configured(self, opts: Mapping[str, Any]) -> Iterator[None]:
        before = self.keras.config.floatx()
        self.keras.config.set_floatx(opts["floatx"])
        try:
            yield
        finally:
            self.keras.config.set_floatx(before)

    @staticmethod
    def gap(text: str, question: Question) -> Gap | None:
        return missing_kernel(text, question)

    def array(self, dtype: str, ndim: int) -> Any:
        if self.clear is not None:
            self.clear()
        return self.keras.ops.ones((2,) * ndim, dtype=dtype)

    def call(self, function: str, args: Sequence[Any]) -> Any:
        return getattr(self.keras.ops, function.removeprefix("keras.ops."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.astype(dtype)  # the tensor's own method, where it has one

    def dtype(self, x: Any) -> str:
        if self.clear is not None:
            self.clear()
        dtype = getattr(x, "dtype", None)
        if dtype is None:  # not a tensor: what promote would have to name
            return type(x).__name__
        if self.backend == "torch" and str(dtype) == "torch.complex32":
            return "complex32"
        return str(self.keras.backend.standardize_dtype(dtype))
