"""What becomes of one input: skipped, copied, byte-swapped or converted, and to where."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from promote_cli.npy.header import NpyFile

SKIP, COPY, SWAP, CONVERT = "skip", "copy", "byte-swap", "convert"


@dataclass(frozen=True)
class Job:
    """One input and what becomes of it."""

    npy: NpyFile
    source: np.dtype  # the data's dtype (possibly non-native byte order)
    target: np.dtype  # the result's dtype, native
    out: Path
    action: str  # SKIP, COPY (same dtype), SWAP (same type, other byte order), CONVERT

    @property
    def out_bytes(self) -> int:
        return self.npy.count * self.target.itemsize


def action_for(source: np.dtype, target: np.dtype, skip_unchanged: bool) -> str:
    if source == target:
        return SKIP if skip_unchanged else COPY
    if not source.isnative and source.newbyteorder("=") == target:
        return SWAP
    return CONVERT
