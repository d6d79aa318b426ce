"""The TensorFlow oracle: ``flexible_dtypes.result_type``, TF's own promotion table.

TensorFlow's new type promotion (``dtype_conversion_mode`` of
``tf.experimental.numpy.experimental_enable_numpy_behavior``) is decided by
``tensorflow/python/framework/flexible_dtypes.py``; its ``result_type`` returns the dtype and
whether it is weak. The policy option ``mode`` (``all``, ``safe`` or ``legacy``) is asked in a
worker process of its own (the mode is process-global, and NumPy behaviour cannot be switched
off once enabled), set with ``ops.set_dtype_conversion_mode`` for the pairs and restored
afterwards. In ``safe`` mode TF raises ``TypeError`` for the promotions it calls unsafe;
``NotImplementedError`` for inputs it cannot promote at all: both are refusals.

``legacy`` mode has no ``flexible_dtypes`` (its ``result_type`` refuses every cell there) and
no WeakTensor: a pair and ``result_type`` are ``tnp.result_type`` (``np.result_type``), the
chain is the ``+`` operator (``tf.add`` does not promote in that mode), and a weak operand is
refused without asking (only the new type promotion makes WeakTensors).

Python scalars are passed as values (``True``, ``1``, ``1.0``, ``1j``: TF's ``i32*``, ``f32*``,
``c128*``); a weak operand named with a width (``int64*``, when the catalogue has such names) as
a ``WeakTensor`` of that dtype. A weak result is reported as ``<dtype>*`` when the catalogue has
that name, else as the kind's weak type (``int*``, ``float*``, ``complex*``).

Operations are ``tf.experimental.numpy``'s functions with NumPy behaviour on, and Python's
operators on the same tensors (``@`` on 2x2 matrices: ``tf.Tensor.__matmul__`` takes no
vectors); TensorFlow's AttributeError for a Python scalar left of ``& | ^`` is a refusal. A
missing CPU kernel says "Could not find device for node"; it is a gap only where another device
has the kernel. The op is then compiled with XLA (``tf.function(jit_compile=True)``, the
XLA_CPU_JIT device this build has) on tensors of the type the message names: where XLA runs it
(``FloorDiv`` of complex) it is a gap; where XLA refuses it too (``Round`` of complex:
"Operands to RoundToEven must be real-valued"; ``MatMul`` of unsigned types: no kernel
registered) it is a refusal. TensorFlow's GPU kernels, which this CPU build lacks, register
none of those either (see the notes).

Every binary operation and operator is also asked with valued Python scalars
(``Asks.operation_values``, in every mode). A value TensorFlow cannot convert can surface as
``SystemError`` ("returned a result with an exception set", ``uint64_tensor * -1``,
``tnp.equal(uint8, 2**64)`` in legacy):
its cause, the pending ``OverflowError``, is the refusal; any other ``SystemError`` is a bug
of the oracle and propagates. The scalar cache is emptied before every call, function or
operator, as for the chain.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.dtypes import CATALOGUE
from promote_cli.dtypes import get as dtype_info
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.options import not_installed_release
from promote_cli.verify import (
    PYTHON_VALUES,
    Refused,
    answered,
    chained,
    is_operator,
    operated,
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
    Unobservable,
    first_line,
    in_worker,
    said,
)

RUNS = in_worker(
    "dtype_conversion_mode is process-global and NumPy behaviour, once enabled, cannot be"
    " switched off: a process per mode, as a program sets it once at its start; TensorFlow"
    " logs through file descriptor 2, caught while it is imported and called",
    requires=("tensorflow",),
    per=("mode",),
    env={"TF_CPP_MIN_LOG_LEVEL": "2"},
)
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)


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
    """TensorFlow's version, and ml_dtypes' (its legacy mode answers as NumPy with it)."""
    from importlib import metadata

    return f"{handle[0].__version__} (ml_dtypes {metadata.version('ml_dtypes')})"


def missing_kernel(text: str, question: Question) -> Gap | None:
    """No CPU kernel registered: eagerly TensorFlow's "Could not find device for node", inside
    ``tf.function`` "No OpKernel was registered to support Op" (when the function runs)."""
    lowered = text.lower()
    missing = "could not find device for node" in lowered or "no opkernel was registered" in lowered
    return Gap(first_line(text)) if missing else None


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """Every question (``asked``); the operations inside ``tf.function`` under
    ``function=true``."""
    return asked(handle, opts, questions, in_function=bool(opts.get("function")))


def asked(
    handle: Any,
    opts: Mapping[str, Any],
    questions: Sequence[Question],
    in_function: bool = False,
) -> list[Cell]:
    """A pair and ``result_type``: ``flexible_dtypes.result_type`` of all operands at once. The
    chain: ``tf.add`` on real tensors of shape ``[2]`` (the ``+`` operator raises
    ``SystemError`` for ``uint64 + -1``, a TensorFlow bug; ``tf.add`` answers); a weak result
    is a ``WeakTensor``. An operation: ``tnp``'s function, or Python's operator (the scalar
    cache emptied first, as for the chain), on ``tf.ones([2])`` (strings: ``["a", "a"]``),
    Python scalars and 0-d WeakTensors, with NumPy behaviour enabled in the
    setting's mode (once enabled it stays so in the process; TensorFlow cannot switch it off,
    which is why every operation is asked after every pair). The conversion mode is
    restored afterwards."""
    tf, flexible_dtypes, ops_module, weak_tensor = handle
    from tensorflow.python import pywrap_tfe

    # np.result_type (tnp's arithmetic, legacy mode) answers as the installed ml_dtypes makes
    # NumPy answer: a setting of another release cannot be asked here, and is said to be so
    other = not_installed_release("ml_dtypes", opts.get("ml_dtypes"))
    if other:
        return [Unobservable(other) for _ in questions]

    def tf_dtype(name: str) -> Any:
        try:
            return tf.dtypes.as_dtype(name)
        except TypeError:
            raise Refused(f"TensorFlow has no dtype {name}") from None

    legacy = opts["mode"] == "legacy"

    def weak(op: Operand, shape: list[int], fill: Any = tf.zeros) -> Any:
        if legacy:  # only the new type promotion makes WeakTensors
            raise Refused(f"dtype_conversion_mode='legacy' makes no WeakTensor ({op.dtype})")
        strong = fill(shape, dtype=tf_dtype(op.dtype.removesuffix("*")))
        return weak_tensor.WeakTensor.from_tensor(strong)

    def dtype_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op) if op.dtype in PYTHON_VALUES else weak(op, [])
        if op.category == ZERO_D:  # a pair's 0-d operand is a tensor (none in TF's policy)
            return tf.zeros([], dtype=tf_dtype(op.dtype))
        return tf_dtype(op.dtype)

    def tensor_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op) if op.dtype in PYTHON_VALUES else weak(op, [2])
        return tf.zeros([] if op.category == ZERO_D else [2], dtype=tf_dtype(op.dtype))

    def named(result: Any, weak: bool) -> str:
        if not weak:
            return str(result.name)
        text = f"{result.name}*"
        return text if text in CATALOGUE else weak_name(dtype_info(result.name).kind)

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
            # In legacy mode only the operator promotes (tf.add takes one dtype)
            return a + b if legacy else tf.add(a, b)
        except SystemError as exc:  # TF's bug: uint64 tensor + negative int
            # the OverflowError is tf.add's cause, and the operator's context
            pending = exc.__cause__ or exc.__context__
            if isinstance(pending, OverflowError):
                raise pending from None
            raise

    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, tensor_or_value, add)
        if isinstance(out, weak_tensor.WeakTensor):
            return named(out.dtype, True)
        if isinstance(out, tf.Tensor):
            return str(out.dtype.name)
        return python_result(out)

    def value(op: Operand, shape: Sequence[int] = (2,)) -> Any:
        if op.category == PYTHON:
            if op.dtype in PYTHON_VALUES:
                return python_value(op)
            return weak(op, [], tf.ones)
        if op.dtype == "string":
            return tf.fill(shape, "a")
        return tf.ones(shape, dtype=op.dtype)

    def dtype_of(out: Any) -> str:
        strong = not isinstance(out, weak_tensor.WeakTensor)
        return str(tf.as_dtype(out.dtype).name) + ("" if strong else "*")

    def call(q: Question, args: Sequence[Any]) -> tuple[Any, Cell]:
        """The operation on ``args``: its output and its record."""
        import tensorflow.experimental.numpy as tnp

        outs: list[Any] = []

        def kept(out: Any) -> str:
            outs.append(out)
            return dtype_of(out)

        if is_operator(q.operation):
            cell = operated(q.operation, args, kept)
            return outs[0], cell
        fn = getattr(tnp, q.function.removeprefix("tnp."))
        condition = tf.ones([2], dtype=tf.bool)
        out = fn(condition, *args) if q.operation == "where" else fn(*args)
        return out, Result(dtype_of(out))

    def traced(q: Question, args: Sequence[Any]) -> Cell:
        """The operation inside ``tf.function``, as a user's is: the tensors its arguments
        (traced with their dtype and shape), the Python scalars constants of the trace; the
        record is the output of the call (a WeakTensor stays one), whether ``a op= b``
        rebound the name as the trace saw it."""
        held = [isinstance(a, (tf.Tensor, weak_tensor.WeakTensor)) for a in args]
        seen: list[Cell] = []

        def body(*tensors: Any) -> Any:
            given = iter(tensors)
            out, cell = call(q, [next(given) if h else a for a, h in zip(args, held, strict=True)])
            seen.append(cell)
            return out

        from tensorflow.python.autograph.impl.api import StagingError

        try:
            out = tf.function(body)(*(a for a, h in zip(args, held, strict=True) if h))
        except StagingError as exc:
            # AutoGraph's wrapping of an error it does not re-raise as its own type
            # (IndexError): "in user code:", the frames, and the error's own line last
            raise Refused(said(exc).strip().splitlines()[-1].strip()) from None
        except (TypeError, ValueError) as exc:
            # one it re-raises as its own type, its message "in user code:" and the frames
            text = str(exc).strip()
            if text.startswith("in user code:"):
                raise Refused(text.splitlines()[-1].strip()) from None
            raise
        rebound = isinstance(seen[0], Result) and seen[0].rebound
        return Result(dtype_of(out), rebound=rebound)

    def called(q: Question) -> str | Cell:
        # tf.Tensor's @ is tf.linalg.matmul, of matrices only (a vector is refused)
        args = [value(x, (2, 2) if q.operation == "@" else (2,)) for x in q.operands]
        # Python scalars a function or operator converts are cached by value and dtype, and a
        # value that does not convert can leave an error pending (see add)
        pywrap_tfe.TFE_ClearScalarCache()
        try:
            try:
                return traced(q, args) if in_function else call(q, args)[1]
            except AttributeError as exc:
                if not is_operator(q.operation):
                    raise
                # TensorFlow's own: a Python scalar on the left of & | ^ (``and_`` reads
                # its ``.dtype``), or a float on the right of | (no ``__ror__``)
                return Refusal(first_line(f"AttributeError: {exc}"))
        except (tf.errors.NotFoundError, tf.errors.InvalidArgumentError) as exc:
            if missing_kernel(said(exc), q) is None:
                raise
            return _on_xla(tf, exc)
        except SystemError as exc:  # TF's bug, as in add: the conversion's pending error
            pending = exc.__cause__ or exc.__context__
            if isinstance(pending, OverflowError):
                raise pending from None
            raise

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            if legacy:  # TF-NumPy's result_type: np.result_type, never weak
                import tensorflow.experimental.numpy as tnp

                return named(tnp.result_type(*map(dtype_or_value, q.operands)), False)
            return named(*flexible_dtypes.result_type(*map(dtype_or_value, q.operands)))
        if q.kind in (CHAIN, VALUE):
            return chain(q.operands)
        if q.kind == OPERATION:
            return called(q)
        raise ValueError(f"TensorFlow's oracle is not asked {q.kind}")

    # tnp.matmul of a 0-d WeakTensor fails in tensordot with IndexError: its shape refusal.
    refusals = (
        *(TypeError, ValueError, NotImplementedError, IndexError, OverflowError),
        tf.errors.OpError,
    )
    before = ops_module.promo_mode_enum_to_string(ops_module.get_dtype_conversion_mode())
    logger = tf.get_logger()
    level = logger.level
    # tf.add and tnp warn through Python logging (a promotion the mode refuses, "Falling back to
    # old semantics") and oneDNN through fd 2 on the first float16 kernel: neither belongs
    # between verify's report lines.
    logger.setLevel("ERROR")
    try:
        with _fd2_caught():
            if any(q.kind == OPERATION for q in questions):
                import tensorflow.experimental.numpy as tnp

                tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=opts["mode"])
            else:
                ops_module.set_dtype_conversion_mode(opts["mode"])
            return answered(questions, ask, refusals, missing_kernel)
    finally:
        ops_module.set_dtype_conversion_mode(before)
        logger.setLevel(level)


# Per (op, type) where the CPU has no kernel: why no device runs it ("" where XLA does).
_XLA: dict[tuple[str, str], str] = {}
# The op and its type: eagerly "{{node FloorDiv}} = FloorDiv[T=DT_COMPLEX64 ...", inside
# tf.function "Op 'FloorDiv' used by {{node floordiv}} with these attrs: [T=DT_COMPLEX64 ...".
_NODE = re.compile(
    r"\{\{node (\w+)\}\} = \1\[T=DT_(\w+)"
    r"|Op '(\w+)' used by \{\{node [^}]*\}\} with these attrs: \[[^\]]*\bT=DT_(\w+)"
)


def _on_xla(tf: Any, missing: BaseException) -> Cell:
    """The op the CPU has no kernel for, of the type it was asked for (read from TensorFlow's
    message), compiled with XLA on tensors that are the function's arguments (constants could
    be folded, and XLA's folding of a complex comparison aborts the process): a gap where XLA
    runs it, a refusal in both devices' words where it does not. Once per op and type."""
    from tensorflow.python.framework import op_def_registry

    found = _NODE.search(str(missing))
    if found is None:
        return Gap(first_line(missing))
    op, type_name = found.group(1) or found.group(3), (found.group(2) or found.group(4)).lower()
    if (op, type_name) not in _XLA:
        names = [arg.name for arg in op_def_registry.get(op).input_arg]
        raw = getattr(tf.raw_ops, op)
        args = [tf.ones([2, 2], dtype=tf.as_dtype(type_name)) for _ in names]
        compiled = tf.function(
            lambda *xs: raw(**dict(zip(names, xs, strict=True))),
            jit_compile=True,
            autograph=False,
        )
        try:
            compiled(*args)
        except (tf.errors.OpError, TypeError, ValueError) as exc:
            said_by_xla = first_line(exc)
            if "unsupported operations" in said_by_xla:  # it names a numbered graph
                said_by_xla = f"no {op} kernel for {type_name} is registered for XLA_CPU_JIT"
            _XLA[op, type_name] = said_by_xla
        else:
            _XLA[op, type_name] = ""
    why = _XLA[op, type_name]
    if not why:
        return Gap(first_line(missing))
    return Refusal(first_line(f"{first_line(missing)}; no device has the kernel: XLA says {why}"))


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): ``tf.Tensor`` (a
    WeakTensor where TensorFlow makes one) with NumPy behaviour enabled in the setting's mode,
    ``tf.experimental.numpy``'s functions and Python's operators on them (use inside
    ``configured(opts)``: the worker of that mode enables it, as a program does once at its
    start). Python scalars TensorFlow converts are cached by value and dtype, and a value that
    does not convert can leave an error pending (see ``answer``): the cache is emptied before
    every node (each array made and each dtype read: an operation runs between two reads)."""

    # The arrays are ones: ~x of a bool array is zeros, a divisor its kernels refuse; -x of an
    # integer one is -1, an exponent they refuse.
    value_errors = (
        "Integers to negative integer powers are not allowed",
        "Integer division by zero",
    )

    def __init__(self, handle: Any, opts: Mapping[str, Any]) -> None:
        self.tf, _, self.ops, _ = handle
        from tensorflow.python import pywrap_tfe

        self.clear = pywrap_tfe.TFE_ClearScalarCache
        # AttributeError: TensorFlow's own refusal of a Python scalar left of & | ^ (``and_``
        # reads its ``.dtype``); SystemError: a Python int that does not convert, its pending
        # OverflowError surfaced (``uint64_tensor * -1``; see ``answer``).
        self.refusals = (
            TypeError,
            ValueError,
            NotImplementedError,
            IndexError,
            OverflowError,
            AttributeError,
            SystemError,
            self.tf.errors.OpError,
        )

    @contextmanager
    def configured(self, opts: Mapping[str, Any]) -> Iterator[None]:
        import tensorflow.experimental.numpy as tnp

        logger = self.tf.get_logger()
        level = logger.level
        logger.setLevel("ERROR")  # "Falling back to old semantics" and the like
        before = self.ops.promo_mode_enum_to_string(self.ops.get_dtype_conversion_mode())
        try:
            with _fd2_caught():
                tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=opts["mode"])
                yield
        finally:
            self.ops.set_dtype_conversion_mode(before)
            logger.setLevel(level)

    @staticmethod
    def gap(text: str, question: Question) -> Gap | None:
        return missing_kernel(text, question)

    def array(self, dtype: str, ndim: int) -> Any:
        self.clear()
        return self.tf.ones((2,) * ndim, dtype=self.tf.as_dtype(dtype))

    def call(self, function: str, args: Sequence[Any]) -> Any:
        import tensorflow.experimental.numpy as tnp

        return getattr(tnp, function.removeprefix("tnp."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.astype(self.tf.as_dtype(dtype))

    def dtype(self, x: Any) -> str:
        self.clear()
        return str(self.tf.as_dtype(x.dtype).name)
