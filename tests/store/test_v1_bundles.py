"""Bundles written by the 0.1 tool (fixtures/v1_bundles, copied byte for byte from its release) import, analyse,
compare and gate. Expected numbers come from each bundle's workload-result.json, which the workload wrote itself
(one entry per graph its backend received), never from our analyser."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dynamo_diff_cli.app import app
from dynamo_diff_compare import compare_captures, evaluate, user_sources
from dynamo_diff_schema import validate
from dynamo_diff_store import Store
from typer.testing import CliRunner

V1 = Path(__file__).resolve().parents[2] / "fixtures/v1_bundles"


def result(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads((V1 / name / "workload-result.json").read_text())  # type: ignore[type-arg]
    return data


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("v1") / "store")


def test_a_0_1_bundle_with_a_list_of_calls_imports_and_keeps_every_field(store: Store) -> None:
    capture = store.import_path(V1 / "stable").capture
    info = capture.capture
    manifest = info.manifest
    assert manifest is not None and manifest.extra["translated_from_schema_version"] == "1"
    raw = json.loads((V1 / "stable/manifest.json").read_text())
    # The calls are the workload's own list of call descriptions, kept as they were.
    assert manifest.declarations.calls == raw["workload"]["calls"]
    assert [{k: c[k] for k in ("shape", "dtype")} for c in result("stable")["calls"]] == [
        {k: c[k] for k in ("shape", "dtype")} for c in manifest.declarations.calls
    ]
    # Every other 0.1 field has a typed place or is kept under extra.v1: nothing is dropped.
    assert manifest.declarations.seed == raw["workload"]["seed"]
    assert manifest.declarations.backend == raw["workload"]["backend"]
    assert manifest.workload.environment == raw["workload"]["environment"]
    v1 = manifest.extra["v1"]
    assert v1["capture.result_sha256"] == raw["capture"]["result_sha256"]
    assert v1["capture.report_sha256"] == raw["capture"]["report_sha256"]
    assert v1["cache_policy"] == raw["workload"]["cache_policy"]
    assert info.validity.provenance == "verified"
    assert info.run.state == "completed" and info.run.finished is True
    assert info.producer.torch == raw["producer"]["torch"]
    validate(capture.model_dump(mode="json"), "capture")


def test_0_1_counts_agree_with_the_workloads_own_record(store: Store) -> None:
    for name in ("stable", "shape"):
        capture = store.import_path(V1 / name).capture
        graphs = len(result(name)["backend_calls"])
        assert capture.counts.completed == graphs, name
        assert capture.counts.confirmed_recompilation_identities == graphs - 1, name


def test_0_1_bundles_compare_with_calls_compared_canonically(store: Store) -> None:
    base = store.import_path(V1 / "stable").capture
    cand = store.import_path(V1 / "shape").capture
    comparison = compare_captures(
        base,
        cand,
        baseline_sources=user_sources(*store.source_files(base)),
        candidate_sources=user_sources(*store.source_files(cand)),
    )
    validate(comparison.model_dump(mode="json"), "comparison")
    # The declared calls differ (shape [8] in the middle): that is the only confounder, and it is the list itself.
    (difference,) = comparison.comparability.differences
    assert difference.key == "calls" and difference.source == "declared"
    assert [c["shape"] for c in difference.candidate] == [c["shape"] for c in result("shape")["calls"]]
    assert any(c.key == "seed" for c in comparison.comparability.checked)
    (row,) = comparison.functions
    assert row.deltas["confirmed_recompilation_identities"] == len(result("shape")["backend_calls"]) - 1
    gate = evaluate(comparison, max_new_recompiles=0)
    assert not gate.passed and gate.lines[1].startswith("ok   run: the baseline")


def test_the_same_calls_in_another_key_order_are_equal(store: Store, tmp_path: Path) -> None:
    """`calls` lists are compared canonically: reordering the keys of each description changes nothing."""
    copy = tmp_path / "stable-reordered"
    shutil.copytree(V1 / "stable", copy)
    path = copy / "manifest.json"
    data = json.loads(path.read_text())
    data["workload"]["calls"] = [dict(reversed(list(c.items()))) for c in data["workload"]["calls"]]
    path.write_text(json.dumps(data, indent=1))
    base = store.import_path(V1 / "stable").capture
    cand = store.import_path(copy).capture
    assert base.capture.id != cand.capture.id  # other manifest bytes
    comparison = compare_captures(base, cand)
    assert comparison.comparability.verdict == "comparable", comparison.comparability
    assert any(c.key == "calls" for c in comparison.comparability.checked)


def test_cli_imports_analyses_and_compares_0_1_bundles(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")})
    for name in ("stable", "shape"):
        done = runner.invoke(app, ["import", str(V1 / name), "--label", f"v1-{name}"])
        assert done.exit_code == 0, done.output
    analyzed = runner.invoke(app, ["analyze", "v1-shape"])
    assert analyzed.exit_code == 0 and analyzed.stdout.startswith("run: completed (exit code 0)")
    compared = runner.invoke(app, ["compare", "v1-stable", "v1-shape"])
    assert compared.exit_code == 0 and "calls (declared)" in compared.stdout
    checked = runner.invoke(app, ["check", "v1-stable", "v1-shape", "--max-new-recompiles", "0"])
    assert checked.exit_code == 1 and "FAIL confirmed recompilations: 0 -> 1" in checked.stdout


def test_every_field_of_the_0_1_template_is_read() -> None:
    """The 0.1 template (docs/manifest.template.json of the 0.1 release), every field given a value."""
    from dynamo_diff_store.reading import translate_v1

    template = {
        "schema_version": "1",
        "producer": {"python": "3.13.2", "torch": "2.14.0", "torch_git": "0" * 40, "tlparse": "0.4.3"},
        "source": {"revision": "abc", "dirty_patch_sha256": "d" * 64, "files": []},
        "workload": {
            "calls": [{"shape": [4], "dtype": "float32", "device": "cpu", "step": 1}],
            "seed": 0,
            "backend": "recording_eager",
            "backend_options": {"mode": "x"},
            "dynamic": False,
            "device": "cpu",
            "warmup_calls": 1,
            "measurement_calls": 3,
            "cache_policy": "fresh_process_no_inductor",
            "cache_directories": ["/tmp/cache"],
            "environment": {"OMP_NUM_THREADS": "1"},
        },
        "capture": {
            "workload_completed": True,
            "process_exit_code": 0,
            "converter_exit_code": 0,
            "report_sha256": "e" * 64,
            "raw_traces": [],
        },
    }
    out = translate_v1(template)
    declared = out["declarations"]
    assert declared["calls"] == template["workload"]["calls"]
    assert (declared["backend_options"], declared["measurement_calls"], declared["warmup_calls"]) == (
        {"mode": "x"},
        3,
        1,
    )
    assert out["sources"]["dirty"] is True and out["workload"]["environment"] == {"OMP_NUM_THREADS": "1"}
    assert out["extra"]["v1"] == {
        "source.dirty_patch_sha256": "d" * 64,
        "workload.cache_directories": ["/tmp/cache"],
        "capture.report_sha256": "e" * 64,
        "cache_policy": "fresh_process_no_inductor",
    }
    # The template as the 0.1 tool shipped it (empty lists, nulls) declares nothing and keeps nothing extra.
    shipped = {
        "schema_version": "1",
        "producer": {"python": None, "torch": None, "torch_git": None, "tlparse": None},
        "source": {"revision": None, "dirty_patch_sha256": None, "files": []},
        "workload": {
            "calls": [],
            "seed": None,
            "backend": None,
            "backend_options": {},
            "dynamic": None,
            "device": None,
            "warmup_calls": None,
            "measurement_calls": None,
            "cache_policy": None,
            "cache_directories": [],
            "environment": {},
        },
        "capture": {
            "workload_completed": False,
            "process_exit_code": None,
            "converter_exit_code": None,
            "report_sha256": None,
            "raw_traces": [],
        },
    }
    empty = translate_v1(shipped)
    assert empty["declarations"] == {} and "v1" not in empty["extra"]
