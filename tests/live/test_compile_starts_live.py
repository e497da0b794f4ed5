"""`dynamo-diff capture` records, at each compilation's start, the values of the user's loop (observer 4): a loop
`for step in range(4)` whose input shape changes at step 2, in a function (fixtures/workloads/loop_steps.py) and
at module level (a script written here). The expected steps are the workloads' own records, never our output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def _captured(tmp_path: Path, name: str, source: str) -> tuple[Path, Any, dict[str, Any]]:
    """The script written, run under `dynamo-diff capture`: its path, its capture and the record it wrote."""
    script, record, store = tmp_path / name, tmp_path / "record.json", tmp_path / "store"
    script.write_text(source)
    env = {**os.environ, "DYNAMO_DIFF_STORE": str(store), "STEPS_RECORD": str(record)}
    cmd = [ENTRY, "capture", "--out", str(tmp_path / "bundle"), "--", sys.executable, str(script)]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    capture = Store(store).load(proc.stdout.strip().splitlines()[-1])
    return script, capture, json.loads(record.read_text())


def test_a_module_level_loop_after_a_reset(tmp_path: Path) -> None:
    script, capture, said = _captured(tmp_path, "train.py", MODULE_LEVEL)
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


AT_THE_LIMIT = """
import json, os
import torch

torch._dynamo.config.recompile_limit = 2
record = {"calls": []}


def f(x, n):
    for _ in range(n):
        x = x * 2
    return x


cf = torch.compile(f, backend="eager")
for step, n in enumerate((1, 2, 3, 1)):
    record["calls"].append({"step": step, "n": n})
    cf(torch.ones(3), n)
with open(os.environ["STEPS_RECORD"], "w") as out:
    json.dump(record, out)
"""


def test_a_compilation_refused_at_the_limit_says_its_step_too(tmp_path: Path) -> None:
    # recompile_limit 2: n=1 and n=2 compile (0/0, 0/1); n=3 is refused at the limit (0/2, only its
    # compilation_metrics); n=1 again runs its entry. The refused one never reaches torch's start callback.
    _, capture, said = _captured(tmp_path, "limit.py", AT_THE_LIMIT)
    calls = said["calls"]
    comps = {c.compile_id: c for r in capture.ranks for c in r.compilations}
    (refused,) = [c for c in comps.values() if c.limit_events]
    assert refused.compile_id == "0/2"
    (frame,) = refused.started_with
    values = {v.name: v.value for v in frame.values}
    assert (values["step"], values["n"]) == (calls[2]["step"], calls[2]["n"]) == (2, 3)
    steps = [{v.name: v.value for v in comps[cid].started_with[0].values}["step"] for cid in ("0/0", "0/1")]
    assert steps == [0, 1]


ON_RECOMPILE_ERROR = """
import json, os
import torch

torch._dynamo.config.error_on_recompile = True
record = {"errors": []}


def f(x, k):
    return x * k


cf = torch.compile(f, backend="eager")
for step, k in enumerate((2, 2, 3, 2)):
    try:
        cf(torch.ones(3), k)
    except Exception as err:  # torch._dynamo.exc.RecompileError
        record["errors"].append({"step": step, "k": k, "type": type(err).__name__})
with open(os.environ["STEPS_RECORD"], "w") as out:
    json.dump(record, out)
"""


def test_a_compilation_refused_by_error_on_recompile_says_its_step_too(tmp_path: Path) -> None:
    # error_on_recompile: k=2 compiles (0/0); k=3 fails its guard and torch raises RecompileError while it reads the
    # recompile reasons, before its start callback; the program catches it.
    _, capture, said = _captured(tmp_path, "on_recompile.py", ON_RECOMPILE_ERROR)
    (error,) = said["errors"]
    assert error["type"] == "RecompileError"
    comps = {c.compile_id: c for r in capture.ranks for c in r.compilations}
    (failed,) = [c for c in comps.values() if c.failure is not None]
    assert failed.compile_id == "0/1" and failed.failure.fail_type == "RecompileError"
    (frame,) = failed.started_with
    values = {v.name: v.value for v in frame.values}
    assert (values["step"], values["k"]) == (error["step"], error["k"]) == (2, 3)


NESTED_RESUMES = """
import json, os
import torch

record = {"frames": []}


def f(x):
    x = x + 1
    print("a")
    x = x * 2
    print("b")
    x = x - 1
    print("c")
    return x.sum()


cf = torch.compile(f, backend="eager")
for step in range(3):
    cf(torch.ones(step + 1))
    record["frames"].append(step)
with open(os.environ["STEPS_RECORD"], "w") as out:
    json.dump(record, out)
"""


def test_a_resume_function_deep_in_a_chain_of_breaks_says_the_loops_step(tmp_path: Path) -> None:
    # Three prints: f breaks, its resume function breaks, and so on; each resume function runs inside the one
    # before it. The last one's start sees three of them above it: they are not the program's frames, and the
    # module's loop (step) is still recorded.
    _, capture, said = _captured(tmp_path, "resumes.py", NESTED_RESUMES)
    assert said["frames"] == [0, 1, 2]
    comps = [c for r in capture.ranks for c in r.compilations]
    last = [c for c in comps if c.compile_id == "3/0"]
    assert last and last[0].code.co_name.startswith("torch_dynamo_resume_in_f_at_")
    frames = last[0].started_with
    assert [f.function for f in frames] == ["f", "<module>"]
    assert {v.name: v.value for v in frames[-1].values}["step"] == 0
