"""Reading a large log as byte ranges in parallel processes gives exactly what one sequential pass gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from dynamo_diff_store.analysis import RankJob, analyse_rank
from dynamo_diff_store.analysis import _ingest as ingest
from dynamo_diff_store.reading import record_boundaries

CORPUS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"
CASES = [
    "cache_hit_miss.log",  # ids repeat after reset
    "multi_rank_logs/dedicated_log_torch_trace_rank_1.log",  # CRLF line ends, 15 compilations
    "simple_corrupted_json.log",  # one md5 mismatch
    "comp_metrics.log",  # restarts, intern table at the start
]


def run(tmp_path: Path, name: str, workers: int, data: bytes | None = None) -> ingest.RankResult:
    root = tmp_path / f"w{workers}"
    root.mkdir(exist_ok=True)
    target = root / "trace.log"
    if data is None:
        shutil.copyfile(CORPUS / name, target)
    else:
        target.write_bytes(data)
    work = tmp_path / f"work{workers}"
    work.mkdir(exist_ok=True)
    return analyse_rank(
        RankJob(
            root=str(root),
            group="r0",
            rank=0,
            files=(("trace.log", "raw_log"),),
            chunk_workers=workers,
            work=str(work),
        )
    )


@pytest.mark.parametrize("name", CASES)
def test_parallel_equals_sequential(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest, "CHUNK_MIN_BYTES", 0)
    one = run(tmp_path, name, 1)
    two = run(tmp_path, name, 2)
    assert two.summary() == one.summary()
    assert list(two.iter_evidence_json()) == list(one.iter_evidence_json())
    assert list(two.iter_compilation_json()) == list(one.iter_compilation_json())
    assert one.compilation_count > 0 and one.evidence_count == len(list(one.iter_evidence_json()))
    assert [n.model_dump() for n in two.notices()] == [n.model_dump() for n in one.notices()]
    assert two.record_kinds == one.record_kinds and two.noise_lines == one.noise_lines


def test_truncated_file_read_in_ranges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest, "CHUNK_MIN_BYTES", 0)
    data = (CORPUS / "cache_hit_miss.log").read_bytes()
    cut = data[: int(len(data) * 0.8)]
    cut = cut[: cut.rfind(b"\n") - 7]  # stop in the middle of a line
    one = run(tmp_path, "", 1, cut)
    two = run(tmp_path, "", 2, cut)
    assert one.partial and two.partial
    assert two.summary() == one.summary() and list(two.iter_evidence_json()) == list(one.iter_evidence_json())


def test_boundaries_start_at_metadata_lines_with_their_line_numbers() -> None:
    path = CORPUS / "cache_hit_miss.log"
    data = path.read_bytes()
    ranges = record_boundaries(path, 4)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(data) and len(ranges) == 4
    for (start, stop, first_line), (next_start, _, _) in zip(ranges, [*ranges[1:], (len(data), 0, 0)], strict=True):
        assert stop == next_start
        assert first_line == data[:start].count(b"\n") + 1
        assert start == 0 or (data[start - 1 : start] == b"\n" and data[start : start + 1] != b"\t")


def test_tlparse_export_read_in_ranges_equals_one_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through the store: a staged tlparse export (raw.jsonl + payload pack) split across workers."""
    from dynamo_diff_store import Store

    export = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-exports/comp_metrics"
    one = Store(tmp_path / "one").import_path(export).capture
    monkeypatch.setattr(ingest, "CHUNK_MIN_BYTES", 0)
    two = Store(tmp_path / "two").import_path(export, workers=2).capture
    assert two.capture.id == one.capture.id
    assert two.ranks == one.ranks and two.evidence == one.evidence and two.notices == one.notices
