"""Per-row details: counts, each change with the compiler's text of both runs side by side and its evidence, and
the function's source in both versions with the changed lines highlighted."""

from __future__ import annotations

import re
from collections.abc import Mapping

from dynamo_diff_schema.comparison import Change, ChangeKind, FunctionRow, FunctionSide, RowStatus
from dynamo_diff_schema.counts import COMPILE_PHASES, COUNT_KEYS, COUNT_LABELS, HEADLINE_COUNTS
from dynamo_diff_schema.lists import joined

from dynamo_diff_compare.html_report.chart import short_change, time_change
from dynamo_diff_compare.html_report.inputs import Excerpt, ReportMaterial
from dynamo_diff_compare.html_report.records import RecordIndex, row_compilations
from dynamo_diff_compare.html_report.source import SourceView, function_source, with_changes
from dynamo_diff_compare.html_report.text import ABSENT, esc, seconds, value_text, where
from dynamo_diff_compare.render import count_pair, piece_line, row_name, same_file, side_count

SIDES = ("baseline", "candidate")
# What a side of the source view says when its run kept no snapshots (the page says why, once).
NO_SNAPSHOT = "no source snapshot of this run (see the note above the details)"
_BREAKS = (ChangeKind.GRAPH_BREAK_NEW, ChangeKind.GRAPH_BREAK_GONE, ChangeKind.GRAPH_BREAK_MOVED)
_FAILURES = (ChangeKind.FAILURE_NEW, ChangeKind.FAILURE_GONE)


def status_text(row: FunctionRow) -> str:
    if row.status == RowStatus.MATCHED:
        return f"matched ({row.method})"
    return str(row.status).replace("_", " ")


def headline(row: FunctionRow) -> str:
    """'compiles 2 → 1 · recompiles 1 → 0': the headline counts that are not 0 on both sides."""
    parts = []
    for key, label in HEADLINE_COUNTS:
        b = getattr(row.baseline.counts, key) if row.baseline else None
        c = getattr(row.candidate.counts, key) if row.candidate else None
        if b or c:
            parts.append(f"{label} {count_pair(row.baseline, row.candidate, key).replace(' -> ', ' → ')}")
    return " · ".join(parts)


def _side_value(kind: ChangeKind, value: object) -> str:
    """What one run shows for a change, in words (trace text goes in <pre> blocks)."""
    if kind == ChangeKind.RECOMPILE_REASON and isinstance(value, dict):
        n = value.get("failing_guards", 0)
        out = [f"<p>{esc(str(n))} failing {esc(str(value.get('category', '')))} guard(s)</p>"]
        out += [f'<pre class="trace" data-trace>{esc(str(text))}</pre>' for text in value.get("examples") or []]
        out += [f"<p>specialized: <code>{esc(str(text))}</code></p>" for text in value.get("specialized") or []]
        return "".join(out)
    if kind in _BREAKS:
        if not isinstance(value, dict):
            return '<p class="none">no graph break of this type</p>'
        key = str(value.get("key", ""))
        head = f"graph-break type <code>{esc(key)}</code> (torch's registry)" if key.startswith("gb") else esc(key)
        if isinstance(value.get("operator"), str):
            head += f" about <code>{esc(value['operator'])}</code>"
        sites = "".join(f"<li><code>{esc(str(s))}</code></li>" for s in value.get("sites") or [])
        out = [f"<p>{head}</p>" + (f'<ul class="sites">{sites}</ul>' if sites else "")]
        # torch's own words from the record (the first break of this type), and the page it links, as text: the
        # report's links stay on the page.
        if isinstance(value.get("explanation"), str):
            out.append(f"<p>torch's explanation: {esc(value['explanation'])}</p>")
        hints = [h for h in value.get("hints") or [] if isinstance(h, str)]
        if hints:
            out.append("<p>torch's hints:</p><ul>" + "".join(f"<li>{esc(h)}</li>" for h in hints) + "</ul>")
        if isinstance(value.get("url"), str):
            out.append(f"<p>torch's page: <code>{esc(value['url'])}</code></p>")
        return "".join(out)
    if kind in _FAILURES and isinstance(value, dict):
        count = value.get("count", 0)
        out = [f"<p><code>{esc(str(value.get('fail_type') or 'failure'))}</code>: {esc(str(count))} failed</p>"]
        if value.get("reason"):
            out.append(f'<pre class="trace" data-trace>{esc(str(value["reason"]))}</pre>')
        return "".join(out)
    if kind == ChangeKind.SOURCE and isinstance(value, dict):
        key, sign = ("removed", "-") if "removed" in value else ("added", "+")
        lines = [f"{sign} {item.get('line')}: {item.get('text')}" for item in value.get(key) or []]
        if value.get(f"{key}_more"):
            lines.append(f"... {value[f'{key}_more']} more")
        head = f"<p><code>{esc(str(value.get('function', '')))}</code> lines {esc(str(value.get('first_line')))}-"
        head += f"{esc(str(value.get('last_line')))} of <code>{esc(str(value.get('file', '')))}</code></p>"
        body = (
            f'<pre class="trace" data-trace>{esc(chr(10).join(lines))}</pre>'
            if lines
            else '<p class="none">no line</p>'
        )
        return head + body
    if kind == ChangeKind.OP_HISTOGRAM and isinstance(value, dict):
        return "<p>" + esc(", ".join(f"{op} {n}" for op, n in value.items()) or "no ops") + "</p>"
    if kind == ChangeKind.CACHE and isinstance(value, dict):
        return "<p>" + esc(", ".join(f"{n} {decision}" for decision, n in value.items()) or "no lookups") + "</p>"
    if value is None:
        return '<p class="none">nothing</p>'
    return f"<p>{esc(value_text(value, 400))}</p>"


