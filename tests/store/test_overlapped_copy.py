"""A single large raw log is read while it is copied into the store: the same capture as copying first, and the
same errors, with nothing left behind when either side fails."""

from __future__ import annotations

import hashlib
import threading
import time
import weakref
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_store import Limits, Store
from dynamo_diff_store.analysis import _byte_ranges as byte_ranges
from dynamo_diff_store.storage import _store
from dynamo_diff_store.storage._staged_copy import StagedCopy

CORPUS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"
BUNDLE = Path(__file__).resolve().parents[2] / "fixtures/captures/edit_v2"  # one raw log, a manifest, sources
CASES = [CORPUS / "cache_hit_miss.log", CORPUS / "comp_metrics.log", CORPUS / "simple_corrupted_json.log", BUNDLE]


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fixture logs count as large: read in ranges of 8 KiB (and so overlapped with their copy)."""
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    monkeypatch.setattr(byte_ranges, "CHUNK_BYTES", 8192)


def copied_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_store, "overlaps", lambda *args: False)


def overlapped_runs(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Record what each wait for copied bytes returned (None: the bytes were there before the copy ended)."""
    returned: list[int | None] = []
    wait = StagedCopy.wait

    def recording(self: StagedCopy, rel: str, upto: int) -> int | None:
        got = wait(self, rel, upto)
        returned.append(got)
        return got

    monkeypatch.setattr(StagedCopy, "wait", recording)
    return returned


def leftovers(store: Path) -> list[Path]:
    return [p for p in (store / "tmp").iterdir()] if (store / "tmp").exists() else []


def copy_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name in ("dynamo-diff-copy", "dynamo-diff-ranges")]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_same_capture_as_copying_first(
    tmp_path: Path, path: Path, monkeypatch: pytest.MonkeyPatch, small_ranges: None
) -> None:
    waits = overlapped_runs(monkeypatch)
    overlapped = Store(tmp_path / "a").import_path(path, workers=2).capture
    assert waits, "the import did not read while copying"
    with monkeypatch.context() as m:
        copied_first(m)
        first = Store(tmp_path / "b").import_path(path, workers=2).capture
    assert overlapped.capture.id == first.capture.id
    assert overlapped.ranks == first.ranks and overlapped.evidence == first.evidence
    assert overlapped.notices == first.notices
    assert not copy_threads() and not leftovers(tmp_path / "a")


