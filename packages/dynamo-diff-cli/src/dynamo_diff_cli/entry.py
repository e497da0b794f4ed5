"""The `dynamo-diff` executable: `--version` and the top-level `--help` answer before anything else is imported
(the help is Typer's own text, stored by tools/write_help.py); every other call builds the Typer app, whose
commands import the packages that do the work only when they run."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from dynamo_diff_cli import __version__

        sys.stdout.write(f"dynamo-diff {__version__}\n")
        return
    if sys.argv[1:] in (["--help"], ["-h"]):
        import shutil

        # Plain help is at most 80 columns wide; a narrower terminal gets Typer's own wrapping.
        if shutil.get_terminal_size().columns >= 80:
            from dynamo_diff_cli.help_text import HELP

            sys.stdout.write(HELP)
            return
    from dynamo_diff_cli.app import app

    app()
