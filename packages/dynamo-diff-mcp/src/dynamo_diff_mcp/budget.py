"""Keeping every response under the size limit, and saying exactly what was cut to get there.

Sizes are characters of the JSON a client receives for the tool result (text content plus structured
content). Cutting works on the schema models themselves (a cut is a copy with a shorter list, a shorter text or
a value left out), so what goes out is still a valid document; each cut adds a note. `page` is the one paging
helper: every paged tool shows as many items as fit, and says where to read on. A document's counts go out
listing only the counts that say something (`listed`): every count defaults to 0, so the document still
validates against its schema.

By default the structured content is the document's outline (`outline`): its ids, run status, offsets and each
item's identity and headline counts, not a second copy of what the text says; a call with full=true gets the whole
document (`tool_result`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, TypeVar

from dynamo_diff_schema import (
    HEADLINE_COUNTS,
    Change,
    Comparability,
    CompilationLine,
    Counts,
    Difference,
    FunctionReport,
    FunctionRow,
    FunctionSide,
    Notice,
    RankDivergence,
    RankGroup,
    RankView,
    RowEntry,
    Severity,
    Suggestion,
    SuggestionKind,
    short_id,
)
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

# The promise: no tool result is longer than this (characters of its JSON)...
RESPONSE_LIMIT = 12_000
# What the server fills, leaving room for the JSON-RPC envelope around the result.
BUDGET = 11_000
# ... unless the call names its page_size: then the page holds that many whole rows or functions up to this bound.
PAGED_RESPONSE_LIMIT = 30_000
PAGED_BUDGET = 29_000

# Parts of a comparison page other than rows; generous for real captures, hard caps for odd ones.
COMPARABILITY_CHARS = 2_400
RANKS_CHARS = 2_800
NOTICES_CHARS = 1_600
VALUE_CHARS = 300  # one changed value (e.g. an op histogram) shown in full up to this size
LIST_ITEMS = 8  # compile ids / evidence ids / alternatives kept when a row has to be cut


def _json_form(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"{type(value).__name__} is not JSON")


def size(value: Any) -> int:
    """Characters of the JSON form of `value` (models as they dump)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_json_form))


def result_size(result: CallToolResult) -> int:
    return len(result.model_dump_json(by_alias=True, exclude_none=True))


def largest_fitting(
    build: Callable[[int], CallToolResult], count: int, *, limit: int | None = None
) -> tuple[int, CallToolResult]:
    """The largest k in 1..count whose build(k) fits `limit` (default BUDGET; size grows with k); build(1) if none
    does."""
    limit = BUDGET if limit is None else limit
    best = build(min(count, 1))
    if count <= 1 or result_size(best) > limit:
        return min(count, 1), best
    full = build(count)
    if result_size(full) <= limit:
        return count, full
    lo, hi = 1, count  # build(lo) fits, build(hi) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        candidate = build(mid)
        if result_size(candidate) <= limit:
            lo, best = mid, candidate
        else:
            hi = mid
    return lo, best


def listed(document: dict[str, Any]) -> dict[str, Any]:
    """A page document (as JSON) whose counts list only those that say something: a comparison's rows and totals
    (`trim_counts`, `trim_totals`) and rank view (`trim_rank_view`), the rows and ranks of captures (non-zero)."""
    kind = document.get("kind")
    if kind in {"comparison_page", "rank_view_page"}:
        if "rows" in document:
            document["rows"] = [{**entry, "row": trim_counts(entry["row"])} for entry in document["rows"]]
        if document.get("totals"):
            document["totals"] = trim_totals(document["totals"])
        if document.get("ranks"):
            document["ranks"] = trim_rank_view(document["ranks"])
    elif kind == "capture_page":
        for row in document.get("captures", []):
            row["counts"] = nonzero_counts(row.get("counts", {}))
    elif kind == "import_page":
        for run in document.get("captures", []):
            run["capture"]["counts"] = nonzero_counts(run["capture"].get("counts", {}))
        for rank in document.get("ranks", []):
            rank["counts"] = nonzero_counts(rank.get("counts", {}))
    return document


# Written in every structured result even at their default: what the document is, and where to read on.
_ALWAYS = ("kind", "schema_version", "next_offset")


def lean(model: BaseModel) -> dict[str, Any]:
    """The document as JSON without the values its schema gives by default (None, empty lists, 0, false): a value
    left out is its default, so the document still validates; `kind`, `schema_version` and `next_offset` are
    always written."""
    document = model.model_dump(mode="json", exclude_defaults=True)
    head = {key: getattr(model, key) for key in _ALWAYS if key in type(model).model_fields}
    return {**head, **document}


