"""An agent learns first that a run compiled nothing (fixture compiled_nothing_ranks: torch.compile called twice,
its result never called, no trace file), in every tool that shows a run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dynamo_diff_schema import CapturePage, ComparisonPage, ImportPage, RunReportPage

from .conftest import Session, error_code, text_of

LOUD = "torch.compile was called 2 times (Net at compiled_nothing_ranks.py:"


def test_every_tool_says_the_run_compiled_nothing_first(session: Session) -> None:
    imported = session.call("import_trace", path="captures/compiled_nothing_ranks")
    outline = ImportPage.model_validate(imported.structured_content)  # the row says it (its compiled_state)
    assert outline.captures[0].capture.compiled_state == "nothing_compiled"
    summary = ImportPage.model_validate(
        session.call("import_trace", path="captures/compiled_nothing_ranks", full=True).structured_content
    )
    assert summary.compiled is not None and summary.run is not None
    assert summary.compiled.state == "nothing_compiled" and summary.compiled.torch_compile_calls == 2
    assert imported.structured_content["captures"][0]["capture"]["counts"] == {}  # type: ignore[index]
    assert summary.ranks == [] and summary.run.state == "completed"
    assert text_of(imported).splitlines()[0].startswith(f"NOTHING COMPILED: {LOUD}")

    report = session.call("analyze_capture", capture="compiled_nothing_ranks")
    page = RunReportPage.model_validate(report.structured_content)
    assert page.compiled is not None and page.compiled.state == "nothing_compiled" and page.total_functions == 0
    assert text_of(report).splitlines()[0].startswith(f"NOTHING COMPILED: {LOUD}")

    compared = session.call("compare_runs", baseline="captures/stable", candidate="compiled_nothing_ranks")
    comparison = ComparisonPage.model_validate(compared.structured_content)
    assert comparison.candidate.compiled is not None and comparison.candidate.compiled.state == "nothing_compiled"
    assert text_of(compared).splitlines()[0].startswith(f"the candidate COMPILED NOTHING: {LOUD}")
    assert "nothing_compiled" in [n.code for n in comparison.notices]

    listed = CapturePage.model_validate(session.call("list_captures", full=True).structured_content)
    assert {c.label: c.compiled_state for c in listed.captures} == {
        "compiled_nothing_ranks": "nothing_compiled",
        "stable": "compiled",
    }
    assert "compiled_nothing_ranks run completed NOTHING COMPILED" in text_of(session.call("list_captures"))


def test_an_empty_trace_directory_is_no_trace(connect: Callable[..., Session], tmp_path: Path) -> None:
    (tmp_path / "TORCH_TRACE").mkdir()
    session = connect(tmp_path, store=tmp_path / "store")
    assert error_code(session.call("import_trace", path=str(tmp_path / "TORCH_TRACE"))) == "no_trace"
