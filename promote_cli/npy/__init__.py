"""``.npy`` files for ``promote convert``: validated headers, streaming casts, atomic outputs.

One module per job, in the order a conversion uses them:

* ``numpy_dtypes``: catalogue names <-> NumPy/ml_dtypes dtypes, header descrs, which casts exist;
* ``header``: reading and checking an input's header, and reopening it at its data;
* ``job``: what becomes of one input (skip, copy, byte-swap, convert);
* ``changes``: counting the elements whose value a cast changes;
* ``stream``: casting an input in fixed chunks into a sink (a writer thread, or nothing);
* ``outputs``: checking the destinations, writing each output to a temporary file, committing;
* ``convert``: the orchestration: the policy's result type, the plan, its execution.

Data is cast in fixed chunks (peak memory does not grow with the file) with the same NumPy cast
loops as ``np.load(path).astype(target)``, so the values are those, bit for bit. Outputs go to a
temporary file in the destination directory, are fsynced, and are renamed over the final name
only when every output of the run is complete: an interruption never leaves a partial file under
a final name, and a refused or failed run writes nothing.

The names below are the package's public face (what ``promote convert``, the tests and the
benchmark use). Every module imports NumPy at the top: this package is imported only by
``promote convert``. ml_dtypes is imported only when an input, a named type or the result is one
of its types (``numpy_dtypes.load_ml_dtypes``): its import costs more than a small conversion.
"""

from promote_cli.npy.changes import CHANGE_KINDS, CHANGE_LABELS, Changes, count_changes
from promote_cli.npy.convert import (
    Converted,
    Source,
    bytes_to_read,
    default_output,
    execute,
    plan,
    result_type,
)
from promote_cli.npy.header import NpyFile, data_dtype, open_data, read_header
from promote_cli.npy.job import CONVERT, COPY, SKIP, SWAP, Job
from promote_cli.npy.numpy_dtypes import canonical_name, check_cast, header_descr, numpy_dtype
from promote_cli.npy.stream import CHUNK_BYTES

__all__ = [
    "CHANGE_KINDS",
    "CHANGE_LABELS",
    "CHUNK_BYTES",
    "CONVERT",
    "COPY",
    "SKIP",
    "SWAP",
    "Changes",
    "Converted",
    "Job",
    "NpyFile",
    "Source",
    "bytes_to_read",
    "canonical_name",
    "check_cast",
    "count_changes",
    "data_dtype",
    "default_output",
    "execute",
    "header_descr",
    "numpy_dtype",
    "open_data",
    "plan",
    "read_header",
    "result_type",
]
