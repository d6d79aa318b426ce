"""Operands: a dtype plus the category of value that carries it.

``D(t)`` a dimensioned array (the default), ``S(t)`` a 0-d array (OpenVINO and PyTorch treat it
as a scalar), ``P(int)``/``P(float)``/``P(complex)`` Python scalars (JAX's weak ``i*``, ``f*``,
``c*``; also spelled ``int``, ``float``, ``complex``), and ``P(bool)`` a Python ``bool``, which
is not the ``bool`` dtype in every framework.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from promote_cli.dtypes import is_weak
from promote_cli.errors import UsageError
from promote_cli.notations import Notation, display, read_dtype

DIMENSIONED, ZERO_D, PYTHON = "D", "S", "P"

_WRAPPED = re.compile(r"^\s*([DSP])\s*\(\s*(.+?)\s*\)\s*$", re.I)
_SCALARS = {
    "int": "int*",
    "float": "float*",
    "complex": "complex*",
    "bool": "bool",
    "int*": "int*",
    "float*": "float*",
    "complex*": "complex*",
    "i*": "int*",
    "f*": "float*",
    "c*": "complex*",
}


class Operand(NamedTuple):
    dtype: str  # canonical name; a Python scalar is int*, float*, complex* or bool
    category: str = DIMENSIONED

    @classmethod
    def of(cls, dtype: str) -> Operand:
        """The operand a bare type name stands for: a weak type (``int*``, TensorFlow's
        ``int32*`` ...) is a Python scalar, anything else a dimensioned array."""
        return cls(dtype, PYTHON if is_weak(dtype) else DIMENSIONED)


def parse(spelling: str, nota: Notation) -> Operand:
    """Read ``S(i8)``, ``D(f16)``, ``P(bool)``, ``int``, ``f*`` or a plain dtype spelling."""
    m = _WRAPPED.match(spelling)
    if m:
        category, inner = m.group(1).upper(), m.group(2)
        if category == PYTHON:
            scalar = _SCALARS.get(inner.lower())
            if scalar is None:
                raise UsageError(
                    f"P({inner}) is not a Python scalar; use P(bool), P(int), P(float), P(complex)"
                )
            return Operand(scalar, PYTHON)
        dtype = read_dtype(inner, nota)
        if is_weak(dtype):
            raise UsageError(f"{spelling!r}: a Python scalar has no array category; write {inner}")
        return Operand(dtype, category)
    bare = spelling.strip().lower()
    if bare in _SCALARS and bare != "bool":
        return Operand(_SCALARS[bare], PYTHON)
    dtype = read_dtype(spelling, nota)
    # A weak type (TensorFlow's i32*, f64* ...) is the type of a Python scalar or weak value.
    return Operand.of(dtype)


def inner(spelling: str) -> str:
    """The dtype spelling inside a ``D(...)``/``S(...)``/``P(...)`` wrapper, or the spelling."""
    m = _WRAPPED.match(spelling)
    return m.group(2) if m else spelling.strip()


def label(op: Operand, nota: Notation, *, plain: bool = False) -> str:
    """How ``op`` is printed in ``nota``; ``plain`` drops the canonical-name hint."""
    if op.category == PYTHON:
        return "P(bool)" if op.dtype == "bool" else nota.label(op.dtype)
    text = nota.label(op.dtype) if plain else display(op.dtype, nota)
    return f"S({text})" if op.category == ZERO_D else text