# The counts an outline keeps: the headline ones, every row's columns (compilations, confirmed recompilations, graph
# breaks, failures, limit hits, cache hits and misses), and which may be undercounted; the text says the others.
_HEADLINE = frozenset(key for key, _ in HEADLINE_COUNTS)
# What an outline keeps of each model besides its required fields: what a program navigates by (ids and labels,
# how a run ended and whether it compiled, offsets and totals, each item's identity and headline counts, next
# calls). The rest the result's text says: summaries, guard texts, source lines, notes, hints, reasons,
# suggestions, values, times, torch versions, evidence ids (but an excerpt's or grep's own evidence), compile ids, a
# function's compilations and a row's changes, comparability's differences, the entries of the capture list and of
# the evidence index, a search's records and several excerpts' records (each a whole evidence entry of required
# fields, longer than its line of text). A model not named keeps its required fields only.
_KEPT: dict[str, frozenset[str]] = {
    name: frozenset(fields.split())
    for name, fields in {
        "CapturePage": "next_offset",
        "ImportPage": "folder_of_runs captures captures_omitted failed ranks ranks_omitted notices notices_omitted "
        "next_calls",
        "RunReportPage": "label compiled counts next_offset functions next_calls",
        "ComparisonPage": "comparability totals ranks notices notices_omitted next_offset rows next_calls",
        "EvidenceIndex": "next_offset",
        "EvidenceExcerpt": "next_offset",
        "EvidenceExcerpts": "excerpts_omitted",
        "EvidenceDiff": "lines_differ lines_omitted",
        "EvidenceGrep": "shown_matches",
        "EvidenceSearch": "records_matched total_matches shown_matches joint_graphs_skipped",
        "EvidenceHit": "shown_matches",
        "SourceResult": "file locations",
        "SourceDiff": "function file functions",
        "CaptureRow": "label",
        "RunStatus": "trace_cut evidence_missing",
        "Notice": "rank",
        "Counts": " ".join(sorted(_HEADLINE | {"incomplete"})),
        "FunctionReport": "file line",
        "Side": "label run compiled",
        "RankView": "groups divergences",
        "RankGroup": "reference",
        "RankDivergence": "compile_id",
        "FunctionRow": "baseline candidate",
        "FunctionSide": "qualified_name file line rank",
        "Evidence": "rank compile_id",
        "SourceLocation": "line name",
        "FunctionSourceDiff": "qualified_name role baseline candidate",
    }.items()
}
# Required prose and detail, written empty in an outline ("" or []): the schema requires the field, the text says it.
_BLANK = frozenset(
    {
        "CapturePage.store",
        "CaptureRow.imported_at",
        "CaptureRow.input_kind",
        "CaptureRow.artifact_structure",
        "ImportedRun.input",
        "FailedRun.message",
        "RunStatus.summary",
        "CompiledStatus.summary",
        "Notice.message",
        "RankDivergence.reason",
        "EvidenceExcerpt.text",
        "GrepMatch.lines",
        "SourceLocation.co_filename",
        "SourceLocation.text",
        "FunctionSourceDiff.lines",
    }
)
# Ids an outline writes short, as the text does (any tool takes a unique prefix; full=true has the whole id).
_SHORT = frozenset(
    {
        "RunReportPage.capture",
        "ComparisonPage.comparison_id",
        "Side.id",
        "EvidenceIndex.capture",
        "EvidenceExcerpt.capture",
        "EvidenceGrep.capture",
        "EvidenceSearch.capture",
        "SourceResult.capture",
        "SourceDiff.baseline",
        "SourceDiff.candidate",
    }
)
# Lists an outline keeps only some items of (the text names the others): a page's notices keep the warnings and
# errors (an informational notice, `raw_trace_preferred`, is the text's).
_SOME: dict[str, Callable[[Any], bool]] = {
    "ImportPage.notices": lambda notice: notice.severity != Severity.INFO,
    "ComparisonPage.notices": lambda notice: notice.severity != Severity.INFO,
}
# Where an outline says it is one, naming the argument that gives the whole document.
OUTLINE_NOTE = "full=true gives the whole document"


