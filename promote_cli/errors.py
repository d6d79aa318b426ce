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


# What a message says when the process ran out of something (a limit: ``ulimit -v``, ``-u``),
# as Python, a loader or a library words it.
_RAN_OUT = (
    ("memory", ("cannot allocate memory", "failed to map segment", "out of memory")),
    ("threads", ("can't start new thread", "cannot start new thread")),
)


def exhausted(exc: BaseException) -> str | None:
    """What ``exc`` (or an error it was raised from) says the process ran out of: ``memory``
    (a ``MemoryError``, a shared library that could not be mapped), ``threads``; None when it
    says nothing of the kind. Running out is the environment's, never promote's bug."""
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        if isinstance(at, MemoryError):
            return "memory"
        try:
            text = str(at).lower()
        except Exception:  # a message that cannot be made
            text = ""
        for what, words in _RAN_OUT:
            if any(w in text for w in words):
                return what
        at = at.__cause__ or at.__context__
    return None


def imported(exc: BaseException) -> str | None:
    """The module an ``ImportError`` could not import when it is not promote's own (NumPy's
    C extensions, a framework): the environment's, never promote's bug. None otherwise."""
    if not isinstance(exc, ImportError):
        return None
    name = exc.name or _raised_in(exc)
    if name.split(".")[0] == "promote_cli":
        return None
    return name or "a module"


def _raised_in(exc: BaseException) -> str:
    """The package whose code raised ``exc`` (its innermost frame outside the import system):
    ``numpy`` for NumPy's "Importing the numpy C-extensions failed"."""
    found = ""
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        if module and not module.startswith(("importlib", "<frozen")):
            found = module.split(".")[0]
        tb = tb.tb_next
    return found
