"""The policy registry: one module per framework, imported only when that policy is asked for."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from promote_cli.errors import UsageError

if TYPE_CHECKING:
    from promote_cli.engine import Policy

_MODULES = {
    "jax": "promote_cli.policies.jax",
    "openvino": "promote_cli.policies.openvino",
    "ascend": "promote_cli.policies.ascend",
    "numpy": "promote_cli.policies.numpy",
    "torch": "promote_cli.policies.torch",
    "tensorflow": "promote_cli.policies.tensorflow",
    "array-api": "promote_cli.policies.array_api",
    "mlx": "promote_cli.policies.mlx",
    "keras": "promote_cli.policies.keras",
    "tinygrad": "promote_cli.policies.tinygrad",
    "paddle": "promote_cli.policies.paddle",
    "mindspore": "promote_cli.policies.mindspore",
}


def looks_like_file(name: str) -> bool:
    """A policy named by a path (``./mine.toml``, ``docs/policy.toml``) rather than by name:
    ``promote_cli.policyfile`` reads it."""
    return "/" in name or name.endswith(".toml")


def names() -> tuple[str, ...]:
    return tuple(_MODULES)


def get(name: str) -> Policy:
    """The policy called ``name``; an unknown name is a usage error with a suggestion."""
    try:
        module = _MODULES[name]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(name, _MODULES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UsageError(
            f"unknown policy {name!r} (policies: {', '.join(_MODULES)}){hint}"
        ) from None
    return import_module(module).POLICY