def _outlined(value: Any) -> Any:
    """`value` as JSON, each model as its outline (`_KEPT`, `_BLANK`), values at their default left out; a run
    report's counts (a dict) keep the headline ones."""
    if isinstance(value, BaseModel):
        cls = type(value)
        kept = _KEPT.get(cls.__name__, frozenset())
        out: dict[str, Any] = {}
        for name, field in cls.model_fields.items():
            item = getattr(value, name)
            written = name in _ALWAYS or field.is_required()
            if f"{cls.__name__}.{name}" in _BLANK:
                out[name] = [] if isinstance(item, list) else ""
            elif f"{cls.__name__}.{name}" in _SHORT and isinstance(item, str):
                out[name] = short_id(item)
            elif name == "counts" and isinstance(item, dict):  # a run report's, {count: n}: the headline ones
                out[name] = {k: v for k, v in item.items() if k in _HEADLINE and v}
            elif name == "next_calls":  # the calls a program can make as they are (a template is the text's)
                if calls := [call for call in item if "<" not in call]:
                    out[name] = calls
            elif (some := _SOME.get(f"{cls.__name__}.{name}")) is not None:
                if (parts := [part for part in item if some(part)]) or written:
                    out[name] = _outlined(parts)
            elif written or (name in kept and item != field.get_default(call_default_factory=True)):
                out[name] = _outlined(item)
        if "outline" in cls.model_fields:
            out = {**{k: out[k] for k in ("kind", "schema_version") if k in out}, "outline": OUTLINE_NOTE, **out}
        return out
    if isinstance(value, list | tuple):
        return [_outlined(item) for item in value]
    if isinstance(value, dict):
        return {key: _outlined(item) for key, item in value.items()}
    if isinstance(value, Enum):
        return value.value
    return value


def outline(model: BaseModel) -> dict[str, Any]:
    """The document's outline, a tool's default structured content: what a program navigates and computes by
    (kind, ids and labels, capture and comparison ids short as the text writes them, how each run ended and whether
    it compiled, offsets and totals, next calls, each item's identity and headline counts), without the prose and
    detail the result's text says (`_KEPT`, `_BLANK`, `_SOME`, `_SHORT`);
    values at their default left out as `lean` does. It says it is an outline (`outline`: full=true gives the whole
    document) and validates against the document's schema."""
    document: dict[str, Any] = _outlined(model)
    return document


def tool_result(model: BaseModel, text: str, *, full: bool = False) -> CallToolResult:
    """A short text for the model to read, and as the structured content the document's outline (`outline`), or
    with `full` the document itself (`lean`, `listed`)."""
    structured = listed(lean(model)) if full else outline(model)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured)


# With full=true, the whole document is at most this many times its text (both as an agent reads them).
STRUCTURED_PER_TEXT = 2


def lean_enough(model: BaseModel, text: str) -> bool:
    """Whether the whole document, as full=true writes it, is within STRUCTURED_PER_TEXT of the text."""
    return size(listed(lean(model))) <= STRUCTURED_PER_TEXT * len(text)


def _guards_only(value: Any) -> Any:
    """A recompile-reason change's side cut to its category, its count and its failing guards' first lines (what the
    text shows of each; the user stack torch writes under a guard goes): whole guards stay, never a side."""
    if not isinstance(value, dict):
        return None
    examples = [e.split("\n", 1)[0][:VALUE_CHARS] for e in value.get("examples") or [] if isinstance(e, str)]
    kept = {k: value[k] for k in ("category", "failing_guards", "other_texts") if k in value}
    return {**kept, **({"examples": examples} if examples else {})}


def without_change_values(entry: RowEntry) -> RowEntry:
    """A page's row whose changes keep their summary and evidence ids, not their values (noted on the row)."""
    row = entry.row
    if not any(c.baseline is not None or c.candidate is not None for c in row.changes):
        return entry
    changes = [
        c.model_copy(update={"baseline": _guards_only(c.baseline), "candidate": _guards_only(c.candidate)})
        if c.kind == "recompile_reason"
        else c.model_copy(update={"baseline": None, "candidate": None})
        for c in row.changes
    ]
    note = (
        "changes: values left out but each side's failing guards, their first lines (each summary says them; "
        "get_evidence shows the records)"
    )
    return entry.model_copy(
        update={"row": row.model_copy(update={"changes": changes}), "truncated": [*entry.truncated, note]}
    )


Item = TypeVar("Item")
# What a paged tool makes of the items it shows and the offset to read on from (None: the last page).
MakePage = Callable[[Sequence[Item], int | None], tuple[BaseModel, str]]


def page_limit(page_size: int, default: int) -> int:
    """The bound of a page: BUDGET for the default page size (as many as fit one ordinary response), PAGED_BUDGET
    when the call names another page_size (that many whole items, up to it)."""
    return BUDGET if page_size == default else PAGED_BUDGET


def page(
    items: Sequence[Item],
    make: MakePage[Item],
    *,
    offset: int = 0,
    total: int | None = None,
    limit: int | None = None,
    full: bool = False,
) -> CallToolResult:
    """The result of a paged tool: as many of `items` as fit `limit` (default BUDGET), in order. `items` start at
    `offset` of `total` (default: they are all there is); `make(shown, next_offset)` returns the page's model and
    text, and `next_offset` is None when the page reaches the end. The structured content is the page's outline,
    or with `full` the page itself (`tool_result`)."""
    end_of_all = offset + len(items) if total is None else total

    def build(k: int) -> CallToolResult:
        end = offset + k
        return tool_result(*make(items[:k], end if end < end_of_all else None), full=full)

    return largest_fitting(build, len(items), limit=limit)[1]


