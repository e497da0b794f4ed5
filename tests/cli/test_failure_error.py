"""A failure line keeps the error the operator raised on fake tensors, which torch puts at the end of its
explanation: the fact a user needs to tell a data problem from a compiler bug. Expected text: the workload's stderr
(transcribed in fixtures/captures/trial_nt_crash/oracle.json, its notes), never the analyser."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import Run

CAPTURE = Path(__file__).resolve().parents[2] / "fixtures/captures/trial_nt_crash"
ERROR = "a and b must have same reduction dim, but got [48, s9] X [16, 32]."


def test_the_fake_tensor_error_is_on_the_failure_line(run: Run) -> None:
    notes = " ".join(json.loads((CAPTURE / "oracle.json").read_text())["notes"])
    assert "a and b must have same reduction dim" in notes
    for view in ([], ["--by-function"]):
        code, out, err = run("analyze", str(CAPTURE), *view)
        assert code == 0, err
        flat = " ".join(out.split())  # the text view wraps to the terminal
        assert f"RuntimeError when making fake tensor call: RuntimeError('{ERROR}')" in flat, out
    code, out, err = run("analyze", str(CAPTURE), "--by-function")
    # stderr: `from user code: File "score.py", line 48, in forward`; the text names the file as the function label
    # does, the recorded path (the recording machine's folder) stays in the document
    assert "FAILED TorchRuntimeError at score.py:48:" in " ".join(out.split()), out
    assert "/score.py:48" not in out
    code, out, err = run("analyze", str(CAPTURE), "--by-function", "--format", "json")
    assert code == 0, err
    assert ERROR in out
    sites = [c["failure"]["site"] for f in json.loads(out)["functions"] for c in f["compilations"] if c.get("failure")]
    assert [s.rsplit("/", 1)[-1] for s in sites] == ["score.py:48"] and sites[0].startswith("/"), sites
