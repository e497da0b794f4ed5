"""The `run` fixture: invoke the CLI like a user, with a private store and a wide terminal; `hide_module`: an
optional extra that is not installed."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


@pytest.fixture
def hide_module(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """`hide_module("ray")`: importing that package (as the optional extras are imported, by name) fails as it does
    where it is not installed."""

    def hide(package: str) -> None:
        real = importlib.import_module

        def without(name: str, package_of: str | None = None) -> Any:
            if name == package or name.startswith(package + "."):
                raise ModuleNotFoundError(f"No module named {name!r}")
            return real(name, package_of)

        monkeypatch.setattr(importlib, "import_module", without)

    return hide
