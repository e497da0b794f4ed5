"""No CLI wording below the front ends: the packages under the CLI and the MCP server say what is so and point to a
next step with a hint (HintAction + args); the CLI, the MCP server and the editor extension each word every hint
from their own table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import typer.main
from dynamo_diff_cli.app import app
from dynamo_diff_cli.hints import CLI_HINTS
from dynamo_diff_compare import PLAIN_HINTS
from dynamo_diff_mcp.hints import MCP_HINTS
from dynamo_diff_schema import HintAction

ROOT = Path(__file__).resolve().parents[2]
BELOW_FRONT_ENDS = ("schema", "store", "match", "compare", "service")
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
NAMES_A_COMMAND = re.compile(rf"dynamo-diff ({'|'.join(map(re.escape, COMMANDS))})\b")
# Options of the commands the MCP server shares (import, compare, evidence): a next step, so a hint.
NAMES_AN_OPTION = re.compile(r"--(source-map|change|label|force-label|ranks|kind|format|by-function|report)\b")
# Strings that name a command and are no next step; each with why.
ALLOWED = {
    # The salt of every capture id: changing it changes every id.
    ("dynamo-diff-store/src/dynamo_diff_store/storage/_capture_file.py", "dynamo-diff capture\nreader "),
    # The verdict's heading names the program that gives it (`check`'s own output).
    ("dynamo-diff-compare/src/dynamo_diff_compare/gate.py", "dynamo-diff check: "),
    ("dynamo-diff-compare/src/dynamo_diff_compare/ci_summary.py", "### dynamo-diff check: "),  # its markdown
    # Column documentation in the Parquet files' metadata (what the evidence ids are for), not a message.
    (
        "dynamo-diff-service/src/dynamo_diff_service/_export.py",
        "the trace records behind it (dynamo-diff evidence CAPTURE ID)",
    ),
    ("dynamo-diff-service/src/dynamo_diff_service/_export.py", "e.g. 'r1-e42' (dynamo-diff evidence CAPTURE ID)"),
}
# `capture` records with the store's recording package, which only the CLI's `capture` command runs: its errors
# are that command's own (its options named as the user typed them).
CLI_ONLY = ("dynamo-diff-store/src/dynamo_diff_store/recording/",)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _descriptions(tree: ast.AST) -> set[int]:
    """Field(description=...) values: the schema's documentation, read with the JSON Schema like a docstring."""
    return {
        id(sub)
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword) and node.arg == "description"
        for sub in ast.walk(node.value)
        if isinstance(sub, ast.Constant)
    }


def strings_below_front_ends() -> list[tuple[str, int, str]]:
    """(file, line, text) of every string constant (f-string pieces too) outside docstrings and descriptions;
    comments are not in the tree."""
    out = []
    for package in BELOW_FRONT_ENDS:
        for path in sorted((ROOT / "packages" / f"dynamo-diff-{package}" / "src").rglob("*.py")):
            rel = str(path.relative_to(ROOT / "packages"))
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = _docstrings(tree) | _descriptions(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                    out.append((rel, node.lineno, node.value))
    return out


def test_the_walk_sees_the_strings_it_checks() -> None:
    strings = strings_below_front_ends()
    assert len(strings) > 2000 and {"no capture matches ", "analyze"} & {text for _, _, text in strings}
    assert "analyze" in COMMANDS and "list" in COMMANDS and NAMES_A_COMMAND.search("see `dynamo-diff list`")


def test_no_package_below_the_front_ends_names_a_cli_command() -> None:
    named = [
        f"{rel}:{line}: {text!r}"
        for rel, line, text in strings_below_front_ends()
        if NAMES_A_COMMAND.search(text) and (rel, text) not in ALLOWED
    ]
    assert named == [], "say what is so in the message and the next step as a Hint (dynamo_diff_schema.hints)"


def test_no_notice_or_error_below_the_front_ends_names_a_cli_option() -> None:
    named = [
        f"{rel}:{line}: {text!r}"
        for rel, line, text in strings_below_front_ends()
        if NAMES_AN_OPTION.search(text) and not rel.startswith(CLI_ONLY)
    ]
    assert named == [], "the option is the CLI's wording of a hint: put it in dynamo_diff_cli/hints.py"


def _editor_table() -> dict[str, str]:
    text = (ROOT / "extension/src/common/hints.ts").read_text(encoding="utf-8")
    body = text.split("export const EDITOR_HINTS", 1)[1].split("\n};", 1)[0]
    return dict(re.findall(r'^  ([a-z_]+):\s*\n?\s*"((?:[^"\\]|\\.)*)"', body, re.M))


def test_every_hint_has_a_wording_in_each_front_end() -> None:
    actions = {a.value for a in HintAction}
    tables = {"cli": CLI_HINTS, "mcp": MCP_HINTS, "extension": _editor_table(), "plain": PLAIN_HINTS}
    for name, table in tables.items():
        assert {str(k) for k in table} == actions, name
    # The CLI names its commands, MCP its tools, and only the CLI's table names a CLI option.
    assert "`dynamo-diff list`" in CLI_HINTS[HintAction.LIST_CAPTURES]
    assert "list_captures()" in MCP_HINTS[HintAction.LIST_CAPTURES]
    for name in ("mcp", "extension", "plain"):
        worded = " ".join(tables[name].values())
        assert "dynamo-diff list" not in worded and "dynamo-diff analyze" not in worded, name
    assert not any(NAMES_A_COMMAND.search(text) for text in PLAIN_HINTS.values())
    semantics = (ROOT / "docs/SEMANTICS.md").read_text(encoding="utf-8").split("### Hints", 1)[1]
    assert set(re.findall(r"^\| `([a-z_]+)` \|", semantics.split("\n## ", 1)[0], re.M)) == actions, "docs/SEMANTICS.md"


def test_a_hint_fills_only_the_arguments_its_action_has() -> None:
    # What each action's args hold (dynamo_diff_schema.hints); `capture` may also come from where a notice is shown.
    args = {"analyze_capture": {"capture"}, "compare_ranks": {"capture"}, "evidence_of_kind": {"capture", "kind"}}
    args |= {"name_the_change": {"key"}, "move_label": {"label"}}
    for table in (CLI_HINTS, MCP_HINTS, _editor_table(), PLAIN_HINTS):
        for action, text in table.items():
            assert set(re.findall(r"\{([a-z_]+)\}", text)) <= args.get(str(action), set()), (action, text)
