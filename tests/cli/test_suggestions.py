"""Suggestions as a user reads them: `analyze` (text, markdown, JSON) and `analyze --by-function` on the real
captures, each next to the cause it is for, with the values seen. Expected values come from the raw guard texts
torch wrote (the workload's oracle.json `guard_failures`, a copy of torch._dynamo.utils.guard_failures) and from
grep over the trace, never from our analyzer; and where the evidence is ambiguous there is none."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_cli.app import app
from typer.testing import CliRunner

from .conftest import Run, block, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures" / "captures"


def oracle(name: str) -> dict[str, Any]:
    return json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))


def trace(name: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((CAPTURES / name / "raw").glob("*.log")))


def sizes_seen(guards: list[str], tensor: str, dim: int) -> list[str]:
    """The sizes a tensor's dimension took, in the order torch's size-mismatch texts name them."""
    out: list[str] = []
    pattern = rf"tensor '{tensor}' size mismatch at index {dim}\. expected (\d+), actual (\d+)"
    for text in guards:
        for found in re.findall(pattern, text):
            out += [v for v in found if v not in out]
    return out


def report(run: Run, name: str) -> dict[str, Any]:
    code, out, _ = run("analyze", str(CAPTURES / name), "--by-function", "--format", "json")
    assert code == 0
    return json.loads(out)


def function(document: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in document["functions"] if f["name"] == name)


def kinds(fn: dict[str, Any]) -> list[str]:
    return [s["kind"] for s in fn["suggestions"]] + [s["kind"] for c in fn["compilations"] for s in c["suggestions"]]


def test_a_size_that_took_several_values_suggests_mark_dynamic_with_the_sizes_seen(run: Run) -> None:
    sizes = sizes_seen(oracle("shape")["guard_failures"]["f"], "x", 0)
    assert sizes == ["4", "6", "8"]  # the workload's own rows (4, 4, 6, 8, 6) in torch's words
    (s,) = function(report(run, "shape"), "f")["suggestions"]
    assert s["kind"] == "mark_dynamic" and s["subject"] == "x" and s["dim"] == 0 and s["values"] == sizes
    assert s["knob"] == "torch._dynamo.mark_dynamic(x, 0)" and s["compile_ids"] == ["0/1", "0/2"]
    assert "slower" in s["cost"] and "faster" not in json.dumps(s)
    # dynamic=False is in the trace's own config: automatic dynamic shapes were off.
    assert '\\"automatic_dynamic_shapes\\": false' in trace("shape") and "dynamic=False" in s["cause"]
    code, out, _ = run("analyze", str(CAPTURES / "shape"))
    assert code == 0
    lines = unwrapped(block(out, "f (shape.py:9)"))
    assert lines[1].startswith("  suggestion (mark_dynamic): ") and "torch._dynamo.mark_dynamic(x, 0)" in lines[1]
    assert "took 4, 6, 8" in lines[1]
    code, out, _ = run("analyze", str(CAPTURES / "shape"), "--format", "markdown")
    section = out.split("## Suggestions\n", 1)[1].split("\n## ", 1)[0]
    assert "- f (shape.py:9), 0/1, 0/2: suggestion (mark_dynamic): " in section and "took 4, 6, 8" in section
    code, out, _ = run("analyze", str(CAPTURES / "shape"), "--format", "json")
    assert [(s["kind"], s["function"], s["values"]) for s in json.loads(out)["suggestions"]] == [
        ("mark_dynamic", "f", sizes)
    ]


def test_the_suggestion_line_wraps_at_80_columns_under_the_cause(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")})
    for args in (
        ["analyze", str(CAPTURES / "recompile_limit")],
        ["analyze", str(CAPTURES / "recompile_limit"), "--by-function"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        text = result.stdout
        assert all(len(line) <= 80 for line in text.splitlines() if "recompile [" not in line), text
        joined = unwrapped(text)
        limit = next(line for line in joined if "suggestion (recompile_limit)" in line)
        # the knob as torch 2.13 names it (the trace's own dynamo_config has the key) and the limit torch reports
        assert '\\"recompile_limit\\": 2' in trace("recompile_limit") or "currently set to 2" in trace(
            "recompile_limit"
        )
        assert "torch._dynamo.config.recompile_limit (currently 2)" in limit
        assert "size of x at dim 0 took 2, 3, 4" in limit  # the cause behind the limit


def test_the_recompile_limit_names_the_knob_and_the_cause_behind_it(run: Run) -> None:
    sizes = sizes_seen(oracle("recompile_limit")["guard_failures"]["f"], "x", 0)
    fn = function(report(run, "recompile_limit"), "f")
    assert [s["kind"] for s in fn["suggestions"]] == ["mark_dynamic", "recompile_limit"]
    dynamic, limit = fn["suggestions"]
    assert dynamic["values"] == sizes == ["2", "3", "4"]
    assert limit["knob"] == "torch._dynamo.config.recompile_limit" and limit["values"] == ["2"]
    assert limit["compile_ids"] == ["0/2"] and "mark_dynamic" in limit["cause"]


def test_each_kind_of_guard_gets_its_suggestion_or_none(run: Run) -> None:
    failures = oracle("guards")["guard_failures"]
    document = report(run, "guards")
    dtype = function(document, "dtype")["suggestions"]
    found = re.search(r"expected (\w+), actual (\w+)", failures["dtype"][0])
    assert found is not None
    assert [(s["kind"], s["values"]) for s in dtype] == [("dtype_device", list(found.groups()))]
    assert "x.to(torch.float32)" in dtype[0]["change"]
    device = function(document, "device")["suggestions"]
    keys = re.findall(r"DispatchKeySet\((\w+),", failures["device"][0])
    assert [(s["kind"], s["values"]) for s in device] == [("dtype_device", keys)] and keys == ["CPU", "Meta"]
    for name in ("grad_mode", "requires_grad"):
        assert [s["kind"] for s in function(document, name)["suggestions"]] == ["grad_mode"], name
    # The workload compiles shape with dynamic=False, symbol without it (automatic dynamic shapes); the size 1 of
    # symbol's last call is one torch specialises.
    workload = (CAPTURES.parent / "workloads" / "guards.py").read_text(encoding="utf-8")
    assert '@case("shape", [((torch.ones(4),), {}, N), ((torch.ones(5),), {}, N)], dynamic=False)' in workload
    (shape,) = function(document, "shape")["suggestions"]
    (symbol,) = function(document, "symbol")["suggestions"]
    assert "dynamic=False" in shape["cause"] and "dynamic=False" not in symbol["cause"]
    assert symbol["values"] == sizes_seen(failures["symbol"], "x", 0) == ["4", "5", "1"]
    assert "size 1 still compiles on its own" in symbol["cost"]
    scalar = function(document, "int_value")["suggestions"]
    assert [(s["kind"], s["subject"], s["values"]) for s in scalar] == [("dynamic_scalar", "n", ["2"])]
    # Ambiguous: a bool in a conditional expression, a list's length, a builtin swapped once (two objects may
    # differ on purpose), a stride, a type, another global setting.
    for name in ("bool_value", "list_length", "function_identity", "stride", "tensor_type", "global_state"):
        assert kinds(function(document, name)) == [], name


def test_a_python_int_in_control_flow_gets_no_scalar_suggestion(run: Run) -> None:
    # edit_v1 recompiles on `flag == True`, used in `if flag:` (torch's own comment on the guard).
    assert "flag == True" in trace("edit_v1") and "# if flag:" in trace("edit_v1")
    fn = function(report(run, "edit_v1"), "gate")
    assert fn["counts"]["confirmed_recompilation_identities"] == 1 and kinds(fn) == []


def test_a_function_passed_in_turn_is_not_said_to_be_created_per_call(run: Run) -> None:
    # object_identity passes act_relu then act_tanh: two functions on purpose, one identity recompile.
    assert len(oracle("object_identity")["guard_failures"]["f"]) == 1
    fn = function(report(run, "object_identity"), "f")
    assert fn["counts"]["confirmed_recompilation_identities"] == 1 and kinds(fn) == []


@pytest.mark.parametrize("name", ["stable", "training", "cache_cold"])
def test_a_run_without_a_cause_has_no_suggestion(run: Run, name: str) -> None:
    code, out, _ = run("analyze", str(CAPTURES / name), "--format", "json")
    assert code == 0 and json.loads(out)["suggestions"] == []
    code, out, _ = run("analyze", str(CAPTURES / name))
    assert "suggestion" not in out


def test_scalars_that_changed_value_suggest_a_tensor_and_the_setting_for_this_torch(run: Run) -> None:
    values = {
        m.group(1): m.group(2)
        for t in oracle("scalar")["guard_failures"]["f"]
        if (m := re.search(r"(\w+) == (\S+)", t))
    }
    assert values == {"n": "2", "scale": "0.5"}
    fn = function(report(run, "scalar"), "f")
    got = {s["subject"]: s for s in fn["suggestions"]}
    assert set(got) == {"n", "scale"} and {k: s["values"] for k, s in got.items()} == {"n": ["2"], "scale": ["0.5"]}
    assert all(s["kind"] == "dynamic_scalar" and s["knob"] == "torch.compile(..., dynamic=None)" for s in got.values())
    assert "torch.tensor(n)" in got["n"]["change"]
    # multiple_guards: n specialised to 2 then 3, used in `x.sin() * n`; the dtype changed too.
    fn = function(report(run, "multiple_guards"), "f")
    assert {s["kind"]: s["values"] for s in fn["suggestions"]} == {
        "dynamic_scalar": ["2", "3"],
        "dtype_device": ["Float", "Double"],
    }


def test_grad_mode_changes_suggest_one_mode(run: Run) -> None:
    assert oracle("grad_mode")["guard_failures"]["f"] == ["0/0: GLOBAL_STATE changed: grad_mode "]
    (s,) = function(report(run, "grad_mode"), "f")["suggestions"]
    assert s["kind"] == "grad_mode" and s["compile_ids"] == ["0/1"] and "one mode" in s["change"]


def test_graph_breaks_carry_the_registry_page_torch_names(run: Run) -> None:
    pages = set(re.findall(r"https://\S+/gb/(gb\d+)\.html", trace("graph_break")))
    assert pages == {"gb0059", "gb0124"}
    document = report(run, "graph_break")
    found = {s["subject"]: s for f in document["functions"] for c in f["compilations"] for s in c["suggestions"]}
    assert set(found) == pages
    for gb, s in found.items():
        assert s["kind"] == "graph_break" and s["docs"] is not None and s["docs"] in trace("graph_break")
        assert s["docs"].endswith(f"/{gb}.html")
    _code, out, _ = run("analyze", str(CAPTURES / "graph_break"))
    assert "suggestion (graph_break)" in out and out.index("graph break at") < out.index("suggestion (graph_break)")


def test_a_fullgraph_failure_carries_torchs_hints(run: Run) -> None:
    hints = [
        line.strip()[len("Hint: ") :]
        for line in trace("fullgraph_error").split("\\n")
        if line.strip().startswith("Hint: ")
    ]
    fn = function(report(run, "fullgraph_error"), "f")
    (s,) = [s for c in fn["compilations"] for s in c["suggestions"]]
    assert s["kind"] == "graph_break" and s["subject"] == "gb0059"
    assert [h[len("Hint: ") :] for h in s["torch_hints"] if h.startswith("Hint: ")] == hints[
        : len(s["torch_hints"]) - 1
    ]
    assert s["change"].startswith("Avoid calling builtin `print`")


def test_a_skipped_frame_gets_one_suggestion_for_its_break(run: Run) -> None:
    """skipped_frame: the compilation's failure (Unsupported) is the graph break torch could not resume from; its
    fail_reason and its break record both name gb0025, and the next step is said once, not once per record."""
    raw = trace("skipped_frame")
    (metrics,) = [line for line in raw.splitlines() if '"compilation_metrics"' in line]
    assert "gb0025" in metrics.split('"fail_reason"', 1)[1].split('", "', 1)[0]  # the failure names the break too
    assert raw.count('{"artifact": {"name": "dynamo_graph_break_reason"') == 1
    fn = function(report(run, "skipped_frame"), "step")
    (s,) = [s for c in fn["compilations"] for s in c["suggestions"]]
    assert s["kind"] == "graph_break" and s["subject"] == "gb0025" and "fullgraph" not in s["cause"]
    _code, out, _ = run("analyze", str(CAPTURES / "skipped_frame"))
    assert out.count("suggestion (graph_break)") == 1


def test_a_suppressed_failure_names_its_cause_and_a_raised_one_gets_none(run: Run) -> None:
    messages = [e["message"] for e in oracle("backend_failure")["exceptions"]]
    document = report(run, "backend_failure")
    suppressed = function(document, "suppressed")
    (s,) = [s for c in suppressed["compilations"] for s in c["suggestions"]]
    assert s["kind"] == "suppressed_failure" and "refuses graph #1" in s["cause"]
    assert s["knob"] == "torch._dynamo.config.suppress_errors = False"
    assert any("refuses graph #2" in m for m in messages)  # the raised one reached the program: it saw it
    assert kinds(function(document, "raised")) == []


def test_a_run_that_compiled_nothing_suggests_calling_the_compiled_object(run: Run) -> None:
    calls = oracle("compiled_nothing")["torch_compile_calls"]
    document = report(run, "compiled_nothing")
    (s,) = document["suggestions"]
    assert s["kind"] == "call_compiled" and s["values"] == [str(calls)]
    _code, out, _ = run("analyze", str(CAPTURES / "compiled_nothing"))
    lines = unwrapped(out)
    assert lines[0].startswith("NOTHING COMPILED") and any(
        line.startswith("suggestion (call_compiled)") for line in lines
    )


def test_compare_suggests_for_what_is_new_in_the_candidate_only(run: Run) -> None:
    before, after = str(CAPTURES / "dynamic_flag_v2"), str(CAPTURES / "dynamic_flag_v1")
    sizes = sizes_seen(oracle("dynamic_flag_v1")["guard_failures"]["scale"], "x", 0)
    code, out, _ = run("compare", before, after, "--format", "json")
    assert code == 0
    (row,) = [r for r in json.loads(out)["functions"] if r["suggestions"]]
    assert [(s["kind"], s["values"]) for s in row["suggestions"]] == [("mark_dynamic", sizes)]
    code, out, _ = run("compare", before, after)
    assert "suggestion (mark_dynamic)" in out and "torch._dynamo.mark_dynamic(x, 0)" in out
    code, out, _ = run("compare", before, after, "--format", "markdown")
    assert "## Suggestions" in out and "torch._dynamo.mark_dynamic(x, 0)" in out
    # The other way round the recompile is gone: nothing new in the candidate, no suggestion.
    code, out, _ = run("compare", after, before, "--format", "json")
    assert code == 0 and all(not r["suggestions"] for r in json.loads(out)["functions"])


def test_a_failed_check_carries_the_suggestion_under_its_function(run: Run) -> None:
    pages = sorted(set(re.findall(r"/gb/(gb\d+)\.html", trace("graph_break"))))
    args = [str(CAPTURES / "stable"), str(CAPTURES / "graph_break"), "--max-new-graph-breaks", "0"]
    code, out, _ = run("check", *args, "--format", "json")
    assert code == 1
    (finding,) = [f for f in json.loads(out)["findings"] if f["rule"] == "graph_breaks"]
    assert sorted(s["subject"] for s in finding["suggestions"]) == pages
    assert all(s["kind"] == "graph_break" for s in finding["suggestions"])
    code, out, _ = run("check", *args)
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL graph breaks"))
    shown = next(line for line in lines[at:] if "suggestion (" in line)
    assert shown.startswith("         suggestion (graph_break): ")  # under its function's line, indented as it
    code, out, _ = run("check", *args, "--format", "markdown")
    assert out.count("suggestion (graph_break)") == len(pages)


CORPUS = CAPTURES.parent / "corpus" / "tlparse-tests"


def test_an_older_torchs_trace_gets_mark_dynamic_with_every_size(run: Run) -> None:
    log = CORPUS / "multi_rank_logs" / "dedicated_log_torch_trace_rank_1.log"
    reasons = re.findall(r'"recompile_reason": "([^"]*)"', log.read_text(encoding="utf-8"))
    sizes = sizes_seen(reasons, "x", 0)
    assert len(sizes) == 15  # 2 ... 16, one recompile each (its config: automatic dynamic shapes off)
    code, out, _ = run("analyze", str(log), "--by-function", "--format", "json")
    assert code == 0
    found = [s for f in json.loads(out)["functions"] for s in f["suggestions"]]
    assert [(s["kind"], s["values"], s["knob"]) for s in found] == [
        ("mark_dynamic", sizes, "torch._dynamo.mark_dynamic(x, 0)")
    ]


def test_object_ids_of_different_ranks_are_not_compared(run: Run) -> None:
    # Each rank of multi_rank_runtime recompiles on `___check_obj_id(fn, ID)` against one entry only (one id per
    # rank); the ids differ between ranks (addresses of different processes), which says nothing.
    ids = {
        log.name: set(re.findall(r"___check_obj_id\(fn, (\d+)\)", log.read_text(encoding="utf-8")))
        for log in sorted((CORPUS / "multi_rank_runtime").glob("*.log"))
    }
    assert all(len(v) <= 1 for v in ids.values()) and len(set().union(*ids.values())) > 1
    code, out, _ = run("analyze", str(CORPUS / "multi_rank_runtime"), "--by-function", "--format", "json")
    assert code == 0
    assert all("create_once" not in kinds(f) for f in json.loads(out)["functions"])


def test_the_html_report_shows_the_suggestion_in_the_row_details(run: Run, tmp_path: Path) -> None:
    sizes = sizes_seen(oracle("shape")["guard_failures"]["f"], "x", 0)
    page = tmp_path / "report.html"
    code, _, _ = run("compare", str(CAPTURES / "stable"), str(CAPTURES / "shape"), "--format", "html", "-o", str(page))
    assert code == 0
    html = page.read_text(encoding="utf-8")
    (item,) = re.findall(r'<li class="suggestion kind-mark_dynamic">(.*?)</li>', html)
    assert "torch._dynamo.mark_dynamic(x, 0)" in item and f"took {', '.join(sizes)}" in item
    assert "https://" not in html  # the report links nowhere off the page


def test_a_compiled_modules_input_is_named_as_the_tensor_the_call_passes(run: Run) -> None:
    # torch's wrapper around a compiled module (`inner(*args)`) names the module's input args[0].
    sizes = sizes_seen(oracle("wrapped_call")["guard_failures"]["inner"], "args\\[0\\]", 0)
    assert sizes == ["4", "6"]
    (s,) = function(report(run, "wrapped_call"), "Sequential.forward")["suggestions"]
    assert (s["kind"], s["subject"], s["values"], s["knob"]) == (
        "mark_dynamic",
        "args[0]",
        sizes,
        "torch._dynamo.mark_dynamic",
    )
    assert s["change"].startswith("mark dim 0 of the tensor the call passes as args[0] dynamic before the call")


def test_mark_dynamic_says_when_automatic_dynamic_shapes_already_made_the_size_dynamic(run: Run) -> None:
    # auto_dynamic_on: torch's automatic dynamic shapes on (the oracle's own record of the setting), one recompile
    # on the first new size and none after; marking the dimension up front saves that one recompile.
    on, off = oracle("auto_dynamic_on"), oracle("auto_dynamic_off")
    assert (on["automatic_dynamic_shapes"], on["expect"]["recompiles"]) == (True, 1)
    assert (off["automatic_dynamic_shapes"], off["expect"]["recompiles"]) == (False, 3)
    (s,) = function(report(run, "auto_dynamic_on"), "f")["suggestions"]
    assert s["kind"] == "mark_dynamic" and "automatic dynamic shapes were on" in s["cause"]
    assert "saves that recompile" in s["cause"]
    (s,) = function(report(run, "auto_dynamic_off"), "f")["suggestions"]
    assert s["kind"] == "mark_dynamic" and "automatic dynamic shapes were on" not in s["cause"]


def test_a_value_on_dynamos_stack_is_named_by_its_line_never_by_its_slot(run: Run) -> None:
    # stack_slots: the guards torch wrote name ___stack2 (a float random.random() returned mid-expression at line
    # 20 of jitter) and ___stack0 (the tensor a boolean mask made at line 25 of tokens): slots of the resume
    # functions' inputs, no variable the user can pass, mark or rename.
    guards = oracle("stack_slots")["guard_failures"]
    (scalar_guard,) = guards["torch_dynamo_resume_in_jitter_at_20"]
    assert scalar_guard.startswith("1/0: ___stack2 == ")
    sizes = sizes_seen(guards["torch_dynamo_resume_in_tokens_at_25"], "___stack0", 0)
    assert sizes == ["3", "4"]  # the kept tokens of the workload's two batches
    document = report(run, "stack_slots")
    (scalar,) = function(document, "jitter")["suggestions"]
    assert scalar["kind"] == "dynamic_scalar" and scalar["subject"] == "the value at line 20 of jitter"
    assert "stack_slots.py:20" in scalar["change"] and "`return y * (1.0 + random.random())`" in scalar["cause"]
    assert scalar["values"] == [scalar_guard.split("== ")[1].split()[0]]
    slot = [s for s in function(document, "tokens")["suggestions"] if s["subject"] != "ids"]
    (size,) = slot
    assert size["kind"] == "mark_dynamic" and size["subject"] == "the value at line 25 of tokens"
    assert size["values"] == sizes and size["dim"] == 0 and "stack_slots.py:25" in size["change"]
    assert size["knob"] == "torch.compile(..., dynamic=True)"
    for s in function(document, "jitter")["suggestions"] + function(document, "tokens")["suggestions"]:
        assert "___" not in s["change"] and "___" not in s["subject"] and "___" not in (s["knob"] or "")
    code, out, _ = run("analyze", str(CAPTURES / "stack_slots"))
    assert code == 0
    for name in ("jitter", "tokens"):
        shown = "\n".join(unwrapped(block(out, name)))
        assert "suggestion (" in shown and "___" not in shown, shown


def _line_of(workload: str, marker: str) -> int:
    """The 1-based line of the workload's source that holds `marker` (the source torch ran, as retained)."""
    lines = (CAPTURES.parent / "workloads" / workload).read_text(encoding="utf-8").splitlines()
    (number,) = [i for i, line in enumerate(lines, 1) if marker in line]
    return number


