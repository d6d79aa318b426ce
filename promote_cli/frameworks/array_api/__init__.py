"""The Python array API standard's required promotions, a partial lattice (``promotion.py``)."""

from promote_cli.framework import Expressions, Framework

FRAMEWORK = Framework(
    name="array-api",
    title="Array API standard",
    source="Python array API standard 2024.12 type promotion (array-api-strict 2.6.1)",
    version="2.6.1",
    notation="canonical",
    install="array-api-strict",
    in_extra=True,
    expressions=Expressions(namespaces=("xp",)),
)
