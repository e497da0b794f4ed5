"""Recording bundles (dynamo_diff_store.bundle.record) and reading them back, without torch.

The workload here is a small Python script that writes a real torch 2.13 trace (a retained fixture) into
$TORCH_TRACE, with the fixture's project root rewritten to a copy of the project in tmp_path, so the code
locations the trace names exist and are snapshotted. Real torch runs are in tests/live/.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.manifest import Declarations
from dynamo_diff_store import CaptureRequest, SourcePolicy, Store, parse_declarations, record

REPO = Path(__file__).resolve().parents[2]
CAPTURES = REPO / "fixtures/captures"
EXPECTED = json.loads((REPO / "fixtures/expected.json").read_text(encoding="utf-8"))["fixtures"]

FAKE_WORKLOAD = """
import json, os, pathlib, sys, time
src = pathlib.Path(os.environ["FAKE_TRACE_DIR"])
out = pathlib.Path(os.environ["TORCH_TRACE"])
for f in sorted(src.iterdir()):
    lines = f.read_text(encoding="utf-8").split("\\n")
    # Metadata lines name the code; payload lines (md5-checked) are left as they are.
    lines = [l if l.startswith("\\t") else l.replace(os.environ["FAKE_OLD_ROOT"], os.environ["FAKE_NEW_ROOT"])
             for l in lines]
    (out / f.name).write_text("\\n".join(lines), encoding="utf-8")
seen = {k: os.environ.get(k) for k in ("TORCH_TRACE", "TORCHINDUCTOR_CACHE_DIR")}
pathlib.Path(os.environ["FAKE_SEEN"]).write_text(json.dumps(seen))
print("fake workload wrote its trace", flush=True)
if os.environ.get("FAKE_MODE") == "raise":
    raise RuntimeError("the workload crashed")
if os.environ.get("FAKE_MODE") == "sleep":
    pathlib.Path(os.environ["FAKE_READY"]).touch()
    time.sleep(120)
