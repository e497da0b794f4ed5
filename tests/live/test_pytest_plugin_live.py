"""The pytest plugin on real torch: a small test project run by pytest in a subprocess of this interpreter (which has
torch and dynamo-diff-pytest), with and without pytest-xdist. Each test of the project writes what torch itself
said about it (torch._dynamo.utils.guard_failures and counters) to oracle/<test>.json; the verdicts and the words of
each failure are checked against that, never against the analyser."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from dynamo_diff_store import Store

MODEL = """
import torch


def noisy(x):
    print("inside mypkg")
    return x.cos()


def sample(p):
    d = torch.distributions.Categorical(probs=p, validate_args=True)  # torch breaks inside torch/distributions
    return d.probs * 2
"""

TESTS = """
import json
import os
import os
import unittest

import pytest
import torch
from torch._dynamo.utils import counters, guard_failures

from mypkg import model


def oracle(name, code):
    os.makedirs("oracle", exist_ok=True)
    with open(f"oracle/{name}.json", "w") as f:
        json.dump({"guard_failures": guard_failures.get(code, []), "graph_break": dict(counters["graph_break"])}, f)


def shapes(x):
    return x.sin() + 1


def shapes2(x):
    return x.sin() - 1


def printing(x):
    print("hi")
    return x.cos()


@pytest.mark.dynamo_budget(recompiles=0)
def test_recompiles_on_new_size():
    f = torch.compile(shapes, backend="eager", dynamic=False)
    f(torch.ones(3)); f(torch.ones(4))
    oracle("test_recompiles_on_new_size", shapes.__code__)


@pytest.mark.dynamo_budget(recompiles=1)
def test_within_budget():
    f = torch.compile(shapes2, backend="eager", dynamic=False)
    f(torch.ones(3)); f(torch.ones(5))


@pytest.mark.dynamo_budget(graph_breaks=0)
def test_print_breaks():
    counters.clear()
    torch.compile(printing, backend="eager")(torch.ones(2))
    oracle("test_print_breaks", printing.__code__)


@pytest.mark.dynamo_budget(graph_breaks=0, only="mypkg")
def test_only_ignores_torch():
    counters.clear()
    torch.compile(model.sample, backend="eager")(torch.tensor([0.5, 0.5]))
    oracle("test_only_ignores_torch", model.sample.__code__)


@pytest.mark.dynamo_budget(graph_breaks=0, only="mypkg")
def test_only_counts_mypkg():
    counters.clear()
    torch.compile(model.noisy, backend="eager")(torch.ones(2))
    oracle("test_only_counts_mypkg", model.noisy.__code__)


@pytest.mark.dynamo_budget(recompiles=0, compilations=2)
def test_reset_inside():
    def g(x):
        return x * 3
    torch.compile(g, backend="eager")(torch.ones(2))
    torch._dynamo.reset()
    torch.compile(g, backend="eager")(torch.ones(2))


@pytest.mark.dynamo_budget(compilations=0)
def test_compiles_nothing():
    assert torch.ones(2).sum() == 2


def test_no_budget_recompiles():
    def h(x):
        return x + 2
    f = torch.compile(h, backend="eager", dynamic=False)
    f(torch.ones(3)); f(torch.ones(4))


class Unit(unittest.TestCase):
    @pytest.mark.dynamo_budget(recompiles=0)
    def test_unit_recompiles(self):
        def u(x):
            return x.tanh()
        f = torch.compile(u, backend="eager", dynamic=False)
        f(torch.ones(2)); f(torch.ones(7))
