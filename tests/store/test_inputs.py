"""Input discovery: which form a path is, which files are traces, and confinement to the input root."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import FileReport, discover, rank_from_name, read_records


@pytest.mark.parametrize(
    ("name", "rank"),
    [
        ("dedicated_log_torch_trace_rank_0.log", 0),
        ("dedicated_log_torch_trace_rank_12_n8zycf07.log", 12),
        ("dedicated_log_torch_trace_abc.log", None),
        ("dedicated_log_torch_trace_rank_x.log", None),
        ("simple.log", None),
        ("dedicated_log_torch_trace_rank_1.txt", None),
    ],
)
def test_rank_from_name(name: str, rank: int | None) -> None:
    assert rank_from_name(name) == rank


def test_single_log(logs: Path) -> None:
    layout = discover(logs / "simple.log", Limits())
    assert layout.kind == "raw_log" and layout.primary == "raw"
    assert [(f.rel, f.rank, f.format) for f in layout.files] == [("simple.log", None, "raw_log")]
    assert layout.files[0].size == (logs / "simple.log").stat().st_size


def test_messy_directory_ignores_noise_files(logs: Path) -> None:
    layout = discover(logs / "multi_rank_messy_input", Limits())
    assert layout.kind == "raw_directory"
    assert [(f.rel, f.rank) for f in layout.files] == [
        ("dedicated_log_torch_trace_rank_0.log", 0),
        ("dedicated_log_torch_trace_rank_1.log", 1),
    ]
    assert {(i.rel, i.reason) for i in layout.ignored} == {
        ("another.log", "empty file"),
        ("some_other_file.txt", "empty file"),
    }


def test_rank_comes_from_the_file_name(logs: Path) -> None:
    layout = discover(logs / "multi_rank_schedule", Limits())
    assert [f.rank for f in layout.files] == [0, 1, 2]
    report = FileReport(layout.files[1].rel, rank_from_name=layout.files[1].rank)
    records = list(read_records(layout.files[1], Limits(), report))
    # every record says "rank": 0 although this is rank 1's file (INDEX.md); the layout carries the truth
    assert {r.rank for r in records} == {0} and report.rank_from_name == 1


def test_ranks_sort_numerically(tmp_path: Path, logs: Path) -> None:
    for rank in (10, 2, 1):
        shutil.copy(logs / "comp_failure.log", tmp_path / f"dedicated_log_torch_trace_rank_{rank}.log")
    shutil.copy(logs / "comp_failure.log", tmp_path / "zz.log")
    shutil.copy(logs / "comp_failure.log", tmp_path / "aa.log")
    layout = discover(tmp_path, Limits())
    assert [f.rel for f in layout.files] == [
        "dedicated_log_torch_trace_rank_1.log",
        "dedicated_log_torch_trace_rank_2.log",
        "dedicated_log_torch_trace_rank_10.log",
        "aa.log",
        "zz.log",
    ]


def test_tlparse_exports(exports: Path) -> None:
    single = discover(exports / "simple", Limits())
    assert single.kind == "tlparse_export" and single.primary == "tlparse_export"
    assert [(f.rel, f.format) for f in single.files] == [("raw.jsonl", "tlparse_jsonl")]
    assert discover(exports / "simple" / "raw.jsonl", Limits()).kind == "tlparse_export"
    multi = discover(exports / "multi_rank_schedule", Limits())
    assert [(f.rel, f.rank) for f in multi.files] == [
        ("rank_0/raw.jsonl", 0),
        ("rank_1/raw.jsonl", 1),
        ("rank_2/raw.jsonl", 2),
    ]
    records = list(read_records(multi.files[2], Limits()))
    assert len(records) == 41


def make_bundle(tmp_path: Path, logs: Path, exports: Path, *, raw: bool = True, report: bool = True) -> Path:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "manifest.json").write_text(json.dumps({"schema_version": "1"}))
    if raw:
        (bundle / "raw").mkdir()
        shutil.copy(logs / "simple.log", bundle / "raw" / "dedicated_log_torch_trace_rank_0_abc.log")
    if report:
        shutil.copytree(exports / "simple", bundle / "report")
    (bundle / "sources").mkdir()
    return bundle


def test_bundle_raw_is_primary(tmp_path: Path, logs: Path, exports: Path) -> None:
    layout = discover(make_bundle(tmp_path, logs, exports), Limits())
    assert layout.kind == "bundle" and layout.primary == "raw"
    assert [(f.rel, f.rank) for f in layout.files] == [("raw/dedicated_log_torch_trace_rank_0_abc.log", 0)]
    assert [f.rel for f in layout.export_files] == ["report/raw.jsonl"]
    assert layout.manifest is not None and layout.manifest.name == "manifest.json"
    assert layout.sources_dir is not None and layout.export_dir is not None
    records = list(read_records(layout.export_files[0], Limits()))
    assert records[0].span.file == "report/raw.jsonl"


def test_bundle_with_only_a_report(tmp_path: Path, logs: Path, exports: Path) -> None:
    layout = discover(make_bundle(tmp_path, logs, exports, raw=False), Limits())
    assert layout.primary == "tlparse_export" and [f.rel for f in layout.files] == ["report/raw.jsonl"]


def test_bundle_without_traces(tmp_path: Path, logs: Path, exports: Path) -> None:
    # A run that compiled no frame leaves no trace file: whether the manifest records such a run is the store's
    # to decide (tests/store/test_compiled_nothing.py), not discovery's.
    layout = discover(make_bundle(tmp_path, logs, exports, raw=False, report=False), Limits())
    assert layout.kind == "bundle" and layout.files == () and layout.manifest is not None


@pytest.mark.parametrize("content", [[], ["dedicated_log_torch_trace_x.log"]])
def test_an_empty_trace_directory_is_no_trace(tmp_path: Path, content: list[str]) -> None:
    for name in content:
        (tmp_path / name).write_bytes(b"")  # an empty file, as a run that never wrote a record could leave
    with pytest.raises(DynamoDiffError) as info:
        discover(tmp_path, Limits())
    assert info.value.code is ErrorCode.NO_TRACE
    # What is so in the message; the next step (record the run) is a hint each front end words.
    assert "compiled no frame" in info.value.message and "dynamo-diff" not in info.value.message
    assert info.value.hint == Hint(action=HintAction.RECORD_RUN)


def test_not_a_capture(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    with pytest.raises(DynamoDiffError) as info:
        discover(tmp_path, Limits())
    assert info.value.code is ErrorCode.UNSUPPORTED_INPUT
    with pytest.raises(DynamoDiffError) as info:
        discover(tmp_path / "missing", Limits())
    assert info.value.code is ErrorCode.UNREADABLE_INPUT


@pytest.mark.parametrize("attack", ["symlink_out", "fifo", "loop", "dangling"])
def test_raw_directory_is_confined(tmp_path: Path, logs: Path, attack: str) -> None:
    root = tmp_path / "trace"
    root.mkdir()
    shutil.copy(logs / "comp_failure.log", root / "dedicated_log_torch_trace_rank_0.log")
    outside = tmp_path / "outside.log"
    shutil.copy(logs / "comp_failure.log", outside)
    if attack == "symlink_out":
        (root / "dedicated_log_torch_trace_rank_1.log").symlink_to(outside)
    elif attack == "fifo":
        os.mkfifo(root / "dedicated_log_torch_trace_rank_1.log")
    elif attack == "loop":
        (root / "a.log").symlink_to(root / "b.log")
        (root / "b.log").symlink_to(root / "a.log")
    else:
        (root / "a.log").symlink_to(root / "gone.log")
    with pytest.raises(DynamoDiffError) as info:
        discover(root, Limits())
    assert info.value.code is ErrorCode.UNSAFE_PATH


def test_symlink_inside_root_is_accepted(tmp_path: Path, logs: Path) -> None:
    (tmp_path / "store").mkdir()
    shutil.copy(logs / "comp_failure.log", tmp_path / "store" / "log.bin")
    (tmp_path / "dedicated_log_torch_trace_rank_3.log").symlink_to(tmp_path / "store" / "log.bin")
    layout = discover(tmp_path, Limits())
    assert [(f.rel, f.rank) for f in layout.files] == [("dedicated_log_torch_trace_rank_3.log", 3)]
    assert [i.rel for i in layout.ignored] == ["store"]


def test_fifo_given_directly(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(DynamoDiffError) as info:
        discover(tmp_path / "pipe", Limits())
    assert info.value.code is ErrorCode.UNSAFE_PATH


@pytest.mark.parametrize(
    ("limits", "name"), [(Limits(max_files=2), "max_files"), (Limits(max_total_bytes=1000), "max_total_bytes")]
)
def test_directory_limits(logs: Path, limits: Limits, name: str) -> None:
    with pytest.raises(DynamoDiffError) as info:
        discover(logs / "multi_rank_schedule", limits)
    assert info.value.code is ErrorCode.RESOURCE_LIMIT
    assert info.value.details["limit"] == name
