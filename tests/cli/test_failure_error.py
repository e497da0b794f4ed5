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


def test_a_recompile_refused_by_error_on_recompile_names_the_guard_that_failed(run: Run) -> None:
    """error_on_recompile: torch raises RecompileError instead of recompiling; its message (the workload's own record
    of the exception it caught) names the failing guard, which no recompile_reasons record holds."""
    capture = CAPTURE.parent / "error_on_recompile"
    oracle = json.loads((capture / "oracle.json").read_text())
    (error,) = oracle["exceptions"]
    assert error["type"] == "RecompileError" and oracle["recompile_error_at_requests"] == [3]
    lines = error["message"].splitlines()
    (guard,) = [line.strip()[2:].split("  #")[0].strip() for line in lines if " - 0/0: " in line]
    assert guard == "0/0: self.pool == 0"
    raw = "".join(p.read_text() for p in (capture / "raw").glob("*.log"))
    assert '"recompile_reasons"' not in raw
    source = (capture / "sources/fixtures/workloads/error_on_recompile.py").read_text().splitlines()
    code, out, err = run("analyze", str(capture), "--by-function")
    assert code == 0, err
    assert (
        f"FAILED RecompileError: Recompiling function forward in error_on_recompile.py:17; triggered by {guard} at "
        f"error_on_recompile.py:19: {source[18].strip()}"
    ) in " ".join(out.split())
    assert "when it started: request=3" in out  # observer 6: torch raised before its start callback