def _condensed_note(ex: Excerpt) -> str:
    """What the condensed text left out, said above it: 'condensed: 14 torch/library stack frames collapsed, 41,209
    characters of embedded configuration left out (of the record's 44,012 characters)'."""
    left = []
    if ex.frames:
        left.append(f"{ex.frames} torch/library stack frames collapsed")
    if ex.config_chars:
        left.append(f"{ex.config_chars:,} characters of embedded configuration left out")
    whole = f" (of the record's {ex.record_chars:,} characters)" if ex.record_chars is not None else ""
    if not left:
        return "the stacks' file names resolved; the record as written below" if ex.raw is not None else ""
    return f"condensed: {', '.join(left)}{whole}; the record as written below"


def _excerpt(ev: str, found: str | Excerpt) -> str:
    """One evidence record: the condensed text (the user's frames, each run of library frames one line, no embedded
    configuration), and the record as written behind its own expander."""
    ex = found if isinstance(found, Excerpt) else Excerpt(found, total_chars=len(found))
    first = f" (first {len(ex.text):,} of {ex.total_chars:,} characters)" if ex.total_chars > len(ex.text) else ""
    out = [
        f"<details><summary>evidence <code>{esc(ev)}</code>{esc(first)}</summary>",
        f'<p class="note">{esc(note)}</p>' if (note := _condensed_note(ex)) else "",
        f'<pre class="trace" data-trace>{esc(ex.text)}</pre>',
    ]
    if ex.raw is not None:
        out.append(
            '<details class="raw"><summary>the record as written (first '
            f'{len(ex.raw):,} characters)</summary><pre class="trace" data-trace>{esc(ex.raw)}</pre></details>'
        )
    out.append("</details>")
    return "".join(out)


def _evidence(side: str, ids: list[str], excerpts: Mapping[str, str | Excerpt]) -> str:
    if not ids:
        return ""
    out = ['<div class="evidence">']
    for ev in ids:
        found = excerpts.get(f"{side}:{ev}")
        if found:
            out.append(_excerpt(ev, found))
        else:
            out.append(f'<span class="ev">evidence <code>{esc(ev)}</code></span>')
    out.append("</div>")
    return "".join(out)


def _change(change: Change, excerpts: Mapping[str, str | Excerpt], row: FunctionRow) -> str:
    out = [f'<div class="change kind-{esc(change.kind)}"><h4>{esc(change.summary)}</h4><div class="pair">']
    for side in SIDES:
        present = getattr(row, side) is not None
        ids = change.baseline_evidence if side == "baseline" else change.candidate_evidence
        body = _side_value(change.kind, getattr(change, side)) if present else f'<p class="none">no {side} function</p>'
        out.append(f'<div class="side {side}"><div class="side-name">{side}</div>{body}')
        out.append(_evidence(side, ids, excerpts) + "</div>")
    out.append("</div></div>")
    return "".join(out)


