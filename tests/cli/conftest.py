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


def unwrapped(text: str, hang: int = 4) -> list[str]:
    """The logical lines of a text view: a line indented `hang` further than the line before it is that line,
    wrapped to the terminal (dynamo_diff_compare.terminal_lines), and is joined back to it."""
    out: list[str] = []
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if out and line.strip() and indent == _indent(out[-1]) + hang:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def block(text: str, start: str) -> str:
    """A function's lines in a text view: its line (the first starting with `start`) and the lines indented under
    it, joined with newlines."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    end = next((i for i in range(first + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[first:end])


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
