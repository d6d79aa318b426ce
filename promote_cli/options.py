"""A policy's options: what ``-O name=value`` sets, declared in each framework's entry."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from promote_cli.errors import UsageError
from promote_cli.notations import Notation, read_dtype
from promote_cli.record import Record

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


class Option(Record):
    """A policy option: ``kind`` is ``bool``, ``choice``, ``dtype`` (read in the policy's
    notation; ``choices`` then holds the allowed canonical names) or ``release``: off (False)
    or one measured release of the package ``package`` (``choices``, oldest first, as
    ``major.minor``); ``true`` is the newest, ``0.6.0`` reads as ``0.6`` (NumPy's
    ``ml_dtypes``: what NumPy answers once that release of ml_dtypes is imported). One whose
    default is a release is never off (torch's ``release``, TensorFlow's ``ml_dtypes``)."""

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    package: str = ""  # a release option's package (its distribution name)

    def parse(self, value: Any, nota: Notation | None) -> Any:
        """``value`` as this option holds it; a dtype is read in ``nota`` (None: only a
        canonical name is read, as a program passes it)."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE | _FALSE:
                return text in _TRUE
            raise UsageError(f"option {self.name} takes true or false, not {value!r}")
        if self.kind == "release":
            return self._release(value)
        if self.kind == "choice":
            if value in self.choices:
                return value
            raise UsageError(
                f"option {self.name} takes one of {', '.join(self.choices)}, not {value!r}"
            )
        canonical = str(value) if nota is None else read_dtype(str(value), nota)
        if canonical not in self.choices:
            raise UsageError(f"option {self.name} cannot be {value!r} ({canonical})")
        return canonical

    def _release(self, value: Any) -> Any:
        """A release option's value: False, or the measured release ``value`` names."""
        text = str(value).strip().lower()
        never_off = self.default is not False  # torch's release: some release is always there
        if (value is False or text in _FALSE) and not never_off:
            return False
        if value is True or text in _TRUE:
            return self.choices[-1]
        found = release_of(text, self.choices)
        if found is None:
            raise UsageError(
                f"option {self.name} takes {'' if never_off else 'false, '}true (the newest"
                f" measured, {self.choices[-1]}) or a measured {self.package} release"
                f" ({', '.join(self.choices)}), not {value!r}"
            )
        return found

    def text(self, value: Any, nota: Notation) -> str:
        """``value`` as ``-O`` reads it back: ``true``/``false``, a release, a dtype in
        ``nota``."""
        if self.kind in ("bool", "release") and isinstance(value, bool):
            return "true" if value else "false"
        return nota.label(value) if self.kind == "dtype" else str(value)


def release_of(version: str, releases: Sequence[str]) -> str | None:
    """The release of ``releases`` (``major.minor``) that ``version`` (``0.7.0``, ``0.7``,
    ``0.7.0rc1``) is, or None."""
    parts = version.strip().split(".")
    found = ".".join(parts[:2])
    if len(parts) > 2 and not parts[2][:1].isdigit():
        return None
    return found if found in releases else None


def not_installed_release(package: str, asked: Any) -> str:
    """Why a setting of the release option of ``package`` (its value ``asked``: a release such
    as ``0.7``, or False) cannot be asked of the framework here: ``package`` is not installed,
    or another release of it is; "" when it can (an oracle then answers Unobservable)."""
    from importlib import metadata

    if not asked:
        return ""
    try:
        found = metadata.version(package)
    except metadata.PackageNotFoundError:
        return f"{package} is not installed in this environment"
    if release_of(found, (asked,)) is None:
        return f"{package} {found} is installed here, not {asked}"
    return ""


def format_options(options: Sequence[Option], opts: Mapping[str, Any], nota: Notation) -> str:
    """``x64=true, strict=false`` for the options in ``opts``, dtypes in ``nota``."""
    return ", ".join(f"{o.name}={o.text(opts[o.name], nota)}" for o in options if o.name in opts)


def parse_options(values: Iterable[str]) -> dict[str, str]:
    """``-O NAME=VALUE`` settings, each once (the last one given wins)."""
    out = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"-O takes NAME=VALUE, not {item!r}")
        out[name.strip()] = value.strip()
    return out
