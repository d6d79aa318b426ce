"""The last full verify run: ``promote verify --require --json`` over every policy, kept as
``docs/verified.json`` (the measurement, with its wall time) and shown by the docs site's
"Verified against" table and the README's list of frameworks (``docs/figures.py`` reads it;
nothing is copied by hand).

    python benchmarks/verified.py [POLICY ...]           # run, print the table
    python benchmarks/verified.py --write                # run every policy, keep the result
    python benchmarks/verified.py --write POLICY ...     # run these again, keep them in it

A run of some policies replaces their entries in the kept run and is listed after it, with its
date, its wall time and the policies it ran (``later``): the table then says which figures come
from which run. A full ``--write`` starts the record again.

The command exits 1 when a framework is missing or a cell mismatches, after printing the table;
``--write`` then keeps nothing.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path

from promote_cli import atomic

DOCS = Path(__file__).resolve().parents[1] / "docs"
sys.path.insert(0, str(DOCS))

import figures  # noqa: E402  (docs/ is on the path only from here)


def updated(kept: dict, run: dict, policies: list[str], date: str) -> dict:
    """``kept`` with the entries of ``policies`` replaced by ``run``'s (every other entry, and
    the order, as kept), and ``run`` listed in ``later`` with ``date``."""
    fresh = {p["policy"]: p for p in run["verify"]["policies"]}
    missing = [name for name in policies if name not in fresh]
    if missing:
        raise ValueError(f"the run has no entry for {', '.join(missing)}")
    entries = [fresh.get(p["policy"], p) for p in kept["verify"]["policies"]]
    # a framework added since the kept run (the recipe's last step) joins it at the end
    known = {p["policy"] for p in entries}
    entries += [fresh[name] for name in policies if name not in known]
    ok = all(p["status"] in ("verified", "no-framework") for p in entries)
    later = {
        "policies": policies,
        "date": date,
        "wall_seconds": run["wall_seconds"],
        "note": run["note"],
    }
    return {
        **kept,
        "verify": {**kept["verify"], "ok": ok, "policies": entries},
        "later": [*kept.get("later", []), later],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policies", nargs="*", metavar="POLICY")
    parser.add_argument(
        "--write",
        action="store_true",
        help=f"keep the run as {figures.VERIFIED} (of POLICY ...: in the run kept there)",
    )
    parser.add_argument(
        "--note", default="", help="what to know about the machine it ran on, kept with the run"
    )
    args = parser.parse_args()
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
        if args.policies:
            today = datetime.date.today().isoformat()
            run = updated(figures.kept(), run, args.policies, today)
        atomic.replace_file(figures.VERIFIED, (json.dumps(run, indent=1) + "\n").encode())
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
