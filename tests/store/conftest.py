"""Shared fixtures for the store reader tests: paths into fixtures/corpus and a read-everything helper."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import FileReport, Record, read_raw_log

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"

ReadRaw = Callable[..., tuple[list[Record], FileReport]]


@pytest.fixture
def logs() -> Path:
    """fixtures/corpus/tlparse-tests (read-only real torch logs)."""
    return CORPUS / "tlparse-tests"


@pytest.fixture
def exports() -> Path:
    """fixtures/corpus/tlparse-exports (tlparse 0.4.3 output for some of those logs)."""
    return CORPUS / "tlparse-exports"


@pytest.fixture
def read_raw() -> ReadRaw:
    """Read a whole raw log: returns (records, report)."""

    def read(path: Path, limits: Limits | None = None) -> tuple[list[Record], FileReport]:
        report = FileReport(path.name)
        records = list(read_raw_log(path, path.name, limits or Limits(), report))
        return records, report

    return read


@pytest.fixture
def export_copy(tmp_path: Path, exports: Path) -> Callable[[str], Path]:
    """A writable copy of one tlparse export, for tests that damage it."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(exports / name, target)
        return target

    return copy
