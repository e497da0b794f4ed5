"""Analyse staged trace files: one pure function per rank (the unit a distributed executor would run),
run in a process pool when there are several ranks, then assembled into a Capture.

A rank's compilations and evidence are written to files in the job's work directory as they are made (only
per-function summaries stay in memory), so memory does not grow with the number of compilations."""

from __future__ import annotations

import hashlib
import json
import os
import queue
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple

from dynamo_diff_schema.capture import Rank
from dynamo_diff_schema.compilation import Compilation
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity

from dynamo_diff_store.analysis._classify import Classifier, EvidenceRef
from dynamo_diff_store.analysis._counting import CountAccumulator
from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._functions import FunctionGrouper
from dynamo_diff_store.analysis._kinds import NOT_INDEXED, collapse_repeats, extract
from dynamo_diff_store.analysis._staged import StagedCopy
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

# Part of every capture id: bump when reading or classification changes what a capture says.
READER_VERSION = "15"
# Raw logs at least this large are read as byte ranges in parallel when the machine has cores to spare.
CHUNK_MIN_BYTES = 16 * 1024 * 1024
CHUNK_BYTES = 12 * 1024 * 1024
# Runs of alike timing spans come from the raw-log reader as one record (read_raw_log's fold_spans): the facts
# are the same (collapse_repeats folds them anyway), without a record and a fact per span.
FOLD_SPANS = True
# Compilation identities a rank keeps in memory while it is read; older ones wait in a private SQLite file.
IDENTITIES_IN_MEMORY = 2048

# Where the ranks are analysed: "local", a pool of processes on this machine; "ray", one Ray task per rank
# (analysis/_ray.py; Ray is imported only then).
Executor = Literal["local", "ray"]
EXECUTORS: tuple[Executor, ...] = ("local", "ray")


@dataclass(frozen=True)
class RankJob:
    """One rank's files as (path relative to the staged input root, format), read in order.

    Format 'raw_log' is a TORCH_TRACE log; 'tlparse_jsonl' is a tlparse raw.jsonl with payload files beside it.
    `group` prefixes the rank's evidence ids ('r3', or 'u1' for a file without a rank).
    """

    root: str
    group: str
    rank: int | None
    files: tuple[tuple[str, str], ...] = ()
    limits: Limits = field(default_factory=Limits)
    # >1: read a large raw log as that many byte ranges in parallel processes (only when ranks are not
    # already read in parallel).
    chunk_workers: int = 1
    # Where the rank's compilations and evidence are written (`<group>.compilations.jsonl`, ...).
    work: str = ""


@dataclass(slots=True)
class RankResult:
    """One rank: what assembling the capture needs of it in memory (a few hundred bytes, so that the importing
    process does not grow with the number of ranks), the rest in the rank's work files: its summary (files,
    counts, functions), notices, compilations and evidence (read them with the methods)."""

    rank: int | None
    files: list[str]
    summary_file: str  # the rank's Rank without compilations, as JSON
    notices_file: str  # one Notice per line
    notice_count: int
    compilations_file: str
    compilation_count: int
    evidence_file: str
    evidence_count: int
    partial: bool
    record_kinds: Counter[str]
    records: int
    noise_lines: int
    observed_config: dict[str, Any]
    torch_version: str | None
    torch_git: str | None
    python_version: str | None
    entry_script: str | None = None
    devices: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)  # compile ids started but never finished
    cut_files: list[tuple[str, int | None]] = field(default_factory=list)  # files that end mid-record, and where
    evidence_missing: bool = False  # payload files missing or records rejected

    def summary_json(self) -> str:
        """The rank's summary as the JSON text of a schema Rank without its `compilations` key."""
        return Path(self.summary_file).read_text(encoding="utf-8")

    def summary(self) -> Rank:
        """The rank's summary (files, counts, functions; `compilations` empty)."""
        return Rank.model_validate_json(self.summary_json()[:-1] + ',"compilations":[]}')

    def iter_notice_json(self) -> Iterator[str]:
        with Path(self.notices_file).open(encoding="utf-8") as lines:
            for line in lines:
                yield line.rstrip("\n")

    def notices(self) -> list[Notice]:
        return [Notice.model_validate_json(text) for text in self.iter_notice_json()]

    def iter_compilation_json(self) -> Iterator[str]:
        """Each compilation as the JSON text of a schema Compilation, in order."""
        with Path(self.compilations_file).open(encoding="utf-8") as lines:
            for line in lines:
                yield line.rstrip("\n")

    def iter_evidence_json(self) -> Iterator[str]:
        """Each evidence entry as the JSON text of a schema Evidence (with the rank), in order."""
        rank = json.dumps(self.rank)
        with Path(self.evidence_file).open(encoding="utf-8") as lines:
            for line in lines:
                # Stored without the rank (decided only after the last record): spliced in after the id and kind.
                head, tail = line.rstrip("\n").split("\x1f", 1)
                yield f'{head},"rank":{rank},{tail}'


