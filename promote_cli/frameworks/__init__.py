"""The policy registry: one module per framework, imported only when that policy is asked for."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from promote_cli.errors import UsageError

if TYPE_CHECKING:
    from promote_cli.engine import Policy
    from promote_cli.ops import Operations

_MODULES = {
    "jax": "promote_cli.frameworks.jax.promotion",
    "openvino": "promote_cli.frameworks.openvino.promotion",
    "ascend": "promote_cli.frameworks.ascend.promotion",
    "numpy": "promote_cli.frameworks.numpy.promotion",
    "torch": "promote_cli.frameworks.torch.promotion",
    "tensorflow": "promote_cli.frameworks.tensorflow.promotion",
    "array-api": "promote_cli.frameworks.array_api.promotion",
    "mlx": "promote_cli.frameworks.mlx.promotion",
    "keras": "promote_cli.frameworks.keras.promotion",
    "tinygrad": "promote_cli.frameworks.tinygrad.promotion",
    "paddle": "promote_cli.frameworks.paddle.promotion",
    "mindspore": "promote_cli.frameworks.mindspore.promotion",
}


# Each policy's per-operation rules (``promote_cli.ops``), imported only when asked for; every
# other policy says in NO_OPERATIONS why it has none (a test checks that each is in one of them).
_OPERATIONS = {
    "jax": "promote_cli.frameworks.jax.operations",
    "numpy": "promote_cli.frameworks.numpy.operations",
    "torch": "promote_cli.frameworks.torch.operations",
    "tensorflow": "promote_cli.frameworks.tensorflow.operations",
    "array-api": "promote_cli.frameworks.array_api.operations",
    "mlx": "promote_cli.frameworks.mlx.operations",
    "keras": "promote_cli.frameworks.keras.operations",
    "tinygrad": "promote_cli.frameworks.tinygrad.operations",
    "paddle": "promote_cli.frameworks.paddle.operations",
    "mindspore": "promote_cli.frameworks.mindspore.operations",
}
NO_OPERATIONS = {
    "openvino": "the OpenVINO specification defines how two element types promote, not what any"
    " operation returns",
    "ascend": "the Ascend table defines how two types promote, not what any operation returns",
}


def operations(policy: Policy) -> Operations:
    """The per-operation rules of ``policy``; a policy without any is a refusal that says why."""
    from promote_cli.errors import PromotionError

    module = _OPERATIONS.get(policy.name) if policy.file is None else None
    if module is None:
        if policy.file is not None:
            why = f"{policy.file} is a policy file, which declares promotion only"
        else:
            why = NO_OPERATIONS.get(policy.name, "promote declares none for it")
        raise PromotionError(
            f"{policy.title} has no per-operation rules: {why}", rule="no-operations"
        )
    return import_module(module).OPERATIONS


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