Cut = TypeVar("Cut", bound=BaseModel)


def _cap_list(model: Cut, key: str, keep: int, label: str, notes: list[str]) -> Cut:
    items = getattr(model, key)
    if isinstance(items, list) and len(items) > keep + (1 if keep else 0):  # never one left out (but to none)
        notes.append(f"{label}: {keep} of {len(items)} shown")
        return model.model_copy(update={key: items[:keep]})
    return model


def _cut_value(model: Cut, key: str, label: str, notes: list[str], limit: int = VALUE_CHARS) -> Cut:
    value = getattr(model, key)
    if value is not None and size(value) > limit:
        notes.append(f"{label}: value omitted ({size(value)} characters; see its evidence)")
        return model.model_copy(update={key: None})
    return model


def _cut_text(model: Cut, key: str, limit: int, label: str, notes: list[str]) -> Cut:
    text = getattr(model, key)
    if isinstance(text, str) and len(text) > limit:
        notes.append(f"{label}: first {limit} of {len(text)} characters shown")
        return model.model_copy(update={key: text[:limit] + "…"})
    return model


SOURCE_LINES = 2  # changed lines kept a side of a `source` change when a row has to be cut


def _cut_source(change: Change, side: str, label: str, notes: list[str]) -> Change:
    """A `source` change's side with its first few changed lines (the rest counted in `<key>_more`), each line
    at most 120 characters: which lines changed stays on the row."""
    value = getattr(change, side)
    if not isinstance(value, dict):
        return change
    key = "removed" if side == "baseline" else "added"
    lines = value.get(key) or []
    cut = [{**item, "text": str(item.get("text", ""))[:120]} for item in lines[:SOURCE_LINES]]
    if cut == lines:
        return change
    more = len(lines) - len(cut) + int(value.get(f"{key}_more") or 0)
    notes.append(f"{label}: {len(cut)} of {len(cut) + more} changed lines kept")
    return change.model_copy(update={side: {**value, key: cut, f"{key}_more": more} if more else {**value, key: cut}})


def _listed_source(change: Change) -> Change:
    """A `source` change as a page lists it: its summary says where the code is; each side keeps its first few
    changed lines (the rest counted), each at most 80 characters."""
    update = {}
    for side, key in (("baseline", "removed"), ("candidate", "added")):
        value = getattr(change, side)
        if isinstance(value, dict):
            lines = value.get(key) or []
            more = len(lines) - SOURCE_LINES + int(value.get(f"{key}_more") or 0) if len(lines) > SOURCE_LINES else 0
            kept = {
                "role": value.get("role"),
                key: [{**i, "text": str(i.get("text", "")).strip()[:80]} for i in lines[:SOURCE_LINES]],
            }
            if more or value.get(f"{key}_more"):
                kept[f"{key}_more"] = more or value.get(f"{key}_more")
            if value.get("call_line") is not None:
                kept["call_line"] = value["call_line"]
            update[side] = kept
    return change.model_copy(update=update)


def _sides(model: Cut, cut: Callable[[FunctionSide, str], FunctionSide]) -> Cut:
    """The model with each of its sides (baseline, candidate) that is there replaced by cut(side, its name)."""
    update = {}
    for name in ("baseline", "candidate"):
        side = getattr(model, name)
        if side is not None:
            update[name] = cut(side, name)
    return model.model_copy(update=update)


def listed_row(row: FunctionRow) -> FunctionRow:
    """The row as a page lists it: without its compile-phase changes (compile times: analyze_capture has them),
    without the source lines around a function whose compilation did not change (get_source has them), and
    without its frames (`pieces`: the page's text names each frame with its counts)."""
    changes = [c for c in row.changes if c.kind != "phase_time"]
    if not row.deltas and all(c.kind == "source" for c in changes):
        changes = []
    changes = [_listed_source(c) if c.kind == "source" else c for c in changes]
    suggestions = [_listed_suggestion(s) for s in row.suggestions]
    if changes == row.changes and not row.pieces and suggestions == row.suggestions:
        return row
    return row.model_copy(update={"changes": changes, "pieces": [], "suggestions": suggestions})


def row_size(row: FunctionRow) -> int:
    """Characters of the row as a page writes it (its sides' counts trimmed, see `trim_counts`)."""
    return size(trim_counts(row.model_dump(mode="json")))


