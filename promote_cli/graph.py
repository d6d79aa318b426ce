"""Pictures of a promotion lattice: its Hasse diagram (each type linked to the types directly
above it) as Graphviz DOT, Mermaid, or SVG drawn by Graphviz's ``dot``.

DOT and Mermaid are plain text built here, byte-identical on every machine: nodes and edges are
sorted by the catalogue's order. SVG depends on the installed Graphviz, so it is made only on
request. Weak types (Python scalars) are drawn dashed; the arrows point up the lattice, left to
right, like the lattice picture on JAX's page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping
from typing import Any

from promote_cli.dtypes import CATALOGUE
from promote_cli.engine import LATTICE, Policy
from promote_cli.errors import UsageError
from promote_cli.lattice import Lattice
from promote_cli.notations import Notation, display

FORMATS = ("dot", "mermaid", "svg")
_ORDER = {name: i for i, name in enumerate(CATALOGUE)}


def lattice_of(policy: Policy, opts: Mapping[str, Any]) -> Lattice:
    """The policy's lattice under ``opts`` (resolved), or a usage error naming the lattices."""
    lat = policy.lattice_for(opts) if LATTICE in policy.properties else None
    if lat is None:
        from promote_cli import policies

        have = [n for n in policies.names() if LATTICE in policies.get(n).properties]
        raise UsageError(
            f"{policy.name} is not a lattice policy, so it has no lattice to draw"
            f" (lattice policies: {', '.join(have)}); try `promote table --policy {policy.name}`"
        )
    return lat


def _key(name: str) -> tuple[int, str]:
    return (_ORDER.get(name, len(_ORDER)), name)


def nodes(lat: Lattice) -> list[str]:
    return sorted(lat.edges, key=_key)


def edges(lat: Lattice) -> list[tuple[str, str]]:
    return sorted(lat.hasse, key=lambda e: (_key(e[0]), _key(e[1])))


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(lat: Lattice, nota: Notation, title: str) -> str:
    lines = [
        f"digraph {_quote(title)} {{",
        "  // each type points to the types directly above it",
        "  rankdir=LR;",
        '  node [shape=box, fontname="Helvetica"];',
    ]
    for n in nodes(lat):
        style = ", style=dashed" if n.endswith("*") else ""
        lines.append(f"  {_quote(n)} [label={_quote(display(n, nota))}{style}];")
    lines += [f"  {_quote(a)} -> {_quote(b)};" for a, b in edges(lat)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_id(name: str) -> str:
    # Mermaid ids are words; "int*" becomes int_weak, "int32*" int32_weak.
    return re.sub(r"\W", "_", name.replace("*", "_weak"))


def to_mermaid(lat: Lattice, nota: Notation, title: str) -> str:
    lines = [
        "---",
        f"title: {title}",
        "---",
        "flowchart LR",
    ]
    weak = []
    for n in nodes(lat):
        lines.append(f'  {_mermaid_id(n)}["{display(n, nota)}"]')
        if n.endswith("*"):
            weak.append(_mermaid_id(n))
    lines += [f"  {_mermaid_id(a)} --> {_mermaid_id(b)}" for a, b in edges(lat)]
    if weak:
        lines.append("  classDef weak stroke-dasharray: 4 3")
        lines.append(f"  class {','.join(weak)} weak")
    return "\n".join(lines) + "\n"


def to_svg(dot: str) -> str:
    """Graphviz's drawing of ``dot``; a usage error when Graphviz is not installed."""
    exe = shutil.which("dot")
    if exe is None:
        raise UsageError(
            "--format svg needs Graphviz's `dot` program, which is not on PATH (Debian/Ubuntu:"
            " apt-get install graphviz); --format dot or mermaid need nothing"
        )
    done = subprocess.run([exe, "-Tsvg"], input=dot, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"Graphviz dot failed: {done.stderr.strip()}")
    return done.stdout


def render(policy: Policy, fmt: str, opts: Mapping[str, Any], nota: Notation) -> str:
    """The policy's lattice in ``fmt`` (dot, mermaid or svg); ``opts`` must be resolved."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown graph format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    lat = lattice_of(policy, opts)
    set_opts = ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}"
        for k, v in opts.items()
        if v != _default(policy, k)
    )
    title = f"{policy.title} type promotion lattice" + (f" ({set_opts})" if set_opts else "")
    if fmt == "mermaid":
        return to_mermaid(lat, nota, title)
    dot = to_dot(lat, nota, title)
    return to_svg(dot) if fmt == "svg" else dot


def _default(policy: Policy, name: str) -> Any:
    return next(o.default for o in policy.options if o.name == name)
