"""Benchmark ``promote convert`` against the naive NumPy version and ``cp``.

Run from the repository root:

    python benchmarks/bench_convert.py                 # 256 MiB speed test, 1 GiB peak-RSS test
    python benchmarks/bench_convert.py --size-mib 32 --rss-size-mib 64 --repeat 3   # quick check

What it measures, each in a fresh child process (wall time and the child's own peak RSS from
``os.wait4``), inputs warm in the page cache, ``sync`` before every timed run so no run pays
for the previous one's writeback:

* speed: a float16 input of ``--size-mib`` converted to float32 (JAX: f2 x f4 -> f4) by
  ``promote convert`` (which also fsyncs its output), by ``np.save(out, np.load(a).astype(t))``
  (no fsync), and ``cp`` of a file the output's size (no fsync: the I/O floor);
* chunk sizes: ``promote_cli.npy.execute`` in this process with each ``--chunks`` size;
* memory: peak RSS (``ru_maxrss`` of the child, from ``os.wait4`` in a small launcher) of
  ``promote convert`` and of the naive version on a ``--rss-size-mib`` input. promote reads
  with ``read()`` into fixed buffers, not through a memmap, so page-cache pages are not part of
  its RSS.

Targets (issue 4): promote <= 0.4x naive wall time and <= 3x cp; peak RSS <= 100 MB at 1 GiB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numpy.lib import format as npformat

ROOT = Path(__file__).resolve().parent.parent
MiB = 1 << 20
NAIVE = "import numpy as np, sys; np.save(sys.argv[2], np.load(sys.argv[1]).astype(np.float32))"


def make_input(path: Path, nbytes: int) -> None:
    """A float16 .npy of ``nbytes`` data bytes, written in chunks (bounded memory)."""
    count = nbytes // 2
    rng = np.random.default_rng(0)
    with open(path, "wb") as f:
        npformat.write_array_header_1_0(
            f, {"descr": "<f2", "fortran_order": False, "shape": (count,)}
        )
        left = count
        while left:
            n = min(left, 8 * MiB)
            f.write(rng.standard_normal(n, dtype=np.float32).astype(np.float16).tobytes())
            left -= n


# Linux carries a process's peak RSS across exec, so a child forked from this (large) process
# would report our own RSS as its peak. A small launcher forks the measured command from a fresh
# interpreter instead and reports the command's wall time and peak RSS.
LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def run(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (bytes) of one run of ``argv``; it must succeed."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    os.sync()
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHER, *argv], env=env, capture_output=True, text=True
    )
    wall, maxrss_kib, code = done.stdout.split()
    if int(code) != 0:
        raise SystemExit(f"benchmark step failed ({code}): {' '.join(argv)}\n{done.stderr}")
    return float(wall), int(maxrss_kib) * 1024  # Linux reports KiB


def promote_argv(a: Path, b: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "promote_cli", "convert", str(a), str(b), "-o", str(out)]


def clear(*paths: Path) -> None:
    for p in paths:
        if p.is_dir():
            for child in p.iterdir():
                child.unlink()
        elif p.exists():
            p.unlink()


def speed(work: Path, size_mib: int, repeat: int) -> None:
    a, b = work / "a.npy", work / "b.npy"
    out, naive_out, cp_src, cp_dst = (
        work / "out",
        work / "naive.npy",
        work / "cp-src",
        work / "cp-dst",
    )
    out.mkdir()
    make_input(a, size_mib * MiB)
    np.save(b, np.zeros(4, np.float32))
    times: dict[str, list[float]] = {"promote": [], "naive": [], "cp": []}
    rss: dict[str, int] = {}
    for _ in range(repeat):
        clear(out)
        t, r = run(promote_argv(a, b, out))
        times["promote"].append(t)
        rss["promote"] = max(rss.get("promote", 0), r)
        if not cp_src.exists():
            shutil.copyfile(out / "a.npy", cp_src)  # a file exactly the output's size
        clear(naive_out)
        t, r = run([sys.executable, "-c", NAIVE, str(a), str(naive_out)])
        times["naive"].append(t)
        rss["naive"] = max(rss.get("naive", 0), r)
        clear(cp_dst)
        t, _ = run(["cp", str(cp_src), str(cp_dst)])
        times["cp"].append(t)
    check = np.load(out / "a.npy", mmap_mode="r")
    ref = np.load(a, mmap_mode="r")
    step = max(1, len(ref) // 100_000)
    assert np.array_equal(check[::step], ref[::step].astype(np.float32)), "promote output differs"
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n== speed: {size_mib} MiB float16 -> float32, median of {repeat} runs")
    for k, v in times.items():
        runs = " ".join(f"{x:.3f}" for x in v)
        extra = f"  peak RSS {rss[k] / 1e6:.0f} MB" if k in rss else ""
        print(f"  {k:8s} {med[k]:7.3f} s   (runs: {runs}){extra}")
    vs_naive, vs_cp = med["promote"] / med["naive"], med["promote"] / med["cp"]
    print(f"  promote / naive = {vs_naive:.2f}  (target <= 0.40: {_verdict(vs_naive <= 0.4)})")
    print(f"  promote / cp    = {vs_cp:.2f}  (target <= 3.00: {_verdict(vs_cp <= 3.0)})")
    clear(out, naive_out, cp_src, cp_dst)
    out.rmdir()


def chunks(work: Path, size_mib: int, sizes_kib: list[int], repeat: int) -> None:
    sys.path.insert(0, str(ROOT))
    from promote_cli import npy

    a = work / "a.npy"
    header = npy.read_header(a)
    target = np.dtype(np.float32)
    print(f"\n== chunk size: {size_mib} MiB float16 -> float32 in-process, median of {repeat}")
    results = {}
    for kib in sizes_kib:
        walls = []
        for _ in range(repeat):
            out = work / "chunk.npy"
            clear(out)
            job = npy.Job(header, header.dtype, target, out, npy.CONVERT)
            os.sync()
            start = time.perf_counter()
            npy.execute([job], chunk_bytes=kib * 1024)
            walls.append(time.perf_counter() - start)
            clear(out)
        results[kib] = statistics.median(walls)
    best = min(results.values())
    for kib, t in results.items():
        mark = "  <- default" if kib * 1024 == npy.CHUNK_BYTES else ""
        print(f"  {kib:6d} KiB  {t:.3f} s  {t / best:4.2f}x best{mark}")


def memory(work: Path, size_mib: int, naive: bool) -> None:
    a, b, out = work / "big.npy", work / "b.npy", work / "out"
    out.mkdir(exist_ok=True)
    make_input(a, size_mib * MiB)
    np.save(b, np.zeros(4, np.float32))
    print(f"\n== peak RSS: {size_mib} MiB float16 -> float32")
    _, r = run(promote_argv(a, b, out))
    print(f"  promote  {r / 1e6:7.1f} MB  (target <= 100 MB: {_verdict(r <= 100e6)})")
    clear(out)
    if naive:
        _, r2 = run([sys.executable, "-c", NAIVE, str(a), str(work / "naive.npy")])
        print(f"  naive    {r2 / 1e6:7.1f} MB  ({r2 / r:.0f}x promote)")
        clear(work / "naive.npy")
    # What promote convert imports for NumPy's own types (ml_dtypes only for its types).
    _, r3 = run([sys.executable, "-c", "import numpy, click"])
    print(f"  python + numpy + click alone: {r3 / 1e6:.1f} MB")
    clear(a)
    out.rmdir()


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mib", type=int, default=256, help="speed-test input size")
    parser.add_argument("--rss-size-mib", type=int, default=1024, help="memory-test input size")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--chunks",
        default="16,64,256,512,1024,2048,4096,16384",
        help="chunk sizes (KiB) to compare; empty to skip",
    )
    parser.add_argument(
        "--no-naive-rss",
        action="store_true",
        help="skip the naive version in the memory test (it needs 3x the input)",
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help="scratch directory (default: TMPDIR)"
    )
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench-convert-", dir=args.dir))
    need = (args.size_mib * 6 + args.rss_size_mib * (5 if not args.no_naive_rss else 3)) * MiB
    free = shutil.disk_usage(work).free
    if need > free:
        shutil.rmtree(work)
        raise SystemExit(
            f"need about {need / 2**30:.1f} GiB free in {work.parent}, have "
            f"{free / 2**30:.1f}; use --dir or smaller sizes"
        )
    print(
        f"scratch {work}; python {sys.version.split()[0]}, numpy {np.__version__}, "
        f"{os.cpu_count()} CPUs"
    )
    try:
        speed(work, args.size_mib, args.repeat)
        sizes = [int(s) for s in args.chunks.split(",") if s.strip()]
        if sizes:
            chunks(work, args.size_mib, sizes, args.repeat)  # on speed()'s input
        clear(work / "a.npy")
        if args.rss_size_mib:
            memory(work, args.rss_size_mib, not args.no_naive_rss)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
