"""A third-party client: the MCP Inspector's command-line mode lists the tools and compares two fixtures.

The inspector (npm @modelcontextprotocol/inspector, on Node 24) is installed by .ci/mcp-inspector.sh into the CI
cache outside the clone; CI runs it first. Locally the test is skipped when it is not installed; with CI set, a
missing inspector fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dynamo_diff_mcp.budget import RESPONSE_LIMIT
from dynamo_diff_schema import ComparisonPage

from .conftest import FIXTURES

# Where .ci/mcp-inspector.sh writes it: the CI cache outside the clone (.ci/cache-dir.sh has the same rule).
CI_CACHE = Path(os.environ.get("DYNAMO_DIFF_CI_CACHE") or Path.home() / ".cache" / "dynamo-diff-ci")
WRAPPER = CI_CACHE / "mcp-inspector" / "run"


@pytest.fixture
def inspector(tmp_path: Path) -> list[str]:
    if not WRAPPER.is_file():
        message = f"the MCP Inspector is not installed ({WRAPPER}): run .ci/mcp-inspector.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    server = [
        str(Path(sys.executable).parent / "dynamo-diff-mcp"),
        "--allow-root",
        str(FIXTURES),
        "--store",
        str(tmp_path / "store"),
    ]
    return [str(WRAPPER), "--cli", *server]


def _run(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_inspector_lists_the_tools(inspector: list[str]) -> None:
    listing = json.loads(_run([*inspector, "--method", "tools/list"]))
    assert {t["name"] for t in listing["tools"]} == {
        "import_trace",
        "list_captures",
        "analyze_capture",
        "compare_runs",
        "compare_ranks",
        "get_evidence",
        "get_source",
    }


def test_inspector_calls_compare_runs_on_two_fixtures(inspector: list[str]) -> None:
    out = _run(
        [
            *inspector,
            "--method",
            "tools/call",
            "--tool-name",
            "compare_runs",
            "--tool-arg",
            "baseline=captures/edit_v1",
            "candidate=captures/edit_v2",
        ]
    )
    result = json.loads(out)
    assert not result.get("isError")
    assert len(json.dumps(result)) < RESPONSE_LIMIT
    page = ComparisonPage.model_validate(result["structuredContent"])
    assert page.comparability.verdict == "comparable" and page.total_rows == 3
    assert "[0] gate (model.py:21) matched (line_diff: lines 21-25 map to 21-24)" in result["content"][0]["text"]
