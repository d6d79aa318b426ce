"""The Python array API standard's required promotions, a partial lattice (``promotion.py``)."""

from promote_cli.framework import Condition, Expressions, Framework

FRAMEWORK = Framework(
    name="array-api",
    title="Array API standard",
    source="Python array API standard 2024.12 type promotion (array-api-strict 2.6.1)",
    version="2.6.1",
    notation="canonical",
    install="array-api-strict",
    in_extra=True,
    expressions=Expressions(
        namespaces=("xp",),
        checked=True,
        # the standard's where takes a bool array.
        where=Condition(
            dtypes=("bool",),
            raises="TypeError: `condition` must be have a boolean data type",
            scalars=(),
            scalar="TypeError: `condition` must be an Array",
            measured="array-api-strict 2.6.1, 2026-12-07",
        ),
        partial_index="array-api-strict raises IndexError: an index of fewer integers than the"
        " array has dimensions (x[0] of a matrix) is not in the standard; write x[0, ...]",
        complex_cast="array-api-strict raises TypeError: the standard does not permit casting"
        " a complex array to a type that is not complex (take xp.real(x) first)",
        transpose="array-api-strict raises ValueError: x.T requires x to have 2 dimensions",
        # the standard's reductions are functions: array-api-strict's arrays have no methods
        # for them (x.sum() raises AttributeError)
        methods=(),
    ),
)
