"""A run folder as the agent trial left it (`run/logs/` and the user's `run/serve.py`, no bundle): `source`, the
call paths' lines and the `X set at:` lines read the script found beside the log at import, and every view says
it was found there, not recorded with the run. The trace is fixtures/captures/trial_hook_after's; line numbers and
texts come from the workload's own file (fixtures/workloads/trial/hook_after/serve.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import Run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SCRIPT = FIXTURES / "workloads" / "trial" / "hook_after" / "serve.py"
NOTE = "sources: 1 file found beside the log at import (not recorded with the run; it may differ from what ran)"


def _run_folder(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "captures" / "trial_hook_after" / "raw", run / "logs")
    shutil.copyfile(SCRIPT, run / "serve.py")
    return run


def _line_of(text: str) -> int:
    (number,) = [n for n, line in enumerate(SCRIPT.read_text().splitlines(), 1) if line.strip() == text]
    return number


def test_source_reads_the_script_beside_the_log(run: Run, tmp_path: Path) -> None:
    folder = str(_run_folder(tmp_path))
    code, out, err = run("analyze", folder)
    assert code == 0, err
    assert " ".join(out.split()).count(NOTE) == 1
    code, out, err = run("source", folder, "Classifier.forward")
    assert code == 0, err
    assert NOTE in " ".join(err.split())
    first = _line_of("def forward(self, x):")
    assert out.splitlines()[0] == f"{first} |     def forward(self, x):"
    code, out, err = run("source", folder, "--file", "serve.py", "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["sources_note"] == NOTE
    assert document["locations"][0]["text"] == SCRIPT.read_text()


def test_the_set_at_and_call_path_lines_name_the_scripts_lines(run: Run, tmp_path: Path) -> None:
    folder = _run_folder(tmp_path)
    code, out, err = run("analyze", str(folder), "--by-function")
    assert code == 0, err
    assert " ".join(out.split()).count(NOTE) == 1  # the lines below come from the script: said once, at the top
    code, doc, err = run("analyze", str(folder), "--by-function", "--format", "json")
    assert code == 0, err
    assert json.loads(doc)["sources_note"] == NOTE
    assert f"ACT_STATS set at: serve.py:{_line_of('ACT_STATS = []')} ACT_STATS = []" in out
    assert f"called from: serve.py:{_line_of('logits = cmodel(x)')} logits = cmodel(x)" in out
    # The logs' folder alone holds no script: nothing to read the assignment from.
    code, out, err = run("analyze", str(folder / "logs"), "--by-function")
    assert code == 0, err
    assert "set at:" not in out and "found beside" not in out
    code, _, err = run("source", str(folder / "logs"), "Classifier.forward")
    assert code != 0 and "Classifier.forward" in err


def test_a_folder_of_runs_reads_each_runs_script(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = tmp_path / "runs"
    for name in ("a", "b"):
        _run_folder(tmp_path / name)
        shutil.move(tmp_path / name / "run", runs / name)
    (runs / "b" / "serve.py").unlink()
    code, out, err = run("import", str(runs), "--format", "json")
    assert code == 0, err
    captures = {c["label"]: c for c in json.loads(out)["captures"]}
    assert len(captures["a"]["summary"]["capture"]["validity"]["sources_found_beside"]) == 1
    assert captures["b"]["summary"]["capture"]["validity"]["sources_found_beside"] == []
    code, out, err = run("source", "a", "--file", "serve.py")
    assert code == 0 and out.splitlines()[0].lstrip() == "1 | " + SCRIPT.read_text().splitlines()[0], err
    # The label and the run's folder of that name hold the same bytes (its log and its script): nothing to note.
    monkeypatch.chdir(runs)
    code, out, err = run("analyze", "a")
    assert code == 0 and "is both a capture" not in err, err
