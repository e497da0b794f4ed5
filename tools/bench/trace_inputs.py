"""Benchmark inputs built from real torch traces: a raw TORCH_TRACE log of a chosen size and its tlparse export.

The log interleaves copies of real torch 2.13 captures (by default the Inductor-, compiled-autograd- and
`chromium_event`-heavy fixtures `compiled_autograd`, `inductor_cold` and `training`). Each copy becomes new
compilations: its `frame_id` and `compiled_autograd_id` are shifted past every earlier copy's, and the
`compile_id` strings in its metadata follow. Payloads are untouched, so every `has_payload` md5 still matches.
Interned strings (`str` records) are merged into one table: a string keeps one id, each `filename` index in a
stack is renumbered to it, and a `str` record is written only the first time its string is needed.

`payload_check` verifies the md5s without the project's reader (glog prefix, then tab-indented payload lines).

`write_rank_job` builds a multi-rank job (one log per rank) from the real rank logs of the `two_ranks` capture,
with the rank rewritten; the tests use it through the `rank_job` fixture (tests/conftest.py), and
`rank_scaling.py` for jobs of thousands of ranks.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BASES = tuple(
    sorted((ROOT / "fixtures" / "captures" / name / "raw").glob("*.log"))[0]
    for name in ("compiled_autograd", "inductor_cold", "training")
)
# The glog prefix of a metadata line, then its JSON object.
PREFIX = re.compile(rb"^([VIWEF]\d{4} [\d:.]+\s+\d+ [^\]]+\] )(\{.*)$")
COMPILE_ID = re.compile(r"^(?:!(\d+)(?:/|$))?(?:(\d+)/(\d+)(/\d+)?)?$")
MiB = 1024 * 1024
# two_ranks: rank 0 compiles f once, rank 1 three times with two shape recompiles (the workload's oracle.json).
TWO_RANKS_LOGS = {
    0: next((ROOT / "fixtures/captures/two_ranks/raw").glob("dedicated_log_torch_trace_rank_0_*.log")),
    1: next((ROOT / "fixtures/captures/two_ranks/raw").glob("dedicated_log_torch_trace_rank_1_*.log")),
}


def write_rank_job(target: Path, layout: dict[int, int], logs: dict[int, Path] = TWO_RANKS_LOGS) -> Path:
    """A TORCH_TRACE directory of a job whose rank N is a copy of the real rank log `logs[layout[N]]`, with the
    rank in its file name and in every record header rewritten to N: what N ranks of one job would write if ranks
    behaved like the source ranks."""
    target.mkdir(parents=True, exist_ok=True)
    texts = {source: path.read_text(encoding="utf-8") for source, path in logs.items()}
    for rank, source in layout.items():
        text = texts[source].replace(f'"rank": {source},', f'"rank": {rank},')
        (target / f"dedicated_log_torch_trace_rank_{rank}_job.log").write_text(text, encoding="utf-8")
    return target


@dataclass
class Record:
    prefix: bytes  # the glog prefix, or b"" for a line that is not a metadata line (kept verbatim)
    obj: dict[str, Any] | None
    tail: bytes  # the payload lines (each "\t..." and its newline), or the whole verbatim line


@dataclass
class LogFacts:
    bytes: int
    records: int
    chromium_events: int
    payloads: int
    copies: int
    bases: tuple[str, ...]


def _records(data: bytes) -> list[Record]:
    records: list[Record] = []
    for line in data.splitlines(keepends=True):
        if line.startswith(b"\t") and records and records[-1].obj is not None:
            records[-1].tail += line
            continue
        m = PREFIX.match(line.rstrip(b"\r\n"))
        if m is None:
            records.append(Record(b"", None, line))
        else:
            records.append(Record(m.group(1), json.loads(m.group(2)), b""))
    return records


def _renumber_filenames(value: Any, mapping: dict[int, int]) -> None:
    """Rewrite interned `filename` indexes (in dynamo_start / create_symbol stacks) through `mapping`."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "filename" and type(item) is int and item in mapping:
                value[key] = mapping[item]
            else:
                _renumber_filenames(item, mapping)
    elif isinstance(value, list):
        for item in value:
            _renumber_filenames(item, mapping)


def _shift_compile_id(text: str, frame: int, autograd: int) -> str:
    m = COMPILE_ID.match(text)
    if m is None or not text:
        return text
    out = f"!{int(m.group(1)) + autograd}" if m.group(1) is not None else ""
    if m.group(2) is not None:
        out += ("/" if out else "") + f"{int(m.group(2)) + frame}/{m.group(3)}{m.group(4) or ''}"
    return out


