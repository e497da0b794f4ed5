"""Comparisons of real captures, as an engineer reads them: rows, changes, comparability, the rank view.

Expected values come from the workloads' oracles (fixtures/captures/*/oracle.json) and from the edit made
between edit_v1 and edit_v2 (fixtures/workloads/edit_v1/model.py vs edit_v2/model.py), not from our analyser.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from dynamo_diff_compare import compare_captures, compare_ranks, comparison_markdown, evaluate, user_sources
from dynamo_diff_compare.changes import row_changes
from dynamo_diff_match import SnapshotSet
from dynamo_diff_schema import Capture, validate

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
Loaded = tuple[Capture, SnapshotSet]


def captured(store, name: str):  # type: ignore[no-untyped-def]
    """A retained bundle exactly as `dynamo-diff capture` wrote it (manifest, declarations, snapshots)."""
    capture = store.import_path(CAPTURES / name).capture
    return capture, user_sources(*store.source_files(capture.capture.id))


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((CAPTURES / name / "oracle.json").read_text())


def rows_by_name(comparison):  # type: ignore[no-untyped-def]
    return {(r.baseline or r.candidate).qualified_name: r for r in comparison.functions}


def test_edit_pair(load: Callable[..., Loaded]) -> None:
    base, b_src = load("edit_v1", calls=6, seed=0)
    cand, c_src = load("edit_v2", calls=6, seed=0)
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    validate(comparison.model_dump(mode="json"), "comparison")
    rows = rows_by_name(comparison)
    v1, v2 = oracle("edit_v1")["expect"], oracle("edit_v2")["expect"]
    gate = rows["gate"]
    # The edited function: matched by the line diff of its boundary, not by its (changed) structure.
    assert gate.status == "matched" and gate.method == "line_diff"
    assert gate.baseline.counts.completed == v1["compilations_by_function"]["gate"]
    assert gate.candidate.counts.completed == v2["compilations_by_function"]["gate"]
    assert gate.deltas["confirmed_recompilation_identities"] == -v1["recompiles_by_function"]["gate"]
    assert any(c.kind == "recompile_reason" and c.baseline["category"] == "value" for c in gate.changes)
    # The unchanged function: identical structure, no deltas.
    assert rows["encoder"].method == "structure" and rows["encoder"].deltas == {}
    # The new helper: only in the candidate.
    assert rows["postprocess"].status == "candidate_only" and rows["postprocess"].baseline is None
    assert comparison.comparability.verdict in ("comparable", "unknown")
    assert not comparison.comparability.differences


def test_inductor_cold_vs_warm_is_a_cache_change_not_a_workload_change(load: Callable[..., Loaded]) -> None:
    base, b_src = load("inductor_cold")
    cand, c_src = load("inductor_warm")
    # Two scripts (inductor_cold.py, inductor_warm.py: the trace's stacks start there) that run one workload
    # (_inductor_workload.main): the program is named as the change, what is left is the cache.
    unnamed = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src).comparability
    (program,) = [d for d in unnamed.differences if d.key == "program"]
    assert program.source == "observed" and program.candidate.endswith("/inductor_warm.py")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src, intended=["program"])
    # Nothing declares the cache state: it is read from the trace's cache decisions, and it can change only the
    # cache counts and compile time, not recompilations (the Dynamo configuration is the same).
    (difference,) = comparison.comparability.differences
    assert (difference.key, difference.source) == ("cache_state", "observed")
    assert difference.baseline.startswith("cold") and difference.candidate.startswith("warm")
    assert difference.affects == ["cache", "compile_time"]
    assert any(c.key == "dynamo config" for c in comparison.comparability.checked)
    rows = comparison.functions
    assert {r.status for r in rows} == {"matched"}
    for row in rows:
        assert "observed_compilation_identities" not in row.deltas
        cache = [c for c in row.changes if c.kind == "cache" and "fx_graph" in c.summary]
        assert cache and cache[0].baseline == {"miss": 1} and cache[0].candidate == {"hit": 1}
    fx = oracle("inductor_warm")["expect"]["fx_graph_cache_hits"]
    assert comparison.totals.candidate.cache_hits - comparison.totals.baseline.cache_hits >= fx


def test_new_graph_break_and_failure_show_on_their_rows(load: Callable[..., Loaded]) -> None:
    # graph_break vs itself with a user map is trivial; compare the failure fixture against the stable one
    # instead: every failing function is a candidate-only row carrying its failure.
    base, b_src = load("stable")
    cand, c_src = load("backend_failure")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    failing = [r for r in comparison.functions if any(c.kind == "failure_new" for c in r.changes)]
    assert sorted(r.candidate.qualified_name for r in failing) == sorted(
        oracle("backend_failure")["expect"]["failed_functions"]
    )
    assert all("BackendCompilerFailed" in c.summary for r in failing for c in r.changes if c.kind == "failure_new")
    base, b_src = load("stable")
    cand, c_src = load("graph_break")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    breaks = sorted(c.summary for r in comparison.functions for c in r.changes if c.kind == "graph_break_new")
    sites = sorted(oracle("graph_break")["expect"]["graph_break_sites"])
    assert len(breaks) == len(sites)
    assert all(any(site in summary for summary in breaks) for site in sites)


def test_stable_vs_shape_shows_the_new_recompiles_and_their_shape_guards(store, load) -> None:  # type: ignore[no-untyped-def]
    """stable.py and shape.py compile the same function the same way (fixtures/workloads); only the shapes
    differ. Recorded by `dynamo-diff capture` with the same declarations: the scripts (the command) are the
    change under test, and with that named the pair is comparable."""
    base, b_src = captured(store, "stable")
    cand, c_src = captured(store, "shape")
    unnamed = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    assert unnamed.comparability.verdict == "confounded"
    # Two scripts are two programs: that is the difference; the command differs only where it names them.
    (program,) = unnamed.comparability.differences
    assert (program.key, program.baseline, program.candidate) == (
        "program",
        "fixtures/workloads/stable.py",
        "fixtures/workloads/shape.py",
    )
    (command,) = [e for e in unnamed.comparability.explained if e.key == "command"]
    assert command.follows_from == "program" and "stable.py -> fixtures/workloads/shape.py" in (command.why or "")
    for named in (["command"], ["program"]):
        comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src, intended=named)
        assert comparison.comparability.verdict == "comparable", comparison.comparability
    assert [d.key for d in comparison.comparability.intended] == ["program"]
    (row,) = comparison.functions
    assert row.status == "matched" and row.method == "structure"  # same function, other file
    expect = oracle("shape")["expect"]
    assert row.deltas["confirmed_recompilation_identities"] == expect["recompiles"]
    (change,) = [c for c in row.changes if c.kind == "recompile_reason"]
    assert change.candidate["category"] == "shape"
    assert change.candidate["failing_guards"] == sum(expect["recompile_reason_entries"])
    assert "size mismatch" in change.candidate["examples"][0] and change.candidate_evidence
    # One op count per completed compilation, as the backend received them (the oracles), in runs.
    (ops,) = [c for c in row.changes if c.kind == "op_count"]
    b_ops = [g["op_count"] for g in oracle("stable")["backend_graphs"]]
    c_ops = [g["op_count"] for g in oracle("shape")["backend_graphs"]]
    assert (ops.baseline, ops.candidate) == (b_ops, c_ops) == ([5], [5, 5, 5])
    assert ops.summary == "graph ops per completed compilation: [5] -> [5 (x3)]"


def test_confounded_when_the_configuration_differs(store, load) -> None:  # type: ignore[no-untyped-def]
    base, b_src = captured(store, "stable")
    cand, c_src = captured(store, "graph_break")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    # stable.py compiles with dynamic=False: torch records automatic_dynamic_shapes=False in its config, and
    # the manifests declare dynamic=false vs auto.
    assert comparison.comparability.verdict == "confounded"
    keys = {(d.key, d.source): (d.baseline, d.candidate) for d in comparison.comparability.differences}
    assert keys[("dynamo.automatic_dynamic_shapes", "observed")] == (False, True)
    assert keys[("dynamic", "declared")] == (False, "auto")
    assert "confounded" in comparison_markdown(comparison).lower()


def test_declared_differences_confound(load: Callable[..., Loaded]) -> None:
    base, b_src = load("edit_v1", calls=6, seed=0)
    cand, c_src = load("edit_v2", calls=6, seed=1)
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    assert comparison.comparability.verdict == "confounded"
    assert [(d.key, d.source, d.baseline, d.candidate) for d in comparison.comparability.differences] == [
        ("seed", "declared", 0, 1)
    ]


def test_rank_view_names_rank_1s_extra_recompilation(load: Callable[..., Loaded]) -> None:
    capture, sources = load("two_ranks")
    comparison = compare_ranks(capture, sources=sources)
    validate(comparison.model_dump(mode="json"), "rank_view")
    (divergence,) = comparison.ranks.divergences
    expect = oracle("two_ranks")["expect"]
    assert divergence.rank == expect["first_divergent_rank"] == 1
    assert divergence.compile_id == "0/1" and "recompile [shape]" in divergence.reason
    assert divergence.evidence_ids
    assert comparison.totals.candidate.confirmed_recompilation_identities == 2


def test_gate(load: Callable[..., Loaded]) -> None:
    base, b_src = load("stable")
    cand, c_src = load("graph_break")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    assert not evaluate(comparison, max_new_graph_breaks=0).passed
    assert evaluate(comparison, max_new_graph_breaks=2).passed
    result = evaluate(comparison, max_new_graph_breaks=1)
    assert not result.passed and any(line.startswith("FAIL graph breaks: 0 -> 2") for line in result.lines)
    same = compare_captures(base, base, baseline_sources=b_src, candidate_sources=b_src)
    assert evaluate(same, max_new_recompiles=0, max_new_graph_breaks=0, fail_on_new_failures=True).passed


def test_comparison_json_keeps_the_contract_names(load: Callable[..., Loaded], tmp_path: Path) -> None:
    base, b_src = load("edit_v1")
    cand, c_src = load("edit_v2")
    doc = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src).model_dump(mode="json")
    assert {"comparability", "totals", "functions", "notices"} <= set(doc)
    assert set(doc["comparability"]) >= {"verdict", "differences", "missing"}
    row = doc["functions"][0]
    assert {"status", "method", "baseline", "candidate", "changes"} <= set(row)
    assert {"qualified_name", "file", "counts"} <= set(row["baseline"] or row["candidate"])


def test_long_lists_are_summarized_in_runs() -> None:
    """Thousands of compilations must not print thousands of numbers in a table cell."""
    from dynamo_diff_compare.changes import shown

    assert shown([5] * 4914) == "[5 (x4914)]"
    assert shown([3, 5, 5, 7]) == "[3, 5 (x2), 7]"
    many = [n % 2 for n in range(20)]
    assert shown(many) == "[0, 1, 0, 1, 0, 1, 0, 1, ... 20 in all]"
    assert shown(12) == "12"


def test_a_backward_that_no_longer_compiles_is_a_change(store) -> None:  # type: ignore[no-untyped-def]
    """training compiles MLP.forward with a backward graph; stable.py compiles f without one."""
    base, b_src = captured(store, "training")
    cand, c_src = captured(store, "stable")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    backward = [c for r in comparison.functions for c in r.changes if c.kind == "backward"]
    (change,) = backward
    assert change.baseline["compiled"] == oracle("training")["expect"]["backward_compilations"] == 1
    assert change.candidate == {"ops": [], "compiled": 0} and change.baseline_evidence
    assert (
        comparison.totals.baseline.backward_compilations == 1 and comparison.totals.candidate.backward_compilations == 0
    )


def test_a_restarts_change_counts_like_the_totals_and_cites_the_restarted_attempts(store) -> None:  # type: ignore[no-untyped-def]
    """graph_break: Dynamo restarts analysis after each graph break. The row's `restarts` change must count as the
    capture's `restarts` total does, and cite the metrics that list the restart reasons (it cited the output graph)."""
    capture, _ = captured(store, "graph_break")
    (log,) = (CAPTURES / "graph_break" / "raw").glob("*.log")
    # Independent of our reader: the distinct (frame, compile id, attempt) with an attempt after the first (torch
    # 2.13 writes no new dynamo_start for a restart; the restarted attempt's records carry its number).
    restarted = len(
        set(re.findall(r'"frame_id": (\d+), "frame_compile_id": (\d+), "attempt": ([1-9]\d*)', log.read_text()))
    )
    assert restarted > 0 and capture.counts.restarts == restarted
    comps = [c for r in capture.ranks for c in r.compilations]
    (change,) = [ch for ch in row_changes(comps, []) if ch.kind == "restarts"]
    assert change.baseline == restarted and change.candidate == 0
    assert len(change.baseline_evidence) == restarted
    for evidence_id in change.baseline_evidence:
        text = store.read_evidence(capture.capture.id, evidence_id).text
        assert '"compilation_metrics"' in text and '"restart_reasons": ["' in text


