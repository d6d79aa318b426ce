"""Writing generated files, and ``--check``: compare with what is on disk and show the diff."""

from __future__ import annotations

import difflib
from pathlib import Path

from promote_cli import atomic
from promote_cli.errors import BadInputError


def read(path: Path) -> str | None:
    """The file's text exactly as stored (no newline translation), or None when absent."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise BadInputError(f"{path}: not UTF-8 text; delete it and regenerate") from None
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read it ({exc.strerror})") from None


def write(path: Path, text: str) -> None:
    """Replace ``path`` atomically, so a reader never sees half a table; it keeps the mode of
    the file it replaces, and a new file gets the one ``open()`` would give it."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(path, text.encode("utf-8"))
    except OSError as exc:
        raise BadInputError(f"{path}: cannot write it ({exc.strerror})") from None


def diff(path: Path, old: str | None, new: str) -> str:
    """A unified diff from what is on disk to what would be written ("" when equal)."""
    if old == new:
        return ""
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{path} (on disk)" if old is not None else f"{path} (missing)",
        tofile=f"{path} (generated)",
    )
    # A last line without a newline would run into the next header.
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )
