"""Reader for tlparse output directories: `raw.jsonl` plus the payload files it names.

What tlparse 0.4.3 writes (`tlparse LOG -o OUT --no-browser`; with `--all-ranks-html` on a directory it
writes one such export per rank under OUT/rank_<N>/):
- raw.jsonl line 1 is `{"string_table": [...]}`: the log's `str` records, index i at position i;
- then one JSON object per trace record except `str` and `chromium_event`, in log order, with keys sorted
  alphabetically (so raw key order is lost), the glog prefix added as `lineno`, `pathname` (with a leading
  space), `thread` and `timestamp` (the year is guessed), and `payload_filename` beside `has_payload`;
- the payload file is the raw payload text, except that JSON payloads (`.json` files) are re-serialised
  pretty-printed, so their md5 no longer matches `has_payload` (floats may also lose their last digit);
- raw.log, a byte copy of the input log, and HTML pages that this reader ignores.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

import orjson
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading._filereport import FileReport
from dynamo_diff_store.reading._jsonload import JSONTooDeepError, StrictJSONError, loads_strict
from dynamo_diff_store.reading._rawlog import envelope, intern_string, open_regular, read_regular, with_first_lines
from dynamo_diff_store.reading._records import Record, Span

# Keys tlparse adds from the glog prefix; they are not part of torch's record.
TLPARSE_ENVELOPE_KEYS = frozenset({"lineno", "pathname", "thread", "timestamp"})


def _unsafe(rel: str, why: str) -> DynamoDiffError:
    return DynamoDiffError(ErrorCode.UNSAFE_PATH, f"Payload path {rel!r} {why}.", path=rel)


def confine(root: Path, rel: str) -> Path | None:
    """Resolve `rel` inside `root` (already resolved); None when nothing is there.

    Refuses absolute paths, `..`, paths that leave `root` through a symlink, symlink loops and anything
    that is not a regular file, with DynamoDiffError(unsafe_path).
    """
    if not rel or "\x00" in rel or "\\" in rel:
        raise _unsafe(rel, "is empty or contains a NUL or backslash")
    pure = PurePosixPath(rel)
    if pure.is_absolute() or rel.startswith("/"):
        raise _unsafe(rel, "is absolute")
    if any(part == ".." for part in pure.parts):
        raise _unsafe(rel, "contains '..'")
    candidate = root.joinpath(*pure.parts)
    try:
        resolved = Path(os.path.realpath(candidate, strict=True))
    except FileNotFoundError:
        if candidate.is_symlink():
            raise _unsafe(rel, "is a dangling symbolic link") from None
        return None
    except (OSError, RuntimeError) as exc:  # ELOOP
        raise _unsafe(rel, "cannot be resolved (symbolic link loop?)") from exc
    if not resolved.is_relative_to(root):
        raise _unsafe(rel, "leaves the input directory")
    try:
        mode = resolved.stat().st_mode
    except OSError as exc:
        raise _unsafe(rel, "cannot be inspected") from exc
    if not stat.S_ISREG(mode):
        raise _unsafe(rel, "is not a regular file")
    return resolved


def _read_payload(path: Path, rel: str, limits: Limits, line: int) -> bytes:
    data = read_regular(path, rel, limits.max_record_bytes)
    if len(data) > limits.max_record_bytes:
        raise limits.exceeded("max_record_bytes", len(data), file=rel, line=line)
    return data


class PayloadSource(Protocol):
    """Where a tlparse record's payload comes from: (bytes, span) for a payload_filename, None if absent."""

    def get(self, name: str, line: int) -> tuple[bytes, Span] | None: ...


class ExportDirectory:
    """Payload files beside raw.jsonl, as tlparse wrote them (untrusted: every name is confined)."""

    def __init__(self, root: Path, prefix: str, limits: Limits) -> None:
        self.root, self.prefix, self.limits = root, prefix, limits

    def get(self, name: str, line: int) -> tuple[bytes, Span] | None:
        path = confine(self.root, name)
        if path is None:
            return None
        data = _read_payload(path, self.prefix + name, self.limits, line)
        return data, Span(self.prefix + name, 0, len(data))