"""

EXPECTED = {
    "test_recompiles_on_new_size": "failed",
    "test_within_budget": "passed",
    "test_print_breaks": "failed",
    "test_only_ignores_torch": "passed",
    "test_only_counts_mypkg": "failed",
    "test_reset_inside": "passed",
    "test_compiles_nothing": "passed",
    "test_no_budget_recompiles": "passed",
    "test_unit_recompiles": "failed",
}


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "mypkg").mkdir(parents=True)
    (root / "mypkg/__init__.py").write_text("")
    (root / "mypkg/model.py").write_text(MODEL)
    (root / "tests").mkdir()
    (root / "tests/test_compile.py").write_text(TESTS)
    (root / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    return root


def run_pytest(root: Path, *args: str) -> tuple[dict[str, tuple[str, str]], str]:
    """{test name: (outcome, failure message)} from the junit XML, and the output."""
    junit = root / "junit.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", *args, "tests"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
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


def check_verdicts(root: Path, results: dict[str, tuple[str, str]], out: str) -> None:
    assert {name: outcome for name, (outcome, _) in results.items()} == EXPECTED, out[-4000:]
    assert "Traceback" not in out
    # The failing guard's text, as torch's own guard_failures has it.
    (reason,) = oracle(root, "test_recompiles_on_new_size")["guard_failures"]  # type: ignore[misc]
    message = results["test_recompiles_on_new_size"][1]
    assert "recompiles 1 > 0" in message and reason in message
    # The next step for it, with the dimension whose size torch's guard names.
    (tensor, dim) = re.search(r"tensor '(\w+)' size mismatch at index (\d+)", reason).groups()  # type: ignore[union-attr]
    assert f"suggestion (mark_dynamic): mark dim {dim} of {tensor} dynamic" in message
    assert f"torch._dynamo.mark_dynamic({tensor}, {dim})" in message
    # print(): torch's counters name the break gb0059; the failure names it and the user line.
    breaks = oracle(root, "test_print_breaks")["graph_break"]
    assert isinstance(breaks, dict) and len(breaks) == 1 and "gb0059" in next(iter(breaks))
    message = results["test_print_breaks"][1]
    assert "graph_breaks 1 > 0" in message and "gb0059" in message and "tests/test_compile.py:28" in message
    assert "hint: Avoid calling builtin `print`" in message
    assert "suggestion (graph_break): " in message and "/gb/gb0059.html" in message  # torch's page for it
    trace = next(line.split("trace: ", 1)[1] for line in message.splitlines() if line.startswith("trace: "))
    assert "gb/gb0059" in Path(trace.strip()).read_text()
    # only="mypkg": torch's break (counters: one, inside torch/distributions) is not counted; mypkg's is.
    breaks = oracle(root, "test_only_ignores_torch")["graph_break"]
    assert isinstance(breaks, dict) and len(breaks) == 1 and "torch/distributions" in next(iter(breaks))
    message = results["test_only_counts_mypkg"][1]
    assert "(only mypkg): graph_breaks 1 > 0" in message and "mypkg/model.py:6" in message
    assert "recompiles 1 > 0" in results["test_unit_recompiles"][1]


ENTRY = shutil.which("dynamo-diff", path=str(Path(sys.executable).parent)) or "dynamo-diff"
FAILING = {name for name, outcome in EXPECTED.items() if outcome == "failed"}


def node_id(name: str) -> str:
    return f"tests/test_compile.py::{'Unit::' if name == 'test_unit_recompiles' else ''}{name}"


def test_budgets_on_real_torch(tmp_path: Path) -> None:
    root = project(tmp_path)
    base = tmp_path / "base"
    results, out = run_pytest(root, f"--basetemp={base}")
    check_verdicts(root, results, out)
    # Without --dynamo-diff-store only the tests that failed their budget were imported (into the store under
    # pytest's temporary directory); a passing test that compiled is counted from its slice and leaves no capture.
    store = base / "dynamo-diff" / "store"
    assert {row.label for row in Store(store).list_captures()} == {node_id(name) for name in FAILING}, out[-3000:]
    # Each selected test's slice is where it was written (test_no_budget_recompiles is not selected: none).
    slices = len(list((base / "dynamo-diff" / "traces").glob("*.log")))
    assert slices == len(EXPECTED) - 1
    # A failure's printed command reads its evidence from that store: the graph break of print(), as torch wrote
    # it in the trace (its gb id and the operator).
    message = results["test_print_breaks"][1]
    (evidence_id,) = set(re.findall(r"graph break gb0059 .*  \[(u\d+-e\d+)\]", message))  # message and text
    command = next(
        line.strip().split()
        for line in message.splitlines()
        if line.strip().startswith("dynamo-diff --store") and " evidence " in line
    )
    assert command[1:3] == ["--store", str(store)] and command[-1] == "EVIDENCE_ID", message
    shown = subprocess.run(
        [ENTRY, *command[1:-1], evidence_id], capture_output=True, text=True, timeout=120, check=False
    )
    assert shown.returncode == 0, shown.stdout + shown.stderr
    # The record torch wrote for the break, sha256-checked against the import: at the print's line, in torch's words.
    assert shown.stdout.startswith("V") and '{"artifact": {"name": "dynamo_graph_break_reason"' in shown.stdout
    line = next(i for i, text in enumerate(TESTS.splitlines(), 1) if 'print("hi")' in text)
    assert "Graph break in user code at " in shown.stdout and f"tests/test_compile.py:{line}" in shown.stdout
    assert "builtin operator" in shown.stdout and "verified" in shown.stderr
    # junit's properties of a passing test name its trace slice, never a capture.
    properties = {
        case.get("name"): {p.get("name"): p.get("value") for p in case.iter("property")}
        for case in ET.parse(root / "junit.xml").getroot().iter("testcase")
    }
    kept = properties["test_within_budget"]["dynamo_diff"]
    assert "'trace': " in kept and "capture" not in kept
    assert "'capture': " in properties["test_print_breaks"]["dynamo_diff"]


def test_xdist_two_workers_same_verdicts(tmp_path: Path) -> None:
    # tox's live env installs pytest-xdist: without it this verdict would go unchecked, so CI fails instead.
    if importlib.util.find_spec("xdist") is None:
        if os.environ.get("CI"):
            pytest.fail("pytest-xdist is not installed (tox's live env installs it)")
        pytest.skip("pytest-xdist is not installed (tox's live env installs it)")
    root = project(tmp_path)
    results, out = run_pytest(root, "-p", "xdist", "-n", "2")
    check_verdicts(root, results, out)


def test_store_keeps_each_compiling_test(tmp_path: Path) -> None:
    root = project(tmp_path)
    store = tmp_path / "store"
    _, out = run_pytest(root, f"--dynamo-diff-store={store}")
    labels = {row.label for row in Store(store).list_captures()}
    compiling = {f"tests/test_compile.py::{name}" for name in EXPECTED if name != "test_compiles_nothing"}
    compiling = {n.replace("::test_unit_recompiles", "::Unit::test_unit_recompiles") for n in compiling}
    assert labels == compiling, out[-3000:]
    assert f"dynamo-diff: {len(compiling)} test trace(s) imported into {store}" in out


SNAPSHOT_TESTS = """
import json
import os
import os