def _counts(row: FunctionRow) -> str:
    b, c = row.baseline, row.candidate
    keys = [k for k in COUNT_KEYS if any(s is not None and getattr(s.counts, k) for s in (b, c))]
    out = ['<table class="counts"><tr><th>count</th><th>baseline</th><th>candidate</th><th>change</th></tr>']
    for key in keys:
        bv = getattr(b.counts, key) if b else None
        cv = getattr(c.counts, key) if c else None
        delta = f"{cv - bv:+d}" if bv is not None and cv is not None and cv != bv else ""
        bt = ABSENT if b is None else esc(side_count(b, key))
        ct = ABSENT if c is None else esc(side_count(c, key))
        out.append(
            f'<tr><td>{esc(COUNT_LABELS[key])}</td><td class="n">{bt}</td>'
            f'<td class="n">{ct}</td><td class="n">{delta}</td></tr>'
        )
    if any(s is not None and s.counts.compile_time_s for s in (b, c)):
        bt = seconds(b.counts.compile_time_s) if b else ABSENT
        ct = seconds(c.counts.compile_time_s) if c else ABSENT
        out.append(
            f'<tr class="time"><td>compile time</td><td class="n">{esc(bt)}</td><td class="n">{esc(ct)}</td>'
            f'<td class="n">{esc(time_change(row))}</td></tr>'
        )
        for key, label, _ in COMPILE_PHASES:
            bp = b.counts.phase_times_s.get(key, 0.0) if b else None
            cp = c.counts.phase_times_s.get(key, 0.0) if c else None
            if bp or cp:
                cells = "".join(f'<td class="n">{ABSENT if v is None else esc(seconds(v))}</td>' for v in (bp, cp))
                change = short_change(bp, cp) if bp is not None and cp is not None else ""
                out.append(f'<tr class="phase"><td>{esc(label)}</td>{cells}<td class="n">{esc(change)}</td></tr>')
    out.append("</table>")
    return "".join(out)


# A guard's user stack as torch prints it under the guard: `File "/path/model.py", line 23, in gate`.
_STACK_LINE = re.compile(r'File "([^"]+)", line (\d+), in ')


def _site_notes(row: FunctionRow, side: str, view: SourceView) -> dict[int, str]:
    """Line -> what happened there, for the shown function: the graph breaks of this row's changes (their sites)
    and the failing guards (the user line torch printed under the guard)."""
    notes: dict[int, str] = {}

    def add(file: str, line: str, note: str) -> None:
        if line.isdigit() and same_file(file, view.path) and view.first_line <= int(line) <= view.last_line:
            notes.setdefault(int(line), note)

    for change in row.changes:
        value = getattr(change, side)
        if not isinstance(value, dict):
            continue
        if change.kind in _BREAKS:
            for site in value.get("sites") or []:
                file, _, line = str(site).rpartition(":")
                add(file, line, f"graph break {value.get('key', '')}".strip())
        elif change.kind == ChangeKind.RECOMPILE_REASON:
            for text in value.get("examples") or []:
                guard = str(text).split("  #", 1)[0].strip()
                for file, line in _STACK_LINE.findall(str(text))[-1:]:
                    add(file, line, f"guard failed: {guard}")
    return notes


def _code(view: SourceView | str, side: str, row: FunctionRow, compare: bool) -> str:
    if isinstance(view, str):
        return f'<div class="code-side {side}"><div class="side-name">{side}</div><p class="none">{esc(view)}</p></div>'
    notes = _site_notes(row, side, view)
    differ = f", {len(view.changed)} differ" if compare else ""
    out = [
        f'<div class="code-side {side}"><div class="side-name">{side}</div><div class="code-where"><code>'
        f"{esc(view.path)}</code> lines {view.first_line}{ABSENT}{view.last_line}{differ}</div>"
        '<table class="code" data-trace>'
    ]
    for n, text in enumerate(view.lines, start=view.first_line):
        cls = " ".join(c for c, on in (("chg", n in view.changed), ("site", n in notes)) if on)
        note = f'<span class="site-note">{esc(notes[n])}</span>' if n in notes else ""
        out.append(
            f'<tr class="{cls}"><td class="ln">{n}</td><td class="src"><code>{esc(text) or " "}</code>{note}</td></tr>'
        )
    out.append("</table>")
    if view.cut:
        out.append(f'<p class="note">{view.cut} more line(s) not shown</p>')
    out.append("</div>")
    return "".join(out)