PACK_SUFFIX = ".payloads"
PACK_INDEX_SUFFIX = ".payloads.json"


class PackedPayloads:
    """Payloads the store packed into one file beside raw.jsonl (`raw.jsonl.payloads`, indexed by
    `raw.jsonl.payloads.json`: name -> [offset, length]); thousands of tiny files cost more to create than
    to read. Names not in the index were missing from the export."""

    def __init__(self, pack: Path, pack_rel: str, index: dict[str, list[int]]) -> None:
        self.pack_rel, self.index = pack_rel, index
        self.handle = open_regular(pack, pack_rel)

    def get(self, name: str, line: int) -> tuple[bytes, Span] | None:
        where = self.index.get(name)
        if where is None:
            return None
        offset, length = where
        self.handle.seek(offset)
        return self.handle.read(length), Span(self.pack_rel, offset, length)

    def close(self) -> None:
        self.handle.close()


def read_tlparse_export(
    root: Path,
    limits: Limits,
    report: FileReport,
    *,
    payloads: PayloadSource | None = None,
    start: int = 0,
    stop: int | None = None,
    first_line: int = 1,
) -> Iterator[Record]:
    """Yield the records of the tlparse export whose raw.jsonl is in `root`, as the raw reader would.

    `report.file` is raw.jsonl's path relative to the input root; spans use it, and payload spans use the
    payload path next to it. Payload md5 is checked: equal → payload_ok True; a `.json` payload file that
    differs → None (tlparse re-serialised it; listed in report.payload_unverifiable); otherwise False.
    A payload file that does not exist gives payload None and report.missing_payloads.
    `payloads` defaults to the payload files beside raw.jsonl (see PackedPayloads for the store's copy).
    `start`/`stop` read only that byte range (a range after the string table; see jsonl_boundaries), whose
    first line is `first_line`.
    """
    root = Path(os.path.realpath(root))
    jsonl_rel = report.file
    prefix = jsonl_rel.rsplit("/", 1)[0] + "/" if "/" in jsonl_rel else ""
    if payloads is None:
        payloads = ExportDirectory(root, prefix, limits)
    jsonl = confine(root, "raw.jsonl")
    if jsonl is None:
        raise DynamoDiffError(
            ErrorCode.UNREADABLE_INPUT, f"{jsonl_rel} does not exist in the tlparse export.", file=jsonl_rel
        )
    max_line = limits.max_line_bytes
    pos = start
    lineno = first_line - 1
    with open_regular(jsonl, jsonl_rel) as handle:
        if start:
            handle.seek(start)
        while stop is None or pos < stop:
            try:
                line = handle.readline(max_line + 2)
            except OSError as exc:
                raise DynamoDiffError(
                    ErrorCode.UNREADABLE_INPUT, f"Reading {jsonl_rel} failed: {exc.strerror}.", file=jsonl_rel
                ) from exc
            if not line:
                break
            lineno += 1
            start = pos
            pos += len(line)
            if len(line) > max_line + 1:
                raise limits.exceeded("max_line_bytes", len(line), file=jsonl_rel, line=lineno)
            if pos > limits.max_total_bytes:
                raise limits.exceeded("max_total_bytes", pos, file=jsonl_rel, line=lineno)
            if not line.endswith(b"\n"):
                report.missing_final_newline = True
            if not line.strip():
                report.add_noise(lineno)
                continue
            try:
                obj = loads_strict(line, limits)
            except JSONTooDeepError as exc:
                raise limits.exceeded("max_json_depth", exc.depth, file=jsonl_rel, line=lineno) from None
            except StrictJSONError as exc:
                if lineno == 1:
                    raise DynamoDiffError(
                        ErrorCode.MALFORMED_INPUT,
                        f"{jsonl_rel} does not start with a tlparse string table ({exc.reason}).",
                        file=jsonl_rel,
                    ) from exc
                if not line.endswith(b"\n"):
                    report.truncated = True
                    report.truncated_at = lineno
                report.add_bad_record(lineno, exc.reason)
                continue
            if lineno == 1:
                _string_table(obj, jsonl_rel, report)
                continue
            if type(obj) is not dict:
                report.add_bad_record(lineno, "line is not a JSON object")
                continue
            record = _record(
                obj,
                line=lineno,
                span=Span(jsonl_rel, start, len(line)),
                payloads=payloads,
                limits=limits,
                report=report,
            )
            if record is not None:
                yield record
    report.bytes_read = pos
    report.lines = lineno - (first_line - 1)
    if lineno == 0:
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"{jsonl_rel} is empty.", file=jsonl_rel)


