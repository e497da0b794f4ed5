"""Reading a large log as byte ranges in parallel processes gives exactly what one sequential pass gives."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema.errors import DynamoDiffError
from dynamo_diff_store import Limits
from dynamo_diff_store.analysis import RankJob, RankResult, analyse_rank
from dynamo_diff_store.analysis import _byte_ranges as byte_ranges
from dynamo_diff_store.reading import record_boundaries

CORPUS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"
CASES = [
    "cache_hit_miss.log",  # ids repeat after reset
    "multi_rank_logs/dedicated_log_torch_trace_rank_1.log",  # CRLF line ends, 15 compilations
    "simple_corrupted_json.log",  # one md5 mismatch
    "comp_metrics.log",  # restarts, intern table at the start
]


def run(tmp_path: Path, name: str, workers: int, data: bytes | None = None, limits: Limits | None = None) -> RankResult:
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
            limits=limits or Limits(),
        )
    )


@pytest.mark.parametrize("name", CASES)
def test_parallel_equals_sequential(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    one = run(tmp_path, name, 1)
    two = run(tmp_path, name, 2)
    assert two.summary() == one.summary()
    assert list(two.iter_evidence_json()) == list(one.iter_evidence_json())
    assert list(two.iter_compilation_json()) == list(one.iter_compilation_json())
    assert one.compilation_count > 0 and one.evidence_count == len(list(one.iter_evidence_json()))
    assert [n.model_dump() for n in two.notices()] == [n.model_dump() for n in one.notices()]
    assert two.record_kinds == one.record_kinds and two.noise_lines == one.noise_lines


def test_truncated_file_read_in_ranges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
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


@pytest.mark.parametrize("chunk", [byte_ranges.CHUNK_BYTES, 4096])
def test_tlparse_export_read_in_ranges_equals_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """The same through the store: a staged tlparse export (raw.jsonl + payload pack) split across workers."""
    from dynamo_diff_store import Store

    export = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-exports/comp_metrics"
    one = Store(tmp_path / "one").import_path(export).capture
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    monkeypatch.setattr(byte_ranges, "CHUNK_BYTES", chunk)
    two = Store(tmp_path / "two").import_path(export, workers=2).capture
    assert two.capture.id == one.capture.id
    assert two.ranks == one.ranks and two.evidence == one.evidence and two.notices == one.notices


def _old_record_boundaries(path: Path, parts: int) -> list[tuple[int, int, int]]:
    """record_boundaries as it was before it read its windows a piece at a time (the reference)."""
    from dynamo_diff_store.reading._rawlog import GLOG_PREFIX

    size = path.stat().st_size
    cuts = [0]
    with path.open("rb") as handle:
        for k in range(1, parts):
            handle.seek(max(cuts[-1] + 1, size * k // parts))
            window = handle.read(4 << 20)
            at = handle.tell() - len(window)
            pos = 0
            while (nl := window.find(b"\n", pos)) >= 0:
                m = GLOG_PREFIX.match(window, nl + 1)
                if m is not None and window[m.end() : m.end() + 1] == b"{":
                    cuts.append(at + nl + 1)
                    break
                pos = nl + 1
        cuts.append(size)
        cuts = sorted(set(cuts))
        data = path.read_bytes()
    return [(a, b, data[:a].count(b"\n") + 1) for a, b in itertools.pairwise(cuts)]


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("parts", [2, 3, 7, 40])
def test_boundaries_are_found_as_before(name: str, parts: int) -> None:
    assert record_boundaries(CORPUS / name, parts) == _old_record_boundaries(CORPUS / name, parts)


def test_a_boundary_past_the_first_piece_of_the_window(tmp_path: Path) -> None:
    """A metadata line more than one read (64 KiB) past the split point, and a long line across the pieces."""
    meta = b'V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] {"dynamo_start": {}}\n'
    data = meta + b"x" * 100_000 + b"\n" + b"y" * 300_000 + b"\n" + meta + b"z\n" * 50
    path = tmp_path / "t.log"
    path.write_bytes(data)
    assert record_boundaries(path, 2) == _old_record_boundaries(path, 2)
    assert len(record_boundaries(path, 2)) == 2


def _noisy_log() -> bytes:
    """cache_hit_miss.log with damage spread through it: noise, bad records, md5 mismatches, non-UTF-8 payloads,
    bad id fields."""
    lines = (CORPUS / "cache_hit_miss.log").read_bytes().splitlines(keepends=True)
    out = []
    for n, line in enumerate(lines):
        out.append(line)
        if n % 97 == 5:
            out.append(b"a noise line\n")
        if n % 131 == 7 and not line.startswith(b"\t"):
            out.append(b'V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] {"bad": 1, "bad": 2}\n\tx\n')
        if n % 151 == 9 and line.startswith(b"\t"):
            out.append(b"\t\xff damaged\n")
        if n % 173 == 11 and not line.startswith(b"\t"):
            out.append(
                b'V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] {"artifact": {"name": "x"}, "frame_id": -1}\n'
            )
    return b"".join(out)


def test_line_numbers_of_ranges_read_in_parallel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ranges after the first are read with provisional line numbers and moved on: every line a notice or an
    evidence entry names is the one a sequential pass names (many small ranges)."""
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    monkeypatch.setattr(byte_ranges, "CHUNK_BYTES", 8192)
    data = _noisy_log()
    one = run(tmp_path, "", 1, data)
    two = run(tmp_path, "", 2, data)
    notices = [n.model_dump() for n in one.notices()]
    assert {n["code"] for n in notices} >= {"noise_lines", "malformed_records", "payload_md5_mismatch", "bad_id_fields"}
    assert [n.model_dump() for n in two.notices()] == notices
    assert list(two.iter_evidence_json()) == list(one.iter_evidence_json())
    assert two.noise_lines == one.noise_lines


def test_an_error_in_a_later_range_names_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    monkeypatch.setattr(byte_ranges, "CHUNK_BYTES", 8192)
    lines = (CORPUS / "cache_hit_miss.log").read_bytes().splitlines(keepends=True)
    at = len(lines) * 3 // 4
    while lines[at].startswith(b"\t"):
        at += 1
    lines.insert(at, b"n" * 5000 + b"\n")  # a noise line longer than the bound below
    errors = []
    for workers in (1, 2):
        with pytest.raises(DynamoDiffError) as err:
            run(tmp_path, "", workers, b"".join(lines), Limits(max_line_bytes=4096))
        errors.append((err.value.code, err.value.message, err.value.details))
    assert errors[0] == errors[1]
    assert errors[0][2]["line"] == at + 1
