"""Lattices are declared one way: a grid in the policy's notation, read by ``read_edges``; the
lattice policies share one least-upper-bound answer and one refusal."""

from __future__ import annotations

import itertools

import pytest

from promote_cli import frameworks
from promote_cli.errors import PolicyDefinitionError
from promote_cli.frameworks import get
from promote_cli.lattice import Lattice, LatticePolicy, read_edges
from promote_cli.operands import Operand

JAX = frameworks.notation("jax")


def test_a_grid_in_jax_notation_reads_to_canonical_edges():
    edges = read_edges(
        """
b1   i*
i*   i1 int4
i1   i2
i2
int4
""",
        JAX,
    )
    assert edges == {
        "bool": ("int*",),
        "int*": ("int8", "int4"),  # int4 has no JAX label: its canonical name is the label
        "int8": ("int16",),
        "int16": (),
        "int4": (),
    }


def test_a_line_starting_with_a_space_continues_the_type_above():
    edges = read_edges("f*   bf f2\n     f4\nbf\nf2\nf4\n", JAX)
    assert edges["float*"] == ("bfloat16", "float16", "float32")


def test_a_label_the_notation_does_not_print_is_an_error_naming_the_line():
    # i1 is int8 in JAX notation; "s1" is only an input alias there, and "int64" prints as i8.
    with pytest.raises(PolicyDefinitionError, match=r"line 2 \('i1  s1'\): 's1' is not a type"):
        read_edges("b1  i1\ni1  s1\n", JAX)
    with pytest.raises(PolicyDefinitionError, match=r"line 1 .*'int64' is not a type in jax"):
        read_edges("i4  int64\n", JAX)


def test_a_type_declared_twice_is_an_error_naming_both_lines():
    with pytest.raises(PolicyDefinitionError, match=r"line 3 .*i1 is declared twice .*line 1"):
        read_edges("i1  i2\ni2\ni1  i4\ni4\n", JAX)


def test_a_continuation_with_nothing_above_is_an_error():
    with pytest.raises(PolicyDefinitionError, match=r"line 1 .*continuation"):
        read_edges("   i2\ni2\n", JAX)


def test_an_edge_to_an_undeclared_type_is_an_error():
    with pytest.raises(PolicyDefinitionError, match="int8 -> int16: int16 undeclared"):
        Lattice(read_edges("i1  i2\n", JAX))


@pytest.mark.parametrize("name", ["jax", "tensorflow", "array-api"])
def test_every_lattice_policy_shares_the_one_base(name):
    pol = get(name)
    assert isinstance(pol, LatticePolicy)
    assert pol.lattice_for(pol.resolve_options()).edges == pol.lattice.edges


@pytest.mark.parametrize(
    ("name", "a", "b", "rule", "why"),
    [
        # Each policy words the refusal when two types have no common upper bound.
        ("jax", "float8_e5m2", "float16", "lattice", "8-bit floats such as float8_e5m2 do"),
        # float64 is not a 6-bit float: the reason comes from the catalogue, not the name.
        ("jax", "float64", "int1", "lattice", "1-, 2- and 4-bit integers such as int1"),
        ("jax", "float4_e2m1fn", "bool", None, None),  # bool is below every type
        ("tensorflow", "string", "int8", "lattice", "does not convert between string and i8"),
        ("array-api", "int8", "float32", "unspecified", "between kinds (floating and integer)"),
        ("array-api", "uint64", "int64", "unspecified", "uint64 with a signed integer"),
    ],
)
def test_no_upper_bound_is_the_policys_refusal(name, a, b, rule, why):
    pol = get(name)
    out = pol.promote(Operand(a), Operand(b), pol.resolve_options())
    if rule is None:
        assert out.result == a
        return
    assert out.refused and out.rule == rule
    assert why in out.text(frameworks.notation_of(pol))


def test_the_bound_is_explained_by_each_chain_in_the_policys_notation():
    pol = get("jax")
    out = pol.promote(Operand("uint8"), Operand("int8"), pol.resolve_options())
    assert out.result == "int16"
    assert out.text(frameworks.notation_of(pol)) == "u1 -> i2 and i1 -> i2: they meet at i2"
    # The same outcome read by someone who asked in canonical names:
    canonical = frameworks.notation("canonical")
    assert out.text(canonical) == "uint8 -> int16 and int8 -> int16: they meet at int16"


def _builtin_lattices() -> list[tuple[str, Lattice]]:
    from promote_cli.verify.cases import settings

    found: dict[int, tuple[str, Lattice]] = {}
    for name in frameworks.names():
        pol = get(name)
        if isinstance(pol, LatticePolicy):
            for opts in settings(pol):
                lat = pol.lattice_for(pol.resolve_options(opts))
                found.setdefault(id(lat), (f"{name} {opts}", lat))
    return list(found.values())


BUILTIN = _builtin_lattices()


def test_the_builtin_lattices_cover_every_lattice_framework_and_setting():
    # jax: one lattice per setting of x64 x strict; array-api, mlx, tensorflow, tinygrad: one.
    names = sorted({label.split()[0] for label, _ in BUILTIN})
    assert names == ["array-api", "jax", "mlx", "tensorflow", "tinygrad"]
    assert len([label for label, _ in BUILTIN if label.startswith("jax ")]) == 4


def _above(edges: dict[str, tuple[str, ...]], node: str) -> set[str]:
    """``node`` and every node its edges reach, walked here without the Lattice's closure."""
    seen, todo = {node}, [node]
    while todo:
        for up in edges[todo.pop()]:
            if up not in seen:
                seen.add(up)
                todo.append(up)
    return seen


@pytest.mark.parametrize(("label", "lat"), BUILTIN, ids=[label for label, _ in BUILTIN])
def test_every_builtin_lattice_has_one_least_bound_per_pair(label, lat):
    # promote's own lattices skip this check at run time (``check=False``): this is the proof,
    # from the declared edges alone. Two nodes meet at one bound or at none (a refusal); a
    # lattice with a tie-break order (tinygrad's) may have two minimal bounds, and answers the
    # first in that order.
    above = {node: _above(lat.edges, node) for node in lat.edges}
    for a, b in itertools.combinations_with_replacement(sorted(lat.edges), 2):
        common = above[a] & above[b]
        least = sorted(c for c in common if common <= above[c])
        minimal = [c for c in common if not any(c in above[d] - {d} for d in common)]
        if not lat.rank:  # none (a refusal) or one
            assert len(minimal) <= 1 and least == minimal, f"{label}: {a}, {b} meet at {minimal}"
        want = min(minimal, key=lat.rank.__getitem__) if len(minimal) > 1 else None
        assert lat.lub(a, b) == (least[0] if least else want), f"{label}: {a} and {b}"


def test_an_unchecked_lattice_with_two_least_bounds_refuses_when_asked():
    edges = {"a": ("c", "d"), "b": ("c", "d"), "c": (), "d": ()}
    with pytest.raises(PolicyDefinitionError, match="a and b have no unique least bound"):
        Lattice(edges)
    unchecked = Lattice(edges, check=False)
    assert unchecked.lub("a", "c") == "c"
    with pytest.raises(PolicyDefinitionError, match="a and b have no unique least bound"):
        unchecked.lub("a", "b")
