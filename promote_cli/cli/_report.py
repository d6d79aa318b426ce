"""What ``--check`` found (``promote table --check``, ``promote tables --check``): each file up to
date, stale, missing or no longer generated. As in black's ``Report``, the exit code and the
one-line summary are derived from those counts, in one place, never decided beside them."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK
from promote_cli.errors import printable

SAME, STALE, MISSING, UNWANTED = "up to date", "stale", "missing", "no longer generated"
STATES = (SAME, STALE, MISSING, UNWANTED)


@dataclass
class CheckReport:
    """The files ``--check`` compared, by state. ``fix`` is the command that brings them up to
    date; ``directory``, when they are the files of one directory, words the summary."""

    fix: str
    directory: Path | None = None
    files: dict[str, list[Path]] = field(default_factory=lambda: {s: [] for s in STATES})

    def compare(self, path: Path, on_disk: str | None, wanted: str) -> str:
        """Record ``path`` as up to date, stale or missing; return the unified diff from
        ``on_disk`` to ``wanted`` ("" when they are equal)."""
        state = SAME if on_disk == wanted else MISSING if on_disk is None else STALE
        self.files[state].append(path)
        return diff(path, on_disk, wanted)

    def unwanted(self, path: Path) -> str:
        """Record ``path`` as a file the set no longer has; return the line that says so."""
        self.files[UNWANTED].append(path)
        return f"{path} is {UNWANTED}"

    @property
    def out_of_date(self) -> int:
        return sum(len(self.files[s]) for s in STATES if s != SAME)

    @property
    def exit_code(self) -> int:
        return EXIT_DIFFERENT if self.out_of_date else EXIT_OK

    def summary(self) -> str:
        """One line: what is out of date and the command that fixes it, or that all is well."""
        total = sum(len(paths) for paths in self.files.values())
        where = f" in {self.directory}" if self.directory is not None else ""
        if not self.out_of_date:
            if total == 1:
                return f"{self.files[SAME][0]} is up to date"
            return f"the {total} files{where} are up to date"
        if self.out_of_date == 1:
            state = next(s for s in STATES if s != SAME and self.files[s])
            verb = "remove" if state == UNWANTED else "regenerate"
            return f"{self.files[state][0]} is {state}; {verb} it with: {self.fix}"
        parts = [
            f"{_files_are(len(paths))} {state} ({_some(paths)})"
            for state, paths in self.files.items()
            if state != SAME and paths
        ]
        return (
            f"{self.out_of_date} of the files{where} are out of date: {', '.join(parts)};"
            f" regenerate them with: {self.fix}"
        )


# A summary names this many files of a state, then counts the rest (the diff shows each).
NAMED = 3


def _some(paths: list[Path]) -> str:
    """The first few ``paths`` as typed (``docs/jax.md``, ``docs/ops/numpy.md``: the style of
    the diff's headers and of the one-file summary), then how many more."""
    named = ", ".join(str(p) for p in paths[:NAMED])
    rest = len(paths) - NAMED
    return named + (f" and {rest} more" if rest > 0 else "")


def _files_are(n: int) -> str:
    return "1 file is" if n == 1 else f"{n} files are"


def diff(path: Path, old: str | None, new: str) -> str:
    """A unified diff from what is on disk to what would be written ("" when equal)."""
    if old == new:
        return ""
    name = printable(str(path))  # the header lines name the file as typed, one line each
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{name} (on disk)" if old is not None else f"{name} (missing)",
        tofile=f"{name} (generated)",
    )
    # A last line without a newline would run into the next header.
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )
