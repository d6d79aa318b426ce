"""The registry: every framework promote knows, one directory each.

A framework is the directory ``promote_cli/frameworks/<name>/``:

- ``__init__.py``: its entry, a ``promote_cli.framework.Framework`` (name, title, source, the
  version measured, what installs it, its notation's column, its options), plain data;
- ``promotion.py``: ``POLICY``, its promotion rules;
- ``operations.py``: ``OPERATIONS``, its per-operation rules (unless the entry says why none),
  data only; the code of its own they name by key in ``pairs.py`` (``PAIRS``) and
  ``specials.py`` (``SPECIALS``), when it has any;
- ``oracle.py``: how ``promote verify`` and ``promote measure`` ask the installed framework
  (``promote_cli.verify.protocol``: where it runs and why, and one ``answer`` function), unless
  the entry says why none;
- ``measured/``: what its oracle answered (``promote measure``), the offline proof of its rules;
- ``guide.py``: ``GUIDE``, its rows in the guide's tables (``promote_cli.framework.Guide``).

Adding a framework is adding a directory and its line below. Everything that lists frameworks
(the command line's help and ``--policy`` choices, the notations, the documentation set and the
guide's tables, ``promote verify``, the tests) reads this list; each module is imported only
when asked for.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from promote_cli.errors import PolicyDefinitionError, PromotionError, UsageError, did_you_mean

if TYPE_CHECKING:
    from collections.abc import Iterable

    from promote_cli.engine import Policy
    from promote_cli.framework import Framework, Guide
    from promote_cli.notations import Column, Notation, Notations
    from promote_cli.rules import Operations

# One line per framework: its directory, in the order every listing shows them.
FRAMEWORKS = (
    "jax",
    "openvino",
    "ascend",
    "numpy",
    "torch",
    "tensorflow",
    "array_api",
    "mlx",
    "keras",
    "tinygrad",
    "paddle",
    "mindspore",
    "onnx",
)


@cache
def entries() -> tuple[Framework, ...]:
    """Every framework's entry, in the registry's order."""
    return tuple(import_module(f"{__name__}.{directory}").FRAMEWORK for directory in FRAMEWORKS)


def names() -> tuple[str, ...]:
    """Every policy name, in the registry's order."""
    return tuple(e.name for e in entries())


def entry(name: str) -> Framework:
    """The entry of the framework called ``name`` (its policy's name); an unknown name is a
    usage error with a suggestion."""
    directory = name.replace("-", "_")
    if directory in FRAMEWORKS and "_" not in name:
        found: Framework = import_module(f"{__name__}.{directory}").FRAMEWORK
        if found.name == name:
            return found
    for found in entries():
        if found.name == name:
            return found
    known = names()
    raise UsageError(
        f"unknown policy {name!r} (policies: {', '.join(known)})" + did_you_mean(name, known)
    )


def get(name: str) -> Policy:
    """The policy called ``name``; an unknown name is a usage error with a suggestion."""
    return import_module(f"{entry(name).package}.promotion").POLICY


def operations(policy: Policy) -> Operations:
    """The per-operation rules of ``policy``; a policy without any is a refusal that says why."""
    if policy.file is not None:
        why = f"{policy.file} is a policy file, which declares promotion only"
    else:
        try:
            found = entry(policy.name)
        except UsageError:  # a policy promote does not register (a test's stand-in)
            why = "promote declares none for it"
        else:
            if not found.operations:
                return _complete(found, import_module(f"{found.package}.operations").OPERATIONS)
            why = found.operations
    raise PromotionError(f"{policy.title} has no per-operation rules: {why}", rule="no-operations")


def _complete(found: Framework, declared: Operations) -> Operations:
    """``declared``, once it is known to hold a rule for every operation of the vocabulary
    under every setting: a missing one is a bug in its declaration, said here by name rather
    than as a ``KeyError`` wherever the operation is first asked."""
    from promote_cli.vocabulary import VOCABULARY

    by = declared.by_setting
    for rules in (declared.rules, *(by.rules.values() if by is not None else ())):
        missing = [name for name in VOCABULARY if name not in rules]
        if missing:
            raise PolicyDefinitionError(
                f"{found.package}.operations declares no rule for {', '.join(missing)}: every"
                " operation of `promote ops` needs one (Rule(None, note=...) when the"
                " framework has no such function)"
            )
    return declared


def oracle(name: str) -> Any:
    """The oracle that asks framework ``name`` itself (``promote verify``), or None when it has
    none (its entry says why)."""
    found = entry(name)
    if found.oracle:
        return None
    return import_module(f"{found.package}.oracle")


def guide(name: str) -> Guide:
    """The rows framework ``name`` gives the guide's tables (its ``guide.py``), once they are
    known to describe each of its options: a framework without them, or one that leaves an
    option out, is a bug in its directory, said here by name rather than as a blank row."""
    found = entry(name)
    try:
        module = import_module(f"{found.package}.guide")
    except ModuleNotFoundError as exc:
        if exc.name != f"{found.package}.guide":
            raise
        raise PolicyDefinitionError(
            f"{found.package} has no guide.py: its rows in the guide's tables"
            " (promote_cli.framework.Guide; CONTRIBUTING.md, Add a framework)"
        ) from None
    declared: Guide = module.GUIDE
    described = [option for option, _ in declared.options]
    options = [option.name for option in found.options]
    if described != options:
        raise PolicyDefinitionError(
            f"{found.package}.guide describes the options {', '.join(described) or 'none'},"
            f" but its entry declares {', '.join(options) or 'none'}: one meaning per option,"
            " in the entry's order"
        )
    return declared