def shrink_row(row: FunctionRow, limit: int) -> tuple[FunctionRow, list[str]]:
    """A row as a page lists it, cut step by step until it is at most `limit` characters, with notes."""
    notes: list[str] = []
    row = listed_row(row)
    if row_size(row) <= limit:
        return row, notes
    # 1: long lists and large changed values.
    row = _sides(row, lambda side, name: _cap_list(side, "compile_ids", LIST_ITEMS, f"{name}.compile_ids", notes))
    row = _cap_list(row, "alternatives", LIST_ITEMS, "alternatives", notes)
    row = _cap_list(row, "pieces", LIST_ITEMS, "pieces", notes)
    row = row.model_copy(
        update={
            "pieces": [
                _sides(piece, lambda side, _: _cap_list(side, "compile_ids", 2, "pieces.compile_ids", notes))
                for piece in row.pieces
            ]
        }
    )
    changes: list[Change] = []
    for i, original in enumerate(row.changes):
        change = original
        for side in ("baseline", "candidate"):
            change = _cap_list(change, f"{side}_evidence", LIST_ITEMS, f"changes[{i}].{side}_evidence", notes)
            if change.kind == "source":  # bounded by its lines, which the text lists
                change = _cut_source(change, side, f"changes[{i}].{side}", notes)
            else:
                change = _cut_value(change, side, f"changes[{i}].{side}", notes)
        changes.append(_cut_text(change, "summary", 400, f"changes[{i}].summary", notes))
    row = _cut_text(row.model_copy(update={"changes": changes}), "reason", 400, "reason", notes)
    if row_size(row) <= limit:
        return row, notes
    # 2: the frames a row counts (pieces: the text line names them) before what changed, which is the answer.
    row = _cap_list(row, "pieces", 0, "pieces", notes)
    if row_size(row) <= limit:
        return row, notes
    # 3: as many changes as fit, in order.
    base = row_size(row.model_copy(update={"changes": []}))
    kept: list[Change] = []
    for change in row.changes:
        if base + size(kept) + size(change) + 1 > limit:
            break
        kept.append(change)
    if len(kept) < len(row.changes):
        notes.append(f"changes: {len(kept)} of {len(row.changes)} shown")
    row = row.model_copy(update={"changes": kept})
    if row_size(row) <= limit:
        return row, notes

    # 4: the bare row: who matched whom and the count deltas.
    def bare(side: FunctionSide, name: str) -> FunctionSide:
        side = _cap_list(side, "compile_ids", 2, f"{name}.compile_ids", notes)
        side = _cut_text(side, "qualified_name", 200, f"{name}.qualified_name", notes)
        return _cut_text(side, "file", 200, f"{name}.file", notes)

    row = _cap_list(_sides(row, bare), "alternatives", 2, "alternatives", notes)
    return _cut_text(row, "reason", 120, "reason", notes), notes


def whole_names(names: Sequence[str], limit: int) -> str:
    """Names joined while they fit `limit` characters, never one cut: 'a, b, c and 12 more'."""
    shown: list[str] = []
    for name in names:
        if shown and len(", ".join([*shown, name])) > limit:
            break
        shown.append(name)
    if len(names) == len(shown) + 1:  # never one left out: "and 1 more" takes about its room
        shown = list(names)
    rest = len(names) - len(shown)
    return ", ".join(shown) + (f" and {rest} more" if rest else "")


def shrink_comparability(comp: Comparability) -> tuple[Comparability, list[str]]:
    """Differences in order while they fit their share; the keys of the rest are still named in a note. What comes
    with a difference (`explained`: a torch upgrade brings dozens) goes first: `comparability_line` counts it, and
    the rows keep their room."""
    notes: list[str] = []
    if comp.explained:  # what comes with a difference: comparability_line sums it up, grouped
        notes.append(
            f"explained: the {len(comp.explained)} differences that come with another one are summed up in "
            "comparability_line"
        )
        comp = comp.model_copy(update={"explained": []})
    if comp.checked:  # the keys found equal are named, with their values, in the page's text
        notes.append(f"checked: the {len(comp.checked)} keys found equal in both runs are listed in the text")
        comp = comp.model_copy(update={"checked": []})
    if size(comp) <= COMPARABILITY_CHARS:
        return comp, notes
    comp = _cap_list(comp, "missing", 10, "missing", notes)
    every_key = [d.key for d in comp.differences]
    value_notes: list[tuple[int, str]] = []
    differences: list[Difference] = []
    for i, diff in enumerate(comp.differences):
        update = {}
        for side in ("baseline", "candidate"):
            value = diff.model_dump(mode="json", include={side})[side]
            if size(value) > 160:
                value_notes.append((i, f"differences[{i}].{side}: value cut ({size(value)} characters)"))
                update[side] = json.dumps(value)[:150] + "…"
        differences.append(diff.model_copy(update=update))
    comp = comp.model_copy(update={"differences": differences})
    while len(comp.differences) > 1 and size(comp) > COMPARABILITY_CHARS:
        comp = comp.model_copy(update={"differences": comp.differences[:-1]})
    kept = len(comp.differences)
    notes += [note for i, note in value_notes if i < kept]
    if kept < len(every_key):
        rest = whole_names(every_key[kept:], 1200)
        notes.append(f"differences: {kept} of {len(every_key)} shown; the others differ in: {rest}")
    return comp, notes


