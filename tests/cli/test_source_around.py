"""What changed in the source, around a compiled function too, on the call_site pair (a mark_dynamic added in the
loop that calls the function, the function renamed and moved to layers.py) and the edit pair: compare's text,
markdown and JSON, and `dynamo-diff source` with a second capture, --file and --context. Line numbers are read from
the workloads' own files and the call lines from the raw traces' dynamo_start stacks, never from our analysis."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dynamo_diff_cli.app import app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
WORKLOADS = ROOT / "fixtures/workloads"
V1, V2 = str(CAPTURES / "call_site_v1"), str(CAPTURES / "call_site_v2")
MARK = "torch._dynamo.mark_dynamic(x, 0)"


def line_of(path: Path, text: str) -> int:
    (number,) = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return number


def call_lines(capture: Path, function: str) -> set[int]:
    """The line of `function`'s frame in every dynamo_start stack of the raw trace."""
    found = set()
    for log in (capture / "raw").glob("*.log"):
        for line in log.read_text().splitlines():
            start = line.find('{"dynamo_start": ')
            if start < 0:
                continue
            record = json.loads(line[start:])
            found |= {f["line"] for f in record["dynamo_start"]["stack"] if f.get("name") == function}
    return found


def oracle_recompiles(name: str) -> int:
    oracle = json.loads((CAPTURES / name / "oracle.json").read_text())
    return sum(len(reasons) for reasons in oracle["guard_failures"].values())


