"""The `run` fixture: invoke the CLI like a user, with a private store and a wide terminal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_cli.app import app
from typer.testing import CliRunner

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(tmp_path: Path) -> Run:
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")})

    def invoke(*args: str) -> tuple[int, str, str]:
        result = runner.invoke(app, list(args))
        return result.exit_code, result.stdout, result.stderr

    return invoke
