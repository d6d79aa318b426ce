"""Promotion lattices: declared by their direct edges, closed once, checked, cached; and the
base of every lattice policy.

A lattice policy declares, as a small grid in its own notation, each type and the types
*directly* above it (``read_edges``). The closure (every upper bound of every node) is computed
once; a cycle, an edge to an undeclared node, or a pair with two incomparable least upper bounds
is a ``PolicyDefinitionError``, raised when the lattice is built, not when a user happens to ask
for the bad pair. ``LatticePolicy`` answers with the least upper bound and refuses, with the
policy's reason, when there is none.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from functools import cached_property
from itertools import combinations
from typing import Any, ClassVar

from promote_cli.engine import IDEMPOTENT, LATTICE, SYMMETRIC, Outcome, Policy, ref, refuse
from promote_cli.errors import PolicyDefinitionError
from promote_cli.notations import Column, Notation
from promote_cli.operands import Operand


def read_edges(text: str, nota: Column | Notation) -> dict[str, tuple[str, ...]]:
    """The edges a grid declares: each line is a type and the types directly above it, as
    ``nota`` prints them; a line that starts with a space continues the line before it. A type
    alone on its line has nothing above it."""
    labels = nota.by_label()
    edges: dict[str, tuple[str, ...]] = {}
    first_line: dict[str, int] = {}
    node = None
    for number, line in enumerate(text.strip("\n").splitlines(), 1):
        if not line.strip():
            continue
        where = f"declaration line {number} ({line.strip()!r})"
        words = line.split()
        for word in words:
            if word not in labels:
                raise PolicyDefinitionError(
                    f"{where}: {word!r} is not a type in {nota.name} notation"
                )
        if line[0].isspace():
            if node is None:
                raise PolicyDefinitionError(f"{where}: a continuation with no type before it")
            edges[node] += tuple(labels[w] for w in words)
            continue
        node, ups = labels[words[0]], tuple(labels[w] for w in words[1:])
        if node in edges:
            raise PolicyDefinitionError(
                f"{where}: {words[0]} is declared twice (first on line {first_line[node]})"
            )
        edges[node], first_line[node] = ups, number
    return edges


class Lattice:
    """A closed, checked lattice. ``tie_break`` (optional) is an order of every node that picks
    between two incomparable least bounds, as tinygrad's ``DType`` order does; it must list each
    node above the nodes below it. Without it two least bounds are a definition error.

    ``check=False`` is for promote's own lattices only: that every pair of their nodes has a
    unique least bound is proven by ``tests/properties/test_lattice_declaration.py`` for every
    option setting, so a run does not repeat the quadratic check (a third of ``promote pair``'s own
    work). A lattice read from a policy file is always checked, and an unchecked one that turns
    out to have two least bounds is still an error, when they are asked for."""

    def __init__(
        self,
        edges: Mapping[str, Sequence[str]],
        tie_break: Sequence[str] = (),
        *,
        check: bool = True,
    ):
        self.edges = {node: tuple(up) for node, up in edges.items()}
        for node, ups in self.edges.items():
            for up in ups:
                if up not in self.edges:
                    raise PolicyDefinitionError(
                        f"lattice edge {node} -> {up}: {up} undeclared", nodes=(node,)
                    )
        self.upper = self._close()
        self.rank = {node: i for i, node in enumerate(tie_break)}
        # The answers below depend on the lattice alone, which never changes once built: each
        # is computed once (a verify or the offline comparison asks the same bounds again and
        # again, the chains and explanations of ``explain`` most of all).
        self._minimal: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._lub: dict[tuple[str, ...], str | None] = {}
        self._chain: dict[tuple[str, str], tuple[str, ...]] = {}
        self._explain: dict[tuple[tuple[str, ...], str], str] = {}
        if tie_break:
            self._check_tie_break()
        elif check:
            self._check_unique_lubs()

    def _check_tie_break(self) -> None:
        if set(self.rank) != set(self.edges):
            raise PolicyDefinitionError("lattice: the tie-break order must list every node once")
        for node, ups in self.edges.items():
            for up in ups:
                if self.rank[up] < self.rank[node]:
                    raise PolicyDefinitionError(
                        f"lattice: the tie-break order puts {up} before {node}, which is below it"
                    )

    def _close(self) -> dict[str, frozenset[str]]:
        upper: dict[str, frozenset[str]] = {}
        for start in self.edges:
            seen = {start}
            todo = deque(self.edges[start])
            while todo:
                node = todo.popleft()
                if node == start:
                    raise PolicyDefinitionError(
                        f"lattice has a cycle through {start}", nodes=(start,)
                    )
                if node not in seen:
                    seen.add(node)
                    todo.extend(self.edges[node])
            upper[start] = frozenset(seen)
        return upper

    def _check_unique_lubs(self) -> None:
        for a, b in combinations(self.edges, 2):
            common = self.upper[a] & self.upper[b]
            least = {c for c in common if common <= self.upper[c]}
            if common and len(least) != 1:
                minimal = [c for c in common if not any(c in self.upper[d] - {d} for d in common)]
                raise PolicyDefinitionError(
                    f"lattice: {a} and {b} have no unique least bound"
                    f" (both {' and '.join(sorted(minimal))} are minimal)",
                    nodes=(a, b),
                )

    def lub(self, *nodes: str) -> str | None:
        """The least upper bound, or None when the nodes have no common upper bound; with a
        tie-break order, the first of the minimal common bounds in that order."""
        if nodes in self._lub:
            return self._lub[nodes]
        least = self.minimal(*nodes)
        if len(least) > 1 and not self.rank:  # only an unchecked lattice gets here
            raise PolicyDefinitionError(
                f"lattice: {' and '.join(nodes)} have no unique least bound"
                f" (both {' and '.join(sorted(least))} are minimal)",
                nodes=tuple(nodes),
            )
        if len(least) > 1:
            found: str | None = min(least, key=self.rank.__getitem__)
        else:
            found = least[0] if least else None
        self._lub[nodes] = found
        return found

    def minimal(self, *nodes: str) -> list[str]:
        """The minimal common upper bounds: one (the least) unless a tie-break decides."""
        if nodes not in self._minimal:
            common = frozenset.intersection(*(self.upper[n] for n in nodes))
            self._minimal[nodes] = tuple(
                c for c in common if not any(c in self.upper[o] for o in common if o != c)
            )
        return list(self._minimal[nodes])

    def chain(self, start: str, top: str) -> list[str]:
        """A shortest path of direct edges from ``start`` up to ``top``."""
        if (start, top) not in self._chain:
            self._chain[start, top] = tuple(self._shortest(start, top))
        return list(self._chain[start, top])

    def _shortest(self, start: str, top: str) -> list[str]:
        paths = {start: [start]}
        todo = deque([start])
        while todo:
            node = todo.popleft()
            if node == top:
                return paths[node]
            for up in self.edges[node]:
                if up not in paths:
                    paths[up] = [*paths[node], up]
                    todo.append(up)
        raise ValueError(f"{top} is not above {start}")

    def explain(self, nodes: Sequence[str], top: str) -> str:
        """``a -> b and c -> b: they meet at b``: each distinct node's chain up to ``top``."""
        key = (tuple(nodes), top)
        if key not in self._explain:
            chains = [" -> ".join(map(ref, self.chain(n, top))) for n in dict.fromkeys(nodes)]
            self._explain[key] = f"{' and '.join(chains)}: they meet at {ref(top)}"
        return self._explain[key]

    @cached_property
    def hasse(self) -> tuple[tuple[str, str], ...]:
        """The covering edges (a -> b with nothing between): the lattice's picture."""
        out = []
        for node, ups in self.edges.items():
            for up in ups:
                if not any(up in self.upper[mid] for mid in ups if mid != up):
                    out.append((node, up))
        return tuple(out)


