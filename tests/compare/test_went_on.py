"""Whether the program went on after a failed compilation, and the evidence it is read from, in analyze (text,
markdown, --by-function JSON), MCP's analyze_capture text and a comparison's failure change. The expected answers
come from the workloads' own oracles (what they caught, which graphs their backend saw, their exit code)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_compare import capture_markdown, compare_captures, run_report, run_report_text, user_sources
from dynamo_diff_compare.run_report_view import compilation_text
from dynamo_diff_schema import validate
from dynamo_diff_schema.run_report import FailureLine
from dynamo_diff_store import Store

from .conftest import Loaded

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


@pytest.fixture(scope="module")
def load(store: Store) -> Callable[[str], Loaded]:
    """The bundle as recorded (its manifest says how the run ended), with its source snapshots."""

    def loaded(name: str) -> Loaded:
        capture = store.import_path(CAPTURES / name).capture
        return capture, user_sources(*store.source_files(capture.capture.id))

    return loaded


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((CAPTURES / name / "oracle.json").read_text())


def failures(loaded: Loaded) -> dict[str, tuple[str, FailureLine]]:
    """Function name -> (compile id, its failure line) from the run report."""
    report = run_report(*loaded)
    validate(report.model_dump(mode="json"), "run_report")
    return {
        fn.name: (c.compile_id, c.failure) for fn in report.functions for c in fn.compilations if c.failure is not None
    }


def graph_compile_id(name: str, function: str) -> str:
    """The compile id Dynamo was working on when the workload's backend saw `function`'s graph (its oracle)."""
    (graph,) = [g for g in oracle(name)["backend_graphs"] if g["code"]["co_name"] == function]
    return str(graph["compile_id"])


def test_a_later_compilation_is_the_evidence_that_the_program_went_on(load: Callable[..., Loaded]) -> None:
    o = oracle("after_failure")
    assert [e["type"] for e in o["exceptions"]] == ["BackendCompilerFailed"] and o["went_on_after"] == "first"
    (cid, failure) = failures(load("after_failure"))["first"]
    assert cid == graph_compile_id("after_failure", "first")
    assert failure.then == "raised into the program" and failure.went_on is True
    second = graph_compile_id("after_failure", "second")  # the backend saw second's graph after the failure
    assert failure.went_on_basis == f"compilation {second} (second) started after it"
    assert failure.went_on_evidence is not None


def test_a_run_that_exits_on_the_failure_did_not_go_on(load: Callable[..., Loaded]) -> None:
    o = oracle("after_failure_exit")
    assert o["expect"]["exit_code"] == 1 and [e["type"] for e in o["exceptions"]] == ["BackendCompilerFailed"]
    assert [g["code"]["co_name"] for g in o["backend_graphs"]] == ["first"]  # second never compiled
    loaded = load("after_failure_exit")
    (_, failure) = failures(loaded)["first"]
    assert failure.went_on is False and failure.went_on_evidence is None
    assert failure.went_on_basis == (
        "the run exited with code 1 on an uncaught BackendCompilerFailed; no compilation started after it"
    )
    text = compilation_text(next(c for fn in run_report(*loaded).functions for c in fn.compilations), "first")
    assert text is not None and text.splitlines()[1] == (
        "    the error reached the program (torch.compile did not suppress it); the program did not go on: "
        f"{failure.went_on_basis}"
    )


def test_suppressed_and_raised_failures_each_say_what_shows_it(load: Callable[..., Loaded]) -> None:
    """backend_failure: `suppressed` ran eagerly and `raised` compiled after it; `raised` is the last compilation,
    and the run completed (the workload caught its exception: exit code 0)."""
    o = oracle("backend_failure")
    assert [e["type"] for e in o["exceptions"]] == ["BackendCompilerFailed"]
    loaded = load("backend_failure")
    found = failures(loaded)
    (_, suppressed), (_, raised) = found["suppressed"], found["raised"]
    assert suppressed.then == "ran eagerly (suppress_errors)" and suppressed.went_on is True
    # Its oracle predates `code`: the backend saw ok's, suppressed's and raised's graphs in that order.
    raised_id = o["backend_graphs"][2]["compile_id"]
    assert suppressed.went_on_basis == f"compilation {raised_id} (raised) started after it"
    assert raised.then == "raised into the program" and raised.went_on is True
    assert raised.went_on_basis == "the run completed (exit code 0); no compilation started after it"
    # The capture's own views say it too (analyze's markdown table).
    assert (
        "the error reached the program (torch.compile did not suppress it); the program went on anyway: the run "
        "completed (exit code 0)"
    ) in capture_markdown(*loaded)


def test_fullgraph_error_caught_by_the_workload(load: Callable[..., Loaded]) -> None:
    """An Unsupported with suppress_errors off and no record that torch skipped the frame: torch raises it only
    under fullgraph=True, which the trace does not record, so whether it reached the program is not known (the
    oracle caught it; the trace alone cannot say)."""
    assert oracle("fullgraph_error")["expect"]["exceptions"] == 1
    (_, failure) = failures(load("fullgraph_error"))["f"]
    assert (failure.fail_type, failure.then, failure.went_on) == ("Unsupported", "unknown", True)
    assert failure.went_on_basis == "the run completed (exit code 0); no compilation started after it"


def test_a_frame_torch_skipped_did_not_raise(load: Callable[..., Loaded]) -> None:
    """skipped_frame: a break Dynamo cannot resume from, without fullgraph: the compilation fails (Unsupported,
    suppress_errors off) but torch skips the frame and runs it eagerly; the workload catches nothing and completes."""
    o = oracle("skipped_frame")
    assert o["exceptions"] == [] and o["backend_invocations"] == 0 and o["expect"]["fail_types"] == ["Unsupported"]
    raw = next((CAPTURES / "skipped_frame" / "raw").iterdir()).read_text()
    assert raw.count("Skipping the function and falling back to eager") == 1
    assert raw.count('"config_suppress_errors": false') == 1
    loaded = load("skipped_frame")
    (_, failure) = failures(loaded)["step"]
    assert (failure.fail_type, failure.then, failure.went_on) == ("Unsupported", "ran eagerly (frame skipped)", True)
    text = capture_markdown(*loaded)
    assert "torch skipped the function: this call and every later call of it run eagerly" in text
    assert "so the compiler's error did not reach the program" in text
    assert "did not suppress" not in text and "went on anyway" not in text


def test_a_comparison_says_it_on_the_failure_change(load: Callable[..., Loaded]) -> None:
    (base, b_src), (cand, c_src) = load("stable"), load("after_failure_exit")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    validate(comparison.model_dump(mode="json"), "comparison")
    (row,) = [r for r in comparison.functions if r.candidate is not None and r.candidate.qualified_name == "first"]
    (change,) = [ch for ch in row.changes if ch.kind == "failure_new"]
    assert change.candidate is not None and change.candidate["went_on"] is False
    assert change.candidate["then"] == "raised into the program"
    assert change.summary.endswith(
        "in the candidate, after 0/0, the error reached the program (torch.compile did not suppress it); the "
        "program did not go on: the run exited with code 1 on an uncaught BackendCompilerFailed; no compilation "
        "started after it"
    )


def test_what_runs_after_a_skipped_function_and_after_the_limit(load: Callable[..., Loaded]) -> None:
    """after_skip: its backend wraps each graph and records each call of it (`graph_runs`): score's graph ran at
    steps 0 and 1, never after its recompile failed at step 2 (steps 3 and 4 had its shape again); power's two
    entries served steps 3 and 4 after the limit at step 2. The text says which rule each follows."""
    o = oracle("after_skip")
    graphs = {g["index"]: g["code"]["co_name"] for g in o["backend_graphs"]}
    ran = {(graphs[r["graph"]], r["step"]) for r in o["graph_runs"]}
    assert {s for f, s in ran if f == "score"} == {0, 1}
    assert {3, 4} <= {s for f, s in ran if f == "power"}
    assert o["exceptions"] == [{"type": "ValueError", "message": "expected 8 features, got 5"}]
    loaded = load("after_skip")
    found = failures(loaded)
    score, power = found["score"][1], found["power"][1]
    assert (score.then, power.then) == ("ran eagerly (frame skipped)", "ran eagerly (recompile limit)")
    text = capture_markdown(*loaded)
    assert "torch skipped the function: this call and every later call of it run eagerly, its compiled entries" in text
    assert "(an exception the function raises itself, running eagerly, does)" in text
    assert "the entries compiled before still serve the calls whose guards pass" in text


def test_a_size_pinned_on_the_way_to_the_codes_own_raise_gets_no_size_suggestion(load: Callable[..., Loaded]) -> None:
    """after_skip: score's width took 8 and 5; torch made it symbolic and the `raise` of the input check fixed it
    to 5 (symbolic_shape_specialization in the trace). No operation needs one size: no mark_dynamic suggestion."""
    raw = next((CAPTURES / "after_skip" / "raw").iterdir()).read_text()
    assert '"symbolic_shape_specialization"' in raw and "raise ValueError(" in raw
    report = run_report(*load("after_skip"))
    (score,) = [fn for fn in report.functions if fn.name == "score"]
    kinds = [s.kind for s in score.suggestions] + [s.kind for c in score.compilations for s in c.suggestions]
    assert "mark_dynamic" not in kinds and "graph_break" in kinds


def test_a_raised_failure_leaves_the_earlier_entries_serving(load: Callable[..., Loaded]) -> None:
    """after_raise: its backend records each call of each graph (`graph_runs`): after top's third compilation
    failed at step 4 (TorchRuntimeError, caught by the loop), the K=5 entry ran at step 5 and the K=3 entry at
    step 6. Unlike a skipped function, the text says the earlier entries keep serving."""
    o = oracle("after_raise")
    ran = {r["step"]: r["graph"] for r in o["graph_runs"]}
    assert (ran[5], ran[6]) == (ran[2], ran[0]) and 4 not in ran
    assert [e["type"] for e in o["exceptions"]] == ["TorchRuntimeError"]
    loaded = load("after_raise")
    (failed,) = [f for _, f in failures(loaded).values()]
    assert failed.then == "raised into the program" and failed.went_on is True
    text = run_report_text(run_report(*loaded))
    said = " ".join(text.split())
    assert "the program went on anyway (the entries compiled before it still serve the calls whose guards pass)" in said
    assert "torch skipped the function" not in said
