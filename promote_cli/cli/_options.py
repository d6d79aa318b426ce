"""Options shared by several commands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from promote_cli.errors import UsageError


class FileName(click.Path):
    """``click.Path``, except that a name given as ``''`` (an unset shell variable, say) is
    refused instead of read as ``Path('')``, which is ``.``, the current directory."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value:
            self.fail("'' is an empty file name; give one", param, ctx)
        return super().convert(value, param, ctx)


policy = click.option(
    "--policy",
    "-p",
    default="jax",
    show_default=True,
    metavar="NAME",
    help="Whose rules: jax, openvino, ascend, numpy, torch, tensorflow, array-api, mlx, keras,"
    " tinygrad, paddle, mindspore (see `promote policies`), or a TOML policy file"
    " (./mine.toml).",
)
policy_file = click.option(
    "--policy-file",
    default=None,
    type=FileName(dir_okay=False),
    metavar="FILE",
    help="A policy declared in a TOML file (see the README); -p ./FILE.toml does the same.",
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
    default=None,
    metavar="NAME",
    help="Read and print dtypes in this notation (default: the policy's own): canonical, jax,"
    " numpy, openvino, ascend, torch, tensorflow, mlx, tinygrad, paddle, mindspore.",
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


def split_types(types: str | None) -> list[str] | None:
    """The ``--types`` spellings, or None when the option was not given."""
    if types is None:
        return None
    spellings = [t.strip() for t in types.split(",")]
    if not any(spellings):
        raise UsageError("--types needs at least one type, e.g. --types float16,bfloat16")
    if not all(spellings):
        raise UsageError(
            f"--types {types!r} has an empty item (type {spellings.index('') + 1}); give a"
            " comma-separated list such as float16,bfloat16"
        )
    return spellings


def parse_options(values: Iterable[str]) -> dict[str, str]:
    out = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"-O takes NAME=VALUE, not {item!r}")
        out[name.strip()] = value.strip()
    return out
