"""What torch's graph-break, restart and unfinished-compilation records say, as a user reads it (issue 30; issue 31,
item 6): a break's line names the operator and carries torch's first hint that asks for a change, its JSON keeps
torch's explanation, every hint in torch's order and the page torch links; a restart says what restarted it; a
compilation that never finished says the last record it reached.

Every expected value is read from the raw trace by the test itself (its own reading of the records, below), or
from the workload's oracle: the captures are real (fixtures/captures, torch 2.13; fixtures/corpus/tlparse-tests,
torch before 2.4)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dynamo_diff_store.analysis import parse_graph_break

from .conftest import Run

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
CORPUS = ROOT / "fixtures/corpus/tlparse-tests"
GENERIC = ("Please report an issue to PyTorch.", "Please file an issue to PyTorch.")


def records(log: Path) -> Iterator[tuple[dict[str, Any], str]]:
    """Each record of a raw TORCH_TRACE log: its metadata JSON and its payload (the TAB lines under it)."""
    meta: dict[str, Any] | None = None
    payload: list[str] = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("\t"):
            payload.append(line[1:])
            continue
        if meta is not None:
            yield meta, "\n".join(payload)
        meta, payload = None, []
        if "{" in line:
            meta = json.loads(line[line.index("{") :])
    if meta is not None:
        yield meta, "\n".join(payload)


def log_of(name: str) -> Path:
    (log,) = (CAPTURES / name / "raw").glob("*.log")
    return log


def break_records(name: str) -> list[str]:
    """The payloads of the capture's dynamo_graph_break_reason records, cut where torch's user traceback begins."""
    return [
        payload.split("\nUser code traceback:", 1)[0]
        for meta, payload in records(log_of(name))
        if meta.get("artifact", {}).get("name") == "dynamo_graph_break_reason"
    ]


def field(record: str, prefix: str) -> list[str]:
    return [line.removeprefix(prefix) for line in record.splitlines() if line.startswith(prefix)]


def flat(text: str) -> str:
    """The text with its wrapping undone: every run of whitespace one space (the consoles wrap at spaces)."""
    return " ".join(text.split())


def json_of(run: Run, *args: str) -> dict[str, Any]:
    code, out, err = run(*args, "--format", "json")
    assert code in (0, 1), err
    document: dict[str, Any] = json.loads(out)
    return document


def breaks_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [gb for rank in document["ranks"] for c in rank["compilations"] for gb in c["graph_breaks"]]


def test_a_break_keeps_torchs_explanation_hints_operator_and_page(run: Run) -> None:
    raw = break_records("graph_break")
    assert len(raw) == 2  # the oracle's graph_breaks
    shown = breaks_of(json_of(run, "analyze", str(CAPTURES / "graph_break")))
    assert len(shown) == len(raw)
    for gb, record in zip(shown, raw, strict=True):
        assert gb["explanation"] == field(record, "  Explanation: ")[0]
        assert gb["hints"] == field(record, "  Hint: ")  # verbatim, in torch's order, the generic one included
        (url,) = re.findall(r"please visit: (\S+)", record)
        assert gb["url"] == url and url.endswith(f"/{gb['gb_id']}.html")
        assert f"`{gb['operator']}" in gb["explanation"]  # named by the explanation itself
    assert [gb["operator"] for gb in shown] == ["print", "Tensor.item"]
    assert "Please report an issue to PyTorch." in shown[0]["hints"]


def test_a_dynamic_shape_operator_break_names_the_aten_operator(run: Run) -> None:
    # data_breaks: torch.nonzero's break (gb0036) names its operator only in the explanation, as
    # "Operator `aten.nonzero.default`'s output shape depends on input Tensor data."
    (record,) = [r for r in break_records("data_breaks") if "gb0036" in r]
    (named,) = re.findall(r"^  Explanation: Operator `([^`]+)`'s output shape", record, re.M)
    shown = [gb for gb in breaks_of(json_of(run, "analyze", str(CAPTURES / "data_breaks"))) if gb["gb_id"] == "gb0036"]
    assert [gb["operator"] for gb in shown] == [named] == ["aten.nonzero.default"]
    code, out, _ = run("analyze", str(CAPTURES / "data_breaks"))
    assert code == 0 and f"Dynamic shape operator `{named}` [gb0036]" in flat(out)


def test_the_break_line_names_the_operator_and_torchs_first_actionable_hint(run: Run) -> None:
    code, out, err = run("analyze", str(CAPTURES / "graph_break"))
    assert code == 0, err
    text = flat(out)
    first_hint = field(break_records("graph_break")[0], "  Hint: ")[0]
    url = re.findall(r"please visit: (\S+)", break_records("graph_break")[0])[0]
    # The text of line 11 in the bundle's source snapshot.
    source = CAPTURES / "graph_break/sources/fixtures/workloads/graph_break.py"
    line = source.read_text(encoding="utf-8").splitlines()[10].strip()
    assert line.startswith("print(")
    assert (
        f"graph_break.py:11: Failed to trace builtin operator `print` [gb0059]; its line: "
        f"`{flat(line)}`; torch's hint: {first_hint} torch's page for gb0059: {url}"
    ) in text
    # torch's type line already names Tensor.item: it is not repeated.
    assert "Unsupported Tensor.item() call with capture_scalar_outputs=False [gb0124]; its line: `if s.item()" in text
    assert "`Tensor.item`" not in text
    assert "report an issue" not in out  # the generic hint stays in the JSON only
    assert "1 restart: after the graph break" in out


def test_a_hint_asking_to_file_an_issue_is_skipped_for_the_next(run: Run) -> None:
    """ddp_ranks breaks on a skipped function: torch's hints end with 'Please file an issue to PyTorch.'."""
    record = next(r for r in break_records_of_rank("ddp_ranks") if "gb0007" in r)
    hints = field(record, "  Hint: ")
    assert hints[-1] == "Please file an issue to PyTorch."
    report = json_of(run, "analyze", str(CAPTURES / "ddp_ranks"), "--by-function")
    shown = [gb for fn in report["functions"] for c in fn["compilations"] for gb in c["graph_breaks"]]
    skipped = [gb for gb in shown if gb["gb_id"] == "gb0007"]
    assert skipped and all(gb["hint"] == hints[0] for gb in skipped)
    assert all(gb["operator"] == "DistributedDataParallel._inside_ddp_forward" for gb in skipped)
    assert all(gb["hint"] not in GENERIC for gb in shown if gb["hint"])


