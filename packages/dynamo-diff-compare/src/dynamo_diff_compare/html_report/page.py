"""The page: a sticky bar with the verdict and a table of contents; a header with both runs' status and the headline
deltas; the compile-time chart; the timelines; the functions table (sortable); per-row details (changed ones
open) with each compilation's records; the records; totals, comparability and notices."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from dynamo_diff_schema.capture import CompiledState, RunStatus
from dynamo_diff_schema.comparison import ChangeKind, Comparison, FunctionRow, RowStatus, Side
from dynamo_diff_schema.counts import COUNT_KEYS, HEADLINE_COUNTS
from dynamo_diff_schema.evidence import NoticeCode, Severity
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.lists import head, joined

from dynamo_diff_compare.compile_time import compile_time_text
from dynamo_diff_compare.compiled import COMPILED_WORDS, compiled_nothing
from dynamo_diff_compare.hint_words import PLAIN_HINTS, HintWords, phrase, with_hint
from dynamo_diff_compare.html_report.chart import compile_time_chart, phase_chart, short_change
from dynamo_diff_compare.html_report.details import row_details, status_text
from dynamo_diff_compare.html_report.inputs import Excerpt, ReportMaterial
from dynamo_diff_compare.html_report.records import record_index, records_section
from dynamo_diff_compare.html_report.script import SCRIPT, SCRIPT_HASH
from dynamo_diff_compare.html_report.style import CSS
from dynamo_diff_compare.html_report.text import esc, row_anchor, value_text
from dynamo_diff_compare.html_report.timeline import timelines
from dynamo_diff_compare.render import (
    changed_first,
    confounded_counts,
    count_label,
    count_pair,
    folded,
    rank_counts_line,
    row_compile_time,
    row_name,
    shown_counts,
)
from dynamo_diff_compare.verdict_text import (
    areas_text,
    coming_with,
    difference_phrase,
    effect_text,
    followers,
    verdict_headline,
    with_it,
)

# Nothing may be fetched, and only the page's own script (by its hash) may run.
CSP = f"default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src '{SCRIPT_HASH}'"
# Warning and error notices repeated in the header.
_HEADER_NOTICES = 3
# Headline tiles: the headline counts that changed (at most this many), then compile time; at least _MIN_TILES.
_MAX_COUNT_TILES = 4
_MIN_TILES = 3
# Counts where fewer is better (a drop is good news when the run finished); cache hits are the other way round.
_FEWER_IS_BETTER = {
    "observed_compilation_identities",
    "confirmed_recompilation_identities",
    "graph_break_records",
    "failed",
    "compiler_limit_events",
    "cache_misses",
}


def _run_card(name: str, side: Side) -> str:
    run: RunStatus | None = side.run
    if run is None:
        state, cls, summary = "status not known", "unknown", "this document does not say how the run ended"
    elif run.finished is False:
        state, cls, summary = "DID NOT FINISH", "bad", f"{run.summary}; its counts may be low"
    elif run.finished is None:
        state, cls, summary = "status unknown", "unknown", run.summary
    else:
        state, cls, summary = "finished", "good", run.summary
    label = f"{side.label} " if side.label else ""
    reasons = ""
    if run is not None and run.finished is False and run.reasons:
        reasons = '<ul class="reasons">' + "".join(f"<li>{esc(r)}</li>" for r in run.reasons) + "</ul>"
    compiled = ""
    if side.compiled is not None and compiled_nothing(side.compiled):
        # Said before how the run ended: every count of such a run is 0, which reads as a perfect run.
        cls += " run-empty"
        compiled = (
            f'<div class="run-compiled" data-compiled="{esc(str(side.compiled.state))}">'
            f"{esc(COMPILED_WORDS[CompiledState(side.compiled.state)])}</div>"
            f'<div class="run-summary">{esc(side.compiled.summary)}</div>'
        )
    return (
        f'<div class="run-card run-{cls}" data-side="{name}"><div class="side-name">{name}</div>'
        f'<div class="run-label">{esc(label)}<code>{esc(short_id(side.id))}</code></div>{compiled}'
        f'<div class="run-state">{esc(state)}</div><div class="run-summary">{esc(summary)}</div>'
        f'<div class="run-torch">torch {esc(side.torch or "version not recorded")}</div>{reasons}</div>'
    )


def _verdict(comparison: Comparison) -> str:
    if comparison.kind == "rank_view":
        view = comparison.ranks
        groups = len(view.groups) if view else 0
        ranks = len(view.ranks) if view else 0
        text = (
            f"{ranks} ranks in {groups} behaviour groups; {groups - 1} group(s) diverge from the reference rank"
            if groups > 1
            else f"every one of {ranks} ranks behaves the same (one group)"
        )
        return (
            f'<div class="verdict verdict-ranks"><div class="side-name">rank view</div>'
            f'<div class="verdict-word">ranks of one run</div><div class="verdict-why">{esc(text)}</div></div>'
        )
    comp = comparison.comparability
    verdict = str(comp.verdict)
    if comp.differences:
        if len(comp.differences) == 1:
            why = f"{verdict_headline(comp).split(': ', 1)[1]}; counts in the areas it affects may come from it"
        else:
            keys = joined([d.key for d in comp.differences], 4)
            why = (
                f"{len(comp.differences)} difference(s) between the runs: {keys}; counts in the areas they affect "
                "may come from them"
            )
    elif verdict == "unknown":
        why = f"{len(comp.checked)} key(s) checked equal, but essentials could not be checked"
    else:
        why = f"{len(comp.checked)} key(s) checked equal"
    if comp.intended:
        why += "; the change under test: " + ", ".join(
            f"{difference_phrase(d)}{coming_with(comp, d)}" for d in comp.intended
        )
    return (
        f'<div class="verdict verdict-{esc(verdict)}"><div class="side-name">comparability</div>'
        f'<div class="verdict-word">{esc(verdict)}</div><div class="verdict-why">{esc(why)}</div></div>'
    )


def _rank_groups(comparison: Comparison) -> str:
    """The rank view: a row per behaviour group (its ranks, representative, counts and first divergence)."""
    view = comparison.ranks
    assert view is not None
    divergence_of = {d.rank: d for d in view.divergences}
    rows = []
    for number, group in enumerate(view.groups, 1):
        d = divergence_of.get(group.representative) if not group.reference else None
        first = "reference" if group.reference else (esc(d.reason) if d else "")
        if d is not None and d.evidence_ids:
            first += f'<div class="evidence-ids">evidence: {esc(", ".join(d.evidence_ids[:6]))}</div>'
        rows.append(
            f'<tr data-group="{number}" data-ranks="{esc(group.rank_ranges)}"><td>{number}</td>'
            f"<td>{esc(group.rank_ranges)}</td><td>{group.size}</td><td>{esc(str(group.representative))}</td>"
            f"<td>{esc(rank_counts_line(group.counts))}</td><td>{first}</td></tr>"
        )
    return (
        f'<section id="ranks"><h2>Ranks</h2><p>{len(view.ranks)} ranks in {len(view.groups)} behaviour group(s) '
        f"(ranks with the same compilations per function, failing guards, breaks, failures and limits); reference "
        f'rank {esc(str(view.reference_rank))}</p><table class="rank-groups"><tr><th>group</th><th>ranks</th>'
        "<th>size</th><th>representative</th><th>counts</th><th>first divergence from the reference</th></tr>"
        + "".join(rows)
        + "</table></section>"
    )


def _tiles(comparison: Comparison) -> str:
    """3 to 5 headline deltas: the headline counts that changed, then compile time, filled with the first headline
    counts when fewer changed."""
    b, c = comparison.totals.baseline, comparison.totals.candidate
    sides = (comparison.baseline, comparison.candidate)
    unfinished = any(s.run is not None and s.run.finished is False for s in sides)
    empty = any(compiled_nothing(s.compiled) for s in sides)
    confounded = confounded_counts(comparison)
    changed = [(k, label) for k, label in HEADLINE_COUNTS if getattr(b, k) != getattr(c, k)][:_MAX_COUNT_TILES]
    timed = bool(b.compile_time_s or c.compile_time_s)
    filler = [(k, label) for k, label in HEADLINE_COUNTS if (k, label) not in changed]
    while len(changed) + timed < _MIN_TILES and filler:
        changed.append(filler.pop(0))
    order = {k: n for n, (k, _) in enumerate(HEADLINE_COUNTS)}
    changed.sort(key=lambda kl: order[kl[0]])
    out = ['<div class="tiles">']
    for key, label in changed:
        bv, cv = getattr(b, key), getattr(c, key)
        delta = cv - bv
        if delta == 0:
            tone = "same"
        elif unfinished or empty or key in confounded or key not in _FEWER_IS_BETTER | {"cache_hits"}:
            tone = "neutral"
        else:
            better = delta < 0 if key in _FEWER_IS_BETTER else delta > 0
            tone = "good" if better else "bad"
        note = " (!)" if key in confounded else ""
        inc = ["+?" if key in s.incomplete else "" for s in (b, c)]
        out.append(
            f'<div class="tile tile-{tone}" data-count="{key}"><div class="tile-label">{esc(label + note)}</div>'
            f'<div class="tile-value">{bv}{inc[0]} → {cv}{inc[1]}</div>'
            f'<div class="tile-delta">{f"{delta:+d}" if delta else "no change"}</div></div>'
        )
    if timed:
        short = short_change(b.compile_time_s, c.compile_time_s, (bool(b.unknown_outcomes), bool(c.unknown_outcomes)))
        tone = "same" if short in ("noise", "no change") else "neutral"
        out.append(
            f'<div class="tile tile-{tone}" data-count="compile_time_s"><div class="tile-label">compile time</div>'
            f'<div class="tile-value">{esc(compile_time_text(b))} → {esc(compile_time_text(c))}</div>'
            f'<div class="tile-delta">{esc(short)}</div></div>'
        )
    out.append("</div>")
    if empty:
        out.append('<p class="warn">A run compiled nothing: its counts are 0, so a drop is not shown as good news.</p>')
    if unfinished:
        out.append(
            '<p class="warn">A run did not finish: its counts may be low, so a drop is not shown as good news.</p>'
        )
    return "\n".join(out)


def _header(comparison: Comparison, hints: HintWords) -> str:
    b, c = comparison.baseline, comparison.candidate
    title = f"{b.label or short_id(b.id)} → {c.label or short_id(c.id)}"
    # Warnings and errors are said up front too (the run cards already say that a run did not finish, or compiled
    # nothing).
    carded = (NoticeCode.RUN_INCOMPLETE, NoticeCode.NOTHING_COMPILED, NoticeCode.NO_GRAPH_COMPILED)
    loud = [n for n in comparison.notices if n.severity != Severity.INFO and n.code not in carded]
    said, more = head(loud, _HEADER_NOTICES)
    notes = "".join(f'<p class="warn">{esc(with_hint(n.message, n.hint, hints))}</p>' for n in said)
    if more:
        notes += f'<p class="note">{more} more notice(s) at the end of the page.</p>'
    # How each run ended comes first (docs/COMPARING.md), then whether the two are comparable.
    return (
        f'<header id="summary"><h1>Dynamo Diff <span class="pair-name">{esc(title)}</span></h1>'
        f'<div class="runs">{_run_card("baseline", b)}{_run_card("candidate", c)}{_verdict(comparison)}</div>'
        f"{_tiles(comparison)}{notes}</header>"
    )


def _comparability(comparison: Comparison) -> str:
    comp = comparison.comparability
    out = [f'<section id="comparability"><h2>Comparability: {esc(str(comp.verdict))}</h2>']
    for title, diffs in (("Differences", comp.differences), ("The change under test", comp.intended)):
        if not diffs:
            continue
        out.append(
            f"<h3>{title}</h3><table><tr><th>key</th><th>from</th><th>baseline</th><th>candidate</th>"
            "<th>can change</th><th>comes with it</th></tr>"
        )
        out += [
            f'<tr data-key="{esc(d.key)}"><td><code>{esc(d.key)}</code></td><td>{esc(d.source)}</td>'
            f"<td>{esc(value_text(d.baseline))}</td><td>{esc(value_text(d.candidate))}</td>"
            f"<td>{esc(areas_text(d))}<br>{esc(effect_text(d))}{'<br>' + esc(d.why) if d.why else ''}</td>"
            f"<td>{esc(with_it(followers(comp, d.key)) or 'nothing')}</td></tr>"
            for d in diffs
        ]
        out.append("</table>")
    if comp.explained:
        out.append(
            f"<details><summary>{len(comp.explained)} difference(s) that confound nothing by themselves (what comes "
            "with another difference, or changes nothing counted)</summary><table><tr><th>key</th><th>baseline</th>"
            "<th>candidate</th><th>comes with</th><th>why</th></tr>"
        )
        out += [
            f'<tr data-explained="{esc(e.key)}"><td><code>{esc(e.key)}</code></td><td>{esc(value_text(e.baseline))}'
            f"</td><td>{esc(value_text(e.candidate))}</td><td>{esc(e.follows_from or 'nothing')}</td>"
            f"<td>{esc(e.why or '')}</td></tr>"
            for e in comp.explained
        ]
        out.append("</table></details>")
    if comp.contradictions:
        out.append("<h3>Declarations the runs contradict (the observation is compared)</h3><ul>")
        out += [
            f"<li>{esc(x.side)}: declared <code>{esc(x.key)}</code> = {esc(value_text(x.declared))}, observed "
            f"{esc(value_text(x.observed))}</li>"
            for x in comp.contradictions
        ]
        out.append("</ul>")
    if comp.missing:
        out.append("<h3>Not checked</h3><ul>" + "".join(f"<li>{esc(m)}</li>" for m in comp.missing) + "</ul>")
    if comp.checked:
        out.append(f"<details><summary>{len(comp.checked)} key(s) checked and equal</summary><table>")
        out += [
            f"<tr><td><code>{esc(x.key)}</code></td><td>{esc(x.source)}</td>"
            f"<td>{esc(value_text(x.value, 200))}</td></tr>"
            for x in comp.checked
        ]
        out.append("</table></details>")
    out.append("</section>")
    return "\n".join(out)


def _totals(comparison: Comparison) -> str:
    b, c = comparison.totals.baseline, comparison.totals.candidate
    confounded = confounded_counts(comparison)
    out = [
        '<section id="totals"><h2>Totals</h2><table class="totals"><tr><th>count</th><th>baseline</th>'
        "<th>candidate</th><th>change</th></tr>"
    ]
    shown = shown_counts(comparison)
    for key in shown:
        bv, cv = getattr(b, key), getattr(c, key)
        delta = cv - bv
        inc = ["+?" if key in s.incomplete else "" for s in (b, c)]
        out.append(
            f'<tr class="{"changed" if delta else ""}"><td>{esc(count_label(key, confounded))}</td>'
            f'<td class="n">{bv}{inc[0]}</td><td class="n">{cv}{inc[1]}</td>'
            f'<td class="n">{f"{delta:+d}" if delta else ""}</td></tr>'
        )
    if b.compile_time_s or c.compile_time_s:
        out.append(
            f'<tr id="compile-time"><td>compile time</td><td class="n">{esc(compile_time_text(b))}</td>'
            f'<td class="n">{esc(compile_time_text(c))}</td>'
            f'<td class="n">{esc(short_change(b.compile_time_s, c.compile_time_s))}</td></tr>'
        )
    out.append("</table>")
    hidden = len(COUNT_KEYS) - len(shown)
    if hidden:
        out.append(f'<p class="note">{hidden} other counts are 0 in both runs.</p>')
    if confounded:
        keys = sorted({k for ks in confounded.values() for k in ks})
        out.append(f'<p class="note">(!) may be changed by a comparability difference: {esc(", ".join(keys))}</p>')
    out.append("</section>")
    return "\n".join(out)


def _what_changed(row: FunctionRow) -> str:
    items = [c.summary for c in row.changes if c.kind != ChangeKind.PHASE_TIME]
    if not items:
        return "" if row.status == RowStatus.MATCHED else '<span class="none">only in one run</span>'
    return "<ul>" + "".join(f"<li>{esc(s)}</li>" for s in items) + "</ul>"


def _functions(comparison: Comparison, rows: list[FunctionRow], anchors: Mapping[int, str]) -> str:
    index = {id(r): n for n, r in enumerate(comparison.functions)}
    shown, quiet = folded(rows, False)
    # A headline count that is 0 for every function in both runs gets no column (the totals list every count).
    columns = [
        (key, label)
        for key, label in HEADLINE_COUNTS
        if any(s is not None and getattr(s.counts, key) for r in rows for s in (r.baseline, r.candidate))
    ]
    out = [
        '<p class="note" id="sort-hint" hidden>Changed functions first; click a column heading to sort by it (a '
        "count or time by the larger of the two runs), again to reverse.</p>"
        '<div class="wide"><table id="functions"><thead><tr><th data-sort="text">function</th>'
        '<th class="match" data-sort="text">match</th>'
        + "".join(f'<th class="n" data-sort="num">{esc(label)}</th>' for _, label in columns)
        + '<th class="n time" data-sort="num">compile time</th><th>what changed</th></tr></thead><tbody>'
    ]
    for order, row in enumerate(shown + quiet):
        cells = []
        for key, _ in columns:
            b = getattr(row.baseline.counts, key) if row.baseline else None
            c = getattr(row.candidate.counts, key) if row.candidate else None
            text = esc(count_pair(row.baseline, row.candidate, key).replace(" -> ", " → "))
            larger = max(v for v in (b, c, 0) if v is not None)
            cells.append(
                f'<td class="n{" changed" if b is not None and c is not None and b != c else ""}" '
                f'data-v="{larger}">{text}</td>'
            )
        anchor = anchors[index[id(row)]]
        seconds = max(s.counts.compile_time_s for s in (row.baseline, row.candidate) if s is not None)
        out.append(
            f'<tr class="{"quiet" if row in quiet else "loud"}" data-order="{order}">'
            f'<td data-v="{esc(row_name(row))}"><a href="#{anchor}">{esc(row_name(row))}</a></td>'
            f'<td class="match" data-v="{esc(status_text(row))}"><span class="badge status-{esc(row.status)}">'
            f"{esc(status_text(row))}</span></td>{''.join(cells)}"
            f'<td class="n time" data-v="{seconds:.6f}">{esc(row_compile_time(row).replace(" -> ", " → "))}</td>'
            f'<td class="what">{_what_changed(row)}</td></tr>'
        )
    out.append("</tbody></table></div>")
    hidden = [label for key, label in HEADLINE_COUNTS if (key, label) not in columns]
    if hidden:
        out.append(f'<p class="note">No column for {esc(", ".join(hidden))}: 0 for every function in both runs.</p>')
    if quiet:
        out.append(f'<p class="note">{len(quiet)} function(s) in which nothing changed are listed last, dimmed.</p>')
    return "\n".join(out)


def comparison_html(
    comparison: Comparison,
    excerpts: Mapping[str, str | Excerpt] | None = None,
    *,
    material: ReportMaterial | None = None,
    hints: HintWords = PLAIN_HINTS,
) -> str:
    """The report as one self-contained page. `excerpts` maps 'baseline:<evidence id>' / 'candidate:<evidence id>'
    to evidence text that the caller read (hash-checked) from the store; `material` adds each run's compilations
    (the timeline) and source snapshots (the source of both versions); its excerpts are used when `excerpts` is
    not given. `hints` words the next steps the page suggests (the caller's front end)."""
    material = material or ReportMaterial()
    material = replace(material, excerpts=material.excerpts if excerpts is None else excerpts, hints=hints)
    rows = changed_first(comparison.functions)
    anchors = {n: row_anchor(n) for n in range(len(comparison.functions))}
    position = {id(r): n for n, r in enumerate(comparison.functions)}
    records = record_index(material)
    b, c = comparison.baseline, comparison.candidate
    sections: list[tuple[str, str]] = []  # (id, words) of the table of contents
    body = [_header(comparison, hints)]
    sections.append(("summary", "summary"))
    if comparison.ranks is not None:
        body.append(_rank_groups(comparison))
        sections.append(("ranks", "ranks"))
    chart = [
        '<section id="chart"><h2>Compile time per function</h2>'
        '<p class="legend"><span class="key"><span class="swatch bar-baseline"></span>baseline</span>'
        '<span class="key"><span class="swatch bar-candidate"></span>candidate</span>'
        "<span class=\"key\">change: as in the totals; 'noise' is a change under 25% or 0.1 s</span></p>"
        f'<div class="wide">{compile_time_chart(comparison, anchors)}</div>'
    ]
    phases = phase_chart([("baseline", comparison.totals.baseline), ("candidate", comparison.totals.candidate)])
    if phases:
        chart.append(f'<h3>Where the compile time went</h3><div class="wide">{phases}</div>')
    chart.append("</section>")
    body.append("".join(chart))
    sections.append(("chart", "compile time"))
    body.append(
        '<section id="timeline"><h2>Compilations over time</h2><div class="wide">'
        + timelines(comparison, rows, material, anchors)
        + "</div></section>"
    )
    sections.append(("timeline", "timeline"))
    if comparison.functions:
        changed = [r for r in rows if _changed(r)]
        body.append(
            f'<section id="rows"><h2>Functions <span class="sub">{len(changed)} of {len(rows)} changed</span></h2>'
            f"{_functions(comparison, rows, anchors)}</section>"
        )
        sections.append(("rows", f"functions ({len(rows)})"))
        details = [
            '<section id="details"><h2>Details, evidence and source</h2>'
            f'<p class="note">{_details_note(len(changed), len(rows))}</p>{_snapshot_note(comparison, material)}'
        ]
        details += [
            row_details(position[id(r)], anchors[position[id(r)]], r, material, records, open_=_changed(r))
            for r in rows
        ]
        details.append("</section>")
        body.append("\n".join(details))
        sections.append(("details", "details"))
        kept = records_section({"baseline": b.id, "candidate": c.id}, material, records)
        if kept:
            body.append(kept)
            sections.append(("records", "graphs, guards, code"))
    body.append(_totals(comparison))
    sections.append(("totals", "totals"))
    if comparison.kind == "comparison":
        body.append(_comparability(comparison))
        sections.append(("comparability", "comparability"))
    if comparison.notices:
        body.append('<section id="notices"><h2>Notices</h2><ul>')
        body += [
            f'<li><span class="badge sev-{esc(str(n.severity))}">{esc(str(n.severity))}</span> <code>{esc(n.code)}'
            f"</code>: {esc(with_hint(n.message, n.hint, hints))}</li>"
            for n in comparison.notices
        ]
        body.append("</ul></section>")
        sections.append(("notices", f"notices ({len(comparison.notices)})"))
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="color-scheme" content="light dark">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Dynamo Diff: {esc(b.label or short_id(b.id))} → {esc(c.label or short_id(c.id))}</title>",
        f"<style>{CSS}</style></head><body>",
        _topbar(comparison, sections),
        "<main>",
        *body,
        f"</main><script>{SCRIPT}</script></body></html>",
    ]
    return "\n".join(out) + "\n"


