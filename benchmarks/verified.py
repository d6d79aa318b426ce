"""The README's "Verified against" table: ``promote verify --require --json`` over every policy,
printed as Markdown rows (framework version, option settings, pair cells, operation cells and
kernel gaps, mismatches, seconds).

    python benchmarks/verified.py [POLICY ...]

The command exits 1 when a framework is missing or a cell mismatches, after printing the table.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time


def main() -> int:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "verify", "--require", "--json", *sys.argv[1:]],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    doc = json.loads(done.stdout)
    head = ("policy", "framework", "version", "option settings", "pair cells", "operation cells")
    tail = ("kernel gaps", "mismatches", "import", "pairs and beyond", "operations")
    print(f"| {' | '.join(head + tail)} |")
    print("| --- " * (len(head) + len(tail)) + "|")
    blank = " |" * (len(head) + len(tail) - 2)
    cells = op_cells = 0
    for p in doc["policies"]:
        if p["status"] == "no-framework":
            print(f"| `{p['policy']}` | none installable |{blank}")
            continue
        if p["status"] not in ("verified", "mismatch"):
            print(f"| `{p['policy']}` | {p['framework']} | {p['status']}: {p['note']} |{blank[2:]}")
            continue
        ops = p["operations"] or {}
        op_total, gaps = sum(ops.get("cells", {}).values()), sum(ops.get("gaps", {}).values())
        mismatches = len(p["mismatches"]) + len(ops.get("mismatches", []))
        cells, op_cells = cells + p["cells"], op_cells + op_total
        print(
            f"| `{p['policy']}` | {p['framework']} | {p['version']} | {p['option_settings']}"
            f" | {p['cells']:,} | {op_total:,} | {gaps:,} | {mismatches}"
            f" | {p['import_seconds']:.1f} s | {p['seconds']:.1f} s"
            f" | {ops.get('seconds', 0.0):.1f} s |"
        )
    print(
        f"\n{cells:,} pair cells and {op_cells:,} operation cells in {wall:.0f} s wall;"
        f" exit {done.returncode}"
    )
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
