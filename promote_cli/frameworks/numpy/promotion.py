"""NumPy (>= 2, NEP 50): ``numpy.promote_types`` and ``numpy.result_type``, a table policy.

Source: NumPy 2's promotion of its own dtypes (the table below, in NumPy's type codes) and
NEP 50 for Python scalars. NumPy's promotion is *not* a lattice: it is not associative
(``(int8 x uint8) x float16 = float32`` but ``int8 x (uint8 x float16) = float16``), so it is
stored as a table; the table is symmetric and only its lower half is kept.

Python scalars (NEP 50) are weak: one of a kind no higher than the array's keeps the array's
dtype (``int8 + int = int8``, ``float16 + float = float16``); a higher kind takes NumPy's
default of that kind (``int8 + float = float64``), except that a complex scalar keeps a float's
precision (``float32 + complex = complex64``). A Python ``bool`` is the ``bool`` dtype. 0-d
arrays are not special in NumPy 2.

Where it departs from its neighbours: integers widen floats (``int16 x float16 = float32``,
``int64 x float16 = float64``, where JAX and PyTorch keep the float), ``uint64 x int*`` is
``float64``, and it has ``longdouble``; the ml_dtypes types (bfloat16, float8 ...) are outside
its default universe, which is what makes every bfloat16 cell of the JAX page "different".

``-O ml_dtypes=true`` is NumPy once ml_dtypes is imported: its types join the universe as legacy
*user* DTypes (type numbers from 256, above every builtin one). What NumPy answers about them
rests on which casts ml_dtypes registers as safe, so it is taken from NumPy, not derived:
``ml_gen`` asks the installed NumPy and ml_dtypes every ordered pair with an ml_dtypes type and
keeps the answers as this policy's data, ``ml_dtypes.json`` (the versions recorded there), read
on first use. A pair and
``np.result_type`` answer from the measured ``np.result_type`` (``np.promote_types`` agrees on
every pair); ``np.promote_types(bfloat16, float16)`` refuses. Three or more operands run the
sequence below, where an ml_dtypes DType defers to a higher type number and to a Python
scalar's abstract DType, and an abstract DType meets an ml_dtypes one through the measured pair
(``abstractdtypes.c`` tries a small type of its kind, then the default). The chain is real
``a + b``, the ufunc's search for a loop both inputs cast to safely, measured too: it answers
pairs ``result_type`` refuses (``float16 + bfloat16`` is float32), depends on the order
(``float8_e3m4 + int4`` is float8_e3m4, ``int4 + float8_e3m4`` int4) and keeps a Python float
at float32 (``bf16_array + 1.0`` is float32, ``np.result_type(bfloat16, 1.0)`` float64).
A Python int joins an ml_dtypes integer as int8 (``int4 + 300`` raises as ``int8 + 300``
does) and raises TypeError with an ml_dtypes float when it is outside the C long range.

Three or more operands (``np.result_type(a, b, c)``) are *not* a fold of pairs: NumPy's
``PyArray_PromoteDTypeSequence`` (``numpy/_core/src/multiarray/common_dtype.c``) lets the
operand of the highest legacy type number (float16 ranks above every other builtin type)
promote each of the others, then joins those results; the Python scalars are abstract DTypes
that take part in the same sequence, after the dtypes (``np.result_type`` passes its dtype
arguments first, then the Python scalars it has made arrays). ``join`` reimplements it
(``int8, uint8, float16`` gives float16 where a fold gives float32; ``P(bool), int, uint8``
gives uint8). The chain question,
``(a + b) + c`` on real arrays, is a fold of the binary rule with two Python scalars added in
Python first (``True + True`` is the int 2), so the two questions differ.

Python scalar values (``int:300``): NumPy 2 raises in the operation when a Python int does not
fit the integer dtype it is converted to, the result of the array and the scalar (``uint8 +
300``: "Python integer 300 out of bounds for uint8"; ``bool`` arrays give int64), and any int
outside [-2**63, 2**63) raises "Python int too large to convert to C long" there (uint64
accepts up to 2**64 - 1). A float or complex result converts the int to a C double: beyond
float64's range it raises "OverflowError: int too large to convert to float" (``float64 + 2 *
int(max float64)``, in NEP 50's own tests; float16 and float32 too), within it an overflow
gives inf with a warning; a long double takes any int Python writes in decimal (4,300 digits at
most; ValueError beyond). ``np.result_type(uint8, 300)`` itself never looks at the value (it
says uint8): a valued operand asks about the operation, so promote refuses in both questions,
with NumPy's reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promote_cli.frameworks.numpy import FRAMEWORK
from promote_cli.shared.numpy_promotion import ML_TYPES as ML_TYPES
from promote_cli.shared.numpy_promotion import TYPES as TYPES
from promote_cli.shared.numpy_promotion import NumpyPromotion
from promote_cli.shared.numpy_promotion import legacy_loop as legacy_loop


class NumpyPolicy(NumpyPromotion, framework=FRAMEWORK):
    """The numpy policy: NumPy's promotion (``promote_cli/shared/numpy_promotion.py``)."""

    def diff_marks(self, left: Mapping[str, Any], right: Mapping[str, Any]) -> Any:
        """Between ``weak`` and ``legacy``: the warnings NumPy 1.26.4's ``weak_and_warn`` gave
        on each cell, measured (``nep50.marks``)."""
        from promote_cli.frameworks.numpy import nep50

        return nep50.marks(left, right)


POLICY = NumpyPolicy()
