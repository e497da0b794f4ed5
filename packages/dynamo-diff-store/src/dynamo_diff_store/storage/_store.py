"""The content-addressed capture store: immutable capture directories plus a SQLite index.

Layout:
    <store>/index.sqlite              look-up index (derived; rebuilt from the directories if needed)
    <store>/captures/<id>/capture.json   the normalized Capture (with its evidence list)
    <store>/captures/<id>/input/...      the imported bytes, exactly as read (evidence points here)
    <store>/captures/<id>/files.json     hashes of the imported and the stored files (checked by verify)
    <store>/tmp/import-<pid>-<rand>/     staging; becomes captures/<id> by one atomic rename

A capture id is the sha256 of the imported files' paths and hashes plus the reader and schema versions, so
importing the same input twice is a no-op. The store never executes anything it imported.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, BinaryIO

from dynamo_diff_schema.capture import Capture, compiled_status
from dynamo_diff_schema.counts import COUNT_KEYS, Counts
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.evidence import Evidence, Notice, NoticeCode, Severity
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.ids import short_id

from dynamo_diff_store.analysis import READER_VERSION, Executor, RankResult, analyse_ranks, require_executor
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import BesideFile, InputLayout, NamedFiles, discover, find_beside, read_manifest
from dynamo_diff_store.storage import _index as index
from dynamo_diff_store.storage._assemble import assemble_capture, capture_counts, require_records
from dynamo_diff_store.storage._capture_file import (
    CAPTURE_NAME,
    FILES_NAME,
    evidence_of,
    file_sha256,
    make_capture_id,
    read_capture,
    read_files_table,
    read_with_evidence,
    stored_hashes,
    write_files_table,
)
from dynamo_diff_store.storage._overlap import copy_while_reading, overlaps
from dynamo_diff_store.storage._staging import (
    BESIDE_PREFIX,
    MANIFEST_NAME,
    Beside,
    beside_folder,
    copy_input,
    layout_notices,
    plan_jobs,
    source_rels,
)

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class ImportResult:
    """An import's capture id. `summary` (the capture without its compilations and evidence, from the index)
    and `capture` (the whole document) are read from the store on first use: an import holds neither, so that
    it does not grow with the number of compilations or ranks."""

    capture_id: str
    created: bool
    store: Store

    @cached_property
    def summary(self) -> Capture:
        return self.store.summary(self.capture_id)

    @cached_property
    def capture(self) -> Capture:
        return self.store.load(self.capture_id)


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
    run_state: str = "unknown"

    @property
    def compiled_state(self) -> str:
        """compiled, nothing_compiled or no_graph (CompiledStatus.state), from the indexed counts."""
        values = {k: v for k, v in self.counts.items() if k in COUNT_KEYS}
        return str(compiled_status(Counts(**values), None).state)


@dataclass(frozen=True)
class Damage:
    """One problem `Store.verify` found: the capture (None for the store itself), the file, what is wrong."""

    capture_id: str | None
    file: str
    problem: str


@dataclass(frozen=True)
class VerifyReport:
    captures: int
    files: int
    evidence: int
    damage: list[Damage]

    @property
    def damaged_captures(self) -> list[str]:
        return sorted({d.capture_id for d in self.damage if d.capture_id is not None})


@dataclass(frozen=True)
class EvidenceExcerpt:
    evidence: Evidence
    text: str
    offset: int
    next_offset: int | None
    total_chars: int


def _read_error(err: OSError) -> DynamoDiffError:
    where = f" ({err.filename})" if err.filename else ""
    return DynamoDiffError(
        ErrorCode.IO_ERROR,
        f"the trace could not be read: {err.strerror or err}{where}",
        errno=err.errno,
        file=str(err.filename) if err.filename else None,
    )


class Store:
    """`guest`: the store is used inside a program that is not ours (the pytest plugin, in the user's test
    process): reading a trace pauses the cyclic collector without moving the program's objects between its
    generations (`collector_paused(guest=True)`)."""

    def __init__(self, path: Path, *, guest: bool = False) -> None:
        self.path = Path(path)
        self.guest = guest

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
        force_label: bool = False,
        executor: Executor = "local",
        sources_from: Path | None = None,
    ) -> ImportResult:
        """Import a trace file, trace directory, tlparse export or bundle. Idempotent by content.

        A trace directory (a bare log) is imported with the Python files of the folder given (or of `sources_from`,
        a run's own folder holding the trace directory) whose path is the tail of a file the trace names: its source
        snapshot, found beside the log at import (`validity.sources_found_beside`; reading._beside). They are part
        of what was imported, so of the capture id. Nothing outside that folder is read.

        A `label` another capture already has is refused (`label_taken`) unless `force_label`, which moves it
        to this capture. A bundle's own label that another capture has is not applied (a notice says so).
        A failure to read or write files on the way (a full disk, an I/O error) is `io_error`; as for every
        error, no partial capture is kept.

        `executor` is where the ranks are analysed: "local" (a process pool here) or "ray" (Ray tasks, on the
        cluster at RAY_ADDRESS or a local instance started for the import; the store must then be on storage
        the cluster sees). Both give the same capture."""
        try:
            return self._import(
                path, label, manifest, limits or Limits(), progress, workers, force_label, executor, sources_from
            )
        except OSError as err:
            where = f" ({err.filename})" if err.filename else f" (store {self.path})"
            raise DynamoDiffError(
                ErrorCode.IO_ERROR,
                f"the import failed: {err.strerror or err}{where}; no partial capture was kept",
                errno=err.errno,
                file=str(err.filename) if err.filename else None,
            ) from err
        except sqlite3.OperationalError as err:
            raise DynamoDiffError(
                ErrorCode.IO_ERROR,
                f"the import could not update the store index {self.path / 'index.sqlite'}: {err}; "
                "no partial capture was kept (the index is rebuilt from the captures on the next write)",
            ) from err

    def _import(
        self,
        path: Path,
        label: str | None,
        manifest: Path | None,
        limits: Limits,
        progress: Progress | None,
        workers: int | None,
        force_label: bool = False,
        executor: Executor = "local",
        sources_from: Path | None = None,
    ) -> ImportResult:
        require_executor(executor)
        layout = discover(Path(path), limits)
        beside = beside_folder(layout, Path(path), sources_from)
        with self._index(create=True) as conn:
            assert conn is not None
            self._reconcile(conn)
            staging = Path(tempfile.mkdtemp(prefix=f"import-{os.getpid()}-", dir=self.path / "tmp"))
            # Compilations and evidence are written here while ranks are read; not part of the capture.
            work = Path(tempfile.mkdtemp(prefix=f"import-{os.getpid()}-work-", dir=self.path / "tmp"))
            try:
                results: list[RankResult] | None = None  # (read already when read while copied)
                if overlaps(layout, executor, workers):
                    # One large raw log: read while it is copied (storage._overlap).
                    copied, results = copy_while_reading(
                        layout,
                        staging / "input",
                        work,
                        limits,
                        manifest=manifest,
                        progress=progress,
                        workers=workers,
                        guest=self.guest,
                        beside=beside,
                    )
                else:
                    copied = copy_input(
                        layout, staging / "input", limits, manifest=manifest, progress=progress, beside=beside
                    )
                capture_id = make_capture_id(copied, reader=READER_VERSION)
                if label is not None and not force_label:
                    # Another capture's label is refused; the same bytes imported again under their label are not.
                    _refuse_taken(label, _label_owner(conn, label, capture_id))
                if self.capture_dir(capture_id).is_dir():
                    return self._existing(capture_id)
                staged_manifest = staging / "input" / MANIFEST_NAME
                manifest_model = read_manifest(staged_manifest, limits) if staged_manifest.exists() else None
                notices = layout_notices(layout)
                if label is None and manifest_model is not None and manifest_model.label is not None:
                    label = manifest_model.label
                    owner = _label_owner(conn, label, capture_id)
                    if owner is not None:
                        notices.append(
                            Notice(
                                code=NoticeCode.LABEL_TAKEN,
                                severity=Severity.INFO,
                                message=f"the bundle's label {label!r} belongs to capture {short_id(owner)} in this "
                                "store, so this capture has no label",
                                hint=Hint(action=HintAction.IMPORT_WITH_LABEL),
                            )
                        )
                        label = None
                if results is None:
                    jobs = plan_jobs(layout, staging / "input", limits)
                    total = len(jobs)
                    if progress is not None:
                        progress("analyse", 0, total)
                    results = analyse_ranks(
                        jobs,
                        work,
                        workers=workers,
                        on_rank=None if progress is None else lambda n: progress("analyse", n, total),
                        executor=executor,
                        # One rank: how far its reading has got, in bytes ("read").
                        on_bytes=None if progress is None else lambda done, size: progress("read", done, size),
                        guest=self.guest,
                    )
                assembled = assemble_capture(
                    capture_id=capture_id,
                    layout=layout,
                    files=copied,
                    results=results,
                    manifest=manifest_model,
                    layout_notices=notices,
                    label=label,
                    imported_at=datetime.now(UTC).isoformat(timespec="seconds"),
                    reader_version=READER_VERSION,
                    beside_sources=beside.entries(copied) if beside is not None else (),
                )
                # Durable against a crashed or killed process: the rename below is the commit point. The
                # bytes themselves are not fsynced one by one (thousands of small payload files); a capture
                # damaged by a power loss is caught by the sha256 checks of every evidence read.
                summary_path = work / "summary.json.zlib"
                capture_sha256 = assembled.write(staging / "capture.json", summary_path)
                write_files_table(staging, copied, capture_sha256)
                try:
                    staging.rename(self.capture_dir(capture_id))
                except OSError:
                    # Another process imported the same bytes first: theirs is identical.
                    if not self.capture_dir(capture_id).is_dir():
                        raise
                    return self._existing(capture_id)
                index.insert_capture(
                    conn,
                    assembled.head,
                    assembled.evidence_rows(),
                    rank_count=len(assembled.ranks),
                    summary_zlib=summary_path.read_bytes(),
                )
                if force_label and label:
                    conn.execute("UPDATE captures SET label = NULL WHERE label = ? AND id != ?", (label, capture_id))
                return ImportResult(capture_id=capture_id, created=True, store=self)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
                shutil.rmtree(work, ignore_errors=True)

    def imported_from(
        self, capture_id: str, path: Path, *, max_bytes: int = 256 << 20, sources_from: Path | None = None
    ) -> bool:
        """Whether the capture holds exactly what importing `path` (with `sources_from`, as `import_path` takes it)
        would read: every file its table of imported hashes names is at `path` (a script found beside a bare log:
        in its folder) with that sha256, and every trace file, manifest and source snapshot `path` holds (and every
        script the trace names beside it) is in the table. False when that cannot be told cheaply (traces over
        `max_bytes`, an unreadable input, a capture without the table)."""
        table = read_files_table(self.capture_dir(capture_id) / FILES_NAME)
        if not isinstance(table, tuple):
            return False
        imported = table[0]
        try:
            layout = discover(Path(path), Limits())
            if layout.total_bytes > max_bytes:
                return False
            wanted = {f.rel for f in layout.files}
            if layout.manifest is not None:
                wanted.add(MANIFEST_NAME)
            if layout.sources_dir is not None:
                wanted.update(source_rels(layout.sources_dir, layout.root))
            where = {rel: layout.root / rel for rel in imported}
            beside = beside_folder(layout, Path(path), sources_from)
            if beside is not None:
                for found in _beside_of(layout, beside):
                    wanted.add(BESIDE_PREFIX + found.rel)
                    where[BESIDE_PREFIX + found.rel] = found.path
        except (DynamoDiffError, OSError):
            return False
        if not wanted <= imported.keys():
            return False
        return all(file_sha256(where[rel]) == sha for rel, sha in imported.items())

    def read_path(
        self,
        path: Path,
        *,
        label: str | None = None,
        limits: Limits | None = None,
        workers: int | None = None,
    ) -> Capture:
        """The Capture that `import_path` would store for a TORCH_TRACE log (a file, or a folder of them), read
        where it is and kept nowhere: the store is not written (nor made). It has the id the import gives (made
        from the same bytes) and the same evidence ids, and no evidence list (as `load(evidence=False)`); its
        evidence can be read once those bytes are imported. A tlparse export or a bundle is `unsupported_input`
        (import it). The log must not change while it is read (an import reads its own copy)."""
        try:
            return self._read(Path(path), label, limits or Limits(), workers)
        except OSError as err:
            raise _read_error(err) from err

    def read_counts(self, path: Path, *, limits: Limits | None = None, workers: int | None = None) -> Counts:
        """The counts of the Capture `read_path` gives for the same log (its `counts`, summed over its ranks by the
        same code), read without assembling the capture: what a compile budget needs of a test's trace. Refuses and
        fails as `read_path` does; the store is not written (nor made)."""
        limits = limits or Limits()
        try:
            layout = self._raw_layout(Path(path), limits)
            work = Path(tempfile.mkdtemp(prefix=f"dynamo-diff-read-{os.getpid()}-"))
            try:
                results = analyse_ranks(plan_jobs(layout, layout.root, limits), work, workers=workers, guest=self.guest)
                require_records(layout, results, None)
                return capture_counts(results)
            finally:
                shutil.rmtree(work, ignore_errors=True)
        except OSError as err:
            raise _read_error(err) from err

    def _raw_layout(self, path: Path, limits: Limits) -> InputLayout:
        """The layout of TORCH_TRACE logs to read where they are; a bundle or a tlparse export is refused."""
        layout = discover(path, limits)
        raw = layout.kind in ("raw_log", "raw_directory") and all(f.format == "raw_log" for f in layout.files)
        if not raw or layout.manifest is not None or layout.sources_dir is not None:
            raise DynamoDiffError(
                ErrorCode.UNSUPPORTED_INPUT,
                f"{path} is a {layout.kind.replace('_', ' ')}, not TORCH_TRACE logs: import it to read it",
                path=str(path),
            )
        return layout

    def _read(self, path: Path, label: str | None, limits: Limits, workers: int | None) -> Capture:
        layout = self._raw_layout(path, limits)
        files: dict[str, str] = {}
        beside = beside_folder(layout, path, None)
        named = NamedFiles()
        for trace in layout.files:
            digest = hashlib.sha256()
            with trace.path.open("rb") as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
                    if beside is not None:
                        named.feed(chunk)
            named.finish()
            files[trace.rel] = digest.hexdigest()
        if beside is not None:
            # The scripts an import of this folder would keep count in its id (read here, kept nowhere).
            beside.found = find_beside(beside.folder, named.names, limits)
            for found in beside.found:
                files.setdefault(BESIDE_PREFIX + found.rel, file_sha256(found.path) or "")
        capture_id = make_capture_id(files, reader=READER_VERSION)
        work = Path(tempfile.mkdtemp(prefix=f"dynamo-diff-read-{os.getpid()}-"))
        try:
            results = analyse_ranks(plan_jobs(layout, layout.root, limits), work, workers=workers, guest=self.guest)
            assembled = assemble_capture(
                capture_id=capture_id,
                layout=layout,
                files=files,
                results=results,
                manifest=None,
                layout_notices=layout_notices(layout),
                label=label,
                imported_at=datetime.now(UTC).isoformat(timespec="seconds"),
                reader_version=READER_VERSION,
                beside_sources=beside.entries(files) if beside is not None else (),
            )
            return assembled.without_evidence()
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _existing(self, capture_id: str) -> ImportResult:
        """The result for bytes already in the store (indexed now if a crash left them unindexed)."""
        with self._index(create=True) as conn:
            assert conn is not None
            if not conn.execute("SELECT 1 FROM captures WHERE id = ?", (capture_id,)).fetchone():
                capture = self._read_capture_file(capture_id)
                index.insert_capture(conn, capture)
                return ImportResult(capture_id=capture_id, created=False, store=self)
        return ImportResult(capture_id=capture_id, created=False, store=self)

    def _reconcile(self, conn: sqlite3.Connection) -> None:
        """Make the index agree with the directories after a crash: directories are the truth."""
        on_disk = {p.name for p in self.captures_dir.iterdir() if p.is_dir()} if self.captures_dir.exists() else set()
        indexed = {row["id"] for row in conn.execute("SELECT id FROM captures")}
        for capture_id in sorted(on_disk - indexed):
            index.insert_capture(conn, self._read_capture_file(capture_id))
        for capture_id in sorted(indexed - on_disk):
            # Look again: another process may have renamed the directory in and indexed it since the listing
            # above (a directory always appears before its row), and its row must not be lost.
            if not self.capture_dir(capture_id).is_dir():
                conn.execute("DELETE FROM captures WHERE id = ?", (capture_id,))
        tmp = self.path / "tmp"
        if tmp.exists():
            for leftover in tmp.iterdir():
                pid = leftover.name.split("-")[1] if leftover.name.count("-") >= 2 else ""
                if pid.isdigit() and not _pid_alive(int(pid)):
                    shutil.rmtree(leftover, ignore_errors=True)

    # -- verification ------------------------------------------------------------------------------------

    def verify(self) -> VerifyReport:
        """Check the whole store without changing it: every capture's files against the hashes its id was
        made from, every evidence range against its sha256, capture.json, and the index against the
        directories. Returns every problem found (an empty list: the store is intact)."""
        if not self.path.is_dir():
            raise DynamoDiffError(ErrorCode.UNKNOWN_CAPTURE, f"there is no store at {self.path}")
        damage: list[Damage] = []
        on_disk = sorted(p.name for p in self.captures_dir.iterdir()) if self.captures_dir.is_dir() else []
        indexed: dict[str, int] = {}
        db = self.path / "index.sqlite"
        if db.exists():
            try:
                conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
                try:
                    for row in conn.execute("PRAGMA quick_check"):
                        if row[0] != "ok":
                            damage.append(Damage(None, "index.sqlite", f"SQLite check: {row[0]}"))
                    indexed = {
                        r[0]: r[1]
                        for r in conn.execute(
                            "SELECT c.id, (SELECT COUNT(*) FROM evidence e WHERE e.capture_id = c.id) FROM captures c"
                        )
                    }
                finally:
                    conn.close()
            except sqlite3.DatabaseError as err:
                damage.append(Damage(None, "index.sqlite", f"cannot be read: {err}"))
        elif on_disk:
            damage.append(Damage(None, "index.sqlite", "missing (the next import rebuilds it from the directories)"))
        files = evidence = 0
        for capture_id in on_disk:
            found, n_files, n_evidence = self._verify_capture(capture_id, indexed.get(capture_id))
            damage.extend(found)
            files += n_files
            evidence += n_evidence
        for capture_id in sorted(set(indexed) - set(on_disk)):
            damage.append(Damage(capture_id, "index.sqlite", "indexed but its directory is missing"))
        return VerifyReport(captures=len(on_disk), files=files, evidence=evidence, damage=damage)

    def _verify_capture(self, capture_id: str, indexed_evidence: int | None) -> tuple[list[Damage], int, int]:
        root = self.capture_dir(capture_id)
        found: list[Damage] = []

        def bad(file: str, problem: str) -> None:
            found.append(Damage(capture_id, file, problem))

        if root.is_symlink() or not root.is_dir():
            bad(".", "is not a directory")
            return found, 0, 0
        if indexed_evidence is None and (self.path / "index.sqlite").exists():
            bad("index.sqlite", "the directory is not in the index")
        entries: Iterator[Evidence] = iter(())
        try:
            capture: Capture | None
            capture, entries = read_with_evidence((root / "capture.json").read_bytes())
        except (OSError, ValueError) as err:
            bad("capture.json", f"cannot be read ({type(err).__name__})")
            capture = None
        if capture is not None and capture.capture.id != capture_id:
            bad("capture.json", f"names capture {short_id(capture.capture.id)}, not its directory")
        # A capture keeps the id it was imported with: made with the reader and schema versions of that time.
        versions = {}
        if capture is not None:
            versions = {"reader": capture.capture.reader_version, "schema": capture.schema_version}
        actual, unreadable = stored_hashes(root / "input")
        table = read_files_table(root / FILES_NAME)
        if isinstance(table, str):
            bad(FILES_NAME, table)
        elif table is not None:
            imported, stored = table
            if make_capture_id(imported, **versions) != capture_id:
                bad(FILES_NAME, "its hashes do not make the capture id (the table was changed)")
            for rel in sorted(stored):
                path = root / rel
                digest = file_sha256(path) if path.is_file() and not path.is_symlink() else None
                if digest is None:
                    bad(rel, "missing or not a regular file")
                elif digest != stored[rel]:
                    bad(rel, "does not match its sha256 (changed after import)")
            extra = sorted(f"input/{rel}" for rel in set(actual) | set(unreadable) if f"input/{rel}" not in stored)
            for rel in extra:
                if rel[len("input/") :] in imported:
                    continue  # a payload kept in a pack, checked through the pack's own hash
                bad(rel, "not part of the import (added later)")
            if not any(d.file.startswith("input/") for d in found):
                # Every stored file matches: the packed payloads must also still be the imported bytes.
                for rel in sorted(set(imported) | set(actual)):
                    if actual.get(rel) != imported.get(rel):
                        bad(f"input/{rel}", "does not match the bytes the capture id was made from")
        else:
            for rel, problem in unreadable.items():
                bad(f"input/{rel}", problem)
            if not unreadable and make_capture_id(actual, **versions) != capture_id:
                bad("input/", "the imported bytes no longer make the capture id (a file was changed, added or removed)")
        n_evidence = 0
        if capture is not None:
            reported: set[str] = {d.file for d in found}
            handles: dict[str, BinaryIO | OSError] = {}
            try:
                for ev in entries:
                    n_evidence += 1
                    issue = _check_evidence(root / "input", ev, handles)
                    if issue is not None and f"input/{ev.file}" not in reported:
                        # One line per damaged file: its first bad evidence.
                        reported.add(f"input/{ev.file}")
                        bad(f"input/{ev.file}", issue)
            except ValueError as err:
                bad("capture.json", f"its evidence list cannot be read ({type(err).__name__})")
            finally:
                for handle in handles.values():
                    if not isinstance(handle, OSError):
                        handle.close()
            if indexed_evidence is not None and indexed_evidence != n_evidence:
                bad("index.sqlite", f"lists {indexed_evidence} evidence entries, capture.json {n_evidence}")
        return found, len(actual) + len(unreadable), n_evidence

    # -- look-up -----------------------------------------------------------------------------------------

    def label_owner(self, label: str) -> str | None:
        """The capture that has this label, if any."""
        with self._index(create=False) as conn:
            return None if conn is None else _label_owner(conn, label, None)

    def check_label(self, label: str) -> None:
        """Refuse a label another capture has (`label_taken`), saying which and how to go on."""
        _refuse_taken(label, self.label_owner(label))

    def resolve(self, ref: str) -> str:
        """A full id, a unique prefix (at least 4 hex digits) or a unique label -> the capture id."""
        ref = ref.strip()
        with self._index(create=False) as conn:
            if conn is None:
                raise DynamoDiffError(
                    ErrorCode.UNKNOWN_CAPTURE,
                    f"no capture {ref!r}: the store {self.path} is empty",
                    hint=Hint(action=HintAction.IMPORT_FIRST),
                )
            rows = []
            if len(ref) >= 4 and all(ch in "0123456789abcdef" for ch in ref):
                rows = [
                    r["id"] for r in conn.execute("SELECT id FROM captures WHERE id LIKE ? ORDER BY id", (ref + "%",))
                ]
            if not rows:
                rows = [r["id"] for r in conn.execute("SELECT id FROM captures WHERE label = ? ORDER BY id", (ref,))]
        if not rows:
            near = self.nearest(ref)
            meant = f"; did you mean {', '.join(near)}?" if near else ""
            raise DynamoDiffError(
                ErrorCode.UNKNOWN_CAPTURE,
                f"no capture matches {ref!r} in {self.path}{meant}",
                hint=Hint(action=HintAction.LIST_CAPTURES),
                suggestions=near,
            )
        if len(rows) > 1:
            raise DynamoDiffError(
                ErrorCode.AMBIGUOUS_PREFIX,
                f"{ref!r} matches {len(rows)} captures: {', '.join(short_id(r) for r in rows[:10])}",
                candidates=rows,
            )
        return str(rows[0])

    def nearest(self, ref: str, n: int = 3) -> list[str]:
        """Labels and ids that look like `ref` (for 'did you mean')."""
        with self._index(create=False) as conn:
            if conn is None:
                return []
            rows = conn.execute("SELECT id, label FROM captures").fetchall()
        labels = {r["label"]: r["id"] for r in rows if r["label"]}
        out = [
            f"{lab} ({short_id(labels[lab])})" for lab in difflib.get_close_matches(ref, list(labels), n=n, cutoff=0.6)
        ]
        prefixes = {r["id"][: max(len(ref), 4)]: r["id"] for r in rows}
        out += [short_id(prefixes[p]) for p in difflib.get_close_matches(ref, list(prefixes), n=n, cutoff=0.7)]
        return out[:n]

    def load(self, ref: str, *, evidence: bool = True) -> Capture:
        """The stored Capture. With `evidence=False` its evidence list is left empty (a third of the memory and
        time on large captures); evidence stays reachable by id through `evidence_index` / `read_evidence`."""
        return self._read_capture_file(self.resolve(ref), evidence=evidence)

    def summary(self, ref: str) -> Capture:
        """The stored Capture without its compilations and evidence, as the index keeps it (read from capture.json,
        and kept in the index, when an earlier version indexed the capture)."""
        capture_id = self.resolve(ref)
        with self._index(create=True) as conn:
            assert conn is not None
            row = conn.execute("SELECT summary_zlib FROM captures WHERE id = ?", (capture_id,)).fetchone()
            if row is not None and row["summary_zlib"] is not None:
                try:
                    return index.unpack_summary(row["summary_zlib"])
                except (zlib.error, ValueError):
                    pass  # derived data: read again from capture.json below
            summary = index.summary_of(self._read_capture_file(capture_id, evidence=False))
            conn.execute("UPDATE captures SET summary_zlib = ? WHERE id = ?", (index.pack_summary(summary), capture_id))
            return summary

    def _read_capture_file(self, capture_id: str, *, evidence: bool = True) -> Capture:
        path = self.capture_dir(capture_id) / CAPTURE_NAME
        try:
            return read_capture(path.read_bytes(), evidence=evidence)
        except (OSError, ValueError) as err:
            raise DynamoDiffError(
                ErrorCode.CORRUPT_STORE,
                f"capture {short_id(capture_id)} is damaged: {path} cannot be read ({type(err).__name__})",
                capture=capture_id,
            ) from err

    def list_captures(self) -> list[CaptureRow]:
        with self._index(create=False) as conn:
            if conn is None:
                return []
            rows = conn.execute("SELECT * FROM captures ORDER BY imported_at, id").fetchall()
            states = {r["id"]: r["run_state"] for r in rows}
            for capture_id in [cid for cid, state in states.items() if state is None]:
                # Indexed by an earlier version: read the run status once and keep it in the index.
                try:
                    states[capture_id] = str(self._read_capture_file(capture_id, evidence=False).capture.run.state)
                except DynamoDiffError:
                    states[capture_id] = "unknown"
                    continue
                conn.execute("UPDATE captures SET run_state = ? WHERE id = ?", (states[capture_id], capture_id))
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
                run_state=states[r["id"]],
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
        self,
        ref: str,
        *,
        kind: str | None = None,
        compile_ids: Sequence[str] | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[Evidence], int]:
        """A page of the evidence index, and the total number of entries that match. `kind` is a record kind or
        an artifact name (`artifact:NAME`, as the import notice writes it, works too); `compile_ids` keeps the
        entries of those compilations."""
        capture_id = self.resolve(ref)
        where, args = "capture_id = ?", [capture_id]
        if kind:
            where += " AND kind = ?"
            args.append(kind.removeprefix("artifact:"))
        if compile_ids is not None:
            where += f" AND compile_id IN ({', '.join('?' * len(compile_ids))})" if compile_ids else " AND 0"
            args.extend(compile_ids)
        with self._index(create=False) as conn:
            assert conn is not None
            total = conn.execute(f"SELECT COUNT(*) FROM evidence WHERE {where}", args).fetchone()[0]
            rows = conn.execute(
                f"SELECT * FROM evidence WHERE {where} ORDER BY rowid LIMIT ? OFFSET ?", [*args, limit, offset]
            ).fetchall()
        return [evidence_of(r) for r in rows], int(total)

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
                ErrorCode.UNKNOWN_EVIDENCE, f"capture {short_id(capture_id)} has no evidence {evidence_id!r}"
            )
        ev = evidence_of(row)
        path = self.capture_dir(capture_id) / "input" / ev.file
        try:
            with path.open("rb") as handle:
                handle.seek(ev.offset)
                data = handle.read(ev.length)
        except OSError as err:
            raise DynamoDiffError(
                ErrorCode.CORRUPT_STORE,
                f"evidence {evidence_id} of capture {short_id(capture_id)} cannot be read: {ev.file} ({err.strerror})",
                file=ev.file,
            ) from err
        if len(data) != ev.length or hashlib.sha256(data).hexdigest() != ev.sha256:
            raise DynamoDiffError(
                ErrorCode.CORRUPT_STORE,
                f"evidence {evidence_id} of capture {short_id(capture_id)} "
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

    def intern_strings(self, ref: str, file: str, upto: int) -> dict[int, str]:
        """The intern table of one imported trace file (`{"str": [text, index]}` records) as written before byte
        `upto`: torch interns a file name before the first record that names it, so a record's own indexes are
        all in the table before it. A line that is not such a record is skipped."""
        capture_id = self.resolve(ref)
        path = self.capture_dir(capture_id) / "input" / file
        table: dict[int, str] = {}
        marker = b'{"str": '
        try:
            with path.open("rb") as handle:
                read = 0
                for raw in handle:
                    read += len(raw)
                    if read > upto:
                        break
                    at = raw.find(marker)
                    if at < 0:
                        continue
                    try:
                        body = json.loads(raw[at:])["str"]
                    except (ValueError, KeyError, TypeError):
                        continue
                    if isinstance(body, list) and len(body) == 2 and isinstance(body[0], str) and type(body[1]) is int:
                        table[body[1]] = body[0]
        except OSError:
            return table
        return table

    def input_file(self, ref: str, relative: str) -> Path:
        """Path of an imported file (e.g. a source snapshot) inside the capture, confined to it."""
        capture_id = self.resolve(ref)
        base = (self.capture_dir(capture_id) / "input").resolve()
        target = (base / relative).resolve()
        if not target.is_relative_to(base):
            raise DynamoDiffError(ErrorCode.UNSAFE_PATH, f"{relative!r} is outside capture {short_id(capture_id)}")
        return target

    def source_snapshot(self, ref: str, co_filename: str) -> tuple[str, str]:
        """(path relative to the project root, text) of the captured copy of `co_filename`.

        Never falls back to the working-tree file: what ran is what the snapshot holds."""
        files, paths = self.source_files(ref)
        rel = paths.get(co_filename)
        if rel is None:
            raise DynamoDiffError(
                ErrorCode.MISSING_SNAPSHOT,
                f"capture {short_id(self.resolve(ref))} has no source snapshot of {co_filename}",
                hint=Hint(action=HintAction.RECORD_WITH_CAPTURE),
            )
        return rel, files[rel]

    def source_files(self, ref: str | Capture) -> tuple[dict[str, str], dict[str, str]]:
        """The captured source snapshots: (relative path -> text, captured absolute path -> relative path).

        From the manifest when it lists them (each snapshot sha256-checked), else from the bundle's sources/
        folder, mapped to the code locations of the trace whose path ends with the snapshot's path. `ref` may be
        a capture already loaded from this store (a large capture is not read twice)."""
        capture = ref if isinstance(ref, Capture) else self.load(ref, evidence=False)
        capture_id = capture.capture.id
        files: dict[str, str] = {}
        paths: dict[str, str] = {}
        manifest = capture.capture.manifest
        # A bundle's snapshots as its manifest lists them, else the scripts found beside a bare log at import.
        entries = manifest.sources.files if manifest is not None else []
        entries = entries or capture.capture.validity.sources_found_beside
        if entries:
            for entry in entries:
                data = self.input_file(capture_id, entry.snapshot).read_bytes()
                if hashlib.sha256(data).hexdigest() != entry.sha256:
                    raise DynamoDiffError(
                        ErrorCode.CORRUPT_STORE,
                        f"snapshot {entry.snapshot} of capture "
                        f"{short_id(capture_id)} does not match the sha256 it was imported with",
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


def _beside_of(layout: InputLayout, beside: Beside) -> list[BesideFile]:
    """The scripts an import of `layout` would find in `beside.folder` (the trace files read for the names)."""
    named = NamedFiles()
    for trace in layout.files:
        if trace.format != "raw_log":
            continue
        with trace.path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                named.feed(chunk)
        named.finish()
    return find_beside(beside.folder, named.names, Limits())


def _label_owner(conn: sqlite3.Connection, label: str, other_than: str | None) -> str | None:
    row = conn.execute(
        "SELECT id FROM captures WHERE label = ? AND id != ? ORDER BY imported_at DESC", (label, other_than or "")
    ).fetchone()
    return None if row is None else str(row["id"])


def _refuse_taken(label: str, owner: str | None) -> None:
    if owner is not None:
        raise DynamoDiffError(
            ErrorCode.LABEL_TAKEN,
            f"the label {label!r} already names capture {short_id(owner)}",
            hint=Hint(action=HintAction.MOVE_LABEL, args={"label": label}),
            label=label,
            capture=owner,
        )


def _check_evidence(input_dir: Path, ev: Evidence, handles: dict[str, BinaryIO | OSError]) -> str | None:
    """None when the evidence bytes match their sha256, else the problem."""
    handle = handles.get(ev.file)
    if handle is None:
        try:
            handle = handles[ev.file] = (input_dir / ev.file).open("rb")
        except OSError as err:
            handle = handles[ev.file] = err
    if isinstance(handle, OSError):
        return f"evidence {ev.id} cannot be read ({handle.strerror})"
    handle.seek(ev.offset)
    data = handle.read(ev.length)
    if len(data) == ev.length and hashlib.sha256(data).hexdigest() == ev.sha256:
        return None
    return f"evidence {ev.id} does not match its sha256"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
