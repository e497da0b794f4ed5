"""`dynamo-diff capture` records, at each compilation's start, the values of the user's loop (observer 4): a loop
`for step in range(4)` whose input shape changes at step 2, in a function (fixtures/workloads/loop_steps.py) and
at module level (a script written here). The expected steps are the workloads' own records, never our output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dynamo_diff_store import Store

from .test_capture_live import ENTRY, REPO, run_capture

MODULE_LEVEL = """
import json, os, sys
import torch

record = {"compiled_at_steps": [], "shape_changed_at_step": 2}
seen = []


def backend(gm, inputs):
    seen.append(str(torch._guards.CompileContext.current_compile_id()))
    return gm.forward


def f(x):
    return x.cos() + 1


cf = torch.compile(f, backend=backend, dynamic=False)
torch._dynamo.reset()  # clears torch's compile callbacks: the observer's must come back
for step in range(4):
    width = 2 if step < record["shape_changed_at_step"] else 7
    label = "long" * 20  # a str over 40 characters: cut
    before = len(seen)
    cf(torch.ones(width))
    record["compiled_at_steps"].append({"step": step, "width": width, "compile_ids": seen[before:]})
with open(os.environ["STEPS_RECORD"], "w") as out:
    json.dump(record, out)
"""


def test_each_compilation_says_the_step_of_the_loop_it_started_at(tmp_path: Path) -> None:
    _, capture, oracle, _ = run_capture(tmp_path, "loop_steps.py")
    expected = {cid: e for e in oracle["compiled_at_steps"] for cid in e["compile_ids"]}
    (rank,) = capture.ranks
    assert sorted(c.compile_id for c in rank.compilations) == sorted(expected)
    for comp in rank.compilations:
        frame = comp.started_with[0]
        values = {v.name: v.value for v in frame.values}
        entry = expected[comp.compile_id]
        assert (values["step"], values["rows"], values["probe"]) == (entry["step"], entry["rows"], entry["probe"])
        assert frame.file.endswith("loop_steps.py") and frame.function == "body"
    (changed,) = [cid for cid, e in expected.items() if e["step"] == oracle["shape_changed_at_step"]]
    assert next(c for c in rank.compilations if c.compile_id == changed).recompile is not None


def test_a_module_level_loop_after_a_reset(tmp_path: Path) -> None:
    script, record, store = tmp_path / "train.py", tmp_path / "record.json", tmp_path / "store"
    script.write_text(MODULE_LEVEL)
    env = {**os.environ, "DYNAMO_DIFF_STORE": str(store), "STEPS_RECORD": str(record)}
    cmd = [ENTRY, "capture", "--out", str(tmp_path / "bundle"), "--", sys.executable, str(script)]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    capture = Store(store).load(proc.stdout.strip().splitlines()[-1])
    said = json.loads(record.read_text())
    expected = {cid: e for e in said["compiled_at_steps"] for cid in e["compile_ids"]}
    assert len(expected) == 2
    comps = {c.compile_id: c for r in capture.ranks for c in r.compilations}
    assert sorted(comps) == sorted(expected)
    for cid, entry in expected.items():
        (frame,) = comps[cid].started_with  # the module's frame: the only user frame
        values = {v.name: v.value for v in frame.values}
        assert frame.function == "<module>" and frame.file == str(script)
        assert (values["step"], values["width"]) == (entry["step"], entry["width"])
        assert values["label"] == ("long" * 20)[:39] + "…"
        assert "record" not in values and "torch" not in values  # a dict, a module: never read