def break_records_of_rank(name: str) -> list[str]:
    out = []
    for log in sorted((CAPTURES / name / "raw").glob("*.log")):
        out += [
            payload.split("\nUser code traceback:", 1)[0]
            for meta, payload in records(log)
            if meta.get("artifact", {}).get("name") == "dynamo_graph_break_reason"
        ]
    return out


def test_compare_and_check_name_the_operator_and_hint_whole(run: Run) -> None:
    before, after = str(CAPTURES / "break_fix_v2"), str(CAPTURES / "break_fix_v1")
    first = break_records("break_fix_v1")[0]
    hint = field(first, "  Hint: ")[0]
    code, out, err = run("compare", before, after)
    assert code == 0, err
    assert f"model.py:21: Failed to trace builtin operator `print`; torch's hint: {hint}" in flat(out)
    assert "torch's page:" in out and re.findall(r"please visit: (\S+)", first)[0] in out
    document = json_of(run, "compare", before, after)
    (change,) = [c for row in document["functions"] for c in row["changes"] if c["kind"] == "graph_break_new"]
    assert change["candidate"]["hints"] == field(first, "  Hint: ")
    assert change["candidate"]["operator"] == "print" and change["candidate"]["url"].endswith("gb0059.html")
    code, page, err = run("compare", before, after, "--format", "html")
    assert code == 0, err
    explanation = html.escape(field(first, "  Explanation: ")[0])
    assert f"torch's explanation: {explanation}" in page
    (url,) = re.findall(r"please visit: (\S+)", first)
    assert f"torch's page: <code>{url}</code>" in page
    code, out, _ = run("check", before, after, "--max-new-graph-breaks", "0")
    assert code == 1
    finding = flat(out)
    assert f"`print`; torch's hint: {hint}" in finding and "…" not in finding  # whole, never cut mid-word


