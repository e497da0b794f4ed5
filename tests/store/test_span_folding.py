"""Runs of alike timing spans folded by the raw-log reader (`fold_spans=True`, what an import reads with) give the
same facts and the same file report as reading every span as a record and folding afterwards."""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from pathlib import Path

import pytest
from dynamo_diff_store import Limits
from dynamo_diff_store.analysis import RankJob, analyse_rank
from dynamo_diff_store.analysis import _byte_ranges as byte_ranges
from dynamo_diff_store.analysis._kinds import collapse_repeats, extract
from dynamo_diff_store.reading import FileReport, read_raw_log
from hypothesis import given, settings
from hypothesis import strategies as st

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LOGS = sorted(FIXTURES.glob("captures/*/raw/*.log")) + sorted(FIXTURES.glob("corpus/tlparse-tests/**/*.log"))


def facts_and_report(path: Path, *, fold: bool, limits: Limits | None = None) -> tuple[list[dict], dict]:
    report = FileReport(file=path.name)
    records = read_raw_log(path, path.name, limits or Limits(), report, fold_spans=fold)
    facts = [asdict(f) for f in collapse_repeats(map(extract, records))]
    return facts, asdict(report)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_folded_spans_give_the_same_facts(path: Path) -> None:
    assert facts_and_report(path, fold=True) == facts_and_report(path, fold=False)


def test_folding_takes_place() -> None:
    path = next(p for p in LOGS if "inductor_cold" in str(p))
    report = FileReport(file=path.name)
    records = list(read_raw_log(path, path.name, Limits(), report, fold_spans=True))
    spans = [r for r in records if r.kind == "chromium_event"]
    assert any(r.repeat > 1 for r in spans)
    assert sum(r.repeat for r in spans) == report.record_kinds["chromium_event"]


def _span(
    payload_lines: list[bytes],
    *,
    ids: bytes = b'"frame_id": 0, "frame_compile_id": 0, "attempt": 0, ',
    rank: bytes = b"",
    good: bool = True,
    eol: bytes = b"\n",
) -> bytes:
    text = b"\n".join(payload_lines)
    digest = hashlib.md5(text if good else text + b"x").hexdigest().encode()
    meta = b"V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] " + b'{"chromium_event": {}, ' + rank + ids
    meta += b'"has_payload": "' + digest + b'"}' + eol
    return meta + b"".join(b"\t" + line + eol for line in payload_lines)


PIECES = [
    _span([b"{", b'"name": "a"', b"}"]),
    _span([b"{", b'"name": "b"', b"}"]),
    _span([b"{", b'"name": "c"', b"}"], ids=b'"frame_id": 1, "frame_compile_id": 0, "attempt": 0, '),
    _span(
        [b"{", b'"name": "a"', b"}"],
        ids=b'"compiled_autograd_id": null, "frame_id": 0, "frame_compile_id": 0, "attempt": 0, ',
    ),
    _span([b"{", b'"name": "r"', b"}"], rank=b'"rank": 0, '),
    _span([b"{", b'"name": "bad"', b"}"], good=False),
    _span([b"{", b'"name": "\xff"', b"}"]),  # not UTF-8
    _span([b"{", b'"name": "crlf"', b"}"], eol=b"\r\n"),
    _span([]),  # no payload lines: an md5 mismatch
    _span([b"{", b"", b"}"]),  # an empty payload line
    _span([b"{", b'"name": "a"', b"}"]).replace(b"\t}", b"\n\t}"),  # an empty line inside the payload
    b"noise line\n",
    b"\n",
    b'V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] {"dynamo_start": {"stack": []}, "frame_id": 0, '
    b'"frame_compile_id": 0, "attempt": 0}\n',
    b'V1130 04:09:32.848000 4182 torch/_dynamo/utils.py:2350] {"artifact": {"name": "x", "encoding": "string"}, '
    b'"frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "'
    + hashlib.md5(b"p").hexdigest().encode()
    + b'"}\n\tp\n',
    b"\tstray payload line\n",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(range(len(PIECES))), min_size=1, max_size=30),
    st.integers(0, 40),
    st.booleans(),
)
def test_generated_logs_fold_the_same(
    tmp_path_factory: pytest.TempPathFactory, order: list[int], cut: int, small_limit: bool
) -> None:
    data = b"".join(PIECES[i] for i in order)
    if cut:
        data = data[:-cut]  # stop anywhere, inside a payload or a metadata line too
    path = tmp_path_factory.mktemp("fold") / "trace.log"
    path.write_bytes(data)
    limits = Limits(max_record_bytes=200) if small_limit else Limits()

    def outcome(fold: bool) -> object:
        try:
            return facts_and_report(path, fold=fold, limits=limits)
        except Exception as exc:  # a bound: the same error either way
            return repr(exc)

    assert outcome(True) == outcome(False)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_import_reads_the_same_with_and_without_folding(
    tmp_path: Path, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = next(p for p in LOGS if "inductor_cold" in str(p))
    monkeypatch.setattr(byte_ranges, "CHUNK_MIN_BYTES", 0)
    results = []
    for fold in (False, True):
        monkeypatch.setattr(byte_ranges, "FOLD_SPANS", fold)
        root, work = tmp_path / f"in{fold}", tmp_path / f"work{fold}"
        root.mkdir()
        work.mkdir()
        (root / "trace.log").write_bytes(path.read_bytes())
        job = RankJob(
            root=str(root), group="r0", rank=0, files=(("trace.log", "raw_log"),), chunk_workers=workers, work=str(work)
        )
        results.append(analyse_rank(job))
    one, two = results
    assert list(two.iter_evidence_json()) == list(one.iter_evidence_json())
    assert list(two.iter_compilation_json()) == list(one.iter_compilation_json())
    assert [n.model_dump() for n in two.notices()] == [n.model_dump() for n in one.notices()]
    assert two.record_kinds == one.record_kinds and two.records == one.records
