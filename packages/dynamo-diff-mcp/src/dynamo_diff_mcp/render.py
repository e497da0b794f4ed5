"""Short text renderings of the tool results: what an agent reads first; the structured content has the rest."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from dynamo_diff_compare import (
    COMPILED_WORDS,
    InputsSaid,
    TextSaid,
    called_from_text,
    change_lines,
    coming_with,
    compilation_text,
    compile_time_change,
    compiled_line,
    context_once,
    count_pair,
    difference_phrase,
    effect_text,
    followers,
    index_lines,
    nonzero,
    report_counts,
    report_label,
    row_name,
    suggestion_text,
    verdict_headline,
    with_it,
)
from dynamo_diff_schema import (
    ALL_AREAS,
    COUNT_LABELS,
    HEADLINE_COUNTS,
    CallContext,
    CapturePage,
    CodeLine,
    ComparisonPage,
    CompilationLine,
    CompiledState,
    CompiledStatus,
    EvidenceDiff,
    EvidenceExcerpt,
    EvidenceExcerpts,
    EvidenceGrep,
    EvidenceIndex,
    EvidenceSearch,
    FunctionRow,
    ImportPage,
    RunReportPage,
    Side,
    SourceDiff,
    SourceLocation,
    SourceResult,
    short_id,
)
from dynamo_diff_schema.comparison import Comparability
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.lists import head as first_of
from dynamo_diff_schema.lists import joined

from dynamo_diff_mcp.budget import whole_names
from dynamo_diff_mcp.hints import for_agents

# A line is never cut inside a fact: pages drop whole items (rows, functions, entries) and say how to read them.
# Only a line longer than this (a pathological message) ends early, at a space, saying how long it was.
LINE_CHARS = 2_000
# The counts shown in one-line summaries (dynamo_diff_schema.HEADLINE_COUNTS), named in full.
HEADLINE = tuple((key, COUNT_LABELS[key]) for key, _ in HEADLINE_COUNTS)


def _line(text: str) -> str:
    """A line with its whitespace collapsed (its indentation kept); never cut inside a fact: only a line longer than
    LINE_CHARS ends early, at a space, saying how long it was."""
    indent = text[: len(text) - len(text.lstrip(" "))]
    text = indent + " ".join(text.split())
    if len(text) <= LINE_CHARS:
        return text
    head = text[:LINE_CHARS].rsplit(" ", 1)[0]
    return f"{head} … ({len(text)} characters: the rest in the structured result and the evidence)"


def _side(side: Side) -> str:
    compiled = f", {side.compiled.summary}" if side.compiled is not None else ""
    return f"{short_id(side.id)}" + (f" ({side.label})" if side.label else "") + f" torch {side.torch or '?'}{compiled}"


def run_text(side: Side) -> str:
    run = side.run
    if run is None:
        return "run status not known"
    return f"DID NOT FINISH: {run.summary} (counts may be low)" if run.finished is False else run.summary


def _facts(reasons: list[str], compiled: CompiledStatus | None) -> list[str]:
    """What the run status rests on and what compiled, on a line of their own under the run's line."""
    parts = [*reasons, *([compiled.summary] if compiled is not None else [])]
    return ["  " + _line("; ".join(parts))] if parts else []


def run_facts(name: str, side: Side) -> list[str]:
    """The facts behind a side's run status, on a line of their own."""
    if side.run is None or not side.run.reasons:
        return []
    return ["  " + _line(f"{name} run: " + "; ".join(side.run.reasons))]


def counts_line(counts: dict[str, int]) -> str:
    """The headline counts (0 shown), then the other non-zero ones (restarts, cache, backward, ...)."""
    parts = [f"{label} {counts.get(key, 0)}" for key, label in HEADLINE]
    headline = {key for key, _ in HEADLINE}
    parts += [f"{COUNT_LABELS.get(k, k)} {v}" for k, v in counts.items() if k not in headline and k in COUNT_LABELS]
    return ", ".join(parts)


def _pair(b: int | None, c: int | None) -> str:
    if b is None or c is None or b == c:
        return str(c if b is None else b)
    return f"{b} -> {c}"