def test_an_older_torch_break_says_what_torch_wrote_and_nothing_more(run: Run) -> None:
    """torch before 2.4 (comp_metrics.log) writes no dynamo_graph_break_reason: its graph breaks are only restart
    reasons of compilation_metrics ('skip function graph_break in file ...'). Nothing is made up from them."""
    log = CORPUS / "comp_metrics.log"
    reasons = [
        r for meta, _ in records(log) for r in (meta.get("compilation_metrics") or {}).get("restart_reasons", [])
    ]
    assert reasons and all("graph_break" in r for r in reasons)
    assert not any(meta.get("artifact", {}).get("name") == "dynamo_graph_break_reason" for meta, _ in records(log))
    document = json_of(run, "analyze", str(log))
    assert breaks_of(document) == [] and document["counts"]["graph_break_records"] == 0
    restarts = [r for rank in document["ranks"] for c in rank["compilations"] for r in c["restarts"]]
    assert [r["reason"] for r in restarts] == reasons
    assert all(r["graph_break"] is False and r["exception"] is None for r in restarts)
    code, out, _ = run("analyze", str(log))
    assert code == 0 and f"1 restart: {reasons[0]}" in out


def test_a_record_of_the_older_shape_keeps_no_explanation_and_the_same_line() -> None:
    """The shape torch wrote before the Explanation and Hint lines (the site and the reason, then the user
    traceback): graph_break's real record, cut to those lines. No explanation, hints, operator or page is made
    up, and the break's line is its reason, as before."""
    payload = next(
        p for m, p in records(log_of("graph_break")) if m.get("artifact", {}).get("name") == "dynamo_graph_break_reason"
    )
    site, reason = payload.splitlines()[:2]
    traceback = payload[payload.index("User code traceback:") :].split("\nTraceback (most recent", 1)[0]
    gb = parse_graph_break(f"{site}\n{reason}\n{traceback}", None)
    assert (gb.explanation, gb.hints, gb.operator, gb.url, gb.gb_type) == (None, [], None, None, None)
    assert gb.reason == reason.removeprefix("Graph Break Reason: ") and gb.site and gb.user_stack
    from dynamo_diff_compare.break_words import break_summary

    assert break_summary(gb.reason, gb.operator, gb.hints, gb.gb_id) == gb.reason


def test_a_restart_names_the_exception_torch_wrote(run: Run) -> None:
    name = "tensorify_restart"
    oracle = json.loads((CAPTURES / name / "oracle.json").read_text())
    assert len(oracle["restarts_logged"]) == 1  # torch's own "Restarting analysis due to ..." line
    reasons = [
        r
        for meta, _ in records(log_of(name))
        for r in (meta.get("compilation_metrics") or {}).get("restart_reasons", [])
    ]
    assert reasons == ["<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"]
    document = json_of(run, "analyze", str(CAPTURES / name))
    restarts = [r for rank in document["ranks"] for c in rank["compilations"] for r in c["restarts"]]
    assert [(r["reason"], r["exception"], r["graph_break"]) for r in restarts] == [
        (reasons[0], "TensorifyScalarRestartAnalysis", False)
    ]
    assert document["counts"]["restarts"] == len(oracle["restarts_logged"])
    code, out, _ = run("analyze", str(CAPTURES / name))
    assert "1 restart: TensorifyScalarRestartAnalysis" in out
    code, out, _ = run("analyze", str(CAPTURES / name), "--by-function")
    assert "analysis restarted 1x (TensorifyScalarRestartAnalysis)" in flat(out)
    code, out, _ = run("compare", str(CAPTURES / "scalar"), str(CAPTURES / name))
    assert code == 0
    assert "restarts: 0 -> 1 (candidate: TensorifyScalarRestartAnalysis)" in flat(out)


