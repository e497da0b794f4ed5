"""The content-addressed capture store: immutable capture directories plus a SQLite index.

Layout:
    <store>/index.sqlite              look-up index (derived; rebuilt from the directories if needed)
    <store>/captures/<id>/capture.json   the normalized Capture (with its evidence list)
    <store>/captures/<id>/input/...      the imported bytes, exactly as read (evidence points here)
    <store>/tmp/import-<pid>-<rand>/     staging; becomes captures/<id> by one atomic rename

A capture id is the sha256 of the imported files' paths and hashes plus the reader and schema versions, so
importing the same input twice is a no-op. The store never executes anything it imported.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.evidence import Evidence
from dynamo_diff_schema.version import SCHEMA_VERSION

from dynamo_diff_store import index
from dynamo_diff_store.assemble import assemble_capture
from dynamo_diff_store.ingest import READER_VERSION, analyse_ranks
from dynamo_diff_store.inputs import discover
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.manifests import read_manifest
from dynamo_diff_store.staging import MANIFEST_NAME, copy_input, layout_notices, plan_jobs

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class ImportResult:
    capture: Capture
    created: bool


@dataclass(frozen=True)
class CaptureRow:
    id: str
    label: str | None
    imported_at: str
    input_kind: str
    torch_version: str | None
    artifact_structure: str
    rank_count: int
    counts: dict[str, Any]


@dataclass(frozen=True)
class EvidenceExcerpt:
    evidence: Evidence
    text: str
    offset: int
    next_offset: int | None
    total_chars: int


class Store:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    # -- paths -------------------------------------------------------------------------------------------

    @property
    def captures_dir(self) -> Path:
        return self.path / "captures"

    def capture_dir(self, capture_id: str) -> Path:
        return self.captures_dir / capture_id

    @contextmanager
    def _index(self, *, create: bool) -> Iterator[sqlite3.Connection | None]:
        db = self.path / "index.sqlite"
        if not create and not db.exists():
            yield None
            return
        if create:
            self.captures_dir.mkdir(parents=True, exist_ok=True)
            (self.path / "tmp").mkdir(exist_ok=True)
        try:
            conn = index.connect(db)
        except sqlite3.DatabaseError as err:
            raise DynamoDiffError(ErrorCode.CORRUPT_STORE, f"the store index {db} cannot be opened: {err}") from err
        try:
            yield conn
        finally:
            conn.close()

    # -- import ------------------------------------------------------------------------------------------

    def import_path(
        self,
        path: Path,
        *,
        label: str | None = None,
        manifest: Path | None = None,
        limits: Limits | None = None,
        progress: Progress | None = None,
        workers: int | None = None,
    ) -> ImportResult:
        """Import a trace file, trace directory, tlparse export or bundle. Idempotent by content."""
        limits = limits or Limits()
        layout = discover(Path(path), limits)
        with self._index(create=True) as conn:
            assert conn is not None
            self._reconcile(conn)
            staging = Path(tempfile.mkdtemp(prefix=f"import-{os.getpid()}-", dir=self.path / "tmp"))
            try:
                copied = copy_input(layout, staging / "input", limits, manifest=manifest, progress=progress)
                capture_id = _capture_id(copied)
                if self.capture_dir(capture_id).is_dir():
                    shutil.rmtree(staging, ignore_errors=True)
                    return ImportResult(capture=self.load(capture_id), created=False)
                staged_manifest = staging / "input" / MANIFEST_NAME
                manifest_model = read_manifest(staged_manifest, limits) if staged_manifest.exists() else None
                jobs = plan_jobs(layout, staging / "input", limits)
                if progress is not None:
                    progress("analyse", 0, len(jobs))
                results = analyse_ranks(jobs, workers=workers)
                if progress is not None:
                    progress("analyse", len(jobs), len(jobs))
                capture = assemble_capture(
                    capture_id=capture_id,
                    layout=layout,
                    files=copied,
                    results=results,
                    manifest=manifest_model,
                    layout_notices=layout_notices(layout),
                    label=label,
                    imported_at=datetime.now(UTC).isoformat(timespec="seconds"),
                    reader_version=READER_VERSION,
                )
                # Durable against a crashed or killed process: the rename below is the commit point. The
                # bytes themselves are not fsynced one by one (thousands of small payload files); a capture
                # damaged by a power loss is caught by the sha256 checks of every evidence read.
                (staging / "capture.json").write_text(capture.model_dump_json(), encoding="utf-8")
                try:
                    staging.rename(self.capture_dir(capture_id))
                except OSError:
                    # Another process imported the same bytes first: theirs is identical.
                    if not self.capture_dir(capture_id).is_dir():
                        raise
                    shutil.rmtree(staging, ignore_errors=True)
                    index.insert_capture(conn, capture, capture.evidence)
                    return ImportResult(capture=self.load(capture_id), created=False)
                index.insert_capture(conn, capture, capture.evidence)
                return ImportResult(capture=capture, created=True)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise

    def _reconcile(self, conn: sqlite3.Connection) -> None:
        """Make the index agree with the directories after a crash: directories are the truth."""
        on_disk = {p.name for p in self.captures_dir.iterdir() if p.is_dir()} if self.captures_dir.exists() else set()
        indexed = {row["id"] for row in conn.execute("SELECT id FROM captures")}
        for capture_id in sorted(on_disk - indexed):
            capture = self._read_capture_file(capture_id)
            index.insert_capture(conn, capture, capture.evidence)
        for capture_id in sorted(indexed - on_disk):
            conn.execute("DELETE FROM captures WHERE id = ?", (capture_id,))
        tmp = self.path / "tmp"
        if tmp.exists():
            for leftover in tmp.iterdir():
                pid = leftover.name.split("-")[1] if leftover.name.count("-") >= 2 else ""
                if pid.isdigit() and not _pid_alive(int(pid)):
                    shutil.rmtree(leftover, ignore_errors=True)

    # -- look-up -----------------------------------------------------------------------------------------

    def resolve(self, ref: str) -> str:
        """A full id, a unique prefix (at least 4 hex digits) or a unique label -> the capture id."""
        ref = ref.strip()
        with self._index(create=False) as conn:
            if conn is None:
                raise DynamoDiffError(ErrorCode.UNKNOWN_CAPTURE, f"no capture {ref!r}: the store {self.path} is empty")
            rows = []
            if len(ref) >= 4 and all(ch in "0123456789abcdef" for ch in ref):
                rows = [
                    r["id"] for r in conn.execute("SELECT id FROM captures WHERE id LIKE ? ORDER BY id", (ref + "%",))
                ]
            if not rows:
                rows = [r["id"] for r in conn.execute("SELECT id FROM captures WHERE label = ? ORDER BY id", (ref,))]
        if not rows:
            raise DynamoDiffError(
                ErrorCode.UNKNOWN_CAPTURE, f"no capture matches {ref!r} in {self.path} (see `dynamo-diff list`)"
            )
        if len(rows) > 1:
            raise DynamoDiffError(
                ErrorCode.AMBIGUOUS_PREFIX,
                f"{ref!r} matches {len(rows)} captures: {', '.join(r[:12] for r in rows[:10])}",
                candidates=rows,
            )
        return str(rows[0])

    def load(self, ref: str) -> Capture:
        return self._read_capture_file(self.resolve(ref))

    def _read_capture_file(self, capture_id: str) -> Capture:
        path = self.capture_dir(capture_id) / "capture.json"
        try:
            return Capture.model_validate_json(path.read_bytes())
        except (OSError, ValueError) as err:
            raise DynamoDiffError(
                ErrorCode.CORRUPT_STORE,
                f"capture {capture_id[:12]} is damaged: {path} cannot be read ({type(err).__name__})",
                capture=capture_id,
            ) from err

    def list_captures(self) -> list[CaptureRow]:
        with self._index(create=False) as conn:
            if conn is None:
                return []
            rows = conn.execute("SELECT * FROM captures ORDER BY imported_at, id").fetchall()
        return [
            CaptureRow(
                id=r["id"],
                label=r["label"],
                imported_at=r["imported_at"],
                input_kind=r["input_kind"],
                torch_version=r["torch_version"],
                artifact_structure=r["artifact_structure"],
                rank_count=r["rank_count"],
                counts=index.counts_of(r),
            )
            for r in rows
        ]

    def remove(self, ref: str) -> str:
        capture_id = self.resolve(ref)
        with self._index(create=True) as conn:
            assert conn is not None
            # Move out of sight first (atomic), then drop the index rows, then delete the bytes.
            doomed = self.path / "tmp" / f"remove-{os.getpid()}-{capture_id}"
            self.capture_dir(capture_id).rename(doomed)
            conn.execute("DELETE FROM captures WHERE id = ?", (capture_id,))
            shutil.rmtree(doomed, ignore_errors=True)
        return capture_id

    # -- evidence ----------------------------------------------------------------------------------------

    def evidence_index(
        self, ref: str, *, kind: str | None = None, offset: int = 0, limit: int = 50
    ) -> tuple[list[Evidence], int]:
        """A page of the evidence index, and the total number of entries that match."""
        capture_id = self.resolve(ref)
        where, args = "capture_id = ?", [capture_id]
        if kind:
            where += " AND kind = ?"
            args.append(kind)
        with self._index(create=False) as conn:
            assert conn is not None
            total = conn.execute(f"SELECT COUNT(*) FROM evidence WHERE {where}", args).fetchone()[0]
            rows = conn.execute(
                f"SELECT * FROM evidence WHERE {where} ORDER BY rowid LIMIT ? OFFSET ?", [*args, limit, offset]
            ).fetchall()
        return [_evidence_of(r) for r in rows], int(total)

    def read_evidence(self, ref: str, evidence_id: str, *, offset: int = 0, max_chars: int = 4000) -> EvidenceExcerpt:
        """The evidence bytes, sha256-checked, decoded, then paged by characters."""
        capture_id = self.resolve(ref)
        with self._index(create=False) as conn:
            assert conn is not None
            row = conn.execute(
                "SELECT * FROM evidence WHERE capture_id = ? AND id = ?", (capture_id, evidence_id)
            ).fetchone()
        if row is None:
            raise DynamoDiffError(
                ErrorCode.UNKNOWN_EVIDENCE, f"capture {capture_id[:12]} has no evidence {evidence_id!r}"
            )
        ev = _evidence_of(row)
        path = self.capture_dir(capture_id) / "input" / ev.file
        try:
            with path.open("rb") as handle:
                handle.seek(ev.offset)
                data = handle.read(ev.length)
        except OSError as err:
            raise DynamoDiffError(
                ErrorCode.CORRUPT_STORE,
                f"evidence {evidence_id} of capture {capture_id[:12]} cannot be read: {ev.file} ({err.strerror})",
                file=ev.file,
            ) from err
        if len(data) != ev.length or hashlib.sha256(data).hexdigest() != ev.sha256:
            raise DynamoDiffError(
                ErrorCode.CORRUPT_STORE,
                f"evidence {evidence_id} of capture {capture_id[:12]} "
                f"does not match its sha256: {ev.file} was changed after import",
                file=ev.file,
            )
        text = data.decode("utf-8", errors="replace")
        if offset < 0 or max_chars <= 0:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "offset must be >= 0 and max_chars > 0")
        chunk = text[offset : offset + max_chars]
        end = offset + len(chunk)
        return EvidenceExcerpt(
            evidence=ev, text=chunk, offset=offset, next_offset=end if end < len(text) else None, total_chars=len(text)
        )

    def input_file(self, ref: str, relative: str) -> Path:
        """Path of an imported file (e.g. a source snapshot) inside the capture, confined to it."""
        capture_id = self.resolve(ref)
        base = (self.capture_dir(capture_id) / "input").resolve()
        target = (base / relative).resolve()
        if not target.is_relative_to(base):
            raise DynamoDiffError(ErrorCode.UNSAFE_PATH, f"{relative!r} is outside capture {capture_id[:12]}")
        return target

    def source_snapshot(self, ref: str, co_filename: str) -> tuple[str, str]:
        """(path relative to the project root, text) of the captured copy of `co_filename`.

        Never falls back to the working-tree file: what ran is what the snapshot holds."""
        files, paths = self.source_files(ref)
        rel = paths.get(co_filename)
        if rel is None:
            raise DynamoDiffError(
                ErrorCode.MISSING_SNAPSHOT,
                f"capture {self.resolve(ref)[:12]} has no source "
                f"snapshot of {co_filename} (record runs with `dynamo-diff capture` to keep sources)",
            )
        return rel, files[rel]

    def source_files(self, ref: str) -> tuple[dict[str, str], dict[str, str]]:
        """The captured source snapshots: (relative path -> text, captured absolute path -> relative path).

        From the manifest when it lists them (each snapshot sha256-checked), else from the bundle's sources/
        folder, mapped to the code locations of the trace whose path ends with the snapshot's path."""
        capture = self.load(ref)
        capture_id = capture.capture.id
        files: dict[str, str] = {}
        paths: dict[str, str] = {}
        manifest = capture.capture.manifest
        if manifest is not None and manifest.sources.files:
            for entry in manifest.sources.files:
                data = self.input_file(capture_id, entry.snapshot).read_bytes()
                if hashlib.sha256(data).hexdigest() != entry.sha256:
                    raise DynamoDiffError(
                        ErrorCode.CORRUPT_STORE,
                        f"snapshot {entry.snapshot} of capture "
                        f"{capture_id[:12]} does not match the sha256 its manifest records",
                    )
                files[entry.path] = data.decode("utf-8", errors="replace")
                if entry.captured_path:
                    paths[entry.captured_path] = entry.path
            return files, paths
        base = self.capture_dir(capture_id) / "input" / "sources"
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.is_file() and not path.is_symlink():
                    files[path.relative_to(base).as_posix()] = path.read_text(encoding="utf-8", errors="replace")
        observed = {c.code.co_filename for r in capture.ranks for c in r.compilations if c.code.co_filename}
        for filename in sorted(observed):
            fits = [rel for rel in files if filename == rel or filename.endswith("/" + rel)]
            if fits:
                paths[filename] = max(fits, key=len)
        return files, paths


def _evidence_of(row: sqlite3.Row) -> Evidence:
    return Evidence(
        id=row["id"],
        kind=row["kind"],
        rank=row["rank"],
        compile_id=row["compile_id"],
        file=row["file"],
        line=row["line"],
        offset=row["offset"],
        length=row["length"],
        sha256=row["sha256"],
    )


def _capture_id(files: dict[str, str]) -> str:
    digest = hashlib.sha256()
    digest.update(f"dynamo-diff capture\nreader {READER_VERSION}\nschema {SCHEMA_VERSION}\n".encode())
    for rel in sorted(files):
        digest.update(f"{rel}\0{files[rel]}\n".encode())
    return digest.hexdigest()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
