"""Array API standard: its rows in the guide's tables (``promote_cli.framework.Guide``)."""

from promote_cli.framework import Guide

GUIDE = Guide(
    source="the Python array API standard's required promotions (2024.12 and 2025.12, which agree)",
    kind="lattice, undefined pairs refused",
    reproduces=(
        "the Python array API standard's required promotions (2024.12; array-api-strict 2.6.1)"
    ),
    operands="`D(t)` (0-d arrays are the same), Python scalars",
    nary="`result_type`: the least upper bound",
    chain=(
        "a fold; `+` refuses bool arrays, and `P(bool) P(bool) int8` works (Python adds the bools)"
    ),
    asked="`array_api_strict.result_type` on its dtypes and Python scalars",
    tried="none",
)
