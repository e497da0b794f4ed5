"""Inline SVG charts: compile time per function (baseline beside candidate), and where the time went by phase."""

from __future__ import annotations

import math
from collections.abc import Sequence

from dynamo_diff_schema.comparison import Comparison, FunctionRow
from dynamo_diff_schema.counts import COMPILE_PHASES, Counts
from dynamo_diff_schema.lists import head

from dynamo_diff_compare.compile_time import compile_time_change
from dynamo_diff_compare.html_report.text import MINUS, esc, seconds
from dynamo_diff_compare.render import row_name

# Functions charted (the ones with the most compile time); the rest are counted under the chart.
CHART_ROWS = 24
_WIDTH = 1300
_LABEL_W = 330  # function names, right-aligned
_BAR_X = 340
_BAR_W = 760  # the longest bar
_CHANGE_X = _WIDTH - 8  # the change column, right-aligned
_BAR_H = 14
_GROUP_H = 2 * _BAR_H + 18
_AXIS_H = 26


def nice_step(top: float, ticks: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks up to `top`."""
    if top <= 0:
        return 1.0
    raw = top / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _axis(top: float, x0: int, width: int, y: int, height: int, unit: str = "s") -> list[str]:
    step = nice_step(top)
    out = []
    n = 0
    while n * step <= top * 1.0001:
        x = x0 + width * (n * step) / top
        label = f"{n * step:g} {unit}"
        out.append(f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + height}"/>')
        out.append(f'<text class="tick" x="{x:.1f}" y="{y - 8}" text-anchor="middle">{esc(label)}</text>')
        n += 1
    return out


def _short(text: str, limit: int = 44) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_change(before: float, after: float, cut: tuple[bool, bool] = (False, False)) -> str:
    """A compile-time change as the totals' change column says it: '\u221234%', '+12%', 'noise' or 'no change';
    '+?' when a compilation of a side never finished (the sum is a lower bound: nothing is judged)."""
    if any(cut):
        return "+?"
    change = compile_time_change(before, after)
    if change.endswith("(noise)"):
        return "noise"
    if "(" in change:
        return change.rsplit("(", 1)[1].rstrip(")").replace("-", MINUS)
    return "no change"


def time_change(row: FunctionRow) -> str:
    """The row's compile-time change as the totals' delta column says it: '-34%', 'noise', 'no change', or which
    side it has; '+?' when a compilation never finished (its time is in neither sum)."""
    b, c = row.baseline, row.candidate
    if b is None or c is None:
        unfinished = " +?" if any(s.counts.unknown_outcomes for s in (b, c) if s is not None) else ""
        return ("baseline only" if c is None else "candidate only") + unfinished
    cut = (bool(b.counts.unknown_outcomes), bool(c.counts.unknown_outcomes))
    return short_change(b.counts.compile_time_s, c.counts.compile_time_s, cut)


def timed_rows(comparison: Comparison) -> list[FunctionRow]:
    """Rows with compile time on either side (or a compilation that never finished, whose time is not known), the
    most first."""
    rows = [
        r
        for r in comparison.functions
        if any(
            s is not None and (s.counts.compile_time_s > 0 or s.counts.unknown_outcomes)
            for s in (r.baseline, r.candidate)
        )
    ]
    return sorted(rows, key=lambda r: -max(s.counts.compile_time_s for s in (r.baseline, r.candidate) if s))


def compile_time_chart(comparison: Comparison, anchors: dict[int, str]) -> str:
    """Horizontal bars, one pair per function: baseline above candidate, on one scale."""
    rows = timed_rows(comparison)
    if not rows:
        return '<p class="empty">No compile time was recorded in either run (no compilation_metrics records).</p>'
    shown, _ = head(rows, CHART_ROWS)
    top = max(s.counts.compile_time_s for r in shown for s in (r.baseline, r.candidate) if s) or 1.0
    step = nice_step(top)
    top = math.ceil(top / step) * step
    height = _AXIS_H + len(shown) * _GROUP_H + 4
    out = [
        f'<svg id="compile-time-chart" class="chart" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}" '
        f'height="{height}" role="img" aria-labelledby="chart-title">',
        '<title id="chart-title">Compile time per function, baseline beside candidate</title>',
    ]
    out += _axis(top, _BAR_X, _BAR_W, _AXIS_H, height - _AXIS_H)
    out.append(f'<text class="tick" x="{_CHANGE_X}" y="{_AXIS_H - 8}" text-anchor="end">change</text>')
    index = {id(r): n for n, r in enumerate(comparison.functions)}
    for g, row in enumerate(shown):
        y = _AXIS_H + g * _GROUP_H + 6
        full = row_name(row)  # as the table names it
        href = anchors.get(index[id(row)])
        label = (
            f'<text class="fn" x="{_LABEL_W}" y="{y + _BAR_H + 4}" text-anchor="end">{esc(_short(full))}'
            f"<title>{esc(full)}</title></text>"
        )
        out.append(f'<a href="#{href}">{label}</a>' if href else label)
        for k, (side_name, fside) in enumerate((("baseline", row.baseline), ("candidate", row.candidate))):
            by = y + k * (_BAR_H + 2)
            if fside is None:
                out.append(
                    f'<text class="absent" x="{_BAR_X + 4}" y="{by + _BAR_H - 3}">no {side_name} function</text>'
                )
                continue
            value = fside.counts.compile_time_s
            width = max(_BAR_W * value / top, 1.5)
            text = seconds(value) + ("+?" if fside.counts.unknown_outcomes else "")
            out.append(
                f'<rect class="bar {side_name}" data-side="{side_name}" data-row="{index[id(row)]}" '
                f'data-function="{esc(full)}" '
                f'data-seconds="{value:.6f}" x="{_BAR_X}" y="{by}" width="{width:.1f}" height="{_BAR_H}" rx="2">'
                f"<title>{esc(full)}: {side_name} {esc(text)}</title></rect>"
            )
            out.append(f'<text class="value" x="{_BAR_X + width + 6:.1f}" y="{by + _BAR_H - 3}">{esc(text)}</text>')
        change = time_change(row)
        cls = "noise" if change.startswith(("noise", "no change")) else "delta"
        out.append(
            f'<text class="change {cls}" x="{_CHANGE_X}" y="{y + _BAR_H + 4}" text-anchor="end">{esc(change)}</text>'
        )
    out.append("</svg>")
    more = len(rows) - len(shown)
    if more:
        out.append(f'<p class="note">{more} more function(s) with less compile time are in the table below.</p>')
    return "\n".join(out)


def phase_chart(totals: Sequence[tuple[str, Counts]]) -> str:
    """Each run's compile time split into phases (Dynamo, AOT/backend, Inductor, code gen), one stacked bar per
    run on one scale; empty when no run has phase times."""
    if not any(c.phase_times_s for _, c in totals):
        return ""
    top = max(sum(c.phase_times_s.values()) for _, c in totals) or 1.0
    width, label_w, bar_w, bar_h = _WIDTH, 130, 900, 22
    height = 30 + len(totals) * (bar_h + 12)
    out = [
        f'<svg id="phase-chart" class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'role="img" aria-label="Compile time by phase">'
    ]
    for n, (name, counts) in enumerate(totals):
        y = 6 + n * (bar_h + 12)
        out.append(f'<text class="fn" x="{label_w - 10}" y="{y + bar_h - 6}" text-anchor="end">{esc(name)}</text>')
        x = float(label_w)
        for key, label, _ in COMPILE_PHASES:
            value = counts.phase_times_s.get(key)
            if not value:
                continue
            w = bar_w * value / top
            out.append(
                f'<rect class="phase phase-{key}" x="{x:.1f}" y="{y}" width="{max(w, 1):.1f}" height="{bar_h}">'
                f"<title>{esc(name)}: {esc(label)} {esc(seconds(value))}</title></rect>"
            )
            if w > 70:
                out.append(
                    f'<text class="inbar" x="{x + 5:.1f}" y="{y + bar_h - 7}">{esc(label)} {esc(seconds(value))}</text>'
                )
            x += w
        total = sum(counts.phase_times_s.values())
        out.append(f'<text class="value" x="{x + 6:.1f}" y="{y + bar_h - 6}">{esc(seconds(total))}</text>')
    out.append("</svg>")
    legend = "".join(
        f'<span class="key"><span class="swatch phase-{key}"></span>{esc(label)}</span>'
        for key, label, _ in COMPILE_PHASES
        if any(c.phase_times_s.get(key) for _, c in totals)
    )
    return "\n".join(out) + f'\n<p class="legend">{legend}</p>'
