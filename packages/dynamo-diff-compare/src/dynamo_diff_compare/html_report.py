"""A single self-contained HTML report: no scripts, no network requests, every trace text escaped."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from dynamo_diff_schema.comparison import Comparison, RowStatus
from dynamo_diff_schema.counts import COUNT_KEYS, COUNT_LABELS, compile_time_change, compile_time_text

from dynamo_diff_compare.render import ROW_KEYS, change_lines, changed_first, header, ranks_lines, row_name

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1d1d1f}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;vertical-align:top}
th{background:#f2f2f2;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.verdict-comparable{color:#176c2b}.verdict-confounded{color:#a33}.verdict-unknown{color:#8a6d00}
pre{background:#f7f7f7;border:1px solid #ddd;padding:6px;white-space:pre-wrap;max-height:24em;overflow:auto}
details{margin:.4em 0}summary{cursor:pointer}.changed{background:#fff8e1}
"""
# The report is a static document: nothing may run and nothing may be fetched.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src 'none'"


def _rows(comparison: Comparison) -> list[str]:
    out = ['<table id="functions"><thead><tr><th>match</th><th>function</th>']
    out += [f"<th>{escape(label)}</th>" for _, label in ROW_KEYS]
    out.append("<th>what changed</th></tr></thead><tbody>")
    for row in changed_first(comparison.functions):
        changed = bool(row.deltas) or any(c.kind != "phase_time" for c in row.changes)
        match = str(row.status) if row.status != RowStatus.MATCHED else f"matched ({row.method})"
        cells = []
        for key, _ in ROW_KEYS:
            b = getattr(row.baseline.counts, key) if row.baseline else None
            c = getattr(row.candidate.counts, key) if row.candidate else None
            cells.append(f'<td class="n">{escape(str(b) if b == c else f"{b} → {c}")}</td>')
        out.append(
            f'<tr class="{"changed" if changed else ""}"><td>{escape(match)}</td>'
            f"<td>{escape(row_name(row))}</td>{''.join(cells)}"
            f"<td>{'<br>'.join(escape(line) for line in change_lines(row))}</td></tr>"
        )
    out.append("</tbody></table>")
    return out


def _details(comparison: Comparison, excerpts: Mapping[str, str]) -> list[str]:
    out = []
    for row in changed_first(comparison.functions):
        if not row.changes and row.status == RowStatus.MATCHED:
            continue
        out.append(
            f"<details><summary>{escape(row_name(row))} — {escape(str(row.status))}, {escape(row.reason)}</summary><ul>"
        )
        for change in row.changes:
            out.append(f"<li><b>{escape(change.kind)}</b>: {escape(change.summary)}")
            for side, ids in (("baseline", change.baseline_evidence), ("candidate", change.candidate_evidence)):
                for ev in ids[:2]:
                    text = excerpts.get(f"{side}:{ev}")
                    out.append(f"<div>{side} evidence <code>{escape(ev)}</code></div>")
                    if text:
                        out.append(f"<pre>{escape(text)}</pre>")
            out.append("</li>")
        out.append("</ul></details>")
    return out


def comparison_html(comparison: Comparison, excerpts: Mapping[str, str] | None = None) -> str:
    """The report. `excerpts` maps "baseline:<evidence id>" / "candidate:<evidence id>" to evidence text that
    the caller read (hash-checked) from the store."""
    excerpts = excerpts or {}
    verdict = str(comparison.comparability.verdict)
    lines = header(comparison)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        "<title>Dynamo Diff comparison</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>Dynamo Diff comparison</h1>",
        '<section id="summary"><ul>',
    ]
    out += [f"<li>{escape(line)}</li>" for line in lines[:3]]
    out.append("</ul></section>")
    if comparison.kind == "captures":
        comp = comparison.comparability
        out.append(
            f'<section id="comparability"><h2>Comparability: <span class="verdict-{escape(verdict)}">'
            f"{escape(verdict)}</span></h2>"
        )
        if comp.differences:
            out.append(
                "<table><tr><th>key</th><th>from</th><th>baseline</th><th>candidate</th><th>can change</th></tr>"
            )
            out += [
                f"<tr><td>{escape(d.key)}</td><td>{escape(d.source)}</td><td>{escape(repr(d.baseline))}</td>"
                f"<td>{escape(repr(d.candidate))}</td><td>{escape(', '.join(str(a) for a in d.affects))}</td></tr>"
                for d in comp.differences
            ]
            out.append("</table>")
        if comp.contradictions:
            out.append(
                "<p>Declarations the runs contradict (the observation is compared):</p><ul>"
                + "".join(
                    f"<li>{escape(c.side)}: declared {escape(c.key)}={escape(repr(c.declared))}, observed "
                    f"{escape(repr(c.observed))}</li>"
                    for c in comp.contradictions
                )
                + "</ul>"
            )
        if comp.checked:
            out.append(
                "<p>Checked and equal:</p><ul>"
                + "".join(
                    f"<li><code>{escape(c.key)}</code> ({escape(c.source)}): {escape(str(c.value))[:200]}</li>"
                    for c in comp.checked
                )
                + "</ul>"
            )
        if comp.missing:
            out.append("<p>Not checked:</p><ul>" + "".join(f"<li>{escape(m)}</li>" for m in comp.missing) + "</ul>")
        out.append("</section>")
    rank_text = ranks_lines(comparison)
    if rank_text:
        out.append('<section id="ranks"><h2>Ranks</h2><pre>' + escape("\n".join(rank_text)) + "</pre></section>")
    out.append(
        '<section id="totals"><h2>Totals</h2><table><tr><th>count</th><th>baseline</th><th>candidate</th>'
        "<th>delta</th></tr>"
    )
    b, c = comparison.totals.baseline, comparison.totals.candidate
    for key in COUNT_KEYS:
        delta = getattr(c, key) - getattr(b, key)
        out.append(
            f'<tr><td>{escape(COUNT_LABELS[key])}</td><td class="n">{getattr(b, key)}</td>'
            f'<td class="n">{getattr(c, key)}</td><td class="n">{f"{delta:+d}" if delta else ""}</td></tr>'
        )
    if b.compile_time_s or c.compile_time_s:
        change = compile_time_change(b.compile_time_s, c.compile_time_s)
        out.append(
            f'<tr id="compile-time"><td>compile time</td><td class="n">{escape(compile_time_text(b))}</td>'
            f'<td class="n">{escape(compile_time_text(c))}</td><td class="n">{escape(change)}</td></tr>'
        )
    out.append("</table></section>")
    if comparison.functions:
        out.append('<section id="rows"><h2>Functions</h2>')
        out += _rows(comparison)
        out.append("<h2>Details and evidence</h2>")
        out += _details(comparison, excerpts)
        out.append("</section>")
    if comparison.notices:
        out.append('<section id="notices"><h2>Notices</h2><ul>')
        out += [
            f"<li><b>{escape(str(n.severity))}</b> <code>{escape(n.code)}</code>: {escape(n.message)}</li>"
            for n in comparison.notices
        ]
        out.append("</ul></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
