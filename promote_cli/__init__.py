"""promote: exact type-promotion tables for array frameworks.

>>> import promote_cli
>>> promote_cli.promote("int8", "uint8", policy="jax")
'int16'
"""

__version__ = "0.1.0"
__all__ = [
    "PromotionError",
    "UsageError",
    "__version__",
    "expr",
    "expr_steps",
    "matrix",
    "promote",
    "promote_many",
]

# Nothing is imported here: the console script imports this package before it can install its
# signal handlers (promote_cli.entry), and ``typing`` alone takes milliseconds in which a
# Ctrl-C would be Python's traceback. ``TYPE_CHECKING`` is spelt as type checkers read it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from promote_cli.api import expr, expr_steps, matrix, promote, promote_many
    from promote_cli.errors import PromotionError, UsageError


def __getattr__(name: str) -> object:
    # The API module pulls in the engine; keep `import promote_cli` itself free.
    if name in ("promote", "promote_many", "matrix", "expr", "expr_steps"):
        from promote_cli import api

        return getattr(api, name)
    if name in ("PromotionError", "UsageError"):
        from promote_cli import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'promote_cli' has no attribute {name!r}")
