"""The Python API: ``promote``, ``promote_many``, ``matrix``, ``read_operands``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from promote_cli import policies
from promote_cli.engine import Matrix, Outcome, Policy, fold
from promote_cli.engine import matrix as _matrix
from promote_cli.errors import PromotionError
from promote_cli.operands import Operand, parse


def read_operands(
    policy: Policy, spellings: Sequence[str], notation: str | None = None
) -> list[Operand]:
    """Parse spellings in ``notation`` (default: the policy's own)."""
    nota = policy.notation_for(notation)
    return [parse(s, nota) for s in spellings]


def outcome(
    spellings: Sequence[str], *, policy: str = "jax", notation: str | None = None, **options: Any
) -> Outcome:
    """The outcome (result or refusal) of promoting the operands, folded left to right."""
    pol = policies.get(policy)
    opts = pol.resolve_options(options)
    return fold(pol, read_operands(pol, spellings, notation), opts)


def promote(
    a: str, b: str, *, policy: str = "jax", notation: str | None = None, **options: Any
) -> str:
    """The canonical name ``a`` and ``b`` promote to under ``policy``.

    Weak results are ``int*``, ``float*``, ``complex*``. Raises ``PromotionError`` when the
    policy refuses, ``ValueError`` for an unknown name or option.
    """
    return promote_many([a, b], policy=policy, notation=notation, **options)


def promote_many(
    spellings: Sequence[str], *, policy: str = "jax", notation: str | None = None, **options: Any
) -> str:
    """Like ``promote`` for any number of operands (a left fold)."""
    out = outcome(spellings, policy=policy, notation=notation, **options)
    if out.result is None:
        raise PromotionError(out.why, rule=out.rule, unsafe_result=out.unsafe_result)
    return out.result


def matrix(
    policy: str, types: Sequence[str] | None = None, *, notation: str | None = None, **options: Any
) -> Matrix:
    """The table of ``types`` x ``types`` (default: the policy's default table)."""
    pol = policies.get(policy)
    rows = read_operands(pol, types, notation) if types is not None else None
    return _matrix(pol, rows, rows, options)
