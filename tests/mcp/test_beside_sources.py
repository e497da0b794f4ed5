"""get_source on a run folder with no bundle (`run/logs/` and the user's `run/serve.py`, the trace of
fixtures/captures/trial_hook_after): the script found beside the log at import, said to be so."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from .conftest import FIXTURES, Session, text_of

SCRIPT = FIXTURES / "workloads" / "trial" / "hook_after" / "serve.py"


def test_get_source_reads_the_script_found_beside_the_log(connect: Callable[..., Session], tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "captures" / "trial_hook_after" / "raw", run / "logs")
    shutil.copyfile(SCRIPT, run / "serve.py")
    session = connect(tmp_path)
    result = session.call("get_source", capture=str(run), function="Classifier.forward")
    assert not result.is_error, text_of(result)
    text = text_of(result)
    assert "found beside the log at import (not recorded with the run" in text
    (number,) = [n for n, line in enumerate(SCRIPT.read_text().splitlines(), 1) if "def forward(self, x):" in line]
    assert f"{number} |     def forward(self, x):" in text


def test_analyze_capture_says_its_lines_come_from_a_script_found_beside_the_log(
    connect: Callable[..., Session], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "captures" / "trial_hook_after" / "raw", run / "logs")
    shutil.copyfile(SCRIPT, run / "serve.py")
    session = connect(tmp_path)
    text = text_of(session.call("analyze_capture", capture=str(run)))
    note = "sources: 1 file found beside the log at import (not recorded with the run; it may differ from what ran)"
    assert text.count(note) == 1, text
    (number,) = [n for n, line in enumerate(SCRIPT.read_text().splitlines(), 1) if line.strip() == "ACT_STATS = []"]
    assert f"ACT_STATS set at: serve.py:{number} ACT_STATS = []" in text
    bare = text_of(session.call("analyze_capture", capture=str(run / "logs")))
    assert "found beside" not in bare and "set at:" not in bare
