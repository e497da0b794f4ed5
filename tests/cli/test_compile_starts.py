"""Which step of the user's loop each compilation started at (the observer's values, `capture` bundles only):
loop_steps changes its input's shape at a step it records itself (oracle.json), and its backend records which
compile ids each step made; analyze says the step on each compilation's line, in both views and in JSON."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
BUNDLE = CAPTURES / "loop_steps"


def oracle() -> dict:  # type: ignore[type-arg]
    return json.loads((BUNDLE / "oracle.json").read_text())


def steps_of_compile_ids() -> dict[str, dict]:  # type: ignore[type-arg]
    """compile id -> the workload's own record of the step that made it (step, rows, probe)."""
    return {cid: entry for entry in oracle()["compiled_at_steps"] for cid in entry["compile_ids"]}


def test_each_compilation_says_the_step_it_started_at(run: Run) -> None:
    expected = steps_of_compile_ids()
    assert len(expected) == oracle()["expect"]["compilations"]
    code, out, err = run("analyze", str(BUNDLE))
    assert code == 0, err
    for cid, entry in expected.items():
        block = out.split(f"\n{cid} ", 1)[1].split("\n0/", 1)[0]
        said = f"when it started: step={entry['step']}, rows={entry['rows']}, probe={entry['probe']}"
        assert said in block, block
    # The recompile is the step the workload changed the shape at.
    changed = oracle()["shape_changed_at_step"]
    (recompile,) = [cid for cid, e in expected.items() if e["step"] == changed]
    assert f"step={changed}" in out.split(f"\n{recompile} ", 1)[1]


def test_the_by_function_view_and_its_json(run: Run) -> None:
    expected = steps_of_compile_ids()
    code, out, err = run("analyze", str(BUNDLE), "--by-function")
    assert code == 0, err
    # Where it started is said under the first compilation, and again only where it differs from the one before.
    for n, (cid, entry) in enumerate(expected.items()):
        after = out.split(f"  {cid} ", 1)[1].split("\n  0/", 1)[0]
        assert f"when it started: step={entry['step']}," in after
        assert ("(loop_steps.py:" in after) == (n == 0), after
    code, doc, err = run("analyze", str(BUNDLE), "--by-function", "--format", "json")
    assert code == 0, err
    (fn,) = json.loads(doc)["functions"]
    started = {c["compile_id"]: c["started_with"] for c in fn["compilations"]}
    for cid, entry in expected.items():
        values = {v["name"]: v["value"] for v in started[cid]["values"]}
        assert (values["step"], values["rows"], values["probe"]) == (entry["step"], entry["rows"], entry["probe"])
        assert started[cid]["function"] == "body" and started[cid]["file"].endswith("loop_steps.py")


def test_a_capture_without_the_observers_values_says_nothing(run: Run) -> None:
    """observed_on was recorded by an observer before compilation starts were recorded; bare logs never have them."""
    for name in ("observed_on", "shape"):
        code, out, err = run("analyze", str(CAPTURES / name), "--by-function")
        assert code == 0, err
        assert "when it started" not in out


def test_a_start_inside_a_function_without_a_loop_counter_adds_the_outer_loops_values() -> None:
    """The frames the observer recorded for a resume function of `__torch_function__` (trial replay_audit, torch
    2.13): its innermost frame holds only `kwargs=None`; the module's loop `it=2` is said after it. A frame with an
    int of its own (a loop's step) is enough on its own."""
    from dynamo_diff_compare.started import started_frame, started_outer, started_text
    from dynamo_diff_schema.manifest import FrameValues, NamedValue

    frames = [
        FrameValues(file="/r/audit.py", line=13, function="__torch_function__", values=[NamedValue(name="kwargs")]),
        FrameValues(file="/r/audit.py", line=25, function="forward", values=[]),
        FrameValues(file="/r/audit.py", line=41, function="<module>", values=[NamedValue(name="it", value=2)]),
    ]
    assert started_text(started_frame(frames), started_outer(frames)) == (
        "when it started: kwargs=None (audit.py:13 in __torch_function__) <- it=2 (audit.py:41 in <module>)"
    )
    counted = [FrameValues(file="/r/t.py", line=5, function="body", values=[NamedValue(name="step", value=3)])]
    assert started_outer(counted + frames[2:]) is None
