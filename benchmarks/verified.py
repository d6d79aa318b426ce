"""The README's "Verified against" table: ``promote verify --require --json`` over every policy,
printed as Markdown rows (framework version, option settings, cells, mismatches, seconds).

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
    head = ("policy", "framework", "version", "option settings", "cells", "mismatches")
    print(f"| {' | '.join(head)} | import | compare |")
    print("| --- " * (len(head) + 2) + "|")
    cells = 0
    for p in doc["policies"]:
        if p["status"] == "no-framework":
            print(f"| `{p['policy']}` | none installable | | | | | | |")
            continue
        if p["status"] not in ("verified", "mismatch"):
            print(f"| `{p['policy']}` | {p['framework']} | {p['status']}: {p['note']} | | | | | |")
            continue
        cells += p["cells"]
        print(
            f"| `{p['policy']}` | {p['framework']} | {p['version']} | {p['option_settings']}"
            f" | {p['cells']:,} | {len(p['mismatches'])} | {p['import_seconds']:.1f} s"
            f" | {p['seconds']:.1f} s |"
        )
    print(f"\n{cells:,} cells in {wall:.0f} s wall; exit {done.returncode}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