def _changed(row: FunctionRow) -> bool:
    """A row whose details open by default: a count changed, something other than compile-phase timing changed, or
    the function is in one run only (what the text view lists under a function)."""
    return (
        row.status != RowStatus.MATCHED
        or bool(row.deltas)
        or any(change.kind != ChangeKind.PHASE_TIME for change in row.changes)
    )


def _details_note(changed: int, total: int) -> str:
    if changed == total:
        return f"Every function changed: all {total} are open."
    return (
        f"{changed} changed function(s) open, {total - changed} closed (click a name to open it; the functions "
        "table links to each)."
    )


def _snapshot_note(comparison: Comparison, material: ReportMaterial) -> str:
    """One note for the page when a run kept no source snapshots (a bare trace), instead of one per function."""
    bare = [side for side in ("baseline", "candidate") if not (s := material.side(side).sources) or not s.files]
    if not bare or not any(
        getattr(row, side) is not None and getattr(row, side).file for row in comparison.functions for side in bare
    ):
        return ""
    record = phrase(Hint(action=HintAction.RECORD_WITH_CAPTURE), material.hints)
    what = (
        "No source snapshots: neither run kept any (both were imported from a trace alone), so no function's source "
        "is shown"
        if len(bare) == 2
        else f"No source snapshots in the {bare[0]}: it was imported from a trace alone, so its side of each "
        "function's source is empty"
    )
    return f'<p class="warn snapshot-note">{esc(what)} ({esc(record)}).</p>'


def _topbar(comparison: Comparison, sections: list[tuple[str, str]]) -> str:
    """The bar that stays at the top: the verdict in one word, the pair, and the table of contents."""
    b, c = comparison.baseline, comparison.candidate
    if comparison.kind == "rank_view":
        verdict, cls = "rank view", "ranks"
    else:
        verdict = str(comparison.comparability.verdict)
        cls = verdict
    unfinished = [n for n, s in (("baseline", b), ("candidate", c)) if s.run is not None and s.run.finished is False]
    warn = f'<span class="top-warn">{esc(" and ".join(unfinished))} did not finish</span>' if unfinished else ""
    links = "".join(f'<li><a href="#{sid}">{esc(words)}</a></li>' for sid, words in sections)
    return (
        f'<nav id="toc" aria-label="contents"><span class="top-verdict verdict-{esc(cls)}">{esc(verdict)}</span>'
        f'<span class="top-pair">{esc(b.label or short_id(b.id))} → {esc(c.label or short_id(c.id))}</span>{warn}'
        f"<ul>{links}</ul></nav>"
    )
