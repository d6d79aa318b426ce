"""``promote convert``: promote a pair of .npy files on disk to their common dtype.

Parse the arguments, ask ``promote_cli.npy`` (the policy question, the checks, the streaming
writes), report. NumPy and rich are imported only when this command runs, ml_dtypes only when
an input or the result is one of its types.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import click

from promote_cli import api, fit, schema
from promote_cli.cli import EXIT_DIFFERENT, EXIT_OK, Command, _options, printable, tell
from promote_cli.dtypes import is_weak
from promote_cli.errors import PromotionError, UsageError
from promote_cli.frameworks import notation as get_notation
from promote_cli.notations import Notation, display, read_dtype

# Inputs at least this big get a progress bar (on a terminal only).
PROGRESS_BYTES = 64 << 20


@click.command("convert", cls=Command)
@click.argument("a", metavar="A.npy[:TYPE]")
@click.argument("b", metavar="B.npy[:TYPE]")
@_options.policy
@_options.policy_file
@_options.options
@_options.notation
@click.option(
    "--dtype-a", metavar="TYPE", help="Type of A's data when A holds raw bytes (|V2 ...)."
)
@click.option("--dtype-b", metavar="TYPE", help="Type of B's data when B holds raw bytes.")
@click.option(
    "-o",
    "--out-dir",
    type=_options.FileName(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write the outputs into DIR under the inputs' names.",
)
@click.option(
    "--out-a",
    type=_options.FileName(),
    help="Output file for A (DIR/ or a directory: A's name in it).",
)
@click.option("--out-b", type=_options.FileName(), help="Output file for B (DIR/: B's name in it).")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option(
    "--skip-unchanged",
    is_flag=True,
    help="Write no output for an input already of the result type.",
)
@click.option(
    "--dry-run", is_flag=True, help="Print the plan (dtypes, shapes, bytes); write nothing."
)
@click.option("--check-values", is_flag=True, help="Count the elements whose value changes.")
@click.option("--strict", is_flag=True, help="Exit 1 and write nothing if any value would change.")
@click.option(
    "--void-header",
    is_flag=True,
    help="Write ml_dtypes outputs with a raw |V<n> descr instead of the dtype's name.",
)
@_options.as_json
def command(
    a,
    b,
    policy,
    policy_file,
    option_values,
    notation,
    dtype_a,
    dtype_b,
    out_dir,
    out_a,
    out_b,
    force,
    skip_unchanged,
    dry_run,
    check_values,
    strict,
    void_header,
    as_json,
) -> int:
    """Convert A and B to the dtype POLICY promotes them to.

    Outputs: A.promoted.npy and B.promoted.npy beside the inputs, or under -o
    DIR, or --out-a/--out-b. Existing outputs are kept unless --force (--dry-run
    says what --force would replace); an input is never modified. A 0-d array is
    a scalar operand S(t), anything else D(t).

    Exit codes: 0 written (or planned), 1 the policy refused / --strict found a
    changed value (nothing written), 2 bad input, usage or a write error, 130
    interrupted (nothing written).
    """
    from promote_cli import npy

    req = api.request(
        _options.chosen(policy, policy_file),
        notation=notation,
        options=_options.parse_options(option_values),
    )
    nota = req.notation
    sources = [
        _source(spec, flag_dtype, flag, nota)
        for spec, flag_dtype, flag in ((a, dtype_a, "--dtype-a"), (b, dtype_b, "--dtype-b"))
    ]
    outs = [
        _output(explicit, flag, source.npy.path, out_dir)
        for source, explicit, flag in zip(
            sources, (out_a, out_b), ("--out-a", "--out-b"), strict=True
        )
    ]
    try:
        promoted = npy.result_type(req, sources)
        result = promoted.result
        assert result is not None, "a refusal raises PromotionError"
        jobs = npy.plan(sources, result, outs, skip_unchanged=skip_unchanged)
    except PromotionError as exc:  # a refusal is an answer: from the default policy, say so
        _options.say_default(policy, policy_file)
        if not as_json:
            raise
        body = {**_head(req, sources), **schema.raised(exc), "written": False, "files": []}
        click.echo(schema.dumps(body), nl=False)
        return EXIT_DIFFERENT

    total = npy.bytes_to_read(jobs, dry_run=dry_run, counting=check_values or strict)
    with _progress(total) as progress:
        done = npy.execute(
            jobs,
            force=force,
            dry_run=dry_run,
            check_values=check_values,
            strict=strict,
            void_header=void_header,
            progress=progress,
        )
    report = {
        **_head(req, sources),
        **schema.outcome(promoted, nota),
        "dry_run": dry_run,
        "written": done.written,
        "strict_refused": done.strict_refused,
        "files": [
            _file_json(job, c, replaces)
            for job, c, replaces in zip(jobs, done.changes, done.replaces, strict=True)
        ],
    }
    # The answer is in hand (a file that cannot be written was an error, one line): say, before
    # it, when the default policy gave it.
    _options.say_default(policy, policy_file)
    if as_json:
        click.echo(schema.dumps(report), nl=False)
    else:
        _print_report(report, check_values or strict)
    if done.strict_refused:
        tell("--strict: values would change; nothing was written")
        return EXIT_DIFFERENT
    return EXIT_OK


def _source(spec: str, flag_dtype: str | None, flag: str, nota: Notation):
    """Read the input named by ``A.npy`` or ``A.npy:TYPE`` (an existing path containing ':'
    stays a path) and the dtype its data is read as."""
    from promote_cli import npy

    if not spec:
        raise UsageError("an input is '', an empty file name; give A.npy")
    path, suffix = Path(spec), None
    head, _, tail = spec.rpartition(":")
    if head and not os.path.lexists(spec) and os.path.lexists(head):
        path, suffix = Path(head), tail
        if not tail.strip():
            raise UsageError(
                f"{spec}: no type after ':'; write {head}:TYPE (a type such as bfloat16), or"
                f" {head} alone"
            )
    given = {read_dtype(t, nota) for t in (suffix, flag_dtype) if t is not None}
    if len(given) > 1:
        raise UsageError(f"{spec}: {flag} {flag_dtype} contradicts the type after ':'")
    explicit = given.pop() if given else None
    if explicit is not None and is_weak(explicit):
        raise UsageError(f"{spec}: {explicit} is a Python scalar type, not an array dtype")
    header = npy.read_header(path)
    return npy.Source(header, npy.data_dtype(header, explicit, flag))


def _output(explicit: str | None, flag: str, path: Path, out_dir: Path | None) -> Path:
    """The output file of the input ``path``: ``--out-a FILE``; or, when that names a directory
    (it ends in ``/`` or is one), the input's name in it, as ``cp`` reads a directory; else the
    default (``-o DIR``, or beside the input)."""
    from promote_cli import npy

    if explicit is None:
        return npy.default_output(path, out_dir)
    if explicit.endswith(("/", os.sep)) or os.path.isdir(explicit):
        if not os.path.isdir(explicit):
            raise UsageError(f"{flag} {explicit}: no such directory")
        return Path(explicit) / path.name
    return Path(explicit)


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None] | None]:
    if total < PROGRESS_BYTES or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    with Progress(
        BarColumn(),
        DownloadColumn(binary_units=True),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("converting", total=total)
        yield lambda n: bar.advance(task, n)


def _head(req: api.Request, sources) -> dict:
    return {
        **schema.head("convert", req),
        "operands": [
            {**schema.operand(s.operand, req.notation), "input": str(s.npy.path)} for s in sources
        ],
    }


def _file_json(job, changes, replaces: bool) -> dict:
    from promote_cli import npy

    return {
        "input": str(job.npy.path),
        "output": None if job.action == npy.SKIP else str(job.out),
        "dtype": npy.canonical_name(job.source),
        "descr": job.npy.descr,
        "shape": list(job.npy.shape),
        "fortran_order": job.npy.fortran_order,
        "bytes_in": job.npy.nbytes,
        "bytes_out": 0 if job.action == npy.SKIP else job.out_bytes,
        "action": job.action,
        "changed": None if changes is None else {**changes.counts, "total": changes.total},
        "replaces": replaces,
    }


def _size(nbytes: int) -> str:
    n = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{nbytes} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def _rows(report: dict, nota: Notation, with_changes: bool) -> tuple[list[str], list[list[str]]]:
    head = ["input", "dtype", "shape", "bytes", "action", "output", "bytes"]
    if with_changes:
        head.append("changed values")
    rows = []
    for f in report["files"]:
        shape = "x".join(map(str, f["shape"])) if f["shape"] else "0-d"
        if f["fortran_order"]:
            shape += " (F)"
        row = [
            printable(f["input"]),
            f"{display(f['dtype'], nota)} -> {display(report['result'], nota)}",
            shape,
            _size(f["bytes_in"]),
            f["action"],
            printable(f["output"]) if f["output"] else "-",
            _size(f["bytes_out"]) if f["output"] else "-",
        ]
        if with_changes:
            row.append(_changes_text(f["changed"]))
        rows.append(row)
    return head, rows


def _changes_text(changed: dict | None) -> str:
    from promote_cli.npy import CHANGE_KINDS, CHANGE_LABELS

    if changed is None or not changed["total"]:
        return "0"
    parts = [f"{changed[k]} {CHANGE_LABELS[k]}" for k in CHANGE_KINDS if changed[k]]
    return f"{changed['total']}: " + ", ".join(parts)


def _print_report(report: dict, with_changes: bool) -> None:
    nota = get_notation(report["notation"])
    title = f"{report['policy']}: result {display(report['result'], nota)}"
    if report["dry_run"]:
        title += " (dry run: nothing written)"
    elif report["strict_refused"]:
        title += " (--strict: nothing written)"
    head, rows = _rows(report, nota, with_changes)
    width = fit.terminal_width(sys.stdout)
    if width is not None:
        _print_on_terminal(width, title, head, rows)
    else:
        click.echo(title)
        click.echo(_plain_table([head, *rows]))
    existing = [printable(f["output"]) for f in report["files"] if f["replaces"]]
    if report["dry_run"] and existing:
        them = "it" if len(existing) == 1 else "them"
        line = (
            f"--force would replace {', '.join(existing)} ({_exist(len(existing))};"
            f" without --force, convert refuses to replace {them})"
        )
        click.echo("\n".join(fit.wrap(line, width)))


def _exist(n: int) -> str:
    return "it exists" if n == 1 else "they exist"


def _print_on_terminal(width: int, title: str, head: list[str], rows: list[list[str]]) -> None:
    """The most compact layout that fits the terminal: rich's boxed table, else the plain
    aligned one (narrower: no borders), else one block per file, a field a line, so that no
    cell (a path above all) is ever cut or folded. The title is a line of its own, never
    padded to the table's width."""
    from rich.console import Console
    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text

    console = Console(width=width)
    # Text, never a markup string: a file named "[bold]x[/bold].npy" prints as typed.
    table = Table()
    for name in head:
        table.add_column(Text(name), no_wrap=True)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    unbounded = console.options.update_width(1 << 20)  # the width the table wants, unclamped
    console.print(Text(title, style="italic"), soft_wrap=True)
    if Measurement.get(console, unbounded, table).maximum <= width:
        console.print(table)
        return
    plain = _plain_table([head, *rows])
    if max(fit.cells(line) for line in plain.split("\n")) <= width:
        console.print(Text(plain), soft_wrap=True)
        return
    keys = [*head[:6], "output bytes", *head[7:]]  # the two "bytes" columns told apart
    size = max(map(len, keys))
    for row in rows:
        console.print()
        console.print(Text(row[0], style="bold"), soft_wrap=True)
        for key, cell in zip(keys[1:], row[1:], strict=True):
            console.print(Text(f"  {key.ljust(size)}  {cell}"), soft_wrap=True)


def _plain_table(lines: Sequence[Sequence[str]]) -> str:
    widths = [max(fit.cells(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join(
        "  ".join(
            cell + " " * (w - fit.cells(cell)) for cell, w in zip(line, widths, strict=True)
        ).rstrip()
        for line in lines
    )
