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
from promote_cli.errors import (
    BadInputError,
    PromotionError,
    UsageError,
    exhausted,
    imported,
    printable,
    unencodable,
)

EXIT_OK, EXIT_DIFFERENT, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

# name -> (module, one-line help); the module defines ``command``.
COMMANDS = {
    "pair": ("promote_cli.cli.pair", "Promote two dtypes (or more) under a policy."),
    "op": ("promote_cli.cli.op", "The dtype an operation (sqrt, sum, divide ...) returns."),
    "expr": ("promote_cli.cli.expr", "What a line of array code gives, node by node, per policy."),
    "ops": ("promote_cli.cli.ops", "List the operations and each policy's function for them."),
    "policies": ("promote_cli.cli.policies", "List the policies, their types and options."),
    "table": ("promote_cli.cli.table", "Print a policy's table: terminal, html, markdown ..."),
    "tables": ("promote_cli.cli.tables", "Regenerate (or --check) the tables/ documentation set."),
    "verify": ("promote_cli.cli.verify", "Prove policies against the installed frameworks."),
    "measure": ("promote_cli.cli.measure", "Write the installed frameworks' answers down."),
    "drift": ("promote_cli.cli.drift", "Whether installed frameworks answer as measured."),
    "diff": ("promote_cli.cli.diff", "Show the cells where two policies disagree."),
    "graph": ("promote_cli.cli.graph", "Draw a lattice policy's Hasse diagram (dot/svg/mermaid)."),
    "convert": ("promote_cli.cli.convert", "Convert two .npy files to their promoted dtype."),
    "check": ("promote_cli.cli.check", "Lint a policy: properties, cells that lose values."),
}


# click words a few texts through gettext as it builds options (``_("Show this message and
# exit.")``), and gettext's first lookup imports ``locale``: 4 M instructions, as much as a
# fifth of what promote adds to Python's and click's own start-up. promote installs no
# translation of click's messages, so the options an answer meets are made here, with click's
# own English texts: ``--version`` below, each command's ``-h/--help`` (``Command``), and
# ``_options.FileName``.
HELP = "Show this message and exit."


def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


try:  # the parser click makes for a command (its private class: click 8.2 renamed it)
    from click.parser import _OptionParser as _ClickParser
except ImportError:  # click 8.1
    from click.parser import OptionParser as _ClickParser  # type: ignore[no-redef]


class _Parser(_ClickParser):
    def _process_opts(self, arg: str, state: Any) -> None:
        # click tries every option as a long one first; for ``-p`` that fails, and the
        # NoSuchOption it builds on the way imports difflib to suggest a name (3 M
        # instructions) before click tries ``-p`` as the short option it is. A short option
        # named whole goes to click's short-option reading straight away.
        if len(arg) == 2 and arg in self._short_opt:
            self._match_short_opt(arg, state)
        else:
            super()._process_opts(arg, state)


# The commands that read a Python scalar's value (int:300) and run no framework: each quotes
# the value in a refusal's reason, as the framework's message does, and Python writes an int of
# more than 4,300 digits only with its limit lifted (``_long_ints``).
_QUOTE_VALUES = frozenset({"pair", "op", "expr", "table", "diff"})


