"""What ``promote verify`` costs per policy, against the policy answering the same cells alone.

For every policy whose framework is installed: the framework's import time, the time to compare
every cell (each cell asked of the policy and of the framework), and as the baseline the time the
policy alone takes for the same cells, measured in this run. The ratio is what asking the real
framework costs; OpenVINO, which builds a graph node per cell, is the expensive one.

    python benchmarks/bench_verify.py [POLICY ...]
"""

from __future__ import annotations

import itertools
import sys
import time

from promote_cli import frameworks
from promote_cli.verify import driver


def policy_alone(name: str) -> float:
    policy = frameworks.get(name)
    ops = policy.operands()
    start = time.perf_counter()
    for opts in driver.settings(policy):
        for a, b in itertools.product(ops, ops):
            policy.promote(a, b, opts)
    return time.perf_counter() - start


def main() -> None:
    names = sys.argv[1:] or [n for n in driver.names() if n in frameworks.names()]
    print(f"{'policy':10s} {'cells':>8s} {'import':>8s} {'verify':>8s} {'alone':>8s} {'ratio':>7s}")
    total = 0.0
    for name in names:
        report = driver.verify(frameworks.get(name))
        if report.status not in (driver.VERIFIED, driver.MISMATCH):
            print(f"{name:10s} {report.status}")
            continue
        alone = policy_alone(name)
        total += report.import_seconds + report.seconds
        print(
            f"{name:10s} {report.cells:8,d} {report.import_seconds:7.2f}s {report.seconds:7.2f}s"
            f" {alone:7.3f}s {report.seconds / alone:6.1f}x"
        )
    print(f"total import + verify: {total:.2f}s")


if __name__ == "__main__":
    main()
