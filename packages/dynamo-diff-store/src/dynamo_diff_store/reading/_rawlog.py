"""Streaming reader for raw TORCH_TRACE logs (`dedicated_log_torch_trace*.log`).

Grammar (torch/_logging/_internal.py, stable from torch 2.2 to at least 2.9): a metadata line is a glog
prefix `V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] ` followed by one JSON object; when the
object has `has_payload` (an md5 hex digest), the payload follows as lines that each start with one TAB,
and the payload text is those lines without the TAB joined with "\\n".

Decisions for input torch does not write:
- a line that is neither a metadata line nor a TAB line is noise (counted, never fatal);
- an empty line inside a payload is noise and does not end the payload (tlparse 0.4.3 skips it the same way;
  editors that strip trailing whitespace turn a "\\t" line into an empty one);
- a metadata line whose JSON is rejected (not UTF-8, invalid, duplicate key, too deep, not an object, no
  kind key) is a bad record: dropped together with its payload lines, and reported;
- CR LF line ends are accepted when the metadata line itself ends in CR LF (a log that went through an
  autocrlf checkout, as tlparse-tests multi_rank_logs rank 1); then one CR is dropped from each payload line;
- TAB lines after a record without `has_payload` are noise;
- payload bytes that are not UTF-8 are decoded with U+FFFD replacements (md5 is checked on the raw bytes);
- a file that stops inside a line or before a promised payload is `truncated`; a last line without newline
  that completes a valid record (tlparse's test logs end like that) only sets `missing_final_newline`. A payload
  cut exactly at a line end cannot be told from a damaged one: in the middle of a file it is an md5 mismatch,
  as the file's last record it is taken as a cut (`truncated`, and the md5 mismatch is reported too): that is
  how a killed process or a full disk leaves a log, and a run that may have been cut must not look whole;
- `max_line_bytes` bounds metadata and noise lines; payload lines are bounded by `max_record_bytes`.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading._filereport import FileReport
from dynamo_diff_store.reading._jsonload import JSONTooDeepError, StrictJSONError, loads_strict
from dynamo_diff_store.reading._records import META_KEYS, CompileKey, Record, Span

# Optional `[rankN]:` prefix (torch's distributed log formatting; not seen in the tlparse-tests corpus),
# level letter, MMDD, HH:MM:SS.micro, thread/process id, source path:line, "] ".
GLOG_PREFIX = re.compile(rb"(?:\[rank(\d+)\]:)?[VIWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ +\S[^\n]*?:\d+\] ")

ID_FIELDS = ("compiled_autograd_id", "frame_id", "frame_compile_id", "attempt")

# A timing span's metadata exactly as torch writes it (three in four records of an Inductor trace): read by this
# pattern instead of a JSON parse. Only text that is valid JSON with these keys, in this order, each once,
# matches (integers without leading zeros, at most 18 digits); anything else takes the general path.
_INT = rb"(0|[1-9][0-9]{0,17})"
_SPAN_META = re.compile(
    rb'\{"chromium_event": \{\}, (?:"rank": ' + _INT + rb", )?"
    rb'(?:"compiled_autograd_id": (?:null|' + _INT + rb"), )?"
    rb'(?:"frame_id": ' + _INT + rb', "frame_compile_id": ' + _INT + rb", )?"
    rb'(?:"attempt": ' + _INT + rb", )?"
    rb'"has_payload": "([0-9a-f]{32})"\}\r?\n?'
)

_NO_IDS = CompileKey(None, None, None, None)


def _bad_id(obj: dict[str, Any], key: str, line: int, report: FileReport) -> None:
    value = obj.get(key)
    if value is not None:
        report.bad_id_fields.append((line, key, repr(value)[:80]))


class Envelope(NamedTuple):
    """What a record's metadata object says about the record itself."""

    kind: str
    extra_kinds: tuple[str, ...]  # further kind keys beside the first (torch writes one)
    key: CompileKey
    rank: int | None


