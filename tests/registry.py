"""Registering one more framework for a test, in process: its entry and its policy, the way a
directory under promote_cli/frameworks/ and its line in the registry do."""

from __future__ import annotations

import sys
import types

from promote_cli import frameworks


def register(m, name: str, like: str = "numpy") -> None:
    """Register ``name``, a framework with ``like``'s promotion rules, its rows in the guide's
    tables and no operations, for the life of the monkeypatch context ``m``."""
    entry = frameworks.entry(like)._replace(
        name=name, title=name.title(), column=None, operations="a test's stand-in", oracle="none"
    )
    base = type(frameworks.get(like))
    policy = type(name.title(), (base,), {"name": name, "title": entry.title})()
    package = types.ModuleType(entry.package)
    package.FRAMEWORK = entry
    promotion = types.ModuleType(f"{entry.package}.promotion")
    promotion.POLICY = policy
    guide = types.ModuleType(f"{entry.package}.guide")
    guide.GUIDE = frameworks.guide(like)
    m.setitem(sys.modules, entry.package, package)
    m.setitem(sys.modules, f"{entry.package}.promotion", promotion)
    m.setitem(sys.modules, f"{entry.package}.guide", guide)
    m.setattr(frameworks, "FRAMEWORKS", (*frameworks.FRAMEWORKS, name.replace("-", "_")))
    forget()


def forget() -> None:
    """Clear what was read from the registry, after a registration or when it ended. The
    documentation set stays cached: it is cached by the registry's entries, so a registration
    gets a set of its own and the real set, rendered once per run, is there again after it."""
    frameworks.entries.cache_clear()
    frameworks.notations.cache_clear()
