"""The observer's compilation starts: read into the manifest with their bounds, attached to the compilation of the
same process (rank) and compile id, '#n' after a reset."""

from __future__ import annotations

import json
from pathlib import Path

from dynamo_diff_store import Store
from dynamo_diff_store.recording import _observe
from dynamo_diff_store.recording import _observer_site as site

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def test_the_loop_steps_bundle_attaches_each_start_to_its_compilation(tmp_path: Path) -> None:
    capture = Store(tmp_path / "store").import_path(CAPTURES / "loop_steps").capture
    record = json.loads((CAPTURES / "loop_steps" / "oracle.json").read_text())
    expected = {cid: e for e in record["compiled_at_steps"] for cid in e["compile_ids"]}
    (rank,) = capture.ranks
    assert sorted(c.compile_id for c in rank.compilations) == sorted(expected)
    for comp in rank.compilations:
        inner = comp.started_with[0]
        assert inner.file.endswith("loop_steps.py") and inner.function == "body"
        values = {v.name: v.value for v in inner.values}
        entry = expected[comp.compile_id]
        assert (values["step"], values["rows"], values["probe"]) == (entry["step"], entry["rows"], entry["probe"])
        assert len(comp.started_with) <= site._START_FRAMES
        # No frame of torch, the standard library or the observer itself.
        assert all("/torch/" not in f.file and "sitecustomize" not in f.file for f in comp.started_with)


def _report(folder: Path, events: list[dict]) -> None:  # type: ignore[type-arg]
    folder.mkdir(parents=True, exist_ok=True)
    lines = [{"e": "start", "pid": 11, "ppid": 1, "argv": ["x.py"], "rank": None}, *events]
    (folder / "11.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines))


def test_the_reader_keeps_its_bounds(tmp_path: Path) -> None:
    setup = _observe.ObserverSetup(tmp_path)
    frame = {
        "file": "train.py",
        "line": 5,
        "function": "main",
        "values": [["step", 1], ["name", "x" * 100], ["obj", {"a": 1}], *[[f"v{i}", i] for i in range(20)]],
    }
    frames = [frame] * 4
    starts = [{"e": "compile_start", "compile_id": f"{i}/0", "frames": frames} for i in range(site._MAX_STARTS + 5)]
    _report(setup.out, [*starts, {"e": "exit", "argv": ["x.py"], "counts": [], "compile_starts_dropped": 3}])
    (process,) = _observe.collect(setup, 11).processes
    assert len(process.compile_starts) == site._MAX_STARTS and process.compile_starts_dropped == 3 + 5
    first = process.compile_starts[0]
    assert len(first.frames) == site._START_FRAMES
    values = first.frames[0].values
    assert len(values) == site._START_VALUES and values[0].name == "step"
    assert values[1].value == "x" * (site._VALUE_TEXT - 1) + "…"  # a long str cut
    assert "obj" not in [v.name for v in values]  # not a plain scalar: left out


def test_a_repeated_compile_id_after_a_reset_is_its_next_occurrence(tmp_path: Path) -> None:
    """reset: torch._dynamo.reset() in the middle, so compile ids repeat (the reader says '0/0#1')."""
    capture = Store(tmp_path / "store").import_path(CAPTURES / "reset").capture
    ids = [c.compile_id for r in capture.ranks for c in r.compilations]
    assert any("#" in cid for cid in ids)
    from dynamo_diff_schema.manifest import CompileStart, FrameValues, NamedValue, Observations, ObservedProcess
    from dynamo_diff_store.storage._assemble import attach_compile_starts

    class Result:
        def __init__(self) -> None:
            self.rank = None
            self.started_with: dict = {}  # type: ignore[type-arg]

    def start(cid: str, n: int) -> CompileStart:
        return CompileStart(compile_id=cid, frames=[FrameValues(file="t.py", values=[NamedValue(name="n", value=n)])])

    process = ObservedProcess(pid=1, compile_starts=[start("0/0", 0), start("0/0", 1), start("1/0", 2)])
    manifest = capture.capture.manifest.model_copy(update={"observed": Observations(observer="4", processes=[process])})  # type: ignore[union-attr]
    result = Result()
    attach_compile_starts([result], manifest)  # type: ignore[list-item]
    assert {k: v[0]["values"][0]["value"] for k, v in result.started_with.items()} == {"0/0": 0, "0/0#1": 1, "1/0": 2}
