"""Pictures of a promotion lattice: its Hasse diagram (each type linked to the types directly
above it) as Graphviz DOT, Mermaid (bare, or in a Markdown page GitHub draws), or SVG drawn by
Graphviz's ``dot``.

DOT and Mermaid are plain text built here, byte-identical on every machine: nodes and edges are
sorted by the catalogue's order, and ``promote tables`` checks them in. SVG depends on the
installed Graphviz, so it is made only on request. Weak types (Python scalars) are drawn
dashed, and a key box beside the lattice says so; the arrows point up the lattice, left to
right, like the lattice picture on JAX's page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from promote_cli.dtypes import CATALOGUE, is_weak
from promote_cli.engine import Policy
from promote_cli.errors import BadInputError, UsageError
from promote_cli.lattice import Lattice, declared_lattice
from promote_cli.notations import Notation, display

if TYPE_CHECKING:
    from promote_cli.api import Request

FORMATS = ("dot", "mermaid", "markdown", "svg")
KEY_WEAK = "a dashed box is a weak type (a Python scalar)"
_ORDER = {name: i for i, name in enumerate(CATALOGUE)}


def lattice_of(policy: Policy, opts: Mapping[str, Any]) -> Lattice:
    """The policy's lattice under ``opts`` (resolved), or a usage error naming the lattices."""
    lat = declared_lattice(policy, opts)
    if lat is None:
        from promote_cli import frameworks

        have = [n for n in frameworks.names() if has_lattice(frameworks.get(n))]
        raise UsageError(
            f"{policy.name} is not a lattice policy, so it has no lattice to draw"
            f" (lattice policies: {', '.join(have)}); try `promote table --policy {policy.name}`"
        )
    return lat


def has_lattice(policy: Policy) -> bool:
    """Whether the policy promotes on a declared lattice (drawable), whether or not its answers
    are that lattice's least bounds (MLX materialises them, tinygrad breaks ties)."""
    return declared_lattice(policy, policy.resolve_options()) is not None


def _key(name: str) -> tuple[int, str]:
    return (_ORDER.get(name, len(_ORDER)), name)


def nodes(lat: Lattice) -> list[str]:
    return sorted(lat.edges, key=_key)


def edges(lat: Lattice) -> list[tuple[str, str]]:
    return sorted(lat.hasse, key=lambda e: (_key(e[0]), _key(e[1])))


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# How a drawing runs up the lattice: left to right (``promote graph``'s), or bottom to top, which
# is narrower for most lattices (a docs page's column).
DIRECTIONS = {"right": "LR", "up": "BT"}


def to_dot(
    lat: Lattice, nota: Notation, title: str, header: str = "", direction: str = "right"
) -> str:
    lines = [f"// {header}"] if header else []
    lines += [
        f"digraph {_quote(title)} {{",
        "  // each type points to the types directly above it",
        f"  rankdir={DIRECTIONS[direction]};",
        '  node [shape=box, fontname="Helvetica"];',
    ]
    for n in nodes(lat):
        style = ", style=dashed" if is_weak(n) else ""
        lines.append(f"  {_quote(n)} [label={_quote(display(n, nota))}{style}];")
    lines += [f"  {_quote(a)} -> {_quote(b)};" for a, b in edges(lat)]
    if any(is_weak(n) for n in nodes(lat)):
        lines += [
            "  subgraph cluster_key {",
            '    label="key"; style=dotted; fontname="Helvetica";',
            f'    "key: weak" [label={_quote(KEY_WEAK)}, style=dashed];',
            "  }",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_id(name: str) -> str:
    # Mermaid ids are words; "int*" becomes int_weak, "int32*" int32_weak.
    return re.sub(r"\W", "_", name.replace("*", "_weak"))


def to_mermaid(lat: Lattice, nota: Notation, title: str | None, header: str = "") -> str:
    lines = ["---", f"title: {title}", "---"] if title else []
    lines.append("flowchart LR")
    if header:
        lines.append(f"  %% {header}")
    weak = []
    for n in nodes(lat):
        lines.append(f'  {_mermaid_id(n)}["{display(n, nota)}"]')
        if is_weak(n):
            weak.append(_mermaid_id(n))
    lines += [f"  {_mermaid_id(a)} --> {_mermaid_id(b)}" for a, b in edges(lat)]
    if weak:
        lines.append(f'  key_weak["key: {KEY_WEAK}"]')
        lines.append("  classDef weak stroke-dasharray: 4 3")
        lines.append(f"  class {','.join(weak)} weak")
        lines.append("  class key_weak weak")
    return "\n".join(lines) + "\n"


def to_markdown(lat: Lattice, nota: Notation, title: str, header: str) -> str:
    """A Markdown page around the Mermaid graph: GitHub draws the fenced block."""
    return (
        f"<!-- {header} -->\n"
        f"# {title}\n\n"
        "Each type points to the types directly above it; two types promote to the first type"
        " both reach. Dashed boxes are weak types (Python scalars).\n\n"
        f"```mermaid\n{to_mermaid(lat, nota, None)}```\n"
    )


def to_svg(dot: str) -> str:
    """Graphviz's drawing of ``dot``; a usage error when Graphviz is not installed."""
    exe = shutil.which("dot")
    if exe is None:
        raise UsageError(
            "--format svg needs Graphviz's `dot` program, which is not on PATH (Debian/Ubuntu:"
            " apt-get install graphviz); the other formats need nothing"
        )
    done = subprocess.run([exe, "-Tsvg"], input=dot, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BadInputError(f"Graphviz dot failed: {done.stderr.strip()}")
    return done.stdout


def render(req: Request, fmt: str, direction: str = "right") -> str:
    """The lattice of ``req``'s policy under its options, labelled in its notation, drawn in
    ``direction`` (dot and svg). Text formats start with the command that prints them."""
    from promote_cli import __version__

    if fmt not in FORMATS:
        raise UsageError(f"unknown graph format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    policy, nota = req.policy, req.notation
    lat = lattice_of(policy, req.options)
    changed = req.changed_options()
    title = f"{policy.title} type promotion lattice" + (
        f" ({', '.join(changed)})" if changed else ""
    )
    command = req.command("graph", "--format", fmt)
    header = f"generated by promote {__version__}: {command}; edit the generator, not this file"
    if fmt == "mermaid":
        return to_mermaid(lat, nota, title, header)
    if fmt == "markdown":
        return to_markdown(lat, nota, title, header)
    if fmt == "svg":
        return to_svg(to_dot(lat, nota, title, direction=direction))
    return to_dot(lat, nota, title, header, direction)