def _source(row: FunctionRow, material: ReportMaterial) -> str:
    views: dict[str, SourceView | str] = {}
    for side in SIDES:
        fside: FunctionSide | None = getattr(row, side)
        other = "candidate" if side == "baseline" else "baseline"
        snapshots = material.side(side).sources
        if fside is None:
            views[side] = f"no {side} function: it exists only in the {other}"
        elif fside.generated is not None:
            views[side] = "code torch generated: there is no source file (its ops are in the changes above)"
        elif fside.file is not None and fside.line is not None and (snapshots is None or not snapshots.files):
            views[side] = NO_SNAPSHOT  # said once for the page, above the details
        else:
            views[side] = function_source(fside, material.side(side).sources, material.hints)
    b, c = views["baseline"], views["candidate"]
    if NO_SNAPSHOT in (b, c) and all(isinstance(v, str) for v in (b, c)):
        return ""  # nothing to show but the page's one note
    compare = isinstance(b, SourceView) and isinstance(c, SourceView)
    note = ""
    if isinstance(b, SourceView) and isinstance(c, SourceView):
        b, c = with_changes(b, c)
        if not b.changed and not c.changed:
            note = '<p class="note">The function\'s source is the same in both runs.</p>'
    return (
        f'<div class="source"><h4>Source</h4>{note}<div class="pair">'
        f"{_code(b, 'baseline', row, compare)}{_code(c, 'candidate', row, compare)}</div></div>"
    )


# An address torch names in a hint: the report links nowhere off the page.
_OFF_PAGE = re.compile(r"https?://\S+")


def _suggestions(row: FunctionRow) -> str:
    """The next steps for what grew in the candidate (docs/SEMANTICS.md, "Suggestions"); a graph break's page is
    named by its id only: the report links nowhere off the page."""
    if not row.suggestions:
        return ""
    out = ['<div class="change suggestions"><h4>Suggestions (hints for what grew in the candidate)</h4><ul>']
    for s in row.suggestions:
        knob = f" <code>{esc(s.knob)}</code>" if s.knob and s.knob not in s.change else ""
        hints = "".join(f"<br>torch: {esc(_OFF_PAGE.sub('(a page torch names)', h))}" for h in s.torch_hints)
        out.append(
            f'<li class="suggestion kind-{esc(s.kind)}"><b>{esc(s.kind)}</b>: {esc(s.change)}{knob}'
            f"<br>Why: {esc(s.cause)}<br>Cost: {esc(s.cost)}{hints}"
            f'<br><span class="where">from {esc(", ".join(s.compile_ids) or "the run")}</span></li>'
        )
    out.append("</ul></div>")
    return "".join(out)


def row_details(
    index: int, anchor: str, row: FunctionRow, material: ReportMaterial, records: RecordIndex, *, open_: bool
) -> str:
    sides = [s for s in (row.baseline, row.candidate) if s is not None]
    where_text = " → ".join(dict.fromkeys(where(s) for s in sides))
    if any(s.generated is not None for s in sides):
        # The file names torch made up for generated code: a detail of each run, not a change.
        names = [
            f"{', '.join(s.generated.co_filenames) or '?'} in the {side}"
            for side, s in zip(SIDES, (row.baseline, row.candidate), strict=True)
            if s is not None and s.generated is not None
        ]
        where_text = "code torch generated, named " + " and ".join(names)
    out = [
        f'<section class="row-detail" id="{anchor}" data-row="{index}">',
        f"<details{' open' if open_ else ''}><summary>"
        f'<span class="fn-name">{esc(row_name(row))}</span> '
        f'<span class="badge status-{esc(row.status)}">{esc(status_text(row))}</span> '
        f'<span class="headline">{esc(headline(row))}</span></summary>',
        f'<p class="reason">{esc(row.reason or "")} <span class="where">{esc(where_text)}</span></p>',
    ]
    if row.alternatives:
        label = "could be" if row.status == RowStatus.AMBIGUOUS else "likely counterparts"
        out.append(f'<p class="reason">{label}: {esc(joined(row.alternatives, 6))}</p>')
    out.append(_counts(row))
    pieces = piece_line(row)
    if pieces:
        out.append(f'<p class="pieces">{esc(pieces)}</p>')
    snapshots = all(getattr(material.side(side).sources, "files", None) for side in SIDES)
    for change in row.changes:
        # The source lines around the function: only when the page has the runs' snapshots (as its source block).
        if change.kind != ChangeKind.PHASE_TIME and (snapshots or change.kind != ChangeKind.SOURCE):
            out.append(_change(change, material.excerpts, row))
    out.append(_suggestions(row))
    out.append(row_compilations(row, anchor, records))
    out.append(_source(row, material))
    out.append("</details></section>")
    return "\n".join(out)