def declared_lattice(policy: Policy, opts: Mapping[str, Any]) -> Lattice | None:
    """The lattice ``policy`` promotes on under ``opts``, or None when it is no lattice (a
    lattice policy, or a policy file that extends one, declares ``lattice_for``)."""
    declared = getattr(policy, "lattice_for", None)
    return None if declared is None else declared(opts)


class LatticePolicy(Policy):
    """A policy whose answer is the least upper bound of its operands on a declared lattice.

    A subclass declares ``edges`` (the grid ``read_edges`` reads, in the policy's notation) or
    overrides ``lattice_for`` when options change the lattice; it words its refusal in
    ``why_unbounded`` and may adjust the nodes (``nodes``) and the answer (``bounded``)."""

    edges: ClassVar[str]
    properties = frozenset({SYMMETRIC, IDEMPOTENT, LATTICE})
    unbounded_rule: ClassVar[str] = "lattice"  # the refusal's rule when there is no bound

    @cached_property
    def lattice(self) -> Lattice:
        """The declared lattice, read once (promote's own; the tests check it)."""
        return Lattice(read_edges(self.edges, self.declared_in), check=False)

    def lattice_for(self, opts: Mapping[str, Any]) -> Lattice:
        return self.lattice

    def node(self, op: Operand) -> str:
        """The operand's lattice node: its type (a Python scalar's is its weak type)."""
        return op.dtype

    def nodes(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> list[str]:
        return [self.node(op) for op in operands]

    def decide(self, a: Operand, b: Operand, opts: Mapping[str, Any]) -> Outcome:
        return self.least_bound([a, b], opts)

    def least_bound(self, operands: Sequence[Operand], opts: Mapping[str, Any]) -> Outcome:
        """The least upper bound of the operands' nodes, or the policy's refusal."""
        lat = self.lattice_for(opts)
        nodes = self.nodes(operands, opts)
        top = lat.lub(*nodes)
        if top is None:
            return refuse(self.unbounded_rule, self.why_unbounded(nodes, operands, opts))
        return self.bounded(lat, nodes, top, opts)

    def bounded(
        self, lat: Lattice, nodes: Sequence[str], top: str, opts: Mapping[str, Any]
    ) -> Outcome:
        """The answer once the bound ``top`` is found: the bound, explained by its chains."""
        return Outcome(top, "lattice", lat.explain(nodes, top))

    def why_unbounded(
        self, nodes: Sequence[str], operands: Sequence[Operand], opts: Mapping[str, Any]
    ) -> str:
        """Why the nodes have no common upper bound (the refusal's reason)."""
        names = " and ".join(map(ref, dict.fromkeys(nodes)))
        return f"{names} have no common type in {self.title}'s lattice"