# A string as json.dumps writes it (json.dumps(text) is this C function behind a few Python calls).
_quote: Callable[[str], str] = json.encoder.encode_basestring_ascii


class _EvidenceWriter:
    """Hashes each referenced byte range as the reference is made (the bytes were just read, so they are
    in the page cache) and appends the entry to the rank's evidence file. References come in file order (a
    tlparse export alternates between raw.jsonl and its payload pack), so a few open files suffice."""

    OPEN_FILES = 8

    def __init__(self, root: Path, out: Path) -> None:
        self.root = root
        self.out: IO[str] = out.open("w", encoding="utf-8")
        self.handles: dict[str, IO[bytes]] = {}

    def add(self, ref: EvidenceRef) -> None:
        digest = ref.sha256 or self._digest(ref)
        quote = _quote
        compile_id = "null" if ref.compile_id is None else quote(ref.compile_id)
        # Field order as in the Evidence model; \x1f marks where the rank goes (JSON never holds it raw).
        self.out.write(
            f'{{"id":{quote(ref.id)},"kind":{quote(ref.kind)}\x1f"compile_id":{compile_id},'
            f'"file":{quote(ref.file)},"line":{ref.line},"offset":{ref.offset},"length":{ref.length},'
            f'"sha256":"{digest}"}}\n'
        )

    def _digest(self, ref: EvidenceRef) -> str:
        handle = self.handles.get(ref.file)
        if handle is None:
            if len(self.handles) >= self.OPEN_FILES:
                self.handles.pop(next(iter(self.handles))).close()  # the longest open
            handle = self.handles[ref.file] = (self.root / ref.file).open("rb")
        handle.seek(ref.offset)
        return hashlib.sha256(handle.read(ref.length)).hexdigest()

    def close(self) -> None:
        self.out.close()
        for handle in self.handles.values():
            handle.close()
        self.handles.clear()


