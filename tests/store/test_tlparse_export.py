"""The tlparse export reader yields what the raw reader yields for the same log.

Pinned independently: tlparse's raw.jsonl for simple.log has 15 lines (`wc -l`: string table + 14 records,
`str` and `chromium_event` are not records there); comp_metrics.log's has 13; export.log's has 19 and its
exported_program payload md5 fails (tlparse prints `fail_payload_md5: 1`). simple.log has two JSON-encoded
artifacts with payloads (`grep -c '"encoding": "json"'` on lines with has_payload = 2: fx_graph_cache_miss,
aotautograd_cache_hash), which tlparse re-serialises.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import FileReport, Record, read_raw_log, read_tlparse_export


def read_export(root: Path, rel: str = "raw.jsonl") -> tuple[list[Record], FileReport]:
    report = FileReport(rel)
    return list(read_tlparse_export(root, Limits(), report)), report


def read_log(path: Path) -> tuple[list[Record], FileReport]:
    report = FileReport(path.name)
    return list(read_raw_log(path, path.name, Limits(), report)), report


@pytest.mark.parametrize(("name", "lines"), [("simple", 15), ("comp_metrics", 13), ("export", 19)])
def test_export_matches_raw_log(logs: Path, exports: Path, name: str, lines: int) -> None:
    records, report = read_export(exports / name)
    raw, raw_report = read_log(logs / f"{name}.log")
    raw = [r for r in raw if r.kind != "chromium_event"]
    assert len(records) == lines - 1 == len(raw)
    assert report.strings == raw_report.strings
    for ours, theirs in zip(records, raw, strict=True):
        assert (ours.kind, ours.extra_kinds, ours.compile, ours.rank) == (
            theirs.kind,
            theirs.extra_kinds,
            theirs.compile,
            theirs.rank,
        )
        assert ours.stack == theirs.stack
        assert ours.span.file == "raw.jsonl"
        if theirs.payload is None:
            assert ours.payload is None
        elif ours.payload_ok is None:  # re-serialised JSON: same value, different text
            assert ours.payload is not None
            assert json.loads(ours.payload) == json.loads(theirs.payload)
        else:
            assert ours.payload == theirs.payload
            assert ours.payload_ok == theirs.payload_ok


def test_simple_export_details(exports: Path) -> None:
    records, report = read_export(exports / "simple")
    assert len(report.strings) == 12
    assert len(report.payload_unverifiable) == 2
    assert report.payload_mismatches == [] and report.missing_payloads == []
    assert all(r.kind != "chromium_event" for r in records)
    with_payload = [r for r in records if r.payload is not None]
    assert all(r.payload_span is not None and r.payload_span.length == len(r.payload.encode()) for r in with_payload)
    # The glog prefix fields tlparse adds are not kinds.
    assert all(not r.extra_kinds for r in records)


def test_export_mismatch_is_reported(exports: Path) -> None:
    records, report = read_export(exports / "export")
    assert report.payload_mismatches == [19]
    assert records[-1].kind == "exported_program" and records[-1].payload_ok is False


def test_multi_rank_export_keeps_json_rank(exports: Path) -> None:
    records, _report = read_export(exports / "multi_rank_schedule" / "rank_1", "rank_1/raw.jsonl")
    assert {r.rank for r in records} == {0}  # torch wrote rank 0 into every file; the directory name is the truth
    assert len(records) == 41
    assert all(r.payload_span is None or r.payload_span.file.startswith("rank_1/") for r in records)


def test_missing_payload_file(export_copy: Callable[[str], Path]) -> None:
    root = export_copy("simple")
    (root / "-_0_0_0" / "dynamo_output_graph_0.txt").unlink()
    records, report = read_export(root)
    graph = next(r for r in records if r.kind == "dynamo_output_graph")
    assert graph.payload is None
    assert report.missing_payloads == [graph.line]
    assert len(records) == 14


def _point_first_payload_at(root: Path, target: str) -> None:
    lines = (root / "raw.jsonl").read_text().splitlines(keepends=True)
    for index, line in enumerate(lines):
        if '"payload_filename"' in line:
            obj = json.loads(line)
            obj["payload_filename"] = target
            lines[index] = json.dumps(obj) + "\n"
            break
    (root / "raw.jsonl").write_text("".join(lines))


@pytest.mark.parametrize("attack", ["dotdot", "absolute", "symlink_out", "fifo", "loop", "directory"])
def test_payload_paths_are_confined(tmp_path: Path, export_copy: Callable[[str], Path], attack: str) -> None:
    root = export_copy("simple")
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    target = {
        "dotdot": "../secret.txt",
        "absolute": str(outside),
        "symlink_out": "link.txt",
        "fifo": "pipe.txt",
        "loop": "loop_a",
        "directory": "payloads",
    }[attack]
    if attack == "symlink_out":
        (root / "link.txt").symlink_to(outside)
    elif attack == "fifo":
        os.mkfifo(root / "pipe.txt")
    elif attack == "loop":
        (root / "loop_a").symlink_to(root / "loop_b")
        (root / "loop_b").symlink_to(root / "loop_a")
    _point_first_payload_at(root, target)
    with pytest.raises(DynamoDiffError) as info:
        read_export(root)
    assert info.value.code is ErrorCode.UNSAFE_PATH


def test_symlink_inside_export_is_fine(export_copy: Callable[[str], Path]) -> None:
    root = export_copy("simple")
    (root / "alias.txt").symlink_to(root / "-_0_0_0" / "dynamo_output_graph_0.txt")
    _point_first_payload_at(root, "alias.txt")
    records, _report = read_export(root)
    assert next(r for r in records if r.kind == "dynamo_output_graph").payload_ok is True


@pytest.mark.parametrize("first", ['{"not_a_table": 1}\n', "garbage\n", '{"string_table": [1]}\n', ""])
def test_bad_string_table_is_malformed(tmp_path: Path, first: str) -> None:
    (tmp_path / "raw.jsonl").write_text(first)
    with pytest.raises(DynamoDiffError) as info:
        read_export(tmp_path)
    assert info.value.code is ErrorCode.MALFORMED_INPUT


def test_bad_lines_are_reported_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "raw.jsonl").write_text(
        '{"string_table": ["a.py"]}\n'
        '{"dynamo_start": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, "lineno": 1, "pathname": " x"}\n'
        "not json\n"
        '{"a": 1, "a": 2}\n'
        '{"dynamo_start": {}, "frame_id": 1, "frame_compile_id": 0, "attempt": 0, "has_payload": "00"}\n'
        '{"dynamo_start": {'
    )
    records, report = read_export(tmp_path)
    assert [r.compile.frame_id for r in records] == [0, 1]
    assert report.strings == {0: "a.py"}
    assert [line for line, _ in report.bad_record_samples] == [3, 4, 6]
    assert report.missing_payloads == [5]
    assert report.truncated and report.truncated_at == 6