NOT_INDEXED = {"chromium_event", "describe_tensor", "describe_storage", "describe_source", "str"}


def last_record(name: str, compile_id: str) -> str:
    """The kind of the last record the trace holds for a compile id (timing spans and tensor descriptions left
    out), an artifact by its name."""
    frame, fcid = (int(x) for x in compile_id.split("/"))
    last = None
    for meta, _ in records(log_of(name)):
        if (meta.get("frame_id"), meta.get("frame_compile_id")) != (frame, fcid):
            continue
        kind = next(k for k in meta if k not in ("frame_id", "frame_compile_id", "attempt", "has_payload", "rank"))
        if kind in NOT_INDEXED:
            continue
        last = meta["artifact"]["name"] if kind == "artifact" else kind
    assert last is not None
    return last


def test_an_unfinished_compilation_says_the_last_stage_it_reached(run: Run) -> None:
    for name in ("killed_compile_kill", "midrun_kill"):
        (unfinished,) = json.loads((CAPTURES / name / "oracle.json").read_text())["expect"]["unfinished"]
        kind = last_record(name, unfinished)
        assert kind == "dynamo_output_graph"  # Dynamo had handed its graph to the (killing) backend
        document = json_of(run, "analyze", str(CAPTURES / name))
        comps = {c["compile_id"]: c for rank in document["ranks"] for c in rank["compilations"]}
        assert comps[unfinished]["reached"]["kind"] == kind and comps[unfinished]["reached"]["stage"] == "backend"
        assert all(c["reached"] is None for cid, c in comps.items() if cid != unfinished)
        code, out, _ = run("analyze", str(CAPTURES / name))
        text = flat(out)
        assert f"never finished: reached the backend (Dynamo's graph was handed to it); last record {kind}" in text
        assert (
            f"compilation {unfinished} started and never finished (no compilation_metrics; last record {kind}" in text
        )
    code, out, _ = run("compare", str(CAPTURES / "killed_compile_complete"), str(CAPTURES / "killed_compile_kill"))
    assert code == 0
    assert "candidate 3/0 never finished: reached the backend" in flat(out)


def test_a_failure_line_says_what_the_backend_raised(run: Run) -> None:
    # torch's fail_reason is "backend='counting_backend' raised:" then, on the next line, the error itself: the
    # analyze line carries both, whole (the console wraps it).
    (reason,) = {
        meta["compilation_metrics"]["fail_reason"]
        for meta, _ in records(log_of("after_failure"))
        if meta.get("compilation_metrics", {}).get("fail_reason")
    }
    intro, error = reason.split("\n", 1)
    assert intro.endswith("raised:") and error.startswith("RuntimeError: ")
    code, out, _ = run("analyze", str(CAPTURES / "after_failure"))
    assert code == 0 and f"failure BackendCompilerFailed: {intro} {error}" in flat(out)


