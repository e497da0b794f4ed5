"""The demo says what the code edit was before the rows it explains."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKLOADS = ROOT / "fixtures/workloads"


def definition(version: str, name: str) -> list[str]:
    """A function's lines as the workload file of that version has them (read with ast, not our snapshots)."""
    text = (WORKLOADS / version / "model.py").read_text()
    node = next(n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name == name)
    return text.splitlines()[node.lineno - 1 : node.end_lineno]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_the_demo_shows_the_edited_functions_as_a_diff_before_the_rows(run, monkeypatch, fmt) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    code, out, err = run("demo", "--format", fmt)
    assert code == 0, err
    lines = out.splitlines()
    edit = next(i for i, line in enumerate(lines) if line.startswith(("the edit:", "## The edit")))
    rows = next(i for i, line in enumerate(lines) if line.startswith(("runs:", "- runs:")))
    assert edit < rows
    shown = lines[edit:rows]
    for line in definition("edit_v1", "gate"):
        assert f"-{line}" in shown
    for line in definition("edit_v2", "gate") + definition("edit_v2", "postprocess"):
        assert f"+{line}" in shown
    # encoder is compiled in both runs and its definition did not change: not in the edit
    assert not any("def encoder" in line for line in shown)
    assert definition("edit_v1", "encoder") == definition("edit_v2", "encoder")
    if fmt == "markdown":
        assert "```diff" in shown


def test_json_and_html_stay_documents(run, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    code, out, _ = run("demo", "--format", "json")
    assert code == 0 and out.lstrip().startswith("{")
