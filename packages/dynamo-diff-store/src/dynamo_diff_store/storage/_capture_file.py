"""The capture directory's files, owned here: capture.json (written and read), files.json (the hashes of the
imported and stored files), the capture id, and the index rows of its evidence.

Layout of `<store>/captures/<id>/`:
    capture.json    the normalized Capture; its evidence list is written last, so it can be cut out unread
    input/...       the imported bytes, exactly as read (evidence points here)
    files.json      hashes of the imported and the stored files (checked by verify)
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.evidence import Evidence, Notice
from dynamo_diff_schema.version import SCHEMA_VERSION
from pydantic import ValidationError

from dynamo_diff_store.analysis import READER_VERSION, legacy_run_status
from dynamo_diff_store.reading import PACK_INDEX_SUFFIX, PACK_SUFFIX

if TYPE_CHECKING:
    import sqlite3

    from dynamo_diff_store.analysis import RankResult

CAPTURE_NAME = "capture.json"
INPUT_DIR = "input"


FILES_NAME = "files.json"
"""Beside capture.json: input path -> sha256 of every imported file (the bytes the capture id was made from)."""


_EVIDENCE_KEY = b',"evidence":['


def lacks_run_status(err: ValidationError) -> bool:
    """Captures carry `capture.run` since reader version 4; is that all an earlier document lacks?"""
    problems = err.errors()
    return bool(problems) and all(p["type"] == "missing" and p["loc"] == ("capture", "run") for p in problems)


def from_earlier_reader(document: bytes) -> Capture:
    """A capture stored by an earlier reader: its run status is derived from what it holds (read-only; the
    stored document is not changed, its id stays what it was)."""
    data = json.loads(document)
    data["capture"]["run"] = legacy_run_status(data)
    return Capture.model_validate(data)


def split_evidence(data: bytes) -> tuple[bytes, bytes | None]:
    """(the document with an empty evidence list, the text of its evidence list), or (data, None) when the list
    cannot be cut out. Every writer of capture.json puts the evidence list last, and no evidence entry can hold
    the key's byte sequence (a quote inside a JSON string is escaped), so its last occurrence is the top-level key."""
    cut = data.rfind(_EVIDENCE_KEY)
    if cut == -1 or not data.endswith(b"]}"):
        return data, None
    return data[:cut] + _EVIDENCE_KEY + b"]}", data[cut + len(_EVIDENCE_KEY) : -2]


def read_with_evidence(data: bytes) -> tuple[Capture, Iterator[Evidence]]:
    """The capture without its evidence list, and that list read one entry at a time (a large capture's
    evidence is most of its memory as models). Raises ValueError when the document is not a capture; the
    iterator raises ValueError at a damaged entry."""
    head, body = split_evidence(data)
    if body is None:
        capture = Capture.model_validate_json(data)
        return capture.model_copy(update={"evidence": []}), iter(capture.evidence)
    capture = Capture.model_validate_json(head)
    text = body.decode("utf-8")

    def entries() -> Iterator[Evidence]:
        decoder = json.JSONDecoder()
        at, end = 0, len(text)
        while at < end:
            obj, at = decoder.raw_decode(text, at)
            yield Evidence.model_validate(obj)
            if at < end:
                if text[at] != ",":
                    raise ValueError(f"expected ',' at character {at} of the evidence list")
                at += 1

    return capture, entries()


def evidence_of(row: sqlite3.Row) -> Evidence:
    """An evidence entry from its index row (the columns `evidence_row` writes)."""
    return Evidence(**{column: row[column] for column in _EVIDENCE_COLUMNS})


def make_capture_id(files: dict[str, str], *, reader: str | None = None, schema: str | None = None) -> str:
    """The id of the capture made from `files` (rel -> sha256) by that reader and schema version (by default
    the current ones)."""
    reader = READER_VERSION if reader is None else reader
    schema = SCHEMA_VERSION if schema is None else schema
    digest = hashlib.sha256()
    digest.update(f"dynamo-diff capture\nreader {reader}\nschema {schema}\n".encode())
    for rel in sorted(files):
        digest.update(f"{rel}\0{files[rel]}\n".encode())
    return digest.hexdigest()


