"""Regenerate the top-level `dynamo-diff --help` text that the executable prints without loading Typer.

Run after changing the app's commands or options: `uv run python tools/write_help.py`. A test fails when the stored
text and Typer's own rendering drift apart (tests/cli/test_startup.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "packages/dynamo-diff-cli/src/dynamo_diff_cli/help_text.py"
RENDER = "import sys; sys.argv = ['dynamo-diff', '--help']; from dynamo_diff_cli.app import app; app()"
WIDTH = 80
# What makes rich render plain text, or colour as on a terminal (named colours and bold/dim only: the same codes
# on every colour system).
PLAIN = {"NO_COLOR": "1", "TERM": "dumb"}
COLOUR = {"FORCE_COLOR": "1", "TERM": "xterm-256color"}
DROPPED = ("NO_COLOR", "FORCE_COLOR", "PY_COLORS", "COLORTERM", "TERMINAL_WIDTH", "GITHUB_ACTIONS", "TERM")


def rendered(*, colour: bool = False) -> str:
    """Typer's help for the top level, as rich prints it 80 columns wide (less the spaces that end its lines)."""
    base = {k: v for k, v in os.environ.items() if k not in DROPPED}
    environment = base | {"COLUMNS": str(WIDTH)} | (COLOUR if colour else PLAIN)
    done = subprocess.run([sys.executable, "-c", RENDER], capture_output=True, text=True, env=environment, check=True)
    return "".join(line.rstrip() + "\n" for line in done.stdout.splitlines())


def main() -> None:
    plain, colour = rendered(), rendered(colour=True)
    assert '"""' not in plain and "\\" not in plain and "\x1b" in colour
    lines = "".join(f"    {json.dumps(line, ensure_ascii=False)}\n" for line in colour.splitlines(keepends=True))
    TARGET.write_text(
        '"""The top-level help, as Typer renders it 80 columns wide, plain and in colour (a terminal\'s):\n'
        "`dynamo-diff --help` prints it without importing Typer. Written by tools/write_help.py; a test checks it\n"
        'against Typer\'s own."""\n'
        "\n"
        "# ruff: noqa: E501 (the coloured lines are 80 columns of text and their escape codes)\n"
        "\n"
        f'HELP = """{plain}"""\n'
        "\n"
        f"HELP_COLOUR = (\n{lines})\n",
        encoding="utf-8",
    )
    print(f"wrote {TARGET.relative_to(TARGET.parents[4])}")


if __name__ == "__main__":
    main()
