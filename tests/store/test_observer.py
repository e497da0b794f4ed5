"""Capture's observer in real Python processes (no torch here; tests/live and the observed_on/observed_off fixtures
show it changes no torch.compile graph): what it records, that the program sees no difference, that an existing
sitecustomize still runs, that child processes are observed, and that it can be turned off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dynamo_diff_store import CaptureRequest, record
from dynamo_diff_store.recording import collect, prepare

PROGRAM = """
import json, os, random, sys
random.seed(42)
random.seed(42)
report = {
    "path": [p for p in sys.path],
    "sitecustomize": getattr(sys.modules.get("sitecustomize"), "__file__", None),
    "marker": os.environ.get("THEIR_SITECUSTOMIZE_RAN"),
    "random": random.random(),
}
with open(sys.argv[1], "w") as out:
    json.dump(report, out)
if len(sys.argv) > 2 and sys.argv[2] == "child":
    import subprocess
    subprocess.run([sys.executable, "-c", "import random; random.seed(7)"], check=True)
if len(sys.argv) > 2 and sys.argv[2] == "raise":
    raise ValueError("the program failed")
"""


def run(
    tmp_path: Path, *args: str, observe: bool = True, pythonpath: str | None = None
) -> tuple[int | None, dict, dict]:  # type: ignore[type-arg]
    script = tmp_path / "program.py"
    script.write_text(PROGRAM, encoding="utf-8")
    report = tmp_path / f"report-{observe}.json"
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    bundle = tmp_path / f"bundle-{observe}-{len(list(tmp_path.iterdir()))}"
    result = record(
        CaptureRequest(
            command=[sys.executable, str(script), str(report), *args],
            bundle=bundle,
            convert=False,
            observe=observe,
            env=env,
            cwd=tmp_path,
        ),
        say=lambda _: None,
    )
    manifest = json.loads((bundle / "manifest.json").read_text())
    return result.exit_code, json.loads(report.read_text()), manifest


def test_seeds_and_the_process_are_recorded(tmp_path: Path) -> None:
    code, _, manifest = run(tmp_path)
    assert code == 0
    observed = manifest["observed"]
    assert observed["seeds"] == [{"function": "random.seed", "value": 42, "calls": 2}]
    (process,) = observed["processes"]
    assert process["exited"] is True and process["exception"] is None
    assert process["argv"][0].endswith("program.py") and process["cwd"] == str(tmp_path)
    assert manifest["workload"]["cwd"] == str(tmp_path)


def test_the_program_sees_no_difference(tmp_path: Path) -> None:
    """sys.path and random numbers are what they are without the observer. (A program that has no
    sitecustomize of its own finds the observer's module under that name in sys.modules.)"""
    _, without, _ = run(tmp_path, observe=False)
    _, with_observer, _ = run(tmp_path, observe=True)
    assert with_observer["path"] == without["path"]
    assert with_observer["random"] == without["random"]  # random.seed(42) still seeds


def test_an_existing_sitecustomize_still_runs(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "sitecustomize.py").write_text(
        "import os\nos.environ['THEIR_SITECUSTOMIZE_RAN'] = 'yes'\n", encoding="utf-8"
    )
    code, report, manifest = run(tmp_path, pythonpath=str(theirs))
    assert code == 0 and report["marker"] == "yes"
    assert report["sitecustomize"] == str(theirs / "sitecustomize.py")  # the program sees theirs
    assert manifest["observed"]["seeds"]  # and ours observed


def test_an_uncaught_exception_and_child_processes(tmp_path: Path) -> None:
    code, _, manifest = run(tmp_path, "raise")
    assert code == 1
    (process,) = manifest["observed"]["processes"]
    assert process["exception"].startswith("ValueError: the program failed (")
    code, _, manifest = run(tmp_path, "child")
    assert code == 0
    processes = manifest["observed"]["processes"]
    assert len(processes) == 2 and processes[1]["parent_pid"] == processes[0]["pid"]  # the command comes first
    assert {s["value"] for s in manifest["observed"]["seeds"]} == {42, 7}


def test_no_observe_records_nothing(tmp_path: Path) -> None:
    code, _, manifest = run(tmp_path, observe=False)
    assert code == 0 and manifest["observed"] is None


def test_a_process_killed_before_its_exit_handlers_is_seen_as_not_exited(tmp_path: Path) -> None:
    env = dict(os.environ)
    setup = prepare(env)
    try:
        code = "import os, random, signal; random.seed(3); os.kill(os.getpid(), signal.SIGKILL)"
        proc = subprocess.run([sys.executable, "-c", code], env=env, check=False, timeout=60)
        assert proc.returncode == -9
        observed = collect(setup, None)
    finally:
        setup.remove()
    (process,) = observed.processes
    assert process.exited is False
    assert [(s.function, s.value, s.calls) for s in observed.seeds] == [("random.seed", 3, 1)]
