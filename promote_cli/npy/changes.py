"""Counting the elements whose value a cast changes (``--check-values``, ``--strict``), by kind:
a NaN or inf into an integer, an overflow to inf/NaN, an integer out of range (wrapped), a value
rounded (precision lost)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from promote_cli.npy.numpy_dtypes import catalogue_kind

CHANGE_KINDS = ("nonfinite_to_int", "overflow", "out_of_range", "rounded")
CHANGE_LABELS = {
    "nonfinite_to_int": "NaN/inf into an integer",
    "overflow": "overflowed to inf/NaN",
    "out_of_range": "out of range (wrapped)",
    "rounded": "rounded (precision lost)",
}


@dataclass
class Changes:
    """How many elements change value on conversion, by kind. A NaN staying NaN is no change
    (payloads aside), nor is -0.0 becoming +0.0 in a type without negative zero."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHANGE_KINDS, 0))

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def count_changes(src: np.ndarray, out: np.ndarray, into: Changes) -> None:
    """Add to ``into`` the elements of ``src`` whose value ``out`` (its cast) does not keep.

    Round-tripping finds every change but one: a signed <-> unsigned wrap of an integer that
    round-trips back to itself (int8 -1 -> uint16 65535 -> int8 -1), caught by comparing signs.
    """
    skind, tkind = catalogue_kind(src.dtype), catalogue_kind(out.dtype)
    s_inexact, t_inexact = skind in ("float", "complex"), tkind in ("float", "complex")
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ComplexWarning: dropping imaginary parts is counted
        back = out.astype(src.dtype)
        changed = back != src
        if s_inexact and t_inexact:
            changed &= ~(np.isnan(src) & np.isnan(out))
        if "complex" not in (skind, tkind):
            changed |= (src < 0) != (out < 0)
        if not changed.any():
            return
        nothing = np.zeros(src.shape, bool)
        src_finite = np.isfinite(src) if s_inexact else ~nothing
        overflow = changed & src_finite & ~np.isfinite(out) if t_inexact else nothing
        nonfinite = nothing if t_inexact else changed & ~src_finite
        if t_inexact or skind == "complex":
            wrapped = nothing  # complex -> integer: counted as rounded (imaginary part lost)
        elif skind == "float":
            wrapped = changed & src_finite & (np.trunc(src) != back)  # not just the fraction
        else:
            wrapped = changed  # integer -> integer changes only by wrapping
        rounded = changed & ~(overflow | nonfinite | wrapped)
    for kind, mask in zip(CHANGE_KINDS, (nonfinite, overflow, wrapped, rounded), strict=True):
        into.counts[kind] += int(np.count_nonzero(mask))