def import_text(page: ImportPage) -> str:
    """One run imported: how it ended and whether it compiled first, then its id, counts, ranks and notices."""
    imported = page.captures[0]
    row = imported.capture
    lines = []
    if page.compiled is not None and (loud := compiled_line(page.compiled)) is not None:
        lines.append(_line(loud))
    if page.run is not None:
        finished = page.run.finished is not False
        said = page.run.summary if finished else f"DID NOT FINISH: {page.run.summary} (counts may be low)"
        lines.append(_line(f"run: {said}"))
        lines += _facts(page.run.reasons, page.compiled)
        if page.run.exception:
            lines.append("  " + _line(f"uncaught exception: {page.run.exception}"))
    if page.validity is not None and page.validity.reasons:
        lines.append("  " + _line("validity: " + "; ".join(page.validity.reasons)))
    workload = page.validity.workload_completion if page.validity is not None else "unknown"
    provenance = f", provenance {page.validity.provenance}" if page.validity is not None else ""
    undercounted = row.counts.incomplete
    lines += [
        f"{'imported' if imported.created else 'already in the store (same bytes)'}: {row.id}"
        + (f" ({row.label})" if row.label else ""),
        f"{row.input_kind}, torch {row.torch_version or '?'}, trace {row.artifact_structure}, workload {workload}"
        f"{provenance}, imported {row.imported_at}",
        f"total: {counts_line(nonzero(row.counts))}"
        + (f"; possibly undercounted: {', '.join(undercounted)}" if undercounted else ""),
    ]
    # One rank: its counts are the total's (the page lists no ranks then).
    lines += [_line(f"rank {'?' if r.rank is None else r.rank}: {counts_line(nonzero(r.counts))}") for r in page.ranks]
    shown = short_id(row.id)
    if page.ranks_omitted:
        lines.append(f'{page.ranks_omitted} more rank(s): compare_ranks(capture="{shown}") groups them all')
    lines += [_line(f"[{n.severity}] {n.code}: {for_agents(n.message, n.hint, capture=shown)}") for n in page.notices]
    if page.notices_omitted:
        lines.append(f'{page.notices_omitted} more notice(s): analyze_capture(capture="{shown}") reads the run')
    lines += [f"next: {call}" for call in page.next_calls]
    return "\n".join(lines)


# The counts a capture's line names after its headline ones (the row lists every non-zero count).
_LISTED_ALSO = tuple(
    k
    for k in COUNT_LABELS
    if k
    not in {"observed_compilation_identities", "confirmed_recompilation_identities", "graph_break_records", "failed"}
)


def captures_text(page: CapturePage) -> str:
    if not page.total:
        return f"the store {page.store} is empty: call import_trace(path) first"
    lines = [f"{page.total} capture(s) in {page.store}; {page.offset + 1}-{page.offset + len(page.captures)} shown"]
    for c in page.captures:
        n = c.counts
        lines.append(
            _line(
                f"{short_id(c.id)} {c.label or '-'} run {c.run_state}"
                + (
                    ""
                    if c.compiled_state == CompiledState.COMPILED
                    else f" {COMPILED_WORDS[CompiledState(c.compiled_state)]}"
                )
                + f" {c.input_kind} torch {c.torch_version or '?'} ranks {c.rank_count}: "
                f"compilations {n.observed_compilation_identities}, confirmed recompiles "
                f"{n.confirmed_recompilation_identities}, graph breaks {n.graph_break_records}, failed {n.failed}"
                + "".join(f", {COUNT_LABELS[k]} {v}" for k, v in nonzero(n).items() if k in _LISTED_ALSO)
                + (f", compile time {n.compile_time_s:.2f} s" if n.compile_time_s else "")
                + f"; trace {c.artifact_structure}; imported {c.imported_at}"
            )
        )
    if page.next_offset is not None:
        lines.append(f"more: list_captures(offset={page.next_offset})")
    return "\n".join(lines)


# Characters of the differences the comparability line names, whole, before it says how many more there are.
VERDICT_CHARS = 1_200


def _whole(phrases: list[str], what: str) -> str:
    """Phrases joined while they fit VERDICT_CHARS, never one cut: the rest are counted."""
    shown: list[str] = []
    for phrase in phrases:
        if shown and len("; ".join([*shown, phrase])) > VERDICT_CHARS:
            break
        shown.append(phrase)
    if len(phrases) == len(shown) + 1:  # never one left out: its count would take about its room
        shown = list(phrases)
    rest = len(phrases) - len(shown)
    return "; ".join(shown) + (f"; and {rest} more {what} (the structured comparability lists them)" if rest else "")


_DIFFERENCE_LINES = 6  # differences with a line each; the keys of the rest are named on one more line
_REST_CHARS = 300  # the keys of the rest named, whole, within this


