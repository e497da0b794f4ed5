"""How generated code pairs when its graphs differ (docs/COMPARING.md, "Generated code"), on the real captures:
by order only when as many graphs of the kind are left on each side, else one-sided. Which graph is which comes from
the workloads' oracles (the loss each compiled-autograd graph is the backward of)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from dynamo_diff_compare import compare_captures
from dynamo_diff_compare.generated import generated_form
from dynamo_diff_compare.observed import observed_functions
from dynamo_diff_match import SnapshotSet, correspond_functions
from dynamo_diff_schema import Capture

from .conftest import Loaded

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NONE = SnapshotSet(files={}, paths={})


def compile_id(name: str, loss: str) -> str:
    expect = json.loads((CAPTURES / name / "oracle.json").read_text())["expect"]
    (graph,) = [g for g in expect["compiled_autograd_graphs"] if g["loss"] == loss]
    return str(graph["compile_id"])


def frames_without(capture: Capture, dropped: str) -> list:  # type: ignore[type-arg]
    """The capture's observed functions, less the generated frame compiled as `dropped`."""
    return [ref for ref, obs in observed_functions(capture).items() if dropped not in obs.compile_ids(False)]


def test_differing_graphs_pair_by_order_when_as_many_are_left(load: Callable[..., Loaded]) -> None:
    """ca_warm keeps only the backward of the sum loss, ca_swapped only that of the mean of squares: one
    compiled-autograd graph on each side, not the same graph: the 1st of 1 left pairs with the 1st of 1 left."""
    warm, _ = load("ca_warm")
    swapped, _ = load("ca_swapped")
    base = frames_without(warm, compile_id("ca_warm", "mean_sq"))
    cand = frames_without(swapped, compile_id("ca_swapped", "sum"))
    (row,) = [
        m for m in correspond_functions(base, NONE, cand, NONE) if m.baseline_name and "autograd" in m.baseline_name
    ]
    assert row.method == "order" and row.status == "matched"
    assert row.reason == "the 1st of the 1 compiled autograd graph(s) left on each side; their graphs differ"
    ((b, c),) = [(p.baseline, p.candidate) for p in row.pieces]
    assert b is not None and c is not None
    assert observed_functions(warm)[b].compile_ids(False) == [compile_id("ca_warm", "sum")]
    assert observed_functions(swapped)[c].compile_ids(False) == [compile_id("ca_swapped", "mean_sq")]


def test_differing_graphs_of_unequal_numbers_stay_one_sided(load: Callable[..., Loaded]) -> None:
    """compiled_autograd (one backward graph, of another model) against ca_cold (two): nothing to pair them by."""
    one, one_src = load("compiled_autograd")
    two, two_src = load("ca_cold")
    comparison = compare_captures(one, two, baseline_sources=one_src, candidate_sources=two_src)
    rows = [r for r in comparison.functions if (r.baseline or r.candidate).generated is not None]  # type: ignore[union-attr]
    assert sorted((r.status, (r.baseline or r.candidate).qualified_name) for r in rows) == [  # type: ignore[union-attr]
        ("baseline_only", "compiled autograd graph 0"),
        ("candidate_only", "FX graph 0 (from forward, _ca_workload.py:27)"),
        ("candidate_only", "compiled autograd graph 0"),
        ("candidate_only", "compiled autograd graph 1"),
    ]
    (alone,) = [r for r in rows if r.status == "baseline_only"]
    assert alone.alternatives == ["compiled autograd graph 0", "compiled autograd graph 1"]
    assert "none is paired by order" in alone.reason


def test_made_up_file_names_lose_their_counters_and_real_files_are_kept() -> None:
    assert generated_form("<eval_with_key>.17") == "<eval_with_key>.#"
    assert generated_form("<eval_with_key>.4 from /src/model.py:27 in forward") == (
        "<eval_with_key>.# from /src/model.py:27 in forward"
    )
    assert generated_form("<torch_package_0>.model.py") == "<torch_package_#>.model.py"
    assert generated_form("<string>") == "<string>"
    assert generated_form("<frozen runpy>") is None
    assert generated_form("/src/model_2.py") is None
