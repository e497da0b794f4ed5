"""Every command in the `bash` blocks of README.md and docs/*.md is either run here (the `dynamo-diff` commands
that need no torch, against a temporary store holding fixture captures) or named in NOT_RUN_HERE with the
reason and the test that covers it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from dynamo_diff_cli.app import app
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
CAPTURES = REPO / "fixtures/captures"

# Placeholders in the docs -> labels of fixture captures imported into the test store.
PLACEHOLDERS = {
    "BASE": "edit_v1",
    "CAND": "edit_v2",
    "CAPTURE": "two_ranks",
    "before": "edit_v1",
    "after": "edit_v2",
    "TRACE_DIR": str(CAPTURES / "stable" / "raw"),
    "ID": "stable",
    "shape": "shape",
    "ranks": "two_ranks",
    "nothing": "compiled_nothing",
}
FIXTURE_LABELS = {"edit_v1", "edit_v2", "two_ranks", "stable", "shape", "compiled_nothing"}

NEEDS_TORCH = "needs torch: tests/live/test_capture_live.py (real torch), tests/cli/test_capture.py"

# Commands not run by this test: why, and where they are exercised instead.
NOT_RUN_HERE = {
    "uv run pytest": "the test suite itself",
    "dynamo-diff capture": NEEDS_TORCH,
    "uv run dynamo-diff capture": NEEDS_TORCH,
    "python3.11 -m venv": "creates the torch environment (tox env live)",
    ".venv-torch/bin/pip install": "installs torch (tox env live)",
    ".venv-bench/bin/pip install": "installs torch and the workspace packages for tools/bench/pytest_overhead.py",
    "pip install": "installs from a registry (tox env isolation installs the wheels)",
    "uv tool install ./packages/dynamo-diff-cli": "installs the tool: tests/workspace/test_install.py (built wheels)",
    "uv tool install './packages/dynamo-diff-cli[mcp]'": "installs the tool: tests/workspace/test_install.py",
    "dynamo-diff serve-mcp": "a stdio server: tests/mcp/test_stdio.py",
    "dynamo-diff-mcp": "a stdio server: tests/mcp/test_stdio.py",
    "claude mcp add": "configures a third-party client",
    "npx": "needs Node.js: .ci/mcp-inspector.sh",
    "uv run python tools/bench/": "a benchmark printing figures (minutes long)",
    "uv run python tools/campaigns/": "a hardening campaign: .ci/campaigns.sh runs each in smoke mode (from .ci/run)",
    "echo": "writes the declarations file used by a capture (needs torch)",
    "cp -r runs/declared": "copies a bundle made by a capture (needs torch): tests/store/test_bundle.py",
    "uv run dynamo-diff import runs/declared-copy": "imports that copy: tests/store/test_bundle.py",
    "dynamo-diff evidence after <evidence id>": "placeholder id: run below with a real evidence id",
    "dynamo-diff import TRACE_DIR --executor ray": "starts a local Ray instance: tests/store/test_ray_executor.py",
    "RAY_ADDRESS=": "needs a Ray cluster and shared storage; the local instance: tests/store/test_ray_executor.py",
    "dynamo-diff export nightly-": "a nightly job's own capture: tests/cli/test_export.py exports by folder per night",
    "cd examples/pytest-compile-budgets": "the example project: tests/live/test_example_project_live.py (real torch)",
    "pytest": "runs the example project on torch: tests/live/test_example_project_live.py (tox live, live214)",
    "TOYMODELS_EXTRA_SIZE=1 pytest": "the example's regression on torch: tests/live/test_example_project_live.py",
}


def commands() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
            joined = re.sub(r"\\\n\s*", " ", block)
            for raw in joined.splitlines():
                line = raw.split("  #")[0].split(" # ")[0].strip()
                if line and not line.startswith("#"):
                    found.append((doc.name, line))
    return found


def not_run_reason(line: str) -> str | None:
    for prefix, reason in NOT_RUN_HERE.items():
        if line.startswith(prefix):
            return reason
    return None


def test_every_command_is_run_or_explained() -> None:
    cmds = commands()
    assert len(cmds) > 20
    for doc, line in cmds:
        runnable = line.startswith(("dynamo-diff ", "uv run dynamo-diff "))
        assert runnable or not_run_reason(line), f"{doc}: {line!r} is neither run nor explained in NOT_RUN_HERE"


def to_args(line: str) -> list[str]:
    words = shlex.split(line)
    if words[:2] == ["uv", "run"]:
        words = words[2:]
    assert words[0] == "dynamo-diff"
    return [PLACEHOLDERS.get(w, w) for w in words[1:]]


RUNNABLE = [(doc, line) for doc, line in commands() if line.startswith(("dynamo-diff ", "uv run dynamo-diff "))]


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> CliRunner:
    store = tmp_path_factory.mktemp("docs") / "store"
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(store)})
    for label in sorted(FIXTURE_LABELS):
        result = runner.invoke(app, ["import", str(CAPTURES / label), "--label", label])
        assert result.exit_code == 0, result.stderr
    return runner


@pytest.mark.parametrize(("doc", "line"), RUNNABLE, ids=[f"{d}:{c}" for d, c in RUNNABLE])
def test_doc_command_runs(runner: CliRunner, doc: str, line: str, tmp_path: Path) -> None:
    if not_run_reason(line):
        pytest.skip(not_run_reason(line))
    # Files a command writes go to a temporary directory.
    written = {
        "report.html": str(tmp_path / "report.html"),
        "tables": str(tmp_path / "tables"),
        "compared": str(tmp_path / "compared"),
    }
    args = [written.get(a, a) for a in to_args(line)]
    result = runner.invoke(app, args)
    # `check` exits 1 when a bound is exceeded: that is its documented answer, not an error.
    allowed = {0, 1} if args[0] == "check" else {0}
    assert result.exit_code in allowed, f"{doc}: {line}\n{result.stdout[-1500:]}\n{result.stderr[-1500:]}"


def test_evidence_with_a_real_id(runner: CliRunner) -> None:
    index = runner.invoke(app, ["evidence", "edit_v2", "--format", "json"])
    assert index.exit_code == 0, index.stderr
    evidence_id = re.search(r'"id":\s*"([^"]+)"', index.stdout)
    assert evidence_id is not None
    result = runner.invoke(app, ["evidence", "edit_v2", evidence_id.group(1)])
    assert result.exit_code == 0, result.stderr
