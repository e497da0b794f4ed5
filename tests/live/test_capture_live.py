"""`dynamo-diff capture` end to end on real torch 2.13 workloads (single process and two gloo ranks): the imported
counts must equal what the workload observed about itself (its oracle.json, see fixtures/README.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_store import Store

REPO = Path(__file__).resolve().parents[2]
WORKLOADS = REPO / "fixtures/workloads"
ENTRY = shutil.which("dynamo-diff", path=str(Path(sys.executable).parent)) or "dynamo-diff"


def run_capture(tmp_path: Path, workload: str, *extra: str) -> tuple[Store, Any, dict[str, Any], Path]:
    bundle, oracle, store = tmp_path / "bundle", tmp_path / "oracle.json", tmp_path / "store"
    env = {
        **os.environ,
        "DYNAMO_DIFF_ORACLE": str(oracle),
        "DYNAMO_DIFF_STORE": str(store),
        "PYTHONHASHSEED": "0",
        "TORCHINDUCTOR_COMPILE_THREADS": "1",
    }
    cmd = [ENTRY, "capture", "--out", str(bundle), *extra, "--", sys.executable, str(WORKLOADS / workload)]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    capture_id = proc.stdout.strip().splitlines()[-1]
    loaded = Store(store).load(capture_id)
    return Store(store), loaded, json.loads(oracle.read_text()), bundle


def check(counts: Any, expect: dict[str, Any]) -> None:
    assert counts.observed_compilation_identities == expect["compilations"]
    assert counts.confirmed_recompilation_identities == expect.get("recompiles", 0)
    assert counts.graph_break_records == expect.get("graph_breaks", 0)
    assert counts.failed == expect.get("failures", 0)
    assert counts.no_graph_observed == expect.get("no_graph", 0)


@pytest.mark.parametrize("workload", ["shape.py", "graph_break.py"])
def test_single_process(tmp_path: Path, workload: str) -> None:
    declared = ("--label", "live", "-D", "backend=counting_backend")
    store, capture, oracle, bundle = run_capture(tmp_path, workload, *declared)
    check(capture.counts, oracle["expect"])
    info = capture.capture
    assert info.producer.torch == oracle["torch_version"]
    assert (info.validity.provenance, info.validity.workload_completion) == ("verified", "declared_completed")
    manifest = json.loads((bundle / "manifest.json").read_text())
    assert manifest["report"]["exit_code"] == 0 and (bundle / "report" / "raw.jsonl").is_file()
    assert manifest["producer"]["tlparse"]["version"]
    # The workload's own file is snapshotted; torch's are not.
    paths = [f["path"] for f in manifest["sources"]["files"]]
    assert f"fixtures/workloads/{workload}" in paths
    assert not any("site-packages" in p or "/torch/" in p for p in paths)
    co_filename = str(WORKLOADS / workload)
    assert store.source_snapshot(info.id, co_filename)[1] == (WORKLOADS / workload).read_text()
    # Portable: a copy imports to the same id.
    shutil.copytree(bundle, tmp_path / "copy")
    assert Store(tmp_path / "store2").import_path(tmp_path / "copy").capture.capture.id == info.id


def test_two_gloo_ranks(tmp_path: Path) -> None:
    _, capture, oracle, bundle = run_capture(tmp_path, "two_ranks.py")
    assert [r.rank for r in capture.ranks] == [0, 1]
    for rank in capture.ranks:
        check(rank.counts, oracle["ranks"][str(rank.rank)]["expect"])
    assert sorted(p.name.split("_")[5] for p in (bundle / "raw").iterdir()) == ["0", "1"]
    assert sorted(p.name for p in (bundle / "report").iterdir()) == ["rank_0", "rank_1"]


def test_the_observer_changes_no_graph_live(tmp_path: Path, trace_payloads) -> None:  # type: ignore[no-untyped-def]
    """observed.py captured with and without the observer, now: the same graphs, guards and breaks, and what the
    observer recorded is what the program says it did."""
    _, on, oracle, bundle_on = run_capture(tmp_path / "on", "observed.py")
    _, off, _, bundle_off = run_capture(tmp_path / "off", "observed.py", "--no-observe")
    assert trace_payloads(bundle_on / "raw") == trace_payloads(bundle_off / "raw")
    assert on.counts.values() == off.counts.values()  # compile time is a measurement: it varies run to run
    assert on.counts.observed_compilation_identities == oracle["expect"]["compilations"]
    observed = on.capture.manifest.observed
    assert observed is not None and off.capture.manifest.observed is None
    assert sorted(c.target for c in observed.compile_calls) == sorted(c["target"] for c in oracle["compile_calls"])
    assert [(s.function, s.value) for s in observed.seeds] == [(s["function"], s["value"]) for s in oracle["seeds"]]


def test_a_killed_workload_fails_the_gate_live(tmp_path: Path) -> None:
    """midrun.py run to the end, then killed by SIGKILL inside its third compilation: check fails on the run."""
    store = tmp_path / "store"
    env = {**os.environ, "DYNAMO_DIFF_STORE": str(store), "DYNAMO_DIFF_ORACLE": str(tmp_path / "oracle.json")}
    base = [ENTRY, "capture", "--out", str(tmp_path / "full"), "--label", "full", "--no-convert", "--"]
    done = subprocess.run([*base, sys.executable, str(WORKLOADS / "midrun.py")], cwd=REPO, env=env, check=False)
    assert done.returncode == 0
    killed = [ENTRY, "capture", "--out", str(tmp_path / "killed"), "--label", "killed", "--no-convert", "--"]
    env_kill = {**env, "DYNAMO_DIFF_FAULT": "kill"}
    done = subprocess.run([*killed, sys.executable, str(WORKLOADS / "midrun.py")], cwd=REPO, env=env_kill, check=False)
    assert done.returncode == 128 + 9  # 128 + N for signal N, as a shell reports SIGKILL
    gate = subprocess.run(
        [ENTRY, "check", "full", "killed", "--max-new-recompiles", "0"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = gate.stdout.splitlines()
    assert gate.returncode == 1 and lines[0] == "dynamo-diff check: FAILED"
    assert lines[2].startswith("FAIL run: the candidate did not finish: killed by SIGKILL; trace cut: compilation 0/2")


@pytest.mark.parametrize("workload", ["compiled_nothing.py", "compiled_nothing_ranks.py"])
def test_a_run_that_compiled_nothing_is_captured_and_fails_the_gate_live(tmp_path: Path, workload: str) -> None:
    """torch.compile called, its result never called: torch writes no trace file, capture imports the run all the
    same (0 compilations, the observer's calls) and check fails on it unless --allow-empty."""
    _, capture, oracle, bundle = run_capture(tmp_path, workload, "--label", "nothing")
    assert not any((bundle / "raw").iterdir()) and oracle["expect"]["trace_files"] == 0
    info = capture.capture
    assert capture.ranks == [] and capture.counts.observed_compilation_identities == 0
    assert info.run.state == "completed" and info.compiled.state == "nothing_compiled"
    assert info.compiled.torch_compile_calls == oracle["expect"]["torch_compile_calls"]
    assert f"fixtures/workloads/{workload}" in [f.path for f in info.manifest.sources.files]  # the caller's file
    env = {**os.environ, "DYNAMO_DIFF_STORE": str(tmp_path / "store")}
    stable = REPO / "fixtures/captures/stable"
    gate = [ENTRY, "check", str(stable), "nothing"]
    failed = subprocess.run(gate, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert failed.returncode == 1 and failed.stdout.splitlines()[1].startswith(
        "FAIL compiled: the candidate COMPILED NOTHING: torch.compile was called 2 times"
    )
    allowed = subprocess.run([*gate, "--allow-empty"], cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert allowed.returncode == 0, allowed.stdout
