"""The comparability verdict on real captures recorded without any declaration (fixtures/captures/midrun_*,
cache_*, observed_*): what is observed is checked, a difference names the counts it can change, and what could
not be checked is listed. Expected facts come from the fixture generator (same command twice, one cache
directory cold then warm) and from the workloads' oracles."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dynamo_diff_compare import check_comparability, compare_captures, comparison_text, user_sources
from dynamo_diff_schema import Capture
from dynamo_diff_store import Store
from rich.console import Console

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("comparability") / "store")


def load(store: Store, path: Path) -> Capture:
    return store.import_path(path).capture


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads((CAPTURES / name / "oracle.json").read_text())  # type: ignore[type-arg]
    return data


def test_the_same_command_twice_is_comparable_without_declarations(store: Store) -> None:
    base, cand = load(store, CAPTURES / "midrun_complete"), load(store, CAPTURES / "midrun_again")
    for capture in (base, cand):
        declared = capture.capture.manifest.declarations  # type: ignore[union-attr]
        assert declared.calls is None and declared.backend is None and declared.seed is None  # nothing declared
    comp = check_comparability(base, cand)
    assert comp.verdict == "comparable", comp
    assert not comp.differences and not comp.missing
    checked = {c.key: c for c in comp.checked}
    assert {
        "torch_version",
        "dynamo config",
        "command",
        "devices",
        "compile.backend",
        "compile.dynamic",
        "seeds",
    } <= set(checked)
    assert checked["command"].value == "python fixtures/workloads/midrun.py"
    assert checked["compile.dynamic"].value == [False]  # midrun.py: torch.compile(f, ..., dynamic=False)
    assert checked["seeds"].value == [f"torch.manual_seed({oracle('midrun_complete')['seed']})"]
    assert checked["devices"].value == ["cpu"]


def test_cold_vs_warm_cache_is_a_cache_state_difference(store: Store) -> None:
    """One command and one TORCHINDUCTOR_CACHE_DIR, run twice: the verdict names the cache state, observed from
    the trace's cache decisions, and says it can change only cache counts and compile time."""
    base, cand = load(store, CAPTURES / "cache_cold"), load(store, CAPTURES / "cache_warm")
    assert oracle("cache_cold")["expect"]["cache"] == "cold" and oracle("cache_warm")["expect"]["cache"] == "warm"
    comparison = compare_captures(
        base,
        cand,
        baseline_sources=user_sources(*store.source_files(base)),
        candidate_sources=user_sources(*store.source_files(cand)),
    )
    comp = comparison.comparability
    assert comp.verdict == "confounded"
    (difference,) = comp.differences
    assert difference.key == "cache_state" and difference.source == "observed"
    assert difference.baseline.startswith("cold") and difference.candidate.startswith("warm")
    assert difference.affects == ["cache", "compile_time"]
    # Both runs used the same custom cache directory: the policy is not what differs, the cache's state is.
    assert base.capture.manifest.declarations.cache_policy == cand.capture.manifest.declarations.cache_policy  # type: ignore[union-attr]
    assert any(c.key == "command" for c in comp.checked)
    # Rows outside the difference stay readable: the recompilation counts are not marked as confounded.
    console = Console(record=True, width=200, markup=False)
    console.print(comparison_text(comparison))
    text = console.export_text()
    assert "cache hits (!)" in text and "recompiles (confirmed) (!)" not in text
    assert "may be changed by a comparability difference: cache_state" in text


def test_a_declaration_an_observation_contradicts_is_shown(store: Store, tmp_path: Path) -> None:
    bundle = tmp_path / "midrun-declared"
    shutil.copytree(CAPTURES / "midrun_complete", bundle)
    manifest = json.loads((bundle / "manifest.json").read_text())
    manifest["declarations"].update({"backend": "inductor", "dynamic": True, "calls": 5})
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    declared = load(store, bundle)
    comp = check_comparability(load(store, CAPTURES / "midrun_again"), declared)
    contradicted = {(c.side, c.key): c.observed for c in comp.contradictions}
    assert contradicted == {("candidate", "backend"): ["backend"], ("candidate", "dynamic"): [False]}
    # The observations are what is compared: still comparable; `calls` is declared on one side only.
    assert comp.verdict == "comparable"
    assert "baseline: calls not declared (the other side declares it)" in comp.missing


def test_the_change_under_test_does_not_confound(store: Store) -> None:
    base, cand = load(store, CAPTURES / "cache_cold"), load(store, CAPTURES / "cache_warm")
    comp = check_comparability(base, cand, intended=["cache_state"])
    assert comp.verdict == "comparable" and [d.key for d in comp.intended] == ["cache_state"]


def test_bare_traces_say_what_they_cannot_check(store: Store, tmp_path: Path) -> None:
    for name in ("midrun_complete", "midrun_again"):
        shutil.copytree(CAPTURES / name / "raw", tmp_path / name)
    comp = check_comparability(load(store, tmp_path / "midrun_complete"), load(store, tmp_path / "midrun_again"))
    # What the traces show is checked (torch, configuration, devices); the command and torch.compile's
    # arguments are not in a trace.
    assert comp.verdict == "comparable"
    assert {"torch_version", "dynamo config", "devices"} <= {c.key for c in comp.checked}
    assert "both: a bare trace records no command" in comp.missing
    assert any("torch.compile arguments and seeds were not observed" in m for m in comp.missing)


def test_unknown_when_the_essentials_are_missing(store: Store) -> None:
    """An export trace has no compilation_metrics: neither the torch version nor the configuration is known."""
    corpus = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"
    capture = load(store, corpus / "export.log")
    comp = check_comparability(capture, capture)
    assert comp.verdict == "unknown"
    assert any("dynamo config" in m for m in comp.missing)


def test_a_trace_cut_before_its_first_metrics_leaves_the_configuration_unchecked(tmp_path: Path) -> None:
    """stable's log cut before its first compilation_metrics: the cut side records no configuration at all, which
    is not 'Inductor did not run' (the whole side has no compilation_metrics)."""
    (log,) = sorted((CAPTURES / "stable" / "raw").glob("*.log"))
    data = log.read_bytes()
    cut = tmp_path / "cut.log"
    cut.write_bytes(data[: data.index(b'{"compilation_metrics"')])
    store = Store(tmp_path / "store")
    comp = compare_captures(store.import_path(log).capture, store.import_path(cut).capture).comparability
    assert comp.verdict == "unknown"
    assert not [d for d in comp.differences if d.key == "inductor config"]
    assert "candidate: dynamo config not in the trace (no compilation_metrics with it)" in comp.missing