@contextlib.contextmanager
def _long_ints() -> Any:
    """Python's limit on the decimal digits of an int it reads or writes, lifted while the
    command runs and then restored: the limit keeps a server from quadratic conversions of
    what a stranger sent; a command line is bounded (about 128 KiB an argument). The
    commands that run a framework (``verify``, ``measure``) keep it: NumPy writes an int it
    makes a long double in decimal, and raises at the limit, as a user's program would."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


class Command(click.Command):
    """Every promote command: click's, with its ``-h/--help`` option made without gettext and
    its arguments parsed by ``_Parser`` (both above)."""

    _help: click.Option | None = None

    def invoke(self, ctx: click.Context) -> Any:
        if self.name not in _QUOTE_VALUES:
            return super().invoke(ctx)
        with _long_ints():
            return super().invoke(ctx)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        names = self.get_help_option_names(ctx)
        if not names or not self.add_help_option:
            return None
        if self._help is None:  # one object: click orders the eager options by identity
            self._help = click.Option(
                names,
                is_flag=True,
                is_eager=True,
                expose_value=False,
                callback=_show_help,
                help=HELP,
            )
        return self._help

    def make_parser(self, ctx: click.Context) -> Any:
        parser = _Parser(ctx)
        for param in self.get_params(ctx):
            param.add_to_parser(parser, ctx)
        return parser


class LazyGroup(Command, click.Group):
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
        """Run the command; its int return value and every error become the exit code here.
        The outcome is settled as the command ends (``interrupts.settle``): a signal after it
        would otherwise reach click's own KeyboardInterrupt handling, which prints an empty line
        before our ``promote: interrupted``."""
        try:
            code = super().invoke(ctx)
            interrupts.settle()
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            interrupts.settle()
            raise
        except BaseException as exc:
            code = _code(exc)
        ctx.exit(code if isinstance(code, int) else EXIT_OK)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run the CLI; every outcome becomes its exit code here, and every error one line on
        stderr (click's usage errors too, in the same ``promote: error:`` form as ours)."""
        interrupts.begin()
        with _stderr_guarded():
            code = self._run(args, prog_name, complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Any, prog_name: Any, complete_var: Any, **extra: Any) -> int:
        try:
            with _stdout_guarded():
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
    # An error after a commit (stdout on a full disk, as the report is printed) says that the
    # files were written: the line tells what is on disk.
    written = interrupts.written()
    after = f" ({written} written before it, complete)" if written else ""
    if isinstance(exc, click.UsageError):
        hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        return _fail(f"error: {exc.format_message().rstrip('.')}{hint}", EXIT_USAGE)
    if isinstance(exc, click.ClickException):
        return _fail(f"error: {exc.format_message()}", EXIT_USAGE)
    if isinstance(exc, PromotionError):
        return _fail(f"refused: {exc.reason}", EXIT_DIFFERENT)
    if isinstance(exc, (UsageError, BadInputError)):
        return _fail(f"error: {exc}{after}", EXIT_USAGE)
    if os.environ.get("PROMOTE_DEBUG") or not isinstance(exc, Exception):
        raise exc
    ran_out = exhausted(exc)
    if ran_out is not None:  # a limit of the environment (ulimit -v, -u), not promote's bug
        return _fail(
            f"error: ran out of {ran_out} ({_first_line(exc)}){after}: raise the limit"
            " (ulimit -v, ulimit -u) or free some, and run again",
            EXIT_USAGE,
        )
    missing = imported(exc)
    if missing is not None:  # a package that is there but cannot be imported
        return _fail(f"error: cannot import {missing}: {_first_line(exc)}{after}", EXIT_USAGE)
    return _fail(
        f"internal error: {type(exc).__name__}: {exc}{after} (set PROMOTE_DEBUG=1 for a"
        " traceback, and please report it)",
        EXIT_INTERNAL,
    )


def _first_line(exc: BaseException) -> str:
    """``Type: its first non-empty line``, at most 200 characters (NumPy's ImportError is
    thirty lines of advice; the cause it was raised from says more)."""
    found = exc.__cause__ if isinstance(exc, ImportError) and exc.__cause__ else exc
    lines = [line.strip() for line in str(found).splitlines() if line.strip()]
    line = f"{type(found).__name__}: {lines[0]}" if lines else type(found).__name__
    return line if len(line) <= 200 else line[:199] + "…"


def _interrupted() -> int:
    """Report the interruption: 130 when nothing was written; 0 when it came after a commit
    had made the outputs final (the line says so)."""
    line, written = interrupts.interruption()
    return _fail(line, EXIT_OK if written else EXIT_INTERRUPTED)


