"""What the tools return: schema models, wrapped with the paging and truncation facts an agent needs.

Nothing is cut silently: every list that was shortened to keep a response under the size limit says so in a
`truncated` note or an `*_omitted` count, and every page that is not the last carries `next_offset`.
"""

from __future__ import annotations

from typing import Any

from dynamo_diff_schema import (
    Comparability,
    CompiledStatus,
    Evidence,
    EvidenceEntry,
    FunctionReport,
    FunctionRow,
    GrepMatch,
    Notice,
    RankView,
    RunStatus,
    Side,
    Totals,
)
from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, field_serializer

from dynamo_diff_mcp.budget import trim_counts, trim_rank_view, trim_totals


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RankCounts(Out):
    rank: int | None = Field(description="None when neither the file name nor the records say.")
    counts: dict[str, int] = Field(description="Its non-zero counts (a count not listed is 0).")


class ImportSummary(Out):
    """The result of import_trace."""

    id: str = Field(description="The capture id (sha256 of the imported bytes); any unique prefix of 8+ works.")
    created: bool = Field(description="False when the same bytes were already in the store (nothing was written).")
    label: str | None = None
    run: RunStatus = Field(description="How the run ended; read it first: a run that did not finish has low counts.")
    compiled: CompiledStatus = Field(
        description="Whether anything compiled; read it first too: a run that compiled nothing has every count 0."
    )
    input_kind: str
    torch: str | None = None
    artifact_structure: str = Field(description="'partial' when the trace was cut or evidence is missing.")
    workload_completion: str
    counts: dict[str, int] = Field(description="Non-zero counts summed over ranks (a count not listed is 0).")
    possibly_undercounted: list[str] = Field(
        default_factory=list, description="Counts that may be low because evidence was missing."
    )
    ranks: list[RankCounts] = Field(default_factory=list)
    ranks_omitted: int = Field(0, description="Ranks left out to fit the response; see compare_ranks.")
    notices: list[Notice] = Field(default_factory=list)
    notices_omitted: int = 0
    next_calls: list[str] = Field(default_factory=list, description="Calls that usually come next.")


class ImportedRun(Out):
    id: str
    label: str | None = None
    created: bool
    run: str = Field(description="How the run ended, in words.")
    counts: dict[str, int] = Field(description="Its non-zero headline counts.")


class ImportedRuns(Out):
    """The result of import_trace on a folder of run folders."""

    total: int
    runs: list[ImportedRun]
    runs_omitted: int = 0
    next_calls: list[str] = Field(default_factory=list)


class CaptureEntry(Out):
    id: str
    label: str | None = None
    run: str = Field(
        description="How the run ended: completed, exited, killed, interrupted, trace_cut, partial, unknown."
    )
    compiled: str = Field(
        "compiled",
        description="compiled, nothing_compiled (no frame was compiled) or no_graph (no graph reached the backend).",
    )
    imported_at: str
    input_kind: str
    torch: str | None = None
    artifact_structure: str
    ranks: int
    compilations: int | None = Field(None, description="observed_compilation_identities")
    confirmed_recompilations: int | None = Field(None, description="confirmed_recompilation_identities")
    graph_breaks: int | None = Field(None, description="graph_break_records")
    failed: int | None = None


class CaptureList(Out):
    """The result of list_captures."""

    store: str
    total: int
    offset: int
    next_offset: int | None = Field(None, description="Pass as offset for the next page; None on the last page.")
    captures: list[CaptureEntry]


class RowEntry(Out):
    index: int = Field(description="Position of the row in the full list (changed rows first).")
    row: FunctionRow
    truncated: list[str] = Field(
        default_factory=list, description="What was cut from this row to fit the response (empty: nothing)."
    )

    @field_serializer("row", mode="wrap")
    def _listed_counts(self, row: FunctionRow, handler: SerializerFunctionWrapHandler) -> Any:
        return trim_counts(handler(row))


class ComparisonPage(Out):
    """One page of a comparison (compare_runs or compare_ranks): comparability first, then rows.

    In `rows`, each side's `counts` lists only its non-zero counts and the counts that changed, and `totals` only
    the counts that are non-zero on either side (a count not listed is 0). Comparability, totals, the rank view
    and notices are on the first page (offset 0) only."""

    comparison_id: str
    kind: str = Field(description="'captures' (baseline vs candidate) or 'ranks' (within one capture).")
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
    ranks: RankView | None = None
    ranks_truncated: list[str] = Field(default_factory=list)
    notices: list[Notice] = Field(default_factory=list)
    notices_omitted: int = 0
    total_rows: int
    offset: int
    next_offset: int | None = Field(None, description="Pass as offset for the next page; None on the last page.")
    rows: list[RowEntry]
    rows_truncated: bool = Field(False, description="True when any row on this page was cut (see its notes).")
    page_note: str | None = Field(None, description="Why fewer rows than page_size are shown, when they are.")
    next_calls: list[str] = Field(default_factory=list)

    @field_serializer("totals", mode="wrap")
    def _listed_totals(self, totals: Totals | None, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(totals)
        return trim_totals(data) if data else data

    @field_serializer("ranks", mode="wrap")
    def _listed_ranks(self, ranks: RankView | None, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(ranks)
        return trim_rank_view(data) if data else data


class EvidenceIndexPage(Out):
    """The result of get_evidence without evidence_id: a page of the capture's evidence index."""

    capture: str
    kind: str | None = None
    total: int
    offset: int
    next_offset: int | None = None
    items: list[EvidenceEntry]


class EvidenceText(Out):
    """The result of get_evidence with evidence_id: a hash-checked excerpt of the trace bytes."""

    capture: str
    evidence: Evidence
    sha256_verified: bool = True
    offset: int
    next_offset: int | None = Field(None, description="Pass as offset to read on; None when the excerpt ends.")
    total_chars: int
    text: str


class EvidenceMatches(Out):
    """The result of get_evidence with evidence_id and grep: the matching parts of one hash-checked record."""

    capture: str
    evidence: Evidence
    sha256_verified: bool = True
    pattern: str
    total_matches: int
    matches: list[GrepMatch]
    total_chars: int = Field(description="The whole record's length (read it with offset/max_chars).")


class EvidenceResult(Out):
    """The result of get_evidence: `index` without evidence_id, `excerpt` with it, `matches` with it and grep."""

    index: EvidenceIndexPage | None = None
    excerpt: EvidenceText | None = None
    matches: EvidenceMatches | None = None


class FunctionEntry(Out):
    index: int = Field(description="Position of the function in the full list (functions with problems first).")
    report: FunctionReport
    truncated: list[str] = Field(default_factory=list, description="What was cut to fit (empty: nothing).")


class RunPage(Out):
    """The result of analyze_capture: one run per source function, with evidence ids."""

    capture: str
    label: str | None = None
    torch: str | None = None
    run: RunStatus = Field(description="How the run ended; a run that did not finish has low counts.")
    compiled: CompiledStatus | None = Field(
        None, description="Whether anything compiled (a run that compiled nothing has every count 0)."
    )
    counts: dict[str, int] | None = Field(None, description="The run's non-zero counts (first page only).")
    total_functions: int
    offset: int
    next_offset: int | None = Field(None, description="Pass as offset for the next page; None on the last page.")
    functions: list[FunctionEntry]
    next_calls: list[str] = Field(default_factory=list)
