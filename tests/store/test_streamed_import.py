"""An import writes compilations and evidence out as it reads: the document it stores is the whole capture,
identity states beyond the in-memory bound are read back intact, and per-function marks stay per function."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema.documents import validate
from dynamo_diff_store import Store
from dynamo_diff_store.analysis import SpillList
from dynamo_diff_store.analysis import _classify as classify
from dynamo_diff_store.analysis import _rank_analysis as rank_analysis

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures/corpus/tlparse-tests"
CAPTURES = ROOT / "fixtures/captures"


def test_spill_list_writes_back_changes_of_items_that_leave_memory(tmp_path: Path) -> None:
    items: SpillList[dict[str, int]] = SpillList(tmp_path / "spill.sqlite", keep=2)
    for n in range(6):
        assert items.append({"n": n}) == n
    items[0]["seen"] = 1  # read back from disk, changed, then pushed out again by later reads
    for n in (3, 4, 5, 1):
        items[n]["seen"] = items[n].get("seen", 0) + 1
    assert items.spilled > 4
    assert [dict(i) for i in items] == [
        {"n": 0, "seen": 1},
        {"n": 1, "seen": 1},
        {"n": 2},
        {"n": 3, "seen": 1},
        {"n": 4, "seen": 1},
        {"n": 5, "seen": 1},
    ]
    items.close()
    assert not (tmp_path / "spill.sqlite").exists()


def _document(store: Store, capture_id: str) -> dict[str, object]:
    document = json.loads((store.capture_dir(capture_id) / "capture.json").read_bytes())
    document["capture"].pop("imported_at")
    return document


def _shuffled_records(source: Path, target: Path) -> Path:
    """The records of `source` in a random order, so that compilations' records interleave: identities pushed
    out of memory receive records again later (real traces rarely do that within a couple of identities)."""
    records: list[list[bytes]] = []
    for line in source.read_bytes().splitlines(keepends=True):
        if line.startswith(b"\t") and records:
            records[-1].append(line)
        else:
            records.append([line])
    random.Random(7).shuffle(records)
    target.mkdir()
    out = target / "dedicated_log_torch_trace_shuffled.log"
    out.write_bytes(b"".join(b"".join(r) for r in records))
    return target


@pytest.mark.parametrize("name", ["cache_hit_miss.log", "multi_rank_logs", "shuffled:comp_metrics.log"])
def test_identities_kept_on_disk_give_the_same_capture(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = CORPUS / name
    if name.startswith("shuffled:"):
        source = _shuffled_records(CORPUS / name.split(":")[1], tmp_path / "shuffled")
    whole = Store(tmp_path / "a").import_path(source, workers=1)
    spilled: list[int] = []

    class Recording(SpillList):  # type: ignore[type-arg]
        def close(self) -> None:
            spilled.append(self.spilled)
            super().close()

    monkeypatch.setattr(rank_analysis, "IDENTITIES_IN_MEMORY", 2)
    monkeypatch.setattr(classify, "SpillList", Recording)
    small = Store(tmp_path / "b").import_path(source, workers=1)
    assert sum(spilled) > 0, "the bound of 2 identities was never reached: the test proves nothing"
    assert _document(small.store, small.summary.capture.id) == _document(whole.store, whole.summary.capture.id)


def test_stored_document_is_a_valid_capture_and_agrees_with_the_index(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    result = store.import_path(CORPUS / "multi_rank_logs")
    document = json.loads((store.capture_dir(result.summary.capture.id) / "capture.json").read_bytes())
    validate(document, "capture")
    ranks = document["ranks"]
    assert len(ranks) == 4
    for rank in ranks:
        assert len(rank["compilations"]) == rank["counts"]["observed_compilation_identities"] > 0
        assert {
            e["rank"]
            for e in document["evidence"]
            if e["compile_id"] in {c["compile_id"] for c in rank["compilations"]}
        } >= {rank["rank"]}
    _, total = store.evidence_index(result.summary.capture.id, limit=1)
    assert total == len(document["evidence"]) > 0
    # The summary handed back by the import is the stored document without compilations and evidence.
    assert result.summary.counts == result.capture.counts
    assert all(not r.compilations for r in result.summary.ranks)
    assert (
        sum(len(r.compilations) for r in result.capture.ranks) == result.capture.counts.observed_compilation_identities
    )


def test_missing_graph_break_payload_marks_only_its_function(tmp_path: Path) -> None:
    """graph_break has two functions that break (with_print: frame 0, with_item: frame 2); the break payload
    of frame 0 is removed, so only with_print's graph-break sites may be low."""
    export = tmp_path / "report"
    shutil.copytree(CAPTURES / "graph_break" / "report", export)
    (export / "-_0_0_0" / "dynamo_graph_break_reason_1.txt").unlink()
    capture = Store(tmp_path / "store").import_path(export).capture
    marks = {f.code.co_name: f.counts.incomplete for f in capture.ranks[0].functions}
    assert marks["with_print"] == ["unique_graph_break_sites"]
    assert marks["with_item"] == []
    assert capture.ranks[0].counts.incomplete == ["unique_graph_break_sites"]