class _stdout_guarded:  # lower case: used as a function, ``with _stdout_guarded():``
    """Standard output is the environment's boundary: its encoding (``PYTHONIOENCODING``, the
    locale) and the file behind it (closed, or a full disk). Whatever writing to it raises is
    one line and exit 2, naming the encoding or the error (a reader that went away is not an
    error: ``BrokenPipeError``, see ``_code``), never a ``UnicodeEncodeError`` or ``OSError``
    from deep inside (and replacing a character with ``?`` would corrupt a table redirected to
    a file). The console script's own stdout is swapped for the run for one that says so; any
    other stream (a test's) keeps its object and only gets the encoding check."""

    def __enter__(self) -> None:
        self.saved, self.errors = sys.stdout, None
        fd = _fileno(sys.stdout)
        if sys.stdout is None:  # promote ... >&-
            sys.stdout = _Closed()
        elif fd is not None and isinstance(sys.stdout, io.TextIOWrapper):
            sys.stdout.flush()
            sys.stdout = io.TextIOWrapper(
                io.BufferedWriter(_Stdout(fd)),
                encoding=sys.stdout.encoding,
                errors=_UNENCODABLE,
                line_buffering=sys.stdout.line_buffering,
            )
        elif isinstance(sys.stdout, io.TextIOWrapper):
            self.errors = sys.stdout.errors
            sys.stdout.reconfigure(errors=_UNENCODABLE)

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        ours, sys.stdout = sys.stdout, self.saved
        if self.errors is not None and isinstance(self.saved, io.TextIOWrapper):
            with contextlib.suppress(Exception):  # a closed or broken stream
                self.saved.reconfigure(errors=self.errors)
        elif ours is not self.saved and not isinstance(ours, _Closed):
            if exc is None or isinstance(exc, click.exceptions.Exit):
                ours.flush()  # what is still buffered: an error here is the run's, reported
            else:  # the run failed already, and said so
                with contextlib.suppress(Exception):
                    ours.flush()


def _fileno(stream: Any) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


class _Stdout(io.RawIOBase):
    """File descriptor 1, whose write errors are the environment's, not promote's."""

    def __init__(self, fd: int) -> None:
        self.fd, self.broken = fd, False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        if self.broken:  # said once; what is still buffered goes nowhere
            return len(data)
        try:
            return os.write(self.fd, data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.broken = True
            raise UsageError(f"cannot write to standard output ({exc.strerror or exc})") from None


class _stderr_guarded:  # lower case: used as a function, ``with _stderr_guarded():``
    """Standard error is where promote says what went wrong, never a reason to fail: closed
    (``2>&-``: Python makes it None), full (``2>/dev/full``) or a reader gone, it takes the
    lines and drops them, and the exit code is the answer's. The console script's stream is
    swapped for the run (every writer, click's and rich's, reads ``sys.stderr`` as it
    writes); any other stream (a test's) is kept."""

    def __enter__(self) -> None:
        self.saved = sys.stderr
        fd = _fileno(sys.stderr)
        if sys.stderr is None:
            sys.stderr = _Dropped()
        elif fd is not None and isinstance(sys.stderr, io.TextIOWrapper):
            with contextlib.suppress(Exception):
                sys.stderr.flush()
            sys.stderr = io.TextIOWrapper(
                io.BufferedWriter(_Stderr(fd)),
                encoding=sys.stderr.encoding,
                errors="backslashreplace",
                line_buffering=True,
            )

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        ours, sys.stderr = sys.stderr, self.saved
        if ours is not self.saved:
            with contextlib.suppress(Exception):
                ours.flush()


class _Stderr(io.RawIOBase):
    """File descriptor 2: what it cannot take (closed, full, a reader gone) is dropped."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        try:
            return os.write(self.fd, data)
        except OSError:
            return len(data)


class _Dropped(io.TextIOBase):
    """Standard error when there is none (``promote ... 2>&-``): what is said is dropped."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


class _Closed(io.TextIOBase):
    """Standard output when there is none (``promote ... >&-``): writing to it is an error."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise UsageError("cannot write to standard output: it is closed")


_UNENCODABLE = "promote-unencodable"
# The handler lives in promote_cli.errors, which holds little: a handler registered with codecs
# outlives every module, and one of this module's would keep all of it and click alive through
# the interpreter's shut-down, which then costs 3 M instructions more.
codecs.register_error(_UNENCODABLE, unencodable)


# Help is laid out for 80 columns at most (narrower on a narrower terminal), whatever the width
# of a wide terminal: long lines are hard to read.
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 80}


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"promote, version {__version__}", color=ctx.color)
        ctx.exit()


@click.group("promote", cls=LazyGroup, context_settings=CONTEXT)
@click.option(  # click.version_option's, without gettext (see HELP)
    "--version",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=_show_version,
    help="Show the version and exit.",
)
def cli() -> None:
    """Exact dtype promotion for array frameworks: what two arrays become when
    they meet, and what an operation returns, under each framework's rules.

    \b
    promote pair f16 bf16 --policy openvino
    promote op divide int32 int32 --policy torch
    promote table --policy jax --format html
    promote diff numpy torch --op divide
    promote convert a.npy b.npy --policy jax

    `promote policies` lists the policies, one per framework; `promote policies
    NAME` says more about one.
    """


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
