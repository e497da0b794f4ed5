"""Comparability, per-function rows, deltas and renderers for Dynamo Diff (works on schema models only)."""

from importlib.metadata import version as _version

from dynamo_diff_compare.capture_view import capture_markdown, capture_text
from dynamo_diff_compare.comparability import check_comparability
from dynamo_diff_compare.compare import COMPARE_VERSION, compare_captures, compare_ranks, user_sources
from dynamo_diff_compare.gate import GateResult, evaluate
from dynamo_diff_compare.html_report import ReportMaterial, RunMaterial, comparison_html
from dynamo_diff_compare.render import changed_first, comparison_markdown, comparison_text, piece_line
from dynamo_diff_compare.run_report import compilation_text, evidence_summaries, nonzero, run_report, run_report_text

__version__ = _version("dynamo-diff-compare")

__all__ = [
    "COMPARE_VERSION",
    "GateResult",
    "ReportMaterial",
    "RunMaterial",
    "__version__",
    "capture_markdown",
    "capture_text",
    "changed_first",
    "check_comparability",
    "compare_captures",
    "compare_ranks",
    "comparison_html",
    "comparison_markdown",
    "comparison_text",
    "compilation_text",
    "evaluate",
    "evidence_summaries",
    "nonzero",
    "piece_line",
    "run_report",
    "run_report_text",
    "user_sources",
]
