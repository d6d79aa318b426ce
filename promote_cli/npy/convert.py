"""The convert orchestration: ask the policy for the inputs' result type, plan one job per input,
and execute the plan (stream, stage, commit), deciding here, once, what ``--dry-run``,
``--check-values`` and ``--strict`` mean for what is read and what is written."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from promote_cli import atomic
from promote_cli.errors import PromotionError
from promote_cli.npy.changes import Changes
from promote_cli.npy.header import NpyFile, open_data
from promote_cli.npy.job import CONVERT, SKIP, Job, action_for
from promote_cli.npy.numpy_dtypes import canonical_name, check_cast, numpy_dtype
from promote_cli.npy.outputs import check_outputs, check_space, write_output
from promote_cli.npy.stream import CHUNK_BYTES, Sink, sink_bytes, stream
from promote_cli.operands import DIMENSIONED, ZERO_D, Operand

if TYPE_CHECKING:
    import numpy as np

    from promote_cli.api import Request
    from promote_cli.engine import Outcome


@dataclass(frozen=True)
class Source:
    """An input file with the dtype its data is read as."""

    npy: NpyFile
    dtype: np.dtype

    @property
    def operand(self) -> Operand:
        """What the policy is asked about: a 0-d array is a scalar ``S(t)``, else ``D(t)``."""
        return Operand(canonical_name(self.dtype), ZERO_D if self.npy.ndim == 0 else DIMENSIONED)


def result_type(req: Request, sources: Sequence[Source]) -> Outcome:
    """Ask the request's policy for the common type of the inputs' operands: the outcome, whose
    ``result`` the outputs take. A refusal raises ``PromotionError`` with the policy's reason,
    worded in the request's notation."""
    outcome = req.policy.result_type([s.operand for s in sources], req.options)
    if outcome.result is None:
        raise PromotionError(
            outcome.text(req.notation), rule=outcome.rule, unsafe_result=outcome.unsafe_result
        )
    return outcome


def default_output(path: Path, out_dir: Path | None) -> Path:
    """Where an input's output goes when no file is named: under ``out_dir`` with the input's
    name, else beside the input as ``NAME.promoted.npy``."""
    if out_dir is not None:
        return out_dir / path.name
    stem = path.name[: -len(".npy")] if path.name.endswith(".npy") else path.name
    return path.with_name(f"{stem}.promoted.npy")


def plan(
    sources: Sequence[Source], result: str, outs: Sequence[Path], *, skip_unchanged: bool
) -> list[Job]:
    """One job per input: convert it to ``result`` (refused when no .npy can hold ``result``
    or NumPy cannot cast to it) and write it to its output."""
    target = numpy_dtype(result)
    jobs = []
    for source, out in zip(sources, outs, strict=True):
        check_cast(source.dtype, target)
        action = action_for(source.dtype, target, skip_unchanged)
        jobs.append(Job(source.npy, source.dtype, target, out, action))
    return jobs


@dataclass(frozen=True)
class Converted:
    """What a run did: the value changes per job (``None`` where not counted), whether the
    outputs were written, and whether ``--strict`` refused them because a value changed."""

    changes: list[Changes | None]
    written: bool
    strict_refused: bool
    # Per job: its output exists already, so writing it needs --force (a dry run reports this
    # instead of refusing, as the run itself would).
    replaces: list[bool] = field(default_factory=list)


def bytes_to_read(jobs: Sequence[Job], *, dry_run: bool, counting: bool) -> int:
    """How many data bytes ``execute`` will stream (what a progress bar counts): every output
    written, or in a dry run only the conversions whose value changes are counted."""
    if dry_run:
        return sum(job.npy.nbytes for job in jobs if counting and job.action == CONVERT)
    return sum(job.npy.nbytes for job in jobs if job.action != SKIP)


def execute(
    jobs: Sequence[Job],
    *,
    force: bool = False,
    dry_run: bool = False,
    check_values: bool = False,
    strict: bool = False,
    void_header: bool = False,
    progress: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> Converted:
    """Run the jobs: every output is written to a temporary file, and only when all are complete
    (and, with ``strict``, no value changed) are they renamed to their final names. A dry run
    writes nothing and refuses nothing it would only refuse for existing outputs: it says which
    outputs exist (``Converted.replaces``), what ``--force`` would replace."""
    targets = check_outputs(jobs, force=force or dry_run)
    replaces = [t is not None and t.exists for t in targets]
    counting = check_values or strict
    changes: list[Changes | None] = [
        Changes() if counting and job.action == CONVERT else None for job in jobs
    ]
    if dry_run:
        for job, tally in zip(jobs, changes, strict=True):
            if tally is not None:
                with open_data(job.npy) as fp:
                    stream(
                        fp,
                        job,
                        Sink(sink_bytes(job, chunk_bytes)),
                        changes=tally,
                        progress=progress,
                        chunk_bytes=chunk_bytes,
                    )
        return Converted(
            changes, written=False, strict_refused=strict and _changed(changes), replaces=replaces
        )
    check_space(jobs, targets)
    with atomic.Batch() as batch:  # what is not committed when it ends is removed
        for job, tgt, tally in zip(jobs, targets, changes, strict=True):
            if tgt is not None:
                write_output(
                    job,
                    tgt,
                    batch,
                    void_header=void_header,
                    changes=tally,
                    progress=progress,
                    chunk_bytes=chunk_bytes,
                )
        if strict and _changed(changes):
            return Converted(changes, written=False, strict_refused=True, replaces=replaces)
        # Both or neither; without --force, an output that appeared meanwhile is refused.
        batch.commit(replace=force)
    return Converted(changes, written=True, strict_refused=False, replaces=replaces)


def _changed(changes: Sequence[Changes | None]) -> bool:
    return any(c is not None and c.total for c in changes)
