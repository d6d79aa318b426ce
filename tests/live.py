"""Whether an installed framework is the release promote's rules were measured on.

A test that compares promote with a live framework (marked ``conformance``) skips, saying
why, when the framework it asks is installed at another version: its answers may differ for
reasons that are not promote's fault (``promote drift`` lists what changed). The frameworks a
test asks are the marker's arguments (``@pytest.mark.conformance("torch")``) and any registered
framework named by a parameter of the test (``name="jax"``); a framework that is not installed
is left to the test's own skip. Nothing here imports a framework: versions are read from the
installed distributions' metadata.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import metadata

from promote_cli import frameworks


def installed(name: str) -> str:
    """The installed version of the distribution registered framework ``name`` installs
    ("" when it is not installed)."""
    try:
        return metadata.version(frameworks.entry(name).install.split("[")[0])
    except metadata.PackageNotFoundError:
        return ""


def asks(name: str) -> tuple[str, ...]:
    """``name`` and the frameworks whose tensors it computes with (Keras's backends)."""
    entry = frameworks.entry(name)
    tensors = entry.expressions.tensors if entry.expressions else ()
    names = frameworks.names()
    return (name, *(t.policy or t.value for t in tensors if (t.policy or t.value) in names))


def unmeasured(names: Iterable[str]) -> str:
    """Why a live comparison with ``names`` cannot be trusted: the first of them (or of the
    frameworks they compute with) installed at another version than measured, or beside
    another release of a package its measurements depend on ("" when none)."""
    for name in names:
        for asked in asks(name):
            entry = frameworks.entry(asked)
            found, wanted = installed(asked), entry.version
            # a local build's label is no other release (torch 2.13.0+cpu is 2.13.0)
            if found and wanted and found.split("+")[0] != wanted:
                return (
                    f"{asked} {found} is installed; promote's {asked} rules were measured on"
                    f" {wanted} (pip install -c constraints.txt ... pins it; promote drift"
                    f" {asked} lists what changed)"
                )
            for package, version in entry.measured_with if found else ():
                beside = _version(package)
                if beside and beside != version:
                    return (
                        f"{package} {beside} is installed; promote's {asked} rules were measured"
                        f" with {package} {version} (pip install -c constraints.txt ... pins it)"
                    )
    return ""


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return ""