def comparability_line(comp: Comparability) -> str:
    """The comparability from the whole comparison (what comes with a difference is counted before the page's
    comparability is cut to its share): the verdict, then a line per difference with both values, what comes
    with it and what its key changes."""
    lines = [f"comparability: {verdict_headline(comp)}"]
    if comp.assumed:
        calls = "; ".join(
            for_agents("", Hint(action=HintAction.NAME_THE_CHANGE, args={"key": k})).strip(" ()") for k in comp.assumed
        )
        lines.append(f"assumed, not named: {calls}")
    one = len(comp.differences) == 1  # the headline is that difference: its key and effect go on the same line
    said, _ = first_of(comp.differences, _DIFFERENCE_LINES)
    for d in said:
        areas = f"; can change {'/'.join(str(a) for a in d.affects)}" if len(d.affects) < len(ALL_AREAS) else ""
        if one:
            key = "" if d.key in lines[0] else f"; key {d.key}"  # the key names it in change=[...]
            lines[0] += f"{areas}{key}; effect: {effect_text(d)}"
        else:
            lines.append(f"- {difference_phrase(d)}{coming_with(comp, d)}{areas}; effect: {effect_text(d)}")
        items = followers(comp, d.key)
        if items:
            lines.append(f"  with it: {with_it(items)}")
    if len(comp.differences) > len(said):
        rest = [d.key for d in comp.differences[len(said) :]]
        named: list[str] = []
        while len(named) < len(rest) and sum(len(k) + 2 for k in named) + len(rest[len(named)]) <= _REST_CHARS:
            named.append(rest[len(named)])
        unnamed = f", and {len(rest) - len(named)} more" if len(named) < len(rest) else ""
        lines.append(f"- {len(rest)} more difference(s): {', '.join(named)}{unnamed}")
    if not comp.differences and comp.missing:
        lines.append("not checked: " + joined(comp.missing, 3, sep="; "))
    for d in comp.intended:
        lines.append(f"the change under test: {difference_phrase(d)}{coming_with(comp, d)}; effect: {effect_text(d)}")
    return "\n".join(lines)


_ROW_TIMES = frozenset({"compile_time_s", "phase_times_s", "incomplete"})


def checked_line(comp: Comparability) -> str | None:
    """The keys found equal in both runs, each with its value (the page's structured content leaves them out)."""
    if not comp.checked:
        return None
    return "same in both runs: " + _whole([f"{c.key} {_value(c.value)}" for c in comp.checked], "keys").replace(
        " (the structured comparability lists them)", " (not listed here)"
    )


def _value(value: object) -> str:
    if isinstance(value, str):
        return value
    return "not set" if value is None else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class RowCut:
    """What a row cut to fit left out that its text line says how to read: the compile ids each side had (the row
    lists fewer), the call that shows the row with more room, and the calls that list each compilation."""

    compile_ids: tuple[int, int]  # each side's compile ids before the cut (0: no such side)
    roomier: str | None  # the same page call for this row alone (None: it was already alone)
    compilations: tuple[str | None, str | None]  # analyze_capture(...) of each side's function

    @classmethod
    def of(cls, row: FunctionRow, side_ids: tuple[str, str], tool: str, page_size: int, index: int) -> RowCut:
        sides = (row.baseline, row.candidate)
        refs = side_ids if tool == "compare_runs" else (side_ids[0], side_ids[0])
        calls = [
            f'analyze_capture(capture="{ref}", function="{side.qualified_name}")'
            if side is not None and side.qualified_name
            else None
            for ref, side in zip(refs, sides, strict=True)
        ]
        where = (
            f'compare_runs(baseline="{side_ids[0]}", candidate="{side_ids[1]}", offset={index}, page_size=1)'
            if tool == "compare_runs"
            else f'compare_ranks(capture="{side_ids[0]}", ..., offset={index}, page_size=1)'
        )
        counts = [len(side.compile_ids) if side is not None else 0 for side in sides]
        return cls((counts[0], counts[1]), where if page_size != 1 else None, (calls[0], calls[1]))


def _compile_ids(row: FunctionRow, cut: RowCut | None) -> str:
    """`0/0, 0/1 -> 0/0`, each side's compile ids; a side the cut shortened says how many more and where they are."""
    out = []
    for i, side in enumerate((row.baseline, row.candidate)):
        if side is None:
            continue
        listed = ", ".join(side.compile_ids) or "-"
        more = cut.compile_ids[i] - len(side.compile_ids) if cut is not None else 0
        if more > 0 and cut is not None:
            listed += f" (+{more} more: {cut.compilations[i] or 'analyze_capture(...)'} lists each)"
        out.append(listed)
    return " -> ".join(out)