"""


def fixture_root(name: str) -> str:
    manifest = json.loads((CAPTURES / name / "manifest.json").read_text(encoding="utf-8"))
    return str(manifest["sources"]["root"])


def make_project(tmp_path: Path, fixture: str) -> tuple[Path, Path, dict[str, str]]:
    """(project dir holding the workload sources, the fake workload script, its environment)."""
    project = tmp_path / "project"
    shutil.copytree(REPO / "fixtures/workloads", project / "fixtures/workloads")
    script = tmp_path / "fake_workload.py"
    script.write_text(FAKE_WORKLOAD, encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "FAKE_TRACE_DIR": str(CAPTURES / fixture / "raw"),
        "FAKE_OLD_ROOT": fixture_root(fixture),
        "FAKE_NEW_ROOT": str(project),
        "FAKE_SEEN": str(tmp_path / "seen.json"),
        "FAKE_READY": str(tmp_path / "ready"),
        "DECLARED_VAR": "kept",
        "UNDECLARED_VAR": "not kept",
    }
    return project, script, env


def run(tmp_path: Path, fixture: str = "shape", **kwargs: Any) -> tuple[Any, Path, dict[str, Any]]:
    project, script, env = make_project(tmp_path, fixture)
    env.update(kwargs.pop("extra_env", {}))
    request = CaptureRequest(
        command=[sys.executable, str(script)],
        bundle=tmp_path / "bundle",
        cwd=project,
        root=project,
        env=env,
        convert=False,
        **kwargs,
    )
    result = record(request, say=lambda _: None)
    seen = json.loads((tmp_path / "seen.json").read_text())
    return result, project, seen


def counts_of(store: Store, bundle: Path) -> tuple[Any, dict[str, int]]:
    capture = store.import_path(bundle).capture
    return capture, capture.counts.values()


def expected_total(name: str) -> dict[str, int]:
    return {k: v["value"] for k, v in EXPECTED[name]["total"].items()}


def test_record_writes_a_verified_portable_bundle(tmp_path: Path) -> None:
    result, project, seen = run(
        tmp_path, label="base", environment=["DECLARED_VAR", "NOT_SET"], declarations=Declarations(calls=5)
    )
    bundle = result.bundle
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["schema_version"].startswith("2.") and manifest["label"] == "base"
    work = manifest["workload"]
    assert (work["exit_code"], work["completed"], work["incomplete_reason"]) == (0, True, None)
    assert work["environment"] == {"DECLARED_VAR": "kept"}
    assert work["command"][-1].endswith("fake_workload.py") and work["wall_time_s"] >= 0 and work["started_at"]
    assert manifest["declarations"]["calls"] == 5 and manifest["declarations"]["cache_policy"] == "fresh"
    # Versions come from the trace, not from this interpreter.
    assert manifest["producer"]["torch"] == "2.13.0+cpu" and len(manifest["producer"]["torch_git"]) == 40
    assert manifest["producer"]["python"] == "3.11.7"
    # TORCH_TRACE pointed into the bundle; a fresh Inductor cache was made and removed afterwards.
    assert seen["TORCH_TRACE"] == str(bundle / "raw")
    assert seen["TORCHINDUCTOR_CACHE_DIR"] and not Path(seen["TORCHINDUCTOR_CACHE_DIR"]).exists()
    files = {f["path"]: f for f in manifest["sources"]["files"]}
    assert sorted(files) == ["fixtures/workloads/_oracle.py", "fixtures/workloads/shape.py"]
    shape = files["fixtures/workloads/shape.py"]
    assert shape["captured_path"] == str(project / "fixtures/workloads/shape.py")
    data = (bundle / shape["snapshot"]).read_bytes()
    assert data == (REPO / "fixtures/workloads/shape.py").read_bytes()
    assert hashlib.sha256(data).hexdigest() == shape["sha256"]
    (trace,) = manifest["raw_traces"]
    assert hashlib.sha256((bundle / trace["path"]).read_bytes()).hexdigest() == trace["sha256"]

    store = Store(tmp_path / "store")
    capture, counts = counts_of(store, bundle)
    assert {k: counts[k] for k in expected_total("shape")} == expected_total("shape")
    validity = capture.capture.validity
    assert (validity.provenance, validity.workload_completion) == ("verified", "declared_completed")
    assert capture.capture.label == "base"
    rel, text = store.source_snapshot(capture.capture.id, shape["captured_path"])
    assert rel == "fixtures/workloads/shape.py" and text == data.decode()

    copied = tmp_path / "copied"
    shutil.copytree(bundle, copied)
    shutil.rmtree(project)  # the machine it moved to has no project
    assert Store(tmp_path / "store2").import_path(copied).capture.capture.id == capture.capture.id


def test_a_crashing_workload_leaves_an_incomplete_bundle(tmp_path: Path) -> None:
    result, _, _ = run(tmp_path, extra_env={"FAKE_MODE": "raise"})
    assert result.exit_code == 1 and not result.completed and not result.interrupted
    assert result.incomplete_reason == "the command exited with code 1"
    capture, counts = counts_of(Store(tmp_path / "store"), result.bundle)
    assert capture.capture.validity.workload_completion == "declared_incomplete"
    assert "the command exited with code 1" in capture.capture.validity.reasons
    # What the trace holds is still read.
    assert counts["observed_compilation_identities"] == expected_total("shape")["observed_compilation_identities"]


def test_every_rank_file_lands_in_one_bundle(tmp_path: Path) -> None:
    result, _, _ = run(tmp_path, fixture="two_ranks")
    assert [t.path.split("_rank_")[1][0] for t in result.manifest.raw_traces] == ["0", "1"]
    assert result.manifest.extra["ranks"] == [0, 1]
    capture, counts = counts_of(Store(tmp_path / "store"), result.bundle)
    assert [r.rank for r in capture.ranks] == [0, 1]
    assert {k: counts[k] for k in expected_total("two_ranks")} == expected_total("two_ranks")


def test_cache_policies(tmp_path: Path) -> None:
    warm, _, seen = run(tmp_path / "warm", cache="warm", extra_env={"TORCHINDUCTOR_CACHE_DIR": "/users/cache"})
    assert seen["TORCHINDUCTOR_CACHE_DIR"] == "/users/cache"
    assert warm.manifest.declarations.cache_policy == "warm"
    custom_dir = tmp_path / "my-cache"
    custom, _, seen = run(tmp_path / "custom", cache="custom", cache_dir=custom_dir)
    assert seen["TORCHINDUCTOR_CACHE_DIR"] == str(custom_dir) and custom_dir.is_dir()
    assert custom.manifest.declarations.cache_policy == "custom"
    (custom_dir / "entry").write_text("x")
    with pytest.raises(DynamoDiffError) as err:
        run(tmp_path / "fresh", cache="fresh", cache_dir=custom_dir)
    assert err.value.code == ErrorCode.INVALID_ARGUMENT


def test_exclude_and_include_globs(tmp_path: Path) -> None:
    result, _, _ = run(tmp_path, sources=SourcePolicy(exclude=("*/_oracle.py",)))
    assert [f.path for f in result.manifest.sources.files] == ["fixtures/workloads/shape.py"]
    skipped = {s["captured_path"].rsplit("/", 1)[1]: s["reason"] for s in result.manifest.extra["skipped_sources"]}
    assert skipped["_oracle.py"].startswith("excluded by --exclude")
    policy = SourcePolicy(include=("*/site-packages/mylib/*",))
    assert policy.decide("/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", None) is not None
    assert policy.decide("/venv/lib/python3.11/site-packages/mylib/model.py", None) is None


def test_refuses_a_non_empty_out_and_a_missing_command(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(DynamoDiffError) as err:
        record(CaptureRequest(command=["true"], bundle=tmp_path / "full"), say=lambda _: None)
    assert err.value.code == ErrorCode.INVALID_ARGUMENT
    with pytest.raises(DynamoDiffError) as err:
        record(CaptureRequest(command=["no-such-program-here"], bundle=tmp_path / "b"), say=lambda _: None)
    assert err.value.code == ErrorCode.INVALID_ARGUMENT and not (tmp_path / "b").exists()


def test_declarations_from_pairs_and_file(tmp_path: Path) -> None:
    file = tmp_path / "decl.json"
    file.write_text(json.dumps({"calls": 3, "backend": "inductor", "dynamic": False, "team": "infra"}))
    decl = parse_declarations(["calls=10", "seed=0", "device=cpu", "batch=32"], file)
    assert (decl.calls, decl.seed, decl.backend, decl.dynamic, decl.device) == (10, 0, "inductor", False, "cpu")
    assert decl.extra == {"batch": "32", "team": "infra"}
    for bad in (["calls=many"], ["dynamic=maybe"], ["novalue"], ["cache_policy=warm"]):
        with pytest.raises(DynamoDiffError) as err:
            parse_declarations(bad)
        assert err.value.code == ErrorCode.INVALID_ARGUMENT


def _v1_bundle(tmp_path: Path, sha: str | None = None) -> tuple[Path, str, str]:
    bundle = tmp_path / "v1"
    (trace,) = sorted((CAPTURES / "edit_v1" / "raw").iterdir())
    (bundle / "raw").mkdir(parents=True)
    shutil.copyfile(trace, bundle / "raw" / trace.name)
    (bundle / "sources").mkdir()
    shutil.copyfile(CAPTURES / "edit_v1" / "sources/model.py", bundle / "sources/model.py")
    captured = json.loads((CAPTURES / "edit_v1" / "manifest.json").read_text())["sources"]["files"][0]["captured_path"]
    manifest = {
        "schema_version": "1",
        "producer": {"python": "3.11.7", "torch": "2.13.0+cpu", "torch_git": None, "tlparse": "0.4.3"},
        "source": {
            "revision": "abc123",
            "files": [
                {
                    "captured_path": captured,
                    "relative_path": "model.py",
                    "snapshot": "sources/model.py",
                    "sha256": hashlib.sha256((bundle / "sources/model.py").read_bytes()).hexdigest(),
                }
            ],
        },
        "workload": {
            "calls": 4,
            "seed": 0,
            "backend": "counting_backend",
            "dynamic": False,
            "device": "cpu",
            "warmup_calls": 0,
            "cache_policy": "fresh",
            "environment": {"PYTHONHASHSEED": "0"},
        },
        "capture": {
            "workload_completed": True,
            "process_exit_code": 0,
            "raw_traces": [
                {"path": f"raw/{trace.name}", "sha256": sha or hashlib.sha256(trace.read_bytes()).hexdigest()}
            ],
            "converter_exit_code": 0,
            "report_sha256": "0" * 64,
        },
    }
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return bundle, captured, (bundle / "sources/model.py").read_text()


def test_a_0_1_bundle_is_translated(tmp_path: Path) -> None:
    bundle, captured, text = _v1_bundle(tmp_path)
    store = Store(tmp_path / "store")
    capture = store.import_path(bundle).capture
    info = capture.capture
    assert info.validity.provenance == "verified" and info.validity.workload_completion == "declared_completed"
    manifest = info.manifest
    assert manifest is not None and manifest.schema_version.startswith("2.")
    assert (manifest.declarations.calls, manifest.declarations.backend, manifest.declarations.cache_policy) == (
        4,
        "counting_backend",
        "fresh",
    )
    assert manifest.workload.environment == {"PYTHONHASHSEED": "0"} and manifest.workload.exit_code == 0
    assert manifest.producer.tlparse is not None and manifest.producer.tlparse.version == "0.4.3"
    assert manifest.sources.revision == "abc123"
    assert manifest.extra["translated_from_schema_version"] == "1"
    assert manifest.extra["v1"] == {"capture.report_sha256": "0" * 64}
    assert store.source_snapshot(info.id, captured) == ("model.py", text)
    want = expected_total("edit_v1")["observed_compilation_identities"]
    assert capture.counts.observed_compilation_identities == want


def test_a_0_1_bundle_with_stale_hashes_is_rejected(tmp_path: Path) -> None:
    bundle, _, _ = _v1_bundle(tmp_path, sha="f" * 64)
    with pytest.raises(DynamoDiffError) as err:
        Store(tmp_path / "store").import_path(bundle)
    assert err.value.code == ErrorCode.STALE_MANIFEST


def test_a_bundle_that_cannot_be_written_is_io_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a directory\n")
    with pytest.raises(DynamoDiffError) as err:
        record(CaptureRequest(command=["true"], bundle=tmp_path / "a-file" / "bundle"), say=lambda _: None)
    assert err.value.code == ErrorCode.IO_ERROR and "a-file" in err.value.message
