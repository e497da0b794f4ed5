"""Analyse one rank: read its staged trace files, extract facts record by record, fold them into compilations
(the classifier) and write the rank's work files as they are made (compilations, evidence, summary, notices), so
that memory does not grow with the number of compilations. One pure function per rank (`analyse_rank`): the unit
every executor runs (analysis._executors)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

from dynamo_diff_schema.capture import Rank
from dynamo_diff_schema.compilation import Compilation

from dynamo_diff_store.analysis._byte_ranges import range_facts, reads_in_ranges, records, staged_bytes
from dynamo_diff_store.analysis._classify import Classifier
from dynamo_diff_store.analysis._counting import CountAccumulator
from dynamo_diff_store.analysis._evidence_writer import EvidenceWriter
from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._functions import FunctionGrouper
from dynamo_diff_store.analysis._kinds import collapse_repeats, extract
from dynamo_diff_store.analysis._rank_job import Copying, RankJob, RankResult
from dynamo_diff_store.analysis._rank_notices import file_notices, rank_of
from dynamo_diff_store.gc_pause import collector_paused
from dynamo_diff_store.reading import FileReport

# Compilation identities a rank keeps in memory while it is read; older ones wait in a private SQLite file.
IDENTITIES_IN_MEMORY = 2048


# How often a rank's reading tells how far it has got (on_bytes): every 1/200 of its bytes, at least every MiB.
PROGRESS_STEPS = 200


def _facts(
    job: RankJob, reports: list[FileReport], copying: Copying | None, on_bytes: Callable[[int, int], None] | None
) -> Generator[Fact, None, None]:
    root = Path(job.root)
    sizes = [
        copying.size if copying is not None and copying.file == rel else staged_bytes(root, rel, fmt)
        for rel, fmt in job.files
    ]
    total = sum(sizes)
    step = max(total // PROGRESS_STEPS, 1 << 20)
    before = 0  # the bytes of the files read already
    told = 0
    for (rel, fmt), size in zip(job.files, sizes, strict=True):
        # A raw log still being copied: its size when the copy began decides how it is read.
        arriving = copying if copying is not None and copying.file == rel else None
        if reads_in_ranges(size, job.chunk_workers):
            facts: Iterator[Fact] = range_facts(job, rel, fmt, size, reports, arriving)
        else:
            if arriving is not None:
                arriving.ready(sys.maxsize)  # read whole: once it is all copied
            report = FileReport(file=rel, rank_from_name=job.rank)
            reports.append(report)
            facts = _read_whole(root, rel, fmt, job, report)
        for fact in facts:
            yield fact
            # A raw log's facts locate their bytes in it (a tlparse export's, in payload files): how far it is read.
            if on_bytes is not None and fact.file == rel and before + fact.offset - told >= step:
                told = before + fact.offset
                on_bytes(told, total)
        before += size
        if on_bytes is not None:
            told = before
            on_bytes(told, total)


def _read_whole(root: Path, rel: str, fmt: str, job: RankJob, report: FileReport) -> Generator[Fact, None, None]:
    with records(root, rel, fmt, job.limits, report) as recs:
        yield from collapse_repeats(map(extract, recs))


def analyse_rank(
    job: RankJob, copying: Copying | None = None, on_bytes: Callable[[int, int], None] | None = None
) -> RankResult:
    """Read and classify one rank. Pure with respect to the store: reads files under job.root only. `copying`: one
    of the rank's files is still being copied there (reading waits for the bytes it reads; see Copying).
    `on_bytes(done, total)`: how many of the rank's trace bytes are read, told as the reading moves on."""
    with collector_paused(guest=job.guest):  # millions of short-lived objects, no cycles (dynamo_diff_store.gc_pause)
        return _analyse_rank(job, copying, on_bytes)


def _analyse_rank(job: RankJob, copying: Copying | None, on_bytes: Callable[[int, int], None] | None) -> RankResult:
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
    evidence = EvidenceWriter(Path(job.root), evidence_path)
    classifier = Classifier(
        job.group, evidence.add, spill=work / f"{job.group}.identities.sqlite", keep=IDENTITIES_IN_MEMORY
    )
    facts = _facts(job, reports, copying, on_bytes)
    try:
        for fact in facts:
            if fact.rank is not None:
                json_ranks[fact.rank] += fact.repeat
            classifier.feed(fact)
    except BaseException:
        facts.close()  # stops the reading (its ranges not begun) now, not when the generator is collected
        classifier.identities.close()  # finish() closes it otherwise
        raise
    finally:
        evidence.close()
    rank, notices = rank_of(job, json_ranks)
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
    notices.extend(file_notices(reports, rank))
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
        unfinished_last=result.unfinished_last,
        cut_files=[(r.file, r.truncated_at) for r in reports if r.truncated],
        evidence_missing=any(r.missing_payloads or r.bad_records for r in reports),
    )


def _dir_of(rel: str) -> str:
    """The directory prefix of a tlparse raw.jsonl (its payload files live under it)."""
    return rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
