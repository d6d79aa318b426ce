"""The figures of the documentation that promote itself computes, so they never drift: the cells,
random triples, values and spellings ``promote verify`` compares per policy, the operations it
calls, the five calls users ask about most, ``promote check --summary``, and the README's list
of frameworks.

The docs site writes each figure into ``_generated/figures/NAME.md`` when it is built
(``generate.py``), where the guide's pages include it. The README's list sits between
``<!-- figures:frameworks -->`` and ``<!-- /figures:frameworks -->``; tests/documents/test_readme.py
fails when it differs from what this prints.

    python docs/figures.py                  # print every figure
    python docs/figures.py --write-readme   # rewrite the README's block
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
# The last full ``promote verify --require --json`` run, kept by benchmarks/verified.py --write:
# a measurement (the frameworks' versions, the cells, the seconds), never edited by hand.
VERIFIED = Path(__file__).resolve().parent / "verified.json"


def kept() -> dict:
    """The kept run, as ``benchmarks/verified.py --write`` wrote it."""
    import json

    found: dict = json.loads(VERIFIED.read_text(encoding="utf-8"))
    return found


def last_run(run: dict | None = None) -> str:
    """The table of a verify run (default: the kept one): framework version, option settings,
    pair cells, operation cells and kernel gaps, mismatches, seconds per policy; and, of a kept
    run, the policies run again since (``benchmarks/verified.py --write POLICY ...``)."""
    run = run if run is not None else kept()
    head = ("policy", "framework", "version", "option settings", "pair cells", "operation cells")
    tail = ("kernel gaps", "mismatches", "import", "pairs and beyond", "operations")
    lines = [f"| {' | '.join(head + tail)} |", "| --- " * (len(head) + len(tail)) + "|"]
    blank = " |" * (len(head) + len(tail) - 2)
    cells = op_cells = 0
    for p in run["verify"]["policies"]:
        if p["status"] == "no-framework":
            lines.append(f"| `{p['policy']}` | none installable |{blank}")
            continue
        if p["status"] not in ("verified", "mismatch"):
            lines.append(
                f"| `{p['policy']}` | {p['framework']} | {p['status']}: {p['note']} |{blank[2:]}"
            )
            continue
        ops = p["operations"] or {}
        op_total, gaps = sum(ops.get("cells", {}).values()), sum(ops.get("gaps", {}).values())
        mismatches = len(p["mismatches"]) + len(ops.get("mismatches", []))
        mismatches += len((ops.get("expressions") or {}).get("mismatches", []))
        cells, op_cells = cells + p["cells"], op_cells + op_total
        lines.append(
            f"| `{p['policy']}` | {p['framework']} | {p['version']} | {p['option_settings']}"
            f" | {p['cells']:,} | {op_total:,} | {gaps:,} | {mismatches}"
            f" | {p['import_seconds']:.1f} s | {p['seconds']:.1f} s"
            f" | {ops.get('seconds', 0.0):.1f} s |"
        )
    wrong = sum(
        len(p["mismatches"])
        + len((p["operations"] or {}).get("mismatches", []))
        + len(((p["operations"] or {}).get("expressions") or {}).get("mismatches", []))
        for p in run["verify"]["policies"]
    )
    note = f" ({run['note']})" if run.get("note") else ""
    lines.append("")
    for later in run.get("later", ()):  # policies run again since, their entries replaced
        again = f" ({later['note']})" if later["note"] else ""
        names = ", ".join(f"`{name}`" for name in later["policies"])
        lines.append(
            f"On {later['date']}, {names} verified again, in {later['wall_seconds']:,} s"
            f" wall{again}: their rows are that run's, the others the full run's."
        )
    which = "the full run" if run.get("later") else "the run"
    lines.append(
        f"{cells:,} pair cells and {op_cells:,} operation cells, {wrong:,} mismatches; {which}"
        f" took {run['wall_seconds']:,} s wall{note}."
    )
    return "\n".join(lines) + "\n"


def verify_cells() -> str:
    """The table of what ``promote verify`` checks per policy, from the policies and oracles."""
    from promote_cli import frameworks
    from promote_cli.verify import cases
    from promote_cli.verify.driver import oracle

    lines = [
        "| policy | framework (pip) | option settings | operands | cells | triples"
        " (x 2 questions) | values | spellings |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    totals = [0, 0, 0, 0]
    for name in frameworks.names():
        orc = oracle(name)
        if orc is None:
            continue
        pol = frameworks.get(name)
        combos = cases.settings(pol, {})
        settings = len(combos)
        # An option can add operands (NumPy's ml_dtypes): each distinct count, in setting order.
        counts = [len(pol.operands(opts)) for opts in combos]
        ops = " / ".join(str(n) for n in dict.fromkeys(counts))
        cells = sum(n**2 for n in counts)
        many = orc.ASKS.nary
        budget = cases.budget(settings)
        triples = sum(len(cases.drawn(pol.operands(o), budget)) for o in combos) if many else 0
        values = sum(len(cases.with_values(pol.operands(o))) for o in combos) if many else 0
        spellings = len(orc.ASKS.spellings)
        for i, n in enumerate((cells, triples, values, spellings)):
            totals[i] += n
        lines.append(
            f"| `{name}` | `{frameworks.entry(name).install}` | {settings} | {ops} | {cells:,}"
            f" | {triples:,}"
            f" | {values:,} | {spellings:,} |"
        )
    lines.append("| all | | | | " + " | ".join(f"**{n:,}**" for n in totals) + " |")
    return "\n".join(lines) + "\n"


FIVE = [
    ("sqrt", ["int8"]),
    ("sum", ["uint8"]),
    ("divide", ["int32", "int32"]),
    ("mean", ["int32"]),
    ("argmax", ["float32"]),
]
# Beyond every policy with operations at its defaults (the registry's), the settings whose
# answers to the five differ most from their defaults'.
FIVE_ALSO = {
    "jax": ({"x64": "false"},),
    "keras": ({"backend": "openvino", "floatx": "bfloat16"},),
}


def five_settings() -> list[tuple[str, dict[str, str]]]:
    """Each policy that declares operations, in the registry's order: at its defaults, then
    under each of its ``FIVE_ALSO`` settings."""
    from promote_cli import frameworks
    from promote_cli.errors import PromotionError

    out: list[tuple[str, dict[str, str]]] = []
    for name in frameworks.names():
        try:
            frameworks.operations(frameworks.get(name))
        except PromotionError:  # openvino, ascend: no operations
            continue
        out += [(name, {}), *((name, dict(opts)) for opts in FIVE_ALSO.get(name, ()))]
    return out


def ops_five() -> str:
    """The issue's five calls as ``promote op NAME A [B] -p P`` prints them (canonical names)."""
    from promote_cli import api

    head = " | ".join(f"`{op}({', '.join(args)})`" for op, args in FIVE)
    lines = [f"| policy | {head} |", "| --- |" + " --- |" * len(FIVE)]
    for name, opts in five_settings():
        cells = []
        for op, args in FIVE:
            req = api.request(name, notation="canonical", options=opts, operands=args, op=op)
            out = req.outcome()
            cells.append("refused" if out.refused else out.result)
        given = " ".join(f"-O {k}={v}" for k, v in opts.items())
        lines.append(f"| `{name}`{' ' + given if given else ''} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def _may_have_gaps(rule) -> bool:
    """Whether a rule declares anything that makes a cell a kernel gap (the ``no-kernel`` step
    looks only at these fields; a measured cell or a special case may say so too): a rule
    without any has none, and its cells need not be answered one by one to count them."""
    return bool(
        rule.no_kernel
        or rule.no_kernel_operand
        or rule.no_kernel_mixed
        or rule.no_kernel_promotions
        or rule.cells
        or rule.special
    )


def ops_cells() -> str:
    """What ``promote verify`` calls per policy: operations, cells, and the cells the policy
    marks no-kernel (the gaps), from the declarations alone."""
    from promote_cli import frameworks
    from promote_cli.engine import remembering
    from promote_cli.errors import PromotionError
    from promote_cli.rules import NO_KERNEL, operands_of
    from promote_cli.verify import driver
    from promote_cli.vocabulary import VOCABULARY, WHERE, takes_one
    from promote_cli.walk import answer

    lines = [
        "| policy | operations called | option settings | cells | kernel gaps |",
        "| --- | --- | --- | --- | --- |",
    ]
    total = gaps_total = 0
    with remembering():  # each policy's operations start from the same promotions
        for name in frameworks.names():
            pol = frameworks.get(name)
            try:
                declared = frameworks.operations(pol)
            except PromotionError:
                continue
            # A setting without rules is not called.
            combos = [o for o in driver.settings(pol, {}) if not isinstance(declared.under(o), str)]
            cells = gaps = called = 0
            for op in VOCABULARY.values():
                if all(declared.under(o)[op.name].function is None for o in combos):  # type: ignore[index]
                    continue
                called += 1
                if takes_one(op):
                    cases = [(x,) for x in operands_of(declared, op)]
                else:
                    found = operands_of(declared, op)
                    cases = [(a, b) for a in found for b in found]
                    if op.arity != WHERE:
                        cases = [c for c in cases if not all(x.category == "P" for x in c)]
                for opts in combos:
                    cells += len(cases)
                    if _may_have_gaps(declared.under(opts)[op.name]):  # type: ignore[index]
                        gaps += sum(
                            answer(declared, op.name, case, opts)[0].rule == NO_KERNEL
                            for case in cases
                        )
            total, gaps_total = total + cells, gaps_total + gaps
            lines.append(f"| `{name}` | {called} | {len(combos)} | {cells:,} | {gaps:,} |")
    lines.append(f"| all | | | **{total:,}** | **{gaps_total:,}** |")
    return "\n".join(lines) + "\n"


def tables_set() -> str:
    """How many files ``promote tables`` writes, and for how many policies (a sentence)."""
    from promote_cli import docset, frameworks

    files = docset.documentation_set()
    ops = {name.split("/")[1].split(".")[0] for name in files if name.startswith("ops/")}
    return (
        f"With {len(frameworks.names())} policies, {len(ops)} of them with per-operation rules,"
        f" the set is {len(files):,} files.\n"
    )


def check_summary() -> str:
    """``promote check --summary``: every built-in policy's properties under its defaults."""
    from promote_cli.check import summary

    return summary()


def frameworks() -> str:
    """The README's list: each policy, the framework it reproduces, where its rules come from
    (the registry's own words) and the version the last full verify run proved it against."""
    from promote_cli import frameworks

    said = {"no-framework": "none installable"}
    versions = {
        p["policy"]: f"{p['framework']} {p['version']}"
        if p["status"] == "verified"
        else said.get(p["status"], p["status"])
        for p in kept()["verify"]["policies"]
    }
    lines = [
        "| policy | framework | rules from | last verified against |",
        "| --- | --- | --- | --- |",
    ]
    for name in frameworks.names():
        pol = frameworks.get(name)
        proven = versions.get(name, "not yet verified")
        lines.append(f"| `{name}` | {pol.title} | {pol.source} | {proven} |")
    return "\n".join(lines) + "\n"


def verified() -> str:
    """The README's proof: per policy, what the last full verify run compared, by kind of
    question (pairs; triples, each under both n-ary questions; valued Python scalars; function
    calls; operators; augmented assignments; the nodes of random programs, ``promote expr``'s),
    its kernel gaps and mismatches. A run kept before verify ran programs, or a policy it runs
    none of, shows none (—)."""
    from promote_cli.vocabulary import AUGMENTED, FUNCTION, OPERATOR, VOCABULARY

    syntax = {name: op.syntax for name, op in VOCABULARY.items()}
    names = ("pairs", "triples", "values", "functions", "operators", "`a op= b`")
    names += ("expression nodes", "gaps")
    lines = [f"| policy | {' | '.join(names)} | mismatches |", "| --- " * 10 + "|"]
    total: list[int | None] = [0] * 9
    for p in kept()["verify"]["policies"]:
        if p["status"] not in ("verified", "mismatch"):
            continue
        found = p["operations"] or {}
        by = dict.fromkeys((FUNCTION, OPERATOR, AUGMENTED), 0)
        for name, count in found.get("cells", {}).items():
            by[syntax.get(name, FUNCTION)] += count
        gaps = sum(found.get("gaps", {}).values())
        # None: a run kept before verify ran programs, or a policy it runs none of
        programs = found.get("expressions")
        nodes = programs["nodes"] if programs and programs["programs"] else None
        wrong = len(p["mismatches"]) + len(found.get("mismatches", []))
        wrong += len((programs or {}).get("mismatches", []))
        values = p["values"] + sum(found.get("values", {}).values())
        row = [p["cells"], p["triples"], values, *by.values(), nodes, gaps, wrong]
        total = [
            t + r if t is not None and r is not None else (t if r is None else r)
            for t, r in zip(total, row, strict=True)
        ]
        lines.append(f"| `{p['policy']}` | " + " | ".join(_figure(n) for n in row) + " |")
    lines.append("| all | " + " | ".join(f"**{_figure(n)}**" for n in total) + " |")
    return "\n".join(lines) + "\n"


def _figure(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


def _row(*cells: str) -> str:
    return f"| {' | '.join(cells)} |"


def _head(*names: str) -> list[str]:
    return [_row(*names), "| --- " * len(names) + "|"]


def policy_sources() -> str:
    """The policies page's first table: where each policy's rules come from, how they are
    declared and the notation it reads and prints (each framework's ``guide.py`` and entry)."""
    from promote_cli import frameworks

    lines = _head("policy", "source", "kind", "notation")
    for entry in frameworks.entries():
        said = frameworks.guide(entry.name)
        lines.append(_row(f"`{entry.name}`", said.source, said.kind, f"`{entry.notation}`"))
    return "\n".join(lines) + "\n"


def policy_reproduces() -> str:
    """What each policy reproduces, the operands it tells apart and its options with their
    defaults."""
    from promote_cli import frameworks

    lines = _head("policy", "what it reproduces", "operands", "options")
    for name in frameworks.names():
        said, policy = frameworks.guide(name), frameworks.get(name)
        notation = frameworks.notation_of(policy)
        options = ", ".join(f"`-O {o.name}={o.text(o.default, notation)}`" for o in policy.options)
        lines.append(_row(f"`{name}`", said.reproduces, said.operands, options or "none"))
    return "\n".join(lines) + "\n"


def policy_options() -> str:
    """Every option of every policy: its default (the entry's) and what it means."""
    from promote_cli import frameworks

    lines = _head("policy", "option", "default", "meaning")
    for name in frameworks.names():
        policy = frameworks.get(name)
        notation = frameworks.notation_of(policy)
        meanings = dict(frameworks.guide(name).options)
        for o in policy.options:
            default = o.text(o.default, notation)
            lines.append(_row(f"`{name}`", f"`{o.name}`", f"`{default}`", meanings[o.name]))
    return "\n".join(lines) + "\n"


def pair_nary() -> str:
    """How each policy answers the two n-ary questions of ``promote pair A B C``."""
    from promote_cli import frameworks

    lines = _head("policy", "`pair A B C` (the framework's n-ary function)", "`pair A B C --chain`")
    for name in frameworks.names():
        said = frameworks.guide(name)
        lines.append(_row(f"`{name}`", said.nary, said.chain))
    return "\n".join(lines) + "\n"


def notation_labels() -> str:
    """Every notation, from its column: what it reads (the column's own description), the
    labels it prints where they are not the canonical names, and the aliases it reads too."""
    from promote_cli import frameworks
    from promote_cli.notations import CANONICAL

    def words(found: list[str], otherwise: str) -> str:
        return " ".join(f"`{w}`" for w in found) if found else otherwise

    lines = _head("notation", "what it reads", "labels it prints", "also read")
    columns = [CANONICAL, *(e.column for e in frameworks.entries() if e.column is not None)]
    for column in columns:
        own = [label for canonical, label in column.label_map().items() if label != canonical]
        described = column.description.replace("*", "\\*")
        printed = words(own, "the canonical names")
        lines.append(_row(f"`{column.name}`", described, printed, words([*column.alias_map()], "")))
    return "\n".join(lines) + "\n"


def verify_asked() -> str:
    """What ``promote verify`` asks each framework and which option settings it tries; a
    framework without an oracle says why (its entry)."""
    from promote_cli import frameworks

    lines = _head("policy", "asked of the framework", "options tried")
    for entry in frameworks.entries():
        said = frameworks.guide(entry.name)
        if entry.oracle:
            lines.append(_row(f"`{entry.name}`", f"nothing: {entry.oracle}", ""))
        else:
            lines.append(_row(f"`{entry.name}`", said.asked, said.tried))
    return "\n".join(lines) + "\n"


# Kept measurements of promote's own speed, each written by the command that measured it
# (``command``): start-up by ``benchmarks/bench_startup.py --instructions --write``, the test
# suite by ``benchmarks/suite_time.py --write``.
BENCHMARKS = Path(__file__).resolve().parent / "benchmarks.json"


def benchmarks() -> dict:
    found: dict = json.loads(BENCHMARKS.read_text(encoding="utf-8"))
    return found


def startup(kept: dict | None = None) -> str:
    """The start-up table: instructions each command executes against the floor."""
    run = (kept or benchmarks())["startup"]
    counts = run["instructions"]
    floor = next(iter(counts.values()))
    lines = _head("command", "instructions", "vs floor")
    for name, count in counts.items():
        lines.append(_row(f"`{name}`", f"{count / 1e6:.1f} M", f"{count / floor:.2f}x"))
    lines.append("")
    lines.append(
        f"Measured on {run['date']} ({run['commit']}) with `{run['command']}`, which counts"
        " the instructions under `valgrind --tool=callgrind`: the same on a busy machine as on"
        " an idle one."
    )
    return "\n".join(lines) + "\n"


def headline(kept: dict | None = None) -> str:
    """The README's one speed figure: ``promote pair``'s start-up against the floor."""
    run = (kept or benchmarks())["startup"]
    counts = list(run["instructions"].values())
    ratio = counts[1] / counts[0]
    return (
        f"`promote pair` starts and answers in {ratio:.2f}x the instructions of `python -c"
        f' "import click"` (`{run["command"].removesuffix(" --write")}`, {run["date"]}).\n'
    )


def suite(kept: dict | None = None) -> str:
    """The test command's time: tests, wall and CPU seconds, against the CPU aim."""
    run = (kept or benchmarks())["suite"]
    cpu = run["user_seconds"] + run["system_seconds"]
    verdict = "within" if cpu <= run["cpu_aim_seconds"] else "over"
    return (
        f"`{run['command']}` in {run['where']}, on {run['date']} at {run['commit']}:"
        f" {run['passed']:,} tests passed and {run['skipped']:,} skipped in"
        f" {run['wall_seconds']:,} s of wall time and {cpu:,} s of CPU (user"
        f" {run['user_seconds']:,} s, system {run['system_seconds']:,} s), {verdict} the"
        f" {run['cpu_aim_seconds']:,} s of CPU we hold it to.\n"
    )


FIGURES = {
    "verify-cells": verify_cells,
    "ops-five": ops_five,
    "ops-cells": ops_cells,
    "check-summary": check_summary,
    "tables-set": tables_set,
    "last-run": last_run,
    "frameworks": frameworks,
    "verified": verified,
    "policies-sources": policy_sources,
    "policies-reproduces": policy_reproduces,
    "policies-options": policy_options,
    "pair-nary": pair_nary,
    "notations": notation_labels,
    "verify-asked": verify_asked,
    "startup": startup,
    "suite": suite,
    "headline": headline,
}
README_BLOCKS = ("frameworks", "headline")


def block_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figures:{name} -->\n)(.*?)(<!-- /figures:{name} -->)", re.S)


def rewrite(text: str) -> str:
    """``text`` (the README) with each of its blocks as this module prints it now."""
    for name in README_BLOCKS:
        pattern = block_pattern(name)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no <!-- figures:{name} --> block")
        body = FIGURES[name]()
        text = pattern.sub(lambda m, body=body: m.group(1) + body + m.group(3), text)
    return text


def write(directory: Path) -> list[Path]:
    """Every figure as ``directory/NAME.md`` (the docs build includes them); the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, make in FIGURES.items():
        path = directory / f"{name}.md"
        text = make()
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        out.append(path)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write-readme", action="store_true", help="rewrite the README's figure blocks"
    )
    args = parser.parse_args()
    if args.write_readme:
        from promote_cli import atomic

        atomic.replace_file(README, rewrite(README.read_text(encoding="utf-8")).encode())
        return 0
    for name, make in FIGURES.items():
        sys.stdout.write(f"<!-- figures:{name} -->\n{make()}<!-- /figures:{name} -->\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
