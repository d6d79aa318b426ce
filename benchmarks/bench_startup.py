"""Start-up cost of ``promote pair`` and ``promote op`` against the floor of ``python -c
"import click"``.

promote pair is run in loops and scripts, so its wall time is mostly interpreter start-up and
imports. Each command is run alternately with the floor, many times, in this one process'
lifetime (the machine is noisy); the median of each and their ratio are printed. Target: ratio
<= 1.2.

``--instructions`` counts instead the instructions each command executes, under ``valgrind
--tool=callgrind`` (Debian's ``valgrind``): the same on a busy machine as on an idle one, so a
change's effect on start-up can be measured while other work runs. It leaves out what waits on
the disk and the kernel, so its ratios run a little below the wall-clock ones. String hashing is
randomised per process, which still moves a count by about 0.3 M from run to run
(``PYTHONHASHSEED=0`` fixes it, at one arbitrary point of that spread).

    python benchmarks/bench_startup.py [--runs 40] [--instructions [--write]]

``--write`` keeps the counts in docs/benchmarks.json (``startup``), with the date and commit:
the guide's start-up table and the README's one speed figure are built from it
(docs/figures.py).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

# An installed package has compiled bytecode (pip writes it), and so has click; let a source
# checkout write its own during the warm-up instead of compiling on every run.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - start


def instructions(cmd: list[str]) -> int:
    """The instructions ``cmd`` executes (callgrind's total, every process it starts)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        sys.exit(f"valgrind printed no count for {' '.join(cmd)}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under valgrind"
    )
    parser.add_argument(
        "--write", action="store_true", help="with --instructions: keep the counts for the docs"
    )
    args = parser.parse_args()
    if args.write and not args.instructions:
        parser.error("--write keeps instruction counts: give --instructions")

    promote = shutil.which("promote")
    entry = [promote] if promote else [sys.executable, "-m", "promote_cli"]
    cases = {
        "floor: python -c 'import click'": [sys.executable, "-c", "import click"],
        "promote pair f16 bf16 (jax)": [*entry, "pair", "f16", "bf16"],
        "promote pair f16 bf16 (openvino, unsafe)": [
            *entry,
            "pair",
            "f16",
            "bf16",
            "-p",
            "openvino",
            "-O",
            "promote_unsafe=true",
        ],
        "promote pair u16 f32 (ascend, refusal)": [*entry, "pair", "u16", "f32", "-p", "ascend"],
        "promote op sqrt int8 -p numpy": [*entry, "op", "sqrt", "int8", "-p", "numpy"],
        "promote op divide i32 i32 -p tensorflow": [
            *entry,
            "op",
            "divide",
            "i32",
            "i32",
            "-p",
            "tensorflow",
        ],
    }
    if args.instructions:
        if not shutil.which("valgrind"):
            sys.exit("--instructions needs valgrind (apt-get install valgrind)")
        for cmd in cases.values():
            wall(cmd)  # a source checkout writes its bytecode first
        counts = {name: instructions(cmd) for name, cmd in cases.items()}
        base = counts[next(iter(cases))]
        print(f"entry point: {' '.join(entry)}; instructions executed (valgrind):")
        for name, count in counts.items():
            print(f"  {name:45s} {count / 1e6:7.1f} M  {count / base:5.2f}x")
        if args.write:
            _keep(counts, " ".join(entry))
        return
    times: dict[str, list[float]] = {name: [] for name in cases}
    for cmd in cases.values():
        wall(cmd)  # warm the page cache
    for _ in range(args.runs):
        for name, cmd in cases.items():
            times[name].append(wall(cmd))
    floor = statistics.median(times[next(iter(cases))])
    print(f"entry point: {' '.join(entry)}; {args.runs} runs each, interleaved; medians:")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {name:45s} {median * 1000:7.1f} ms  {median / floor:5.2f}x")


def _keep(counts: dict[str, int], entry: str) -> None:
    """The counts as docs/benchmarks.json's ``startup`` (the other measurements kept)."""
    import datetime
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.json"
    kept = json.loads(path.read_text(encoding="utf-8"))
    head = subprocess.run(
        ["git", "-C", str(path.parent), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    kept["startup"] = {
        "command": "python benchmarks/bench_startup.py --instructions --write",
        "date": datetime.date.today().isoformat(),
        "commit": head or "not a git checkout",
        "entry": "promote" if entry.endswith("promote") else "python -m promote_cli",
        "instructions": counts,
    }
    path.write_text(json.dumps(kept, indent=2) + "\n", encoding="utf-8")
    print(f"kept in {path}")


if __name__ == "__main__":
    main()
