"""The notices of one rank's reading: what reading each file found (one notice per kind of problem), and how the
rank fields of its records agree with the rank its file name gives."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity
from dynamo_diff_schema.lists import joined

from dynamo_diff_store.analysis._rank_job import RankJob
from dynamo_diff_store.reading import FileReport


def rank_of(job: RankJob, json_ranks: Counter[int]) -> tuple[int | None, list[Notice]]:
    """The rank of a job's records, and the notices when their `rank` fields disagree with each other or with the
    file name: the file name is the more reliable source of the rank; the JSON `rank` field is the fallback."""
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
    return rank, notices


def _lines(values: Sequence[int]) -> str:
    return joined([str(v) for v in values], 10, more=" and {n} more")


def file_notices(reports: list[FileReport], rank: int | None) -> list[Notice]:
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