def jsonl_boundaries(path: Path, parts: int) -> list[tuple[int, int, int]]:
    """Split raw.jsonl into about `parts` byte ranges at line starts: [(start, stop, first_line)]. The first
    range holds the string table (line 1)."""
    return with_first_lines(path, jsonl_cuts(path, parts))


def jsonl_cuts(path: Path, parts: int) -> list[tuple[int, int]]:
    """jsonl_boundaries without the line numbers (which take a pass over the whole file): [(start, stop)]."""
    data_size = path.stat().st_size
    with path.open("rb") as handle:
        header = handle.readline()
        cuts = [0]
        for k in range(1, parts):
            at = max(len(header), data_size * k // parts, cuts[-1] + 1)
            if at >= data_size:
                break
            handle.seek(at - 1)
            handle.readline()  # to the end of the line that contains `at - 1`
            if handle.tell() < data_size:
                cuts.append(handle.tell())
    cuts = sorted(set(cuts))
    cuts.append(data_size)
    return list(itertools.pairwise(cuts))


def _string_table(obj: Any, rel: str, report: FileReport) -> None:
    table = obj.get("string_table") if type(obj) is dict else None
    if type(table) is not list or not all(type(s) is str for s in table):
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"{rel} does not start with a tlparse string table.", file=rel)
    report.strings.update(enumerate(table))


def _record(
    obj: dict[str, Any],
    *,
    line: int,
    span: Span,
    payloads: PayloadSource,
    limits: Limits,
    report: FileReport,
) -> Record | None:
    for extra_key in TLPARSE_ENVELOPE_KEYS:
        obj.pop(extra_key, None)
    env = envelope(obj, line, report)
    if env is None:
        report.add_bad_record(line, "no kind key")
        return None
    kind, extra, key, rank = env
    report.record_kinds[kind] += 1
    if kind == "str":  # tlparse folds these into the string table; accept them anyway
        intern_string(obj[kind], line, report)
        return None
    report.records += 1
    if report.records > limits.max_records:
        raise limits.exceeded("max_records", report.records, file=span.file, line=line)
    record = Record(
        kind=kind,
        body=obj[kind],
        compile=key,
        rank=rank,
        line=line,
        span=span,
        extra_kinds=extra,
        stack=obj.get("stack"),
    )
    if "has_payload" not in obj and "payload_filename" not in obj:
        return record
    filename = obj.get("payload_filename")
    if type(filename) is not str:
        report.missing_payloads.append(line)
        return record
    name: str = filename
    found = payloads.get(name, line)
    if found is None:
        report.missing_payloads.append(line)
        return record
    data, payload_span = found
    digest = obj.get("has_payload")
    if type(digest) is str and hashlib.md5(data, usedforsecurity=False).hexdigest() == digest:
        record.payload_ok = True
    elif name.endswith(".json") and _is_json(data):
        record.payload_ok = None
        report.payload_unverifiable.append(line)
    else:
        record.payload_ok = False
        report.payload_mismatches.append(line)
    try:
        record.payload = data.decode("utf-8")
    except UnicodeDecodeError:
        report.non_utf8_payloads.append(line)
        record.payload = data.decode("utf-8", "replace")
    record.payload_span = payload_span
    return record


def _is_json(data: bytes) -> bool:
    # Only "is this JSON at all" matters here (to tell re-serialised from damaged), so no strict checks.
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError:
        return False
    return True