RANK_LIST_ITEMS = 32  # ranks listed in `ranks` and in each group's `ranks` (rank_ranges names them all)
RANK_RANGES_CHARS = 300
RANK_GROUPS = 12  # groups at most on a page (the reference group, then the largest)


def _behaviour_counts(counts: Counts) -> dict[str, Any]:
    return {k: v for k, v in nonzero_counts(counts.model_dump(mode="json")).items() if k != "compile_time_s"}


def rank_view_size(view: RankView) -> int:
    """Characters of the rank view as a page writes it (its counts trimmed, see `trim_rank_view`)."""
    return size(trim_rank_view(view.model_dump(mode="json")))


def shrink_rank_view(view: RankView) -> tuple[RankView, list[str]]:
    """The rank view within its share, whatever the number of ranks: groups (the reference group first, then the
    largest) with their rank ranges, counts and first divergences; per-rank counts only for the reference rank and
    the ranks whose counts differ from their group's (apart from compile time); long rank lists cut to their first
    ranks. Each cut is noted."""
    notes: list[str] = []
    if len(view.ranks) > RANK_LIST_ITEMS:
        notes.append(f"ranks: first {RANK_LIST_ITEMS} of {len(view.ranks)} listed (groups[].rank_ranges name them all)")
        view = view.model_copy(update={"ranks": view.ranks[:RANK_LIST_ITEMS]})
    group_of = {str(r): g for g in view.groups for r in g.ranks}
    total_groups, total_div = len(view.groups), len(view.divergences)
    if len(view.groups) > RANK_GROUPS:
        groups = view.groups[:RANK_GROUPS]
        shown = {g.representative for g in groups}
        view = view.model_copy(
            update={"groups": groups, "divergences": [d for d in view.divergences if d.rank in shown]}
        )
    kept_groups: list[RankGroup] = []
    for i, whole in enumerate(view.groups):
        group = whole
        if len(group.ranks) > RANK_LIST_ITEMS:
            notes.append(f"groups[{i}].ranks: first {RANK_LIST_ITEMS} of {len(group.ranks)} listed (see rank_ranges)")
            group = group.model_copy(update={"ranks": group.ranks[:RANK_LIST_ITEMS]})
        kept_groups.append(_cut_text(group, "rank_ranges", RANK_RANGES_CHARS, f"groups[{i}].rank_ranges", notes))
    counts = view.counts
    reference = str(view.reference_rank)
    differing = [
        k
        for k, c in counts.items()
        if k == reference or k not in group_of or _behaviour_counts(c) != _behaviour_counts(group_of[k].counts)
    ]
    if len(differing) < len(counts):
        notes.append(
            f"counts: {len(differing)} of {len(counts)} ranks listed; the others' counts are their group's "
            "(groups[].counts) apart from compile time"
        )
    view = view.model_copy(update={"groups": kept_groups, "counts": {k: counts[k] for k in differing}})
    if rank_view_size(view) <= RANKS_CHARS:
        return view, notes
    divergences: list[RankDivergence] = []
    for i, divergence in enumerate(view.divergences):
        div = _cap_list(divergence, "evidence_ids", 4, f"divergences[{i}].evidence_ids", notes)
        divergences.append(_cut_text(div, "reason", 300, f"divergences[{i}].reason", notes))
    view = view.model_copy(update={"divergences": divergences})
    while len(view.groups) > 2 and rank_view_size(view) > RANKS_CHARS * 3 // 4:
        dropped = view.groups[-1]
        view = view.model_copy(
            update={
                "groups": view.groups[:-1],
                "divergences": [d for d in view.divergences if d.rank != dropped.representative],
            }
        )
    if len(view.groups) < total_groups:
        notes.append(
            f"groups: {len(view.groups)} of {total_groups} shown (the reference group, then the largest); "
            f"divergences: {len(view.divergences)} of {total_div} shown"
        )
    kept_counts = view.counts
    order = sorted(kept_counts, key=lambda k: (k != reference, k))
    listed: dict[str, Counts] = {}
    used = rank_view_size(view.model_copy(update={"counts": {}}))
    for key in order:
        entry = size({key: nonzero_counts(kept_counts[key].model_dump(mode="json"))})
        if used + entry > RANKS_CHARS:
            break
        listed[key] = kept_counts[key]
        used += entry
    if len(listed) < len(kept_counts):
        left_out = [k for k in order if k not in listed]
        notes.append(
            f"counts: {len(listed)} of {len(kept_counts)} differing ranks shown (left out: "
            f"{', '.join(left_out[:20])}"
            + ("…" if len(left_out) > 20 else "")
            + "; pass ranks=[...] to compare_ranks to see them)"
        )
    return view.model_copy(update={"counts": listed}), notes


