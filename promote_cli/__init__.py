"""promote: exact type-promotion tables for array frameworks.

>>> import promote_cli
>>> promote_cli.promote("int8", "uint8", policy="jax")
'int16'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from promote_cli.errors import PromotionError, UsageError

__version__ = "0.1.0"
__all__ = ["PromotionError", "UsageError", "__version__", "matrix", "promote", "promote_many"]

if TYPE_CHECKING:
    from promote_cli.api import matrix, promote, promote_many


def __getattr__(name: str) -> Any:
    # The API module pulls in the engine; keep `import promote_cli` itself nearly free.
    if name in ("promote", "promote_many", "matrix"):
        from promote_cli import api

        return getattr(api, name)
    raise AttributeError(f"module 'promote_cli' has no attribute {name!r}")
