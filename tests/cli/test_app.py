"""The CLI skeleton as a user sees it: --version, -h, --store, and `schema`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dynamo_diff_cli import __version__
from dynamo_diff_cli.app import app
from typer.testing import CliRunner

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"dynamo-diff {__version__}"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_lists_store_and_commands(flag: str) -> None:
    result = runner.invoke(app, [flag])
    assert result.exit_code == 0
    assert "--store" in result.stdout and "DYNAMO_DIFF_STORE" in result.stdout
    assert "schema" in result.stdout


@pytest.mark.parametrize("kind", ["capture", "comparison", "manifest"])
def test_schema_prints_valid_json_schema(kind: str) -> None:
    result = runner.invoke(app, ["schema", "--kind", kind])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["$schema"].endswith("2020-12/schema") and doc["$id"].endswith(f"{kind}.schema.json")


def test_schema_to_file(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = runner.invoke(app, ["schema", "--kind", "manifest", "--output", str(out)])
    assert result.exit_code == 0
    assert json.loads(out.read_text())["title"] == "Manifest"


def test_unknown_kind_is_rejected() -> None:
    result = runner.invoke(app, ["schema", "--kind", "nope"])
    assert result.exit_code == 2


def test_entry_point_subprocess(tmp_path: Path) -> None:
    """The installed console script really runs (not just the Typer object)."""
    exe = Path(sys.executable).with_name("dynamo-diff")
    env = {**os.environ, "DYNAMO_DIFF_STORE": str(tmp_path / "s")}
    done = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"dynamo-diff {__version__}"