def test_the_row_names_both_sides_and_the_call_site_lines_that_changed(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("compare", V1, V2, "--format", "json")
    assert code == 0, err
    (row,) = json.loads(out)["functions"]
    b, c = row["baseline"], row["candidate"]
    main_v1, main_v2 = WORKLOADS / "call_site_v1/main.py", WORKLOADS / "call_site_v2/main.py"
    layers = WORKLOADS / "call_site_v2/layers.py"
    assert (b["qualified_name"], b["file"], b["line"]) == ("preprocess", "main.py", line_of(main_v1, "def preprocess"))
    assert (c["qualified_name"], c["file"], c["line"]) == ("prepare_inputs", "layers.py", line_of(layers, "def prep"))
    # torch's own count: one guard failure in v1 (the size of dimension 0), none in v2.
    assert (oracle_recompiles("call_site_v1"), oracle_recompiles("call_site_v2")) == (1, 0)
    assert row["deltas"]["confirmed_recompilation_identities"] == -1
    sources = {ch["baseline"]["role"]: ch for ch in row["changes"] if ch["kind"] == "source"}
    assert set(sources) == {"function", "caller"}
    caller = sources["caller"]
    mark = line_of(main_v2, MARK)
    assert {"line": mark, "text": "            " + MARK} in caller["candidate"]["added"]
    assert not any(MARK in item["text"] for item in caller["baseline"]["removed"])
    assert caller["baseline"]["function"] == caller["candidate"]["function"] == "main.<locals>.body"
    # The call into the compiled function, where torch's stack says it was made.
    assert {caller["baseline"]["call_line"]} == call_lines(CAPTURES / "call_site_v1", "body")
    assert {caller["candidate"]["call_line"]} == call_lines(CAPTURES / "call_site_v2", "body")
    # Its evidence is the dynamo_start record whose stack names that call.
    (evidence,) = caller["candidate_evidence"]
    code, excerpt, _ = run("evidence", "call_site_v2", evidence)
    assert code == 0 and '"dynamo_start"' in excerpt and "o.call(compiled, prepare_inputs, x)" in excerpt
    # The function's own change is its renamed def line, nothing else (the body moved whole).
    function = sources["function"]
    assert [i["text"] for i in function["baseline"]["removed"]] == ["def preprocess(x):"]
    assert [i["text"] for i in function["candidate"]["added"]] == ["def prepare_inputs(x):"]

    code, text, _ = run("compare", V1, V2)
    assert code == 0
    assert f"preprocess (main.py:{b['line']}) -> prepare_inputs (layers.py:{c['line']}) [matched (structure)]" in text
    assert f"+ {mark}: {MARK}" in text
    assert f"the call at line {caller['baseline']['call_line']} -> {caller['candidate']['call_line']}" in text
    assert f"[evidence: baseline {', '.join(caller['baseline_evidence'])}; candidate {evidence}]" in text
    code, markdown, _ = run("compare", V1, V2, "--format", "markdown")
    assert code == 0 and f"+ {mark}: {MARK}" in markdown and "-&gt;" not in markdown
    assert f"preprocess (main.py:{b['line']}) -> prepare_inputs (layers.py:{c['line']})" in markdown


def test_at_80_columns_the_source_lines_wrap_and_are_never_cut(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")})
    result = runner.invoke(app, ["compare", V1, V2])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    joined = " ".join(line.strip() for line in lines)
    assert f"+ {line_of(WORKLOADS / 'call_site_v2/main.py', MARK)}: {MARK}" in joined


def test_a_function_moved_within_its_file_is_named_with_both_lines(run) -> None:  # type: ignore[no-untyped-def]
    first = line_of(WORKLOADS / "edit_v1/model.py", "def encoder")
    moved = line_of(WORKLOADS / "edit_v2/model.py", "def encoder")
    assert first != moved
    code, out, _ = run("compare", str(CAPTURES / "edit_v1"), str(CAPTURES / "edit_v2"))
    assert code == 0
    # Its compilation did not change, so it stays folded, named with both lines.
    assert re.search(rf"unchanged function\(s\) not shown .*encoder \(model\.py:{first} -> {moved}\)", out)
    code, out, _ = run("compare", str(CAPTURES / "edit_v1"), str(CAPTURES / "edit_v2"), "--format", "json")
    (encoder,) = [r for r in json.loads(out)["functions"] if (r["baseline"] or {}).get("qualified_name") == "encoder"]
    assert (encoder["baseline"]["line"], encoder["candidate"]["line"]) == (first, moved)


def test_source_diff_of_a_function_follows_its_row_and_shows_the_call_site(run) -> None:  # type: ignore[no-untyped-def]
    run("import", V1)
    run("import", V2)
    mark = line_of(WORKLOADS / "call_site_v2/main.py", MARK)
    code, out, err = run("source", "call_site_v1", "call_site_v2", "preprocess")
    assert code == 0, err
    assert "-def preprocess(x):\n+def prepare_inputs(x):" in out  # the renamed function, against its old self
    assert f"+            {MARK}" in out
    assert "a function that called it (the call site)" in err
    # The same through --diff, by either run's name, and as JSON.
    assert run("source", "call_site_v1", "prepare_inputs", "--diff", "call_site_v2")[1] == out
    code, out, _ = run("source", "call_site_v1", "call_site_v2", "preprocess", "--format", "json")
    document = json.loads(out)
    assert document["kind"] == "source_diff" and document["function"] == "preprocess"
    assert [f["role"] for f in document["functions"]] == ["function", "caller"]
    caller = document["functions"][1]
    hunk = next(line for line in caller["lines"] if line.startswith("@@"))
    start, count = (int(n) for n in re.match(r"@@ -\d+,\d+ \+(\d+),(\d+) @@", hunk).groups())  # type: ignore[union-attr]
    assert start <= mark < start + count  # the hunk header carries the file's line numbers
    assert caller["candidate_evidence"]


def test_source_of_a_whole_file_its_diff_and_context_lines(run) -> None:  # type: ignore[no-untyped-def]
    run("import", V1)
    run("import", V2)
    layers = (WORKLOADS / "call_site_v2/layers.py").read_text().splitlines()
    code, out, _ = run("source", "call_site_v2", "--file", "layers.py")
    assert code == 0
    assert [line.split(" | ", 1)[1] if " | " in line else "" for line in out.splitlines()] == layers
    code, out, _ = run("source", "call_site_v2", "prepare_inputs", "--context", "2")
    first = line_of(WORKLOADS / "call_site_v2/layers.py", "def prepare_inputs")
    numbers = [int(line.split(" | ", 1)[0]) for line in out.splitlines()]
    assert numbers == list(range(first - 2, len(layers) + 1))  # 2 before; the file ends after the function
    code, out, _ = run("source", "call_site_v1", "call_site_v2", "--file", "main.py")
    assert code == 0 and out.startswith("--- baseline/main.py\n+++ candidate/main.py\n")
    assert f"+            {MARK}" in out and "+from layers import prepare_inputs" in out
    code, out, _ = run("source", "call_site_v1", "call_site_v2", "--file", "layers.py", "--format", "json")
    (whole,) = json.loads(out)["functions"]
    assert whole["role"] == "file" and whole["baseline"] is None and whole["candidate"] == "layers.py"


def test_source_refuses_what_it_cannot_answer_with_a_code(run) -> None:  # type: ignore[no-untyped-def]
    run("import", V1)
    code, _, err = run("source", "call_site_v1", "--file", "layers.py")
    assert code == 2 and "error[missing_snapshot]" in err and "main.py" in err  # says which files it holds
    code, _, err = run("source", "call_site_v1", "a", "b", "c")
    assert code == 2 and "error[invalid_argument]" in err
    code, _, err = run("source", "call_site_v1", "call_site_v1", "preprocess", "--file", "main.py")
    assert code == 2 and "error[invalid_argument]" in err
    # With --file, one word after the capture is the second capture.
    code, _, err = run("source", "call_site_v1", "preprocess", "--file", "main.py")
    assert code == 2 and "error[unknown_capture]" in err
    code, _, err = run("source", "call_site_v1")
    assert code == 2 and "error[invalid_argument]" in err