def _exit_with_parent(parent: int) -> None:
    """Initializer of every worker process: exit when the importing process (pid `parent`, taken before the
    worker was started, so that a worker starting after the importer died also notices) is gone.

    A worker blocks on its task queue, and every worker holds that queue's write end too (fork copies it), so
    after a `kill -9` of the importer nothing ever wakes it: it would live on, holding memory and the
    importer's stdout. A daemon thread notices the worker being re-parented and ends it."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="dynamo-diff-exit-with-parent", daemon=True).start()


class _Range(NamedTuple):
    """One byte range of a trace file for a worker: [start, stop), whose first record is on `first_line`."""

    root: str
    rel: str
    fmt: str
    limits: Limits
    start: int
    stop: int
    first_line: int
    rank: int | None


def _extract_range(task: _Range) -> tuple[list[Fact], FileReport]:
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


def _extract_range_facts(task: _Range) -> tuple[list[Fact], FileReport]:
    report = FileReport(file=task.rel, rank_from_name=task.rank)
    facts = []
    config_kept = False
    where = {"start": task.start, "stop": task.stop, "first_line": task.first_line}
    root = Path(task.root)
    with _records(root, task.rel, task.fmt, task.limits, report, **where) as records:
        for fact in _hashed(collapse_repeats(map(extract, records)), root):
            if fact.kind == "compilation_metrics" and isinstance(fact.data, dict):
                # Only the first configuration of a rank is read; later copies need not cross processes.
                if config_kept:
                    fact.data = {k: v for k, v in fact.data.items() if k not in ("dynamo_config", "inductor_config")}
                config_kept = config_kept or "dynamo_config" in fact.data
            facts.append(fact)
    return facts, report


@contextmanager
def _records(
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


def _staged_bytes(root: Path, rel: str, fmt: str) -> int:
    size = (root / rel).stat().st_size
    return size + ((root / (rel + PACK_SUFFIX)).stat().st_size if fmt == "tlparse_jsonl" else 0)


def _facts(job: RankJob, reports: list[FileReport], staged: StagedCopy | None = None) -> Generator[Fact, None, None]:
    root = Path(job.root)
    for rel, fmt in job.files:
        # A raw log still being copied (`staged`): its size when the copy began decides how it is read.
        copying = staged if fmt == "raw_log" else None
        size = copying.size_at_start(rel) if copying is not None else _staged_bytes(root, rel, fmt)
        if job.chunk_workers > 1 and size >= CHUNK_MIN_BYTES:
            parts = max(job.chunk_workers, -(-size // CHUNK_BYTES))
            # Where a range begins, its line number is not known without counting the lines before it (a pass
            # over the whole file): a later range is read as if it began on line PROVISIONAL_LINE, and its line
            # numbers are moved on when the ranges before it have been read.
            tasks: Iterator[_Range]
            if copying is not None:
                tasks = _ranges_as_copied(job, rel, size, parts, copying)
            else:
                split = jsonl_cuts if fmt == "tlparse_jsonl" else record_cuts
                # Ranges of at most CHUNK_BYTES, folded as they arrive (in order), so that memory holds the facts
                # of a few ranges at a time rather than of the whole file.
                tasks = (
                    _Range(str(root), rel, fmt, job.limits, a, b, 1 if a == 0 else PROVISIONAL_LINE, job.rank)
                    for a, b in split(root / rel, parts)
                )
            parts_read: list[FileReport] = []
            lines_before = 0
            with ProcessPoolExecutor(
                max_workers=job.chunk_workers, initializer=_exit_with_parent, initargs=(os.getpid(),)
            ) as pool:
                for task, future in _submitted(pool, tasks, copying):
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
            continue
        if copying is not None:
            copying.wait(rel, sys.maxsize)  # read whole: once it is all copied
        report = FileReport(file=rel, rank_from_name=job.rank)
        reports.append(report)
        with _records(root, rel, fmt, job.limits, report) as records:
            yield from collapse_repeats(map(extract, records))


def _ranges_as_copied(job: RankJob, rel: str, size: int, parts: int, staged: StagedCopy) -> Iterator[_Range]:
    """The byte ranges record_cuts makes of a raw log (`size` bytes when its copy began), each as soon as the copy
    has written past its end: a cut is looked for only in copied bytes, and the last range ends where the copy
    ended (the file may have grown or shrunk meanwhile)."""

    def task(a: int, b: int) -> _Range:
        return _Range(job.root, rel, "raw_log", job.limits, a, b, 1 if a == 0 else PROVISIONAL_LINE, job.rank)

    start = 0
    for cut in cut_points(Path(job.root) / rel, size, parts, lambda upto: staged.wait(rel, upto)):
        yield task(start, cut)
        start = cut
    end = staged.wait(rel, sys.maxsize)
    assert end is not None  # complete (an error or a cancelled copy raises)
    if end > start or start == 0:
        yield task(start, end)


def _submitted(
    pool: ProcessPoolExecutor, tasks: Iterator[_Range], staged: StagedCopy | None
) -> Generator[tuple[_Range, Future[tuple[list[Fact], FileReport]]], None, None]:
    """Each task with its future, in order. While a file is still being copied (`staged`), a thread gives the
    pool each range as soon as its bytes are there, so that the ranges copied so far are read while the caller
    folds the facts. Should the caller stop (it failed, or was interrupted), the copy is cancelled and so are the
    ranges no worker has begun (as `Executor.map` does). A future is let go once it is given to the caller, so
    that the facts of the ranges folded already are not kept."""
    # The tasks given to the pool and not yet to the caller, in order: the feeder appends, the caller pops.
    pending: deque[tuple[_Range, Future[tuple[list[Fact], FileReport]]]] = deque()

    def submit(task: _Range) -> None:
        pending.append((task, pool.submit(_extract_range, task)))

    finished = False
    feeder: threading.Thread | None = None
    try:
        if staged is None:
            for task in tasks:
                submit(task)
            while pending:
                yield pending.popleft()
            finished = True
            return
        # The feeder says when another task is in `pending` (None: no more; an exception: the copy's error).
        ready: queue.Queue[bool | BaseException | None] = queue.Queue()

        def feed() -> None:
            try:
                for task in tasks:
                    submit(task)
                    ready.put(True)
                ready.put(None)
            except BaseException as exc:  # the copy's error (or its cancellation) goes to the caller
                ready.put(exc)

        feeder = threading.Thread(target=feed, name="dynamo-diff-ranges", daemon=True)
        feeder.start()
        while (item := ready.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield pending.popleft()
        finished = True
    finally:
        if not finished and staged is not None:
            staged.cancel()  # wakes the feeder if it waits for bytes
        if feeder is not None:
            feeder.join()
        if not finished:
            for _, future in pending:
                future.cancel()


# The line a byte range after the first is read as beginning on, until the lines before it are known (not 1:
# line 1 of a tlparse raw.jsonl is its string table).
PROVISIONAL_LINE = 2


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


def analyse_rank(job: RankJob, staged: StagedCopy | None = None) -> RankResult:
    """Read and classify one rank. Pure with respect to the store: reads files under job.root only. `staged`: the
    rank's files are still being copied there (reading waits for the bytes it reads; see analysis._staged)."""
    with collector_paused():  # millions of short-lived objects, no cycles (dynamo_diff_store.gc_pause)
        return _analyse_rank(job, staged)