def envelope(obj: dict[str, Any], line: int, report: FileReport, prefix_rank: int | None = None) -> Envelope | None:
    """Kind, extra kinds, compile key and rank of a parsed metadata object; None when it names no kind.

    Id fields must be non-negative integers; null means absent (torch 2.6 writes compiled_autograd_id: null),
    anything else is noted in the report and treated as absent.
    """
    kinds = [key for key in obj if key not in META_KEYS]
    if not kinds:
        return None
    get = obj.get
    ids = (get("compiled_autograd_id"), get("frame_id"), get("frame_compile_id"), get("attempt"))
    if ids == (None, None, None, None):
        key = _NO_IDS
    elif all(type(v) is int and v >= 0 for v in ids if v is not None):
        key = CompileKey(*ids)
    else:
        clean: list[int | None] = []
        for name, value in zip(ID_FIELDS, ids, strict=True):
            if value is None or (type(value) is int and value >= 0):
                clean.append(value)
            else:
                _bad_id(obj, name, line, report)
                clean.append(None)
        key = CompileKey(*clean)
    rank = get("rank")
    if rank is not None and not (type(rank) is int and rank >= 0):
        _bad_id(obj, "rank", line, report)
        rank = None
    if rank is None:
        rank = prefix_rank
    return Envelope(kinds[0], tuple(kinds[1:]), key, rank)


def intern_string(body: Any, line: int, report: FileReport) -> bool:
    """Record a `{"str": [text, index]}` entry in the intern table; False when it is malformed."""
    if type(body) is list and len(body) == 2 and type(body[0]) is str and type(body[1]) is int and body[1] >= 0:
        report.strings[body[1]] = body[0]
        return True
    report.add_bad_record(line, "str record is not [text, index]")
    return False


def open_regular(path: Path, rel: str) -> IO[bytes]:
    """Open `path` for binary reading, refusing anything but a regular file (FIFOs would block, devices never end)."""
    fd, _ = _open_regular_fd(path, rel)
    return os.fdopen(fd, "rb", buffering=1 << 20)


