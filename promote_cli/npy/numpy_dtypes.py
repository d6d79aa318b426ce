"""Catalogue names <-> NumPy and ml_dtypes dtypes: which type a name is held in, the name of a
dtype, the descr an output header gets, and which casts NumPy/ml_dtypes implement.

ml_dtypes: ``np.save`` writes most ml_dtypes arrays with a raw void descr (``|V1``, ``<V2``),
``float8_e5m2`` as ``<f1`` and ``complex32`` as ``<W4`` (neither of which NumPy can parse); such
inputs are read only with an explicit dtype of the same width (``header``). Outputs of an
ml_dtypes type get the dtype's name as descr (``'bfloat16'``), which ``np.load`` maps back to the
ml_dtypes type once ``ml_dtypes`` has been imported (NumPy 2.x resolves a descr with
``np.dtype(descr)``, and importing ml_dtypes registers the names); ``void_header=True`` writes
``|V<n>`` instead, which any NumPy loads as raw bytes to be ``.view()``-ed.
"""

from __future__ import annotations

import warnings

import ml_dtypes
import numpy as np
from numpy.lib import format as npformat

from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import PromotionError, UsageError

# The refusal's rule when the promoted type cannot be written to a .npy file.
NO_NPY_DTYPE = "no-npy-dtype"

_ML_DTYPES = frozenset(
    name for name, entry in CATALOGUE.items() if entry.numpy and hasattr(ml_dtypes, name)
)


def numpy_dtype(canonical: str) -> np.dtype:
    """The NumPy dtype holding catalogue type ``canonical``; a type NumPy cannot hold (OpenVINO's
    u3, nf4, string, a weak Python scalar type) is refused."""
    entry = CATALOGUE.get(canonical)
    if entry is None or not entry.numpy:
        note = f" ({entry.note})" if entry is not None and entry.note else ""
        raise PromotionError(
            f"{canonical}{note} has no NumPy or ml_dtypes representation, so no .npy file can"
            " hold it",
            rule=NO_NPY_DTYPE,
        )
    if canonical in _ML_DTYPES:
        return np.dtype(getattr(ml_dtypes, canonical))
    try:
        return np.dtype(canonical)
    except TypeError:  # an ml_dtypes type this (older) ml_dtypes lacks
        raise PromotionError(
            f"{canonical} needs a newer ml_dtypes than the installed {ml_dtypes.__version__}",
            rule=NO_NPY_DTYPE,
        ) from None


def canonical_name(dtype: np.dtype) -> str:
    """The catalogue name of a plain (non-structured) NumPy or ml_dtypes dtype."""
    if dtype.type is np.longdouble:
        return "longdouble"
    if dtype.type is np.clongdouble:
        return "clongdouble"
    if dtype.kind == "b":
        return "bool"
    prefix = {"i": "int", "u": "uint", "f": "float", "c": "complex"}.get(dtype.kind)
    if prefix is not None and dtype.type.__module__ == "numpy":
        return f"{prefix}{8 * dtype.itemsize}"
    if dtype.name in _ML_DTYPES and np.dtype(getattr(ml_dtypes, dtype.name)) == dtype:
        return dtype.name
    raise UsageError(f"dtype {dtype} is not a numeric type promote knows")


def catalogue_kind(dtype: np.dtype) -> str:
    """The catalogue's kind of ``dtype`` ("bool", "int", "float", "complex" ...)."""
    return CATALOGUE[canonical_name(dtype)].kind


def header_descr(dtype: np.dtype, *, void_header: bool = False) -> str:
    """The descr an output of ``dtype`` is written with (see the module docstring)."""
    if dtype.type.__module__ != "numpy":  # an ml_dtypes type
        return f"|V{dtype.itemsize}" if void_header else dtype.name
    descr = npformat.dtype_to_descr(dtype)
    if not isinstance(descr, str):  # a structured dtype's fields: never one promote writes
        raise ValueError(f"{dtype} is a structured dtype")
    return descr


def check_cast(source: np.dtype, target: np.dtype) -> None:
    """Refuse a cast NumPy/ml_dtypes does not implement (int4 -> float8_e8m0fnu ...)."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.zeros(1, source).astype(target)
    except (TypeError, ValueError):
        raise PromotionError(
            f"NumPy/ml_dtypes cannot cast {canonical_name(source)} to {canonical_name(target)}"
        ) from None
