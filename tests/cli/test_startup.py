"""`dynamo-diff --version` and `--help` load only what they print: the packages that do the work (pydantic
models, the store, the comparison, rich's renderers) are imported by the commands that use them. Their time is
measured in tools/bench (docs/PERFORMANCE.md); here, what they import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dynamo_diff_cli.help_text import HELP, HELP_COLOUR

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import write_help

HEAVY = (
    "typer",
    "click",
    "pydantic",
    "dynamo_diff_schema",
    "dynamo_diff_store",
    "dynamo_diff_compare",
    "dynamo_diff_match",
    "rich",
)

PROBE = """
import json, sys
sys.argv = ["dynamo-diff", *json.loads(sys.argv[1])]
from dynamo_diff_cli.entry import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy})))
"""


def loaded(args: list[str]) -> list[str]:
    code = PROBE.replace("{heavy}", repr(set(HEAVY)))
    done = subprocess.run([sys.executable, "-c", code, json.dumps(args)], capture_output=True, text=True, check=True)
    assert done.stdout.strip(), "printed nothing"
    return list(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("args", [["--version"], ["--help"]])
def test_version_and_help_import_none_of_the_working_packages(args: list[str]) -> None:
    assert loaded(args) == []


@pytest.mark.parametrize("args", [["compare", "--help"], ["import", "--help"], ["capture", "--help"]])
def test_a_commands_help_imports_none_of_ours(args: list[str]) -> None:
    """(Typer itself loads pydantic to describe a command's parameters, and rich to print its help.)"""
    assert [m for m in loaded(args) if m.split(".")[0] not in ("pydantic", "typer", "click", "rich")] == []


def run_cli(args: list[str], columns: int) -> str:
    environment = os.environ | {"COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"}
    command = [str(Path(sys.executable).with_name("dynamo-diff")), *args]  # the installed executable
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_the_stored_top_level_help_is_typers_own(flag: str) -> None:
    """`dynamo-diff --help` prints a stored text without loading Typer: it must be what Typer prints at 80
    columns, plain and in colour (regenerate with `uv run python tools/write_help.py` after changing a command or
    option)."""
    assert run_cli([flag], columns=120) == write_help.rendered() == HELP
    assert write_help.rendered(colour=True) == HELP_COLOUR
    assert all(f" {name} " in HELP for name in ("capture", "import", "compare", "check", "export", "serve-mcp"))
    assert "--install-completion" in HELP and max(len(line) for line in HELP.splitlines()) <= 80


def test_the_store_option_before_help_gives_the_same_help(tmp_path: Path) -> None:
    """`dynamo-diff --store DIR --help` (a wrapper that always names its store) prints the same stored help, not
    Typer's at the terminal's width with every line padded to it."""
    assert run_cli(["--store", str(tmp_path), "--help"], columns=120) == HELP
    assert run_cli([f"--store={tmp_path}", "-h"], columns=120) == HELP


def test_a_terminal_gets_the_help_in_colour() -> None:
    """On a terminal (a real pseudo-terminal) the stored help is the coloured one; NO_COLOR turns it off."""
    import pty

    code = "import sys; sys.argv = ['dynamo-diff', '--help']; from dynamo_diff_cli.entry import main; main()"
    for no_colour, expected in ((False, HELP_COLOUR), (True, HELP)):
        leader, follower = pty.openpty()
        environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")} | {"COLUMNS": "100"}
        environment |= {"NO_COLOR": "1"} if no_colour else {"TERM": "xterm-256color"}
        with subprocess.Popen([sys.executable, "-c", code], stdout=follower, env=environment) as child:
            os.close(follower)
            chunks = []
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
        os.close(leader)
        assert child.returncode == 0
        assert b"".join(chunks).decode().replace("\r\n", "\n") == expected


def test_a_narrow_terminal_gets_typers_own_wrapping() -> None:
    narrow = run_cli(["--help"], columns=60)
    assert narrow != HELP and narrow.lstrip().startswith("Usage: dynamo-diff [OPTIONS] COMMAND [ARGS]...")
    assert max(len(line) for line in narrow.splitlines()) <= 60


def test_a_command_still_finds_its_packages(tmp_path) -> None:  # type: ignore[no-untyped-def]
    done = subprocess.run(
        [sys.executable, "-c", "from dynamo_diff_cli.entry import main; main()", "--store", str(tmp_path), "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "the store is empty" in done.stderr
