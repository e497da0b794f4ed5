"""Short text renderings of the tool results: what an agent reads first; the structured content has the rest."""

from __future__ import annotations

from dynamo_diff_compare import (
    COMPILED_WORDS,
    change_evidence,
    coming_with,
    compilation_text,
    compile_time_change,
    compiled_line,
    count_pair,
    difference_phrase,
    effect_text,
    followers,
    nonzero,
    piece_line,
    report_counts,
    report_label,
    row_name,
    source_lines,
    suggestion_brief,
    verdict_headline,
    with_it,
)
from dynamo_diff_schema import (
    ALL_AREAS,
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
    SourceDiff,
    SourceResult,
    short_id,
)
from dynamo_diff_schema.comparison import ChangeKind, Comparability

from dynamo_diff_mcp.hints import for_agents

LINE_CHARS = 240
# The counts shown in one-line summaries (dynamo_diff_schema.HEADLINE_COUNTS), named in full.
HEADLINE = tuple((key, COUNT_LABELS[key]) for key, _ in HEADLINE_COUNTS)


def _line(text: str, limit: int = LINE_CHARS) -> str:
    indent = text[: len(text) - len(text.lstrip(" "))]
    text = indent + " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


_DIFFERENCE_LINES = 6  # differences with a line each; the keys of the rest are named on one more line
_REST_CHARS = 300  # the keys of the rest named, whole, within this


def comparability_line(comp: Comparability) -> str:
    """The comparability from the whole comparison (what comes with a difference is counted before the page's
    comparability is cut to its share): the verdict, then a line per difference with both values, what comes
    with it and what its key changes."""
    lines = [f"comparability: {verdict_headline(comp)}"]
    one = len(comp.differences) == 1  # the headline is that difference: its effect goes on the same line
    for d in comp.differences[:_DIFFERENCE_LINES]:
        areas = f"; can change {'/'.join(str(a) for a in d.affects)}" if len(d.affects) < len(ALL_AREAS) else ""
        if one:
            lines[0] += f"{areas}; effect: {effect_text(d)}"
        else:
            lines.append(f"- {difference_phrase(d)}{coming_with(comp, d)}{areas}; effect: {effect_text(d)}")
        items = followers(comp, d.key)
        if items:
            lines.append(f"  with it: {with_it(items)}")
    if len(comp.differences) > _DIFFERENCE_LINES:
        rest = [d.key for d in comp.differences[_DIFFERENCE_LINES:]]
        named: list[str] = []
        while len(named) < len(rest) and sum(len(k) + 2 for k in named) + len(rest[len(named)]) <= _REST_CHARS:
            named.append(rest[len(named)])
        unnamed = f", and {len(rest) - len(named)} more" if len(named) < len(rest) else ""
        lines.append(f"- {len(rest)} more difference(s): {', '.join(named)}{unnamed}")
    if not comp.differences and comp.missing:
        lines.append("not checked: " + "; ".join(comp.missing[:3]))
    for d in comp.intended[:4]:
        lines.append(f"the change under test: {difference_phrase(d)}{coming_with(comp, d)}; effect: {effect_text(d)}")
    return "\n".join(lines)


_WHOLE_LINE = 600  # a comparability line is one fact: cut only past this (a value is at most 60 characters)


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
        *(_line(line, _WHOLE_LINE) for line in verdict.splitlines()),
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
        name = row_name(row) if row.baseline or row.candidate else "?"
        status = f"{row.status} ({row.method})" if row.status == "matched" else str(row.status)
        pairs = [f"{label} {count_pair(row.baseline, row.candidate, k)}" for k, label in HEADLINE[:4]]
        changed = [
            f"{ch.summary} {change_evidence(ch)}".strip()
            for ch in row.changes
            if ch.kind not in (ChangeKind.PHASE_TIME, ChangeKind.SOURCE)
        ][:2]
        frames = piece_line(row)
        if frames:
            changed.append(frames)
        cut = " [cut: see truncated]" if entry.truncated else ""
        lines.append(_line(f"[{entry.index}] {name} {status}: {', '.join(pairs)}; {'; '.join(changed)}{cut}"))
        for ch in row.changes:
            if ch.kind == ChangeKind.SOURCE:
                lines.append(_line(f"  {ch.summary} {change_evidence(ch)}".rstrip()))
                lines += [_line(f"    {text}") for text in source_lines(ch, row)]
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
    lines = [
        f"{ev.id}: {ev.kind} (compile {ev.compile_id or '-'}), sha256 verified; {page.total_matches} match(es) of "
        f"{page.pattern!r} in {total_chars} characters"
    ]
    for m in page.matches:
        lines.append(f"line {m.line}:")
        lines += ["  " + _line(text) for text in m.lines]
    if page.total_matches > len(page.matches):
        lines.append(f"... {page.total_matches - len(page.matches)} more matches")
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
    lines += [_line(suggestion_brief(s)) for s in page.suggestions]
    first, last = page.offset + 1, page.offset + len(page.functions)
    lines.append(
        f"functions {first}-{last} of {page.total_functions} (problems first):" if page.functions else "no functions"
    )
    for entry in page.functions:
        r = entry.report
        counts = report_counts(r)
        frames = f" frames {', '.join(r.frames)}" if r.frames else ""
        lines.append(_line(f"[{entry.index}] {report_label(r)}: {counts}{frames}"))
        lines += [_line("  " + suggestion_brief(s)) for s in r.suggestions]
        texts = []
        for c in r.compilations:
            if (t := compilation_text(c, r.name)) is not None:
                texts.append(t)
                texts += ["    " + suggestion_brief(s) for s in c.suggestions]
        lines += [_line(part) for t in texts[:6] for part in t.split("\n")]
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


_ROLE_WORDS = {
    "function": "the compiled function",
    "caller": "a function that called it (the call site)",
    "callee": "a function it calls",
    "file": "the whole file",
}


def source_text(page: SourceResult, total: int, offset: int, next_offset: int | None) -> str:
    """Captured source: where each location is, then its lines numbered as in the file."""
    what = f"file {page.file}" if page.file is not None else f"{page.function} (context {page.context})"
    lines = [f"source of {what} in capture {short_id(page.capture)}, from its snapshot (not the working tree)"]
    for loc in page.locations:
        text = loc.text.splitlines()
        span = "" if page.file is not None else f", the function is lines {loc.first_line}-{loc.last_line}"
        lines.append(f"{loc.co_filename}:{loc.co_firstlineno} (snapshot {loc.snapshot}{span})")
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
            f"{side} {', '.join(ids[:3])}"
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
