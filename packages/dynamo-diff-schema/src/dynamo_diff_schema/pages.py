"""The page documents: what the MCP server returns where a whole document would not fit one response. Each page
wraps the rows and entries of the document it is a page of (a capture list's `CaptureRow`, a comparison's
`FunctionRow`, a run report's `FunctionReport`) with where it starts (`offset`), how many there are and where to
read on (`next_offset`, None on the last page), and says what was cut to fit (`truncated`, `*_omitted`). The
evidence index, an excerpt and grep matches are pages already (`evidence_index`, `evidence_excerpt`,
`evidence_grep` in results.py) and an error is `error`: the MCP server returns those as the CLI prints them.

In a page, a `Counts` may list only some of its counts: those not listed are 0 (the server leaves out the zero
ones to keep a response small; every count has 0 as its default, so the page still validates). More generally a
page leaves out every value at its schema default (None, an empty list, 0, false), except `kind`,
`schema_version` and `next_offset`. By default the MCP server returns a page's outline (`outline` set): its ids,
counts and offsets, each item's identity, with the prose its text says left out (a required text written empty);
`full=true` gives the whole page."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.capture import CompiledStatus, RunStatus, Validity
from dynamo_diff_schema.comparison import Comparability, FunctionRow, RankView, Side, Totals
from dynamo_diff_schema.counts import Counts
from dynamo_diff_schema.evidence import Notice
from dynamo_diff_schema.results import OUTLINE, CaptureRow, FailedRun
from dynamo_diff_schema.run_report import FunctionReport
from dynamo_diff_schema.suggestions import Suggestion
from dynamo_diff_schema.version import SCHEMA_VERSION

NEXT_OFFSET = "Pass as offset for the next page; None on the last page."
NEXT_CALLS = "Calls that usually come next (MCP tool calls)."


class CapturePage(Model):
    """`list_captures` (MCP): a page of the store's captures, newest first; each row is a `capture_list` row."""

    kind: Literal["capture_page"] = "capture_page"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    store: str = Field(description="The store directory.")
    total: int = Field(ge=0, description="Captures in the store.")
    offset: int = Field(ge=0)
    next_offset: int | None = Field(None, description=NEXT_OFFSET)
    captures: list[CaptureRow] = Field(default_factory=list)


class RankCounts(Model):
    """One rank of an imported capture: its counts (a capture document's `ranks[].counts`)."""

    rank: int | None = Field(description="None when neither the file name nor the records say.")
    counts: Counts


class ImportedRun(Model):
    """One run imported (or found already in the store, `created` false): its `capture_list` row."""

    capture: CaptureRow
    created: bool = Field(description="False: a capture of the same bytes was already in the store.")
    input: str = Field(description="The path imported, as given (for a folder of runs: the run's sub-folder).")


class ImportPage(Model):
    """`import_trace` (MCP): what `import_result` says, cut to fit one response. One run: its row, how it ended,
    whether it compiled, its validity, its ranks' counts and its notices. A folder of runs: one row per run."""

    kind: Literal["import_page"] = "import_page"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    folder_of_runs: bool = Field(False, description="The path was a folder of runs, each imported on its own.")
    total: int = Field(ge=0, description="Runs imported.")
    captures: list[ImportedRun] = Field(
        default_factory=list,
        description="The runs: every run on a folder's first page, only the page's own on a later one (offset > 0).",
    )
    captures_omitted: int = Field(0, ge=0, description="Runs left out to fit the response (see list_captures).")
    offset: int = Field(0, ge=0, description="A folder of runs: the first run said whole on this page.")
    next_offset: int | None = Field(
        None,
        description="A folder of runs: the offset of the next run to say whole; None when the page reaches the end.",
    )
    failed: list[FailedRun] = Field(
        default_factory=list, description="A folder of runs: the runs found that could not be imported, and why."
    )
    run: RunStatus | None = Field(
        None, description="One run: how it ended; read it first (a run that did not finish has low counts)."
    )
    compiled: CompiledStatus | None = Field(
        None, description="One run: whether anything compiled (a run that compiled nothing has every count 0)."
    )
    validity: Validity | None = Field(
        None, description="One run: whether the trace is whole ('partial': counts may be low) and declared complete."
    )
    ranks: list[RankCounts] = Field(
        default_factory=list,
        description="One run of several ranks: the counts of each rank (empty for one rank: its counts are the "
        "capture row's).",
    )
    ranks_omitted: int = Field(0, ge=0, description="Ranks left out to fit the response (see compare_ranks).")
    notices: list[Notice] = Field(default_factory=list)
    notices_omitted: int = Field(0, ge=0)
    next_calls: list[str] = Field(default_factory=list, description=NEXT_CALLS)


