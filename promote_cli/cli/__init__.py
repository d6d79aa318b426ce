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

    def invoke(self, ctx: click.Context):
        """Run the command; its int return value and every error become the exit code here."""
        try:
            code = super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except PromotionError as exc:
            code = _fail(f"refused: {exc.reason}", EXIT_DIFFERENT)
        except (UsageError, BadInputError) as exc:
            code = _fail(f"error: {exc}", EXIT_USAGE)
        except KeyboardInterrupt:
            code = _fail("interrupted", EXIT_INTERRUPTED)
        except BrokenPipeError:
            raise
        except Exception as exc:
            if os.environ.get("PROMOTE_DEBUG"):
                raise
            code = _fail(
                f"internal error: {type(exc).__name__}: {exc} (set PROMOTE_DEBUG=1 for a"
                " traceback, and please report it)",
                EXIT_INTERNAL,
            )
        ctx.exit(code if isinstance(code, int) else EXIT_OK)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="promote")
def cli() -> None:
    """Exact type-promotion tables for array frameworks.

    \b
    promote pair f16 bf16 --policy openvino
    promote table --policy jax --format html
    promote convert a.npy b.npy
    """


def _fail(message: str, code: int) -> int:
    click.echo(f"promote: {message}", err=True)
    return code


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; every error becomes one line on stderr and a documented exit code."""
    try:
        code = cli.main(args=argv, prog_name="promote", standalone_mode=False)
    except click.exceptions.Abort:
        code = _fail("interrupted", EXIT_INTERRUPTED)
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except KeyboardInterrupt:
        code = _fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        # The reader went away (promote ... | head); that is not our error. Point stdout at
        # devnull so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_OK
    sys.exit(code if isinstance(code, int) else EXIT_OK)
