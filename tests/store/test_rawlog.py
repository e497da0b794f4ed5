"""The raw TORCH_TRACE reader against real torch logs and against damage torch never writes.

Expected numbers come from the files themselves with grep, not from running the reader:
- simple.log: `grep -c '^V'` = 76 metadata lines, `grep -c '{"str"'` = 12, `grep -c '"chromium_event"'` = 50,
  so 76 - 12 = 64 records are yielded; the file ends without a newline (`tail -c1` is `}`).
- simple_corrupted_json.log: the damaged chromium_event is the record with has_payload 6762d47f...,
  `grep -n 6762d47fdbf80071626529f25dc69013` = line 13 (tlparse's own test expects exactly one md5 failure).
- export.log: 60 metadata lines, 42 `str`, last metadata line is 60 (its payload md5 fails in tlparse too);
  `grep -c '^$'` = 6 empty lines, all inside that last payload.
- comp_metrics.log: 26 metadata lines, 14 `str`, 3 compilation_metrics.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import CompileKey, FileReport, Record, read_raw_log
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def clean(report: FileReport) -> bool:
    """Nothing in the file that the import would report (no notice of any kind)."""
    return not (
        report.noise_lines
        or report.bad_records
        or report.payload_mismatches
        or report.missing_payloads
        or report.non_utf8_payloads
        or report.truncated
        or report.bad_id_fields
    )


ReadRaw = Callable[..., tuple[list[Record], FileReport]]  # the `read_raw` fixture (conftest.py)

PREFIX = "V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] "


def meta(obj: str) -> str:
    return PREFIX + obj + "\n"


def payload_record(kind: str, text: str, ids: str = "") -> str:
    digest = hashlib.md5(text.encode()).hexdigest()
    lines = "".join(f"\t{line}\n" for line in text.split("\n"))
    return meta(f'{{"{kind}": {{}}{ids}, "has_payload": "{digest}"}}') + lines


def write(tmp_path: Path, text: str | bytes, name: str = "t.log") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def test_simple_log_counts(logs: Path, read_raw: ReadRaw) -> None:
    records, report = read_raw(logs / "simple.log")
    assert len(records) == 64
    assert report.records == 64
    assert len(report.strings) == 12
    assert report.record_kinds["chromium_event"] == 50
    assert report.record_kinds["str"] == 12
    assert all(r.kind != "str" for r in records)
    assert report.payload_mismatches == []
    assert all(r.payload_ok for r in records if r.payload is not None)
    assert report.noise_lines == 0
    assert not report.truncated
    assert report.missing_final_newline
    metrics = [r for r in records if r.kind == "compilation_metrics"]
    assert len(metrics) == 1
    assert (metrics[0].compile.frame_id, metrics[0].compile.frame_compile_id, metrics[0].compile.attempt) == (0, 0, 0)
    # torch 2.6 writes "compiled_autograd_id": null; that is absence, not a bad field.
    assert metrics[0].compile.compiled_autograd_id is None
    assert report.bad_id_fields == []


def test_spans_cover_metadata_and_payload_lines(logs: Path, read_raw: ReadRaw) -> None:
    path = logs / "simple.log"
    data = path.read_bytes()
    records, _ = read_raw(path)
    assert records[0].span.offset == 0
    for record in records:
        chunk = data[record.span.offset : record.span.offset + record.span.length]
        assert chunk.startswith(b"V")
        assert chunk.count(b"\n") + (not chunk.endswith(b"\n")) == 1 + (
            0 if record.payload is None else record.payload.count("\n") + 1
        )
        if record.payload is not None:
            body = chunk.split(b"\n", 1)[1]
            assert body.rstrip(b"\n").replace(b"\n\t", b"\n")[1:].decode() == record.payload
    ends = [r.span.offset + r.span.length for r in records]
    assert ends[-1] == len(data)


def test_one_damaged_payload_is_a_mismatch_not_an_error(logs: Path, read_raw: ReadRaw) -> None:
    records, report = read_raw(logs / "simple_corrupted_json.log")
    assert report.payload_mismatches == [13]
    bad = [r for r in records if r.payload_ok is False]
    assert [r.line for r in bad] == [13]
    assert bad[0].kind == "chromium_event"
    assert len(records) == 64


def test_export_log_stack_and_empty_lines(logs: Path, read_raw: ReadRaw) -> None:
    records, report = read_raw(logs / "export.log")
    assert len(report.strings) == 42
    assert len(records) == 60 - 42
    assert report.payload_mismatches == [60]
    assert records[-1].line == 60
    assert records[-1].kind == "exported_program"
    # `stack` is metadata: it does not become a second kind.
    assert records[-1].extra_kinds == ()
    assert isinstance(records[-1].stack, list)
    assert records[-1].stack[0]["filename"] in report.strings
    # The six empty lines sit inside the last payload: noise, but the payload goes on after them.
    assert report.noise_lines == 6
    assert records[-1].payload is not None
    assert "Range constraints" in records[-1].payload
    assert all(r.compile == CompileKey(None, None, None, None) for r in records)


def test_comp_metrics_restarts(logs: Path, read_raw: ReadRaw) -> None:
    records, report = read_raw(logs / "comp_metrics.log")
    assert len(records) == 26 - 14
    metrics = [r for r in records if r.kind == "compilation_metrics"]
    assert len(metrics) == 3
    assert {(r.compile.frame_id, r.compile.frame_compile_id) for r in metrics} == {(0, 0), (1, 0), (2, 0)}
    assert clean(report)


def test_crlf_log_reads_like_the_original(tmp_path: Path, logs: Path, read_raw: ReadRaw) -> None:
    original = (logs / "simple.log").read_bytes()
    crlf = write(tmp_path, original.replace(b"\n", b"\r\n"))
    records, report = read_raw(crlf)
    plain, _ = read_raw(logs / "simple.log")
    assert report.crlf_lines == 76
    assert report.payload_mismatches == []
    assert [(r.kind, r.line, r.payload) for r in records] == [(r.kind, r.line, r.payload) for r in plain]


def test_rank_prefix_and_json_rank(tmp_path: Path, read_raw: ReadRaw) -> None:
    text = "[rank3]:" + meta('{"dynamo_start": {}, "frame_id": 0}') + meta('{"dynamo_start": {}, "rank": 5}')
    records, _ = read_raw(write(tmp_path, text))
    assert [r.rank for r in records] == [3, 5]


def test_kinds_ids_and_bad_fields(tmp_path: Path, read_raw: ReadRaw) -> None:
    text = (
        meta('{"first": 1, "second": 2, "frame_id": 1, "frame_compile_id": 2, "attempt": 0}')
        + meta('{"dynamo_start": {}, "frame_id": "7", "frame_compile_id": true, "attempt": -1, "rank": 1.5}')
        + meta('{"frame_id": 1}')
        + meta('{"str": ["/a.py", 0]}')
        + meta('{"str": "bad"}')
    )
    records, report = read_raw(write(tmp_path, text))
    assert [r.kind for r in records] == ["first", "dynamo_start"]
    assert records[0].extra_kinds == ("second",)
    assert records[0].body == 1
    assert (records[0].compile.frame_id, records[0].compile.frame_compile_id) == (1, 2)
    assert records[1].compile.frame_id is None and records[1].rank is None
    assert [(line, field) for line, field, _ in report.bad_id_fields] == [
        (2, "frame_id"),
        (2, "frame_compile_id"),
        (2, "attempt"),
        (2, "rank"),
    ]
    assert report.strings == {0: "/a.py"}
    assert [line for line, _ in report.bad_record_samples] == [3, 5]


def test_noise_bad_json_and_non_utf8(tmp_path: Path, read_raw: ReadRaw) -> None:
    text = (
        b"some banner printed by a script\n"
        + meta('{"a": 1, "a": 2}').encode()
        + b"\tpayload of the bad record is skipped\n"
        + PREFIX.encode()
        + b'{"x": "\xff"}\n'
        + payload_record("artifact", "ok").encode()
        + b"\tstray line after a complete payload? no: it extends the payload\n"
        + meta('{"dynamo_start": {}}').encode()
        + b"\tpayload lines after a record without payload are noise\n"
    )
    records, report = read_raw(write(tmp_path, text))
    assert [r.kind for r in records] == ["artifact", "dynamo_start"]
    assert records[0].payload_ok is False  # the extra TAB line changed the payload
    assert report.payload_mismatches == [5]
    assert report.noise_samples == [1, 9]
    assert next(reason for _, reason in report.bad_record_samples) == "duplicate key"
    assert report.bad_records == 2


def test_non_utf8_payload_is_replaced_and_md5_checked_on_bytes(tmp_path: Path, read_raw: ReadRaw) -> None:
    raw = b"caf\xe9"
    digest = hashlib.md5(raw).hexdigest()
    text = meta(f'{{"artifact": {{}}, "has_payload": "{digest}"}}').encode() + b"\t" + raw + b"\n"
    records, report = read_raw(write(tmp_path, text))
    assert records[0].payload == "caf\ufffd"
    assert records[0].payload_ok is True
    assert report.non_utf8_payloads == [1]


@pytest.mark.parametrize(
    ("cut", "truncated_at"),
    [
        ("mid_payload", 2),  # file stops inside the payload of the record on line 2
        ("mid_metadata", 5),  # file stops inside the JSON of line 5
        ("before_payload", 2),  # has_payload but no payload lines at all
        ("payload_line_end", 2),  # the last record's payload stops at a line end (md5 mismatch at the end)
    ],
)
def test_truncation(tmp_path: Path, read_raw: ReadRaw, cut: str, truncated_at: int) -> None:
    head = meta('{"dynamo_start": {}}')
    rec = payload_record("artifact", "line one\nline two")
    if cut == "mid_payload":
        text = head + rec[: rec.index("two") + 1]
    elif cut == "mid_metadata":
        text = head + rec + meta('{"dynamo_start": {"k": 1}}')[:-10]
    elif cut == "payload_line_end":
        text = head + rec[: rec.index("two") - 6]
        assert text.endswith("line one\n")
    else:
        text = head + rec.split("\n", 1)[0] + "\n"
    _records, report = read_raw(write(tmp_path, text))
    assert report.truncated
    assert report.truncated_at == truncated_at
    assert not report.missing_final_newline


def test_complete_file_without_final_newline_is_not_truncated(tmp_path: Path, read_raw: ReadRaw) -> None:
    text = meta('{"dynamo_start": {}}') + payload_record("artifact", "a\nb")
    _, report = read_raw(write(tmp_path, text.rstrip("\n")))
    assert not report.truncated and report.missing_final_newline
    _, report = read_raw(write(tmp_path, text + meta('{"dynamo_start": {}}').rstrip("\n")))
    assert not report.truncated and report.missing_final_newline


def test_empty_file(tmp_path: Path, read_raw: ReadRaw) -> None:
    records, report = read_raw(write(tmp_path, b""))
    assert records == [] and clean(report) and report.bytes_read == 0


@pytest.mark.parametrize(
    ("limits", "name"),
    [
        (Limits(max_line_bytes=200), "max_line_bytes"),
        (Limits(max_record_bytes=300), "max_record_bytes"),
        (Limits(max_records=2), "max_records"),
        (Limits(max_total_bytes=100), "max_total_bytes"),
    ],
)
def test_limits(tmp_path: Path, read_raw: ReadRaw, limits: Limits, name: str) -> None:
    text = meta('{"dynamo_start": {"pad": "' + "x" * 300 + '"}}') if name == "max_line_bytes" else ""
    text += payload_record("artifact", "\n".join(["y" * 50] * 20)) + meta('{"a": 1}') * 3
    with pytest.raises(DynamoDiffError) as info:
        read_raw(write(tmp_path, text), limits)
    assert info.value.code is ErrorCode.RESOURCE_LIMIT
    assert info.value.details["limit"] == name
    assert info.value.details["file"] == "t.log"


def test_fifo_and_missing_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    with pytest.raises(DynamoDiffError) as info:
        list(read_raw_log(fifo, "pipe.log", Limits(), FileReport("pipe.log")))
    assert info.value.code is ErrorCode.UNSAFE_PATH
    with pytest.raises(DynamoDiffError) as info:
        list(read_raw_log(tmp_path / "nope.log", "nope.log", Limits(), FileReport("nope.log")))
    assert info.value.code is ErrorCode.UNREADABLE_INPUT


SEED = (Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests/comp_failure.log").read_bytes()


def _read_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.log"
    path.write_bytes(data)
    report = FileReport("fuzz.log")
    try:
        for record in read_raw_log(path, "fuzz.log", Limits(max_line_bytes=4096, max_record_bytes=8192), report):
            assert record.kind != "str"
    except DynamoDiffError as exc:
        assert exc.code is ErrorCode.RESOURCE_LIMIT


_FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@_FUZZ
@given(st.integers(0, len(SEED)))
def test_fuzz_truncation(tmp_path: Path, cut: int) -> None:
    _read_bytes(tmp_path, SEED[:cut])


@_FUZZ
@given(st.lists(st.tuples(st.integers(0, len(SEED) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_fuzz_byte_flips(tmp_path: Path, flips: list[tuple[int, int]]) -> None:
    data = bytearray(SEED)
    for index, value in flips:
        data[index] = value
    _read_bytes(tmp_path, bytes(data))


@_FUZZ
@given(st.binary(max_size=2000))
def test_fuzz_random_bytes(tmp_path: Path, data: bytes) -> None:
    _read_bytes(tmp_path, data)


@_FUZZ
@given(st.lists(st.sampled_from(["\t", "\n", "\r\n", PREFIX, "{", "}", '"has_payload": "x"', '"str"', ":", "\xff"])))
def test_fuzz_grammar_pieces(tmp_path: Path, pieces: list[str]) -> None:
    _read_bytes(tmp_path, "".join(pieces).encode("utf-8", "surrogateescape"))