def comparison_text(
    page: ComparisonPage,
    tool: str,
    checked: str | None = None,
    frames: dict[int, str] | None = None,
    cuts: dict[int, RowCut] | None = None,
) -> str:
    comp = page.comparability
    if comp is None:
        verdict = "comparability: on the first page"
    else:
        verdict = page.comparability_line or comparability_line(comp)
    ranks = page.kind == "rank_view_page"
    runs = (
        f"run: {run_text(page.baseline)}"
        if ranks
        else f"runs: baseline {run_text(page.baseline)} | candidate {run_text(page.candidate)}"
    )
    sides = [("baseline", page.baseline)] if ranks else [("baseline", page.baseline), ("candidate", page.candidate)]
    loud = [line for name, side in sides if (line := compiled_line(side.compiled, name)) is not None]
    lines = [
        *(_line(line) for line in loud),
        _line(runs),
        *(fact for name, side in sides for fact in run_facts(name, side)),
        f"comparison {short_id(page.comparison_id)} ({'ranks' if ranks else 'captures'})",
        f"baseline  {_side(page.baseline)}",
        f"candidate {_side(page.candidate)}",
        *(_line(line) for line in verdict.splitlines()),
        *([_line(checked)] if checked else []),
    ]
    if page.totals is not None:
        b, c = page.totals.baseline, page.totals.candidate
        lines.append(
            _line(
                "totals: "
                + ", ".join(f"{label} {_pair(getattr(b, k), getattr(c, k))}" for k, label in HEADLINE)
                + ", compile time "
                + compile_time_change(
                    b.compile_time_s, c.compile_time_s, cut=(bool(b.unknown_outcomes), bool(c.unknown_outcomes))
                )
                + (" (+?: a compilation never finished)" if b.unknown_outcomes or c.unknown_outcomes else "")
            )
        )
    if page.ranks is not None:
        groups = page.ranks.groups
        lines.append(
            f"rank view: {sum(g.size for g in groups)} ranks in {len(groups)} behaviour group(s), reference rank "
            f"{page.ranks.reference_rank}"
        )
        divergence_of = {d.rank: d for d in page.ranks.divergences}
        for number, g in enumerate(groups, 1):
            lines.append(
                _line(
                    f"group {number}{' (reference)' if g.reference else ''}: "
                    + (
                        f"rank {g.rank_ranges} alone: "
                        if g.size == 1
                        else f"ranks {g.rank_ranges} ({g.size}), representative {g.representative}: "
                    )
                    + counts_line({k: v for k, v in g.counts.model_dump().items() if isinstance(v, int) and v})
                )
            )
            d = divergence_of.get(g.representative)
            if d is not None and not g.reference:
                ev = f" (ev {', '.join(d.evidence_ids)})" if d.evidence_ids else ""
                lines.append(_line(f"  FIRST DIVERGENCE rank {d.rank} vs rank {d.reference_rank}: {d.reason}{ev}"))
        if len(groups) == 1:
            lines.append("no rank diverges: every rank behaves the same")
    first, last = page.offset + 1, page.offset + len(page.rows)
    lines.append(
        f"rows {first}-{last} of {page.total_rows} (changed first):"
        if page.rows
        else f"no rows from offset {page.offset}: the comparison has {page.total_rows} row(s), from offset 0"
    )
    for entry in page.rows:  # every row of the page, whole: each change on a line of its own
        row = entry.row
        status = f"{row.status} ({row.method}: {row.reason})" if row.status == "matched" else str(row.status)
        pairs = [f"{label} {count_pair(row.baseline, row.candidate, k)}" for k, label in HEADLINE[:4]]
        headline = {k for k, _ in HEADLINE[:4]}
        row_sides = [s for s in (row.baseline, row.candidate) if s is not None]
        others = [  # every other count either side has (a row's JSON lists the same)
            k
            for k in COUNT_LABELS
            if k not in headline and k not in _ROW_TIMES and any(getattr(s.counts, k, 0) for s in row_sides)
        ]
        pairs += [f"{COUNT_LABELS[k]} {count_pair(row.baseline, row.candidate, k)}" for k in others]
        if len(row_sides) == 2:  # each count baseline -> candidate, or said once to be the same on both sides
            changed = [p for p in pairs if " -> " in p]
            same = [p for p in pairs if " -> " not in p]
            pairs = [*changed, *([f"unchanged: {', '.join(same)}"] if same else [])]
        cut = (cuts or {}).get(entry.index)
        ids = _compile_ids(row, cut)
        lines.append(_line(f"[{entry.index}] {row_name(row)} {status}: {', '.join(pairs)}; compile ids {ids}"))
        made = dict.fromkeys(
            f"{s.generated.kind} {s.generated.number} of {s.generated.co_name}: {s.file}"
            for s in row_sides
            if s.generated is not None
        )
        lines += ["  " + _line(f"code torch generated: {m}") for m in made]
        lines += ["  " + _line(line) for line in change_lines(row)]
        lines += ["  " + _line(suggestion_text(s)) for s in row.suggestions]
        if frames and entry.index in frames:
            lines.append("  " + _line(frames[entry.index]))
        if entry.truncated:
            roomier = f"; with more room: {cut.roomier}" if cut is not None and cut.roomier else ""
            lines.append("  " + _line("cut to fit: " + "; ".join(entry.truncated) + roomier))
    lines += [_line(f"[{n.severity}] {n.code}: {for_agents(n.message, n.hint)}") for n in page.notices]
    if page.notices_omitted:
        lines.append(f"{page.notices_omitted} more notice(s) did not fit this response")
    if page.page_note:
        lines.append(page.page_note)
    if page.next_offset is not None:
        lines.append(f"more rows: {tool}(..., offset={page.next_offset})")
    lines += [f"next: {call}" for call in page.next_calls if not call.startswith(f"{tool}(")]
    return "\n".join(lines)


