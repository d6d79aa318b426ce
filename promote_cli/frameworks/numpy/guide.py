"""NumPy: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source=(
        "`numpy.promote_types` / `result_type`, NumPy 2 with NEP 50; `-O promotion=legacy`: NumPy "
        "1.26's value-based casting, measured on NumPy 1.26.4"
    ),
    kind="table + scalar rules",
    reproduces=(
        "`numpy.promote_types` and `numpy.result_type` (NumPy 2.4.6, NEP 50); `-O "
        "promotion=legacy`: NumPy 1.26.4's value-based casting; `-O ml_dtypes=`: NumPy with a "
        "release of ml_dtypes imported"
    ),
    operands=(
        "`D(t)`, Python scalars; under `promotion=legacy` also `S(t)` and `N(t)`, holding values"
    ),
    nary=(
        "`np.result_type`: NumPy's `PyArray_PromoteDTypeSequence`, not a fold: the operand of the "
        "highest type number (float16 ranks highest) promotes each other one. `int8 uint8 "
        "float16` is float16, `P(bool) int uint8` uint8"
    ),
    chain=(
        "a fold: `int8 uint8 float16` is float32 (int16 first), `P(bool) int uint8` int64 (`True "
        "+ 1` is a Python int)"
    ),
    asked=(
        "`numpy.result_type` on dtypes and on the values `True`, `1`, `1.0`, `1j` (NEP 50); under "
        "`promotion=legacy` also 0-d arrays and NumPy scalars holding values, in NumPy 1.x's "
        "`legacy` state (`np._set_promotion_state`), and every operation with Python scalars' "
        "values but the 96 bitwise cells that crash NumPy 1.26.4 (unobservable)"
    ),
    tried=(
        "`ml_dtypes`: with it, ml_dtypes is imported and its types are asked too (the installed "
        "release only); `promotion=legacy` only when pinned (`-O promotion=legacy --python` an "
        "environment with NumPy 1.26)"
    ),
    options=(
        (
            "ml_dtypes",
            (
                "NumPy once a release of ml_dtypes is imported: `0.5`, `0.6` or `0.7` (`true`: "
                "the newest); its types join the universe, with the answers measured for that "
                "release"
            ),
        ),
        (
            "promotion",
            (
                "`weak`: NEP 50 (NumPy 2); `legacy`: NumPy 1.26's value-based casting, measured "
                "on NumPy 1.26.4"
            ),
        ),
    ),
)
