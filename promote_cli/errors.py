"""The project's error types. Exit codes are assigned in one place: ``promote_cli.cli.run``."""

from __future__ import annotations

from collections.abc import Iterable


class PromoteError(Exception):
    """Base class of every error ``promote`` raises on purpose."""


class PromotionError(PromoteError):
    """A policy refused to promote: a refusal is an answer, not a crash (exit code 1)."""

    def __init__(self, reason: str, *, rule: str = "", unsafe_result: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.unsafe_result = unsafe_result


class UsageError(PromoteError, ValueError):
    """The user named something that does not exist or gave a bad value (exit code 2)."""


class BadInputError(PromoteError):
    """A file or document given as input is unusable (exit code 2)."""


class PolicyDefinitionError(PromoteError):
    """A policy's own declaration is inconsistent: a bug in promote, not in the input (exit 3).
    ``nodes`` names the types at fault, so that a policy file can point at their lines."""

    def __init__(self, message: str, *, nodes: tuple[str, ...] = ()):
        super().__init__(message)
        self.nodes = nodes


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'jax'?"``: the known name ``name`` most likely stands for, case
    ignored (``JAX``, ``Jax`` and ``jaz`` all suggest ``jax``), or ``""`` when none is close."""
    import difflib

    lower: dict[str, str] = {}
    for k in known:
        lower.setdefault(k.lower(), k)
    key = name.lower()
    close = [key] if key in lower else difflib.get_close_matches(key, list(lower), n=1)
    return f"; did you mean {lower[close[0]]!r}?" if close else ""