def evidence_index_text(page: EvidenceIndex, kind: str | None = None) -> str:
    """`evidence 1-20 of 20 in ID, all in FILE`, then every entry of the page on one line (`index_lines`)."""
    what = f" of kind {kind}" if kind else ""
    one, entries = index_lines(page.items)
    lines = [
        f"evidence{what} {page.offset + 1}-{page.offset + len(page.items)} of {page.total} in "
        f"{short_id(page.capture)}" + (f", all in {one}" if one else "")
    ]
    lines += [_line(entry) for entry in entries]  # every entry of the page: the page holds as many as fit
    if page.next_offset is not None:
        lines.append(f"more: get_evidence(capture=..., offset={page.next_offset})")
    return "\n".join(lines)


def evidence_matches_text(page: EvidenceGrep, total_chars: int) -> str:
    ev = page.evidence
    where = "its text and embedded configuration" if page.in_config else "its own text"
    if page.compact:
        where += " shown compact"
    lines = [
        f"{ev.id}: {ev.kind} at {ev.file}:{ev.line} in {short_id(page.capture)} (compile {ev.compile_id or '-'}), "
        f"sha256 verified; {page.total_matches} match(es) of {page.pattern!r} in {where} ({total_chars} characters)"
    ]
    for m in page.matches:
        lines.append(m.heading())
        lines += ["  " + " ".join(text.split()) for text in m.lines]
    if page.total_matches > page.shown_matches:
        lines.append(
            f"... {page.total_matches - page.shown_matches} more match(es): get_evidence(..., grep=..., "
            f"max_matches={min(page.total_matches, 200)})"
        )
    if page.config_matches and not page.in_config:
        lines.append(f"{page.config_matches} more in the embedded configuration: get_evidence(..., in_config=true)")
    return "\n".join(lines)


def evidence_search_text(page: EvidenceSearch, filters: str = "") -> str:
    """A capture-wide grep: how many records and matches in all, each record's matching windows, and the records
    past what is shown by id (their count each), with the calls that read them."""
    where = "their text and embedded configuration" if page.in_config else "their own text"
    lines = [
        f"grep {page.pattern!r} in {short_id(page.capture)}{filters}: {page.total_matches} match(es) in "
        f"{page.records_matched} of {page.records_searched} records ({where}); {page.shown_matches} shown"
    ]
    if page.joint_graphs_skipped:
        lines.append(
            f"({page.joint_graphs_skipped} aot_joint_graph record(s) not searched: the forward and backward graphs "
            'hold their nodes; kind="aot_joint_graph" searches them)'
        )
    for hit in page.records:
        if not hit.matches:
            continue
        lines.append(hit.heading())
        for m in hit.matches:
            lines.append(f"  {m.heading()}")
            lines += ["    " + " ".join(text.split()) for text in m.lines]
    ref = short_id(page.capture)
    rest = [h for h in page.records if h.shown_matches < h.total_matches]
    if page.total_matches > page.shown_matches:
        named = whole_names([f"{h.evidence.id} ({h.total_matches - h.shown_matches})" for h in rest], 600)
        lines.append(
            f"... {page.total_matches - page.shown_matches} more match(es), in {named}: get_evidence("
            f'capture="{ref}", grep={page.pattern!r}, max_matches={min(page.total_matches, 200)}) or '
            f'get_evidence(capture="{ref}", evidence_id="<id>", grep={page.pattern!r})'
        )
    if page.config_matches and not page.in_config:
        lines.append(f"{page.config_matches} more in embedded configuration: get_evidence(..., in_config=true)")
    return "\n".join(lines)


def evidence_diff_text(page: EvidenceDiff) -> str:
    """`u1-e15 against u1-e15, sha256 verified: 12 line(s) differ`, then the unified diff (the lines left out to
    fit counted)."""
    head = f"{page.evidence.id} against {page.other.id}, sha256 verified: " + (
        f"{page.lines_differ} line(s) differ" if page.lines_differ else "the same"
    )
    head += " (shown compact; full=true: as written)" if page.compact else ""
    rest = [f"... {page.lines_omitted} more diff line(s) left out to fit"] if page.lines_omitted else []
    return "\n".join([head, *page.lines, *rest])


def evidence_excerpts_text(page: EvidenceExcerpts, left_out: list[str]) -> str:
    """Each record asked for in turn, as `evidence_text` says one; then the ones left out to fit, each with the
    call that reads it."""
    parts = [evidence_text(ex) for ex in page.excerpts]
    cid = short_id(page.capture)
    if left_out:
        parts.append(
            f"{len(left_out)} more record(s) left out to fit: "
            + "; ".join(f'get_evidence(capture="{cid}", evidence_id="{one}")' for one in left_out)
        )
    return "\n\n".join(parts)


