"""NumPy (>= 2, NEP 50): ``numpy.promote_types`` and ``numpy.result_type`` (``promotion.py``)."""

from promote_cli.framework import (
    CLASS_NAMED,
    NAME_ATTRIBUTE,
    NUMPY_SPELLINGS,
    Condition,
    DTypeObjects,
    Expressions,
    Framework,
    MeasuredApart,
)
from promote_cli.frameworks.numpy.spellings import numpy_reading
from promote_cli.options import Option
from promote_cli.shared.numpy_names import COLUMN, ML_RELEASES

FRAMEWORK = Framework(
    name="numpy",
    title="NumPy",
    source="numpy.promote_types / numpy.result_type (NumPy 2, NEP 50)",
    version="2.4.6",
    notation="canonical",
    # b is int8, B uint8, f16 longdouble, c32 clongdouble: as np.dtype() reads them.
    dialect="numpy",
    prefixes=("numpy", "np"),
    # np.float16, ml_dtypes.bfloat16 (NumPy's types once ml_dtypes is imported), np.dtype("f2")
    dtype_objects=(
        DTypeObjects("numpy", CLASS_NAMED),
        DTypeObjects("ml_dtypes", CLASS_NAMED),
        DTypeObjects("numpy", NAME_ATTRIBUTE),
    ),
    column=COLUMN._replace(reader=numpy_reading),
    options=(
        Option(
            "ml_dtypes",
            "release",
            False,
            "answer as NumPy does once this release of ml_dtypes is imported: its types"
            " (bfloat16, float8_*, int4 ...) join the universe, as measured with NumPy 2.4.6"
            " (true: the newest, 0.7)",
            choices=ML_RELEASES,
            package="ml_dtypes",
        ),
        Option(
            "promotion",
            "choice",
            "weak",
            "weak: NEP 50 (NumPy >= 2); legacy: NumPy <= 1.26's value-based casting of Python"
            " scalars, NumPy scalars N(t) and 0-d arrays S(t)=v, as measured (NumPy 1.26.4)",
            choices=("weak", "legacy"),
        ),
    ),
    # NumPy 2 has no legacy promotion: that setting is measured on NumPy 1.26.4 (verify and
    # measure it with -O promotion=legacy --python <an environment with numpy 1.26>).
    # nep50.py measures the diff of the two promotions in NumPy 1.26's three states.
    # ml_dtypes 0.5's and 0.6's answers are measured apart too, on NumPy 2.4.6 with ml_dtypes
    # 0.5.4 and 0.6.0 (the entry's own set has 0.7's): verify asks the installed release.
    measured_apart=(
        MeasuredApart(option="promotion", value="legacy", version="1.26.4", states="nep50"),
        MeasuredApart(option="ml_dtypes", value="0.5", version="2.4.6"),
        MeasuredApart(option="ml_dtypes", value="0.6", version="2.4.6"),
    ),
    install="numpy",
    expressions=Expressions(
        namespaces=("np", "numpy"),
        aliases=NUMPY_SPELLINGS,
        checked=True,
        # every array and Python scalar is read as truth values.
        where=Condition(
            measured="NumPy 2.4.6, 2026-12-07",
        ),
    ),
)
