"""The project's error types, and :func:`printable`, through which every name in a message
goes. Exit codes are assigned in one place: ``promote_cli.cli``."""

from __future__ import annotations

# The console script imports this module before anything else: it imports nothing (mypy reads
# any name TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
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


def printable(text: str) -> str:
    """``text`` with what a terminal would act on or hide escaped as Python does in ``repr``
    (``\\x1b``, ``\\n``, ``\\u202e``): names are printed as typed, one line each, and cannot
    move the cursor, set the title or forge a line; bytes that are not UTF-8 (kept by Python
    as surrogates) show as ``\\xNN``. Every line promote prints about a name goes through here."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable():
            out.append(ch)
        elif 0xDC80 <= ord(ch) <= 0xDCFF:  # an undecodable byte of a file name
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            out.append(repr(ch)[1:-1])
    return "".join(out)


def unencodable(err: UnicodeError) -> tuple[str, int]:
    """The codecs error handler of standard output (``promote_cli.cli``): a character its
    encoding cannot represent is a usage error that names it and the encoding."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    char = err.object[err.start]
    raise UsageError(
        f"the output's encoding ({err.encoding}, from PYTHONIOENCODING or the locale) cannot"
        f" represent {char!r} (U+{ord(char):04X}); run with PYTHONIOENCODING=utf-8"
    )