def test_ranges_are_read_before_the_copy_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log larger than the window a cut is looked for in, copied slowly: ranges go to the workers while later
    bytes are still being copied, and the capture is the one copying first gives."""
    data = (CORPUS / "cache_hit_miss.log").read_bytes()
    log = tmp_path / "big.log"
    log.write_bytes(data * (12 * 2**20 // len(data) + 1))  # about 12 MiB, read in 1 MiB ranges
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    monkeypatch.setattr(byte_ranges, "CHUNK_BYTES", 2**20)
    wrote = StagedCopy.wrote

    def slowly(self: StagedCopy, rel: str, total: int) -> None:
        time.sleep(0.02)
        wrote(self, rel, total)

    monkeypatch.setattr(StagedCopy, "wrote", slowly)
    waits = overlapped_runs(monkeypatch)
    overlapped = Store(tmp_path / "a").import_path(log, workers=2)
    assert None in waits, "no range was read before the copy ended"
    monkeypatch.undo()
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    monkeypatch.setattr(byte_ranges, "CHUNK_BYTES", 2**20)
    copied_first(monkeypatch)
    first = Store(tmp_path / "b").import_path(log, workers=2)
    assert overlapped.capture_id == first.capture_id
    a, b = overlapped.capture, first.capture
    assert a.ranks == b.ranks and a.evidence == b.evidence and a.notices == b.notices


def test_a_file_that_grows_while_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_ranges: None) -> None:
    """Records appended after the copy began are in the stored bytes, so they are read too (the last range ends
    where the copy ended, not at the size the file had when it began)."""
    data = (CORPUS / "cache_hit_miss.log").read_bytes()
    more = (CORPUS / "comp_metrics.log").read_bytes()
    log = tmp_path / "growing.log"
    log.write_bytes(data)
    begin = StagedCopy.begin

    def then_grow(self: StagedCopy, rel: str, size: int) -> None:
        begin(self, rel, size)
        with log.open("ab") as out:
            out.write(more)

    monkeypatch.setattr(StagedCopy, "begin", then_grow)
    grown = Store(tmp_path / "a").import_path(log, workers=2)
    monkeypatch.undo()
    assert log.read_bytes() == data + more
    stored = grown.store.input_file(grown.capture_id, "growing.log").read_bytes()
    assert hashlib.sha256(stored).digest() == hashlib.sha256(data + more).digest()
    whole = Store(tmp_path / "b").import_path(log, workers=1)
    assert grown.capture_id == whole.capture_id
    assert grown.capture.ranks == whole.capture.ranks and grown.capture.evidence == whole.capture.evidence


def failed_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, log: Path, limits: Limits
) -> tuple[DynamoDiffError, DynamoDiffError]:
    """The error of importing `log` read while copied, and copied first; each store is left without a capture or
    staging, and no copying thread is left."""
    errors = []
    for overlap in (True, False):
        with monkeypatch.context() as m:
            if not overlap:
                copied_first(m)
            with pytest.raises(DynamoDiffError) as err:
                Store(tmp_path / f"s{overlap}").import_path(log, workers=2, limits=limits)
        errors.append(err.value)
        assert Store(tmp_path / f"s{overlap}").list_captures() == []
        assert not leftovers(tmp_path / f"s{overlap}")
    assert not copy_threads()
    return errors[0], errors[1]


def test_the_copy_failing_stops_the_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_ranges: None
) -> None:
    """The copy's error is the import's (as when it ran first), and nothing is kept."""
    log = CORPUS / "cache_hit_miss.log"
    errors = failed_both_ways(tmp_path, monkeypatch, log, Limits(max_total_bytes=log.stat().st_size // 2))
    assert [(e.code, e.details.get("limit")) for e in errors] == [(ErrorCode.RESOURCE_LIMIT, "max_total_bytes")] * 2


def test_the_reading_failing_stops_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_ranges: None
) -> None:
    """A reader's error (a line over the bound) is the import's: the copy is cancelled, nothing is kept."""
    lines = (CORPUS / "cache_hit_miss.log").read_bytes().splitlines(keepends=True)
    at = len(lines) // 3
    while lines[at].startswith(b"\t"):
        at += 1
    lines.insert(at, b"n" * 5000 + b"\n")
    log = tmp_path / "long_line.log"
    log.write_bytes(b"".join(lines))
    overlapped, first = failed_both_ways(tmp_path, monkeypatch, log, Limits(max_line_bytes=4096))
    assert (overlapped.code, overlapped.message, overlapped.details) == (first.code, first.message, first.details)
    assert overlapped.details["line"] == at + 1


def test_a_reading_that_fails_early_cancels_the_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader's error in the first range of a log copied slowly ends the import while the copy is still far from
    the end: the copy is told to stop (its next write raises), nothing is kept, no thread is left."""
    data = (CORPUS / "cache_hit_miss.log").read_bytes()
    lines = data.splitlines(keepends=True)
    at = len(lines) // 3
    while lines[at].startswith(b"\t"):
        at += 1
    first = b"".join([*lines[:at], b"n" * 5000 + b"\n", *lines[at:]])
    log = tmp_path / "long_line.log"
    log.write_bytes(first + data * (24 * 2**20 // len(data)))  # about 24 MiB, copied 1 MiB at a time
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    monkeypatch.setattr(byte_ranges, "CHUNK_BYTES", 2**20)
    wrote = StagedCopy.wrote
    written: list[int] = []

    def slowly(self: StagedCopy, rel: str, total: int) -> None:
        # the whole copy would take about 6 s: room for a reader's process to start on a loaded machine (at 0.05 s
        # a MiB it went past half while two tox envs ran beside it)
        time.sleep(0.25)
        wrote(self, rel, total)
        written.append(total)

    monkeypatch.setattr(StagedCopy, "wrote", slowly)
    with pytest.raises(DynamoDiffError) as err:
        Store(tmp_path / "s").import_path(log, workers=2, limits=Limits(max_line_bytes=4096))
    assert err.value.code is ErrorCode.RESOURCE_LIMIT and err.value.details["line"] == at + 1
    assert written and max(written) < log.stat().st_size // 2, "the copy went on after the reading failed"
    assert not copy_threads() and not leftovers(tmp_path / "s")


def test_reimport_and_labels(tmp_path: Path, small_ranges: None) -> None:
    """The same bytes imported again are found in the store (after being read again); a label another capture holds
    is refused, and nothing is kept."""
    store = Store(tmp_path / "s")
    first = store.import_path(CORPUS / "cache_hit_miss.log", workers=2, label="before")
    again = store.import_path(CORPUS / "cache_hit_miss.log", workers=2, label="before")
    assert again.capture_id == first.capture_id and first.created and not again.created
    with pytest.raises(DynamoDiffError) as err:
        store.import_path(CORPUS / "comp_metrics.log", workers=2, label="before")
    assert err.value.code is ErrorCode.LABEL_TAKEN
    assert [row.id for row in store.list_captures()] == [first.capture_id]
    assert not leftovers(tmp_path / "s")


@pytest.mark.parametrize("path", [CORPUS / "cache_hit_miss.log", BUNDLE], ids=lambda p: p.name)
def test_progress_reports_the_copy_then_the_reading(
    tmp_path: Path, path: Path, monkeypatch: pytest.MonkeyPatch, small_ranges: None
) -> None:
    """Copy progress, then the reading's start and end, in that order, even when the bundle's manifest and sources
    are still being copied after its log (here slowly, so that the reading ends first)."""
    begin = StagedCopy.begin

    def slow_after_the_log(self: StagedCopy, rel: str, size: int) -> None:
        if not rel.endswith(".log"):
            time.sleep(0.1)
        begin(self, rel, size)

    monkeypatch.setattr(StagedCopy, "begin", slow_after_the_log)
    calls: list[tuple[str, int, int]] = []
    Store(tmp_path / "s").import_path(path, workers=2, progress=lambda *call: calls.append(call))
    # The reading's bytes ("read"), while the copy goes on: rising to the log's whole size, before the rank is done.
    read = [(done, total) for phase, done, total in calls if phase == "read"]
    log = sum(f.stat().st_size for f in ([path] if path.is_file() else path.rglob("*.log")))
    assert read and read[-1] == (log, log)
    assert [done for done, _ in read] == sorted(done for done, _ in read)
    assert max(i for i, call in enumerate(calls) if call[0] == "read") < calls.index(("analyse", 1, 1))
    calls = [call for call in calls if call[0] != "read"]
    phases = [phase for phase, _, _ in calls]
    assert phases[0] == "copy" and "copy" not in phases[phases.index("analyse") :]
    assert calls[-2:] == [("analyse", 0, 1), ("analyse", 1, 1)]
    _, done, total = calls[phases.index("analyse") - 1]
    assert done >= total  # all copied (the total counts the trace files; a bundle's manifest and sources add to it)


class _Pool:
    """Stands in for the process pool: futures that never run."""

    def __init__(self) -> None:
        self.futures: list[Future[object]] = []

    def submit(self, fn: object, task: object) -> Future[object]:
        future: Future[object] = Future()
        self.futures.append(future)
        return future


@pytest.mark.parametrize("copying", [False, True])
def test_a_caller_that_stops_cancels_the_ranges_not_begun(copying: bool) -> None:
    """Interrupted (Ctrl-C) or failed after the first range, the ranges no worker has begun are cancelled, and while
    the file is still being copied no range is given to the pool after that, so that the import ends at once rather
    than after reading the rest (the import cancels the copy itself: test_a_reading_that_fails_early_cancels_the_copy).
    """
    copied = threading.Event()  # the copy getting past the third range

    def tasks() -> Iterator[byte_ranges.Range]:
        for k in range(8):
            if copying and k == 2:
                copied.wait()
            yield byte_ranges.Range("r", "t.log", "raw_log", Limits(), k, k + 1, 1, None)

    pool = _Pool()
    submitted = byte_ranges.submitted(pool, tasks(), waits=copying)  # type: ignore[arg-type]
    next(submitted)
    if copying:
        while len(pool.futures) < 2:  # the feeder waits for the third range's bytes
            time.sleep(0.01)
        threading.Timer(0.1, copied.set).start()  # the copy goes on while the caller stops
    submitted.close()
    # The first was given to the caller (a worker would have begun it); the rest were not begun.
    if copying:
        assert [f.cancelled() for f in pool.futures] == [False, True]  # the third, there after the stop, is not given
    else:
        assert [f.cancelled() for f in pool.futures] == [False] + [True] * 7
    assert not copy_threads()


@pytest.mark.parametrize("copying", [False, True])
def test_the_facts_of_folded_ranges_are_let_go(copying: bool) -> None:
    """Once a range's future is given to the caller, nothing else holds it: the facts of ranges already folded are
    freed as the reading goes on (holding them all made a 1 GiB import peak at 200 MiB instead of 90)."""
    tasks = iter(byte_ranges.Range("r", "t.log", "raw_log", Limits(), k, k + 1, 1, None) for k in range(4))
    pool = _Pool()
    submitted = byte_ranges.submitted(pool, tasks, waits=copying)  # type: ignore[arg-type]
    _, future = next(submitted)
    given = weakref.ref(future)
    del future
    pool.futures.clear()  # (the stand-in pool's own references)
    next(submitted)
    assert given() is None
    submitted.close()