def evidence_text(ex: EvidenceExcerpt) -> str:
    """`u1-e44: aot_forward_graph 0/2 at FILE:LINE, sha256 verified` (and the characters shown when they are not
    all), the text, then where to read on and, condensed, what that left out and how to read it as written."""
    ev = ex.evidence
    rank = f" rank {ev.rank}" if ev.rank is not None else ""
    whole = ex.offset == 0 and ex.next_offset is None
    shown = (
        f", {ex.total_chars} characters"
        if whole
        else f"; characters {ex.offset}-{ex.offset + len(ex.text)} of {ex.total_chars}"
    )
    head = f"{ev.id}: {ev.kind}{rank} {ev.compile_id or '-'} at {ev.file}:{ev.line}, sha256 verified{shown}"
    tail = f"\n[more: get_evidence(..., offset={ex.next_offset})]" if ex.next_offset is not None else ""
    if ex.condensed:
        tail += (
            f"\n[{condensed_words(ex)}; grep=... searches it whole; as written: dynamo-diff evidence "
            f"{short_id(ex.capture)} {ev.id} --full]"
        )
    return head + "\n" + ex.text + tail


def condensed_words(ex: EvidenceExcerpt) -> str:
    """What condensing the record left out, in a few words: `the graph's code compact: ...`, the library stack
    frames collapsed, the embedded configuration's characters."""
    left = [ex.compact] if ex.compact else []
    if ex.collapsed_frames:
        left.append(f"{ex.collapsed_frames} torch/library stack frames collapsed")
    if ex.config_chars:
        left.append(f"{ex.config_chars} characters of embedded configuration left out")
    whole = f" from {ex.record_chars} characters" if ex.record_chars is not None else ""
    return f"condensed{whole}: {', '.join(left)}"


def _context(
    context: CallContext | None,
    frames: list[CodeLine],
    shown: dict[tuple[str, int], int],
    indent: str,
    scripts_below: bool = False,
) -> str:
    """The code around a call (`context_once`): its lines numbered, their indentation kept, each cut as `_line`
    cuts; '' when there is none or the text said it; one line naming them when the scripts follow the text."""
    return "".join(f"\n{_cut(t)}" for t in context_once(context, frames, shown, indent, scripts_below=scripts_below))


def _cut(text: str) -> str:
    """A line of code whole, its spaces kept; only one longer than LINE_CHARS ends early (`_line`)."""
    if len(text) <= LINE_CHARS:
        return text.rstrip()
    return _line(text)


def _compilation_line(
    c: CompilationLine,
    function: str,
    shown: dict[tuple[str, int], int] | None = None,
    inputs: InputsSaid | None = None,
    scripts_below: bool = False,
) -> str:
    """One compilation, whole: what it says (failing guards, breaks, failure, limit, cache, the guards on its
    inputs and its graph's op kinds when `inputs` has not had them) or how it ended, then its graph size (unless the
    op kinds said it), compile time and main records; the
    code around its own call path when `shown` has not had it."""
    said = compilation_text(c, function, inputs=inputs)
    below: list[str] = []  # where a guarded name is set, whether the program went on, the call path: a line each
    if said is not None and "\n" in said:
        said, *below = said.split("\n")
    if said is None:
        frame = "" if c.frame == function.rsplit(".", 1)[-1] else f" {c.frame}"
        rank = "" if c.rank is None else f"rank {c.rank} "
        said = f"{rank}{c.compile_id}{frame} {c.outcome}"
    ops_said = any(b.strip().startswith("graph: ") for b in below)  # `graph: 4 ops: ...` says the size
    facts = [f"graph ops {c.graph_ops}"] if c.graph_ops is not None and not ops_said else []
    if c.compile_time_s is not None:
        facts.append(f"{c.compile_time_s:.3f} s")
    if c.evidence_ids:
        facts.append("records " + ", ".join(c.evidence_ids))
    line = _line(said.strip() + (f" [{'; '.join(facts)}]" if facts else ""))
    rows = [line, *(_line(b.strip()) for b in below)]
    context = (
        _context(c.call_context, c.called_from, shown, "      ", scripts_below)
        if shown is not None and c.called_from
        else ""
    )
    if not context:
        return "\n    ".join(rows)
    # The code around the call path goes right under its `called from:` line (the guards and ops lines follow).
    at = next((i for i, r in enumerate(rows) if r.startswith("called from: ")), len(rows) - 1) + 1
    return "\n    ".join(rows[:at]) + context + "".join(f"\n    {r}" for r in rows[at:])


