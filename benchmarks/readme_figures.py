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
    from promote_cli import policies
    from promote_cli.verify import driver, oracle

    lines = [
        "| policy | framework (pip) | option settings | operands | cells | triples"
        " (x 2 questions) | values | spellings |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    totals = [0, 0, 0, 0]
    for name in policies.names():
        orc = oracle(name)
        if orc is None:
            continue
        pol = policies.get(name)
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


BLOCKS = {"verify-cells": verify_cells}


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