def shrink_notices(notices: Sequence[Notice]) -> tuple[list[Notice], int]:
    """Notices in order while they fit their share (long messages cut); returns (kept, omitted)."""
    kept: list[Notice] = []
    for original in notices:
        notice = original
        if len(notice.message) > 400:
            notice = notice.model_copy(update={"message": notice.message[:400] + "…"})
        notice = _cap_list(notice, "evidence_ids", 4, "evidence_ids", [])
        if size(notice.details) > 200:
            notice = notice.model_copy(update={"details": {"omitted": "details too long for this response"}})
        if size(kept) + size(notice) > NOTICES_CHARS:
            break
        kept.append(notice)
    return kept, len(notices) - len(kept)


def _eventful(comp: CompilationLine) -> bool:
    return bool(comp.recompile or comp.graph_breaks or comp.failure or comp.limit)


FOLD_RUN = 3  # a run of at least this many compilations that say the same thing is folded


def _shape(text: str) -> str:
    return re.sub(r"\d+", "N", text)


def _said(comp: CompilationLine) -> tuple[Any, ...]:
    """What a compilation says, its numbers aside: its rank, frame and outcome, the category and text shape of the
    guard that failed against the entry before it (torch lists the newest first), its breaks, failure and limit."""
    guard = comp.recompile[0] if comp.recompile else None
    return (
        comp.rank,
        comp.frame,
        comp.outcome,
        None if guard is None else (guard.category, _shape(guard.text), guard.site),
        tuple((b.type, b.gb_id, b.site) for b in comp.graph_breaks),
        None if comp.failure is None else (comp.failure.fail_type, _shape(comp.failure.message)),
        comp.limit,
    )


_AGAINST = re.compile(r"^[!\d/#]+: ")  # `0/1: ` before a guard: the cache entry it failed against


def _span(first: str, last: str) -> str:
    """`n == 2 .. == 4`: the first guard, then the last one from the word before they differ (without the cache
    entry each failed against)."""
    first, last = _AGAINST.sub("", first), _AGAINST.sub("", last)
    a, b = first.split(" "), last.split(" ")
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    if first == last or k == 0:
        return first if first == last else f"{first} .. {last}"
    return f"{first} .. {' '.join(b[k - 1 :])}"


def fold_runs(comps: Sequence[CompilationLine], call: str) -> tuple[list[CompilationLine], list[str]]:
    """Runs of at least FOLD_RUN consecutive compilations that say the same thing (`_said`) kept as their first and
    last, each run noted on one line (`0/1..0/7 recompile [size]: ... == 4 .. 9 (7 compilations; 0/2, ... left out:
    CALL)`)."""
    kept: list[CompilationLine] = []
    notes: list[str] = []
    i = 0
    while i < len(comps):
        j = i + 1
        while j < len(comps) and _said(comps[j]) == _said(comps[i]):
            j += 1
        run = comps[i:j]
        if len(run) < FOLD_RUN:
            kept += run
        else:
            first, last = run[0], run[-1]
            if first.recompile and last.recompile:
                g0, g1 = first.recompile[0], last.recompile[0]
                what = f"recompile [{g0.category}]: {_span(g0.text, g1.text)}"
            else:
                what = first.outcome
            rank = "" if first.rank is None else f"rank {first.rank} "
            inner = ", ".join(c.compile_id for c in run[1:-1])
            notes.append(
                f"{rank}{first.compile_id}..{last.compile_id} {what} ({len(run)} compilations; the first and last "
                f"shown, {inner} left out: {call})"
            )
            kept += [first, last]
        i = j
    return kept, notes


