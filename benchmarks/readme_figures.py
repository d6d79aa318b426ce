"""Print (or ``--write``) the README's figures that promote itself computes, so they never drift:
the cells, random triples, values and spellings ``promote verify`` compares per policy. Each block
sits between ``<!-- figures:NAME -->`` and ``<!-- /figures:NAME -->`` in README.md;
tests/test_readme_figures.py fails when one differs from what this prints.

    python benchmarks/readme_figures.py           # print the blocks
    python benchmarks/readme_figures.py --write   # rewrite them in README.md
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def verify_cells() -> str:
    """The table of what ``promote verify`` checks per policy, from the policies and oracles."""
    from promote_cli import frameworks
    from promote_cli.verify import driver
    from promote_cli.verify.driver import oracle

    lines = [
        "| policy | framework (pip) | option settings | operands | cells | triples"
        " (x 2 questions) | values | spellings |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    totals = [0, 0, 0, 0]
    for name in frameworks.names():
        orc = oracle(name)
        if orc is None:
            continue
        pol = frameworks.get(name)
        combos = driver.settings(pol, {})
        settings = len(combos)
        # An option can add operands (NumPy's ml_dtypes): each distinct count, in setting order.
        counts = [len(pol.operands(opts)) for opts in combos]
        ops = " / ".join(str(n) for n in dict.fromkeys(counts))
        cells = sum(n**2 for n in counts)
        many = hasattr(orc, "answering_many")
        triples = sum(len(driver.triples(pol, settings, o)) for o in combos) if many else 0
        values = sum(len(driver.value_cells(pol, o)) for o in combos) if many else 0
        spellings = len(getattr(orc, "SPELLINGS", ()))
        for i, n in enumerate((cells, triples, values, spellings)):
            totals[i] += n
        lines.append(
            f"| `{name}` | `{orc.INSTALL}` | {settings} | {ops} | {cells:,} | {triples:,}"
            f" | {values:,} | {spellings:,} |"
        )
    lines.append("| all | | | | " + " | ".join(f"**{n:,}**" for n in totals) + " |")
    return "\n".join(lines) + "\n"


FIVE = [
    ("sqrt", ["int8"]),
    ("sum", ["uint8"]),
    ("divide", ["int32", "int32"]),
    ("mean", ["int32"]),
    ("argmax", ["float32"]),
]
FIVE_SETTINGS = [
    ("numpy", {}),
    ("torch", {}),
    ("jax", {}),
    ("jax", {"x64": "false"}),
    ("tensorflow", {}),
    ("array-api", {}),
    ("mlx", {}),
    ("keras", {}),
    ("keras", {"backend": "openvino", "floatx": "bfloat16"}),
    ("tinygrad", {}),
    ("paddle", {}),
    ("mindspore", {}),
]


def ops_five() -> str:
    """The issue's five calls as ``promote op NAME A [B] -p P`` prints them (canonical names)."""
    from promote_cli import api

    head = " | ".join(f"`{op}({', '.join(args)})`" for op, args in FIVE)
    lines = [f"| policy | {head} |", "| --- |" + " --- |" * len(FIVE)]
    for name, opts in FIVE_SETTINGS:
        cells = []
        for op, args in FIVE:
            req = api.request(name, notation="canonical", options=opts, operands=args, op=op)
            out = req.outcome()
            cells.append("refused" if out.refused else out.result)
        given = " ".join(f"-O {k}={v}" for k, v in opts.items())
        lines.append(f"| `{name}`{' ' + given if given else ''} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def ops_cells() -> str:
    """What ``promote verify`` calls per policy: operations, cells, and the cells the policy
    marks no-kernel (the gaps), from the declarations alone."""
    from promote_cli import frameworks, ops
    from promote_cli.errors import PromotionError
    from promote_cli.verify import driver

    lines = [
        "| policy | operations called | option settings | cells | kernel gaps |",
        "| --- | --- | --- | --- | --- |",
    ]
    total = gaps_total = 0
    for name in frameworks.names():
        pol = frameworks.get(name)
        try:
            declared = frameworks.operations(pol)
        except PromotionError:
            continue
        # A setting without rules is not called.
        combos = [o for o in driver.settings(pol, {}) if not isinstance(declared.under(o), str)]
        cells = gaps = called = 0
        for op in ops.VOCABULARY.values():
            if all(declared.under(o)[op.name].function is None for o in combos):  # type: ignore[index]
                continue
            called += 1
            if ops.takes_one(op):
                cases = [(x,) for x in ops.operands_of(declared, op)]
            else:
                found = ops.operands_of(declared, op)
                cases = [(a, b) for a in found for b in found]
                if op.arity != ops.WHERE:
                    cases = [c for c in cases if not all(x.category == "P" for x in c)]
            for opts in combos:
                for case in cases:
                    cells += 1
                    gaps += ops.answer(declared, op.name, case, opts)[0].rule == ops.NO_KERNEL
        total, gaps_total = total + cells, gaps_total + gaps
        lines.append(f"| `{name}` | {called} | {len(combos)} | {cells:,} | {gaps:,} |")
    lines.append(f"| all | | | **{total:,}** | **{gaps_total:,}** |")
    return "\n".join(lines) + "\n"


BLOCKS = {"verify-cells": verify_cells, "ops-five": ops_five, "ops-cells": ops_cells}


def block_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figures:{name} -->\n)(.*?)(<!-- /figures:{name} -->)", re.S)


def rewrite(text: str) -> str:
    for name, make in BLOCKS.items():
        pattern = block_pattern(name)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no <!-- figures:{name} --> block")
        body = make()
        text = pattern.sub(lambda m, body=body: m.group(1) + body + m.group(3), text)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the blocks in README.md")
    args = parser.parse_args()
    if args.write:
        README.write_text(rewrite(README.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    for name, make in BLOCKS.items():
        sys.stdout.write(f"<!-- figures:{name} -->\n{make()}<!-- /figures:{name} -->\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
