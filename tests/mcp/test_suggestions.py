"""analyze_capture through the SDK's in-memory client: the structured page carries each function's and each
compilation's suggestions, the text a line per change; values from the workload's own guard texts (oracle.json)."""

from __future__ import annotations

import json
import re

from dynamo_diff_schema import RunReportPage

from .conftest import CAPTURES, Session, text_of


def test_analyze_capture_carries_the_suggestion_for_a_size_that_varied(session: Session) -> None:
    guards = json.loads((CAPTURES / "recompile_limit" / "oracle.json").read_text(encoding="utf-8"))["guard_failures"]
    sizes: list[str] = []
    for text in guards["f"]:
        for pair in re.findall(r"size mismatch at index 0\. expected (\d+), actual (\d+)", text):
            sizes += [v for v in pair if v not in sizes]
    result = session.call("analyze_capture", capture=str(CAPTURES / "recompile_limit"), full=True)
    assert not result.is_error
    page = RunReportPage.model_validate(result.structured_content)
    (entry,) = page.functions
    assert [(s.kind, s.values) for s in entry.report.suggestions] == [
        ("mark_dynamic", sizes),
        ("recompile_limit", ["2"]),
    ]
    text = text_of(result)
    assert "suggestion (mark_dynamic): mark dim 0 of x dynamic" in text
    assert "torch._dynamo.config.recompile_limit (currently 2)" in text


def test_analyze_capture_says_nothing_where_the_evidence_is_ambiguous(session: Session) -> None:
    # edit_v1's one recompile is `flag == True`, used in `if flag:`: a dynamic value would be specialised again.
    result = session.call("analyze_capture", capture=str(CAPTURES / "edit_v1"), full=True)
    page = RunReportPage.model_validate(result.structured_content)
    assert all(not e.report.suggestions for e in page.functions)
    assert all(not c.suggestions for e in page.functions for c in e.report.compilations)
    assert "suggestion" not in text_of(result)


def test_analyze_capture_of_a_run_that_compiled_nothing_suggests_calling_the_compiled_object(session: Session) -> None:
    calls = json.loads((CAPTURES / "compiled_nothing" / "oracle.json").read_text(encoding="utf-8"))[
        "torch_compile_calls"
    ]
    result = session.call("analyze_capture", capture=str(CAPTURES / "compiled_nothing"), full=True)
    page = RunReportPage.model_validate(result.structured_content)
    assert [(s.kind, s.values) for s in page.suggestions] == [("call_compiled", [str(calls)])]
    assert "suggestion (call_compiled)" in text_of(result)


def test_analyze_capture_says_where_a_local_after_a_graph_break_is_made_and_never_marks_it(session: Session) -> None:
    # resume_locals: the guard torch wrote in prune's resume function names `keep`, which prune made at the line
    # holding `keep = x * 2` before its torch._dynamo.graph_break() (the workload's source, as retained).
    guards = json.loads((CAPTURES / "resume_locals" / "oracle.json").read_text(encoding="utf-8"))["guard_failures"]
    source = (CAPTURES.parent / "workloads" / "resume_locals.py").read_text(encoding="utf-8").splitlines()
    made = next(i for i, line in enumerate(source, 1) if "keep = x * 2" in line)
    (keep_guard,) = guards[f"torch_dynamo_resume_in_prune_at_{made + 1}"]
    assert "tensor 'keep' size mismatch at index 0. expected 4, actual 5" in keep_guard
    result = session.call("analyze_capture", capture=str(CAPTURES / "resume_locals"), function="prune", full=True)
    page = RunReportPage.model_validate(result.structured_content)
    (entry,) = page.functions
    (keep,) = [s for s in entry.report.suggestions if s.subject == "keep, a local of prune"]
    assert (keep.kind, keep.values, keep.knob) == ("mark_dynamic", ["4", "5"], "torch.compile(..., dynamic=True)")
    assert f"made at resume_locals.py:{made} (`keep = x * 2`)" in keep.cause
    text = text_of(result)
    assert "mark_dynamic(keep" not in text and "keep is no argument of prune, so no caller can pass or mark it" in text
