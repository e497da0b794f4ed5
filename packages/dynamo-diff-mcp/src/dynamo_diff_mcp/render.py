"""Short text renderings of the tool results: what an agent reads first; the structured content has the rest."""

from __future__ import annotations

from dynamo_diff_compare import (
    COMPILED_WORDS,
    coming_with,
    compilation_text,
    compile_time_change,
    compiled_line,
    count_pair,
    difference_phrase,
    nonzero,
    piece_line,
    report_counts,
    report_label,
    side_label,
)
from dynamo_diff_schema import (
    COUNT_LABELS,
    HEADLINE_COUNTS,
    CapturePage,
    ComparisonPage,
    CompiledState,
    EvidenceExcerpt,
    EvidenceGrep,
    EvidenceIndex,
    ImportPage,
    RunReportPage,
    Side,
    short_id,
)
from dynamo_diff_schema.comparison import Comparability

from dynamo_diff_mcp.hints import for_agents

LINE_CHARS = 240
# The counts shown in one-line summaries (dynamo_diff_schema.HEADLINE_COUNTS), named in full.
HEADLINE = tuple((key, COUNT_LABELS[key]) for key, _ in HEADLINE_COUNTS)


def _line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def _side(side: Side) -> str:
    return f"{short_id(side.id)}" + (f" ({side.label})" if side.label else "") + f" torch {side.torch or '?'}"


def run_text(side: Side) -> str:
    run = side.run
    if run is None:
        return "run status not known"
    return f"DID NOT FINISH: {run.summary} (counts may be low)" if run.finished is False else run.summary


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
        lines.append(
            f"run: {page.run.summary if finished else f'DID NOT FINISH: {page.run.summary} (counts may be low)'}"
        )
    workload = page.validity.workload_completion if page.validity is not None else "unknown"
    undercounted = row.counts.incomplete
    lines += [
        f"{'imported' if imported.created else 'already in the store (same bytes)'}: {row.id}"
        + (f" ({row.label})" if row.label else ""),
        f"{row.input_kind}, torch {row.torch_version or '?'}, trace {row.artifact_structure}, workload {workload}",
        f"total: {counts_line(nonzero(row.counts))}"
        + (f"; possibly undercounted: {', '.join(undercounted)}" if undercounted else ""),
    ]
    lines += [
        _line(f"rank {'?' if r.rank is None else r.rank}: {counts_line(nonzero(r.counts))}") for r in page.ranks[:8]
    ]
    if len(page.ranks) > 8 or page.ranks_omitted:
        more = len(page.ranks) - min(len(page.ranks), 8) + page.ranks_omitted
        lines.append(f"... {more} more rank(s) in the structured result")
    shown = short_id(row.id)
    lines += [
        _line(f"[{n.severity}] {n.code}: {for_agents(n.message, n.hint, capture=shown)}") for n in page.notices[:5]
    ]
    if len(page.notices) > 5 or page.notices_omitted:
        lines.append(f"... {len(page.notices) - min(len(page.notices), 5) + page.notices_omitted} more notice(s)")
    lines += [f"next: {call}" for call in page.next_calls]
    return "\n".join(lines)


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
                f"{n.confirmed_recompilation_identities}, graph breaks {n.graph_break_records}, failed {n.failed}, "
                f"trace {c.artifact_structure}"
            )
        )
    if page.next_offset is not None:
        lines.append(f"more: list_captures(offset={page.next_offset})")
    return "\n".join(lines)


def comparability_line(comp: Comparability) -> str:
    """The comparability in one line, from the whole comparison (what comes with a difference is counted before the
    page's comparability is cut to its share)."""
    verdict = f"comparability: {str(comp.verdict).upper()}"
    if comp.differences:
        verdict += (
            " (differs: "
            + "; ".join(
                f"{difference_phrase(d)}{coming_with(comp, d)}"
                + (f", can change {'/'.join(str(a) for a in d.affects)}" if len(d.affects) < 9 else "")
                for d in comp.differences[:6]
            )
            + ")"
        )
    elif comp.missing:
        verdict += " (not checked: " + "; ".join(comp.missing[:3]) + ")"
    if comp.intended:
        verdict += (
            " (the change under test: "
            + "; ".join(f"{difference_phrase(d)}{coming_with(comp, d)}" for d in comp.intended[:4])
            + ")"
        )
    return verdict


def comparison_text(page: ComparisonPage, tool: str) -> str:
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
        f"comparison {short_id(page.comparison_id)} ({'ranks' if ranks else 'captures'})",
        f"baseline  {_side(page.baseline)}",
        f"candidate {_side(page.candidate)}",
        _line(verdict),
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
        for number, g in enumerate(groups[:6], 1):
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
            if d is not None and not g.reference and number <= 4:
                lines.append(_line(f"  FIRST DIVERGENCE rank {d.rank} vs rank {d.reference_rank}: {d.reason}"))
        if len(groups) > 6:
            lines.append(f"... {len(groups) - 6} more group(s) in the structured result")
        if len(groups) == 1:
            lines.append("no rank diverges: every rank behaves the same")
    first, last = page.offset + 1, page.offset + len(page.rows)
    lines.append(f"rows {first}-{last} of {page.total_rows} (changed first):" if page.rows else "no rows on this page")
    for entry in page.rows:
        row = entry.row
        side = row.baseline or row.candidate
        name = side_label(side.qualified_name, side.file, side.line, side.name_from) if side else "?"
        status = f"{row.status} ({row.method})" if row.status == "matched" else str(row.status)
        pairs = [f"{label} {count_pair(row.baseline, row.candidate, k)}" for k, label in HEADLINE[:4]]
        changed = [ch.summary for ch in row.changes if ch.kind != "phase_time"][:2]
        frames = piece_line(row)
        if frames:
            changed.append(frames)
        cut = " [cut: see truncated]" if entry.truncated else ""
        lines.append(_line(f"[{entry.index}] {name} {status}: {', '.join(pairs)}; {'; '.join(changed)}{cut}"))
    for n in page.notices[:3]:
        lines.append(_line(f"[{n.severity}] {n.code}: {for_agents(n.message, n.hint)}"))
    if page.page_note:
        lines.append(page.page_note)
    if page.next_offset is not None:
        lines.append(f"more rows: {tool}(..., offset={page.next_offset})")
    return "\n".join(lines)


