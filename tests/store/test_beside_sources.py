"""A bare TORCH_TRACE log imported from a folder keeps the scripts its trace names that are in that folder, as its
source snapshot, marked as found beside the log at import (docs/CAPTURING.md, "Scripts beside a bare log").

The run is fixtures/captures/trial_hook_after: a real trace of fixtures/workloads/trial/hook_after/serve.py (the
bytes its bundle's snapshot holds), laid out as the agent trial's run folder was: `run/logs/` and `run/serve.py`.
What the trace names is read from the raw log itself (its intern table), not through our reader."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema import DynamoDiffError, ErrorCode
from dynamo_diff_store import Store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RAW = FIXTURES / "captures" / "trial_hook_after" / "raw"
SCRIPT = FIXTURES / "workloads" / "trial" / "hook_after" / "serve.py"


def _named_by_trace() -> set[str]:
    """The file names in the raw log's intern table (`{"str": [name, index]}` lines)."""
    (log,) = RAW.glob("*.log")
    found = re.findall(r'\{"str": \[("(?:[^"\\]|\\.)*"), \d+\]\}', log.read_text(encoding="utf-8"))
    return {json.loads(name) for name in found}


def _run_folder(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(RAW, run / "logs")
    shutil.copyfile(SCRIPT, run / "serve.py")
    (run / "notes.py").write_text("print('not named by the trace')\n", encoding="utf-8")
    return run


def _tree(path: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(path)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(path.rglob("*"))}


def test_the_script_beside_the_log_is_kept_and_marked(tmp_path: Path) -> None:
    run = _run_folder(tmp_path)
    (script_name,) = [n for n in _named_by_trace() if n.endswith("/serve.py")]
    store = Store(tmp_path / "store")
    result = store.import_path(run / "logs", sources_from=run)
    info = result.capture.capture
    (entry,) = info.validity.sources_found_beside
    assert (entry.path, entry.captured_path, entry.snapshot) == ("serve.py", script_name, "sources/serve.py")
    assert info.validity.sources_note() == (
        "sources: 1 file found beside the log at import (not recorded with the run; it may differ from what ran)"
    )
    rel, text = store.source_snapshot(result.capture_id, script_name)
    assert (rel, text) == ("serve.py", SCRIPT.read_text(encoding="utf-8"))
    # What the trace does not name is not kept; the capture holds the log and the script.
    stored = store.capture_dir(result.capture_id) / "input"
    kept = {p.relative_to(stored).as_posix() for p in stored.rglob("*") if p.is_file()}
    assert kept == {p.name for p in RAW.glob("*.log")} | {"sources/serve.py"}
    assert store.verify().damage == []


def test_a_folder_of_logs_holding_the_script_is_read_with_it(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(RAW, logs)
    shutil.copyfile(SCRIPT, logs / "serve.py")
    store = Store(tmp_path / "store")
    result = store.import_path(logs)
    assert [e.path for e in result.capture.capture.validity.sources_found_beside] == ["serve.py"]
    # Read in place (as the pytest plugin reads a trace): the id the import gives.
    assert store.read_path(logs).capture.id == result.capture_id


def test_nothing_is_read_outside_the_folder(tmp_path: Path) -> None:
    """A link in the run folder to a script elsewhere is not followed; the folder above the log's is not searched
    unless it is the run's own folder."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copyfile(SCRIPT, outside / "serve.py")
    run = tmp_path / "run"
    shutil.copytree(RAW, run / "logs")
    (run / "serve.py").symlink_to(outside / "serve.py")
    store = Store(tmp_path / "store")
    linked = store.import_path(run / "logs", sources_from=run)
    assert linked.capture.capture.validity.sources_found_beside == []
    assert store.source_files(linked.capture_id) == ({}, {})
    # The log's own folder, named alone: the script beside that folder is outside it.
    plain = tmp_path / "plain"
    shutil.copytree(RAW, plain / "logs")
    shutil.copyfile(SCRIPT, plain / "serve.py")
    alone = store.import_path(plain / "logs")
    assert alone.capture.capture.validity.sources_found_beside == []
    assert alone.capture_id == linked.capture_id  # the same bytes were imported


def test_the_log_file_alone_imports_without_sources(tmp_path: Path) -> None:
    run = _run_folder(tmp_path)
    (log,) = (run / "logs").glob("*.log")
    shutil.copyfile(SCRIPT, run / "logs" / "serve.py")
    store = Store(tmp_path / "store")
    result = store.import_path(log)
    assert result.capture.capture.validity.sources_found_beside == []
    assert store.source_files(result.capture_id) == ({}, {})
    with pytest.raises(DynamoDiffError) as err:
        store.source_snapshot(result.capture_id, next(n for n in _named_by_trace() if n.endswith("/serve.py")))
    assert err.value.code == ErrorCode.MISSING_SNAPSHOT


def test_the_same_folder_twice_writes_nothing_and_is_recognised(tmp_path: Path) -> None:
    run = _run_folder(tmp_path)
    store = Store(tmp_path / "store")
    first = store.import_path(run / "logs", sources_from=run)
    before = _tree(store.captures_dir)
    again = store.import_path(run / "logs", sources_from=run)
    assert (again.capture_id, again.created) == (first.capture_id, False)
    assert _tree(store.captures_dir) == before
    assert store.imported_from(first.capture_id, run / "logs", sources_from=run)
    # Without the run's folder the script is not part of it: another input.
    assert not store.imported_from(first.capture_id, run / "logs")
    # The script edited since: no longer what was imported, and importing it again is another capture.
    (run / "serve.py").write_text(SCRIPT.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert not store.imported_from(first.capture_id, run / "logs", sources_from=run)
    edited = store.import_path(run / "logs", sources_from=run)
    assert edited.created and edited.capture_id != first.capture_id
