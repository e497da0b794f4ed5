"""The `dynamo-diff` executable: `--version` and the top-level `--help` answer before anything else is imported
(the help is Typer's own rich help at 80 columns, stored by tools/write_help.py, in colour on a terminal); every
other call builds the Typer app, whose commands import the packages that do the work only when they run."""

from __future__ import annotations

import os
import sys


def colour(stream: object) -> bool:
    """Whether rich would colour this stream: a terminal, unless NO_COLOR is set or TERM is dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from dynamo_diff_cli import __version__

        sys.stdout.write(f"dynamo-diff {__version__}\n")
        return
    args = sys.argv[1:]
    if (len(args) == 3 and args[0] == "--store") or (len(args) == 2 and args[0].startswith("--store=")):
        args = args[-1:]  # `--store PATH --help`: the same help (the store option changes nothing in it)
    if args in (["--help"], ["-h"]):
        import shutil

        # The stored help is 80 columns wide; a narrower terminal gets Typer's own, at its width.
        if shutil.get_terminal_size().columns >= 80:
            from dynamo_diff_cli.help_text import HELP, HELP_COLOUR

            sys.stdout.write(HELP_COLOUR if colour(sys.stdout) else HELP)
            return
    from dynamo_diff_cli.app import app

    app()