def test_load_without_evidence_is_the_capture_minus_its_evidence_list(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    capture_id = store.import_path(CORPUS / "multi_rank_logs").summary.capture.id
    whole = store.load(capture_id)
    light = store.load(capture_id, evidence=False)
    assert whole.evidence and not light.evidence
    assert light == whole.model_copy(update={"evidence": []})
    # The same for a capture.json written whole by the schema model (as before imports streamed).
    (store.capture_dir(capture_id) / "capture.json").write_text(whole.model_dump_json())
    assert store.load(capture_id, evidence=False) == light
    assert store.load(capture_id) == whole


def test_verify_accepts_captures_made_by_an_earlier_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A capture keeps the id it was imported with (reader version included): upgrading dynamo-diff must not
    make `verify` call every older capture damaged."""
    from dynamo_diff_store.storage import _store as store_module

    store = Store(tmp_path / "store")
    monkeypatch.setattr(store_module, "READER_VERSION", "0-test")
    old = store.import_path(CORPUS / "comp_metrics.log").summary.capture.id
    monkeypatch.undo()
    new = store.import_path(CORPUS / "comp_metrics.log").summary.capture.id
    assert old != new  # the same bytes read by another reader are another capture
    report = store.verify()
    assert report.captures == 2 and report.damage == []
    # ...and a changed byte in the older capture is still found.
    stored = store.capture_dir(old) / "input" / "comp_metrics.log"
    data = bytearray(stored.read_bytes())
    data[100] ^= 0x20
    stored.write_bytes(bytes(data))
    assert store.verify().damaged_captures == [old]


@pytest.mark.parametrize("workers", [1, 2])
def test_import_reports_bytes_copied_then_ranks_done(tmp_path: Path, workers: int) -> None:
    calls: list[tuple[str, int, int]] = []
    Store(tmp_path / "store").import_path(
        CORPUS / "multi_rank_logs", workers=workers, progress=lambda *call: calls.append(call)
    )
    copy = [c for c in calls if c[0] == "copy"]
    ranks = [c[1:] for c in calls if c[0] == "analyse"]
    size = sum(p.stat().st_size for p in (CORPUS / "multi_rank_logs").iterdir())
    assert copy and copy[-1][1] == copy[-1][2] == size
    assert ranks == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    assert calls.index(copy[-1]) < calls.index(("analyse", 0, 4))


WORKERS_OF_A_KILLED_IMPORTER = """
import os, signal, sys
from concurrent.futures import ProcessPoolExecutor
from dynamo_diff_store.analysis._workers import exit_with_parent
pool = ProcessPoolExecutor(max_workers=2, initializer=exit_with_parent, initargs=(os.getpid(),))
pids = {pool.submit(os.getpid).result() for _ in range(8)} | set(pool._processes)
print(" ".join(map(str, sorted(pids))), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_worker_processes_end_when_the_importer_is_killed(tmp_path: Path) -> None:
    """kill -9 of an importer must not leave its worker processes blocked forever on their task queue
    (found by crash_consistency: they also kept the importer's stdout open)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "pids"
    with out.open("w") as handle:  # a file, not a pipe: surviving workers would hold a pipe open
        code = subprocess.run(
            [sys.executable, "-c", WORKERS_OF_A_KILLED_IMPORTER], check=False, stdout=handle
        ).returncode
    assert code == -9
    pids = [int(p) for p in out.read_text().split()]
    assert pids

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return not Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].startswith("Z")

    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in pids if alive(p)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left
