"""The TensorFlow oracle: ``flexible_dtypes.result_type``, TF's own promotion table.

TensorFlow's new type promotion (``dtype_conversion_mode`` of
``tf.experimental.numpy.experimental_enable_numpy_behavior``) is decided by
``tensorflow/python/framework/flexible_dtypes.py``; its ``result_type`` returns the dtype and
whether it is weak. The policy option ``mode`` (``all`` or ``safe``) is set with
``ops.set_dtype_conversion_mode`` for each setting and the previous mode restored afterwards,
which, unlike enabling NumPy behaviour, changes nothing else. In ``safe`` mode TF raises
``TypeError`` for the promotions it calls unsafe; ``NotImplementedError`` for inputs it cannot
promote at all: both are refusals.

Python scalars are passed as values (``True``, ``1``, ``1.0``, ``1j``: TF's ``i32*``, ``f32*``,
``c128*``); a weak operand named with a width (``int64*``, when the catalogue has such names) as
a ``WeakTensor`` of that dtype. A weak result is reported as ``<dtype>*`` when the catalogue has
that name, else as the kind's weak type (``int*``, ``float*``, ``complex*``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.dtypes import CATALOGUE
from promote_cli.dtypes import get as dtype_info
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import (
    PYTHON_VALUES,
    Answer,
    Call,
    Many,
    Refused,
    chained,
    python_result,
    python_value,
    refusing,
    refusing_many,
    weak_name,
)

POLICY = "tensorflow"
FRAMEWORK = "tensorflow"
INSTALL = "tensorflow-cpu"
IN_CONFORMANCE_EXTRA = True
OPTIONS = ("mode",)


def load() -> Any:
    # TensorFlow's C++ side logs to fd 2 on import and when its eager context starts (absl's
    # "All log messages before absl::InitializeLog()", oneDNN's notice), below Python's
    # sys.stderr, so TF_CPP_MIN_LOG_LEVEL does not silence all of it; those lines would sit
    # between verify's report lines. Both happen here, with fd 2 caught; if the import fails,
    # what it wrote is passed on.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    with _fd2_caught() as caught:
        try:
            import tensorflow as tf
            from tensorflow.python.framework import flexible_dtypes, ops, weak_tensor

            tf.zeros([])  # starts the eager context, which logs once more
            half = tf.zeros([2], tf.float16)
            tf.add(half, half)  # the first float16 kernel logs oneDNN's AVX-512 notice
        except BaseException:
            caught.replay = True
            raise
    return tf, flexible_dtypes, ops, weak_tensor


class _Caught:
    replay = False


@contextmanager
def _fd2_caught() -> Iterator[_Caught]:
    """Point file descriptor 2 at a temporary file; write its content back to stderr on exit
    only when ``replay`` is set."""
    import sys
    import tempfile

    caught = _Caught()
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield caught
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            if caught.replay:
                sink.seek(0)
                sys.stderr.write(sink.read().decode("utf-8", "replace"))


def version(handle: Any) -> str:
    return handle[0].__version__


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    tf, flexible_dtypes, ops, weak_tensor = handle

    def tf_dtype(name: str) -> Any:
        try:
            return tf.dtypes.as_dtype(name)
        except TypeError:
            raise Refused(f"TensorFlow has no dtype {name}") from None

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            if op.dtype in PYTHON_VALUES:
                return PYTHON_VALUES[op.dtype]
            strong = tf.zeros([], dtype=tf_dtype(op.dtype.removesuffix("*")))
            return weak_tensor.WeakTensor.from_tensor(strong)
        if op.category == ZERO_D:
            return tf.zeros([], dtype=tf_dtype(op.dtype))
        return tf_dtype(op.dtype)

    @refusing(TypeError, NotImplementedError)
    def answer(a: Operand, b: Operand) -> str:
        result, weak = flexible_dtypes.result_type(operand(a), operand(b))
        if not weak:
            return result.name
        named = f"{result.name}*"
        return named if named in CATALOGUE else weak_name(dtype_info(result.name).kind)

    before = ops.promo_mode_enum_to_string(ops.get_dtype_conversion_mode())
    ops.set_dtype_conversion_mode(opts["mode"])
    try:
        yield answer
    finally:
        ops.set_dtype_conversion_mode(before)


@contextmanager
def answering_many(handle: Any, opts: Mapping[str, Any]) -> Iterator[Many]:
    """``flexible_dtypes.result_type`` of all operands at once; the chain with ``tf.add`` on
    real tensors of shape ``[2]`` (the ``+`` operator raises ``SystemError`` for ``uint64 +
    -1``, a TensorFlow bug; ``tf.add`` answers). A weak result is a ``WeakTensor``."""
    tf, flexible_dtypes, ops_module, weak_tensor = handle

    def tf_dtype(name: str) -> Any:
        try:
            return tf.dtypes.as_dtype(name)
        except TypeError:
            raise Refused(f"TensorFlow has no dtype {name}") from None

    def weak(op: Operand, shape: list[int]) -> Any:
        strong = tf.zeros(shape, dtype=tf_dtype(op.dtype.removesuffix("*")))
        return weak_tensor.WeakTensor.from_tensor(strong)

    def dtype_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op) if op.dtype in PYTHON_VALUES else weak(op, [])
        return tf_dtype(op.dtype)

    def tensor_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op) if op.dtype in PYTHON_VALUES else weak(op, [2])
        return tf.zeros([] if op.category == ZERO_D else [2], dtype=tf_dtype(op.dtype))

    def named(result: Any, weak: bool) -> str:
        if not weak:
            return result.name
        text = f"{result.name}*"
        return text if text in CATALOGUE else weak_name(dtype_info(result.name).kind)

    from tensorflow.python import pywrap_tfe

    def add(a: Any, b: Any) -> Any:
        if not any(isinstance(x, (tf.Tensor, weak_tensor.WeakTensor)) for x in (a, b)):
            return a + b
        # TensorFlow caches the tensors it makes of Python scalars. Converting an int that
        # does not fit int64 can leave an OverflowError pending; when the cache then compares
        # keys (which depends on the hash layout, so only now and then), it aborts the whole
        # process (pywrap_tensor_conversion.h: CHECK(!PyErr_Occurred())). With the cache
        # emptied first there is nothing to compare, and the pending error surfaces as the
        # SystemError handled below.
        pywrap_tfe.TFE_ClearScalarCache()
        try:
            return tf.add(a, b)
        except SystemError as exc:  # TF's bug: uint64 tensor + negative int
            if isinstance(exc.__cause__, OverflowError):
                raise exc.__cause__ from None
            raise

    errors = (TypeError, NotImplementedError, OverflowError, tf.errors.InvalidArgumentError)

    @refusing_many(*errors)
    def result_type(ops: Sequence[Operand]) -> str:
        return named(*flexible_dtypes.result_type(*map(dtype_or_value, ops)))

    @refusing_many(*errors)
    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, tensor_or_value, add)
        if isinstance(out, weak_tensor.WeakTensor):
            return named(out.dtype, True)
        if isinstance(out, tf.Tensor):
            return out.dtype.name
        return python_result(out)

    before = ops_module.promo_mode_enum_to_string(ops_module.get_dtype_conversion_mode())
    ops_module.set_dtype_conversion_mode(opts["mode"])
    # tf.add logs a warning for each promotion the mode refuses before it raises.
    logger, level = tf.get_logger(), tf.get_logger().level
    logger.setLevel("ERROR")
    try:
        yield Many(result_type, chain)
    finally:
        ops_module.set_dtype_conversion_mode(before)
        logger.setLevel(level)


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """``tf.experimental.numpy``'s functions with NumPy behaviour in the setting's mode, on
    ``tf.ones([2])`` (strings: ``["a", "b"]``), Python scalars and 0-d WeakTensors. NumPy
    behaviour, once enabled, stays enabled in the process (TensorFlow cannot switch it off);
    the conversion mode is restored."""
    tf, _, ops, weak_tensor = handle
    import tensorflow.experimental.numpy as tnp

    condition = tf.ones([2], dtype=tf.bool)

    def value(op: Operand) -> Any:
        if op.category == PYTHON:
            if op.dtype in PYTHON_VALUES:
                return PYTHON_VALUES[op.dtype]
            strong = tf.ones([], dtype=op.dtype.removesuffix("*"))
            return weak_tensor.WeakTensor.from_tensor(strong)
        if op.dtype == "string":
            return tf.constant(["a", "b"])
        return tf.ones([2], dtype=op.dtype)

    # tnp.matmul of a 0-d WeakTensor fails in tensordot with IndexError: its shape refusal.
    errors = (TypeError, ValueError, NotImplementedError, IndexError, tf.errors.OpError)

    @refusing(*errors)
    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        fn = getattr(tnp, function.removeprefix("tnp."))
        args = [value(x) for x in operands]
        out = fn(condition, *args) if operation.name == "where" else fn(*args)
        weak = isinstance(out, weak_tensor.WeakTensor)
        return tf.as_dtype(out.dtype).name + ("*" if weak else "")

    before = ops.promo_mode_enum_to_string(ops.get_dtype_conversion_mode())
    logger = tf.get_logger()
    level = logger.level
    # tnp warns through Python logging ("Falling back to old semantics") and oneDNN through
    # fd 2 on the first float16 kernel: neither belongs between verify's report lines.
    logger.setLevel("ERROR")
    try:
        with _fd2_caught():
            tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=opts["mode"])
            yield call
    finally:
        ops.set_dtype_conversion_mode(before)
        logger.setLevel(level)
