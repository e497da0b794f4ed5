"""A library frame compiled on its own whose `dynamo_start` stack names only the script's call: torch leaves out the
user frames running between the compiled entry and the library frame, and its graph break's user traceback has
them. cached_property_break.py: `rotate` reads a `functools.cached_property`; `rotate` fails on the property's
lock and runs eagerly, and the property's `__get__`, compiled as its own frame, fails the same way. Its row is the
function that read the property (`rotate`), not the model's compiled target. Expected from the raw trace."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAME = "cached_property_break"


def _raw() -> str:
    (log,) = (CAPTURES / NAME / "raw").glob("*.log")
    return log.read_text(encoding="utf-8")


def test_the_property_frame_is_counted_in_the_function_that_read_it(run: Run) -> None:
    raw = _raw()
    starts = {
        int(m[2]): json.loads(m[1])["dynamo_start"]["stack"]
        for m in re.finditer(r'^\S+ \S+ \d+ \S+\] (\{"dynamo_start".*"frame_id": (\d+), .*\})$', raw, re.M)
    }
    get_frame = next(f for f, stack in starts.items() if stack[-1]["name"] == "__get__")
    # torch's stack: the script's line, torch's frames, __get__; neither forward nor rotate.
    assert [s["name"] for s in starts[get_frame] if s["name"] in ("forward", "rotate")] == []
    # Its graph break's user traceback: forward, then rotate at the line that reads the property.
    head = rf'"dynamo_graph_break_reason".*"frame_id": {get_frame}, .*\n((?:\t.*\n)+)'
    (record,) = re.findall(head, raw)
    frames = re.findall(r'File "[^"]*cached_property_break\.py", line (\d+), in (\w+)', record)
    assert frames[-1][1] == "rotate"
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function", "--format", "json")
    assert code == 0, err
    rows = {f["name"]: f for f in json.loads(out)["functions"]}
    holding = [name for name, f in rows.items() if any(c["compile_id"] == f"{get_frame}/0" for c in f["compilations"])]
    assert holding == ["Rotary.rotate"], holding
    code, text, err = run("analyze", str(CAPTURES / NAME), "--by-function")
    assert re.search(
        r"Rotary\.rotate \(cached_property_break\.py:\d+\): .*frames:\s+rotate, __get__ \(functools\.py:\d+\)", text
    )
    assert "compiled at" not in text  # no row named by the compiled target holds a frame of its own
