"""What the CLI says next after an error or a notice: the layers below give a hint (a code with arguments), the CLI
words it as the `dynamo-diff` command to run; `--format json` keeps the code and arguments (error.schema.json)."""

from __future__ import annotations

import json
from pathlib import Path

from dynamo_diff_schema import validate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CORPUS = FIXTURES / "corpus/tlparse-tests"


def test_an_unknown_capture_says_which_command_lists_them(run) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run("show", "nope")
    assert code == 2
    assert err.strip().endswith("is empty (import a trace with `dynamo-diff import PATH`)"), err
    run("import", str(CORPUS / "artifacts.log"))
    code, _, err = run("show", "nope")
    assert code == 2 and err.startswith("error[unknown_capture]: no capture matches 'nope' in ")
    assert err.strip().endswith("(see `dynamo-diff list`)"), err
    code, _, err = run("show", "nope", "--format", "json")
    info = json.loads(err)
    validate(info, "error")
    assert info["hint"] == {"action": "list_captures", "args": {}} and "dynamo-diff" not in info["message"]


def test_an_unknown_function_names_the_analyze_command_of_its_capture(run) -> None:  # type: ignore[no-untyped-def]
    capture = run("import", str(CORPUS / "artifacts.log"))[1].splitlines()[0][:12]
    code, _, err = run("source", capture, "no_such_function")
    assert code == 2
    assert err.strip() == (
        f"error[unknown_function]: no function 'no_such_function' compiled or defined in the captured files of "
        f"capture {capture} (a name, Class.method, or FILE:LINE) (see `dynamo-diff analyze {capture}`)"
    )


def test_a_stored_notice_keeps_its_hint_and_the_text_words_it(run) -> None:  # type: ignore[no-untyped-def]
    # artifacts.log holds one fx_graph_cache_hash artifact (grep -c fx_graph_cache_hash: 1), a kind kept as
    # evidence but not interpreted.
    code, out, _ = run("import", str(CORPUS / "artifacts.log"), "--format", "json")
    assert code == 0
    (imported,) = json.loads(out)["captures"]  # an import_result: the capture's summary under its entry
    summary = imported["summary"]
    (notice,) = [n for n in summary["notices"] if n["code"] == "uninterpreted_record_kinds"]
    assert notice["hint"] == {"action": "evidence_of_kind", "args": {"kind": "fx_graph_cache_hash"}}
    assert "dynamo-diff" not in notice["message"]
    capture = summary["capture"]["id"][:12]
    _, text, _ = run("analyze", capture, "--verbose")  # the record kinds are listed with --verbose
    worded = f"`dynamo-diff evidence {capture} --kind fx_graph_cache_hash` lists the kept records of a kind"
    assert worded in " ".join(text.split()), text
    # ... and that command is one the CLI runs: it lists that record.
    code, listed, _ = run("evidence", capture, "--kind", "fx_graph_cache_hash", "--format", "json")
    assert code == 0 and "fx_graph_cache_hash" in listed
