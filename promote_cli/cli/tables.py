"""``promote tables``: regenerate (or ``--check``) the whole documentation set of every
policy in one directory."""

from __future__ import annotations

from pathlib import Path

import click

from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, _files
from promote_cli.docset import documentation_set, ours
from promote_cli.errors import UsageError


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
def command(directory: Path, check: bool) -> int:
    """Write every policy's table as html, markdown and rst, and an index, into DIR
    (default: tables). The output is byte-identical on every run.

    Files in DIR that promote wrote earlier but would not write now (a renamed policy) are
    removed; other files are left alone.
    """
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{directory} is not a directory")
    wanted = documentation_set()
    leftovers = sorted(
        p.name
        for p in (directory.iterdir() if directory.is_dir() else ())
        if p.is_file() and p.name not in wanted and ours(p)
    )
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
    for name in changed:
        _files.write(directory / name, wanted[name])
    for name in leftovers:
        (directory / name).unlink()
    click.echo(
        f"promote: {directory}: {len(changed)} written, {len(wanted) - len(changed)} unchanged"
        + (f", {len(leftovers)} removed" if leftovers else ""),
        err=True,
    )
    return EXIT_OK