class FunctionEntry(Model):
    """A run report's function on a page."""

    index: int = Field(
        ge=0, description="Position of the function in the whole report (functions with problems first)."
    )
    report: FunctionReport
    truncated: list[str] = Field(default_factory=list, description="What was cut to fit (empty: nothing).")


class RunReportPage(Model):
    """`analyze_capture` (MCP): a page of a `run_report`, one source function per entry with evidence ids."""

    kind: Literal["run_report_page"] = "run_report_page"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id.")
    label: str | None = None
    torch: str | None = None
    run: RunStatus = Field(description="How the run ended; a run that did not finish has low counts.")
    compiled: CompiledStatus | None = Field(
        None, description="Whether anything compiled (a run that compiled nothing has every count 0)."
    )
    counts: dict[str, int] | None = Field(None, description="The run's non-zero counts (first page only).")
    sources_note: str | None = Field(
        None,
        description="Set when the source snapshots the lines shown come from were found beside a bare log at "
        "import, not recorded when it ran (they may differ from what ran): says so and how many files.",
    )
    suggestions: list[Suggestion] = Field(
        default_factory=list, description="Next steps for the run as a whole (first page only): it compiled nothing."
    )
    total_functions: int = Field(ge=0)
    offset: int = Field(ge=0)
    next_offset: int | None = Field(None, description=NEXT_OFFSET)
    functions: list[FunctionEntry] = Field(default_factory=list)
    next_calls: list[str] = Field(default_factory=list, description=NEXT_CALLS)


class RowEntry(Model):
    """A comparison's row on a page."""

    index: int = Field(ge=0, description="Position of the row in the whole comparison (changed rows first).")
    row: FunctionRow = Field(
        description="The row; each side's `counts` lists its non-zero counts (a count not listed is 0), without "
        "compile times (analyze_capture has each compilation's time). A page leaves out what the text or the sides "
        "already say: `deltas` (the candidate's counts minus the baseline's) and `pieces` (the text names each "
        "frame with its counts); values left out at the default are their default."
    )
    truncated: list[str] = Field(
        default_factory=list, description="What was cut from this row to fit the response (empty: nothing)."
    )


class ComparisonPage(Model):
    """`compare_runs` and `compare_ranks` (MCP): a page of a `comparison` or a `rank_view`. What the whole
    comparison says (comparability, totals, the rank view, notices, how each run ended) is on the first page
    (offset 0) only: later pages name the sides by id, label and torch; `totals` lists the counts that are non-zero
    on either side, without the compile-phase split. The page's comparability leaves out `checked` (the keys found
    equal: the text lists them with their values) and `explained` (`comparability_line` sums it up); each cut is
    in `comparability_truncated`."""

    kind: Literal["comparison_page", "rank_view_page"] = Field(
        description="comparison_page: a page of a comparison of two captures; rank_view_page: of the ranks of one."
    )
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    comparison_id: str = Field(description="The comparison's id (its document's `id`).")
    baseline: Side
    candidate: Side
    comparability: Comparability | None = Field(None, description="First page only.")
    comparability_truncated: list[str] = Field(default_factory=list)
    comparability_line: str | None = Field(
        None,
        description="First page only: the verdict in one line from the whole comparison (how many differences come "
        "with each one, before `comparability` was cut to fit).",
    )
    totals: Totals | None = Field(None, description="First page only.")
    ranks: RankView | None = Field(None, description="A rank view's groups and divergences (first page only).")
    ranks_truncated: list[str] = Field(default_factory=list)
    notices: list[Notice] = Field(default_factory=list)
    notices_omitted: int = Field(0, ge=0)
    total_rows: int = Field(ge=0, description="Rows of the whole comparison (its `functions`).")
    offset: int = Field(ge=0)
    next_offset: int | None = Field(None, description=NEXT_OFFSET)
    rows: list[RowEntry] = Field(default_factory=list)
    rows_truncated: bool = Field(False, description="True when any row on this page was cut (see its notes).")
    page_note: str | None = Field(None, description="Why fewer rows than page_size are shown, when they are.")
    next_calls: list[str] = Field(default_factory=list, description=NEXT_CALLS)