def _analyse_rank(job: RankJob, staged: StagedCopy | None = None) -> RankResult:
    if not job.work:
        raise ValueError("RankJob.work: a directory for the rank's compilations and evidence is needed")
    work = Path(job.work)
    reports: list[FileReport] = []
    json_ranks: Counter[int] = Counter()

    def strings_for(file: str) -> dict[int, str]:
        # Each file has its own intern table.
        return next((r.strings for r in reports if r.file == file or file.startswith(_dir_of(r.file))), {})

    evidence_path = work / f"{job.group}.evidence.jsonl"
    compilations_path = work / f"{job.group}.compilations.jsonl"
    evidence = _EvidenceWriter(Path(job.root), evidence_path)
    classifier = Classifier(
        job.group, evidence.add, spill=work / f"{job.group}.identities.sqlite", keep=IDENTITIES_IN_MEMORY
    )
    facts = _facts(job, reports, staged)
    try:
        for fact in facts:
            if fact.rank is not None:
                json_ranks[fact.rank] += fact.repeat
            classifier.feed(fact)
    except BaseException:
        facts.close()  # stops the reading (and a copy it overlaps) now, not when the generator is collected
        classifier.identities.close()  # finish() closes it otherwise
        raise
    finally:
        evidence.close()
    # The file name is the more reliable source of the rank; the JSON `rank` field is the fallback.
    rank = job.rank
    notices: list[Notice] = []
    if rank is None and json_ranks:
        rank = json_ranks.most_common(1)[0][0]
        if len(json_ranks) > 1:
            notices.append(
                Notice(
                    code=NoticeCode.MIXED_RANK_FIELDS,
                    rank=rank,
                    message=(
                        f"records in {', '.join(rel for rel, _ in job.files)} carry several rank values "
                        f"{sorted(json_ranks)}; the rank is taken as {rank} (the most frequent)"
                    ),
                )
            )
    elif job.rank is not None and json_ranks and set(json_ranks) != {job.rank}:
        notices.append(
            Notice(
                code=NoticeCode.RANK_FIELD_DISAGREES,
                severity=Severity.INFO,
                rank=job.rank,
                message=(
                    f"the file name says rank {job.rank} but records say rank {sorted(json_ranks)}; "
                    "the file name is used"
                ),
            )
        )
    counts = CountAccumulator()
    functions = FunctionGrouper()
    with compilations_path.open("w", encoding="utf-8") as out:

        def emit(comp: Compilation, incomplete: set[str]) -> None:
            out.write(comp.model_dump_json())
            out.write("\n")
            counts.add(comp)
            functions.add(comp, incomplete)

        result = classifier.finish(strings_for, emit, rank=rank)
    notices[:0] = result.notices
    notices.extend(_file_notices(reports, rank))
    kinds: Counter[str] = Counter()
    for report in reports:
        kinds.update(report.record_kinds)
    # The summary and notices go to files too: the importing process reads them back one rank at a time.
    summary = Rank(
        rank=rank,
        files=[r.file for r in reports],
        counts=counts.counts(result.incomplete),
        functions=functions.functions(),
    )
    summary_path = work / f"{job.group}.rank.json"
    summary_path.write_text(summary.model_dump_json(exclude={"compilations"}), encoding="utf-8")
    notices_path = work / f"{job.group}.notices.jsonl"
    notices_path.write_text("".join(n.model_dump_json() + "\n" for n in notices), encoding="utf-8")
    return RankResult(
        rank=rank,
        files=summary.files,
        summary_file=str(summary_path),
        notices_file=str(notices_path),
        notice_count=len(notices),
        compilations_file=str(compilations_path),
        compilation_count=result.compilation_count,
        evidence_file=str(evidence_path),
        evidence_count=result.evidence_count,
        partial=any(r.truncated or r.missing_payloads or r.bad_records for r in reports),
        record_kinds=kinds,
        records=sum(r.records for r in reports),
        noise_lines=sum(r.noise_lines for r in reports),
        observed_config=result.observed_config,
        torch_version=result.torch_version,
        torch_git=result.torch_git,
        python_version=result.python_version,
        entry_script=result.entry_script,
        devices=result.devices,
        unfinished=result.unfinished,
        cut_files=[(r.file, r.truncated_at) for r in reports if r.truncated],
        evidence_missing=any(r.missing_payloads or r.bad_records for r in reports),
    )


