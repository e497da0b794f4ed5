"""The `dynamo-diff` executable: `--version` answers before anything else is imported; every other call builds
the Typer app (whose commands import the packages that do the work only when they run)."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from dynamo_diff_cli import __version__

        sys.stdout.write(f"dynamo-diff {__version__}\n")
        return
    from dynamo_diff_cli.app import app

    app()
