"""Regenerate the top-level `dynamo-diff --help` text that the executable prints without loading Typer.

Run after changing the app's commands or options: `uv run python tools/write_help.py`. A test fails when the stored
text and Typer's own rendering drift apart (tests/cli/test_startup.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "packages/dynamo-diff-cli/src/dynamo_diff_cli/help_text.py"
RENDER = "import sys; sys.argv = ['dynamo-diff', '--help']; from dynamo_diff_cli.app import app; app()"


def rendered() -> str:
    """Typer's help for the top level on a terminal at least 80 columns wide (plain help is at most 80 wide)."""
    environment = os.environ | {"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run([sys.executable, "-c", RENDER], capture_output=True, text=True, env=environment, check=True)
    return done.stdout


def main() -> None:
    text = rendered()
    assert '"""' not in text and "\\" not in text
    TARGET.write_text(
        '"""The top-level help, as Typer renders it on a terminal 80 or more columns wide: `dynamo-diff --help`\n'
        'prints it without importing Typer. Written by tools/write_help.py; a test checks it against Typer\'s own."""\n'
        "\n"
        f'HELP = """{text}"""\n',
        encoding="utf-8",
    )
    print(f"wrote {TARGET.relative_to(TARGET.parents[4])}")


if __name__ == "__main__":
    main()