def shrink_function(report: FunctionReport, limit: int, capture: str = "...") -> tuple[FunctionReport, list[str]]:
    """A FunctionReport cut until it is at most `limit` characters: runs of compilations that say the same thing
    folded first (`fold_runs`), then uneventful compilations, then the latest compilations (the first ones, which set
    the story, stay); a compilation shown keeps every failing guard (they are short, and the one left out is often
    the answer). Each cut names what it left out and the call that shows it."""
    notes: list[str] = []
    if size(report) <= limit:
        return report, notes
    call = f'analyze_capture(capture="{capture}", function="{report.name}")'
    comps, notes = fold_runs(report.compilations, call)
    report = report.model_copy(update={"compilations": comps})
    if size(report) <= limit:
        return report, notes
    eventful = [c for c in comps if _eventful(c)]
    if len(eventful) < len(comps):
        quiet = ", ".join(_named(c) for c in comps if not _eventful(c))
        notes.append(
            f"compilations: {len(comps) - len(eventful)} without recompile, break or failure left out ({quiet})"
        )
        comps = eventful
    cut: list[CompilationLine] = []
    for line in comps:
        cut.append(_cap_list(line, "evidence_ids", 1, f"{line.compile_id}.evidence_ids", notes))
    report = report.model_copy(update={"compilations": cut})
    if size(report) <= limit:
        return report, notes
    keep = len(cut)
    while keep > 1 and size(report.model_copy(update={"compilations": cut[:keep]})) > limit:
        keep //= 2
    rest = ", ".join(_named(c) for c in cut[keep:])
    notes.append(f"compilations: {keep} of {len(cut)} shown ({rest} left out; the function alone pages on: {call})")
    return report.model_copy(update={"compilations": cut[:keep]}), notes


def _named(comp: CompilationLine) -> str:
    return comp.compile_id if comp.rank is None else f"rank {comp.rank} {comp.compile_id}"


# Left out of rows: compile times and their phase split (the totals carry them; analyze_capture has each
# compilation's time).
_TIMINGS = frozenset({"incomplete", "phase_times_s", "compile_time_s"})


def trim_counts(row: dict[str, Any]) -> dict[str, Any]:
    """A FunctionRow (as JSON) whose sides list only non-zero and changed counts; compile-phase timings left out
    (they are compile times, shown by analyze_capture)."""
    changed = set(row.get("deltas") or {})

    def trim(side: Any) -> None:
        if isinstance(side, dict) and isinstance(side.get("counts"), dict):
            counts = side["counts"]
            side["counts"] = {
                k: v
                for k, v in counts.items()
                if (k == "incomplete" and v) or (k not in _TIMINGS and (v or k in changed))
            }

    trim(row.get("baseline"))
    trim(row.get("candidate"))
    for piece in row.get("pieces") or []:
        trim(piece.get("baseline"))
        trim(piece.get("candidate"))
    changes = [c for c in row.get("changes") or [] if c.get("kind") != "phase_time"]
    if changes:
        row["changes"] = changes
    else:
        row.pop("changes", None)
    row.pop("deltas", None)  # the candidate's counts minus the baseline's: both sides list them
    return row


def trim_totals(totals: dict[str, Any]) -> dict[str, Any]:
    """Totals (as JSON) listing only the counts that are non-zero on either side (a count not listed is 0), without
    the compile-phase split (analyze_capture has each compilation's time)."""
    b, c = totals.get("baseline") or {}, totals.get("candidate") or {}
    keep = {k for side in (b, c) for k, v in side.items() if k not in {"incomplete", "phase_times_s"} and v}
    out = {}
    for name, side in (("baseline", b), ("candidate", c)):
        out[name] = {k: v for k, v in side.items() if k in keep or (k == "incomplete" and v)}
    return out


def nonzero_counts(counts: dict[str, Any]) -> dict[str, Any]:
    """Counts (as JSON) without the zero ones (a count not listed is 0) and without the compile-phase split (in
    the totals)."""
    return {k: v for k, v in counts.items() if v and k != "phase_times_s"}


def trim_rank_view(view: dict[str, Any]) -> dict[str, Any]:
    """A rank view (as JSON) whose per-rank and per-group counts list only non-zero counts."""
    return {
        **view,
        "counts": {rank: nonzero_counts(c) for rank, c in (view.get("counts") or {}).items()},
        "groups": [{**g, "counts": nonzero_counts(g.get("counts") or {})} for g in view.get("groups") or []],
    }


def _listed_suggestion(s: Suggestion) -> Suggestion:
    """A suggestion as a page lists it: without the function (the entry names it) and, for a graph break, without
    torch's hints and page (the break beside it carries its hint and page; get_evidence has torch's whole text)."""
    update: dict[str, Any] = {"function": None}
    if s.kind == SuggestionKind.GRAPH_BREAK:
        update |= {"torch_hints": [], "docs": None}
    return s.model_copy(update=update)


def listed_function(fn: FunctionReport) -> FunctionReport:
    """A function of an analyze_capture page, its suggestions as a page lists them (`_listed_suggestion`)."""
    if not fn.suggestions and not any(c.suggestions for c in fn.compilations):
        return fn
    compilations = [
        c.model_copy(update={"suggestions": [_listed_suggestion(s) for s in c.suggestions]}) if c.suggestions else c
        for c in fn.compilations
    ]
    return fn.model_copy(
        update={"suggestions": [_listed_suggestion(s) for s in fn.suggestions], "compilations": compilations}
    )
