"""`dynamo-diff --version` and `--help` load only what they print: the packages that do the work (pydantic
models, the store, the comparison, rich's renderers) are imported by the commands that use them. Their time is
measured in tools/bench (docs/PERFORMANCE.md); here, what they import."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pydantic", "dynamo_diff_schema", "dynamo_diff_store", "dynamo_diff_compare", "dynamo_diff_match", "rich")

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
    """(Typer itself loads pydantic to describe a command's parameters.)"""
    assert [m for m in loaded(args) if not m.startswith("pydantic")] == []


def test_a_command_still_finds_its_packages(tmp_path) -> None:  # type: ignore[no-untyped-def]
    done = subprocess.run(
        [sys.executable, "-c", "from dynamo_diff_cli.entry import main; main()", "--store", str(tmp_path), "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "the store is empty" in done.stderr
