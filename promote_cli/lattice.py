"""Promotion lattices: declared by their direct edges, closed once, checked, cached.

A lattice policy lists for each type the types *directly* above it. The closure (every upper
bound of every node) is computed once; a cycle, an edge to an undeclared node, or a pair with
two incomparable least upper bounds is a ``PolicyDefinitionError``, raised when the lattice is
built, not when a user happens to ask for the bad pair.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from itertools import combinations

from promote_cli.errors import PolicyDefinitionError


class Lattice:
    def __init__(self, edges: Mapping[str, Sequence[str]]):
        self.edges = {node: tuple(up) for node, up in edges.items()}
        for node, ups in self.edges.items():
            for up in ups:
                if up not in self.edges:
                    raise PolicyDefinitionError(f"lattice edge {node} -> {up}: {up} undeclared")
        self.upper = self._close()
        self._check_unique_lubs()

    def _close(self) -> dict[str, frozenset[str]]:
        upper: dict[str, frozenset[str]] = {}
        for start in self.edges:
            seen = {start}
            todo = deque(self.edges[start])
            while todo:
                node = todo.popleft()
                if node == start:
                    raise PolicyDefinitionError(f"lattice has a cycle through {start}")
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
                raise PolicyDefinitionError(f"lattice: {a} and {b} have no unique least bound")

    def lub(self, *nodes: str) -> str | None:
        """The least upper bound, or None when the nodes have no common upper bound."""
        common = frozenset.intersection(*(self.upper[n] for n in nodes))
        least = [c for c in common if common <= self.upper[c]]
        return least[0] if least else None

    def chain(self, start: str, top: str) -> list[str]:
        """A shortest path of direct edges from ``start`` up to ``top``."""
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

    def explain(self, nodes: Sequence[str], top: str, label: Callable[[str], str]) -> str:
        """``a -> b and c -> b: they meet at b``: each distinct node's chain up to ``top``."""
        chains = [" -> ".join(map(label, self.chain(n, top))) for n in dict.fromkeys(nodes)]
        return f"{' and '.join(chains)}: they meet at {label(top)}"

    @cached_property
    def hasse(self) -> tuple[tuple[str, str], ...]:
        """The covering edges (a -> b with nothing between): the lattice's picture."""
        out = []
        for node, ups in self.edges.items():
            for up in ups:
                if not any(up in self.upper[mid] for mid in ups if mid != up):
                    out.append((node, up))
        return tuple(out)
