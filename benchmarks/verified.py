"""The last full verify run: ``promote verify --require --json`` over every policy, kept as
``docs/verified.json`` (the measurement, with its wall time) and shown by the docs site's
"Verified against" table and the README's list of frameworks (``docs/figures.py`` reads it;
nothing is copied by hand).

    python benchmarks/verified.py [POLICY ...]           # run, print the table
    python benchmarks/verified.py --write                # run every policy, keep the result

The command exits 1 when a framework is missing or a cell mismatches, after printing the table;
``--write`` then keeps nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
sys.path.insert(0, str(DOCS))

import figures  # noqa: E402  (docs/ is on the path only from here)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policies", nargs="*", metavar="POLICY")
    parser.add_argument("--write", action="store_true", help=f"keep the run as {figures.VERIFIED}")
    parser.add_argument(
        "--note", default="", help="what to know about the machine it ran on, kept with the run"
    )
    args = parser.parse_args()
    if args.write and args.policies:
        parser.error("--write keeps a run of every policy: name none")
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "promote_cli", "verify", "--require", "--json", *args.policies],
        capture_output=True,
        text=True,
        check=False,
    )
    run = {
        "wall_seconds": round(time.perf_counter() - start),
        "note": args.note,
        "verify": json.loads(done.stdout),
    }
    sys.stdout.write(figures.last_run(run))
    print(f"exit {done.returncode}")
    if args.write and done.returncode == 0:
        figures.VERIFIED.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
