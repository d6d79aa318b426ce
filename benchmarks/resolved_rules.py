"""Every framework's operation rules as the walk sees them, written to a file or compared with
one: the proof that a rewrite of the declarations (a table folded into a base and its
differences, a kind moved into the vocabulary) changes no rule.

    python benchmarks/resolved_rules.py --write before.json   # before the rewrite
    python benchmarks/resolved_rules.py --compare before.json # after: "identical", or each
                                                              # rule that differs (exit 1)

For each framework with operations and each setting of its options (every value of every
option, those measured apart included, less the combinations the policy excludes): each
operation's ``Rule`` under that setting (``Operations.rule``), the ``Maps``, and the
declaration's other fields (the types taken, the operators, the 0-d and value settings). No
framework needs to be installed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from promote_cli import frameworks
from promote_cli.errors import PromotionError
from promote_cli.verify.cases import option_values
from promote_cli.vocabulary import VOCABULARY


def canonical(value: Any) -> Any:
    """``value`` as JSON that does not depend on the order of a set or a mapping: a record as
    its fields, a set sorted, a kind by its value."""
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if hasattr(value, "_fields"):  # a Record
        return {f: canonical(getattr(value, f)) for f in value._fields}
    if isinstance(value, Mapping):
        return sorted([repr(k), canonical(v)] for k, v in value.items())
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=repr)
    if isinstance(value, (tuple, list)):
        return [canonical(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def resolved() -> dict[str, Any]:
    """Each framework's rules, keyed by framework, then setting, then operation."""
    out: dict[str, Any] = {}
    for name in frameworks.names():
        policy = frameworks.get(name)
        try:
            declared = frameworks.operations(policy)
        except PromotionError:
            continue
        axes = [option_values(o) for o in policy.options]
        per: dict[str, Any] = {}
        for combo in itertools.product(*axes):
            opts = {o.name: v for o, v in zip(policy.options, combo, strict=True)}
            if policy.excluded(opts):
                continue
            rules = declared.under(opts)
            per[repr(sorted(opts.items()))] = {
                "maps": canonical(declared.maps_under(opts)),
                "operands": canonical(declared.operands(opts)),
                "rules": {op: _walked(rules[op]) for op in VOCABULARY},
            }
        # The operators' own rules are in the tables above, as the walk reads them.
        operators = declared.operators and declared.operators._replace(rules={})
        rest = declared._replace(
            policy=None, maps=None, rules={}, by_setting=None, operators=operators
        )
        out[name] = {"declaration": canonical(rest), "settings": per}
    return json.loads(json.dumps(out, sort_keys=True))


def _walked(rule: Any) -> Any:
    """A rule as the walk reads it: a rule without a function is refused by the first step,
    ``absent``, which reads its note alone (its kind, say, is read by no step)."""
    if rule.function is None:
        return {"function": None, "note": rule.note}
    return canonical(rule)


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out = []
    for name in sorted(before.keys() | after.keys()):
        if name not in before or name not in after:
            out.append(f"{name}: only {'after' if name in after else 'before'}")
            continue
        a, b = before[name], after[name]
        if a["declaration"] != b["declaration"]:
            out.append(f"{name}: declaration\n  - {a['declaration']}\n  + {b['declaration']}")
        for setting in sorted(a["settings"].keys() | b["settings"].keys()):
            x, y = a["settings"].get(setting), b["settings"].get(setting)
            if x is None or y is None:
                out.append(f"{name} {setting}: only {'after' if x is None else 'before'}")
                continue
            for key in ("maps", "operands"):
                if x[key] != y[key]:
                    out.append(f"{name} {setting} {key}:\n  - {x[key]}\n  + {y[key]}")
            for op in sorted(x["rules"].keys() | y["rules"].keys()):
                if x["rules"].get(op) != y["rules"].get(op):
                    out.append(
                        f"{name} {setting} {op}:\n  - {x['rules'].get(op)}\n"
                        f"  + {y['rules'].get(op)}"
                    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, metavar="FILE")
    group.add_argument("--compare", type=Path, metavar="FILE")
    args = parser.parse_args()
    now = resolved()
    if args.write is not None:
        args.write.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        settings = sum(len(f["settings"]) for f in now.values())
        print(f"{len(now)} frameworks, {settings} settings: written to {args.write}")
        return 0
    found = differences(json.loads(args.compare.read_text(encoding="utf-8")), now)
    print("\n".join(found) if found else "identical")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
