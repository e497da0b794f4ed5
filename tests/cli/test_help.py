"""The help as a user reads it: conventional placeholders (PATH, TEXT, INTEGER, a metavar), the choices of every
enumerated option, usage on a bare `dynamo-diff`, shell completion, and `schema --kind` taking every kind."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from dynamo_diff_cli.app import app
from dynamo_diff_schema import KINDS
from typer.testing import CliRunner

EXECUTABLE = str(Path(sys.executable).with_name("dynamo-diff"))
GROUP = typer.main.get_command(app)
COMMANDS = sorted(GROUP.commands)  # type: ignore[attr-defined]
# Typer's own placeholders, derived from a parameter's Python type: `<str>`, `<path>`, `<list[str]>`, `<bool>`,
# `<int range>`, and a required argument's `{path}` in the usage line.
TYPE_PLACEHOLDER = re.compile(r"<(str|path|file|dir|bool|int|float|list\[[^\]]*\]|[a-z]+ range)>|\{[a-z_]+\}")


def help_of(*args: str, columns: int = 100) -> str:
    runner = CliRunner(env={"COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"})
    result = runner.invoke(app, [*args, "--help"])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("columns", [80, 100])
def test_help_uses_conventional_placeholders_and_fits(command: str, columns: int) -> None:
    text = help_of(command, columns=columns)
    assert TYPE_PLACEHOLDER.findall(text) == [], text
    assert max(len(line) for line in text.splitlines()) <= columns
    assert f"Usage: dynamo-diff {command} [OPTIONS]" in text


def test_placeholders_say_what_goes_there() -> None:
    assert "Usage: dynamo-diff import [OPTIONS] PATH" in help_of("import")
    assert "Usage: dynamo-diff evidence [OPTIONS] ID [EVIDENCE_ID]" in help_of("evidence")
    assert "Usage: dynamo-diff export [OPTIONS] CAPTURE..." in help_of("export")
    check = help_of("check")
    assert "Usage: dynamo-diff check [OPTIONS] BASE CAND" in check
    assert re.search(r"--max-new-recompiles +INTEGER \[x>=0\]", check)
    assert re.search(r"--source-map +FILE ", check)
    assert re.search(r"--store +PATH ", help_of())
    flags = re.search(r"--allow-empty +(\S+)", check)
    assert flags is not None and flags.group(1) == "Check"  # a flag takes no value: no placeholder


def enumerated() -> list[tuple[str, str, list[str]]]:
    """(command, option, its choices) for every option whose values are an enumeration."""
    found = []
    for name in COMMANDS:
        command = GROUP.commands[name]  # type: ignore[attr-defined]
        for param in command.params:
            desc = getattr(param, "type_descriptor", None)
            if desc is not None and desc.is_choice:
                found.append((name, param.opts[0], [str(getattr(c, "value", c)) for c in desc.choices]))
    return found


def test_the_enumerated_options_are_the_ones_we_expect() -> None:
    """Every option with a closed set of values is an enumeration (compare --format was a free string; export
    --format stays one: its one value, parquet, is in its help, and another is the service's invalid_argument)."""
    options = {(command, option) for command, option, _ in enumerated()}
    for command in ("compare", "demo", "import", "analyze", "list", "show", "check", "evidence", "source", "verify"):
        assert (command, "--format") in options
    assert {("import", "--executor"), ("schema", "--kind")} <= options


@pytest.mark.parametrize(("command", "option", "choices"), enumerated())
def test_an_enumerated_option_shows_its_choices(command: str, option: str, choices: list[str]) -> None:
    text = help_of(command)
    line = next(line for line in text.splitlines() if re.search(rf"{option}\b", line))
    if len(choices) <= 5:
        assert "[" + "|".join(choices) + "]" in line
    else:  # too many for the type column: listed in the option's help
        assert all(re.search(rf"\b{choice}\b", text) for choice in choices)


def test_a_bad_choice_is_refused_with_the_choices() -> None:
    runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
    result = runner.invoke(app, ["compare", "a", "b", "--format", "yaml"])
    assert result.exit_code == 2
    assert "yaml" in result.stderr and all(word in result.stderr for word in ("text", "markdown", "json", "html"))


def test_bare_dynamo_diff_prints_the_usage_with_its_commands() -> None:
    """Exit 2 as for any other usage error (click's convention): a script that calls it without a command
    fails; the usage goes to stdout as `--help` does."""
    environment = os.environ | {"COLUMNS": "100", "NO_COLOR": "1"}
    done = subprocess.run([EXECUTABLE], capture_output=True, text=True, env=environment, check=False)
    assert done.returncode == 2
    assert "Usage: dynamo-diff [OPTIONS] COMMAND [ARGS]..." in done.stdout
    assert all(re.search(rf"│ {name} ", done.stdout) for name in COMMANDS)
    assert "Missing command" not in done.stdout + done.stderr


def test_shell_completion() -> None:
    """`--install-completion` and `--show-completion` are offered; the completion script completes choices."""
    text = help_of()
    assert "--install-completion" in text and "--show-completion" in text
    environment = os.environ | {"SHELL": "/bin/bash"}
    script = subprocess.run(
        [EXECUTABLE, "--show-completion", "bash"], capture_output=True, text=True, env=environment, check=True
    )
    assert "_DYNAMO_DIFF_COMPLETE=complete_bash" in script.stdout
    completing = environment | {
        "_DYNAMO_DIFF_COMPLETE": "complete_bash",
        "COMP_WORDS": "dynamo-diff compare --format ",
        "COMP_CWORD": "3",
    }
    done = subprocess.run([EXECUTABLE], capture_output=True, text=True, env=completing, check=True)
    assert done.stdout.split() == ["text", "markdown", "json", "html"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_schema_kind_takes_every_kind(kind: str) -> None:
    runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
    result = runner.invoke(app, ["schema", "--kind", kind])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["$id"].endswith(f"/{kind}.schema.json")
    assert re.search(rf"\b{kind}\b", help_of("schema"))


def test_the_mcp_servers_help_is_in_the_same_style() -> None:
    """`dynamo-diff-mcp --help`: the options `dynamo-diff serve-mcp` and `dynamo-diff --store` take, with the
    same names, placeholders and headings."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("dynamo-diff-mcp")), "--help"], capture_output=True, text=True, check=True
    )
    text = done.stdout
    assert text.startswith("Usage: dynamo-diff-mcp [OPTIONS]") and "\nOptions:\n" in text
    assert re.search(r"--allow-root DIR ", text) and re.search(r"--store PATH ", text)
    assert "DYNAMO_DIFF_STORE" in text and "-h, --help        Show this message and exit." in text
    assert re.search(r"--allow-root +DIR ", help_of("serve-mcp")) and re.search(r"--store +PATH ", help_of())


def test_the_top_level_help_is_enough_for_the_common_questions() -> None:
    """One `--help` call: its guide names, for each common question, a command with the options it needs (each
    one an option that command has) and an example of each main command, and the whole help stays within 4,500
    characters at an agent's 120 columns."""
    done = subprocess.run(
        [EXECUTABLE, "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1"},
        check=True,
    )
    text = done.stdout
    assert len(text) <= 4_500, len(text)
    guide = text.split("Questions -> commands", 1)[1]
    used: dict[str, set[str]] = {}
    for line in guide.splitlines():
        words = line.split()
        for at, word in enumerate(words):
            if (
                word in GROUP.commands
                and at + 1 < len(words)
                and (words[at + 1].isupper() or words[at + 1].startswith("--"))
            ):  # type: ignore[attr-defined]
                used.setdefault(word, set()).update(re.findall(r"--[a-z][a-z-]*", line[line.index(word) :]))
    assert set(used) >= {"analyze", "compare", "source", "evidence", "check", "schema"}, used
    for name, flags in used.items():
        command = GROUP.commands[name]  # type: ignore[attr-defined]
        own = {opt for p in command.params for opt in p.opts}
        assert flags - {"--format"} <= own, (name, flags - own)
    for needed in ("--by-function", "--change", "--file", "--diff", "--grep", "--kind", "--ranks", "--function"):
        assert needed in guide, needed
    # An example for each main command, with options that command has.
    examples = {line.split()[1]: line for line in guide.splitlines() if line.split()[:1] == ["e.g."]}
    assert set(examples) >= {"analyze", "compare", "evidence", "source"}, examples
    for name, line in examples.items():
        own = {opt for p in GROUP.commands[name].params for opt in p.opts}  # type: ignore[attr-defined]
        assert set(re.findall(r"(?<!\w)-{1,2}[a-z][a-z-]*", line)) <= own, (name, line)