def test_a_failure_that_went_away_carries_its_reason_on_the_baseline_side(load: Callable[..., Loaded]) -> None:
    """backend_failure as the baseline, stable as the candidate: the failures are gone; torch's reason text is
    the baseline's (it was under the candidate, which has no failure)."""
    base, b_src = load("backend_failure")
    cand, c_src = load("stable")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    gone = [c for r in comparison.functions for c in r.changes if c.kind == "failure_gone"]
    assert len(gone) == len(oracle("backend_failure")["expect"]["failed_functions"])
    for change in gone:
        assert "counting_backend refuses graph" in change.baseline["reason"]
        assert "reason" not in change.candidate and change.candidate["count"] == 0


def test_recompile_examples_are_distinct_guard_texts(load: Callable[..., Loaded]) -> None:
    """A guard that fails the same way on several recompilations is one example, not the same line three times."""
    from dynamo_diff_compare.changes import digest

    base, _ = load("shape")
    comps = [c for r in base.ranks for c in r.compilations]
    repeated = comps + [c.model_copy(update={"compile_id": f"{c.compile_id}x"}) for c in comps]
    examples = digest(repeated).reason_examples
    assert examples and all(len(texts) == len(set(texts)) for texts in examples.values())
    assert all(text == text.rstrip() for texts in examples.values() for text in texts)


def test_the_same_workload_recorded_twice_differs_in_compile_time_only_by_noise(load: Callable[..., Loaded]) -> None:
    from dynamo_diff_compare import compile_time_change

    for pair in (("observed_on", "observed_off"), ("midrun_complete", "midrun_again")):
        (base, _), (cand, _) = load(pair[0]), load(pair[1])
        b, c = base.counts.compile_time_s, cand.counts.compile_time_s
        assert b > 0 and c > 0 and b != c
        assert compile_time_change(b, c).endswith("(noise)"), pair
    (cold, _), (warm, _) = load("inductor_cold"), load("inductor_warm")
    # A warm Inductor cache is a real change (oracle: fx graph cache 0 -> 2 hits).
    assert not compile_time_change(cold.counts.compile_time_s, warm.counts.compile_time_s).endswith("(noise)")