def _dir_of(rel: str) -> str:
    """The directory prefix of a tlparse raw.jsonl (its payload files live under it)."""
    return rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""


class SharedConfigs:
    """The ranks of one job observe the same configuration (a few hundred dynamo and inductor settings, about
    200 KB in memory each time a worker's result is unpickled): one copy per distinct configuration is kept, so
    that the importing process does not grow by that much per rank."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[str, Any]] = {}

    def share(self, result: RankResult) -> RankResult:
        # The short strings every rank repeats are kept once too (a rank's result is a few hundred bytes then).
        result.torch_version = result.torch_version and sys.intern(result.torch_version)
        result.torch_git = result.torch_git and sys.intern(result.torch_git)
        result.python_version = result.python_version and sys.intern(result.python_version)
        result.record_kinds = Counter({sys.intern(kind): n for kind, n in result.record_kinds.items()})
        if result.observed_config:
            key = json.dumps(result.observed_config, sort_keys=True, default=repr)
            result.observed_config = self.seen.setdefault(key, result.observed_config)
        return result


def require_executor(executor: Executor) -> None:
    """Fail early (before an input is copied) when the executor cannot run here: `missing_extra` without Ray."""
    if executor == "ray":
        from dynamo_diff_store.analysis._ray import require_ray

        require_ray()
    elif executor != "local":
        raise ValueError(f"executor {executor!r}: one of {', '.join(EXECUTORS)}")


def analyse_ranks(
    jobs: Sequence[RankJob],
    work: Path,
    workers: int | None = None,
    on_rank: Callable[[int], None] | None = None,
    executor: Executor = "local",
    staged: StagedCopy | None = None,
) -> list[RankResult]:
    """Run analyse_rank over the jobs, in parallel processes when there is more than one (or as Ray tasks,
    `executor="ray"`: the same results); each rank's compilations and evidence are written under `work`.
    `on_rank(n)` is told how many ranks are done. `staged`: one local job whose files are still being copied
    (analysis._staged)."""
    if staged is not None and (len(jobs) != 1 or executor != "local"):
        raise ValueError("reading while the input is copied: one job, on the local executor")
    if not jobs:
        return []  # a bundle without trace files (a run that compiled no frame)
    jobs = [replace(job, work=str(work)) for job in jobs]
    done = on_rank or (lambda _: None)
    if executor == "ray":
        from dynamo_diff_store.analysis._ray import analyse_ranks_ray

        return analyse_ranks_ray(jobs, done)
    if executor != "local":
        raise ValueError(f"executor {executor!r}: one of {', '.join(EXECUTORS)}")
    if len(jobs) == 1:
        cpus = os.cpu_count() or 1
        result = analyse_rank(replace(jobs[0], chunk_workers=cpus if workers is None else max(workers, 1)), staged)
        done(1)
        return [result]
    if workers is None:
        workers = min(len(jobs), os.cpu_count() or 1)
    results: list[RankResult] = []
    shared = SharedConfigs()
    if workers <= 1:
        for job in jobs:
            results.append(shared.share(analyse_rank(job)))
            done(len(results))
        return results
    with ProcessPoolExecutor(max_workers=workers, initializer=_exit_with_parent, initargs=(os.getpid(),)) as pool:
        for result in pool.map(analyse_rank, jobs):
            results.append(shared.share(result))
            done(len(results))
    return results


def _lines(values: Sequence[int]) -> str:
    shown = ", ".join(str(v) for v in values[:10])
    return shown + (f" and {len(values) - 10} more" if len(values) > 10 else "")


def _file_notices(reports: list[FileReport], rank: int | None) -> list[Notice]:
    return [notice for report in reports for notice in _report_notices(report, rank)]


def _report_notices(r: FileReport, rank: int | None) -> Iterator[Notice]:
    """What reading one file found, one notice per kind of problem."""

    def notice(code: NoticeCode, message: str, severity: Severity = Severity.WARNING, **details: object) -> Notice:
        return Notice(code=code, severity=severity, rank=rank, message=message, details={"file": r.file, **details})

    if r.truncated:
        yield notice(
            NoticeCode.TRUNCATED,
            f"PARTIAL: {r.file} ends mid-record at line {r.truncated_at}: the file was cut there, the last record is "
            "incomplete and counts may be low",
            Severity.ERROR,
            line=r.truncated_at,
        )
    if r.payload_mismatches:
        yield notice(
            NoticeCode.PAYLOAD_MD5_MISMATCH,
            f"{len(r.payload_mismatches)} payload(s) in {r.file} do not match their md5 (records at lines "
            f"{_lines(r.payload_mismatches)}); they were read as they are",
            lines=r.payload_mismatches,
        )
    if r.missing_payloads:
        yield notice(
            NoticeCode.MISSING_PAYLOAD,
            f"{len(r.missing_payloads)} payload file(s) named in {r.file} are missing (lines "
            f"{_lines(r.missing_payloads)}); counts that depend on them are marked incomplete",
            lines=r.missing_payloads,
        )
    if r.bad_records:
        samples = "; ".join(f"line {ln}: {why}" for ln, why in r.bad_record_samples[:3])
        yield notice(
            NoticeCode.MALFORMED_RECORDS,
            f"{r.bad_records} record(s) in {r.file} were rejected: {samples}",
            samples=[list(s) for s in r.bad_record_samples],
        )
    if r.noise_lines:
        yield notice(
            NoticeCode.NOISE_LINES,
            f"{r.noise_lines} line(s) in {r.file} are not trace lines and were skipped (e.g. line "
            f"{_lines(r.noise_samples)})",
            Severity.INFO,
            count=r.noise_lines,
        )
    if r.non_utf8_payloads:
        yield notice(
            NoticeCode.NON_UTF8_PAYLOAD,
            f"{len(r.non_utf8_payloads)} payload(s) in {r.file} are not valid UTF-8 (lines "
            f"{_lines(r.non_utf8_payloads)})",
        )
    if r.bad_id_fields:
        yield notice(
            NoticeCode.BAD_ID_FIELDS,
            f"{len(r.bad_id_fields)} compile-id or rank field(s) in {r.file} are not non-negative integers and "
            "were ignored",
        )
    if r.payload_unverifiable:
        yield notice(
            NoticeCode.PAYLOAD_UNVERIFIABLE,
            f"{len(r.payload_unverifiable)} payload(s) in {r.file} cannot be md5-checked (tlparse re-serialized them)",
            Severity.INFO,
        )
