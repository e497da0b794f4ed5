"""`Store.read_path`: a TORCH_TRACE log read as the capture an import would store (the pytest plugin counts a
passing test this way), without writing the store. Checked against the import of the same bytes and against the
fixture's oracle (torch's own counters, recorded with the run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dynamo_diff_schema import DynamoDiffError, ErrorCode
from dynamo_diff_store import Store

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures" / "captures"


def _without_time(capture: object) -> dict[str, object]:
    document = capture.model_dump()  # type: ignore[attr-defined]
    document["capture"].pop("imported_at")
    return document  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "given",
    [
        "graph_break/raw/dedicated_log_torch_trace_w1191fmf.log",  # one file
        "graph_break/raw",  # a folder of one log
        "ddp_ranks/raw",  # a folder of two ranks' logs
    ],
)
def test_read_is_the_import_without_writing_the_store(tmp_path: Path, given: str) -> None:
    store = Store(tmp_path / "store")
    read = store.read_path(CAPTURES / given, label="a test")
    assert not store.path.exists()  # nothing written, not even the store's folder
    imported = store.import_path(CAPTURES / given, label="a test")
    assert read.capture.id == imported.capture_id  # content-addressed: the same id
    assert _without_time(read) == _without_time(store.load(imported.capture_id, evidence=False))
    # Every evidence id the read capture names reads back from the store once imported.
    ids = {
        e
        for rank in read.ranks
        for c in rank.compilations
        for e in [*c.evidence_ids, *(gb.evidence_id for gb in c.graph_breaks)]
        if e
    }
    assert ids
    for evidence_id in sorted(ids)[:20]:
        assert store.read_evidence(imported.capture_id, evidence_id).text


def test_read_counts_what_torch_counted(tmp_path: Path) -> None:
    oracle = json.loads((CAPTURES / "graph_break/oracle.json").read_text())
    capture = Store(tmp_path / "store").read_path(CAPTURES / "graph_break/raw")
    compilations = [c for rank in capture.ranks for c in rank.compilations]
    assert len(compilations) == oracle["counters"]["frames"]["ok"]
    assert sum(len(c.graph_breaks) for c in compilations) == sum(oracle["counters"]["graph_break"].values())


def test_a_bundle_is_imported_not_read(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as err:
        store.read_path(CAPTURES / "graph_break")
    assert err.value.code == ErrorCode.UNSUPPORTED_INPUT and "import it" in err.value.message
    with pytest.raises(DynamoDiffError) as err:
        store.read_path(tmp_path / "missing.log")
    assert err.value.code == ErrorCode.UNREADABLE_INPUT
    assert not store.path.exists()


@pytest.mark.parametrize(
    "given", ["graph_break/raw/dedicated_log_torch_trace_w1191fmf.log", "graph_break/raw", "ddp_ranks/raw"]
)
def test_read_counts_are_the_read_captures_counts_without_writing_the_store(tmp_path: Path, given: str) -> None:
    """What a compile budget of whole counts reads of a passing test's trace (the pytest plugin)."""
    store = Store(tmp_path / "store")
    counts = store.read_counts(CAPTURES / given)
    assert not store.path.exists()
    assert counts == store.read_path(CAPTURES / given).counts


def test_read_counts_count_what_torch_counted(tmp_path: Path) -> None:
    oracle = json.loads((CAPTURES / "graph_break/oracle.json").read_text())
    counts = Store(tmp_path / "store").read_counts(CAPTURES / "graph_break/raw")
    assert counts.observed_compilation_identities == oracle["counters"]["frames"]["ok"]
    assert counts.graph_break_records == sum(oracle["counters"]["graph_break"].values())


def test_read_counts_refuses_what_read_refuses(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    noise = tmp_path / "noise.log"
    noise.write_text("not a trace\n")
    for given, code in (
        (CAPTURES / "graph_break", ErrorCode.UNSUPPORTED_INPUT),
        (tmp_path / "missing.log", ErrorCode.UNREADABLE_INPUT),
        (noise, ErrorCode.MALFORMED_INPUT),
    ):
        with pytest.raises(DynamoDiffError) as read:
            store.read_path(given)
        with pytest.raises(DynamoDiffError) as counted:
            store.read_counts(given)
        assert counted.value.code == read.value.code == code
        assert counted.value.message == read.value.message
    assert not store.path.exists()
