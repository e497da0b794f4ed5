"""Hostile or damaged input through the whole import: a coded error or a capture with notices, never a
traceback, and never anything half-written in the store."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema import DynamoDiffError, ErrorCode
from dynamo_diff_store import Limits, Store

CORPUS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"
EXPORTS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-exports"
GOOD = (CORPUS / "comp_metrics.log").read_bytes()
PREFIX = b"V0101 00:00:00.000000 1 torch/_dynamo/utils.py:1] "


def assert_clean(store: Store) -> None:
    """Nothing visible and nothing left over: no capture directories, no index rows, no staging."""
    assert store.list_captures() == []
    captures = store.path / "captures"
    assert not captures.exists() or not any(captures.iterdir())
    tmp = store.path / "tmp"
    assert not tmp.exists() or not any(tmp.iterdir())


def import_bytes(tmp_path: Path, data: bytes, limits: Limits | None = None) -> tuple[Store, object]:
    path = tmp_path / "trace.log"
    path.write_bytes(data)
    store = Store(tmp_path / "store")
    try:
        return store, store.import_path(path, limits=limits).capture
    except DynamoDiffError as err:
        return store, err


def metadata(obj: bytes) -> bytes:
    return PREFIX + obj + b"\n"


@pytest.mark.parametrize(
    ("name", "line", "reason"),
    [
        ("malformed JSON", b'{"dynamo_start": {"stack": [}, "frame_id": 9', "JSON"),
        ("duplicate key", b'{"dynamo_start": {}, "frame_id": 9, "frame_id": 8, "frame_compile_id": 0}', "duplicate"),
        ("NaN", b'{"compilation_metrics": {"graph_op_count": NaN}, "frame_id": 9, "frame_compile_id": 0}', ""),
        ("not UTF-8", b'{"dynamo_start": {"x": "\xff\xfe"}, "frame_id": 9, "frame_compile_id": 0}', ""),
    ],
)
def test_bad_record_is_a_notice_and_the_rest_is_read(tmp_path: Path, name: str, line: bytes, reason: str) -> None:
    _store, capture = import_bytes(tmp_path, GOOD + metadata(line))
    assert not isinstance(capture, DynamoDiffError), capture
    notices = [n for n in capture.notices if n.code == "malformed_records"]  # type: ignore[attr-defined]
    assert notices, name
    assert reason.lower() in notices[0].message.lower()
    assert capture.counts.observed_compilation_identities == 3  # type: ignore[attr-defined]


def test_truncated_log_is_partial_and_says_so(tmp_path: Path) -> None:
    cut = GOOD[: GOOD.rfind(b'"compilation_metrics"') + 200]  # inside the last compilation_metrics line
    _store, capture = import_bytes(tmp_path, cut)
    assert not isinstance(capture, DynamoDiffError)
    assert capture.capture.validity.artifact_structure == "partial"  # type: ignore[attr-defined]
    truncated = [n for n in capture.notices if n.code == "truncated"]  # type: ignore[attr-defined]
    assert truncated and truncated[0].message.startswith("PARTIAL")
    # The cut record was the terminal record of 2/0: its outcome is now unknown, not completed.
    assert capture.counts.completed == 2 and capture.counts.unknown_outcomes == 1  # type: ignore[attr-defined]


def test_noise_lines_are_counted(tmp_path: Path) -> None:
    _store, capture = import_bytes(tmp_path, b"hello\nnot a trace line\n" + GOOD)
    assert capture.capture.noise_lines == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("limit", "data"),
    [
        ("max_line_bytes", metadata(b'{"dynamo_start": {"pad": "' + b"x" * 5000 + b'"}}')),
        ("max_records", GOOD),
        ("max_total_bytes", GOOD),
    ],
)
def test_limits_are_enforced_with_resource_limit(tmp_path: Path, limit: str, data: bytes) -> None:
    limits = {
        "max_line_bytes": Limits(max_line_bytes=4096),
        "max_records": Limits(max_records=10),
        "max_total_bytes": Limits(max_total_bytes=len(GOOD) - 1),
    }[limit]
    store, err = import_bytes(tmp_path, data, limits)
    assert isinstance(err, DynamoDiffError) and err.code == ErrorCode.RESOURCE_LIMIT
    assert err.details["limit"] == limit
    assert_clean(store)


def nested(depth: int) -> bytes:
    """A metadata object nested exactly `depth` deep (the outer object counts as 1)."""
    return b'{"dynamo_start": ' + b'{"a": ' * (depth - 2) + b"{}" + b"}" * (depth - 2) + b', "frame_id": 9}'


def test_json_depth_is_a_bound_refused_with_resource_limit(tmp_path: Path) -> None:
    """A record nested deeper than max_json_depth refuses the input (like a record over max_record_bytes), naming
    the file, the line and the depth; a record exactly at the bound is read."""
    for sub in ("at", "over", "far"):
        (tmp_path / sub).mkdir()
    at_bound = GOOD + metadata(nested(64))
    _store, capture = import_bytes(tmp_path / "at", at_bound)
    assert not isinstance(capture, DynamoDiffError), capture
    store, err = import_bytes(tmp_path / "over", GOOD + metadata(nested(65)))
    assert isinstance(err, DynamoDiffError) and err.code == ErrorCode.RESOURCE_LIMIT
    assert err.details == {
        "limit": "max_json_depth",
        "value": 65,
        "maximum": 64,
        "file": "trace.log",
        "line": GOOD.count(b"\n") + 1,
    }
    assert_clean(store)
    # Past the JSON parser's own bound (1024) it is the same error, not "invalid JSON".
    store, err = import_bytes(tmp_path / "far", GOOD + metadata(nested(5000)))
    assert isinstance(err, DynamoDiffError) and err.code == ErrorCode.RESOURCE_LIMIT and err.details["value"] == 5000


def test_record_size_bound(tmp_path: Path) -> None:
    payload = b"\t" + b"y" * 3000 + b"\n"
    data = GOOD + metadata(b'{"artifact": {"name": "x", "encoding": "string"}, "has_payload": "0"}') + payload * 4
    store, err = import_bytes(tmp_path, data, Limits(max_record_bytes=8192))
    assert isinstance(err, DynamoDiffError) and err.code == ErrorCode.RESOURCE_LIMIT
    assert_clean(store)


def copy_export(tmp_path: Path) -> Path:
    target = tmp_path / "export"
    shutil.copytree(EXPORTS / "comp_metrics", target)
    return target


@pytest.mark.parametrize("attack", ["../../etc/passwd", "/etc/passwd", "link_out", "fifo"])
def test_tlparse_export_payload_paths_are_confined(tmp_path: Path, attack: str) -> None:
    export = copy_export(tmp_path)
    name = attack
    if attack == "link_out":
        (tmp_path / "secret.txt").write_text("secret")
        (export / "link_out").symlink_to(tmp_path / "secret.txt")
    elif attack == "fifo":
        os.mkfifo(export / "fifo")
    raw = (export / "raw.jsonl").read_text()
    raw = raw.replace('"payload_filename":"-_0_0_1/dynamo_output_graph_0.txt"', f'"payload_filename":"{name}"', 1)
    (export / "raw.jsonl").write_text(raw)
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as info:
        store.import_path(export)
    assert info.value.code == ErrorCode.UNSAFE_PATH
    assert_clean(store)


def test_missing_payload_file_marks_counts_incomplete(tmp_path: Path) -> None:
    export = tmp_path / "export"
    shutil.copytree(EXPORTS / "multi_rank_schedule" / "rank_1", export)
    store = Store(tmp_path / "store")
    baseline = store.import_path(export).capture
    (export / "raw.jsonl").write_text((export / "raw.jsonl").read_text())  # same bytes: same capture
    assert store.import_path(export).capture.capture.id == baseline.capture.id
    payload = next(p for p in export.rglob("dynamo_output_graph*") if p.is_file())
    payload.unlink()
    capture = Store(tmp_path / "store2").import_path(export).capture
    assert any(n.code == "missing_payload" for n in capture.notices)
    assert capture.capture.validity.artifact_structure == "partial"


def test_fifo_in_a_trace_directory_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "traces"
    directory.mkdir()
    shutil.copyfile(CORPUS / "comp_metrics.log", directory / "dedicated_log_torch_trace_rank_0.log")
    os.mkfifo(directory / "dedicated_log_torch_trace_rank_1.log")
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as info:
        store.import_path(directory)
    assert info.value.code == ErrorCode.UNSAFE_PATH
    assert_clean(store)


def test_device_file_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as info:
        store.import_path(Path("/dev/zero"))
    assert info.value.code == ErrorCode.UNSAFE_PATH
    assert_clean(store)


@pytest.mark.parametrize("data", [b"just some text\nnothing else\n", bytes(range(256)) * 40, b"\t\t\n" * 5])
def test_a_file_without_trace_records_is_an_error(tmp_path: Path, data: bytes) -> None:
    store, err = import_bytes(tmp_path, data)
    assert isinstance(err, DynamoDiffError) and err.code == ErrorCode.MALFORMED_INPUT
    assert "no trace records" in err.message
    assert_clean(store)


def test_import_path_that_is_a_symlink_loop_is_unsafe(tmp_path: Path) -> None:
    loop = tmp_path / "trace.log"
    loop.symlink_to(loop)
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as info:
        store.import_path(loop)
    assert info.value.code == ErrorCode.UNSAFE_PATH and "loop" in info.value.message
    assert_clean(store)


DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(
    ("name", "record"),
    [
        ("guards payload", b'{"dynamo_guards": {}, "frame_id": 90, "frame_compile_id": 0, "has_payload": "x"}'),
        (
            "recompile_reasons payload",
            b'{"artifact": {"name": "recompile_reasons", "encoding": "json"}, "frame_id": 90, "frame_compile_id": 1, '
            b'"has_payload": "x"}',
        ),
        ("torch_version payload", b'{"artifact": {"name": "torch_version", "encoding": "json"}, "has_payload": "x"}'),
        (
            "cache payload",
            b'{"artifact": {"name": "fx_graph_cache_miss", "encoding": "json"}, "frame_id": 90, '
            b'"frame_compile_id": 0, "has_payload": "x"}',
        ),
        (
            "configuration string",
            b'{"compilation_metrics": {"dynamo_config": "' + DEEP + b'"}, "frame_id": 90, "frame_compile_id": 0}',
        ),
    ],
)
def test_payload_json_too_deep_to_parse_is_not_a_traceback(tmp_path: Path, name: str, record: bytes) -> None:
    """Payloads (and the JSON inside configuration strings) are mined for facts, not limits: one nested past
    the parser's recursion bound is unreadable for that fact, and the import goes on (found by fuzz_readers)."""
    data = GOOD + metadata(record) + (b"\t" + DEEP + b"\n" if b"has_payload" in record else b"")
    _store, capture = import_bytes(tmp_path, data)
    assert not isinstance(capture, DynamoDiffError), capture
    assert capture.counts.observed_compilation_identities >= 3, name  # type: ignore[attr-defined]


