"""The agent task suite through the CLI's JSON output, for an agent that has a shell."""

from __future__ import annotations

from pathlib import Path

import pytest
from dynamo_diff_cli.app import app
from typer.testing import CliRunner

from ..mcp.agent_tasks import FIXTURES, TASKS, Task, answered


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_each_question_is_answered_from_the_cli_json(
    tmp_path: Path, task: Task, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES)
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")})
    outputs = []
    for command in task.cli:
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.stderr
        outputs.append(result.stdout)
    assert len(outputs) <= task.max_calls
    assert answered(task, outputs) == [], task.question
