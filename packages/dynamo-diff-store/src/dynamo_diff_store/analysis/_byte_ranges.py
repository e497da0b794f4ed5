"""A large trace file read as byte ranges by a pool of worker processes, the facts given back in file order.

Each range is read by the same reader as a whole file (a range after the first starts at a record boundary and is
read as if it began on line PROVISIONAL_LINE; its line numbers are moved on once the ranges before it are read).
A raw log still being copied into staging (`Copying`) is cut only where the copy has written, and each range goes
to a worker once the copy is past its end.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._kinds import NOT_INDEXED, collapse_repeats, extract
from dynamo_diff_store.analysis._rank_job import Copying, RankJob
from dynamo_diff_store.analysis._workers import exit_with_parent
from dynamo_diff_store.gc_pause import collector_paused
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import (
    PACK_INDEX_SUFFIX,
    PACK_SUFFIX,
    FileReport,
    PackedPayloads,
    Record,
    cut_points,
    jsonl_cuts,
    merge_reports,
    read_raw_log,
    read_tlparse_export,
    record_cuts,
    shift_lines,
)

# Raw logs at least this large are read as byte ranges in parallel when the machine has cores to spare.
CHUNK_MIN_BYTES = 16 * 1024 * 1024
CHUNK_BYTES = 12 * 1024 * 1024
# Runs of alike timing spans come from the raw-log reader as one record (read_raw_log's fold_spans): the facts
# are the same (collapse_repeats folds them anyway), without a record and a fact per span.
FOLD_SPANS = True
# The line a byte range after the first is read as beginning on, until the lines before it are known (not 1:
# line 1 of a tlparse raw.jsonl is its string table).
PROVISIONAL_LINE = 2


def reads_in_ranges(size: int, workers: int) -> bool:
    """Whether a trace file of `size` bytes is read as byte ranges, with `workers` processes to read them."""
    return workers > 1 and size >= CHUNK_MIN_BYTES


def range_facts(
    job: RankJob, rel: str, fmt: str, size: int, reports: list[FileReport], copying: Copying | None
) -> Generator[Fact, None, None]:
    """The facts of one of the job's files (`size` bytes: when `copying`, its size as its copy began) read as byte
    ranges by job.chunk_workers processes, in file order; the file's FileReport is appended to `reports`."""
    root = Path(job.root)
    parts = max(job.chunk_workers, -(-size // CHUNK_BYTES))
    # Where a range begins, its line number is not known without counting the lines before it (a pass over the
    # whole file): a later range is read as if it began on line PROVISIONAL_LINE, and its line numbers are moved
    # on when the ranges before it have been read.
    tasks: Iterator[Range]
    if copying is not None:
        tasks = _ranges_as_copied(job, rel, size, parts, copying.ready)
    else:
        split = jsonl_cuts if fmt == "tlparse_jsonl" else record_cuts
        # Ranges of at most CHUNK_BYTES, folded as they arrive (in order), so that memory holds the facts of a few
        # ranges at a time rather than of the whole file.
        tasks = (
            Range(str(root), rel, fmt, job.limits, a, b, 1 if a == 0 else PROVISIONAL_LINE, job.rank)
            for a, b in split(root / rel, parts)
        )
    parts_read: list[FileReport] = []
    lines_before = 0
    with ProcessPoolExecutor(
        max_workers=job.chunk_workers, initializer=exit_with_parent, initargs=(os.getpid(),)
    ) as pool:
        for task, future in submitted(pool, tasks, waits=copying is not None):
            by = lines_before + 1 - task.first_line
            try:
                facts, part = future.result()
            except DynamoDiffError as err:
                moved = _moved_on(err, by, job.limits)
                if moved is err:
                    raise
                raise moved from err
            lines_before += part.lines
            if by:
                shift_lines(part, by)
                for fact in facts:
                    fact.line += by
            parts_read.append(part)
            yield from facts
            del facts
    report = merge_reports(parts_read)
    if report.records > job.limits.max_records:
        raise job.limits.exceeded("max_records", report.records, file=rel)
    reports.append(report)


class Range(NamedTuple):
    """One byte range of a trace file for a worker: [start, stop), whose first record is on `first_line`."""

    root: str
    rel: str
    fmt: str
    limits: Limits
    start: int
    stop: int
    first_line: int
    rank: int | None


def extract_range(task: Range) -> tuple[list[Fact], FileReport]:
    """Facts of one byte range of a trace file (run in a worker process for large files: a short-lived process
    whose collector stays paused)."""
    with collector_paused():
        return _extract_range_facts(task)


def _hashed(facts: Iterator[Fact], root: Path) -> Iterator[Fact]:
    """The facts, each that may become evidence with the sha256 of its bytes (read again from the page cache:
    in a worker, this runs in parallel rather than in the importing process)."""
    files: dict[str, int] = {}
    try:
        for fact in facts:
            if fact.kind not in NOT_INDEXED:
                fd = files.get(fact.file)
                if fd is None:
                    fd = files[fact.file] = os.open(root / fact.file, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
                fact.sha256 = hashlib.sha256(os.pread(fd, fact.length, fact.offset)).hexdigest()
            yield fact
    finally:
        for fd in files.values():
            os.close(fd)


def _extract_range_facts(task: Range) -> tuple[list[Fact], FileReport]:
    report = FileReport(file=task.rel, rank_from_name=task.rank)
    facts = []
    config_kept = False
    where = {"start": task.start, "stop": task.stop, "first_line": task.first_line}
    root = Path(task.root)
    with records(root, task.rel, task.fmt, task.limits, report, **where) as recs:
        for fact in _hashed(collapse_repeats(map(extract, recs)), root):
            if fact.kind == "compilation_metrics" and isinstance(fact.data, dict):
                # Only the first configuration of a rank is read; later copies need not cross processes.
                if config_kept:
                    fact.data = {k: v for k, v in fact.data.items() if k not in ("dynamo_config", "inductor_config")}
                config_kept = config_kept or "dynamo_config" in fact.data
            facts.append(fact)
    return facts, report


@contextmanager
def records(
    root: Path,
    rel: str,
    fmt: str,
    limits: Limits,
    report: FileReport,
    *,
    start: int = 0,
    stop: int | None = None,
    first_line: int = 1,
) -> Iterator[Iterator[Record]]:
    """The records of one staged trace file (or of a byte range of it)."""
    path = root / rel
    if fmt != "tlparse_jsonl":
        yield read_raw_log(
            path, rel, limits, report, start=start, stop=stop, first_line=first_line, fold_spans=FOLD_SPANS
        )
        return
    index = json.loads((root / (rel + PACK_INDEX_SUFFIX)).read_text(encoding="utf-8"))
    pack = PackedPayloads(root / (rel + PACK_SUFFIX), rel + PACK_SUFFIX, index)
    try:
        yield read_tlparse_export(
            path.parent, limits, report, payloads=pack, start=start, stop=stop, first_line=first_line
        )
    finally:
        pack.close()


def staged_bytes(root: Path, rel: str, fmt: str) -> int:
    """The bytes a staged trace file's reading reads (a tlparse raw.jsonl with its payload pack)."""
    size = (root / rel).stat().st_size
    return size + ((root / (rel + PACK_SUFFIX)).stat().st_size if fmt == "tlparse_jsonl" else 0)


def _ranges_as_copied(
    job: RankJob, rel: str, size: int, parts: int, ready: Callable[[int], int | None]
) -> Iterator[Range]:
    """The byte ranges record_cuts makes of a raw log (`size` bytes when its copy began), each as soon as the copy
    has written past its end (`ready`, Copying): a cut is looked for only in copied bytes, and the last range ends
    where the copy ended (the file may have grown or shrunk meanwhile)."""

    def task(a: int, b: int) -> Range:
        return Range(job.root, rel, "raw_log", job.limits, a, b, 1 if a == 0 else PROVISIONAL_LINE, job.rank)

    start = 0
    for cut in cut_points(Path(job.root) / rel, size, parts, ready):
        yield task(start, cut)
        start = cut
    end = ready(sys.maxsize)
    assert end is not None  # complete (an error or a cancelled copy raises)
    if end > start or start == 0:
        yield task(start, end)


def submitted(
    pool: ProcessPoolExecutor, tasks: Iterator[Range], *, waits: bool
) -> Generator[tuple[Range, Future[tuple[list[Fact], FileReport]]], None, None]:
    """Each task with its future, in order. When taking the next task waits for bytes still being copied (`waits`),
    a thread gives the pool each range as soon as it comes, so that the ranges copied so far are read while the
    caller folds the facts. Should the caller stop (it failed, or was interrupted), the ranges no worker has begun
    are cancelled (as `Executor.map` does) and no more are given to the pool: the thread ends as soon as the wait
    it is in returns or raises (the caller of the analysis cancels the copy, which ends that wait). A future is
    let go once it is given to the caller, so that the facts of the ranges folded already are not kept."""
    # The tasks given to the pool and not yet to the caller, in order: the feeder appends, the caller pops.
    pending: deque[tuple[Range, Future[tuple[list[Fact], FileReport]]]] = deque()

    def submit(task: Range) -> None:
        pending.append((task, pool.submit(extract_range, task)))

    finished = False
    stop = threading.Event()  # the caller stopped: the feeder gives the pool no more tasks
    feeder: threading.Thread | None = None
    try:
        if not waits:
            for task in tasks:
                submit(task)
            while pending:
                yield pending.popleft()
            finished = True
            return
        # The feeder says when another task is in `pending` (None: no more; an exception: the copy's error).
        given: queue.Queue[bool | BaseException | None] = queue.Queue()

        def feed() -> None:
            try:
                for task in tasks:
                    if stop.is_set():
                        return
                    submit(task)
                    given.put(True)
                given.put(None)
            except BaseException as exc:  # the copy's error (or its cancellation) goes to the caller
                given.put(exc)

        feeder = threading.Thread(target=feed, name="dynamo-diff-ranges", daemon=True)
        feeder.start()
        while (item := given.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield pending.popleft()
        finished = True
    finally:
        stop.set()
        if feeder is not None:
            feeder.join()
        if not finished:
            for _, future in pending:
                future.cancel()


def _moved_on(err: DynamoDiffError, by: int, limits: Limits) -> DynamoDiffError:
    """A reader's error in a byte range read with provisional line numbers, with the line it names moved on."""
    line = err.details.get("line")
    if not by or type(line) is not int:
        return err
    if err.code is ErrorCode.RESOURCE_LIMIT and "limit" in err.details:
        return limits.exceeded(err.details["limit"], err.details["value"], file=err.details.get("file"), line=line + by)
    return type(err)(
        err.code, err.message.replace(f"line {line}", f"line {line + by}"), **{**err.details, "line": line + by}
    )
