"""How many of TensorFlow's operation cells differ inside ``tf.function``, and why: the set
measured apart under ``function=true`` (``measured/function-true/``) against the eager set
(``measured/``), both TensorFlow 2.21.0 with ml_dtypes 0.7.0, cell by cell, per mode.

    python benchmarks/tf_function_cells.py

Reads only the checked-in measurements (no TensorFlow needed); regenerate them with
``promote measure tensorflow`` and ``promote measure tensorflow -O function=true --python``
an environment with ml_dtypes 0.7. A cell's record is compared as ``promote verify`` compares
(a dtype, ``a op= b`` rebinding, a refusal, a gap); messages are not kept, so not compared.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from promote_cli import frameworks
from promote_cli.operands import PYTHON
from promote_cli.verify import measured
from promote_cli.verify.protocol import Result, encode, operand_key


def kind(cell: object) -> str:
    return "result" if isinstance(cell, Result) else type(cell).__name__.lower()


def cause(question: object, eager: object, traced: object) -> str:
    """A name for why a cell differs, from its operands and the two records."""
    ops = question.operands  # type: ignore[attr-defined]
    operation = question.operation  # type: ignore[attr-defined]
    scalar = next((x for x in ops if x.category == PYTHON and x.value is not None), None)
    tensors = [x.dtype for x in ops if x.category != PYTHON]
    if operation == "logical_and" and "string" in tensors:
        return "logical_and(string tensor, a scalar False as a bool) is folded (declined)"
    if "string" in tensors and kind(eager) == "gap":
        return "complex // string: eagerly no FloorDiv kernel, traced a TypeError"
    zero_minus = operation in ("-", "-=", "subtract") and ops[0].category == PYTHON
    if zero_minus and kind(traced) != "result" and kind(eager) == "result":
        return "0 - uint8/uint16 tensor: rewritten as Neg, which admits no unsigned type"
    if any(x.category == PYTHON and x.dtype == "bool" for x in ops):
        return "a Python bool converts to every dtype traced"
    if isinstance(scalar and scalar.value, int) and not isinstance(scalar.value, bool):
        if "uint64" in tensors and scalar.value < 0:
            return "a uint64 tensor takes a negative int traced"
        return "a Python int goes through int32 in every operator traced"
    if isinstance(scalar and scalar.value, float):
        return "a bool tensor's * takes any float traced"
    return f"other: {kind(eager)} -> {kind(traced)}"


def main() -> None:
    entry = frameworks.entry("tensorflow")
    eager = measured.read(entry, "operations")
    traced = measured.read(entry, "operations", "function-true")
    if eager is None or traced is None:
        raise SystemExit("no measured operations (eager or function-true)")

    def keyed(found: measured.Measured) -> dict[tuple[str, str, tuple[str, ...]], object]:
        return {
            (opts["mode"], q.operation, tuple(map(operand_key, q.operands))): (q, cell)
            for opts, q, cell in found.cells
            if opts.get("ml_dtypes") == "0.7"
        }

    before, after = keyed(eager), keyed(traced)
    print(f"eager: {eager.version}, {eager.date}; function=true: {traced.version}, {traced.date}")
    for mode in ("all", "safe", "legacy"):
        keys = [k for k in after if k[0] == mode]
        if not keys:
            print(f"mode={mode}: not measured under function=true")
            continue
        causes: collections.Counter[str] = collections.Counter()
        for k in keys:
            q, was = before[k]  # type: ignore[misc]
            _, now = after[k]  # type: ignore[misc]
            if encode(was) != encode(now) and kind(was) == kind(now) != "result":
                continue  # two refusals (or gaps) agree: their messages are not kept
            if encode(was) != encode(now):
                causes[cause(q, was, now)] += 1
        print(f"mode={mode}: {len(keys):,} cells compared, {sum(causes.values()):,} differ")
        if "-v" in sys.argv:
            for k in keys:
                q, was = before[k]  # type: ignore[misc]
                now = after[k][1]  # type: ignore[index]
                if encode(was) != encode(now) and kind(was) != kind(now):
                    print("   ", cause(q, was, now)[:30], k[1:], encode(was), encode(now))
        for name, count in causes.most_common():
            print(f"  {count:6,}  {name}")


if __name__ == "__main__":
    main()
