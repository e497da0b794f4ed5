"""`analyze --source`: the run's own scripts after its report, in one call: the captured files its functions and
their call paths are in, whole and numbered as in the bundle's snapshot (read here from the bundle itself, never
from the analyser)."""

from __future__ import annotations

import shutil
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _snapshot(name: str, file: str) -> tuple[str, list[str]]:
    (path,) = (CAPTURES / name / "sources").rglob(file)
    return str(path.relative_to(CAPTURES / name / "sources")), path.read_text(encoding="utf-8").splitlines()


def _numbered(lines: list[str]) -> list[str]:
    """Each line that is not blank, numbered in its file (a blank line's number is left out with it)."""
    width = len(str(len(lines)))
    return [f"{n:>{width}} | {line}" for n, line in enumerate(lines, 1) if line.strip()]


def test_the_scripts_follow_the_report_whole_and_numbered(run: Run) -> None:
    code, out, err = run("analyze", str(CAPTURES / "float_attribute"), "--source")
    assert code == 0, err
    report, scripts = out.split("\nscripts of this run (as captured, not the working tree; blank lines left out):\n")
    assert "Scaled.forward (float_attribute.py:28)" in report  # the report, per function (--source implies it)
    workload, workload_lines = _snapshot("float_attribute", "float_attribute.py")
    helper, helper_lines = _snapshot("float_attribute", "_oracle.py")  # the call path runs through it
    expected = [
        f"-- {workload} ({len(workload_lines)} lines)",
        *_numbered(workload_lines),
        f"-- {helper} ({len(helper_lines)} lines)",
        *_numbered(helper_lines),
    ]
    assert scripts.rstrip("\n").split("\n") == expected


def test_a_folder_of_runs_gives_each_runs_scripts_after_it(run: Run, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("loop_skip", "float_attribute"):
        shutil.copytree(CAPTURES / name, runs / name)
    code, out, err = run("analyze", str(runs), "--source")
    assert code == 0, err
    blocks = out.split("\n== ")
    assert len(blocks) == 2
    # What the scripts are (the snapshot, blank lines left out) is said once; the second run's only follow.
    assert out.count("scripts of this run (as captured, not the working tree; blank lines left out):\n") == 1
    assert "\nscripts of this run:\n" in blocks[1]
    for block, name in zip(blocks, ("float_attribute", "loop_skip"), strict=True):
        workload, lines = _snapshot(name, f"{name}.py")
        assert f"({name})" in block.split("\n", 1)[0]
        assert f"-- {workload} ({len(lines)} lines)\n" + "\n".join(_numbered(lines)) in block


def test_the_scripts_are_for_the_text_view(run: Run) -> None:
    code, out, err = run("analyze", str(CAPTURES / "float_attribute"), "--source", "--format", "json")
    assert code == 2 and out == ""
    assert "invalid_argument" in err and "--source adds the scripts to the text view" in err


def test_a_function_torch_compiles_through_its_own_wrapper_still_has_its_script(run: Run) -> None:
    """no_grad_function: a `@torch.no_grad()` function compiled from the script's top level. torch compiles its own
    `inner` wrapper (torch/_dynamo/external_utils.py), so no compiled frame is in the script; the script is still
    shown after the report (the file the compilation started from), not 'none captured'."""
    code, out, err = run("analyze", str(CAPTURES / "no_grad_function"), "--source")
    assert code == 0, err
    report, scripts = out.split("\nscripts of this run (as captured, not the working tree; blank lines left out):\n")
    assert "ema (compiled at no_grad_function.py:" in report
    workload, lines = _snapshot("no_grad_function", "no_grad_function.py")
    assert scripts.rstrip("\n").split("\n")[: len(lines) + 1] == [
        f"-- {workload} ({len(lines)} lines)",
        *_numbered(lines),
    ]
    assert "none captured" not in out
