"""The ``promote`` command line. Each command lives in its own module, imported only when it
runs; exit codes are assigned here and nowhere else:

0 ok, 1 a refusal / ``--check`` found a difference / ``verify`` found a mismatch,
2 usage or bad input, 3 an internal error (a bug in promote), 130 interrupted.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import sys
from importlib import import_module
from typing import Any

import click

from promote_cli import __version__, interrupts
from promote_cli.errors import BadInputError, PromotionError, UsageError, printable

EXIT_OK, EXIT_DIFFERENT, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

# name -> (module, one-line help); the module defines ``command``.
COMMANDS = {
    "pair": ("promote_cli.cli.pair", "Promote two dtypes (or more) under a policy."),
    "op": ("promote_cli.cli.op", "The dtype an operation (sqrt, sum, divide ...) returns."),
    "ops": ("promote_cli.cli.ops", "List the operations and each policy's function for them."),
    "policies": ("promote_cli.cli.policies", "List the policies, their types and options."),
    "table": ("promote_cli.cli.table", "Print a policy's table: html, markdown, rst, csv, json."),
    "tables": ("promote_cli.cli.tables", "Regenerate (or --check) the tables/ documentation set."),
    "verify": ("promote_cli.cli.verify", "Prove policies against the installed frameworks."),
    "diff": ("promote_cli.cli.diff", "Show the cells where two policies disagree."),
    "graph": ("promote_cli.cli.graph", "Draw a lattice policy's Hasse diagram (dot/svg/mermaid)."),
    "convert": ("promote_cli.cli.convert", "Convert two .npy files to their promoted dtype."),
    "check": ("promote_cli.cli.check", "Lint a policy: properties, cells that lose values."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        return import_module(COMMANDS[name][0]).command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help lists the commands without importing each one.
        with formatter.section("Commands"):
            formatter.write_dl([(name, text) for name, (_, text) in COMMANDS.items()])

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            raise _Interrupted from None  # click would print an empty line first

    def invoke(self, ctx: click.Context):
        """Run the command; its int return value and every error become the exit code here."""
        try:
            code = super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except BaseException as exc:
            code = _code(exc)
        ctx.exit(code if isinstance(code, int) else EXIT_OK)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run the CLI; every outcome becomes its exit code here, and every error one line on
        stderr (click's usage errors too, in the same ``promote: error:`` form as ours)."""
        interrupts.begin()
        try:
            with _encoding_checked(sys.stdout):
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            code = exc.exit_code
        except BaseException as exc:
            code = _code(exc)
        if not isinstance(code, int):
            code = EXIT_OK
        # Run from the console script, the signal handlers stand down once the exit code is
        # known; a signal whose interrupt was lost on the way (see promote_cli.interrupts) is
        # reported now rather than swallowed.
        interrupts.settle()
        if interrupts.unreported():
            code = _interrupted()
        if standalone_mode:
            sys.exit(code)
        return code


class _Interrupted(BaseException):
    """Ctrl-C while click parses the arguments, carried past click's own handling."""


def _code(exc: BaseException) -> int:
    """The exit code of an error a command raised (after printing its line)."""
    interrupts.settle()  # the outcome is decided: nothing may cut its report short
    if isinstance(exc, SystemExit):
        raise exc
    if isinstance(exc, BrokenPipeError):
        # The reader went away (promote ... | head); that is not our error. Point stdout at
        # devnull so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    if isinstance(exc, (KeyboardInterrupt, _Interrupted, click.exceptions.Abort)):
        return _interrupted()
    if interrupts.arrived():
        # After Ctrl-C or SIGTERM whatever failed is the interruption (an import that was
        # interrupted raises ImportError, say).
        return _interrupted()
    if isinstance(exc, click.UsageError):
        hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        return _fail(f"error: {exc.format_message().rstrip('.')}{hint}", EXIT_USAGE)
    if isinstance(exc, click.ClickException):
        return _fail(f"error: {exc.format_message()}", EXIT_USAGE)
    if isinstance(exc, PromotionError):
        return _fail(f"refused: {exc.reason}", EXIT_DIFFERENT)
    if isinstance(exc, (UsageError, BadInputError)):
        return _fail(f"error: {exc}", EXIT_USAGE)
    if os.environ.get("PROMOTE_DEBUG") or not isinstance(exc, Exception):
        raise exc
    return _fail(
        f"internal error: {type(exc).__name__}: {exc} (set PROMOTE_DEBUG=1 for a"
        " traceback, and please report it)",
        EXIT_INTERNAL,
    )


def _interrupted() -> int:
    """Report the interruption: 130 when nothing was written; 0 when it came after a commit
    had made the outputs final (the line says so)."""
    line, written = interrupts.interruption()
    return _fail(line, EXIT_OK if written else EXIT_INTERRUPTED)


class _encoding_checked:
    """Standard output's encoding is the environment's (``PYTHONIOENCODING``, the locale): a
    character it cannot encode is one line and exit 2 naming the encoding, not a
    ``UnicodeEncodeError`` (replacing it with ``?`` would corrupt a table redirected to a
    file). The stream's error handler is put back afterwards."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream if isinstance(stream, io.TextIOWrapper) else None

    def __enter__(self) -> None:
        if self.stream is not None:
            self.errors = self.stream.errors
            self.stream.reconfigure(errors=_UNENCODABLE)

    def __exit__(self, *exc: object) -> None:
        if self.stream is not None:
            with contextlib.suppress(Exception):  # a closed or broken stream
                self.stream.reconfigure(errors=self.errors)


def _unencodable(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    what = err.object[err.start : err.end]
    raise UsageError(
        f"the output's encoding ({err.encoding}, from PYTHONIOENCODING or the locale) cannot"
        f" represent {what[:8]!r}; run with PYTHONIOENCODING=utf-8"
    )


_UNENCODABLE = "promote-unencodable"
codecs.register_error(_UNENCODABLE, _unencodable)


@click.group("promote", cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="promote")
def cli() -> None:
    """Exact type-promotion tables for array frameworks.

    \b
    promote pair f16 bf16 --policy openvino
    promote table --policy jax --format html
    promote convert a.npy b.npy
    """


def _fail(message: str, code: int) -> int:
    click.echo(f"promote: {printable(message)}", err=True)
    return code


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; every error becomes one line on stderr and a documented exit code."""
    cli.main(args=argv, prog_name="promote")
