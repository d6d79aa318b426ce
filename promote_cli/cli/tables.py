"""``promote tables``: regenerate (or ``--check``) the whole documentation set of every
policy in one directory."""

from __future__ import annotations

from pathlib import Path

import click

from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, _files
from promote_cli.docset import INDEX, documentation_set, listed, ours
from promote_cli.errors import BadInputError, UsageError


@click.command("tables")
@click.argument(
    "directory",
    default="tables",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="[DIR]",
)
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing: print a unified diff of every stale file and exit 1 if there is one.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replace files of the set's names that promote did not write (e.g. your own README.md).",
)
def command(directory: Path, check: bool, force: bool) -> int:
    """Write every policy's table as html, markdown and rst, and an index, into DIR
    (default: tables). The output is byte-identical on every run.

    The index ends with the list of files the run wrote. A file the previous run listed there
    that this one would not write (a renamed policy) is removed; no other file is ever removed,
    not even one `promote table -o` or `promote graph` wrote.
    """
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{directory} is not a directory")
    wanted = documentation_set()
    previous = listed(_files.read(directory / INDEX))
    leftovers = [name for name in previous if name not in wanted and _removable(directory / name)]
    if check:
        stale = []
        for name, text in wanted.items():
            patch = _files.diff(directory / name, _files.read(directory / name), text)
            if patch:
                stale.append(name)
                click.echo(patch, nl=False)
        for name in leftovers:
            stale.append(name)
            click.echo(f"promote: {directory / name} is no longer generated", err=True)
        if stale:
            click.echo(
                f"promote: {len(stale)} of the files in {directory} are stale ({', '.join(stale)});"
                f" regenerate them with: promote tables {directory}",
                err=True,
            )
            return EXIT_DIFFERENT
        click.echo(f"promote: the {len(wanted)} files in {directory} are up to date", err=True)
        return EXIT_OK
    changed = [n for n, text in wanted.items() if _files.read(directory / n) != text]
    # A file of a set name that no earlier run wrote (say the user's own docs/README.md) is
    # not ours to replace; one the previous index lists is, even if edited by hand since.
    foreign = [
        n
        for n in changed
        if (directory / n).exists() and not ours(directory / n) and n not in previous
    ]
    if foreign and not force:
        raise BadInputError(
            f"{directory / foreign[0]} exists and promote did not write it"
            + (f" (nor {len(foreign) - 1} more)" if len(foreign) > 1 else "")
            + "; choose another directory, or pass --force to replace it"
        )
    # The index last: until it is written, the previous one still lists every leftover, so an
    # interrupted run leaves nothing the next run cannot find.
    for name in changed:
        if name != INDEX:
            _files.write(directory / name, wanted[name])
    _remove(directory, leftovers)
    if INDEX in changed:
        _files.write(directory / INDEX, wanted[INDEX])
    click.echo(
        f"promote: {directory}: {len(changed)} written, {len(wanted) - len(changed)} unchanged"
        + (f", {len(leftovers)} removed" if leftovers else ""),
        err=True,
    )
    return EXIT_OK


def _removable(path: Path) -> bool:
    """A listed file is removed only while it is still a regular file with promote's marker:
    one the user has since replaced by their own is kept."""
    return path.is_file() and not path.is_symlink() and ours(path)


def _remove(directory: Path, names: list[str]) -> None:
    for name in names:
        try:
            (directory / name).unlink(missing_ok=True)
        except OSError as exc:
            raise BadInputError(f"{directory / name}: cannot remove it ({exc.strerror})") from None