import pytest
import torch
from torch._dynamo.utils import guard_failures


def resize(x):
    return x.sin() * 2


@pytest.mark.dynamo_snapshot
def test_sizes():
    f = torch.compile(resize, backend="eager", dynamic=False)
    for n in SIZES:
        f(torch.ones(n))
    os.makedirs("oracle", exist_ok=True)
    with open("oracle/test_sizes.json", "w") as out:
        json.dump({"guard_failures": guard_failures.get(resize.__code__, [])}, out)


@pytest.mark.dynamo_budget(recompiles=0)
def test_budgeted():
    torch.compile(lambda x: x + 1, backend="eager")(torch.ones(2))
"""


def snapshot_project(tmp_path: Path, sizes: str) -> Path:
    root = tmp_path / "snap"
    (root / "tests").mkdir(parents=True, exist_ok=True)
    (root / "tests/test_snap.py").write_text(f"SIZES = {sizes}\n" + SNAPSHOT_TESTS)
    (root / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    return root


def test_snapshot_update_then_regression(tmp_path: Path) -> None:
    root = snapshot_project(tmp_path, "[3]")
    snapshot = root / "tests/__dynamo_snapshots__/test_snap/test_sizes.json"
    # No snapshot yet: the test fails with the hint to write it, and nothing is written.
    results, out = run_pytest(root)
    assert results["test_sizes"][0] == "failed" and results["test_budgeted"][0] == "passed", out[-3000:]
    assert (
        "dynamo_snapshot: no compile snapshot at tests/__dynamo_snapshots__/test_snap/test_sizes.json; run pytest "
        "with --dynamo-diff-update to write it"
    ) in results["test_sizes"][1]
    assert not snapshot.exists() and "Traceback" not in out
    # --dynamo-diff-update writes it; a second update rewrites nothing (byte-stable); a plain run passes.
    results, out = run_pytest(root, "--dynamo-diff-update")
    assert {outcome for outcome, _ in results.values()} == {"passed"}, out[-3000:]
    assert "dynamo-diff: 1 compile snapshot(s) written (1 new)" in out
    written = snapshot.read_text()
    document = json.loads(written)
    assert document["kind"] == "compile_snapshot" and document["torch"].startswith("2.13.0")
    assert str(tmp_path) not in written
    results, out = run_pytest(root, "--dynamo-diff-update")
    assert "dynamo-diff: 0 compile snapshot(s) written (1 unchanged)" in out and snapshot.read_text() == written
    results, out = run_pytest(root)
    assert {outcome for outcome, _ in results.values()} == {"passed"}, out[-3000:]
    # The edit adds an input size: torch recompiles (its own guard_failures give the reason) and the run fails
    # naming the recompile, its guard's text and its evidence; the report names both tests.
    snapshot_project(tmp_path, "[3, 4]")
    report = tmp_path / "summary.md"
    github = tmp_path / "step_summary.md"
    github.write_text("earlier step\n")
    env_before = dict(os.environ)
    os.environ["GITHUB_STEP_SUMMARY"] = str(github)
    base = tmp_path / "base"
    try:
        results, out = run_pytest(root, f"--dynamo-diff-report={report}", f"--basetemp={base}")
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    (reason,) = oracle(root, "test_sizes")["guard_failures"]  # type: ignore[misc]
    outcome, message = results["test_sizes"]
    assert outcome == "failed" and results["test_budgeted"][0] == "passed", out[-3000:]
    assert "compile snapshot FAILED: regressed" in message
    assert "new recompile on a shape guard: 0 -> 1" in message and reason in message
    assert "(evidence u" in message and "snapshot: tests/__dynamo_snapshots__/test_snap/test_sizes.json" in message
    assert snapshot.read_text() == written  # a plain run never writes
    summary = report.read_text()
    assert summary.startswith("### dynamo-diff: compile behaviour under test: 1 of 2 FAILED")
    assert "| `tests/test_snap.py::test_sizes` | snapshot | ❌ FAILED |" in summary and reason in summary
    assert "| `tests/test_snap.py::test_budgeted` | budget | ✅ passed |" in summary
    # The failing test's evidence is a capture the store holds (imported because it failed); the passing one was
    # counted from its trace slice, which the summary names (the store has no capture of it).
    store = Store(base / "dynamo-diff" / "store")
    ((capture, label),) = [(row.id, row.label) for row in store.list_captures()]
    assert label == "tests/test_snap.py::test_sizes"
    cells = {line.split(" | ")[0].strip("| `"): line.split(" | ")[-1].strip(" |") for line in summary.splitlines()}
    assert cells["tests/test_snap.py::test_sizes"] == f"capture {capture[:12]}"
    slice_cell = cells["tests/test_snap.py::test_budgeted"]
    assert slice_cell.startswith(f"trace {base}") and Path(slice_cell.removeprefix("trace ")).is_file()
    assert github.read_text() == "earlier step\n" + summary
    assert f"dynamo-diff: summary of 2 check(s) written to {report}" in out
    # Back to one size: the improvement passes and says so.
    snapshot_project(tmp_path, "[3]")
    results, out = run_pytest(root, "--dynamo-diff-update")
    snapshot_project(tmp_path, "[3, 4]")
    results, out = run_pytest(root, "--dynamo-diff-update")
    assert "dynamo-diff: 1 compile snapshot(s) written (1 refreshed)" in out
    snapshot_project(tmp_path, "[3]")
    results, out = run_pytest(root)
    assert results["test_sizes"][0] == "passed", out[-3000:]
    assert "tests/test_snap.py::test_sizes: compile snapshot passed: improved" in out
    assert "recompile gone on a shape guard: 1 -> 0" in out
    # It passed, so its trace was not imported: the note names the trace, not a capture the store lacks.
    assert "  trace kept at " in out and "evidence ids are of capture" not in out


RESUME_TESTS = """
import json
import os

