"""What a reader saw in one input file besides its records: noise, damage, the intern table."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# How many example line numbers a report keeps for each kind of problem (counts are always exact).
SAMPLE_LINES = 10


@dataclass
class FileReport:
    """Per-file facts gathered while reading; the importer turns them into notices and count caveats.

    Line numbers are 1-based. `file` is the path relative to the input root (for a tlparse export: raw.jsonl).
    """

    file: str
    rank_from_name: int | None = None
    bytes_read: int = 0
    lines: int = 0  # lines read (of a byte range: in that range)
    records: int = 0
    # Lines that are not part of the trace grammar (not a metadata line, not a payload line of a record).
    noise_lines: int = 0
    noise_samples: list[int] = field(default_factory=list)
    # Lines that look like metadata lines (glog prefix) but whose JSON was rejected: (line, reason).
    # The record is dropped, and so are its payload lines.
    bad_records: int = 0
    bad_record_samples: list[tuple[int, str]] = field(default_factory=list)
    # Metadata line numbers of records whose payload md5 differs from `has_payload`.
    payload_mismatches: list[int] = field(default_factory=list)
    # tlparse re-serializes JSON payloads, so their md5 cannot be checked: line numbers in raw.jsonl.
    payload_unverifiable: list[int] = field(default_factory=list)
    # Line numbers (raw.jsonl) whose payload file is missing.
    missing_payloads: list[int] = field(default_factory=list)
    # Payloads with bytes that are not UTF-8 (decoded with U+FFFD replacements; md5 is over the raw bytes).
    non_utf8_payloads: list[int] = field(default_factory=list)
    truncated: bool = False
    truncated_at: int | None = None
    # The last line has no newline but everything checked out (tlparse's test logs are like this).
    missing_final_newline: bool = False
    # Metadata lines ending in CR LF (a log that went through an autocrlf checkout); the CR is dropped.
    crlf_lines: int = 0
    strings: dict[int, str] = field(default_factory=dict)
    record_kinds: Counter[str] = field(default_factory=Counter)
    # (line, field, repr of the value) for compile id / rank fields that were not non-negative integers.
    bad_id_fields: list[tuple[int, str, str]] = field(default_factory=list)

    def add_noise(self, line: int) -> None:
        self.noise_lines += 1
        if len(self.noise_samples) < SAMPLE_LINES:
            self.noise_samples.append(line)

    def add_bad_record(self, line: int, reason: str) -> None:
        self.bad_records += 1
        if len(self.bad_record_samples) < SAMPLE_LINES:
            self.bad_record_samples.append((line, reason))


def shift_lines(report: FileReport, by: int) -> None:
    """Move every line number in `report` on by `by` (a byte range read with provisional line numbers)."""
    if not by:
        return
    report.noise_samples = [n + by for n in report.noise_samples]
    report.bad_record_samples = [(n + by, why) for n, why in report.bad_record_samples]
    report.payload_mismatches = [n + by for n in report.payload_mismatches]
    report.payload_unverifiable = [n + by for n in report.payload_unverifiable]
    report.missing_payloads = [n + by for n in report.missing_payloads]
    report.non_utf8_payloads = [n + by for n in report.non_utf8_payloads]
    report.bad_id_fields = [(n + by, name, value) for n, name, value in report.bad_id_fields]
    if report.truncated_at is not None:
        report.truncated_at += by


def merge_reports(parts: list[FileReport]) -> FileReport:
    """One report for a file read as consecutive byte ranges (in order)."""
    last = parts[-1]
    merged = FileReport(file=parts[0].file, rank_from_name=parts[0].rank_from_name)
    for part in parts:
        merged.records += part.records
        merged.lines += part.lines
        merged.noise_lines += part.noise_lines
        merged.noise_samples.extend(part.noise_samples)
        merged.bad_records += part.bad_records
        merged.bad_record_samples.extend(part.bad_record_samples)
        merged.payload_mismatches.extend(part.payload_mismatches)
        merged.payload_unverifiable.extend(part.payload_unverifiable)
        merged.missing_payloads.extend(part.missing_payloads)
        merged.non_utf8_payloads.extend(part.non_utf8_payloads)
        merged.crlf_lines += part.crlf_lines
        merged.strings.update(part.strings)
        merged.record_kinds.update(part.record_kinds)
        merged.bad_id_fields.extend(part.bad_id_fields)
    merged.bytes_read = last.bytes_read
    merged.noise_samples = merged.noise_samples[:SAMPLE_LINES]
    merged.bad_record_samples = merged.bad_record_samples[:SAMPLE_LINES]
    merged.truncated, merged.truncated_at = last.truncated, last.truncated_at
    merged.missing_final_newline = last.missing_final_newline
    return merged