_EVIDENCE_LINES = 12  # evidence entries listed in the text; the structured content has the page


def evidence_index_text(page: EvidenceIndex, kind: str | None = None) -> str:
    what = f" of kind {kind}" if kind else ""
    lines = [
        f"evidence{what} {page.offset + 1}-{page.offset + len(page.items)} of {page.total} in {short_id(page.capture)}"
    ]
    for e in page.items[:_EVIDENCE_LINES]:
        rank = "?" if e.rank is None else e.rank
        about = f" {e.function}" if e.function else ""
        said = f": {e.summary}" if e.summary else ""
        lines.append(_line(f"{e.id} {e.kind} rank {rank} compile {e.compile_id or '-'}{about}{said}"))
    if len(page.items) > _EVIDENCE_LINES:
        lines.append(f"... {len(page.items) - _EVIDENCE_LINES} more on this page in the structured result")
    if page.next_offset is not None:
        lines.append(f"more: get_evidence(capture=..., offset={page.next_offset})")
    return "\n".join(lines)


def evidence_matches_text(page: EvidenceGrep, total_chars: int) -> str:
    ev = page.evidence
    where = "its text and embedded configuration" if page.in_config else "its own text"
    lines = [
        f"{ev.id}: {ev.kind} (compile {ev.compile_id or '-'}), sha256 verified; {page.total_matches} match(es) of "
        f"{page.pattern!r} in {where} ({total_chars} characters)"
    ]
    for m in page.matches:
        if m.first_line is None:
            lines.append(f"line {m.line}:")
        else:
            on = ", ".join(str(n) for n in m.matched_lines or [m.line])
            lines.append(f"lines {m.first_line}-{m.first_line + len(m.lines) - 1} (match on {on}):")
        lines += ["  " + " ".join(text.split()) for text in m.lines]
    if page.total_matches > page.shown_matches:
        lines.append(
            f"... {page.total_matches - page.shown_matches} more match(es): get_evidence(..., grep=..., "
            f"max_matches={min(page.total_matches, 200)})"
        )
    if page.config_matches and not page.in_config:
        lines.append(f"{page.config_matches} more in the embedded configuration: get_evidence(..., in_config=true)")
    return "\n".join(lines)


def evidence_text(ex: EvidenceExcerpt) -> str:
    ev = ex.evidence
    head = (
        f"{ev.id}: {ev.kind} at {ev.file}:{ev.line} (rank {'?' if ev.rank is None else ev.rank}, compile "
        f"{ev.compile_id or '-'}), sha256 verified; characters {ex.offset}-{ex.offset + len(ex.text)} "
        f"of {ex.total_chars}"
    )
    tail = f"\n[more: get_evidence(..., offset={ex.next_offset})]" if ex.next_offset is not None else ""
    return head + "\n" + ex.text + tail


def run_page_text(page: RunReportPage) -> str:
    lines = [_line(f"capture {short_id(page.capture)} ({page.label or '-'}) torch {page.torch or '?'}")]
    if (loud := compiled_line(page.compiled)) is not None:
        lines.insert(0, _line(loud))
    lines.append(_line(f"run: {page.run.summary}"))
    if page.counts is not None:
        lines.append(_line("counts: " + ", ".join(f"{COUNT_LABELS.get(k, k)} {v}" for k, v in page.counts.items())))
    first, last = page.offset + 1, page.offset + len(page.functions)
    lines.append(
        f"functions {first}-{last} of {page.total_functions} (problems first):" if page.functions else "no functions"
    )
    for entry in page.functions:
        r = entry.report
        counts = report_counts(r)
        frames = f" frames {', '.join(r.frames)}" if r.frames else ""
        lines.append(_line(f"[{entry.index}] {report_label(r)}: {counts}{frames}"))
        texts = [t for c in r.compilations if (t := compilation_text(c, r.name)) is not None]
        lines += [_line(t) for t in texts[:6]]
        if len(texts) > 6:
            lines.append(f"  ... {len(texts) - 6} more lines in the structured result")
        if entry.truncated:
            lines.append(_line("  cut: " + "; ".join(entry.truncated)))
    if page.next_offset is not None:
        lines.append(f'more functions: analyze_capture(capture="{short_id(page.capture)}", offset={page.next_offset})')
    return "\n".join(lines)


def imported_runs_text(page: ImportPage) -> str:
    lines = [f"imported {page.total} runs:"]
    headline = {key for key, _ in HEADLINE}
    for r in page.captures:
        row = r.capture
        counts = ", ".join(f"{COUNT_LABELS.get(k, k)} {v}" for k, v in nonzero(row.counts).items() if k in headline)
        verb = "new" if r.created else "already stored"
        lines.append(
            _line(f"{short_id(row.id)} {row.label or '-'} ({verb}): {row.run_state}; {counts or 'no compilations'}")
        )
    if page.captures_omitted:
        lines.append(f"... {page.captures_omitted} more: list_captures()")
    lines += [f"next: {call}" for call in page.next_calls]
    return "\n".join(lines)