def test_a_local_the_code_after_a_graph_break_guards_is_said_where_it_is_made_never_marked_by_the_caller(
    run: Run,
) -> None:
    # resume_locals: torch's guards in prune's resume function name `keep`, which prune made from its argument
    # before its graph_break(); those in scale's name `x`, scale's own argument, first read after its break.
    made, prune_break = _line_of("resume_locals.py", "keep = x * 2"), _line_of("resume_locals.py", "keep.sum()") - 1
    scale_break = _line_of("resume_locals.py", "return x * y") - 1
    guards = oracle("resume_locals")["guard_failures"]
    (keep_guard,) = guards[f"torch_dynamo_resume_in_prune_at_{prune_break}"]
    sizes = sizes_seen([keep_guard], "keep", 0)
    assert sizes == ["4", "5"] and sizes_seen(guards[f"torch_dynamo_resume_in_scale_at_{scale_break}"], "x", 0)
    document = report(run, "resume_locals")
    suggestions = function(document, "prune")["suggestions"]
    (keep,) = [s for s in suggestions if "keep" in s["subject"]]
    assert keep["kind"] == "mark_dynamic" and keep["subject"] == "keep, a local of prune"
    assert keep["values"] == sizes and keep["dim"] == 0
    assert keep["knob"] == "torch.compile(..., dynamic=True)"
    assert "mark_dynamic(keep" not in json.dumps(keep)
    assert f"made at resume_locals.py:{made} (`keep = x * 2`)" in keep["cause"]
    assert f"graph break at resume_locals.py:{prune_break}" in keep["cause"]
    assert "no caller can pass or mark it" in keep["change"] and "mark_dynamic inside prune raises" in keep["change"]
    # prune's own argument x (its first frame's guard) is still the caller's to mark.
    (x,) = [s for s in suggestions if s["subject"] == "x"]
    assert x["knob"] == "torch._dynamo.mark_dynamic(x, 0)"
    # scale's x is its argument, guarded only after the break: marking it before the call holds there.
    (scaled,) = function(document, "scale")["suggestions"]
    assert scaled["subject"] == "x" and scaled["knob"] == "torch._dynamo.mark_dynamic(x, 0)"
    assert "x is an argument of scale" in scaled["cause"] and f"resume_locals.py:{scale_break}" in scaled["cause"]
    code, out, _ = run("analyze", str(CAPTURES / "resume_locals"))
    assert code == 0
    shown = " ".join(unwrapped(block(out, "prune")))
    assert "mark_dynamic(keep" not in shown and "keep is no argument of prune" in shown
    assert f"keep is a local of prune, made at resume_locals.py:{made} (`keep = x * 2`)" in shown
    code, out, _ = run("analyze", str(CAPTURES / "resume_locals"), "--format", "json")
    assert code == 0
    listed = json.loads(out)["suggestions"]
    assert [s["subject"] for s in listed if s["kind"] == "mark_dynamic"] == ["x", "keep, a local of prune", "x"]
    # The bare log (no source snapshot) cannot tell a local from an argument: both ways are said, each with its step.
    (log,) = (CAPTURES / "resume_locals" / "raw").glob("*.log")
    code, out, _ = run("analyze", str(log), "--by-function", "--format", "json")
    assert code == 0
    (bare,) = [s for s in function(json.loads(out), "prune")["suggestions"] if "keep" in s["subject"]]
    assert bare["subject"] == f"keep, after the graph break at resume_locals.py:{prune_break}"
    assert "an argument or a local of prune: the capture has no source of prune to tell" in bare["cause"]
    assert bare["change"].startswith("if keep is an argument of prune, mark it before the call")
    assert bare["knob"] == "torch.compile(..., dynamic=True)"


