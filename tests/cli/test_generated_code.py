"""Generated code pairs by what it is, never by the counter in the file name torch made up for it.

The fixtures ca_cold, ca_warm and ca_swapped (fixtures/workloads/_ca_workload.py) run Compiled Autograd over the
backward of two losses; each workload's oracle says, per compiled-autograd graph its backend received, which loss it
is the backward of and which `<eval_with_key>.N` torch named its code. Expected pairings come from those oracles.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from dynamo_diff_schema import validate

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def graphs(name: str) -> dict[str, dict[str, Any]]:
    """The oracle's compiled-autograd graphs by loss: compile id, compiled-autograd id, co_filename."""
    expect = json.loads((CAPTURES / name / "oracle.json").read_text())["expect"]
    return {g["loss"]: g for g in expect["compiled_autograd_graphs"]}


def compared(run, base: str, cand: str, *more: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    code, out, err = run("compare", str(CAPTURES / base), str(CAPTURES / cand), "--format", "json", *more)
    assert code == 0, err
    doc = json.loads(out)
    validate(doc, "comparison")
    return doc


def row_of(doc: dict[str, Any], side: str, compile_id: str) -> dict[str, Any]:
    (row,) = [r for r in doc["functions"] if r[side] is not None and compile_id in r[side]["compile_ids"]]
    return row


def test_a_cold_and_a_warm_compiled_autograd_run_have_no_one_sided_rows(run) -> None:  # type: ignore[no-untyped-def]
    cold, warm = graphs("ca_cold"), graphs("ca_warm")
    # The bug's cause, said by the oracles: the warm run's AOTAutograd hit skipped tracing, so torch named the same
    # backward graphs differently.
    assert {g["co_filename"] for g in cold.values()}.isdisjoint(g["co_filename"] for g in warm.values())
    doc = compared(run, "ca_cold", "ca_warm")
    assert {r["status"] for r in doc["functions"]} == {"matched"}
    for loss, before in cold.items():
        after = warm[loss]
        row = row_of(doc, "baseline", before["compile_id"])
        assert row["candidate"]["compile_ids"] == [after["compile_id"]]
        assert row["method"] == "graph" and row["reason"] == "identical graphs"
        for side, graph in (("baseline", before), ("candidate", after)):
            shown = row[side]
            assert shown["qualified_name"] == f"compiled autograd graph {graph['compiled_autograd_id']}"
            assert shown["name_from"] == "generated" and shown["file"] == graph["co_filename"]
            assert shown["generated"] == {
                "kind": "compiled_autograd",
                "number": graph["compiled_autograd_id"],
                "co_filenames": [graph["co_filename"]],
                "co_name": "forward",
            }
        assert not [c for c in row["changes"] if c["kind"] in ("op_count", "op_histogram")]
    # The traced Head module is the other generated frame: one FX graph, paired by its graph too.
    (fx,) = [r for r in doc["functions"] if (r["baseline"]["generated"] or {}).get("kind") == "fx_graph"]
    assert fx["method"] == "graph"
    assert (
        fx["baseline"]["qualified_name"]
        == fx["candidate"]["qualified_name"]
        == "FX graph 0 (from forward, _ca_workload.py:27)"
    )
    assert fx["baseline"]["file"].startswith("<eval_with_key>.") and fx["baseline"]["file"] != fx["candidate"]["file"]


def test_unrelated_graphs_that_torch_named_alike_do_not_pair(run) -> None:  # type: ignore[no-untyped-def]
    """ca_swapped runs the losses in the other order: its compiled-autograd graph 0 is the backward of the other
    loss, under the very file name ca_warm gives its graph 0 (and the same compiled-autograd id)."""
    warm, swapped = graphs("ca_warm"), graphs("ca_swapped")
    assert warm["sum"]["co_filename"] == swapped["mean_sq"]["co_filename"]
    assert warm["sum"]["compiled_autograd_id"] == swapped["mean_sq"]["compiled_autograd_id"] == 0
    doc = compared(run, "ca_warm", "ca_swapped", "--change", "command")
    assert {r["status"] for r in doc["functions"]} == {"matched"}
    for loss in ("sum", "mean_sq"):
        row = row_of(doc, "baseline", warm[loss]["compile_id"])
        assert row["candidate"]["compile_ids"] == [swapped[loss]["compile_id"]]
        assert row["candidate"]["file"] == swapped[loss]["co_filename"] != row["baseline"]["file"]
        assert row["method"] == "graph"
        assert not [c for c in row["changes"] if c["kind"] in ("op_count", "op_histogram")]
    code, out, err = run(
        "compare", str(CAPTURES / "ca_warm"), str(CAPTURES / "ca_swapped"), "--all", "--format", "markdown"
    )
    assert code == 0, err
    assert "| matched (graph) | compiled autograd graph 0 -> compiled autograd graph 1 |" in out
    assert "| matched (graph) | compiled autograd graph 1 -> compiled autograd graph 0 |" in out


def test_every_view_names_generated_code_for_what_it_is(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    base, cand = str(CAPTURES / "ca_cold"), str(CAPTURES / "ca_warm")
    names = ["compiled autograd graph 0", "compiled autograd graph 1", "FX graph 0 (from forward, _ca_workload.py:27)"]
    for fmt in ("text", "markdown"):
        code, out, err = run("compare", base, cand, "--all", "--format", fmt)
        assert code == 0, err
        # (The text table wraps the longest name inside its cell.)
        assert all(name in out for name in (names if fmt == "markdown" else names[:2]))
        assert "eval_with_key" not in out  # the made-up file names are in JSON and in the details only
    page = tmp_path / "report.html"
    code, _, err = run("compare", base, cand, "--format", "html", "-o", str(page))
    assert code == 0, err
    html = page.read_text()
    assert "compiled autograd graph 1" in html
    # The details say what torch named the code in each run, as a fact of that run, not as a change.
    cold, warm = graphs("ca_cold")["mean_sq"], graphs("ca_warm")["mean_sq"]
    named = f"named &lt;eval_with_key&gt;{cold['co_filename'][15:]} in the baseline and &lt;eval_with_key&gt;"
    assert named + f"{warm['co_filename'][15:]} in the candidate" in html
    code, out, err = run("check", base, cand, "--max-new-recompiles", "0")
    assert code == 0, err


def test_analyze_names_the_graphs_and_keeps_torchs_file_names_per_compilation(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("analyze", str(CAPTURES / "ca_cold"))
    assert code == 0, err
    table = out[out.index("functions (") : out.index("\ncompilations\n")]
    assert "compiled autograd graph 0" in table and "eval_with_key" not in table
    for graph in graphs("ca_cold").values():
        shown = f"compiled autograd graph {graph['compiled_autograd_id']} (forward in {graph['co_filename']}:4)"
        assert shown in out


def test_ranks_that_only_number_their_generated_code_differently_behave_alike(  # type: ignore[no-untyped-def]
    run, tmp_path: Path
) -> None:
    """Two real traces of one program as two ranks of a job: the cold and the warm run. They differ in cache
    decisions (left out of a rank's behaviour) and in the numbers torch gave the generated code (the oracles),
    nothing else."""
    for rank, name in enumerate(("ca_cold", "ca_warm")):
        (log,) = (CAPTURES / name / "raw").glob("*.log")
        shutil.copyfile(log, tmp_path / f"dedicated_log_torch_trace_rank_{rank}_{name}.log")
    code, out, err = run("compare", str(tmp_path), "--ranks", "--format", "json")
    assert code == 0, err
    view = json.loads(out)["ranks"]
    assert [g["ranks"] for g in view["groups"]] == [[0, 1]] and view["divergences"] == []
