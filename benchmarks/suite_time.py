"""How long the README's test command takes: ``python -m pytest`` under ``/usr/bin/time -v``,
in a copy of the repository's tracked files (what a fresh clone holds), with this interpreter.

Run it from a fresh venv holding the ``test`` extra only (``pip install -e '.[test]'``), as a
newcomer runs the tests. It prints the tests passed and skipped and the wall and CPU seconds;
``--write`` keeps them in docs/benchmarks.json (``suite``), where the guide's figure is built
from (docs/figures.py).

    python benchmarks/suite_time.py [--write]
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEPT = ROOT / "docs" / "benchmarks.json"
CPU_AIM_SECONDS = 300


def clone(into: Path) -> Path:
    """The tracked files, as they are now, in ``into/promote``."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode()
    home = into / "promote"
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (home / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, home / name)
    return home


def measure(home: Path) -> dict:
    done = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
        cwd=home,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"the tests failed (exit {done.returncode}):\n{done.stdout[-3000:]}")

    def count(word: str) -> int:
        found = re.search(rf"(\d+) {word}", done.stdout.splitlines()[-1])
        return int(found.group(1)) if found else 0

    def seconds(label: str) -> float:
        found = re.search(rf"{label}: ([\d:.]+)", done.stderr)
        if not found:
            sys.exit(f"/usr/bin/time printed no {label!r}:\n{done.stderr[-2000:]}")
        parts = [float(p) for p in found.group(1).split(":")]
        return sum(p * 60**i for i, p in enumerate(reversed(parts)))

    return {
        "passed": count("passed"),
        "skipped": count("skipped"),
        "wall_seconds": round(seconds(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\)")),
        "user_seconds": round(seconds("User time \\(seconds\\)")),
        "system_seconds": round(seconds("System time \\(seconds\\)")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="keep the figures for the docs")
    args = parser.parse_args()
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as where:
        found = measure(clone(Path(where)))
    import numpy

    run = {
        "command": "/usr/bin/time -v python -m pytest",
        "date": datetime.date.today().isoformat(),
        "commit": head,
        "where": f"a copy of the tracked files, this venv (NumPy {numpy.__version__})",
        **found,
        "cpu_aim_seconds": CPU_AIM_SECONDS,
    }
    print(json.dumps(run, indent=2))
    if args.write:
        kept = json.loads(KEPT.read_text(encoding="utf-8"))
        kept["suite"] = run
        KEPT.write_text(json.dumps(kept, indent=2) + "\n", encoding="utf-8")
        print(f"kept in {KEPT}")


if __name__ == "__main__":
    main()