def read_regular(path: str | Path, rel: str, most: int) -> bytes:
    """The bytes of a file open_regular accepts, at most `most` + 1 of them (a caller tells a file longer than
    `most` by the length). Read in one call when the file is as long as it says: no buffer sized for the bound
    (thousands of small payload files)."""
    fd, size = _open_regular_fd(path, rel)
    try:
        chunks = [os.read(fd, min(size, most) + 1)]
        got = len(chunks[0])
        while got <= most:  # on to the end (the file may have grown since it was opened) or past the bound
            chunk = os.read(fd, min(1 << 20, most + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def _open_regular_fd(path: str | Path, rel: str) -> tuple[int, int]:
    """A descriptor of `path` opened for reading and its size, when it is a regular file (see open_regular)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as exc:
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"{rel} does not exist.", file=rel) from exc
    except OSError as exc:
        if Path(path).is_symlink():
            raise DynamoDiffError(
                ErrorCode.UNSAFE_PATH, f"{rel} is a symbolic link; pass the file it points to.", file=rel
            ) from exc
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"Cannot open {rel}: {exc.strerror}.", file=rel) from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DynamoDiffError(ErrorCode.UNSAFE_PATH, f"{rel} is not a regular file.", file=rel)
        os.set_blocking(fd, True)
        return fd, info.st_size
    except BaseException:
        os.close(fd)
        raise


class _Pending:
    """A record whose payload lines are still being collected."""

    __slots__ = ("crlf", "digest", "end", "envelope", "line", "obj", "offset", "parts", "size")

    def __init__(
        self,
        *,
        obj: dict[str, Any],
        env: Envelope,
        digest: Any,
        line: int,
        offset: int,
        end: int,
        crlf: bool,
    ) -> None:
        self.obj = obj
        self.envelope = env
        self.digest = digest
        self.line = line
        self.offset = offset
        self.end = end
        self.size = end - offset
        self.crlf = crlf
        self.parts: list[bytes] = []


def _payload_view(parts: list[bytes], crlf: bool) -> memoryview:
    """The payload of TAB lines `parts`, as a view (slicing bytes would copy the payload twice more)."""
    if not parts:
        return memoryview(b"")
    body = b"".join(parts)
    # Each line is TAB + text + line end; turning "line end + TAB" into "\n" joins the texts with "\n",
    # then the first TAB and the last line end are cut off. (split + join does that in about half the time
    # bytes.replace takes over many short lines.)
    body = b"\n".join(body.split(b"\r\n\t" if crlf else b"\n\t"))
    stop = len(body)
    if body.endswith(b"\n"):
        stop -= 1
        if crlf and body[stop - 1 : stop] == b"\r":
            stop -= 1
    return memoryview(body)[1:stop] if stop > 1 else memoryview(b"")


def decode_payload(data: bytes | memoryview, line: int, report: FileReport) -> str:
    try:
        return str(data, "utf-8")
    except UnicodeDecodeError:
        report.non_utf8_payloads.append(line)
        return str(data, "utf-8", "replace")


def _finish(p: _Pending, rel: str, report: FileReport) -> Record:
    data = _payload_view(p.parts, p.crlf)
    kind, extra, key, rank = p.envelope
    ok = type(p.digest) is str and hashlib.md5(data, usedforsecurity=False).hexdigest() == p.digest
    if not ok:
        report.payload_mismatches.append(p.line)
    return Record(
        kind=kind,
        body=p.obj[kind],
        compile=key,
        rank=rank,
        line=p.line,
        span=Span(rel, p.offset, p.end - p.offset),
        payload=decode_payload(data, p.line, report),
        payload_ok=ok,
        extra_kinds=extra,
        stack=p.obj.get("stack"),
    )


def read_raw_log(
    path: Path,
    rel: str,
    limits: Limits,
    report: FileReport,
    *,
    start: int = 0,
    stop: int | None = None,
    first_line: int = 1,
    fold_spans: bool = False,
) -> Iterator[Record]:
    """Yield the records of one raw trace log in one streaming pass; facts about the file go to `report`.

    `rel` is the file's path relative to the input root (used in spans and errors). Raises DynamoDiffError
    only for an unreadable or unsafe file and for exceeded limits; damage inside the file goes to `report`.
    `start`/`stop` read only that byte range, which must begin at a metadata line (see record_boundaries);
    `first_line` is the line number of `start`.
    `fold_spans`: a run of timing spans (chromium_event) with the same compile id and rank, one after another,
    comes as its first record with `repeat` set to the run's length (the report still counts, md5-checks and
    UTF-8-checks every one of them); what the analysis folds anyway (analysis.collapse_repeats), made cheaper.
    """
    with open_regular(path, rel) as handle:
        if start:
            handle.seek(start)
        yield from _read(
            handle, rel, limits, report, base=start, stop=stop, lineno=first_line - 1, fold_spans=fold_spans
        )


def record_boundaries(path: Path, parts: int) -> list[tuple[int, int, int]]:
    """Split a raw log into about `parts` byte ranges that each start at a metadata line:
    [(start, stop, first_line)]. Fewer ranges when no boundary is found near a split point."""
    return with_first_lines(path, record_cuts(path, parts))


def record_cuts(path: Path, parts: int) -> list[tuple[int, int]]:
    """record_boundaries without the line numbers (which take a pass over the whole file): [(start, stop)]."""
    size = path.stat().st_size
    return list(itertools.pairwise([0, *cut_points(path, size, parts), size]))


_WINDOW = 4 << 20  # how far past a split point a metadata line is looked for


def cut_points(path: Path, size: int, parts: int, ready: Callable[[int], object] | None = None) -> Iterator[int]:
    """Where record_cuts cuts a raw log of `size` bytes into about `parts` ranges: each offset after the first
    (0), in order. `ready(upto)` is called before the bytes up to `upto` are read (a file still being copied: it
    waits until they are there)."""
    last = 0
    with path.open("rb") as handle:
        for k in range(1, parts):
            at = max(last + 1, size * k // parts)
            if ready is not None:
                ready(at + _WINDOW)
            handle.seek(at)
            cut = _next_record(handle, at)
            if cut is not None:  # past `last`, as it is found after `at`
                yield cut
                last = cut


def _next_record(handle: IO[bytes], at: int) -> int | None:
    """The offset of the first metadata line that starts after a newline in the _WINDOW bytes from `at` (the
    handle's position); read a little at a time (the line is usually within a few KB)."""
    window = b""
    pos = 0
    step = 64 << 10
    while True:
        more = handle.read(min(step, _WINDOW - len(window)))
        window += more
        step *= 2
        whole = not more or len(window) >= _WINDOW  # all of the window there is
        while (nl := window.find(b"\n", pos)) >= 0:
            if not whole and window.find(b"\n", nl + 1) < 0:
                break  # the line after it is not all read yet (a prefix match stops at its end)
            m = GLOG_PREFIX.match(window, nl + 1)
            if m is not None and window[m.end() : m.end() + 1] == b"{":
                return at + nl + 1
            pos = nl + 1
        if whole:
            return None


def with_first_lines(path: Path, ranges: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Each range of `ranges` (consecutive, from offset 0) with the line number it starts on."""
    lines = [1]
    with path.open("rb") as handle:
        for a, b in ranges[:-1]:
            lines.append(lines[-1] + handle.read(b - a).count(b"\n"))
    return [(a, b, line) for (a, b), line in zip(ranges, lines, strict=False)]


def _metadata(
    line: bytes, m: re.Match[bytes], lineno: int, limits: Limits, rel: str, report: FileReport
) -> tuple[dict[str, Any], Envelope] | None:
    """The JSON object and envelope of a metadata line (after its glog prefix `m`); None, with the reason in the
    report, when it is not a record."""
    try:
        obj = loads_strict(line[m.end() :], limits)
    except JSONTooDeepError as exc:
        raise limits.exceeded("max_json_depth", exc.depth, file=rel, line=lineno) from None
    except StrictJSONError as exc:
        report.add_bad_record(lineno, exc.reason)
        return None
    if type(obj) is not dict:
        report.add_bad_record(lineno, "metadata is not a JSON object")
        return None
    rank_group = m.group(1)
    env = envelope(obj, lineno, report, int(rank_group) if rank_group is not None else None)
    if env is None:
        report.add_bad_record(lineno, "no kind key")
        return None
    return obj, env


def _last(
    pending: _Pending | None, rel: str, report: FileReport, *, ends_with_newline: bool, last_complete: bool, lineno: int
) -> Record | None:
    """The record still open at the end of the input, and what the end says: cut mid-record, or whole."""
    if pending is not None:
        record = _finish(pending, rel, report)
        if not pending.parts or not record.payload_ok:
            # The file stops inside (or right before) this record's payload, or at a line end inside it.
            report.truncated = True
            report.truncated_at = pending.line
        elif not ends_with_newline:
            report.missing_final_newline = True
        return record
    if not ends_with_newline:
        if last_complete:
            report.missing_final_newline = True
        else:
            report.truncated = True
            report.truncated_at = lineno
    return None


# The end of a run of TAB lines: a newline followed by anything but a TAB.
_RUN_END = re.compile(rb"\n[^\t]")
_CHUNK = 1 << 20


def _more(read: Any, keep: int, left: int | None, rel: str, lineno: int) -> bytes:
    """The next bytes of the file: at least as many as the unfinished line kept (amortised growth), never past
    the end of the range (`left` bytes); b"" at its end."""
    want = max(_CHUNK, keep) if left is None else min(max(_CHUNK, keep), left)
    try:
        return read(want) if want > 0 else b""
    except OSError as exc:
        raise DynamoDiffError(
            ErrorCode.UNREADABLE_INPUT,
            f"Reading {rel} failed near line {lineno}: {exc.strerror}.",
            file=rel,
            line=lineno,
        ) from exc


def _read(
    handle: IO[bytes],
    rel: str,
    limits: Limits,
    report: FileReport,
    *,
    base: int = 0,
    stop: int | None = None,
    lineno: int = 0,
    fold_spans: bool = False,
) -> Iterator[Record]:
    # Works on a buffer rather than line by line: payload lines (most of a log) are handled a run at a time,
    # with one regex search per run, so the per-line Python cost applies only to metadata and noise lines.
    max_line = limits.max_line_bytes
    max_record = limits.max_record_bytes
    max_records = limits.max_records
    first_lineno = lineno
    read = handle.read
    match_prefix = GLOG_PREFIX.match
    match_span = _SPAN_META.fullmatch
    run_end = _RUN_END.search
    strings_seen = 0

    buf = b""
    i = 0  # start of the current line in buf; `base` is the file offset of buf[0]
    eof = False
    ends_with_newline = True
    pending: _Pending | None = None
    skipping = False  # inside the payload lines of a bad record: dropped with it, not counted as noise
    last_complete = False  # the last line was a valid metadata line of a record without payload
    # fold_spans: the run of alike timing spans read last (complete, not yet yielded) and what its metadata said
    # (the raw id and rank groups: equal text means an equal compile key and rank).
    folded: Record | None = None
    folded_as: tuple[bytes | None, ...] = ()
    md5 = hashlib.md5

    while True:
        if i >= len(buf) or (not eof and buf.find(b"\n", i) < 0):
            if eof:
                break
            keep = len(buf) - i
            if keep > max_line + 2 and buf[i] != 9:
                raise limits.exceeded("max_line_bytes", keep, file=rel, line=lineno + 1)
            chunk = _more(read, keep, None if stop is None else stop - (base + len(buf)), rel, lineno)
            base += i
            if base + keep + len(chunk) > limits.max_total_bytes:
                raise limits.exceeded("max_total_bytes", base + keep + len(chunk), file=rel, line=lineno)
            buf = buf[i:] + chunk
            eof = not chunk
            ends_with_newline = chunk[-1] == 10 if chunk else ends_with_newline
            i = 0
            continue

        last_complete = False
        if buf[i] == 9:  # a run of payload (TAB) lines
            m = run_end(buf, i)
            if m is not None:
                end = m.start() + 1
            elif eof:
                end = len(buf)
            else:
                # The run reaches past the buffer: take its complete lines now, the rest after the next read.
                end = buf.rfind(b"\n", i) + 1
            run = buf[i:end]
            count = run.count(b"\n") + (run[-1] != 10)
            if pending is not None:
                pending.parts.append(run)
                pending.end = base + end
                pending.size += end - i
                if pending.size > max_record:
                    raise limits.exceeded("max_record_bytes", pending.size, file=rel, line=pending.line)
            elif not skipping:
                for n in range(lineno + 1, lineno + 1 + count):
                    report.add_noise(n)
            lineno += count
            i = end
            continue

        j = buf.find(b"\n", i)
        end = len(buf) if j < 0 else j + 1
        line = buf[i:end]
        start = base + i
        length = end - i
        i = end
        lineno += 1
        if length > max_line + 1 and not (length == max_line + 2 and line.endswith(b"\r\n")):
            raise limits.exceeded("max_line_bytes", length, file=rel, line=lineno)

        if line in (b"\n", b"\r\n"):
            # Noise that does not end a payload (see the module docstring).
            report.add_noise(lineno)
            continue

        if pending is not None:
            if folded is not None:
                yield folded
                folded = None
            yield _finish(pending, rel, report)
            pending = None
        skipping = False
        crlf = line.endswith(b"\r\n")
        if crlf:
            report.crlf_lines += 1

        m = match_prefix(line)
        if m is None or line[m.end() : m.end() + 1] != b"{":
            report.add_noise(lineno)
            continue

        span = match_span(line, m.end())
        if span is not None:
            # A timing span: the same record the general path makes, without parsing JSON.
            rank_text, ca, frame, fcid, attempt, digest = span.groups()
            rank_group = m.group(1)
            if (
                fold_spans
                and not crlf
                and i < len(buf)
                and buf[i] == 9
                and (tail := run_end(buf, i)) is not None
                and buf[tail.start() + 1] not in (10, 13)
                and base + tail.start() + 1 - start <= max_record
            ):
                # Its payload lines are all in the buffer and the line after them ends the record (not an empty
                # line, which a payload may hold): the record is read whole here, and folded into the run of
                # alike spans before it. Anything else (CR LF, a payload cut by the buffer or the range, an
                # oversized record) takes the general path below, which gives the same record.
                end = tail.start() + 1
                run = buf[i:end]
                data = b"\n".join(run[1:-1].split(b"\n\t"))  # faster than replace (see _payload_view)
                line_no = lineno
                lineno += run.count(b"\n")
                i = end
                report.record_kinds["chromium_event"] += 1
                report.records += 1
                if report.records + strings_seen > max_records:
                    raise limits.exceeded("max_records", report.records + strings_seen, file=rel, line=line_no)
                ok = md5(data, usedforsecurity=False).hexdigest().encode("ascii") == digest
                if not ok:
                    report.payload_mismatches.append(line_no)
                text = decode_payload(data, line_no, report)
                alike = (rank_text, ca, frame, fcid, attempt, rank_group)
                if folded is not None and alike == folded_as:
                    folded.repeat += 1
                    continue
                if folded is not None:
                    yield folded
                folded_as = alike
                folded = Record(
                    kind="chromium_event",
                    body={},
                    compile=CompileKey(
                        None if ca is None else int(ca),
                        None if frame is None else int(frame),
                        None if fcid is None else int(fcid),
                        None if attempt is None else int(attempt),
                    ),
                    rank=int(rank_text)
                    if rank_text is not None
                    else (int(rank_group) if rank_group is not None else None),
                    line=line_no,
                    span=Span(rel, start, base + end - start),
                    payload=text,
                    payload_ok=ok,
                )
                continue
            env = Envelope(
                "chromium_event",
                (),
                CompileKey(
                    None if ca is None else int(ca),
                    None if frame is None else int(frame),
                    None if fcid is None else int(fcid),
                    None if attempt is None else int(attempt),
                ),
                int(rank_text) if rank_text is not None else (int(rank_group) if rank_group is not None else None),
            )
            report.record_kinds["chromium_event"] += 1
            report.records += 1
            if report.records + strings_seen > max_records:
                raise limits.exceeded("max_records", report.records + strings_seen, file=rel, line=lineno)
            pending = _Pending(
                obj={"chromium_event": {}},
                env=env,
                digest=digest.decode("ascii"),
                line=lineno,
                offset=start,
                end=start + length,
                crlf=crlf,
            )
            continue

        parsed = _metadata(line, m, lineno, limits, rel, report)
        skipping = parsed is None  # a bad record's payload lines go with it, not counted as noise
        if parsed is None:
            continue
        obj, env = parsed
        kind = env.kind
        report.record_kinds[kind] += 1
        if kind == "str":
            # Interned strings are not yielded (torch writes no payload for them).
            intern_string(obj[kind], lineno, report)
            strings_seen += 1
            last_complete = "has_payload" not in obj
            continue
        report.records += 1
        if report.records + strings_seen > max_records:
            raise limits.exceeded("max_records", report.records + strings_seen, file=rel, line=lineno)
        if "has_payload" in obj:
            digest = obj["has_payload"]
            if type(digest) is not str:
                report.bad_id_fields.append((lineno, "has_payload", repr(digest)[:80]))
            pending = _Pending(
                obj=obj, env=env, digest=digest, line=lineno, offset=start, end=start + length, crlf=crlf
            )
        else:
            last_complete = True
            if folded is not None:
                yield folded
                folded = None
            yield Record(
                kind=kind,
                body=obj[kind],
                compile=env.key,
                rank=env.rank,
                line=lineno,
                span=Span(rel, start, length),
                extra_kinds=env.extra_kinds,
                stack=obj.get("stack"),
            )

    report.bytes_read = base + len(buf)
    report.lines = lineno - first_lineno
    if folded is not None:
        yield folded
    last = _last(pending, rel, report, ends_with_newline=ends_with_newline, last_complete=last_complete, lineno=lineno)
    if last is not None:
        yield last
