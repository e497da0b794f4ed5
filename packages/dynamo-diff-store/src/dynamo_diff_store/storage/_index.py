"""The SQLite index of a store: captures (label, counts, run state) and evidence locations, for fast look-up.

The index is derived data: every row can be rebuilt from the immutable capture directories.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from collections.abc import Iterable
from pathlib import Path

from dynamo_diff_schema.capture import Capture

from dynamo_diff_store.storage._capture_file import EvidenceRow, model_evidence_rows

_SCHEMA = """
CREATE TABLE IF NOT EXISTS captures (
    id TEXT PRIMARY KEY,
    label TEXT,
    imported_at TEXT NOT NULL,
    input_kind TEXT NOT NULL,
    torch_version TEXT,
    artifact_structure TEXT NOT NULL,
    rank_count INTEGER NOT NULL,
    counts TEXT NOT NULL,
    run_state TEXT,
    summary_zlib BLOB
);
CREATE TABLE IF NOT EXISTS evidence (
    capture_id TEXT NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    rank INTEGER,
    compile_id TEXT,
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    length INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (capture_id, id)
);
CREATE INDEX IF NOT EXISTS evidence_by_kind ON evidence (capture_id, kind);
"""


def connect(path: Path, *, timeout: float = 60.0) -> sqlite3.Connection:
    # Several processes may create the index at once. Switching a new database to WAL takes an exclusive lock
    # for which SQLite's busy timeout does not wait, so the set-up is retried until `timeout`.
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            _add_columns(conn)
            return conn
        except sqlite3.OperationalError as err:
            conn.close()
            if ("locked" not in str(err) and "busy" not in str(err)) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)
        except BaseException:
            conn.close()
            raise


def _add_columns(conn: sqlite3.Connection) -> None:
    """Columns added after the first release: an index made by an earlier version gets them (rows: NULL). Tables
    earlier versions wrote and nothing read (ranks, functions, compilations, meta) are dropped."""
    for table in ("compilations", "functions", "ranks", "meta"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    columns = {row["name"] for row in conn.execute("PRAGMA table_info(captures)")}
    for column, kind in (("run_state", "TEXT"), ("summary_zlib", "BLOB")):
        if column in columns:
            continue
        try:
            conn.execute(f"ALTER TABLE captures ADD COLUMN {column} {kind}")
        except sqlite3.OperationalError as err:
            if "duplicate column" not in str(err):  # another process added it first
                raise


def insert_capture(
    conn: sqlite3.Connection,
    capture: Capture,
    evidence: Iterable[EvidenceRow] | None = None,
    *,
    rank_count: int | None = None,
    summary_zlib: bytes | None = None,
) -> None:
    """Insert one capture, its summary (the document without compilations and evidence, as zlib-compressed JSON)
    and its evidence in a single transaction (all or nothing). Evidence, rank count and summary are taken from the
    capture unless given (an import streams them from its work files, and passes the capture's head without its
    ranks)."""
    info = capture.capture
    if summary_zlib is None:
        summary_zlib = pack_summary(summary_of(capture))
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT 1 FROM captures WHERE id = ?", (info.id,)).fetchone():
            conn.execute("ROLLBACK")
            return
        conn.execute(
            "INSERT INTO captures (id, label, imported_at, input_kind, torch_version, artifact_structure, rank_count, "
            "counts, run_state, summary_zlib) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                info.id,
                info.label,
                info.imported_at or "",
                info.input_kind,
                info.producer.torch,
                info.validity.artifact_structure,
                len(capture.ranks) if rank_count is None else rank_count,
                capture.counts.model_dump_json(),
                info.run.state,
                summary_zlib,
            ),
        )
        conn.executemany(
            "INSERT INTO evidence VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ((info.id, *row) for row in (model_evidence_rows(capture.evidence) if evidence is None else evidence)),
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def counts_of(row: sqlite3.Row) -> dict[str, object]:
    parsed: dict[str, object] = json.loads(row["counts"])
    return parsed


def summary_of(capture: Capture) -> Capture:
    """The capture without its compilations and evidence."""
    return capture.model_copy(
        update={"ranks": [r.model_copy(update={"compilations": []}) for r in capture.ranks], "evidence": []}
    )


def pack_summary(summary: Capture) -> bytes:
    return zlib.compress(summary.model_dump_json().encode(), 6)


def unpack_summary(data: bytes) -> Capture:
    return Capture.model_validate_json(zlib.decompress(data))
