"""The policy registry: one module per framework, imported only when that policy is asked for."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from promote_cli.errors import UsageError, did_you_mean

if TYPE_CHECKING:
    from promote_cli.engine import Policy
    from promote_cli.ops import Operations

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


# Each policy's per-operation rules (``promote_cli.ops``), imported only when asked for; every
# other policy says in NO_OPERATIONS why it has none (a test checks that each is in one of them).
_OPERATIONS = {
    "jax": "promote_cli.policies.jax_ops",
    "numpy": "promote_cli.policies.numpy_ops",
    "torch": "promote_cli.policies.torch_ops",
    "tensorflow": "promote_cli.policies.tensorflow_ops",
    "array-api": "promote_cli.policies.array_api_ops",
    "mlx": "promote_cli.policies.mlx_ops",
    "keras": "promote_cli.policies.keras_ops",
    "tinygrad": "promote_cli.policies.tinygrad_ops",
    "paddle": "promote_cli.policies.paddle_ops",
    "mindspore": "promote_cli.policies.mindspore_ops",
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
        raise UsageError(
            f"unknown policy {name!r} (policies: {', '.join(_MODULES)})"
            + did_you_mean(name, _MODULES)
        ) from None
    return import_module(module).POLICY
