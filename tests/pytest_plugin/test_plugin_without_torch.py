"""The pytest plugin where torch is not installed (this workspace): it loads through its entry point, stays inert
and cheap where nothing asks for it, and its own trouble is a clear message that fails only a test with a budget.
Each case runs pytest in a subprocess on a small project written here. Real torch: tests/live."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("torch") is not None,
    reason="what the plugin does where torch is missing: the README suite runs these, its environment has no "
    "torch (the live env, with torch, runs tests/live/test_pytest_plugin_live.py)",
)


def run_pytest(root: Path, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def write(root: Path, tests: str, conftest: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "test_mod.py").write_text(tests)
    if conftest:
        (root / "conftest.py").write_text(conftest)
    return root


INERT = """
import sys

def test_plain():
    assert 1 + 1 == 2

def test_nothing_loaded():
    assert "torch" not in sys.modules
    assert not [m for m in sys.modules if m.startswith(("dynamo_diff_service", "dynamo_diff_store"))]
    assert "dynamo_diff_pytest._recorder" not in sys.modules and "dynamo_diff_pytest._budget" not in sys.modules
"""


def test_loaded_by_entry_point_and_inert(tmp_path: Path) -> None:
    root = write(tmp_path / "p", INERT)
    code, out = run_pytest(root)
    assert code == 0, out
    assert "2 passed" in out
    code, out = run_pytest(root, "--help")
    assert code == 0 and "--dynamo-diff-store=DIR" in out and "--dynamo-diff-reset" in out
    code, out = run_pytest(root, "--markers")
    assert "@pytest.mark.dynamo_budget(recompiles=0, graph_breaks=0, failures=0, compilations=None, only=None)" in out


BUDGETS = """
import pytest

@pytest.mark.dynamo_budget(recompiles=0)
def test_budget():
    assert True

def test_plain():
    assert True

@pytest.mark.dynamo_budget(recompile=0)
def test_misspelt():
    assert True

@pytest.mark.dynamo_budget(graph_breaks=-1)
def test_negative():
    assert True
"""


def test_torch_missing_fails_only_budgets_without_a_traceback(tmp_path: Path) -> None:
    root = write(tmp_path / "p", BUDGETS)
    code, out = run_pytest(root)
    assert code == 1, out
    assert "PASSED test_mod.py::test_plain" in out
    assert "FAILED test_mod.py::test_budget" in out and "FAILED test_mod.py::test_misspelt" in out
    assert (
        f"dynamo-diff: torch is not installed in this Python ({sys.executable}); a dynamo_budget needs the test "
        "to run torch.compile"
    ) in out
    assert (
        "dynamo_budget: unknown argument 'recompile'; it takes recompiles, graph_breaks, failures, compilations, only"
    ) in out
    assert "dynamo_budget: graph_breaks is a count (an int >= 0) or None, given -1" in out
    assert "Traceback" not in out and "plugin.py" not in out


def test_store_without_compiling_imports_nothing(tmp_path: Path) -> None:
    root = write(tmp_path / "p", INERT.replace("def test_nothing_loaded", "def _unused"))
    store = tmp_path / "store"
    code, out = run_pytest(root, f"--dynamo-diff-store={store}")
    assert code == 0, out
    assert f"dynamo-diff: 0 test trace(s) imported into {store} (labelled by test id)" in out
    assert not store.exists()  # nothing compiled: no capture, no store made


UNWRITABLE = """
def pytest_sessionstart(session):
    base = session.config._tmp_path_factory.getbasetemp() / "dynamo-diff"
    base.mkdir(parents=True, exist_ok=True)
    (base / "traces").write_text("a file where the plugin's traces folder goes")
"""


def test_trace_not_writable(tmp_path: Path) -> None:
    root = write(tmp_path / "p", BUDGETS.split("@pytest.mark.dynamo_budget(recompile=0)", maxsplit=1)[0], UNWRITABLE)
    store = tmp_path / "store"
    code, out = run_pytest(root, f"--dynamo-diff-store={store}")
    assert code == 1, out
    assert "PASSED test_mod.py::test_plain" in out
    assert "FAILED test_mod.py::test_budget" in out and "dynamo-diff: the trace could not be written to " in out
    assert "the test's compile behaviour was not checked" in out
    assert "dynamo-diff warning: test_mod.py::test_plain: the trace could not be written to " in out
    assert "Traceback" not in out


SNAPSHOTS = """
import pytest

@pytest.mark.dynamo_snapshot
def test_snapshot():
    assert True

def test_plain():
    assert True
"""


def test_snapshot_options_registered(tmp_path: Path) -> None:
    root = write(tmp_path / "p", INERT)
    code, out = run_pytest(root, "--help")
    assert code == 0 and "--dynamo-diff-update" in out and "--dynamo-diff-report=PATH" in out
    code, out = run_pytest(root, "--markers")
    assert "@pytest.mark.dynamo_snapshot: compare the test's torch.compile behaviour with its committed snapshot" in out


def test_torch_missing_fails_only_snapshots_and_writes_nothing(tmp_path: Path) -> None:
    root = write(tmp_path / "p", SNAPSHOTS)
    report = tmp_path / "summary.md"
    for args in ((), ("--dynamo-diff-update",)):
        code, out = run_pytest(root, f"--dynamo-diff-report={report}", *args)
        assert code == 1, out
        assert "PASSED test_mod.py::test_plain" in out and "FAILED test_mod.py::test_snapshot" in out
        assert (
            f"dynamo-diff: torch is not installed in this Python ({sys.executable}); a dynamo_snapshot needs the test "
            "to run torch.compile"
        ) in out
        assert "Traceback" not in out and "plugin.py" not in out
        assert not (root / "__dynamo_snapshots__").exists()
        # The plugin's own trouble is no verdict: the summary checked nothing.
        assert report.read_text() == "### dynamo-diff: compile behaviour under test: nothing was checked\n"
        assert f"dynamo-diff: summary of 0 check(s) written to {report}" in out
