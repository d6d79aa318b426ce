"""The ``promote`` command line. Each command lives in its own module, imported only when it
runs; exit codes are assigned here and nowhere else:

0 ok, 1 a refusal / ``--check`` found a difference / ``verify`` found a mismatch,
2 usage or bad input, 3 an internal error (a bug in promote), 130 interrupted.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

import click

from promote_cli import __version__
from promote_cli.errors import BadInputError, PromotionError, UsageError

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
    "measure": ("promote_cli.cli.measure", "Write the installed frameworks' answers down."),
    "diff": ("promote_cli.cli.diff", "Show the cells where two policies disagree."),
    "graph": ("promote_cli.cli.graph", "Draw a lattice policy's Hasse diagram (dot/svg/mermaid)."),
    "convert": ("promote_cli.cli.convert", "Convert two .npy files to their promoted dtype."),
    "check": ("promote_cli.cli.check", "Lint a policy: properties, cells that lose values."),
}


class LazyGroup(click.Group):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Bare ``promote`` is a question, not a mistake: the usage, formatted, and exit 0 (as
        # git does). click 8.2+ raises it as a usage error instead, whose text is the help.
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(EXIT_OK)
        return super().parse_args(ctx, args)

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
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            code = exc.exit_code
        except click.UsageError as exc:
            hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
            code = _fail(f"error: {exc.format_message().rstrip('.')}{hint}", EXIT_USAGE)
        except click.ClickException as exc:
            code = _fail(f"error: {exc.format_message()}", EXIT_USAGE)
        except BaseException as exc:
            code = _code(exc)
        if not isinstance(code, int):
            code = EXIT_OK
        _settle()
        if standalone_mode:
            sys.exit(code)
        return code


class _Interrupted(BaseException):
    """Ctrl-C while click parses the arguments, carried past click's own handling."""


def _code(exc: BaseException) -> int:
    """The exit code of an error a command raised (after printing its line)."""
    if isinstance(exc, SystemExit):
        raise exc
    if isinstance(exc, BrokenPipeError):
        # The reader went away (promote ... | head); that is not our error. Point stdout at
        # devnull so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    if isinstance(exc, (KeyboardInterrupt, _Interrupted, click.exceptions.Abort)) or _signalled():
        # After Ctrl-C or SIGTERM whatever failed is the interruption (an import that
        # was interrupted raises ImportError, say).
        return _fail("interrupted", EXIT_INTERRUPTED)
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


def _signalled() -> bool:
    entry = sys.modules.get("promote_cli.entry")
    return entry is not None and entry.interrupted()


def _settle() -> None:
    # Run from the console script, the signal handlers stand down once the exit code is known.
    entry = sys.modules.get("promote_cli.entry")
    if entry is not None:
        entry.settle()


# Help is laid out for 80 columns at most (narrower on a narrower terminal), whatever the width
# of a wide terminal: long lines are hard to read.
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 80}


@click.group("promote", cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="promote")
def cli() -> None:
    """Exact dtype promotion for array frameworks: what two arrays become when
    they meet, and what an operation returns, under each framework's rules.

    \b
    promote pair f16 bf16 --policy openvino
    promote op divide int32 int32 --policy torch
    promote table --policy jax --format html
    promote diff numpy torch --op divide
    promote convert a.npy b.npy --policy jax

    Policies: jax, openvino, ascend, numpy, torch, tensorflow, array-api, mlx,
    keras, tinygrad, paddle, mindspore (promote policies NAME says more).
    """


def printable(text: str) -> str:
    """``text`` with what a terminal would act on or hide escaped as Python does in ``repr``
    (``\\x1b``, ``\\n``, ``\\u202e``): file names are printed as typed, one line each, and
    cannot move the cursor, set the title or forge a line; bytes that are not UTF-8 (kept by
    Python as surrogates) show as ``\\xNN``."""
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


def tell(message: str) -> None:
    """``promote: MESSAGE`` on stderr, escaped as ``printable`` does; on a terminal, broken at
    word boundaries to fit it."""
    from promote_cli import fit

    line = f"promote: {printable(message)}"
    click.echo("\n".join(fit.wrap(line, fit.terminal_width(sys.stderr))), err=True)


def _fail(message: str, code: int) -> int:
    tell(message)
    return code


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; every error becomes one line on stderr and a documented exit code."""
    cli.main(args=argv, prog_name="promote")