def test_a_break_inside_a_loop_says_torch_skipped_the_frame_and_what_to_move(run: Run) -> None:
    """loop_skip: `random.random()` in a for loop of forward. torch 2.8+ writes the break it hit while handling it
    (`graph break in loop`) after the first break's own text; the break keeps its own explanation and hints, the
    failure says why the frame was skipped, and the suggestion says to move the call out of the loop. The workload
    recorded that torch skipped the frame (`loop_break`) and that its backend never ran."""
    o = json.loads((CAPTURES / "loop_skip/oracle.json").read_text(encoding="utf-8"))
    assert o["loop_break"] is True and o["backend_invocations"] == 0 and o["calls"] == 6
    (record,) = break_records("loop_skip")
    first, second = record.split("*** While handling this graph break, another graph break occurred: ***")
    (qualname,) = re.findall(r"qualname: ([\w.]+),", first)
    (loop_explanation,) = field(second, "  Explanation: ")
    (gb,) = breaks_of(json_of(run, "analyze", str(CAPTURES / "loop_skip")))
    assert gb["operator"] == qualname == "Random.random"
    assert gb["hints"] == field(first, "  Hint: ")  # the first break's hints only, not the loop break's
    assert gb["explanation"] == field(first, "  Explanation: ")[0]
    code, out, err = run("analyze", str(CAPTURES / "loop_skip"), "--by-function")
    assert code == 0, err
    text = flat(out)
    assert f"while handling it: graph break in loop: {loop_explanation}" in text
    assert f"suggestion (graph_break): move `{qualname}` out of the for/while loop" in text
    assert "this call and every later call of it run eagerly" in text


def test_a_break_in_library_code_names_the_users_line_that_called_into_it(run: Run) -> None:
    """ddp_ranks: DDP's forward breaks inside torch (`torch/nn/parallel/distributed.py`); the record's user traceback
    runs from the workload's own line into it. The break line names that line: the traceback's innermost frame in
    the workload's file (read here from the raw records)."""
    log = sorted((CAPTURES / "ddp_ranks" / "raw").glob("*.log"))[0]
    (payload,) = [
        p
        for m, p in records(log)
        if m.get("artifact", {}).get("name") == "dynamo_graph_break_reason" and "distributed.py" in p.splitlines()[0]
    ][:1]
    frames = re.findall(r'File "([^"]+)", line (\d+), in \S+\n\s+([^\n]+)', payload.split("User code traceback:")[1])
    mine = [(f, n, code) for f, n, code in frames if f.endswith("ddp_ranks.py")]
    _, line, code = mine[-1]
    assert not frames[-1][0].endswith("ddp_ranks.py")  # the innermost frame is torch's
    document = json_of(run, "analyze", str(CAPTURES / "ddp_ranks"), "--by-function")
    shown = [gb for fn in document["functions"] for c in fn["compilations"] for gb in c["graph_breaks"]]
    in_ddp = [gb for gb in shown if "torch/nn/parallel/distributed.py:" in (gb["site"] or "")]
    assert in_ddp and all(gb["from_user"] == f"ddp_ranks.py:{line}: {code.strip()}" for gb in in_ddp)
    assert all(gb["from_user"] is None for gb in shown if "/ddp_ranks.py:" in (gb["site"] or ""))
    _, out, _ = run("analyze", str(CAPTURES / "ddp_ranks"), "--by-function")
    assert f"(from ddp_ranks.py:{line}: " in flat(out)


def test_a_break_on_an_argument_dynamo_cannot_hold_names_its_class(run: Run) -> None:
    """generator_arg: `torch.multinomial(probs, 1, generator=gen)` with a `torch.Generator`: torch's record says only
    `Failed to convert args/kwargs to proxy` and lists the call's arguments in its debug context; the break names
    the argument's class from that context (read here from the raw record)."""
    (record,) = break_records("generator_arg")
    (context,) = field(record, "  Developer debug context: ")
    (cls,) = re.findall(r"UserDefinedObjectVariable\((\w+)\)", context)
    assert cls == "Generator"
    (gb,) = breaks_of(json_of(run, "analyze", str(CAPTURES / "generator_arg")))
    assert gb["operator"] == cls
    code, out, err = run("analyze", str(CAPTURES / "generator_arg"), "--by-function")
    assert code == 0, err
    assert f"Failed to convert args/kwargs to proxy `{cls}` [gb0055]" in flat(out)