def run_page_text(page: RunReportPage, *, scripts_below: bool = False) -> str:
    lines = [_line(f"capture {page.capture} ({page.label or '-'}) torch {page.torch or '?'}")]
    if (loud := compiled_line(page.compiled)) is not None:
        lines.insert(0, _line(loud))
    lines.append(_line(f"run: {page.run.summary}"))
    lines += _facts(page.run.reasons, page.compiled)
    if page.counts is not None:
        lines.append(_line("counts: " + ", ".join(f"{COUNT_LABELS.get(k, k)} {v}" for k, v in page.counts.items())))
    if page.sources_note is not None:
        lines.append(_line(page.sources_note))
    lines += [_line(suggestion_text(s)) for s in page.suggestions]
    # One function whose compilations are paged (analyze_capture(function=...)): offset counts its compilations.
    by_compilation = bool(page.functions) and page.total_functions == 1 and (page.offset or page.next_offset)
    first, last = page.offset + 1, page.offset + len(page.functions)
    if by_compilation:
        lines.append("function 1 of 1:")
    elif page.functions:
        lines.append(f"functions {first}-{last} of {page.total_functions} (problems first):")
    else:
        lines.append("no functions")
    text_said = TextSaid()  # breaks, what torch did after a failure, quoted lines: said once a text
    shown: dict[tuple[str, int], int] = {}  # the call contexts said: each once
    for entry in page.functions:  # every function of the page, every compilation of it (what fits is whole)
        r = entry.report
        headline = {k for k, _ in HEADLINE_COUNTS}
        others = [f"{COUNT_LABELS.get(k, k)} {v}" for k, v in r.counts.items() if v and k not in headline]
        counts = ", ".join(p for p in (report_counts(r), *others) if p)
        frames = f" frames {', '.join(r.frames)}" if r.frames else ""
        where = f" in {r.file}" if r.file and "/" in r.file else ""
        time = f", compile time {r.compile_time_s:.3f} s" if r.compile_time_s else ""
        lines.append(_line(f"[{entry.index}] {report_label(r)}: {counts}{time}{frames}{where}"))
        if r.called_from:
            lines.append("  " + _line(called_from_text(r.called_from)))
            lines += _context(r.call_context, r.called_from, shown, "    ", scripts_below).split("\n")[1:]
        if r.count_evidence:
            lines.append(
                "  "
                + _line(
                    "evidence of the counts: "
                    + "; ".join(f"{COUNT_LABELS.get(k, k)} {', '.join(ids)}" for k, ids in r.count_evidence.items())
                )
            )
        lines += ["  " + _line(suggestion_text(s)) for s in r.suggestions]
        inputs = InputsSaid(text_said)
        for c in r.compilations:
            lines.append("  " + _compilation_line(c, r.name, shown, inputs, scripts_below))
            lines += ["    " + _line(suggestion_text(s)) for s in c.suggestions]
        if entry.truncated:
            lines.append("  " + _line("cut to fit: " + "; ".join(entry.truncated)))
    if page.next_offset is not None and by_compilation:
        lines.append(f"more compilations: {page.next_calls[0]}")
    elif page.next_offset is not None:
        lines.append(f'more functions: analyze_capture(capture="{short_id(page.capture)}", offset={page.next_offset})')
    lines += [f"next: {call}" for call in page.next_calls if not call.startswith("analyze_capture(")]
    return "\n".join(lines)


def imported_runs_text(page: ImportPage, reports: Sequence[str] = ()) -> str:
    """A folder of runs imported: each run's report (`reports`, the first runs' in order), then one line for each
    run without one, the runs that failed, and what to call next."""
    folder = _folder(page)
    lines = [
        f"imported {page.total} runs"
        + (f" of {folder}" if folder else "")
        + (":" if not reports else "; each per function, problems first:")
    ]
    start = page.offset if len(page.captures) == page.total else 0  # a later page lists only its own runs
    said = page.captures[start : start + len(reports)]
    for r, text in zip(said, reports, strict=False):
        sid, label = short_id(r.capture.id), r.capture.label or "-"
        head = f"== {label} {sid} ({'new' if r.created else 'already stored'}, from {_within(r.input, folder)})"
        own = f"capture {sid} ({label}) "  # the report's first line names the run again: one line says both
        lines.append(f"{head}: {text[len(own) :]}" if text.startswith(own) else f"{head}\n{text}")
    rest = [r for r in page.captures if r not in said]
    if reports and rest:
        where = f"the next page: {page.next_calls[0]}" if page.next_offset is not None else "earlier pages"
        lines.append(f"{len(rest)} more runs (each whole: {where}, or analyze_capture(capture=LABEL)):")
    for r in rest:
        row = r.capture
        # A trace that is not whole and several ranks said, the usual one of each left out (and when it was
        # imported: now).
        counts = ", ".join(f"{COUNT_LABELS[k]} {v}" for k, v in nonzero(row.counts).items() if k in COUNT_LABELS)
        verb = "new" if r.created else "already stored"
        ranks = f", ranks {row.rank_count}" if row.rank_count != 1 else ""
        trace = f", trace {row.artifact_structure}" if row.artifact_structure != "complete" else ""
        lines.append(
            _line(
                f"{row.label or '-'} {short_id(row.id)} ({verb}, from {_within(r.input, folder)}): {row.run_state}, "
                f"{row.compiled_state}, torch {row.torch_version or '?'}, {row.input_kind}{ranks}{trace}; "
                f"{counts or 'no compilations'}"
                + (f", compile time {row.counts.compile_time_s:.2f} s" if row.counts.compile_time_s else "")
            )
        )
    if page.captures_omitted:
        lines.append(f"... {page.captures_omitted} more: list_captures()")
    if page.failed:
        lines.append(f"not imported ({len(page.failed)}, the others were):")
        lines += [_line(f"{f.input}: error[{f.code}] {f.message}") for f in page.failed]
    lines += [f"next: {call}" for call in page.next_calls]
    return "\n".join(lines)


