"""Options shared by several commands."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cached_property
from typing import Any

import click

from promote_cli.options import parse_options

__all__ = ["parse_options"]


class _Listing(click.Option):
    """An option whose help names what the registry lists, asked only when help is shown (so
    that no framework's entry is read on the way to an answer)."""

    def __init__(self, *args: Any, listing: Callable[[], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.listing = listing

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = (self.help or "").replace("{listing}", self.listing())
        return super().get_help_record(ctx)


def _policies() -> str:
    from promote_cli import frameworks

    return ", ".join(frameworks.names())


def _notations() -> str:
    from promote_cli import frameworks

    return ", ".join(frameworks.notations().names())


class FileName(click.ParamType):
    """A file (or directory) name, checked by ``click.Path(**checks)``, except that a name
    given as ``''`` (an unset shell variable, say) is refused instead of read as ``Path('')``,
    which is ``.``, the current directory. The ``click.Path`` is made when a name is given:
    its constructor words its type's name through gettext (see ``promote_cli.cli.HELP``)."""

    def __init__(self, **checks: Any) -> None:
        self.checks = checks
        files, directories = checks.get("file_okay", True), checks.get("dir_okay", True)
        if files and not directories:
            self.name = "file"
        elif directories and not files:
            self.name = "directory"
        else:
            self.name = "path"

    @cached_property
    def path(self) -> click.Path:
        return click.Path(**self.checks)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value:
            self.fail("'' is an empty file name; give one", param, ctx)
        return self.path.convert(value, param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
        return self.path.shell_complete(ctx, param, incomplete)

    def to_info_dict(self) -> Any:
        return self.path.to_info_dict()


# The policy a command answers under when none is named, the same for every command: JAX's
# table is the one promote was built around (the README's first), every pair has an answer in
# it, and pair, op and table answered under it before expr did too; a script that names no
# policy keeps its answers. Whenever it answers, stderr says so first (``say_default``).
DEFAULT_POLICY = "jax"


def chosen(policy: str | None, policy_file: str | None = None) -> str:
    """The policy asked for (``--policy-file`` first), or the default one."""
    return policy_file or policy or DEFAULT_POLICY


def say_default(policy: str | None, policy_file: str | None = None) -> None:
    """When no policy was named, say which answered, on stderr, before anything else there
    (a notation note, a refusal): ``note: policy jax (the default; -p to choose)``. Called
    once the answer is in hand: a mistake in the question is one line, never two."""
    if policy_file is not None or policy is not None:
        return
    from promote_cli import fit

    note = f"note: policy {DEFAULT_POLICY} (the default; -p to choose)"
    click.echo("\n".join(fit.wrap(note, fit.terminal_width(sys.stderr))), err=True)


def _complete_policy(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """What the shell completes after ``-p``: the policy names (and ``all`` where several are
    taken), the registry's; a comma list completes its last item."""
    from promote_cli import frameworks

    head, _, last = incomplete.rpartition(",")
    several = param.metavar is not None and "," in param.metavar
    names = [*frameworks.names(), *(["all"] if several and not head else [])]
    return [f"{head},{n}" if head else n for n in names if n.startswith(last)]


policy = click.option(
    "--policy",
    "-p",
    cls=_Listing,
    listing=_policies,
    default=None,
    metavar="NAME",
    shell_complete=_complete_policy,
    help=f"Whose rules: {{listing}} (see `promote policies`), or a TOML policy file"
    f" (./mine.toml). Default: {DEFAULT_POLICY}, said on stderr.",
)
several_policies = click.option(
    "--policy",
    "-p",
    cls=_Listing,
    listing=_policies,
    default=None,
    metavar="NAME[,NAME2...]",
    shell_complete=_complete_policy,
    help=f"Whose rules: {{listing}} (see `promote policies`), or a TOML policy file"
    f" (./mine.toml); several, comma separated, or all: a row each. Default:"
    f" {DEFAULT_POLICY}, said on stderr.",
)
policy_file = click.option(
    "--policy-file",
    default=None,
    type=FileName(dir_okay=False),
    metavar="FILE",
    help="A policy declared in a TOML file (docs/guide/policy-files.md); -p ./FILE.toml"
    " does the same.",
)
options = click.option(
    "-O",
    "--option",
    "option_values",
    multiple=True,
    metavar="NAME=VALUE",
    help="A policy option, e.g. -O promote_unsafe=true (repeatable).",
)
notation = click.option(
    "--notation",
    "-n",
    cls=_Listing,
    listing=_notations,
    default=None,
    metavar="NAME",
    help="Read and print dtypes in this notation (default: the policy's own): {listing}.",
)
op = click.option(
    "--op",
    "op",
    default=None,
    metavar="NAME",
    help="An operation (sqrt, divide, sum ...; see `promote ops`): its output dtypes instead"
    " of the promotion. One-operand operations also as a list, one row each: sqrt,exp,sum;"
    " unary; reductions.",
)
as_json = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
