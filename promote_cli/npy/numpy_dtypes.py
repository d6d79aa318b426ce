"""Catalogue names <-> NumPy and ml_dtypes dtypes: which type a name is held in, the name of a
dtype, the descr an output header gets, and which casts NumPy/ml_dtypes implement.

ml_dtypes: ``np.save`` writes most ml_dtypes arrays with a raw void descr (``|V1``, ``<V2``),
``float8_e5m2`` as ``<f1`` and ``complex32`` as ``<W4`` (ml_dtypes 0.6) or ``<c4`` (0.7), none
of which NumPy can parse; such
inputs are read only with an explicit dtype of the same width (``header``). Outputs of an
ml_dtypes type get the dtype's name as descr (``'bfloat16'``), which ``np.load`` maps back to the
ml_dtypes type once ``ml_dtypes`` has been imported (NumPy 2.x resolves a descr with
``np.dtype(descr)``, and importing ml_dtypes registers the names); ``void_header=True`` writes
``|V<n>`` instead, which any NumPy loads as raw bytes to be ``.view()``-ed.

ml_dtypes is imported only when a type of its own is asked for (``load_ml_dtypes``): a name
(``numpy_dtype``), a dtype to be named (``canonical_name``) or a header naming one
(``header``). Importing ml_dtypes 0.7 costs about 0.55 s of CPU, more than NumPy's import and
more than converting 256 MiB of float16, so a conversion between NumPy's own types never pays it.
"""

from __future__ import annotations

import warnings
from types import ModuleType

import numpy as np
from numpy.lib import format as npformat

from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import PromotionError, UsageError

# The refusal's rule when the promoted type cannot be written to a .npy file.
NO_NPY_DTYPE = "no-npy-dtype"

# The catalogue's types NumPy holds only through ml_dtypes (bfloat16, float8_*, int4 ...): those
# whose name is not one of NumPy's own scalar types (ml_dtypes adds its names to
# ``np.sctypeDict`` once imported, with its own classes; NumPy's are ``numpy``'s).
ML_DTYPES = frozenset(
    name
    for name, entry in CATALOGUE.items()
    if entry.numpy and getattr(np.sctypeDict.get(name), "__module__", None) != "numpy"
)


def load_ml_dtypes() -> ModuleType:
    """ml_dtypes, imported now if it was not: importing it registers its types with NumPy."""
    import ml_dtypes

    return ml_dtypes


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
    if canonical not in ML_DTYPES:
        return np.dtype(canonical)
    ml_dtypes = load_ml_dtypes()
    if not hasattr(ml_dtypes, canonical):  # an ml_dtypes type this (older) ml_dtypes lacks
        raise PromotionError(
            f"{canonical} needs a newer ml_dtypes than the installed {ml_dtypes.__version__}",
            rule=NO_NPY_DTYPE,
        )
    return np.dtype(getattr(ml_dtypes, canonical))


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
    if dtype.name in ML_DTYPES:
        # A dtype of that name comes from ml_dtypes, imported already; it must be its type.
        own = getattr(load_ml_dtypes(), dtype.name, None)
        if own is not None and np.dtype(own) == dtype:
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
