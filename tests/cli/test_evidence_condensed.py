"""`evidence REF ID` shows a record condensed: the user's stack frames kept, each run of torch/library frames one
line, the embedded configuration left out; `--full` the record as written. Checked against the record's bytes
read straight from the fixture's log (not through our reader) and the workload's own source lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GRAPH_BREAK = FIXTURES / "captures/graph_break"
DYNAMIC = FIXTURES / "captures/dynamic"
_TORCH_FILE = re.compile(r'File "[^"]*/site-packages/torch/[^"]*", line \d+')


def _line_of(workload: str, text: str) -> int:
    lines = (FIXTURES / "workloads" / workload).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _raw(capture: Path, entry: dict) -> str:  # type: ignore[type-arg]
    data = (capture / entry["file"]).read_bytes()[entry["offset"] : entry["offset"] + entry["length"]]
    return data.decode()


def _entry(run: Run, capture: Path, kind: str, number: int = 0) -> dict:  # type: ignore[type-arg]
    code, out, err = run("evidence", str(capture), "--kind", kind, "--format", "json")
    assert code == 0, err
    return json.loads(out)["items"][number]  # type: ignore[no-any-return]


def test_a_graph_break_traceback_keeps_the_user_frames_and_collapses_torch(run: Run) -> None:
    entry = _entry(run, GRAPH_BREAK, "dynamo_graph_break_reason", 1)  # the Tensor.item() break in with_item
    raw = _raw(GRAPH_BREAK, entry)
    torch_frames = len(_TORCH_FILE.findall(raw))
    assert torch_frames >= 5  # what made the excerpt long
    code, out, err = run("evidence", str(GRAPH_BREAK), entry["id"], "--max-chars", "100000")
    assert code == 0, err
    item_line = _line_of("graph_break.py", "s.item() > 0")
    assert f'graph_break.py", line {item_line}, in with_item' in out  # the user's frame, with its code
    assert "if s.item() > 0:" in out
    runs = [int(n) for n in re.findall(r"\.\.\. (\d+) frames in torch/_dynamo", out)]
    kept = len(_TORCH_FILE.findall(out))
    assert runs and sum(runs) + kept == torch_frames  # every torch frame collapsed or (alone) kept
    assert "Unsupported Tensor.item() call" in out  # the record's own words whole
    assert f"{sum(runs)} torch/library stack frames collapsed" in err and "--full" in err
    assert len(out) < len(raw) * 2 / 3
    # --full: the record as written, every character.
    code, out, _ = run("evidence", str(GRAPH_BREAK), entry["id"], "--full", "--max-chars", "100000", "-f", "json")
    doc = json.loads(out)
    assert code == 0 and doc["text"] == raw and doc["condensed"] is False


def test_a_json_stack_keeps_the_user_frame_with_its_path(run: Run) -> None:
    entry = _entry(run, DYNAMIC, "create_symbol")
    raw = _raw(DYNAMIC, entry)
    code, out, err = run("evidence", str(DYNAMIC), entry["id"], "--max-chars", "100000", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["condensed"] is True and doc["record_chars"] == len(raw) and doc["total_chars"] == len(doc["text"])
    body = json.loads(doc["text"][doc["text"].index("{") :])["create_symbol"]
    line = _line_of("dynamic.py", "return x.cos() + x.shape[0]")
    user = body["user_stack"][0]
    assert user["line"] == line and user["filename"].endswith("fixtures/workloads/dynamic.py")
    collapsed = [f for f in body["stack"] if isinstance(f, str)]
    assert collapsed and all(re.fullmatch(r"\.\.\. \d+ frames in torch/\S+.*\.\.\.", f) for f in collapsed)
    raw_stack = json.loads(raw[raw.index("{") : raw.rindex("}") + 1])["create_symbol"]["stack"]
    kept = [f for f in body["stack"] if isinstance(f, dict)]
    assert (
        len(kept) + sum(int(f.split()[1]) for f in collapsed) == len(raw_stack) == len(kept) + doc["collapsed_frames"]
    )
    assert body["symbol"] == json.loads(raw[raw.index("{") :])["create_symbol"]["symbol"]


def test_the_configuration_is_left_out_and_grep_still_reads_it(run: Run) -> None:
    entry = _entry(run, GRAPH_BREAK, "compilation_metrics")
    raw = _raw(GRAPH_BREAK, entry)
    code, out, _ = run("evidence", str(GRAPH_BREAK), entry["id"], "--max-chars", "100000", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    metrics = json.loads(doc["text"][doc["text"].index("{") :])["compilation_metrics"]
    whole = json.loads(raw[raw.index("{") :])["compilation_metrics"]
    assert re.fullmatch(r"<\d+ characters of configuration>", metrics["inductor_config"])
    assert metrics["compile_id"] == whole["compile_id"] and metrics["graph_op_count"] == whole["graph_op_count"]
    assert doc["config_chars"] >= len(whole["inductor_config"]) and len(doc["text"]) < len(raw) / 3


def test_the_index_is_one_line_per_entry(run: Run) -> None:
    code, out, _ = run("evidence", str(GRAPH_BREAK), "--format", "json")
    page = json.loads(out)
    code, out, err = run("evidence", str(GRAPH_BREAK))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(page["items"])
    (file,) = {e["file"] for e in page["items"]}  # one log: the heading names it, each line its line in it
    assert f"evidence 1-{len(lines)} of {page['total']}, all in {file}\n" in err
    for line, e in zip(lines, page["items"], strict=True):
        assert line.startswith(f"{e['id']} {e['kind']} ") and line.endswith(f"(line {e['line']})")


def test_grep_without_an_id_searches_every_record(run: Run) -> None:
    """recompile_limit: `--grep` without an evidence id lists each record whose own bytes (read from the log)
    hold the guard text, with its lines, and says how many matched in all and which records hold the rest."""
    capture = FIXTURES / "captures/recompile_limit"
    code, out, err = run("evidence", str(capture), "--format", "json")
    assert code == 0, err
    index = json.loads(out)["items"]
    expected = {
        e["id"]: n for e in index if (n := sum("size mismatch" in line for line in _raw(capture, e).splitlines()))
    }
    assert sum(expected.values()) == 5
    code, out, err = run("evidence", str(capture), "--grep", "size mismatch", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["kind"] == "evidence_search" and doc["total_matches"] == doc["shown_matches"] == 5
    assert {r["evidence"]["id"]: r["total_matches"] for r in doc["records"]} == expected
    code, out, err = run("evidence", str(capture), "--grep", "size mismatch", "--max-matches", "3")
    assert code == 0, err
    assert f"5 match(es) of 'size mismatch' in {len(expected)} of {len(index)} records" in err
    assert "... 2 more match(es), in " in err and "--max-matches N" in err
    assert [line.split()[0] for line in out.splitlines() if not line.startswith(" ")] == list(expected)[:3]
    assert "tensor 'x' size mismatch at index 0. expected 2, actual 3" in out


def test_grep_over_several_ids_searches_those_records(run: Run) -> None:
    """recompile_limit: two records holding the guard text (their own bytes say), named together with --grep: only
    they are searched, in trace order; without --grep each is shown in turn, as it is alone (JSON: a document a
    line); an id the capture lacks exits 2 with a code."""
    capture = FIXTURES / "captures/recompile_limit"
    code, out, err = run("evidence", str(capture), "--format", "json")
    assert code == 0, err
    index = json.loads(out)["items"]
    holding = [e["id"] for e in index if any("size mismatch" in line for line in _raw(capture, e).splitlines())]
    first, last = holding[0], holding[-1]
    code, out, err = run("evidence", str(capture), last, first, "--grep", "size mismatch", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["records_searched"] == doc["records_matched"] == 2
    assert [r["evidence"]["id"] for r in doc["records"]] == [first, last]
    code, out, err = run("evidence", str(capture), first, last, "--grep", "size mismatch")
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines() if not line.startswith(" ")] == [first, last]
    code, out, err = run("evidence", str(capture), first, last, "--max-chars", "100000")
    assert code == 0, err  # without --grep: each record in turn, whole as the log holds it (condensed the same)
    heads = [line for line in out.splitlines() if line.startswith("== ")]
    assert [h.split()[1].rstrip(":") for h in heads] == [first, last]
    code, one, _ = run("evidence", str(capture), last, "--max-chars", "100000")
    assert out.split(heads[1] + "\n", 1)[1].rstrip("\n") == one.rstrip("\n")
    code, out, err = run("evidence", str(capture), first, last, "--format", "json")
    assert code == 0, err
    assert [json.loads(line)["evidence"]["id"] for line in out.splitlines()] == [first, last]
    code, out, err = run("evidence", str(capture), first, "u1-e999", "--grep", "size")
    assert code == 2 and "error[unknown_evidence]" in err and "'u1-e999'" in err