def _folder(page: ImportPage) -> str | None:
    """The folder a page's runs were imported from (their inputs' common parent), None for one run."""
    inputs = [r.input for r in page.captures if r.input]
    if len(inputs) < 2:
        return None
    try:
        parent = posixpath.commonpath(inputs)
    except ValueError:  # absolute and relative paths together: no common folder to name
        return None
    return parent if parent and parent not in inputs else None


def _within(path: str, folder: str | None) -> str:
    """`path` relative to `folder` (as given when it is not under it)."""
    return path[len(folder) + 1 :] if folder and path.startswith(folder + "/") else path


_ROLE_WORDS = {
    "function": "the compiled function",
    "caller": "a function that called it (the call site)",
    "callee": "a function it calls",
    "file": "the whole file",
}


def location_head(loc: SourceLocation, *, whole_file: bool = False) -> str:
    """Where a location is: the file and line, the snapshot, the function's lines (or the line asked for and the
    function holding it), and whether this run compiled it."""
    if whole_file:
        return f"{loc.co_filename}:{loc.co_firstlineno} (snapshot {loc.snapshot})"
    compiled = "" if loc.compiled else "; not compiled in this run: defined in the captured file"
    if loc.line is not None:
        where = "at module level" if loc.name == "module level" else f"in {loc.name}"
        held = "" if loc.compiled or loc.name == "module level" else "; that function was not compiled in this run"
        return f"{loc.co_filename}:{loc.line} (snapshot {loc.snapshot}, line {loc.line}, {where}{held})"
    return (
        f"{loc.co_filename}:{loc.co_firstlineno} (snapshot {loc.snapshot}, "
        f"{loc.name + ' ' if loc.name and not loc.compiled else ''}the function is lines {loc.first_line}-"
        f"{loc.last_line}{compiled})"
    )


def source_text(page: SourceResult, total: int, offset: int, next_offset: int | None) -> str:
    """Captured source: where each location is, then its lines numbered as in the file."""
    what = f"file {page.file}" if page.file is not None else f"{page.function} (context {page.context})"
    lines = [f"source of {what} in capture {short_id(page.capture)}, from its snapshot (not the working tree)"]
    if page.sources_note is not None:
        lines.append(page.sources_note)
    for loc in page.locations:
        text = loc.text.splitlines()
        lines.append(location_head(loc, whole_file=page.file is not None))
        width = len(str(loc.text_first_line + len(text)))
        lines += [f"{loc.text_first_line + i:>{width}} | {line}" for i, line in enumerate(text)]
    if next_offset is not None:
        lines.append(f"lines {offset + 1}-{next_offset} of {total} shown; more: get_source(..., offset={next_offset})")
    return "\n".join(lines)


def source_diff_text(page: SourceDiff, pieces: int, next_offset: int | None) -> str:
    """A source diff: a head line per piece of code (what it is to the compiled function, where it is in each run,
    the records whose stacks name the call), then its unified diff."""
    what = f"file {page.file}" if page.file else (page.function or "every compiled function")
    head = f"source diff of {what}: baseline {short_id(page.baseline)} -> candidate {short_id(page.candidate)}"
    if not pieces:
        return head + "\nno line differs between the two runs' snapshots"
    lines = [head + f"; {pieces} piece(s) of code differ"]
    for entry in page.functions:
        where = " -> ".join(dict.fromkeys(w for w in (entry.baseline, entry.candidate) if w))
        evidence = "; ".join(
            f"{side} {', '.join(ids)}"  # every one: the outline lists them
            for side, ids in (("baseline", entry.baseline_evidence), ("candidate", entry.candidate_evidence))
            if ids
        )
        lines.append(
            f"{entry.qualified_name or entry.candidate or entry.baseline} ({where}): {_ROLE_WORDS[entry.role]}"
            + (f" [evidence: {evidence}]" if evidence else "")
        )
        lines += entry.lines
    if next_offset is not None:
        lines.append(f"more diff lines: get_source(..., offset={next_offset})")
    return "\n".join(lines)
