"""Cost of ``promote check`` on the largest built-in policy with every operand category (every
ordered triple), against ``python -c "import numpy"``.

Target: under 2 s. The largest policy is the one with the most operands (``Policy.operands()``:
its types as arrays and 0-d arrays and its Python scalars). Both commands run alternately in
fresh processes (the machine is noisy); the medians and their ratio are printed, and the time
spent inside ``check`` itself, measured in this process.

    python benchmarks/bench_check.py [--runs 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

from promote_cli import api, frameworks
from promote_cli.check import check, table_operands


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    largest = max(frameworks.names(), key=lambda n: len(frameworks.get(n).operands()))
    ops = table_operands(frameworks.get(largest), True)
    promote = shutil.which("promote")
    entry = [promote] if promote else [sys.executable, "-m", "promote_cli"]
    cases = {
        'python -c "import numpy"': [sys.executable, "-c", "import numpy"],
        f"promote check {largest} --categories": [*entry, "check", largest, "--categories"],
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    for cmd in cases.values():
        wall(cmd)  # warm the page cache and the bytecode
    for _ in range(args.runs):
        for name, cmd in cases.items():
            times[name].append(wall(cmd))

    inside = []
    for _ in range(args.runs):
        req = api.request(largest)
        start = time.perf_counter()
        check(req, ops)
        inside.append(time.perf_counter() - start)

    n = len(ops)
    print(f"{largest}: {n} operands, {n**3:,} ordered triples; {args.runs} runs, medians:")
    medians = {name: statistics.median(t) for name, t in times.items()}
    for name, m in medians.items():
        print(f"  {name:<40} {m:.3f} s")
    print(f"  {'check() in process':<40} {statistics.median(inside):.3f} s")
    floor, ours = medians.values()
    print(f"ratio to import numpy: {ours / floor:.1f}x (target: under 2 s)")


if __name__ == "__main__":
    main()