def _shift(obj: dict[str, Any], frame: int, autograd: int) -> dict[str, Any]:
    """A copy of `obj` with its frame and compiled-autograd ids (and compile_id strings under it) shifted."""
    out = dict(obj)
    if type(out.get("frame_id")) is int:
        out["frame_id"] += frame
    if type(out.get("compiled_autograd_id")) is int:
        out["compiled_autograd_id"] += autograd
    for key, body in out.items():
        if isinstance(body, dict) and isinstance(body.get("compile_id"), str):
            out[key] = {**body, "compile_id": _shift_compile_id(body["compile_id"], frame, autograd)}
    return out


def _stride(records: list[Record], key: str) -> int:
    ids = [r.obj[key] for r in records if r.obj is not None and type(r.obj.get(key)) is int]
    return max(ids, default=-1) + 1


def build_log(out: Path, target_bytes: int, bases: tuple[Path, ...] = DEFAULT_BASES) -> LogFacts:
    """Write rounds of copies of `bases` (one copy of each per round) to `out` until it reaches `target_bytes`."""
    parsed = [_records(base.read_bytes()) for base in bases]
    table: dict[str, int] = {}  # interned string -> its id in the merged table
    for records in parsed:
        mapping: dict[int, int] = {}
        for record in records:
            if record.obj is not None and "str" in record.obj:
                text, old = record.obj["str"]
                mapping[old] = table.setdefault(text, len(table))
        for record in records:
            if record.obj is not None and "str" not in record.obj:
                _renumber_filenames(record.obj, mapping)
    strides = [(_stride(r, "frame_id"), _stride(r, "compiled_autograd_id")) for r in parsed]
    written = records_out = chromium = payloads = copies = 0
    frame = autograd = 0
    defined: set[str] = set()
    with out.open("wb") as handle:
        while written < target_bytes:
            for records, (frame_stride, autograd_stride) in zip(parsed, strides, strict=True):
                chunk: list[bytes] = []
                for record in records:
                    if record.obj is None:
                        chunk.append(record.tail)
                        continue
                    if "str" in record.obj:
                        text = record.obj["str"][0]
                        if text in defined:
                            continue
                        defined.add(text)
                        obj = {"str": [text, table[text]]}
                    else:
                        obj = _shift(record.obj, frame, autograd)
                    chunk.append(record.prefix + json.dumps(obj).encode() + b"\n" + record.tail)
                    records_out += 1
                    chromium += "chromium_event" in obj
                    payloads += "has_payload" in obj
                data = b"".join(chunk)
                handle.write(data)
                written += len(data)
                frame += frame_stride
                autograd += autograd_stride
                copies += 1
                if written >= target_bytes:
                    break
    return LogFacts(written, records_out, chromium, payloads, copies, tuple(b.parent.parent.name for b in bases))


def payload_check(path: Path) -> tuple[int, int]:
    """(payloads whose md5 matches `has_payload`, payloads whose md5 does not), read independently of the
    project's reader: a payload is the tab-indented lines after a metadata line, without their tabs."""
    good = bad = 0
    expected: str | None = None
    lines: list[bytes] = []

    def close() -> None:
        nonlocal good, bad
        if expected is not None:
            if hashlib.md5(b"\n".join(lines)).hexdigest() == expected:
                good += 1
            else:
                bad += 1

    with path.open("rb") as handle:
        for raw in handle:
            line = raw.rstrip(b"\n")
            if line.startswith(b"\t"):
                lines.append(line[1:])
                continue
            close()
            expected, lines = None, []
            m = PREFIX.match(line)
            if m is not None:
                digest = json.loads(m.group(2)).get("has_payload")
                expected = digest if isinstance(digest, str) else None
    close()
    return good, bad


@dataclass
class ExportFacts:
    files: int  # every file tlparse wrote
    payload_files: int  # files that raw.jsonl names (payload_filename)
    imported_bytes: int  # raw.jsonl plus the payload files it names: what an import reads


def convert(tlparse: Path, log: Path, out: Path) -> None:
    """Convert `log` with tlparse into the export directory `out` (raw.jsonl, payload files, HTML pages)."""
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run(
        [str(tlparse), str(log), "-o", str(out), "--overwrite", "--no-browser"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    if not (out / "raw.jsonl").is_file():
        raise RuntimeError(f"tlparse wrote no raw.jsonl into {out}")


def export_facts(export: Path) -> ExportFacts:
    files = sum(1 for p in export.rglob("*") if p.is_file())
    names: set[str] = set()
    with (export / "raw.jsonl").open("rb") as handle:
        for line in handle:
            name = json.loads(line).get("payload_filename")
            if isinstance(name, str):
                names.add(name)
    size = (export / "raw.jsonl").stat().st_size + sum((export / n).stat().st_size for n in names)
    return ExportFacts(files, len(names), size)
