"""What an import returns and the index keeps of a capture: its summary (the document without compilations and
evidence). The import no longer holds it (a 4,096-rank job's summary was most of the importing process); the index
keeps it compressed, and it must always equal the summary of capture.json, the capture's own record."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from dynamo_diff_store import Store
from dynamo_diff_store.storage._index import summary_of

CORPUS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"


def from_document(store: Store, capture_id: str):  # type: ignore[no-untyped-def]
    return summary_of(store.load(capture_id, evidence=False))


def test_the_summary_equals_the_stored_documents(tmp_path: Path, rank_job: Callable[..., Path]) -> None:
    store = Store(tmp_path / "store")
    for source in (rank_job(tmp_path / "job", {r: r % 2 for r in range(6)}), CORPUS / "multi_rank_logs"):
        result = store.import_path(source)
        expected = from_document(store, result.capture_id)
        assert result.summary == expected == store.summary(result.capture_id)
        assert all(rank.compilations == [] for rank in result.summary.ranks) and result.summary.evidence == []
        assert len(result.summary.ranks) == len(store.load(result.capture_id).ranks)
        assert result.summary.notices == store.load(result.capture_id).notices
        again = store.import_path(source)  # already stored: the summary comes from the index
        assert not again.created and again.summary == expected


def test_an_index_without_the_summary_reads_it_from_the_document(tmp_path: Path) -> None:
    """An index made by an earlier version (no summary), a damaged summary, or a capture missing from the index."""
    store = Store(tmp_path / "store")
    capture_id = store.import_path(CORPUS / "multi_rank_logs").capture_id
    expected = from_document(store, capture_id)
    with closing(sqlite3.connect(tmp_path / "store" / "index.sqlite")) as conn, conn:
        conn.execute("UPDATE captures SET summary_zlib = NULL")
    assert Store(tmp_path / "store").summary(capture_id) == expected
    with closing(sqlite3.connect(tmp_path / "store" / "index.sqlite")) as conn, conn:
        (kept,) = conn.execute("SELECT summary_zlib FROM captures").fetchone()
        assert kept is not None  # read once from capture.json, then kept
        conn.execute("UPDATE captures SET summary_zlib = ?", (b"not zlib",))
    assert Store(tmp_path / "store").summary(capture_id) == expected
    with closing(sqlite3.connect(tmp_path / "store" / "index.sqlite")) as conn, conn:
        # A crash between the rename and the index: the directory is the truth.
        conn.execute("DELETE FROM evidence")
        conn.execute("DELETE FROM captures")
    again = Store(tmp_path / "store").import_path(CORPUS / "multi_rank_logs")
    assert not again.created and again.summary == expected
