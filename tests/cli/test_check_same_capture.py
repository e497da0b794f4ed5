"""`dynamo-diff check A A`: the same capture on both sides is refused (`same_capture`, exit 2) however it is
named, because every delta is zero by construction and the gate would pass whatever the run did; `--allow-same`
checks it anyway and says so. `compare A A` still compares, with its warning."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


@pytest.mark.parametrize("second", ["path", "label", "prefix", "copy"])
def test_check_refuses_the_same_capture(run: Run, tmp_path: Path, second: str) -> None:
    code, out, err = run("import", str(CAPTURES / "shape"), "--label", "shape-run")
    assert code == 0, err
    capture_id = out.splitlines()[0]
    other = {
        "path": str(CAPTURES / "shape"),
        "label": "shape-run",
        "prefix": capture_id[:12],
        "copy": str(shutil.copytree(CAPTURES / "shape", tmp_path / "shape-copy")),  # the same bytes: the same id
    }[second]
    code, out, err = run("check", str(CAPTURES / "shape"), other, "--max-new-recompiles", "0")
    assert code == 2 and out == ""
    (error,) = [line for line in err.splitlines() if line.startswith("error[")]
    assert error.startswith("error[same_capture]: ") and f"same capture ({capture_id[:12]})" in error
    assert "--allow-same" in error


def test_allow_same_checks_it_and_says_so(run: Run) -> None:
    shape = str(CAPTURES / "shape")
    code, out, err = run("check", shape, shape, "--max-new-recompiles", "0", "--allow-same")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "dynamo-diff check: passed"
    same = [line for line in lines if line.startswith("warn same capture: ")]
    assert len(same) == 1 and "every delta is zero by construction" in same[0]
    recompiles = json.loads((CAPTURES / "shape" / "oracle.json").read_text())["expect"]["recompiles"]
    assert f"ok   confirmed recompilations: {recompiles} -> {recompiles} (+0, allowed +0)" in lines


def test_two_different_captures_are_checked_as_before(run: Run) -> None:
    code, out, _ = run("check", str(CAPTURES / "stable"), str(CAPTURES / "shape"), "--max-new-recompiles", "0")
    assert code == 1 and not [line for line in out.splitlines() if "same capture" in line]


def test_compare_of_the_same_capture_still_compares_with_a_warning(run: Run) -> None:
    shape = str(CAPTURES / "shape")
    code, out, _ = run("compare", shape, shape, "--format", "json")
    assert code == 0
    assert "same_capture" in {n["code"] for n in json.loads(out)["notices"]}
