"""Every `--format json` output of the CLI is a schema document: it says its `kind`, and `<kind>.schema.json` (the
committed file `dynamo-diff schema --kind KIND` prints) validates it. Run on real fixture captures, as a user runs
the commands; a command that gains `--format json` without a case here fails `test_every_json_command_is_covered`."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from dynamo_diff_cli.app import app
from typer.main import get_command
from typer.testing import CliRunner

from tests.cli.conftest import Run, unwrapped

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _stable_shape(run: Run) -> None:
    for name in ("stable", "shape"):
        code, _, err = run("import", str(CAPTURES / name), "--label", name)
        assert code == 0, err


def _first_evidence(run: Run, capture: str, kind: str) -> str:
    code, out, err = run("evidence", capture, "--kind", kind, "--format", "json")
    assert code == 0, err
    return str(json.loads(out)["items"][0]["id"])


def _evidence_excerpt(run: Run) -> list[str]:
    return ["evidence", "shape", _first_evidence(run, "shape", "compilation_metrics"), "--format", "json"]


def _evidence_grep(run: Run) -> list[str]:
    ev = _first_evidence(run, "shape", "recompile_reasons")
    return ["evidence", "shape", ev, "--grep", "size mismatch", "--format", "json"]


def _rm(run: Run) -> list[str]:
    _, out, _ = run("list", "--format", "json")
    return ["rm", json.loads(out)["captures"][0]["id"], "--format", "json"]


# command -> (the arguments, given a store with stable and shape imported; the exit status; the kind printed)
CASES: dict[str, tuple[Callable[[Run], list[str]], int, str]] = {
    "import": (lambda run: ["import", str(CAPTURES / "edit_v1"), "--format", "json"], 0, "import_result"),
    "list": (lambda run: ["list", "--format", "json"], 0, "capture_list"),
    "analyze": (lambda run: ["analyze", "shape", "--format", "json"], 0, "capture"),
    "analyze --by-function": (lambda run: ["analyze", "shape", "--by-function", "--format", "json"], 0, "run_report"),
    "show": (lambda run: ["show", "stable", "--format", "json"], 0, "capture"),
    "compare": (lambda run: ["compare", "stable", "shape", "--format", "json"], 0, "comparison"),
    "compare --ranks": (
        lambda run: ["compare", str(CAPTURES / "two_ranks"), "--ranks", "--format", "json"],
        0,
        "rank_view",
    ),
    "check": (
        lambda run: [
            "check",
            "stable",
            "shape",
            "--max-new-recompiles",
            "0",
            "--change",
            "command",
            "--format",
            "json",
        ],
        1,
        "check",
    ),
    "demo": (lambda run: ["demo", "--format", "json"], 0, "comparison"),
    "evidence": (lambda run: ["evidence", "shape", "--format", "json"], 0, "evidence_index"),
    "evidence EVIDENCE_ID": (_evidence_excerpt, 0, "evidence_excerpt"),
    "evidence --grep": (_evidence_grep, 0, "evidence_grep"),
    "evidence --grep (every record)": (
        lambda run: ["evidence", "shape", "--grep", "size mismatch", "--format", "json"],
        0,
        "evidence_search",
    ),
    "source": (lambda run: ["source", "shape", "f", "--format", "json"], 0, "source"),
    "source --diff": (
        lambda run: ["source", "edit_v1", "--diff", str(CAPTURES / "edit_v2"), "--format", "json"],
        0,
        "source_diff",
    ),
    "verify": (lambda run: ["verify", "--format", "json"], 0, "verify_report"),
    "rm": (_rm, 0, "removed"),
    "an error": (lambda run: ["analyze", "no-such-capture", "--format", "json"], 2, "error"),
}


def committed_schema(run: Run, kind: str) -> dict:  # type: ignore[type-arg]
    code, out, err = run("schema", "--kind", kind)
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_json_output_validates_against_the_schema_its_kind_names(
    case: str, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # demo finds the retained pair from here
    _stable_shape(run)
    if case == "source --diff":
        assert run("import", str(CAPTURES / "edit_v1"), "--label", "edit_v1")[0] == 0
    args, status, kind = CASES[case]
    code, out, err = run(*args(run))
    assert code == status, err
    document = json.loads(err if kind == "error" else out)
    assert document["kind"] == kind and document["schema_version"]
    jsonschema.Draft202012Validator(committed_schema(run, kind)).validate(document)
    # The file of another kind refuses it: `kind` is what tells them apart.
    other = "capture" if kind != "capture" else "comparison"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(committed_schema(run, other)).validate(document)


def _json_commands() -> set[str]:
    """The commands whose help offers json output (`--format ... json`, or `--json`): read from each command's
    own `--help`, as a user finds it."""
    commands = getattr(get_command(app), "commands", {})
    assert "import" in commands
    runner = CliRunner(env={"COLUMNS": "200"})
    found = set()
    for name in commands:
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, result.output
        if "json" in result.output:  # lowercase: a format or a flag ("JSON object" is an input)
            found.add(name)
    return found


def test_every_json_command_is_covered() -> None:
    covered = {case.split()[0] for case in CASES if case != "an error"} | {"export"}  # export: below
    assert _json_commands() == covered


def test_check_json_says_which_rules_fired_and_what_the_exit_status_means(run: Run) -> None:
    """stable -> shape: two confirmed recompilations more (shape's oracle: 2 recompiles, stable's 0)."""
    _stable_shape(run)
    code, out, err = run(
        "check", "stable", "shape", "--max-new-recompiles", "0", "--change", "command", "--format", "json"
    )
    assert code == 1, err
    verdict = json.loads(out)
    assert oracle("shape")["expect"]["recompiles"] - oracle("stable")["expect"]["recompiles"] == 2
    assert verdict["passed"] is False and verdict["exit_code"] == 1 and verdict["fired"] == ["recompilations"]
    (fired,) = [f for f in verdict["findings"] if f["level"] == "fail"]
    assert fired["text"] == "FAIL confirmed recompilations: 0 -> 2 (+2, allowed +0)"
    assert fired["functions"][0].startswith("       f (stable.py:13) -> f (shape.py:9): 0 -> 2")
    assert verdict["bounds"]["max_new_recompiles"] == 0 and verdict["bounds"]["max_new_graph_breaks"] is None
    # The text is the same findings, line for line.
    code, text, _ = run("check", "stable", "shape", "--max-new-recompiles", "0", "--change", "command")
    assert code == 1
    lines = [f for finding in verdict["findings"] for f in (finding["text"], *finding["functions"])]
    assert unwrapped(text) == ["dynamo-diff check: FAILED", *lines]  # each wrapped to the terminal's width
    code, out, _ = run(
        "check", "stable", "shape", "--max-new-recompiles", "2", "--change", "command", "--format", "json"
    )
    assert code == 0 and json.loads(out)["passed"] is True and json.loads(out)["fired"] == []


def test_a_folder_of_runs_is_imported_run_by_run(run: Run, tmp_path: Path) -> None:
    """A folder whose sub-folders are bundles: each imported, labelled by its folder name; the ids are those each
    bundle gets on its own."""
    folder = tmp_path / "runs"
    for name in ("edit_v1", "edit_v2"):
        shutil.copytree(CAPTURES / name, folder / f"{name}_copy")
    code, out, err = run("import", str(folder), "--format", "json")
    assert code == 0, err
    imported = json.loads(out)
    assert imported["kind"] == "import_result" and imported["folder_of_runs"] is True
    assert [(c["label"], c["created"]) for c in imported["captures"]] == [
        ("edit_v1_copy", True),
        ("edit_v2_copy", True),
    ]
    for entry, name in zip(imported["captures"], ("edit_v1", "edit_v2"), strict=True):
        code, alone, err = run("import", str(CAPTURES / name), "--format", "json")
        assert code == 0, err
        (single,) = json.loads(alone)["captures"]
        assert single["id"] == entry["id"] and single["created"] is False
        # edit_v1/oracle.json: 3 compilations; its summary says the same.
        expect = oracle(name)["expect"]
        assert entry["summary"]["counts"]["observed_compilation_identities"] == expect["compilations"]
    code, text_out, err = run("import", str(folder))
    assert code == 0 and text_out.split() == [c["id"] for c in imported["captures"]]
    assert "already in the store (same bytes): " in err and "2 run(s) in the folder" in err
    code, _, err = run("import", str(folder), "--label", "x")
    assert code == 2 and "error[invalid_argument]" in err and "a folder of runs is imported without a label" in err


def test_schema_prints_every_document_kind(run: Run) -> None:
    from dynamo_diff_cli.schema_cmd import SchemaKind
    from dynamo_diff_schema import KINDS

    assert {k.value for k in SchemaKind} == set(KINDS)
    printed = {kind: committed_schema(run, kind)["$id"].rsplit("/", 1)[1] for kind in KINDS}
    assert printed == {kind: f"{kind}.schema.json" for kind in KINDS}


def test_export_json_is_an_export_result(run: Run, tmp_path: Path) -> None:
    _stable_shape(run)
    code, out, err = run("export", "stable", "shape", "--out", str(tmp_path / "tables"), "--json")
    assert code == 0, err
    document = json.loads(out)
    jsonschema.Draft202012Validator(committed_schema(run, "export_result")).validate(document)
    assert document["kind"] == "export_result" and len(document["captures"]) == 2
    written = sorted(p.name for p in (tmp_path / "tables").glob("*.parquet"))
    assert written == sorted(f"{t}.parquet" for t in document["rows"])