import pytest
import torch
from torch._dynamo.utils import guard_failures


def step(x, n):
    y = x.sin()
    print("a graph break")
    return y * n


def test_warm_up():
    torch.compile(step, backend="eager", dynamic=False)(torch.ones(3), 2)


@pytest.mark.dynamo_budget(recompiles=0)
def test_only_the_resume_recompiles():
    guard_failures.clear()
    torch.compile(step, backend="eager", dynamic=False)(torch.ones(3), 3)
    os.makedirs("oracle", exist_ok=True)
    with open("oracle/resume.json", "w") as out:
        json.dump({code.co_name: reasons for code, reasons in guard_failures.items()}, out)
"""


def test_a_resume_function_is_counted_in_its_function(tmp_path: Path) -> None:
    # test_warm_up compiles `step` and its resume function; the budgeted test then changes `n`, which only the
    # resume function reads: torch's guard_failures says only that code object recompiled. The failure names it
    # in `step`, the function it resumes (as analyze counts it), not as a function of its own.
    root = tmp_path / "resume"
    (root / "tests").mkdir(parents=True)
    (root / "tests/test_resume.py").write_text(RESUME_TESTS)
    (root / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    results, out = run_pytest(root)
    outcomes = {name: outcome for name, (outcome, _) in results.items()}
    assert outcomes == {"test_warm_up": "passed", "test_only_the_resume_recompiles": "failed"}, out[-3000:]
    ((code, (reason,)),) = json.loads((root / "oracle/resume.json").read_text()).items()
    # Dynamo names a resume function for the line of the break (the print's), in the file as written.
    line = next(i for i, text in enumerate(RESUME_TESTS.splitlines(), 1) if "print(" in text)
    assert code == f"torch_dynamo_resume_in_step_at_{line}"
    message = results["test_only_the_resume_recompiles"][1]
    assert "dynamo_budget exceeded: recompiles 1 > 0" in message
    assert "\n  step  (tests/test_resume.py)\n" in message, message
    assert f" in resume at {line} (value): {reason.split('  #')[0].strip()}  [u" in message
    assert "torch_dynamo_resume_in_step" not in message
