"""The HTML comparison report: one self-contained page (inline CSS and SVG, no script, no network request,
every trace text escaped), readable at 1400 px, in a light and a dark colour scheme.

`page` assembles it; `chart` draws compile time per function, `timeline` each run's compilations, `details`
each row's changes side by side with its evidence, `source` the function's two versions with the changed lines;
`style` is the inline CSS and `text` how values are written (never Python's None or JSON's null)."""

from dynamo_diff_compare.html_report.inputs import LINKED_RECORDS, RecordText, ReportMaterial, RunMaterial
from dynamo_diff_compare.html_report.page import CSP, comparison_html

__all__ = ["CSP", "LINKED_RECORDS", "RecordText", "ReportMaterial", "RunMaterial", "comparison_html"]
