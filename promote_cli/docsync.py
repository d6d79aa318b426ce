"""Bringing a directory in line with the documentation set (``promote tables``): which files
differ from the set, which a previous run wrote and this one no longer does, which are the
user's own; then the writes and removals, committed as one (``atomic.Batch``, as ``convert``
commits its pair): every changed file takes its new content and every leftover goes, or
nothing changes at all.

The set writes only regular files of its own inside its directory: a set name that is a
symlink, a FIFO, a directory or any other non-regular file is refused (even with ``force``),
never followed or replaced, and so is a set whose two names are one file. Only a file the
previous run's index lists, still a regular file with promote's marker, is ever removed; a file
of a set name that no run wrote is replaced only with ``force``.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from promote_cli import atomic, textfiles
from promote_cli.docset import INDEX, SUBDIRS, documentation_set, listed, ours
from promote_cli.errors import BadInputError, UsageError
from promote_cli.targets import one_file, target


@dataclass(frozen=True)
class Sync:
    """What bringing ``directory`` in line with the set means, read before anything is
    written."""

    directory: Path
    wanted: dict[str, str]  # file name -> the text the set has
    on_disk: dict[str, str | None]  # file name -> its text now (None: absent)
    previous: tuple[str, ...]  # the files the directory's index says its last run wrote
    leftovers: tuple[str, ...]  # of those, the ones no longer in the set, to be removed

    @property
    def changed(self) -> list[str]:
        """The set's files that are missing or differ from the set."""
        return [name for name, text in self.wanted.items() if self.on_disk[name] != text]

    def foreign(self) -> list[str]:
        """Changed files of set names that no earlier run wrote (say the user's own
        ``docs/README.md``): not ours to replace. One the previous index lists is ours, even if
        edited by hand since."""
        return [
            name
            for name in self.changed
            if self.on_disk[name] is not None
            and not ours(self.directory / name)
            and name not in self.previous
        ]

    def apply(self, *, force: bool = False) -> None:
        """Write the changed files and remove the leftovers, all in one commit; refuse (before
        writing anything) to replace a foreign file unless ``force``. Missing directories are
        created, and removed again if the run fails."""
        foreign = self.foreign()
        if foreign and not force:
            raise BadInputError(
                f"{self.directory / foreign[0]} exists and promote did not write it"
                + (f" (nor {len(foreign) - 1} more)" if len(foreign) > 1 else "")
                + "; choose another directory, or pass --force to replace it"
            )
        changed = self.changed
        with atomic.Batch() as batch:
            for sub in {str(Path(name).parent) for name in changed}:
                batch.make_dirs(self.directory / sub)
            targets = {
                name: target(self.directory / name, into_ok=False, follow=False) for name in changed
            }
            removed = [
                target(self.directory / name, into_ok=False, follow=False)
                for name in self.leftovers
            ]
            shared = one_file([*targets.values(), *removed])
            if shared is not None:
                raise BadInputError(
                    f"{shared[0].path} and {shared[1].path} are one file under two names; the"
                    " set writes each of its files once: remove one"
                )
            for name, tgt in targets.items():
                batch.write(tgt, self.wanted[name].encode("utf-8"))
            for tgt in removed:
                batch.remove(tgt)
            batch.commit()


def plan(directory: Path) -> Sync:
    """Compare ``directory`` with the documentation set; nothing is written."""
    try:
        st = os.stat(directory)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise BadInputError(f"{directory}: cannot read it ({exc.strerror or exc})") from None
    else:
        if not stat.S_ISDIR(st.st_mode):
            raise UsageError(f"{directory} is not a directory")
        for sub in SUBDIRS:  # written into only when it is a directory of its own, in place
            path = directory / sub
            if path.is_symlink() or (path.exists() and not path.is_dir()):
                raise BadInputError(
                    f"{path} exists and is not a directory of its own (a symlink or a file);"
                    " promote tables writes its operation tables there: move it aside"
                )
    wanted = documentation_set()
    previous = tuple(listed(textfiles.read(directory / INDEX, follow=False)))
    return Sync(
        directory=directory,
        wanted=wanted,
        on_disk={name: textfiles.read(directory / name, follow=False) for name in wanted},
        previous=previous,
        leftovers=tuple(
            name for name in previous if name not in wanted and _removable(directory / name)
        ),
    )


def _removable(path: Path) -> bool:
    """A listed file is removed only while it is still a regular file with promote's marker:
    one the user has since replaced by their own is kept."""
    return path.is_file() and not path.is_symlink() and ours(path)
