"""``promote tables``: regenerate (or ``--check``) the whole documentation set of every
policy in one directory."""

from __future__ import annotations

from pathlib import Path

import click

from promote_cli import docsync
from promote_cli.cli import EXIT_OK, Command, _options, tell
from promote_cli.cli._report import CheckReport
from promote_cli.errors import UsageError


@click.command("tables", cls=Command)
@click.argument(
    "directory",
    default="tables",
    type=_options.FileName(file_okay=False, path_type=Path),
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
    (default: tables); every policy with per-operation rules also gets its operation tables
    in DIR/ops. The output is byte-identical on every run.

    The index ends with the list of files the run wrote. A file the previous run listed there
    that this one would not write (a renamed policy) is removed; no other file is ever removed,
    not even one `promote table -o` or `promote graph` wrote.
    """
    if check and not directory.is_dir():
        given = click.get_current_context().get_parameter_source("directory")
        if given is click.core.ParameterSource.DEFAULT:
            # The pre-commit hook (promote-tables) run without args, or a project that keeps
            # its tables elsewhere: say what to give rather than what is missing.
            raise UsageError(
                f"no DIR given, and ./{directory} does not exist: nothing to check. Name the"
                " directory `promote tables DIR` wrote (the promote-tables hook: args:"
                f" [docs/tables]), or write ./{directory} first with `promote tables`"
            )
        raise UsageError(
            f"{directory}: no such directory to check; `promote tables {directory}` writes it"
        )
    sync = docsync.plan(directory)
    if check:
        report = CheckReport(fix=f"promote tables {directory}", directory=directory)
        for name, text in sync.wanted.items():
            click.echo(report.compare(directory / name, sync.on_disk[name], text), nl=False)
        for name in sync.leftovers:
            tell(report.unwanted(directory / name))
        tell(report.summary())
        return report.exit_code
    sync.apply(force=force)
    changed = len(sync.changed)
    tell(
        f"{directory}: {changed} written, {len(sync.wanted) - changed} unchanged"
        + (f", {len(sync.leftovers)} removed" if sync.leftovers else "")
    )
    return EXIT_OK
