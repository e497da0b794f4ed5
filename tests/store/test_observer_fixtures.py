"""The observer changes no graph: observed.py recorded with capture's observer (observed_on) and without it
(observed_off) holds the same graphs, guards and graph breaks, and the same counts; and what the observer
recorded equals what the program itself says it passed to torch.compile and to its seed functions."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dynamo_diff_store import Store

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
PREFIX = re.compile(r"^[VIWE]\d{4} [\d:.]+ \d+ \S+\] (\{.*)$")
# Values that differ from run to run whatever the observer does: addresses, times, ids, guard latency.
VOLATILE = (
    (re.compile(r"0x[0-9a-f]+"), "0x?"),
    (re.compile(r"\d{6,}"), "N"),
    (re.compile(r"Guard latency = [\d.]+ us"), "Guard latency"),
)
COMPARED = ("dynamo_output_graph", "dynamo_cpp_guards_str", "dynamo_graph_break_reason", "recompile_reasons")


def payloads(name: str) -> list[tuple[str, int | None, int | None, str]]:
    """(kind, frame id, frame compile id, normalized payload) of the records that hold graphs, guards and
    reasons, read straight from the raw trace (not through our reader)."""
    (log,) = (CAPTURES / name / "raw").glob("*.log")
    lines = log.read_text(encoding="utf-8").split("\n")
    out = []
    for i, line in enumerate(lines):
        match = PREFIX.match(line)
        if not match:
            continue
        record = json.loads(match.group(1))
        kind = next(k for k in record if k not in ("frame_id", "frame_compile_id", "attempt", "has_payload", "stack"))
        if kind == "artifact":
            kind = record["artifact"].get("name", "artifact")
        if kind not in COMPARED:
            continue
        body = []
        for following in lines[i + 1 :]:
            if not following.startswith("\t"):
                break
            body.append(following[1:])
        text = "\n".join(body)
        for pattern, replacement in VOLATILE:
            text = pattern.sub(replacement, text)
        out.append((kind, record.get("frame_id"), record.get("frame_compile_id"), text))
    return out


def test_the_observer_changes_no_graph_guard_or_break() -> None:
    on, off = payloads("observed_on"), payloads("observed_off")
    assert [p[:3] for p in on] == [p[:3] for p in off]
    assert {p[0] for p in on} >= {"dynamo_output_graph", "dynamo_cpp_guards_str", "dynamo_graph_break_reason"}
    assert on == off


def test_the_same_counts_and_compilations(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    on = store.import_path(CAPTURES / "observed_on").capture
    off = store.import_path(CAPTURES / "observed_off").capture
    assert on.counts == off.counts
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
