"""Generated text files on disk: read exactly as stored, replaced atomically; every problem is
one ``BadInputError`` line naming the file. ``promote table -o`` and ``promote tables`` write
through here."""

from __future__ import annotations

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
