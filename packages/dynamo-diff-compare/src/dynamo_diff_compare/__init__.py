"""Comparability, per-function rows, deltas and renderers for Dynamo Diff (works on schema models only).

Each name loads its module on first use: rendering one capture (`dynamo-diff import`, `analyze`) does not load
the comparison, the matcher or the HTML report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dynamo_diff_schema.lazy import lazy_names

if TYPE_CHECKING:
    from dynamo_diff_compare.call_sites import called_from_text
    from dynamo_diff_compare.capture_view import capture_markdown, capture_text
    from dynamo_diff_compare.ci_summary import (
        SummaryRow,
        check_markdown,
        check_row,
        snapshot_row,
        snapshot_verdict_markdown,
        snapshot_verdict_text,
        summary_markdown,
    )
    from dynamo_diff_compare.comparability import check_comparability
    from dynamo_diff_compare.compare import COMPARE_VERSION, compare_captures, compare_ranks, user_sources
    from dynamo_diff_compare.compile_time import (
        COMPILE_TIME_NOISE,
        compile_time_change,
        compile_time_noise,
        compile_time_text,
        phase_times_text,
    )
    from dynamo_diff_compare.compiled import COMPILED_WORDS, compiled_line
    from dynamo_diff_compare.evidence_view import index_lines
    from dynamo_diff_compare.gate import GateResult, check_text, evaluate
    from dynamo_diff_compare.hint_words import PLAIN_HINTS, HintWords, phrase, with_hint
    from dynamo_diff_compare.html_report import (
        LINKED_RECORDS,
        Excerpt,
        RecordText,
        ReportMaterial,
        RunMaterial,
        comparison_html,
    )
    from dynamo_diff_compare.render import (
        change_lines,
        changed_first,
        comparison_markdown,
        comparison_text,
        count_pair,
        piece_line,
        piece_name,
        row_name,
        side_label,
        source_lines,
    )
    from dynamo_diff_compare.run_report_view import (
        InputsSaid,
        TextSaid,
        aot_graph_summary,
        compilation_text,
        context_once,
        evidence_summaries,
        nonzero,
        report_counts,
        report_label,
        run_report,
        run_report_text,
        with_suggestions,
    )
    from dynamo_diff_compare.scripts_view import Script, ShownScripts, run_scripts, scripts_text
    from dynamo_diff_compare.shape_records import SHAPE_RECORD_KINDS, shape_record_summary
    from dynamo_diff_compare.snapshot import snapshot_json, snapshot_of, snapshot_verdict
    from dynamo_diff_compare.source_change import row_code_changes
    from dynamo_diff_compare.suggestions import suggestion_brief, suggestion_text
    from dynamo_diff_compare.terminal_lines import terminal_text
    from dynamo_diff_compare.verdict_text import (
        coming_with,
        difference_phrase,
        effect_text,
        followers,
        verdict_headline,
        with_it,
    )

# Name -> the module that defines it. No module has the name of a function it exports (the import system would
# set the package attribute to the module).
_LAZY = {
    "capture_markdown": "capture_view",
    "capture_text": "capture_view",
    "terminal_text": "terminal_lines",
    "snapshot_of": "snapshot",
    "snapshot_json": "snapshot",
    "snapshot_verdict": "snapshot",
    "SummaryRow": "ci_summary",
    "check_markdown": "ci_summary",
    "check_row": "ci_summary",
    "snapshot_row": "ci_summary",
    "snapshot_verdict_markdown": "ci_summary",
    "snapshot_verdict_text": "ci_summary",
    "summary_markdown": "ci_summary",
    "check_comparability": "comparability",
    "COMPILE_TIME_NOISE": "compile_time",
    "compile_time_change": "compile_time",
    "compile_time_noise": "compile_time",
    "compile_time_text": "compile_time",
    "phase_times_text": "compile_time",
    "COMPILED_WORDS": "compiled",
    "PLAIN_HINTS": "hint_words",
    "HintWords": "hint_words",
    "phrase": "hint_words",
    "with_hint": "hint_words",
    "compiled_line": "compiled",
    "coming_with": "verdict_text",
    "difference_phrase": "verdict_text",
    "effect_text": "verdict_text",
    "followers": "verdict_text",
    "with_it": "verdict_text",
    "verdict_headline": "verdict_text",
    "COMPARE_VERSION": "compare",
    "compare_captures": "compare",
    "compare_ranks": "compare",
    "user_sources": "compare",
    "GateResult": "gate",
    "evaluate": "gate",
    "check_text": "gate",
    "LINKED_RECORDS": "html_report",
    "Excerpt": "html_report",
    "RecordText": "html_report",
    "ReportMaterial": "html_report",
    "RunMaterial": "html_report",
    "comparison_html": "html_report",
    "change_lines": "render",
    "changed_first": "render",
    "comparison_markdown": "render",
    "comparison_text": "render",
    "piece_line": "render",
    "piece_name": "render",
    "count_pair": "render",
    "row_name": "render",
    "side_label": "render",
    "change_evidence": "render",
    "source_lines": "render",
    "row_code_changes": "source_change",
    "called_from_text": "call_sites",
    "index_lines": "evidence_view",
    "InputsSaid": "run_report_view",
    "aot_graph_summary": "run_report_view",
    "TextSaid": "run_report_view",
    "compilation_text": "run_report_view",
    "context_once": "run_report_view",
    "evidence_summaries": "run_report_view",
    "nonzero": "run_report_view",
    "report_counts": "run_report_view",
    "report_label": "run_report_view",
    "run_report": "run_report_view",
    "run_report_text": "run_report_view",
    "with_suggestions": "run_report_view",
    "Script": "scripts_view",
    "run_scripts": "scripts_view",
    "scripts_text": "scripts_view",
    "ShownScripts": "scripts_view",
    "SHAPE_RECORD_KINDS": "shape_records",
    "shape_record_summary": "shape_records",
    "suggestion_brief": "suggestions",
    "suggestion_text": "suggestions",
}


__getattr__ = lazy_names(__name__, "dynamo-diff-compare", _LAZY)


__all__ = [
    "COMPARE_VERSION",
    "COMPILED_WORDS",
    "COMPILE_TIME_NOISE",
    "LINKED_RECORDS",
    "PLAIN_HINTS",
    "SHAPE_RECORD_KINDS",
    "Excerpt",
    "GateResult",
    "HintWords",
    "InputsSaid",
    "RecordText",
    "ReportMaterial",
    "RunMaterial",
    "Script",
    "ShownScripts",
    "SummaryRow",
    "TextSaid",
    "__version__",
    "aot_graph_summary",
    "called_from_text",
    "capture_markdown",
    "capture_text",
    "change_evidence",
    "change_lines",
    "changed_first",
    "check_comparability",
    "check_markdown",
    "check_row",
    "check_text",
    "coming_with",
    "compare_captures",
    "compare_ranks",
    "comparison_html",
    "comparison_markdown",
    "comparison_text",
    "compilation_text",
    "compile_time_change",
    "compile_time_noise",
    "compile_time_text",
    "compiled_line",
    "context_once",
    "count_pair",
    "difference_phrase",
    "effect_text",
    "evaluate",
    "evidence_summaries",
    "followers",
    "index_lines",
    "nonzero",
    "phase_times_text",
    "phrase",
    "piece_line",
    "piece_name",
    "report_counts",
    "report_label",
    "row_code_changes",
    "row_name",
    "run_report",
    "run_report_text",
    "run_scripts",
    "scripts_text",
    "shape_record_summary",
    "side_label",
    "snapshot_json",
    "snapshot_of",
    "snapshot_row",
    "snapshot_verdict",
    "snapshot_verdict_markdown",
    "snapshot_verdict_text",
    "source_lines",
    "suggestion_brief",
    "suggestion_text",
    "summary_markdown",
    "terminal_text",
    "user_sources",
    "verdict_headline",
    "with_hint",
    "with_it",
    "with_suggestions",
]
