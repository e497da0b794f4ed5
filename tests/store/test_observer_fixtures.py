"""The observer changes no graph: observed.py recorded with capture's observer (observed_on) and without it
(observed_off) holds the same graphs, guards and graph breaks, and the same counts; and what the observer
recorded equals what the program itself says it passed to torch.compile and to its seed functions."""

from __future__ import annotations

import json
from pathlib import Path

from dynamo_diff_store import Store

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def test_the_observer_changes_no_graph_guard_or_break(trace_payloads) -> None:  # type: ignore[no-untyped-def]
    """Graphs, guard trees and reasons read straight from the two raw traces (see tests/conftest.py)."""
    on, off = trace_payloads(CAPTURES / "observed_on" / "raw"), trace_payloads(CAPTURES / "observed_off" / "raw")
    assert [p[:3] for p in on] == [p[:3] for p in off]
    assert {p[0] for p in on} >= {"dynamo_output_graph", "dynamo_cpp_guards_str", "dynamo_graph_break_reason"}
    assert on == off


def test_the_same_counts_and_compilations(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    on = store.import_path(CAPTURES / "observed_on").capture
    off = store.import_path(CAPTURES / "observed_off").capture
    assert on.counts.values() == off.counts.values()  # compile time is a measurement: it varies run to run
    oracle = json.loads((CAPTURES / "observed_on" / "oracle.json").read_text())
    assert on.counts.observed_compilation_identities == oracle["expect"]["compilations"]

    def summary(capture):  # type: ignore[no-untyped-def]
        return [
            (
                c.compile_id,
                c.code.co_name,
                c.outcome,
                c.graph.op_count if c.graph else None,
                c.guards.count if c.guards else None,
                [(gb.gb_id, gb.user_line) for gb in c.graph_breaks],
            )
            for r in capture.ranks
            for c in r.compilations
        ]

    assert summary(on) == summary(off)
    assert on.capture.manifest.observed is not None and off.capture.manifest.observed is None  # type: ignore[union-attr]


def test_what_the_observer_saw_is_what_the_program_did() -> None:
    oracle = json.loads((CAPTURES / "observed_on" / "oracle.json").read_text())
    observed = json.loads((CAPTURES / "observed_on" / "manifest.json").read_text())["observed"]
    calls = {c["target"]: c for c in observed["compile_calls"]}
    assert sorted(calls) == sorted(c["target"] for c in oracle["compile_calls"])
    for said in oracle["compile_calls"]:
        seen = calls[said["target"]]
        # A callable backend is recorded by its qualified name; the program names its function.
        assert seen["backend"] == said["backend"] or seen["backend"].endswith("." + said["backend"])
        assert (seen["fullgraph"], seen["dynamic"], seen["mode"], seen["options"]) == (
            said["fullgraph"],
            said["dynamic"],
            said["mode"],
            said["options"],
        )
        assert (
            seen["caller"].startswith(str(Path("fixtures/workloads/observed.py"))) or "observed.py:" in seen["caller"]
        )
    seeds = [(s["function"], s["value"]) for s in observed["seeds"]]
    assert seeds == [(s["function"], s["value"]) for s in oracle["seeds"]]
    (process,) = observed["processes"]
    assert process["exited"] and process["exception"] is None and process["torch"] == oracle["torch_version"]


def test_the_observer_records_the_settings_the_program_made() -> None:
    """llama_214_tuned sets two Dynamo settings itself (its oracle lists them), llama_214 none: the observer's record
    of settings not at torch's default is exactly that, read from both config modules. torch assigns some settings
    their default value itself (Dynamo restores inductor.deterministic on every compilation): not listed."""
    for name in ("llama_214_tuned", "llama_214", "dynamic_flag_v2"):
        manifest = json.loads((CAPTURES / name / "manifest.json").read_text())
        oracle = json.loads((CAPTURES / name / "oracle.json").read_text())
        (process,) = manifest["observed"]["processes"]
        assert process["config_read"] == ["dynamo", "inductor"]
        assert process["config_overrides"] == oracle.get("settings_set", {}), name
