"""The retained fixture bundles (fixtures/captures/<name>/, written by `dynamo-diff capture`'s own code):
every count equals fixtures/expected.json, established from the oracles and by grep, never by the analyser;
each bundle is verified and declared complete, and a copied bundle imports to the same id."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_schema.manifest import Manifest
from dynamo_diff_store import Store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CAPTURES = FIXTURES / "captures"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))["fixtures"]
BUNDLES = sorted(p.name for p in CAPTURES.iterdir() if (p / "manifest.json").is_file())
# Each compilation costs about 50 KB of trace (its compilation_metrics record alone is about 40 KB): the nine
# suggestion pairs (fixtures/suggestion_pairs.json, 18 small captures) took the retained set past 20 MB, and the
# held-out agent questions' six captures, the call_site pair and tensorify_restart to 22.4 MB, stack_slots and
# resume_locals (names a resume function carries across a graph break) to 24.4 MB. The three trial_ captures
# (held-out agent questions written from runs recorded outside the generator: a hook recompiling forward six times
# under Inductor, a crashing recompilation, a recompile limit) add 2.75 MB, to 27.45 MB;
# training_flip (a module's `training` flag flipped by model.eval() in a loop) 0.2 MB, to 27.66 MB; checkpoint_fn,
# after_skip, dynamic_norm and autocast_switch (higher-order ops; what runs after a failure and after the limit; a
# first dynamic compilation pinned inside torch; a GLOBAL_STATE guard on autocast) 1.04 MB, to 28.83 MB; after_raise
# (the entries that serve after a raised failure) 0.2 MB, to 29.04 MB; float_attribute (a float attribute made a
# symbolic float, its entries guarded on its range) 0.25 MB, to 29.29 MB; loop_skip and inductor_freezing (a break
# in a loop; the weights freezing folds into Inductor's code) 0.29 MB, to 29.58 MB; error_on_recompile 0.14 MB, to
# 29.72 MB; aliased_inputs (one tensor passed as both arguments) 0.13 MB, to 29.85 MB; optimizer_state (an SGD step
# compiled, its state dicts written outside the graph) 0.3 MB, to 30.16 MB; no_grad_function 0.07 MB, to 30.23 MB;
# container_args (tensors in a list, a nested tuple, a dict) 0.18 MB, to 30.41 MB; custom_op_no_fake (the same
# failure at every call) 0.24 MB, to 30.65 MB; generator_arg (a break on a torch.Generator argument) 0.14 MB, to
# 30.79 MB; masked_fill_inf (a -inf fill baked into the graph) 0.08 MB, to 30.87 MB; cached_property_break (a
# library frame whose stack names only the script's call) 0.37 MB, to 31.24 MB; inductor_heads (one kernel run once
# per head) 0.51 MB and module_settings (a conv's settings guarded beside a gains list) 0.21 MB, to 31.97 MB;
# size_ranges (the lengths each entry's own guard check accepts) 0.45 MB, to 32.42 MB; shift_ranges (the shifts,
# negative ones too) 0.28 MB, to 32.70 MB; two_backends (one function under two backends) 0.15 MB, to 32.85 MB;
# int_then_float (2 then 2.0) 0.14 MB, to 32.99 MB; pool_kernel (max_pool1d pins its kernel size) 0.23 MB, to
# 33.22 MB; fft_length (a symbolic int attribute's ranges) 0.27 MB, to 33.49 MB;
# log_softmax_split and log_softmax_fused (an Inductor pair whose kernels differ) 0.76 MB, to 34.25 MB;
# failed_between (a compilation that fails before its graph, between two alike) 0.29 MB, to 34.54 MB.
MAX_RETAINED_BYTES = 34_650_000


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("bundles") / "store")


def test_every_bundle_has_expected_counts_and_the_other_way_round() -> None:
    assert sorted(EXPECTED) == BUNDLES
    assert len(BUNDLES) >= 19


@pytest.mark.parametrize("name", BUNDLES)
def test_counts_equal_expected_json(store: Store, name: str) -> None:
    capture = store.import_path(CAPTURES / name).capture
    expected = EXPECTED[name]
    got = capture.counts.values()
    assert {k: got[k] for k in expected["total"]} == {k: v["value"] for k, v in expected["total"].items()}
    for rank, want in expected.get("ranks", {}).items():
        (counts,) = [r.counts.values() for r in capture.ranks if str(r.rank) == rank]
        assert {k: counts[k] for k in want} == {k: v["value"] for k, v in want.items()}, f"rank {rank}"
    assert all(v["how"] for v in expected["total"].values())


@pytest.mark.parametrize("name", BUNDLES)
def test_bundle_is_verified_declared_complete_and_portable(store: Store, tmp_path: Path, name: str) -> None:
    first = store.import_path(CAPTURES / name).capture
    validity = first.capture.validity
    oracle = json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))
    # The midrun_raise / midrun_kill workloads stop part-way on purpose (their oracle says with which status).
    completed = oracle.get("expect", {}).get("exit_code", 0) == 0
    want = "declared_completed" if completed else "declared_incomplete"
    assert (validity.provenance, validity.workload_completion) == ("verified", want)
    assert first.capture.run.finished is completed
    manifest = Manifest.model_validate_json((CAPTURES / name / "manifest.json").read_bytes())
    # Every fixture is recorded with torch 2.13.0 (CPU build) but the upgrade pair's 2.14.1 side.
    assert manifest.producer.torch == first.capture.producer.torch == oracle["torch_version"]
    assert oracle["torch_version"] == ("2.14.1+cu130" if name.startswith("llama_214") else "2.13.0+cpu")
    if name.startswith("trial_"):  # recorded by `dynamo-diff capture` where tlparse was not installed: no report
        assert manifest.producer.tlparse is None and manifest.report is None and manifest.raw_traces
    elif manifest.raw_traces:
        assert manifest.producer.tlparse is not None and manifest.producer.tlparse.exit_code == 0
    else:  # a run that compiled nothing: torch wrote no trace file, so there was nothing to convert
        assert manifest.producer.tlparse is None and first.ranks == [] and first.capture.compiled.compilations == 0
    assert manifest.sources.files, "the workload's own source is snapshotted"
    copy = tmp_path / "elsewhere" / name
    shutil.copytree(CAPTURES / name, copy)
    again = Store(tmp_path / "other-store").import_path(copy).capture
    assert again.capture.id == first.capture.id


def test_edit_pair_snapshots_are_what_ran(store: Store) -> None:
    texts = []
    for name in ("edit_v1", "edit_v2"):
        capture = store.import_path(CAPTURES / name).capture
        co_filename = next(c.code.co_filename for r in capture.ranks for c in r.compilations if c.code.co_filename)
        snapshot, text = store.source_snapshot(capture.capture.id, co_filename)
        assert snapshot == "model.py"  # relative to the project root the capture ran in
        assert text == (FIXTURES / "workloads" / name / "model.py").read_text(encoding="utf-8")
        texts.append(text)
    assert texts[0] != texts[1]


def test_retained_fixtures_stay_small() -> None:
    total = sum(p.stat().st_size for p in CAPTURES.rglob("*") if p.is_file())
    assert total < MAX_RETAINED_BYTES