@cache
def notations() -> Notations:
    """Every notation: the canonical names, then each framework's own column. Read from the
    index (``_index.py``, written from the entries by ``python -m promote_cli.regenerate
    index``) when it was made for this registry: reading a spelling, and saying when it means
    another type elsewhere, then imports no framework's entry but those whose notation is
    asked for (the policy's own, NumPy's for its reader). Importing every entry to read its
    column cost 6 M instructions on every ``pair`` (``docs/guide/design.md``, "Start-up
    cost")."""
    from promote_cli import notations as nots
    from promote_cli.frameworks import _index

    if _index.FRAMEWORKS != FRAMEWORKS:  # a framework added since (or a test's): the entries
        return _from_entries()
    directories = dict(_index.DIRECTORIES)

    def column(name: str) -> Column:
        if name == nots.CANONICAL.name:
            return nots.CANONICAL
        found = import_module(f"{__name__}.{directories[name]}").FRAMEWORK.column
        assert found is not None and found.name == name, f"{name}: not the column indexed"
        return found

    return nots.Notations(
        dict(_index.TITLES),
        column,
        _index.PREFIXES,
        readers=_index.READERS,
        index=_index.READINGS,
    )


def _from_entries() -> Notations:
    """Every notation, read from every entry's column."""
    from promote_cli.notations import CANONICAL, CANONICAL_PREFIXES, Notations

    found = entries()
    columns = [CANONICAL, *(e.column for e in found if e.column is not None)]
    prefixes = [p for e in found for p in e.prefixes]
    return Notations.of(columns, (*prefixes, *CANONICAL_PREFIXES))


def index_source() -> str:
    """The text of ``_index.py``: what ``notations`` needs of every entry, read from them."""
    built = _from_entries()
    directories = {e.column.name: d for d, e in zip(FRAMEWORKS, entries(), strict=True) if e.column}
    readings: dict[str, dict[str, list[str]]] = {}  # spelling -> canonical -> notations
    for name in built.names():
        for spelling, canonical in built.spellings(name).items():
            readings.setdefault(spelling, {}).setdefault(canonical, []).append(name)
    lines = [
        '"""Generated by ``python -m promote_cli.regenerate index`` from the registry\'s entries;',
        "do not edit by hand (tests/properties/test_dtypes_notations.py fails when it is stale).",
        "",
        "What reading a spelling needs of every notation at once (``frameworks.notations``):",
        "each notation's title and the framework directory that declares it, the prefixes a user",
        "may paste, the notations that read with code of their own, and every spelling's",
        'readings (``"jax numpy=int64 openvino=int8"``: who reads it as which type)."""',
        "",
        f"FRAMEWORKS = {_tuple(FRAMEWORKS)}",
        f"TITLES = {_tuple(built.titles.items())}",
        f"DIRECTORIES = {_tuple(directories.items())}",
        f"PREFIXES = {_tuple(built.prefixes)}",
        f"READERS = {_tuple(built.readers)}",
        "READINGS = {",
        *(
            f"    {_quoted(s)}: "
            + _quoted(" ".join(f"{' '.join(names)}={c}" for c, names in by.items()))
            + ","
            for s, by in sorted(readings.items())
        ),
        "}",
    ]
    return "\n".join(lines) + "\n"


def _quoted(item: object) -> str:
    """A literal as ``ruff format`` writes it: strings in double quotes, tuples of them."""
    if isinstance(item, tuple):
        return f"({', '.join(map(_quoted, item))})"
    text = str(item)
    assert text.isprintable() and not set(text) & set('"\\'), f"{text!r}: quote it by hand"
    return f'"{text}"'


def _tuple(items: Iterable[object]) -> str:
    """A tuple literal, one item a line (or one item on its line), as ``ruff format`` writes it."""
    found = list(items)
    if len(found) == 1:
        return f"({_quoted(found[0])},)"
    return "(\n" + "".join(f"    {_quoted(item)},\n" for item in found) + ")"


def notation(name: str) -> Notation:
    """The notation called ``name``; an unknown name is a usage error."""
    return notations().get(name)


def notation_of(policy: Policy) -> Notation:
    """The notation ``policy`` reads and prints: its own, read with its framework's dialect
    (``-p numpy`` reads NumPy's type codes as np.dtype() does)."""
    own = notation(policy.notation_name)
    return own.reading_like(notation(policy.dialect)) if policy.dialect else own


def looks_like_file(name: str) -> bool:
    """A policy named by a path (``./mine.toml``, ``docs/policy.toml``) rather than by name:
    ``promote_cli.policyfile`` reads it."""
    return "/" in name or name.endswith(".toml")
