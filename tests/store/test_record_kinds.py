"""The record kinds registry (analysis/_kinds.py): one object per kind, and a real record of every kind.

Which fixture holds a record of a kind, and how many, is read straight from the trace files (the JSON of each
metadata line, not our reader); the import must then index exactly that many records of the kind as evidence, each
folded into a compilation (or, for a record about the run, into none), and not name the kind as uninterpreted.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from dynamo_diff_schema import Capture
from dynamo_diff_store import Store
from dynamo_diff_store.analysis._folding import RecordKind, evidence_only
from dynamo_diff_store.analysis._kinds import NOT_INDEXED, RECORD_KINDS, _by_key

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# Where a kind's record is looked for, in order: the retained torch 2.13 captures, then the corpus's single logs
# (older torch: the JSON guard list, run-time metrics).
SOURCES = [
    *sorted(p for p in (FIXTURES / "captures").iterdir() if (p / "raw").is_dir()),
    *sorted((FIXTURES / "corpus/tlparse-tests").glob("*.log")),
]
_PREFIX = re.compile(r"^[VIWEF]\d{4} [\d:.]+\s+\d+ [^\]]+\] (\{.*)$")
_META = {"frame_id", "frame_compile_id", "attempt", "has_payload", "stack", "rank", "compiled_autograd_id"}
_DEVICE = re.compile(r"type='(\w+)'")


def _logs(source: Path) -> list[Path]:
    return sorted((source / "raw").glob("*.log")) if source.is_dir() else [source]


@cache
def kinds_in(source: Path) -> tuple[Counter[str], frozenset[str]]:
    """Records per kind key (`artifact:<name>` for artifacts) in a fixture's trace files, and the device types of
    its describe_tensor records, read from each metadata line's JSON."""
    counts: Counter[str] = Counter()
    devices: set[str] = set()
    for log in _logs(source):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            match = _PREFIX.match(line)
            if match is None:
                continue
            try:
                record = json.loads(match.group(1))
            except ValueError:
                continue
            kind = next((k for k in record if k not in _META), None)
            if kind == "artifact" and isinstance(record["artifact"], dict):
                kind = f"artifact:{record['artifact'].get('name')}"
            if kind == "describe_tensor" and (device := _DEVICE.search(str(record[kind].get("device")))):
                devices.add(device.group(1))
            if kind is not None:
                counts[kind] += 1
    return counts, frozenset(devices)


def source_of(kind: RecordKind) -> Path | None:
    return next((s for s in SOURCES if kinds_in(s)[0][kind.key]), None)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("kinds") / "store")


_IMPORTED: dict[Path, Capture] = {}


def imported(store: Store, source: Path) -> Capture:
    if source not in _IMPORTED:
        _IMPORTED[source] = store.import_path(source).capture
    return _IMPORTED[source]


def test_the_registry_has_one_kind_per_record_kind() -> None:
    keys = [kind.key for kind in RECORD_KINDS]
    assert len(keys) == len(set(keys)) and len(keys) >= 20
    with pytest.raises(ValueError, match="two record kinds for dynamo_start"):
        _by_key([RECORD_KINDS[0], RECORD_KINDS[0]])
    with pytest.raises(ValueError, match="exactly one of fold and fold_run"):
        RecordKind("x")
    with pytest.raises(ValueError, match="exactly one of fold and fold_run"):
        RecordKind("x", fold=evidence_only, fold_run=lambda folding, fact: None)


@pytest.mark.parametrize("kind", RECORD_KINDS, ids=lambda kind: kind.key)
def test_every_registered_kind_has_a_fixture_record_it_folds(store: Store, kind: RecordKind) -> None:
    source = source_of(kind)
    assert source is not None, f"no fixture has a {kind.key} record: record one (CONTRIBUTING.md)"
    capture = imported(store, source)
    expected = kinds_in(source)[0][kind.key]
    notice = next((n for n in capture.notices if n.code == "uninterpreted_record_kinds"), None)
    uninterpreted = set(notice.details["kinds"]) if notice is not None and notice.details else set()
    if not kind.interpreted:
        # describe_tensor: read for the devices only, counted as not interpreted, too many to index.
        assert kind.key in NOT_INDEXED and kind.key in uninterpreted
        devices = {d for observed in capture.capture.observed_config for d in observed.devices}
        assert devices == kinds_in(source)[1] and devices
        return
    assert kind.key not in uninterpreted
    found, total = store.evidence_index(capture.capture.id, kind=kind.key, limit=10_000)
    assert total == expected, (kind.key, source.name)
    if kind.fold_run is not None:
        assert all(e.compile_id is None for e in found)
    else:
        assert all(e.compile_id is not None for e in found)
        # Folded into the compilation the record names: the evidence is among that compilation's own.
        owned = {ev for rank in capture.ranks for comp in rank.compilations for ev in comp.evidence_ids}
        assert {e.id for e in found} <= owned
