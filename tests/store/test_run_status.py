"""How a run ended, on real torch 2.13 captures (fixtures/captures/midrun_*, recorded by the fixture generator):
completed, raised mid-run, killed by SIGKILL inside a compilation, and traces cut afterwards. Expected values
come from the workload's own oracle.json (written before it raised or was killed) and from the cuts the tests
make, never from our analyser."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema import Capture, validate
from dynamo_diff_store import Store

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads((CAPTURES / name / "oracle.json").read_text())  # type: ignore[type-arg]
    return data


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("run-status") / "store")


def imported(store: Store, path: Path) -> Capture:
    capture = store.import_path(path).capture
    validate(capture.model_dump(mode="json"), "capture")
    return capture


def test_a_completed_run(store: Store) -> None:
    capture = imported(store, CAPTURES / "midrun_complete")
    run = capture.capture.run
    assert (run.state, run.finished, run.exit_code, run.source) == ("completed", True, 0, "capture")
    assert capture.counts.confirmed_recompilation_identities == oracle("midrun_complete")["expect"]["recompiles"]


def test_a_run_that_raised_midway(store: Store) -> None:
    capture = imported(store, CAPTURES / "midrun_raise")
    expect = oracle("midrun_raise")["expect"]
    run = capture.capture.run
    assert (run.state, run.finished, run.exit_code) == ("exited", False, expect["exit_code"])
    assert not run.trace_cut  # the trace is whole: the program stopped between compilations
    assert run.exception is not None and run.exception.startswith(expect["exception"] + ":")
    assert run.summary.startswith("exited with code 1 after an uncaught RuntimeError")
    # Fewer compilations than the complete run: exactly why the status must come first.
    assert capture.counts.observed_compilation_identities == expect["compilations"]
    assert capture.counts.confirmed_recompilation_identities == expect["recompiles"]


def test_a_run_killed_inside_a_compilation(store: Store) -> None:
    capture = imported(store, CAPTURES / "midrun_kill")
    data = oracle("midrun_kill")
    expect = data["expect"]
    run = capture.capture.run
    assert (run.state, run.finished, run.signal, run.exit_code) == ("killed", False, "SIGKILL", expect["exit_code"])
    assert data["killed_in_backend"] and data["backend_invocations"] == expect["graphs"]
    # The compilation the backend was killed in started and never finished.
    assert run.trace_cut and [r for r in run.reasons if "0/2 started and never finished" in r]
    assert expect["unfinished"] == ["0/2"]
    assert capture.capture.validity.artifact_structure == "partial"
    assert capture.counts.observed_compilation_identities == expect["compilations"]
    assert capture.counts.completed == expect["completed"]


def test_a_bare_trace_has_no_workload_status(store: Store, tmp_path: Path) -> None:
    shutil.copytree(CAPTURES / "midrun_complete" / "raw", tmp_path / "raw")
    run = imported(store, tmp_path / "raw").capture.run
    assert (run.state, run.finished, run.source) == ("unknown", None, "none")
    assert "bare trace" in run.summary


def _log(name: str) -> Path:
    (log,) = sorted((CAPTURES / name / "raw").glob("*.log"))
    return log


def test_a_trace_cut_mid_record(store: Store, tmp_path: Path) -> None:
    data = _log("midrun_complete").read_bytes()
    cut = tmp_path / "cut.log"
    cut.write_bytes(data[: len(data) * 2 // 3 + 17])  # somewhere inside a record
    run = imported(store, cut).capture.run
    assert (run.state, run.finished, run.trace_cut) == ("trace_cut", False, True)
    assert run.summary.startswith("trace cut: cut.log ends mid-record")


def test_a_trace_cut_at_a_record_boundary_inside_a_compilation(store: Store, tmp_path: Path) -> None:
    """Cut just before the last compilation_metrics: every line is whole, but a compilation never ended."""
    lines = _log("midrun_complete").read_text().split("\n")
    last = max(i for i, line in enumerate(lines) if '{"compilation_metrics"' in line and not line.startswith("\t"))
    cut = tmp_path / "cut.log"
    cut.write_text("\n".join(lines[:last]) + "\n")
    run = imported(store, cut).capture.run
    assert (run.state, run.finished) == ("trace_cut", False)
    assert "compilation 0/2 never finished" in run.summary  # midrun compiles 0/0, 0/1, 0/2 (oracle: 3)
    assert oracle("midrun_complete")["expect"]["compilations"] == 3


def test_a_capture_stored_by_an_earlier_reader_gets_its_run_status(store: Store) -> None:
    """capture.json written before captures carried `run`: the status is derived from what it holds."""
    capture = imported(store, CAPTURES / "midrun_raise")
    path = store.capture_dir(capture.capture.id) / "capture.json"
    document = json.loads(path.read_bytes())
    del document["capture"]["run"]
    path.write_text(json.dumps(document))
    legacy = store.load(capture.capture.id)
    assert legacy.capture.run.state == "exited" and legacy.capture.run.exit_code == 1


def test_a_multi_line_exception_gives_a_one_line_summary() -> None:
    """torchrun ends with `ChildFailedError` and a boxed report of the failed ranks (seen in a 10-rank job whose
    rank 7 exited): the summary is one line, the exception keeps every line."""
    from dynamo_diff_schema.capture import Provenance
    from dynamo_diff_schema.manifest import Manifest
    from dynamo_diff_store.analysis import TraceState, run_status

    raised = Manifest.model_validate_json((CAPTURES / "midrun_raise" / "manifest.json").read_text())
    assert raised.observed is not None and raised.observed.processes
    text = "ChildFailedError: \n" + "=" * 60 + "\n/tmp/job.py FAILED\n" + "-" * 60 + "\nFailures:\n[1]:\n  rank : 7"
    first = raised.observed.processes[0].model_copy(update={"exception": text})
    observed = raised.observed.model_copy(update={"processes": [first, *raised.observed.processes[1:]]})
    manifest = raised.model_copy(update={"observed": observed})
    run = run_status(manifest, Provenance.VERIFIED, TraceState(cut_files=[], unfinished=[], evidence_missing=False))
    assert run.summary == "exited with code 1 after an uncaught ChildFailedError: /tmp/job.py FAILED"
    assert run.exception == text


def test_where_the_exception_was_raised_is_kept_when_its_message_is_cut() -> None:
    """A long message raised inside torch (`_LinAlgError: linalg.cholesky: ... (/.../site-packages/torch/_ops.py:875)`,
    seen in a 26th trial's run): the summary cuts the message, never the place, written from the package on."""
    from dynamo_diff_schema.capture import Provenance
    from dynamo_diff_schema.manifest import Manifest
    from dynamo_diff_store.analysis import TraceState, run_status

    raised = Manifest.model_validate_json((CAPTURES / "midrun_raise" / "manifest.json").read_text())
    assert raised.observed is not None and raised.observed.processes
    message = "_LinAlgError: linalg.cholesky: " + "the input is not positive-definite " * 8
    text = f"{message.strip()} (/opt/venv/lib/python3.11/site-packages/torch/_ops.py:875)"
    first = raised.observed.processes[0].model_copy(update={"exception": text})
    observed = raised.observed.model_copy(update={"processes": [first, *raised.observed.processes[1:]]})
    run = run_status(
        raised.model_copy(update={"observed": observed}),
        Provenance.VERIFIED,
        TraceState(cut_files=[], unfinished=[], evidence_missing=False),
    )
    assert run.summary.startswith("exited with code 1 after an uncaught _LinAlgError: linalg.cholesky: the input")
    assert run.summary.endswith("… (raised at torch/_ops.py:875)")
    assert run.exception == text
    # The fixture's own exception, in the workload's file: its place is said by its file name.
    own = run_status(raised, Provenance.VERIFIED, TraceState(cut_files=[], unfinished=[], evidence_missing=False))
    assert own.summary.endswith("(raised at midrun.py:90)"), own.summary
