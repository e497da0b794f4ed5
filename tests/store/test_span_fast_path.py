"""Timing spans (chromium_event) are read without a JSON parse; what that reading gives must be what the JSON
says. The oracle here is the standard library's json over the same lines."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from dynamo_diff_store import Limits
from dynamo_diff_store.reading import FileReport, read_raw_log
from dynamo_diff_store.reading._rawlog import _SPAN_META, GLOG_PREFIX
from hypothesis import given, settings
from hypothesis import strategies as st

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LOGS = sorted(FIXTURES.glob("captures/*/raw/*.log")) + sorted(FIXTURES.glob("corpus/tlparse-tests/**/*.log"))


def span_lines(path: Path) -> list[tuple[int, bytes]]:
    out = []
    for number, line in enumerate(path.read_bytes().splitlines(keepends=True), 1):
        m = GLOG_PREFIX.match(line)
        if m is not None and line.startswith(b'{"chromium_event"', m.end()):
            out.append((number, line[m.end() :]))
    return out


def payload_md5(lines: list[bytes], line: int) -> str:
    """md5 of the TAB lines after metadata line `line` (1-based), each without its TAB, joined with newlines."""
    body = []
    for text in lines[line:]:
        if not text.startswith(b"\t"):
            break
        body.append(text[1:].rstrip(b"\r"))
    return hashlib.md5(b"\n".join(body)).hexdigest()


def test_the_logs_have_spans_to_read() -> None:
    assert sum(len(span_lines(p)) for p in LOGS) > 5000


@pytest.mark.parametrize(
    "path", [p for p in LOGS if span_lines(p)], ids=lambda p: str(p.relative_to(FIXTURES))
)  # the logs torch wrote timing spans into (older ones have none)
def test_every_span_reads_as_its_json_says(path: Path) -> None:
    spans = dict(span_lines(path))
    report = FileReport(file=path.name)
    lines = path.read_bytes().splitlines()
    seen = 0
    for record in read_raw_log(path, path.name, Limits(), report):
        if record.line not in spans:
            continue
        seen += 1
        obj = json.loads(spans[record.line])
        assert record.kind == "chromium_event" and record.body == {}
        c = record.compile
        assert (c.compiled_autograd_id, c.frame_id, c.frame_compile_id, c.attempt) == (
            obj.get("compiled_autograd_id"),
            obj.get("frame_id"),
            obj.get("frame_compile_id"),
            obj.get("attempt"),
        )
        if "rank" in obj:
            assert record.rank == obj["rank"]
        assert record.payload_ok is (payload_md5(lines, record.line) == obj["has_payload"])
    assert seen == len(spans)


META = st.fixed_dictionaries(
    {},
    optional={
        "rank": st.integers(-2, 10**20),
        "compiled_autograd_id": st.none() | st.integers(-2, 10**20),
        "frame_id": st.integers(-2, 10**20),
        "frame_compile_id": st.integers(-2, 10**20),
        "attempt": st.integers(-2, 10**20),
        "extra": st.integers(),
    },
)


@settings(max_examples=300, deadline=None)
@given(META, st.booleans(), st.sampled_from(["", "x", "0", " "]))
def test_the_pattern_takes_only_what_json_reads_the_same(meta: dict[str, object], spaced: bool, noise: str) -> None:
    """Whatever the pattern accepts is a JSON object with those keys and those integer values; the rest goes the
    general way (reordered, extra keys, negative or huge ids, other spacing, trailing bytes)."""
    obj = {"chromium_event": {}, **meta, "has_payload": "0123456789abcdef0123456789abcdef"}
    text = json.dumps(obj, separators=(", ", ": ") if spaced else (",", ":")) + noise + "\n"
    m = _SPAN_META.fullmatch(text.encode())
    if m is None:
        return
    parsed = json.loads(text)
    assert set(parsed) <= {
        "chromium_event",
        "rank",
        "compiled_autograd_id",
        "frame_id",
        "frame_compile_id",
        "attempt",
        "has_payload",
    }
    rank, ca, frame, fcid, attempt, digest = m.groups()
    for key, got in (("rank", rank), ("frame_id", frame), ("frame_compile_id", fcid), ("attempt", attempt)):
        assert (int(got) if got is not None else None) == parsed.get(key)
        assert parsed.get(key) is None or 0 <= parsed[key] < 10**18
    assert (int(ca) if ca is not None else None) == parsed.get("compiled_autograd_id")
    assert digest.decode() == parsed["has_payload"]
    assert not re.search(r"[^\n]\n.", text)
