"""The JAX oracle: ``jax._src.dtypes.result_type(..., return_weak_type_flag=True)``.

The weak-type flag is the only way to see JAX's weak results, and only this private function
returns it (``jnp.result_type`` drops it). Python scalars are passed as the Python types
``bool``, ``int``, ``float``, ``complex``; dtypes as NumPy dtypes (ml_dtypes for bfloat16, int4,
the float8 family ...). The options are JAX's global flags ``jax_enable_x64`` and
``jax_numpy_dtype_promotion``, set for each option setting and restored afterwards.

JAX marks some results of two strong operands weak (``uint64 x int8``); like
``jnp.promote_types`` and the policy, the oracle reports those as the plain dtype: a result is
weak only when an operand was.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from promote_cli.dtypes import get as dtype
from promote_cli.operands import PYTHON, Operand
from promote_cli.verify import (
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

POLICY = "jax"
FRAMEWORK = "jax"
INSTALL = "jax"
IN_CONFORMANCE_EXTRA = True
OPTIONS = ("x64", "strict")

_PYTHON_TYPES = {"bool": bool, "int*": int, "float*": float, "complex*": complex}


def load() -> Any:
    import jax
    import ml_dtypes
    import numpy as np
    from jax._src import dtypes as jax_dtypes

    return jax, jax_dtypes, np, ml_dtypes


def version(handle: Any) -> str:
    return handle[0].__version__


@contextmanager
def answering(handle: Any, opts: Mapping[str, Any]) -> Iterator[Answer]:
    jax, jax_dtypes, np, ml_dtypes = handle
    before = (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion)
    # Filtering each TypePromotionError's traceback costs ~20 ms (it stats every frame).
    filtering = jax.config.jax_traceback_filtering
    jax.config.update("jax_traceback_filtering", "off")

    def operand(op: Operand) -> Any:
        if op.category == PYTHON:
            return _PYTHON_TYPES[op.dtype]
        try:
            return np.dtype(getattr(ml_dtypes, op.dtype, None) or op.dtype)
        except TypeError:
            raise Refused(f"JAX has no dtype {op.dtype}") from None

    @refusing(jax.dtypes.TypePromotionError)
    def answer(a: Operand, b: Operand) -> str:
        result, weak = jax_dtypes.result_type(operand(a), operand(b), return_weak_type_flag=True)
        if weak and (_is_weak(a) or _is_weak(b)):
            return weak_name(dtype(result.name).kind)
        return result.name

    jax.config.update("jax_enable_x64", bool(opts["x64"]))
    jax.config.update("jax_numpy_dtype_promotion", "strict" if opts["strict"] else "standard")
    try:
        # Without x64 JAX warns on every 64-bit input it narrows; the narrowing is the answer.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield answer
    finally:
        jax.config.update("jax_enable_x64", before[0])
        jax.config.update("jax_numpy_dtype_promotion", before[1])
        jax.config.update("jax_traceback_filtering", filtering)


def _is_weak(op: Operand) -> bool:
    return op.category == PYTHON and op.dtype != "bool"


@contextmanager
def answering_many(handle: Any, opts: Mapping[str, Any]) -> Iterator[Many]:
    """``result_type`` with the weak flag (weak only when an operand was a weak Python
    scalar, as for pairs); the chain by ``jax.eval_shape`` of each real ``+`` (abstract
    evaluation: the dtype and weak flag of the array ``+`` makes, without compiling), each
    distinct step asked once."""
    jax, jax_dtypes, np, ml_dtypes = handle
    steps: dict[Any, Any] = {}

    def dtype_or_type(op: Operand) -> Any:
        if op.category == PYTHON:
            return _PYTHON_TYPES[op.dtype]
        return np.dtype(getattr(ml_dtypes, op.dtype, None) or op.dtype)

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

    errors = (jax.dtypes.TypePromotionError, OverflowError)

    @refusing_many(*errors)
    def result_type(ops: Sequence[Operand]) -> str:
        result, weak = jax_dtypes.result_type(*map(dtype_or_type, ops), return_weak_type_flag=True)
        if weak and any(_is_weak(op) for op in ops):
            return weak_name(dtype(result.name).kind)
        return result.name

    @refusing_many(*errors)
    def chain(ops: Sequence[Operand]) -> str:
        out = chained(ops, array_or_value, add)
        if not isinstance(out, jax.ShapeDtypeStruct):
            return python_result(out)
        return weak_name(dtype(out.dtype.name).kind) if out.weak_type else out.dtype.name

    with answering(handle, opts):  # sets and restores the flags
        yield Many(result_type, chain)


@contextmanager
def calling(handle: Any, opts: Mapping[str, Any]) -> Iterator[Call]:
    """``jax.numpy``'s functions, traced with ``jax.eval_shape`` on arrays of shape (2,) and
    Python scalars: the dtype rules without compiling, which is what makes verifying every cell
    of four settings affordable (executing costs an XLA compile a cell). ``call.many`` traces
    every case of one function in a single trace. A unary function or a reduction is also
    lowered (``jit(...).lower``, no compile): ``argmax`` of a complex array traces but does not
    lower ("gt does not accept dtype complex64"), as calling it shows. What tracing cannot see
    are XLA's run-time failures (int1, uint1, float6 and some sub-byte reductions): the policy
    marks those cells no-kernel, and verify counts them as gaps."""
    jax, _, np, ml_dtypes = handle
    jnp = jax.numpy
    before = (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion)
    values = {"bool": True, "int*": 1, "float*": 1.0, "complex*": 1j}

    def np_dtype(name: str) -> Any:
        return np.dtype(getattr(ml_dtypes, name, None) or name)

    def many(function: str, operation: Any, cases: Sequence[Sequence[Operand]]) -> list[Any]:
        fn = getattr(jnp, function.removeprefix("jnp."))
        types = sorted({x.dtype for case in cases for x in case if x.category != PYTHON})
        structs = [jax.ShapeDtypeStruct((2,), np_dtype(t)) for t in types]
        found: list[Any] = [None] * len(cases)

        def traced(*arrays: Any) -> tuple:
            by_type = dict(zip(types, arrays, strict=True))
            condition = jnp.ones(2, bool)
            for i, case in enumerate(cases):
                args = [values[x.dtype] if x.category == PYTHON else by_type[x.dtype] for x in case]
                try:
                    out = fn(condition, *args) if operation.name == "where" else fn(*args)
                except (TypeError, ValueError, NotImplementedError) as exc:
                    found[i] = Refused(exc)
                    continue
                name = np.dtype(out.dtype).name
                # A weak bool (a comparison with a Python scalar) is just bool.
                if out.aval.weak_type and name != "bool" and any(_is_weak(x) for x in case):
                    name = weak_name(dtype(name).kind)
                found[i] = name
            return ()

        jax.eval_shape(traced, *structs)
        if operation.arity in ("unary", "reduction"):
            _lowered(jax, fn, cases, structs, types, found)
        return found

    def call(function: str, operation: Any, operands: Sequence[Operand]) -> str:
        (out,) = many(function, operation, [operands])
        if isinstance(out, Refused):
            raise out
        return out

    call.many = many  # type: ignore[attr-defined]
    jax.config.update("jax_enable_x64", bool(opts["x64"]))
    jax.config.update("jax_numpy_dtype_promotion", "strict" if opts["strict"] else "standard")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield call
    finally:
        jax.config.update("jax_enable_x64", before[0])
        jax.config.update("jax_numpy_dtype_promotion", before[1])


def _lowered(jax: Any, fn: Any, cases: Sequence[Sequence[Operand]], structs, types, found) -> None:
    """Lower the cases that traced, together; when that fails, one by one, and record the
    refusals lowering finds."""
    by_type = dict(zip(types, structs, strict=True))
    alive = [i for i, f in enumerate(found) if not isinstance(f, Refused)]

    def lower(indices: list[int]) -> None:
        args = [by_type[cases[i][0].dtype] for i in indices]
        jax.jit(lambda *xs: [fn(x) for x in xs]).lower(*args)

    try:
        lower(alive)
    except (TypeError, ValueError, NotImplementedError):
        for i in alive:
            try:
                lower([i])
            except (TypeError, ValueError, NotImplementedError) as exc:
                found[i] = Refused(exc)