def test_a_float_local_after_a_graph_break_is_made_a_tensor_where_the_function_makes_it(run: Run) -> None:
    # resume_locals: damp makes the float `rate` from its argument, then breaks; torch's guard in its resume
    # function is `rate == 0.5` (the first step's), used in `return x * rate` (the comment torch appends).
    made = _line_of("resume_locals.py", "rate = 0.5**step")
    guards = oracle("resume_locals")["guard_failures"][f"torch_dynamo_resume_in_damp_at_{made + 1}"]
    (guard,) = guards
    assert guard.split("  #", 1)[0].strip().endswith("rate == 0.5") and "# return x * rate" in guard
    suggestions = function(report(run, "resume_locals"), "damp")["suggestions"]
    (rate,) = [s for s in suggestions if "rate" in s["subject"]]
    assert rate["kind"] == "dynamic_scalar" and rate["subject"] == "rate, a local of damp" and rate["values"] == ["0.5"]
    assert rate["change"].startswith(
        f"compute rate as a tensor where damp makes it, at resume_locals.py:{made} (`rate = 0.5**step`),"
    )
    assert "torch.tensor(rate)" not in json.dumps(rate) and "used in `return x * rate" in rate["cause"]
    code, out, _ = run("analyze", str(CAPTURES / "resume_locals"))
    assert code == 0
    shown = " ".join(unwrapped(block(out, "damp")))
    assert "rate is a local of damp" in shown and "pass rate as a tensor" not in shown