def file_sha256(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def table_check(imported: dict[str, str], stored: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps([imported, stored], sort_keys=True).encode()).hexdigest()


def write_files_table(staging: Path, imported: dict[str, str], capture_sha256: str) -> None:
    """files.json: the imported files' hashes (they make the id) and the stored files' hashes (packs included)."""
    stored = {"capture.json": capture_sha256}
    for path in sorted((staging / "input").rglob("*")):
        rel = path.relative_to(staging / "input").as_posix()
        if not path.is_file():
            continue
        if rel in imported:
            stored[f"input/{rel}"] = imported[rel]  # hashed once while copying
        else:
            stored[f"input/{rel}"] = file_sha256(path) or ""
    table = {"imported": imported, "stored": stored, "check": table_check(imported, stored)}
    (staging / FILES_NAME).write_text(json.dumps(table, sort_keys=True), encoding="utf-8")


def read_files_table(path: Path) -> tuple[dict[str, str], dict[str, str]] | str | None:
    """(imported, stored) from files.json; None when the capture predates it; a problem sentence when damaged."""
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        return f"cannot be read ({type(err).__name__})"
    try:
        imported, stored, check = table["imported"], table["stored"], table["check"]
        ok = all(isinstance(v, str) for part in (imported, stored) for v in part.values())
    except (TypeError, KeyError, AttributeError):
        ok = False
    if not ok:
        return "is not the table of imported and stored hashes"
    if table_check(imported, stored) != check:
        return "does not match its own checksum (the table was changed)"
    return imported, stored


def stored_hashes(input_dir: Path) -> tuple[dict[str, str], dict[str, str]]:
    """rel -> sha256 of every imported file as stored (payloads packed beside a raw.jsonl are hashed slice by
    slice under their own names, as at import), and rel -> problem for what cannot be read."""
    hashes: dict[str, str] = {}
    problems: dict[str, str] = {}
    if not input_dir.is_dir():
        problems["."] = "the input directory is missing"
        return hashes, problems
    for dirpath, dirnames, filenames in os.walk(input_dir, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames) + [d for d in dirnames if Path(dirpath, d).is_symlink()]:
            path = Path(dirpath) / name
            rel = path.relative_to(input_dir).as_posix()
            if rel.endswith(PACK_SUFFIX):
                continue
            if path.is_symlink() or not path.is_file():
                problems[rel] = "is not a regular file"
                continue
            if rel.endswith(PACK_INDEX_SUFFIX):
                hash_pack(input_dir, rel, hashes, problems)
                continue
            digest = hashlib.sha256()
            try:
                with path.open("rb") as handle:
                    while chunk := handle.read(1 << 20):
                        digest.update(chunk)
            except OSError as err:
                problems[rel] = f"cannot be read ({err.strerror})"
                continue
            hashes[rel] = digest.hexdigest()
    return hashes, problems


def hash_pack(input_dir: Path, index_rel: str, hashes: dict[str, str], problems: dict[str, str]) -> None:
    trace_rel = index_rel[: -len(PACK_INDEX_SUFFIX)]
    prefix = trace_rel.rsplit("/", 1)[0] + "/" if "/" in trace_rel else ""
    pack_rel = trace_rel + PACK_SUFFIX
    try:
        table = json.loads((input_dir / index_rel).read_text(encoding="utf-8"))
        entries = [(str(name), int(span[0]), int(span[1])) for name, span in table.items()]
    except (OSError, ValueError, TypeError, AttributeError, IndexError) as err:
        problems[index_rel] = f"the payload pack index cannot be read ({type(err).__name__})"
        return
    try:
        with (input_dir / pack_rel).open("rb") as pack:
            for name, offset, length in entries:
                pack.seek(max(offset, 0))
                hashes[prefix + name] = hashlib.sha256(pack.read(max(length, 0))).hexdigest()
    except OSError as err:
        problems[pack_rel] = f"cannot be read ({err.strerror})"


def read_capture(data: bytes, *, evidence: bool = True) -> Capture:
    """A capture.json document; with `evidence=False` its evidence list is left empty (cut out unread). A capture
    stored by an earlier reader gets its run status derived. Raises ValueError when it is not a capture."""
    document = data if evidence else split_evidence(data)[0]
    try:
        return Capture.model_validate_json(document)
    except ValidationError as err:
        if not lacks_run_status(err):
            raise
        return from_earlier_reader(document)


def _document(
    head: Capture,
    ranks: Sequence[RankResult],
    notices_before: Sequence[Notice],
    notices_after: Sequence[Notice],
) -> Iterator[tuple[str, str]]:
    """capture.json as pieces of its text, each with where it belongs: "summary" (in the document and its
    summary), "body" (the document only: compilations) or "evidence" (the document only: the evidence list's
    entries, last of all but its closing "]}")."""
    yield head.model_dump_json(exclude={"ranks", "notices", "evidence", "suggestions"})[:-1] + ',"ranks":[', "summary"
    for position, result in enumerate(ranks):
        yield ("," if position else "") + result.summary_json()[:-1] + ',"compilations":[', "summary"
        for n, text in enumerate(result.iter_compilation_json()):
            yield ("," + text if n else text), "body"
        yield "]}", "summary"
    yield '],"notices":[', "summary"
    n = 0
    for texts in (
        (notice.model_dump_json() for notice in notices_before),
        (text for result in ranks for text in result.iter_notice_json()),
        (notice.model_dump_json() for notice in notices_after),
    ):
        for text in texts:
            yield ("," + text if n else text), "summary"
            n += 1
    yield '],"evidence":[', "summary"
    n = 0
    for result in ranks:
        for text in result.iter_evidence_json():
            yield ("," + text if n else text), "evidence"
            n += 1


def write_capture(
    path: Path,
    summary_path: Path,
    head: Capture,
    ranks: Sequence[RankResult],
    notices_before: Sequence[Notice] = (),
    notices_after: Sequence[Notice] = (),
) -> str:
    """capture.json from the document's head (the Capture without ranks, notices and evidence) and the ranks'
    work files, written piece by piece, the evidence list last; returns its sha256. The same pieces without the
    compilations and evidence go to `summary_path`, zlib-compressed (what the index keeps of a capture:
    `Store.summary`; the ranks of a job are alike, so a 4,096-rank summary of 8 MB packs into a few hundred KB)."""
    digest = hashlib.sha256()
    packer = zlib.compressobj(6)
    with path.open("wb") as out, summary_path.open("wb") as summary:
        for text, part in _document(head, ranks, notices_before, notices_after):
            data = text.encode()
            digest.update(data)
            out.write(data)
            if part == "summary":
                summary.write(packer.compress(data))
        summary.write(packer.compress(b"]}") + packer.flush())
        data = b"]}"
        digest.update(data)
        out.write(data)
    return digest.hexdigest()


def capture_without_evidence(
    head: Capture,
    ranks: Sequence[RankResult],
    notices_before: Sequence[Notice] = (),
    notices_after: Sequence[Notice] = (),
) -> Capture:
    """The Capture that `write_capture` writes, read back as `read_capture(..., evidence=False)` reads it (its
    evidence list empty), made in memory: nothing is written."""
    pieces = [text for text, part in _document(head, ranks, notices_before, notices_after) if part != "evidence"]
    return read_capture("".join([*pieces, "]}"]).encode(), evidence=False)


# One evidence entry as an index row (the evidence table's columns after capture_id).
EvidenceRow = tuple[str, str, int | None, str | None, str, int, int, int, str]
_EVIDENCE_COLUMNS = ("id", "kind", "rank", "compile_id", "file", "line", "offset", "length", "sha256")


def evidence_row(entry: dict[str, object]) -> EvidenceRow:
    """The index row of one evidence entry (a parsed JSON object or a model's dump)."""
    return tuple(entry[c] for c in _EVIDENCE_COLUMNS)  # type: ignore[return-value]


def evidence_rows(ranks: Sequence[RankResult]) -> Iterator[EvidenceRow]:
    """The index rows of an import's evidence, streamed from the ranks' work files."""
    for result in ranks:
        for text in result.iter_evidence_json():
            yield evidence_row(orjson.loads(text))


def model_evidence_rows(evidence: Sequence[Evidence]) -> Iterator[EvidenceRow]:
    """The index rows of a stored capture's evidence."""
    for e in evidence:
        yield evidence_row(e.model_dump())
