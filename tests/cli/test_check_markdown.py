"""`dynamo-diff check --format markdown`: the gate's findings (the same as its text and json) as a table for a CI job's
summary, appended to the file $GITHUB_STEP_SUMMARY names when it is set. On the edit pair: edit_v1's `gate`
recompiles once on a value guard and edit_v2's does not (the workloads' oracles)."""

from __future__ import annotations

import json
from pathlib import Path

from dynamo_diff_cli.app import app
from typer.testing import CliRunner

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
PAIR = ("--max-new-recompiles", "0")


def check(tmp_path: Path, base: str, cand: str, *args: str, summary: Path | None = None) -> tuple[int, str]:
    env = {"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")}
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    result = CliRunner(env=env).invoke(app, ["check", str(CAPTURES / base), str(CAPTURES / cand), *PAIR, *args])
    return result.exit_code, result.stdout


def oracle_recompiles(name: str) -> int:
    data = json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))
    return int(data["expect"]["recompiles"])


def test_a_failing_pair_is_a_failed_table_with_the_same_findings_as_json(tmp_path: Path) -> None:
    code, text = check(tmp_path, "edit_v2", "edit_v1", "--format", "markdown")
    assert code == 1
    lines = text.splitlines()
    assert lines[0] == "### dynamo-diff check: ❌ FAILED"
    _, out = check(tmp_path, "edit_v2", "edit_v1", "--format", "json")
    verdict = json.loads(out)
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| |")]
    assert [row.split("`")[1] for row in rows] == [f["rule"] for f in verdict["findings"]]
    before, after = oracle_recompiles("edit_v2"), oracle_recompiles("edit_v1")
    (failed,) = [row for row in rows if row.startswith("| ❌ |")]
    assert f"`recompilations` | confirmed recompilations: {before} -> {after}" in failed
    assert "gate (model.py:" in failed and "flag == True" in failed and "(evidence u1-e" in failed


def test_a_passing_pair_and_the_step_summary(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    code, text = check(tmp_path, "edit_v1", "edit_v2", "-f", "markdown", summary=summary)
    assert code == 0 and text.startswith("### dynamo-diff check: ✅ passed")
    assert "❌" not in text
    assert summary.read_text(encoding="utf-8") == "earlier step\n" + text  # appended, not overwritten
    code, again = check(tmp_path, "edit_v2", "edit_v1", "-f", "markdown", summary=summary)
    assert code == 1 and summary.read_text(encoding="utf-8") == "earlier step\n" + text + again


def test_without_github_step_summary_nothing_else_is_written(tmp_path: Path) -> None:
    code, _ = check(tmp_path, "edit_v1", "edit_v2", "-f", "markdown")
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]
    # text and json are not appended to the summary
    summary = tmp_path / "summary.md"
    check(tmp_path, "edit_v1", "edit_v2", summary=summary)
    assert not summary.exists()


def test_an_unwritable_step_summary_is_an_error_with_a_code(tmp_path: Path) -> None:
    code, _ = check(tmp_path, "edit_v1", "edit_v2", "-f", "markdown", summary=tmp_path / "missing" / "summary.md")
    assert code == 2
