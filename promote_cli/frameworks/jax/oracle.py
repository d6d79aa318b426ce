"""The JAX oracle: ``jax._src.dtypes.result_type(..., return_weak_type_flag=True)``.

The weak-type flag is the only way to see JAX's weak results, and only this private function
returns it (``jnp.result_type`` drops it). Python scalars are passed as the Python types
``bool``, ``int``, ``float``, ``complex``; dtypes as NumPy dtypes (ml_dtypes for bfloat16, int4,
the float8 family ...). The options are JAX's global flags ``jax_enable_x64`` and
``jax_numpy_dtype_promotion``, set for each option setting and restored afterwards, and
``jit``: whether an operation's arrays are the arguments of a trace (tracers, as inside
``jax.jit``) or concrete arrays on the device the trace closes over, so that ``jax.numpy``'s
Python code sees their values as it does at a prompt (eager: ``jnp.power`` takes a concrete 0-d
integer exponent as a Python int). The primitives are traced either way: only the Python code
above them looks at a value, and eager and traced primitives give one dtype (checked: every
cell of ``**`` and ``pow`` with a 0-d operand, run eagerly for real, agrees). A program for
``promote expr`` is run eagerly, or built inside ``jax.jit`` and compiled and run.

JAX marks some results of two strong operands weak (``uint64 x int8``); like
``jnp.promote_types`` and the policy, the oracle reports those as the plain dtype: a result is
weak only when an operand was.

A missing kernel shows only when XLA runs a program (``JaxRuntimeError``, "invalid XLA
PrimitiveType", "cannot lower jaxpr"): a gap. Operations are traced, not run (a compile a cell
would cost too much), and a unary function or a reduction is compiled too; what neither shows
is that XLA on the CPU cannot run an array of some types at all (int1, uint1, the float6 types),
so ``x + x`` is run once per type, and a traced cell with an array of a type that cannot run is
that gap.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.operands import PYTHON, ZERO_D, Operand
from promote_cli.verify import (
    SYNTAX,
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
    first_line,
    in_process,
)

RUNS = in_process(
    "JAX's options are flags of its config, set for each option setting and restored afterwards"
)
ASKS = Asks(nary=True, operations=True, operation_values=True, expressions=True)
# Per type: why XLA on the CPU cannot run a program on an array of it ("" when it can).
_RUNS: dict[str, str] = {}

_PYTHON_TYPES = {"bool": bool, "int*": int, "float*": float, "complex*": complex}
# How XLA says that it has no kernel (run time, or lowering), as opposed to a dtype rule.
_NO_KERNEL = (
    "jaxruntimeerror",
    "invalid integer data type 'v'",
    "invalid xla primitivetype",
    "cannot lower jaxpr",
)


def load() -> Any:
    import jax
    import ml_dtypes
    import numpy as np
    from jax._src import dtypes as jax_dtypes

    return jax, jax_dtypes, np, ml_dtypes


def version(handle: Any) -> str:
    return handle[0].__version__


def missing_kernel(text: str, question: Question) -> Gap | None:
    low = text.lower()
    return Gap(first_line(text)) if any(words in low for words in _NO_KERNEL) else None


@contextmanager
def _configured(jax: Any, opts: Mapping[str, Any]) -> Iterator[None]:
    """JAX's flags for one option setting, restored afterwards; its warnings (every 64-bit
    input it narrows without x64: the narrowing is the answer) silenced."""
    before = (
        jax.config.jax_enable_x64,
        jax.config.jax_numpy_dtype_promotion,
        jax.config.jax_traceback_filtering,
    )
    # Filtering each TypePromotionError's traceback costs ~20 ms (it stats every frame).
    jax.config.update("jax_traceback_filtering", "off")
    jax.config.update("jax_enable_x64", bool(opts["x64"]))
    jax.config.update("jax_numpy_dtype_promotion", "strict" if opts["strict"] else "standard")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        jax.config.update("jax_enable_x64", before[0])
        jax.config.update("jax_numpy_dtype_promotion", before[1])
        jax.config.update("jax_traceback_filtering", before[2])


def answer(handle: Any, opts: Mapping[str, Any], questions: Sequence[Question]) -> list[Cell]:
    """A pair and ``result_type``: ``jax._src.dtypes.result_type(..., return_weak_type_flag=
    True)`` (weak only when an operand was a weak Python scalar). The chain: ``jax.eval_shape``
    of each real ``+`` (abstract evaluation: the dtype and weak flag of the array ``+`` makes,
    without compiling), each distinct step asked once. An operation: ``jax.numpy``'s function,
    every case of one function traced together (``_traced``)."""
    jax, jax_dtypes, np, ml_dtypes = handle
    steps: dict[Any, Any] = {}

    def dtype_or_type(op: Operand) -> Any:
        if op.category == PYTHON:
            return _PYTHON_TYPES[op.dtype]
        try:
            return np.dtype(getattr(ml_dtypes, op.dtype, None) or op.dtype)
        except TypeError:
            raise Refused(f"JAX has no dtype {op.dtype}") from None

    def array_or_value(op: Operand) -> Any:
        if op.category == PYTHON:
            return python_value(op)
        return jax.ShapeDtypeStruct((2,), dtype_or_type(op))

    def key(x: Any) -> Any:
        if isinstance(x, jax.ShapeDtypeStruct):
            return (x.dtype, x.weak_type)
        return (type(x), x)

    def add(a: Any, b: Any) -> Any:
        arrays = [isinstance(x, jax.ShapeDtypeStruct) for x in (a, b)]
        if not any(arrays):
            return a + b
        k = (key(a), key(b))
        if k not in steps:
            if all(arrays):
                steps[k] = jax.eval_shape(lambda x, y: x + y, a, b)
            elif arrays[0]:
                steps[k] = jax.eval_shape(lambda x: x + b, a)
            else:
                steps[k] = jax.eval_shape(lambda y: a + y, b)
        return steps[k]

    def result_type(ops: Sequence[Operand]) -> str:
        result, weak = jax_dtypes.result_type(*map(dtype_or_type, ops), return_weak_type_flag=True)
        if weak and any(_is_weak(op) for op in ops):
            return weak_name(dtype(result.name).kind)
        return str(result.name)

    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, array_or_value, add)
        if not isinstance(out, jax.ShapeDtypeStruct):
            return python_result(out)
        return weak_name(dtype(out.dtype.name).kind) if out.weak_type else str(out.dtype.name)

    # Every case of one function is traced at once: its records, by question.
    traced: dict[Question, Cell] = {}

    def ask(q: Question) -> str | Cell:
        if q.kind in (PAIR, RESULT_TYPE):
            return result_type(q.operands)
        if q.kind in (CHAIN, VALUE):
            return chain(q.operands)
        if q.kind == OPERATION:
            if q not in traced:
                same = [o for o in questions if o.kind == OPERATION and o.operation == q.operation]
                traced.update(zip(same, _traced(handle, same, opts["jit"]), strict=True))
            return traced[q]
        raise ValueError(f"JAX's oracle is not asked {q.kind}")

    refusals = (jax.dtypes.TypePromotionError, OverflowError)
    with _configured(jax, opts):
        return answered(questions, ask, refusals, missing_kernel)


def _is_weak(op: Operand) -> bool:
    return op.category == PYTHON and op.dtype != "bool"


def _shape(category: str) -> tuple[int, ...]:
    return () if category == ZERO_D else (2,)


def _concrete(handle: Any, name: str, category: str) -> Any:
    """An array of ones of ``name`` on the device, as a line at a prompt makes it (None where
    XLA on the CPU cannot hold one: ``_unrunnable`` makes those cells gaps)."""
    jax, _, np, ml_dtypes = handle
    x = np.ones(_shape(category), np.dtype(getattr(ml_dtypes, name, None) or name))
    try:
        return jax.block_until_ready(jax.device_put(x))
    except (jax.errors.JaxRuntimeError, ValueError, TypeError):
        return None


def _traced(handle: Any, questions: Sequence[Question], jit: bool) -> list[Cell]:
    """``jax.numpy``'s function of ``questions`` (all the same function), traced with
    ``jax.eval_shape`` on arrays of shape (2,) and Python scalars: the dtype rules without
    compiling, which is what makes every cell of four settings affordable (executing costs an
    XLA compile a cell). Every case is traced in a single trace. A unary function or a reduction
    is also compiled, all its cases in one program (one case at a time only when that fails):
    ``argmax`` of a complex array traces but does not lower ("gt does not accept dtype
    complex64"), ``argmax`` of an int2 array lowers but does not compile, as calling them
    shows. A cell with an array of a type XLA cannot run at all (int1, uint1, the float6 types:
    ``_unrunnable``) is a gap; the policy marks those cells no-kernel."""
    jax, _, np, ml_dtypes = handle
    jnp = jax.numpy
    # Each case is tried on its own inside the trace: a valued Python scalar JAX cannot convert
    # (OverflowError: "An overflow was encountered while parsing an argument to a jitted
    # computation") is that case's answer alone, as calling it eagerly raises the same error.
    errors = (TypeError, ValueError, NotImplementedError, OverflowError)
    operation = questions[0].operation
    if is_operator(operation):  # Python's operator on jax.Array (``a += b`` rebinds)
        fn = SYNTAX[operation]
    else:
        fn = getattr(jnp, questions[0].function.removeprefix("jnp."))
    cases = [q.operands for q in questions]

    def np_dtype(name: str) -> Any:
        return np.dtype(getattr(ml_dtypes, name, None) or name)

    # An array is an argument of the trace (a tracer, as inside jax.jit); eagerly (jit=false)
    # its value is known instead: a concrete array the trace closes over, so jnp's Python code
    # sees what it sees at a prompt (jnp.power takes a concrete 0-d integer exponent as a
    # Python int). Either way the primitives are traced, not run.
    forms = sorted({(x.dtype, x.category) for case in cases for x in case if x.category != PYTHON})
    known = {} if jit else {a: x for a in forms if (x := _concrete(handle, *a)) is not None}
    types = [a for a in forms if a not in known]
    structs = [jax.ShapeDtypeStruct(_shape(c), np_dtype(t)) for t, c in types]
    found: list[Any] = [None] * len(cases)

    def named(out: Any, case: Sequence[Operand]) -> str:
        name = np.dtype(out.dtype).name
        # A weak bool (a comparison with a Python scalar) is just bool.
        if out.aval.weak_type and name != "bool" and any(_is_weak(x) for x in case):
            name = weak_name(dtype(name).kind)
        return name

    def trace(*traced: Any) -> tuple:
        by_type = {**known, **dict(zip(types, traced, strict=True))}
        condition = jnp.ones(2, bool)
        for i, case in enumerate(cases):
            args = [
                python_value(x) if x.category == PYTHON else by_type[x.dtype, x.category]
                for x in case
            ]
            try:
                if is_operator(operation):
                    found[i] = operated(operation, args, lambda out: named(out, case))  # noqa: B023
                    continue
                out = fn(condition, *args) if operation == "where" else fn(*args)
            except errors as exc:
                found[i] = exc
                continue
            found[i] = named(out, case)
        return ()

    jax.eval_shape(trace, *structs)
    if len(cases[0]) == 1:  # a unary function or a reduction: compiled too
        by_type = {(t, c): jax.ShapeDtypeStruct(_shape(c), np_dtype(t)) for t, c in forms}
        alive = [
            i
            for i, f in enumerate(found)
            if isinstance(f, str | Result) and not _unrunnable(handle, cases[i][0].dtype)
        ]
        failures = (*errors, jax.errors.JaxRuntimeError)

        def compiled(indices: list[int]) -> None:
            args = [by_type[cases[i][0].dtype, cases[i][0].category] for i in indices]
            jax.jit(lambda *xs: [fn(x) for x in xs]).lower(*args).compile()

        try:
            compiled(alive)
        except failures:
            for i in alive:
                try:
                    compiled([i])
                except failures as exc:
                    found[i] = exc
    out: list[Cell] = []
    for case, f in zip(cases, found, strict=True):
        if isinstance(f, str | Result):
            arrays = (x.dtype for x in case if x.category != PYTHON)
            why = next((w for w in (_unrunnable(handle, t) for t in arrays) if w), "")
            out.append(Gap(why) if why else f if isinstance(f, Result) else Result(f))
        else:
            text = f"{type(f).__name__}: {f}"
            out.append(missing_kernel(text, questions[0]) or Refusal(first_line(text)))
    return out


def _unrunnable(handle: Any, name: str) -> str:
    """Why XLA on the CPU cannot run a program on an array of ``name`` ("" when it can): ``x +
    x`` compiled and run once per type, what tracing a cell cannot show."""
    if name not in _RUNS:
        jax, _, np, ml_dtypes = handle
        x = np.zeros(2, np.dtype(getattr(ml_dtypes, name, None) or name))
        try:
            jax.block_until_ready(jax.jit(lambda a: a + a)(x))
        except (jax.errors.JaxRuntimeError, ValueError, TypeError) as exc:
            _RUNS[name] = f"XLA on the CPU cannot run {name}: {first_line(f'{exc}')}"
        else:
            _RUNS[name] = ""
    return _RUNS[name]


class Primitives:
    """What ``promote expr`` is checked with (``verify.expressions.run``): ``jax.numpy``'s
    arrays, run eagerly on the CPU; use inside ``configured(opts)``."""

    value_errors = ()

    def __init__(self, handle: Any, opts: Mapping[str, Any]) -> None:
        self.jax, _, self.np, self.ml_dtypes = handle
        self.jnp = self.jax.numpy
        self.jit = bool(opts["jit"])
        self.refusals = (
            self.jax.dtypes.TypePromotionError,
            self.jax.errors.JaxRuntimeError,
            OverflowError,
            TypeError,
            ValueError,
            RuntimeError,
        )

    def configured(self, opts: Mapping[str, Any]) -> Any:
        return _configured(self.jax, opts)

    def within(self, build: Callable[[], tuple[list[Cell | None], list[Any]]]) -> Any:
        """The program run eagerly, or (``jit``) inside ``jax.jit``: built in its trace, every
        array a tracer, then compiled and run. A failure of the compiled program is XLA's, at
        the node where the eager run of the program fails the same way (a missing kernel is
        the same XLA operation either way)."""
        if not self.jit:
            return build()
        found: list[Any] = []

        def program() -> list[Any]:
            cells, values = build()
            found.append((cells, values))
            return [v for v in values if isinstance(v, self.jax.Array)]

        try:
            self.jax.block_until_ready(self.jax.jit(program)())
        except self.refusals as exc:
            if not found:
                raise
            eager = build()[0]
            at = next((i for i, c in enumerate(eager) if not isinstance(c, Result | None)), None)
            if at is None:
                raise RuntimeError(f"jax.jit fails where the eager run does not: {exc}") from exc
            cells = found[0][0]
            return [*cells[:at], eager[at], *[None] * (len(cells) - at - 1)], []
        return found[0]

    @staticmethod
    def gap(text: str, question: Question) -> Gap | None:
        return missing_kernel(text, question)

    def _dtype(self, name: str) -> Any:
        return self.np.dtype(getattr(self.ml_dtypes, name, None) or name)

    def array(self, dtype: str, ndim: int) -> Any:
        return self.jnp.ones((2,) * ndim, self._dtype(dtype))

    def call(self, function: str, args: Sequence[Any]) -> Any:
        return getattr(self.jnp, function.removeprefix("jnp."))(*args)

    def astype(self, x: Any, dtype: str) -> Any:
        return x.astype(self._dtype(dtype))

    def dtype(self, x: Any) -> str:
        return str(x.dtype.name)
