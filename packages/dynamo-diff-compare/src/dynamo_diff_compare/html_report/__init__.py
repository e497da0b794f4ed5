"""The HTML comparison report: one self-contained page (inline CSS and SVG, one inline script allowed by its hash,
no network request, every trace text escaped), readable from 800 to 1400 px and wider, in a light and a dark
colour scheme, and whole without its script (the VS Code webview runs none).

`page` assembles it; `chart` draws compile time per function, `timeline` each run's compilations, `details`
each row's changes side by side with its evidence, `records` each compilation's links to its graphs, guards and
generated code and the section that holds their text, `source` the function's two versions with the changed
lines; `script` is the page's one script (open what a link points into, sort the functions table), `style` the
inline CSS and `text` how values are written (never Python's None or JSON's null)."""

from dynamo_diff_compare.html_report.inputs import LINKED_RECORDS, Excerpt, RecordText, ReportMaterial, RunMaterial
from dynamo_diff_compare.html_report.page import CSP, comparison_html

__all__ = ["CSP", "LINKED_RECORDS", "Excerpt", "RecordText", "ReportMaterial", "RunMaterial", "comparison_html"]