def _disk_full(*_: object, **__: object) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("where", ["copy", "evidence", "capture.json", "index"])
def test_a_full_disk_is_io_error_and_leaves_nothing(
    tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing fails at each stage of an import (staging copy, work files, the document, the index): a coded
    error, never a traceback, and no capture or staging left behind."""
    import sqlite3

    from dynamo_diff_store.analysis import _evidence_writer as evidence_writer
    from dynamo_diff_store.storage import _assemble as assemble
    from dynamo_diff_store.storage import _staging as staging
    from dynamo_diff_store.storage import _store as store_module

    if where == "copy":
        monkeypatch.setattr(staging._Copier, "copy", _disk_full)
    elif where == "evidence":
        monkeypatch.setattr(evidence_writer.EvidenceWriter, "add", _disk_full)
    elif where == "capture.json":
        monkeypatch.setattr(assemble.AssembledCapture, "write", _disk_full)
    else:

        def full_index(*_: object, **__: object) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(store_module.index, "insert_capture", full_index)
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as info:
        store.import_path(CORPUS / "comp_metrics.log", workers=1)
    assert info.value.code == ErrorCode.IO_ERROR
    assert "no partial capture" in info.value.message
    tmp = store.path / "tmp"
    assert not tmp.exists() or not any(tmp.iterdir())
    if where != "index":
        assert_clean(store)
    else:
        # The capture was complete on disk before the index failed; the next write indexes it.
        monkeypatch.undo()
        assert [r.id for r in store.list_captures()] == []
        again = store.import_path(CORPUS / "comp_metrics.log", workers=1)
        assert [r.id for r in store.list_captures()] == [again.summary.capture.id] and not store.verify().damage
