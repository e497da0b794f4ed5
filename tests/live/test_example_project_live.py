"""The example project (examples/pytest-compile-budgets) run by pytest on real torch, in a subprocess of this
interpreter (which has torch and dynamo-diff-pytest), from a copy so that nothing is written into the clone.

Two of its tests fail on purpose; this test asserts which ones fail and what each failure says, checked against
what torch itself said (a conftest added to the copy only writes torch's guard_failures and graph-break counters per
test to oracle/<test>.json), never against the analyser. Its committed snapshots were taken on torch 2.13.0: on
2.13 they match; on another torch (tox env live214 sets DYNAMO_DIFF_LIVE_UPGRADE=1 and runs this file on 2.14.1)
each reads as an upgrade comparison that passes and names both versions."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "pytest-compile-budgets"
SNAPSHOTS = EXAMPLE / "tests" / "__dynamo_snapshots__"

ORACLE = '''
import json
import os

import pytest


@pytest.fixture(autouse=True)
def torch_says(request):
    """What torch itself recorded during the test: its guard_failures and graph-break counters."""
    from torch._dynamo.utils import counters, guard_failures

    counters.clear()
    guard_failures.clear()
    yield
    os.makedirs("oracle", exist_ok=True)
    with open(f"oracle/{request.node.name}.json", "w") as out:
        json.dump(
            {
                "guard_failures": sorted(r for reasons in guard_failures.values() for r in reasons),
                "graph_break": dict(counters["graph_break"]),
            },
            out,
        )
'''

# The example's tests and their outcomes, as its README says.
OUTCOMES = {
    "test_new_size_recompiles": "failed",
    "test_same_size_within_budget": "passed",
    "test_print_breaks": "failed",
    "test_break_inside_torch_is_not_ours": "passed",
    "test_scaled_sizes": "passed",
    "test_denoiser_compiles_once": "passed",
    "test_tabular_breaks_are_not_ours": "passed",
    "test_table_encoder_breaks": "passed",
}
SNAPSHOT_TESTS = {
    "tests/test_snapshots.py::test_scaled_sizes": "test_snapshots/test_scaled_sizes.json",
    "tests/test_three_projects.py::test_table_encoder_breaks": "test_three_projects/test_table_encoder_breaks.json",
}


def release(version: str) -> str:
    return version.split("+", 1)[0]


def committed_torch() -> str:
    (version,) = {json.loads((SNAPSHOTS / f).read_text())["torch"] for f in SNAPSHOT_TESTS.values()}
    return release(version)


def run_torch() -> str:
    proc = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return release(proc.stdout.strip())


@pytest.fixture(scope="module")
def versions() -> tuple[str, str]:
    """(the committed snapshots' torch, this run's torch), releases without a local tag."""
    old, new = committed_torch(), run_torch()
    if os.environ.get("DYNAMO_DIFF_LIVE_UPGRADE") == "1":
        assert old != new, f"DYNAMO_DIFF_LIVE_UPGRADE is set but this torch ({new}) is the snapshots' own"
    return old, new


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "oracle"))
    (root / "tests" / "conftest.py").write_text(ORACLE)
    return root


def run_pytest(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[dict[str, tuple[str, str]], str]:
    """{test name: (outcome, failure message)} from the junit XML, and the output."""
    junit = root / "junit.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **(env or {})},
    )
    out = proc.stdout + proc.stderr
    results = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        failure = case.find("failure")
        results[case.get("name", "")] = (
            ("failed", failure.get("message", "") + (failure.text or "")) if failure is not None else ("passed", "")
        )
    return results, out


def oracle(root: Path, name: str) -> dict[str, object]:
    data = json.loads((root / "oracle" / f"{name}.json").read_text())
    assert isinstance(data, dict)
    return data


def line_of(path: Path, text: str) -> int:
    (line,) = [i for i, got in enumerate(path.read_text().splitlines(), 1) if text in got]
    return line


def test_budgets_fail_and_pass_as_the_readme_says(copy: Path, versions: tuple[str, str]) -> None:
    report = copy / "summary.md"
    results, out = run_pytest(copy, f"--dynamo-diff-report={report}")
    assert {name: outcome for name, (outcome, _) in results.items()} == OUTCOMES, out[-4000:]
    assert "Traceback" not in out
    # A new input size: torch's own guard_failures give the reason the failure shows.
    (reason,) = oracle(copy, "test_new_size_recompiles")["guard_failures"]  # type: ignore[misc]
    assert isinstance(reason, str) and "size mismatch at index 0. expected 3, actual 4" in reason
    message = results["test_new_size_recompiles"][1]
    assert "dynamo_budget exceeded: recompiles 1 > 0" in message and reason in message
    assert "scaled  (src/toymodels/blocks.py:" in message and "(shape)" in message
    # print(): torch's counters name one break, gb0059; the failure names it at the print's own line.
    breaks = oracle(copy, "test_print_breaks")["graph_break"]
    assert isinstance(breaks, dict) and len(breaks) == 1 and "gb0059" in next(iter(breaks))
    message = results["test_print_breaks"][1]
    at = line_of(copy / "src/toymodels/blocks.py", 'print("')
    assert "dynamo_budget exceeded: graph_breaks 1 > 0" in message
    assert f"graph break gb0059 Failed to trace builtin operator `print` at src/toymodels/blocks.py:{at}" in message
    assert "hint: Avoid calling builtin `print`" in message
    # only="toymodels": torch broke the graph once, inside torch/distributions, and the test passed.
    for name in ("test_break_inside_torch_is_not_ours", "test_tabular_breaks_are_not_ours"):
        breaks = oracle(copy, name)["graph_break"]
        assert isinstance(breaks, dict) and len(breaks) == 1 and "torch/distributions" in next(iter(breaks)), name
    # The diffusers-style test: torch recompiled nothing and broke nothing.
    assert oracle(copy, "test_denoiser_compiles_once") == {"guard_failures": [], "graph_break": {}}
    # The pytorch-frame-style snapshot holds torch's own count of breaks for that model.
    breaks = oracle(copy, "test_table_encoder_breaks")["graph_break"]
    assert isinstance(breaks, dict)
    snapshot = json.loads(
        (SNAPSHOTS / SNAPSHOT_TESTS["tests/test_three_projects.py::test_table_encoder_breaks"]).read_text()
    )
    assert sum(b["count"] for f in snapshot["functions"] for b in f["graph_breaks"]) == sum(breaks.values())
    summary = report.read_text()
    assert summary.startswith("### dynamo-diff: compile behaviour under test: 2 of 8 FAILED")
    assert "| `tests/test_budgets.py::test_new_size_recompiles` | budget | ❌ FAILED |" in summary
    assert "| `tests/test_budgets.py::test_print_breaks` | budget | ❌ FAILED |" in summary
    old, new = versions
    for test in SNAPSHOT_TESTS:
        if old == new:  # the committed snapshots are this torch's: they match, and nothing is said
            assert f"dynamo-diff: {test}: compile snapshot" not in out
            assert f"| `{test}` | snapshot | ✅ passed | compile behaviour matches the snapshot |" in summary
        else:  # another torch: an upgrade comparison that passes and names both versions, not a failure
            assert f"dynamo-diff: {test}: compile snapshot passed: torch upgrade {old} -> {new}: " in out, out[-3000:]
            assert f"| `{test}` | snapshot | ✅ passed | torch upgrade {old} -> {new}: " in summary


def test_an_added_recompile_against_the_committed_snapshot(copy: Path, versions: tuple[str, str]) -> None:
    # TOYMODELS_EXTRA_SIZE=1 adds an input size to test_scaled_sizes (the README's regression).
    results, out = run_pytest(copy, "tests/test_snapshots.py", env={"TOYMODELS_EXTRA_SIZE": "1"})
    (reason,) = oracle(copy, "test_scaled_sizes")["guard_failures"]  # type: ignore[misc]
    assert isinstance(reason, str) and "expected 3, actual 5" in reason
    old, new = versions
    change = "scaled: new recompile on a shape guard: 0 -> 1; failing guard [shape]: "
    if old == new:  # a regression: it fails naming the recompile, its guard's text and its evidence
        outcome, message = results["test_scaled_sizes"]
        assert outcome == "failed", out[-3000:]
        assert "compile snapshot FAILED: regressed: 1 regression(s), 1 other change(s)" in message
        assert f"+ {change}" in message and reason.split("  #")[0].strip() in message
        assert "(evidence u" in message
        assert "snapshot: tests/__dynamo_snapshots__/test_snapshots/test_scaled_sizes.json" in message
    else:  # on another torch the change is the upgrade's: the test passes and the summary says what changed
        assert results["test_scaled_sizes"][0] == "passed", out[-3000:]
        assert f"compile snapshot passed: torch upgrade {old} -> {new}: 1 regression(s), 1 other change(s)" in out
        assert f"+ with the torch upgrade {old} -> {new}: {change}" in out


def test_update_then_a_plain_run(copy: Path, versions: tuple[str, str]) -> None:
    results, out = run_pytest(copy, "--dynamo-diff-update", "tests/test_snapshots.py", "tests/test_three_projects.py")
    assert {outcome for outcome, _ in results.values()} == {"passed"}, out[-3000:]
    old, new = versions
    written = {f: (copy / "tests/__dynamo_snapshots__" / f).read_text() for f in SNAPSHOT_TESTS.values()}
    if old == new:  # the committed snapshots are what the plugin writes on this torch, byte for byte
        assert "dynamo-diff: 0 compile snapshot(s) written (2 unchanged)" in out
        assert written == {f: (SNAPSHOTS / f).read_text() for f in SNAPSHOT_TESTS.values()}
    else:  # refreshed on the new torch: the version changes, the behaviour recorded does not
        assert "dynamo-diff: 2 compile snapshot(s) written (2 refreshed)" in out
        for f, text in written.items():
            document, committed = json.loads(text), json.loads((SNAPSHOTS / f).read_text())
            assert release(document.pop("torch")) == new and release(committed.pop("torch")) == old
            assert document == committed, f
    results, out = run_pytest(copy, "tests/test_snapshots.py", "tests/test_three_projects.py")
    assert {outcome for outcome, _ in results.values()} == {"passed"}, out[-3000:]
    assert "compile snapshot passed" not in out  # unchanged against what was just written
