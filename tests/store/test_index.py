"""The SQLite index holds what the store reads: captures and evidence locations."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from dynamo_diff_store import Store

CORPUS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"


def tables(db: Path) -> set[str]:
    with closing(sqlite3.connect(db)) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_an_index_written_by_an_earlier_version_loses_the_tables_nothing_read(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    capture_id = store.import_path(CORPUS / "comp_metrics.log").summary.capture.id
    db = tmp_path / "store" / "index.sqlite"
    assert tables(db) == {"captures", "evidence"}
    with closing(sqlite3.connect(db)) as conn, conn:  # as 0.1 wrote it
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("CREATE TABLE compilations (capture_id TEXT, compile_id TEXT)")
        conn.execute("INSERT INTO compilations VALUES (?, '0/0')", (capture_id,))
    assert [row.id for row in store.list_captures()] == [capture_id]
    assert tables(db) == {"captures", "evidence"}
    assert store.verify().damage == []
