"""Inline SVG timelines: each run's compilations, when they started (or in compile order when the trace has no
start times), one lane per function, coloured by outcome."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from dynamo_diff_schema.comparison import Comparison, FunctionRow
from dynamo_diff_schema.compilation import Compilation, Outcome

from dynamo_diff_compare.html_report.chart import nice_step
from dynamo_diff_compare.html_report.inputs import ReportMaterial
from dynamo_diff_compare.html_report.text import esc, seconds
from dynamo_diff_compare.render import row_name

# Lanes drawn (functions with compilations, in the order of the table); the rest share one lane.
MAX_LANES = 30
_WIDTH = 1300
_LABEL_W = 290
_X0 = 300
_PLOT_W = 960
_LANE_H = 24
_MARK_H = 14
_MIN_MARK_W = 7.0
_AXIS_H = 24

OUTCOME_LABELS: dict[str, str] = {
    Outcome.COMPLETED: "completed",
    Outcome.FAILED: "failed",
    Outcome.NO_GRAPH_OBSERVED: "no graph (frame skipped)",
    Outcome.UNKNOWN: "never finished / unknown",
    Outcome.UNRESOLVED: "unresolved (conflicting records)",
}


@dataclass(frozen=True)
class _Mark:
    compilation: Compilation
    lane: int
    x: float  # seconds since the run's first compilation started, or the compile-order slot
    duration: float  # seconds (0 in compile order)
    estimated: bool  # no start time recorded: placed after the compilation before it


def _duration(c: Compilation) -> float:
    return float(c.phase_times.get("entire_frame_compile_time_s") or 0.0)


def _place(compilations: Sequence[Compilation], lanes: dict[str, int], other: int) -> tuple[list[_Mark], bool]:
    """(marks, placed by time). By time when any compilation has a start time; a compilation without one (it
    never finished) is placed where the one before it ended."""
    timed = [c.start_time for c in compilations if c.start_time is not None]
    if not timed:
        return [_Mark(c, lanes.get(c.compile_id, other), n, 0.0, False) for n, c in enumerate(compilations)], False
    t0 = min(timed)
    marks: list[_Mark] = []
    cursor = 0.0
    for c in compilations:
        if c.start_time is not None:
            x, estimated = c.start_time - t0, False
        else:
            x, estimated = cursor, True
        duration = _duration(c)
        cursor = max(cursor, x + duration)
        marks.append(_Mark(c, lanes.get(c.compile_id, other), x, duration, estimated))
    return marks, True


def _lanes(comparison: Comparison, rows: Sequence[FunctionRow]) -> tuple[list[FunctionRow], dict[str, dict[str, int]]]:
    """The rows that get a lane, and per side compile id -> lane."""
    laned = [r for r in rows if any(s is not None and s.compile_ids for s in (r.baseline, r.candidate))][:MAX_LANES]
    maps: dict[str, dict[str, int]] = {"baseline": {}, "candidate": {}}
    for n, row in enumerate(laned):
        for name, side in (("baseline", row.baseline), ("candidate", row.candidate)):
            if side is not None:
                for cid in side.compile_ids:
                    maps[name].setdefault(cid, n)
    return laned, maps


def _mark_title(m: _Mark, lane_name: str, by_time: bool) -> str:
    c = m.compilation
    parts = [f"{c.compile_id} {lane_name}: {OUTCOME_LABELS.get(c.outcome, str(c.outcome))}"]
    if c.recompile is not None and c.recompile.confirmed:
        first = c.recompile.reasons[0].text.split("  #", 1)[0].strip() if c.recompile.reasons else ""
        parts.append("recompilation" + (f" ({first})" if first else ""))
    if c.graph_breaks:
        parts.append(f"{len(c.graph_breaks)} graph break(s)")
    if c.failure is not None and c.failure.fail_type:
        parts.append(c.failure.fail_type)
    if by_time:
        parts.append("start time not recorded" if m.estimated else f"started at +{seconds(m.x)}")
        if m.duration:
            parts.append(f"compiled in {seconds(m.duration)}")
    return "; ".join(parts)


def _boxes(marks: list[_Mark], by_time: bool, top: float) -> list[tuple[float, float]]:
    """(x, width) in pixels of each mark: by start time and duration, or a slot per compilation in compile order."""
    slot = _PLOT_W / max(top, 1)
    if by_time:
        return [(_X0 + _PLOT_W * m.x / top, max(_PLOT_W * m.duration / top, _MIN_MARK_W)) for m in marks]
    return [(_X0 + slot * m.x + 1, max(min(slot - 2, 28.0), _MIN_MARK_W)) for m in marks]


def _room(marks: list[_Mark], boxes: list[tuple[float, float]]) -> list[float]:
    """Pixels free after each mark before the next mark of its lane (a compile id is written there if it fits)."""
    room = [float(_WIDTH)] * len(marks)
    by_lane: dict[int, list[int]] = {}
    for n, m in enumerate(marks):
        by_lane.setdefault(m.lane, []).append(n)
    for members in by_lane.values():
        members.sort(key=lambda n: boxes[n][0])
        for n, nxt in itertools.pairwise(members):
            room[n] = boxes[nxt][0] - (boxes[n][0] + boxes[n][1])
    return room


def _panel(
    title: str, side: str, marks: list[_Mark], lane_names: list[str], anchors: list[str | None], by_time: bool,
    top: float,
) -> str:  # fmt: skip
    first: dict[int, float] = {}
    for m in sorted(marks, key=lambda m: m.x):
        first.setdefault(m.lane, m.x)  # lanes in the order their function first compiled
    used = sorted(first, key=lambda lane: (first[lane], lane))
    lane_y = {lane: _AXIS_H + 4 + k * _LANE_H for k, lane in enumerate(used)}
    height = _AXIS_H + 8 + max(len(used), 1) * _LANE_H
    out = [
        f'<svg class="timeline" data-side="{side}" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}" '
        f'height="{height}" role="img" aria-label="{esc(title)}">'
    ]
    if by_time:
        step = nice_step(top)
        n = 0
        while n * step <= top * 1.0001:
            x = _X0 + _PLOT_W * n * step / top
            out.append(f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{_AXIS_H}" y2="{height}"/>')
            out.append(f'<text class="tick" x="{x:.1f}" y="{_AXIS_H - 8}" text-anchor="middle">+{n * step:g} s</text>')
            n += 1
    else:
        out.append(f'<text class="tick" x="{_X0}" y="{_AXIS_H - 8}">first compilation</text>')
        out.append(f'<text class="tick" x="{_X0 + _PLOT_W}" y="{_AXIS_H - 8}" text-anchor="end">last</text>')
    for lane in used:
        y = lane_y[lane] + _LANE_H / 2
        out.append(f'<line class="lane" x1="{_X0}" x2="{_X0 + _PLOT_W}" y1="{y}" y2="{y}"/>')
        label = f'<text class="fn" x="{_LABEL_W}" y="{y + 4}" text-anchor="end">{esc(lane_names[lane])}</text>'
        href = anchors[lane]
        out.append(f'<a href="#{href}">{label}</a>' if href else label)
    boxes = _boxes(marks, by_time, top)
    room = _room(marks, boxes)
    for n, m in enumerate(marks):
        c = m.compilation
        x, w = boxes[n]
        y = lane_y[m.lane] + (_LANE_H - _MARK_H) / 2
        classes = ["mark", f"outcome-{c.outcome}"]
        if c.recompile is not None and c.recompile.confirmed:
            classes.append("recompile")
        if m.estimated:
            classes.append("estimated")
        out.append(
            f'<rect class="{" ".join(classes)}" data-compile-id="{esc(c.compile_id)}" data-outcome="{c.outcome}" '
            f'data-function="{esc(lane_names[m.lane])}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{_MARK_H}" '
            f'rx="2"><title>{esc(_mark_title(m, lane_names[m.lane], by_time))}</title></rect>'
        )
        if c.graph_breaks:
            out.append(
                f'<path class="break-tick" d="M{x + w / 2:.1f} {y - 1:.1f} l-4 -6 h8 z">'
                f"<title>{len(c.graph_breaks)} graph break(s) in {esc(c.compile_id)}</title></path>"
            )
        label_w = 7 * len(c.compile_id) + 8
        if w >= label_w:  # inside a long mark
            out.append(f'<text class="cid in" x="{x + 4:.1f}" y="{y + _MARK_H - 3:.1f}">{esc(c.compile_id)}</text>')
        elif room[n] >= label_w:  # else after it, when the lane's next mark leaves room
            out.append(f'<text class="cid" x="{x + w + 3:.1f}" y="{y + _MARK_H - 3:.1f}">{esc(c.compile_id)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def timelines(
    comparison: Comparison, rows: Sequence[FunctionRow], material: ReportMaterial, anchors: dict[int, str]
) -> str:
    """Both runs' timelines, on one time scale when both recorded start times."""
    sides = [("baseline", material.baseline.compilations), ("candidate", material.candidate.compilations)]
    said = {"baseline": comparison.baseline.compiled, "candidate": comparison.candidate.compiled}
    if not any(compilations for _, compilations in sides) and all(
        s is not None and s.compilations == 0 for s in said.values()
    ):
        return '<p class="empty">Neither run compiled a frame, so there is no timeline.</p>'
    if not any(compilations for _, compilations in sides):
        return (
            '<p class="empty">The compilations of the runs were not given to the report, so there is no timeline '
            "(the CLI gives them).</p>"
        )
    laned, maps = _lanes(comparison, rows)
    index = {id(r): n for n, r in enumerate(comparison.functions)}
    lane_names = [row_name(r) for r in laned]  # as the table names it
    lane_anchors: list[str | None] = [anchors.get(index[id(r)]) for r in laned]
    other = len(laned)
    lane_names.append("other functions")
    lane_anchors.append(None)
    placed = {name: _place(compilations, maps[name], other) for name, compilations in sides}
    timed_tops = [m.x + m.duration for marks, by_time in placed.values() if by_time for m in marks]
    time_top = max(timed_tops, default=0.0) or 1.0
    time_top = math.ceil(time_top / nice_step(time_top)) * nice_step(time_top)
    order_top = float(max((len(marks) for marks, by_time in placed.values() if not by_time), default=1))
    out = []
    labels = {"baseline": comparison.baseline.label, "candidate": comparison.candidate.label}
    for name, compilations in sides:
        marks, by_time = placed[name]
        who = f"{name} ({labels[name]})" if labels[name] else name
        if not compilations:
            status = said[name]
            why = f": {status.summary}" if status is not None and status.compilations == 0 else "."
            out.append(f'<h3>{esc(who)}</h3><p class="empty">No compilations{esc(why)}</p>')
            continue
        span = max((m.x + m.duration for m in marks), default=0.0)
        how = (
            f"{len(compilations)} compilation(s) over {seconds(span)}, placed by start time"
            if by_time
            else f"{len(compilations)} compilation(s), placed in compile order: this trace records no start times"
        )
        estimated = sum(m.estimated for m in marks)
        if estimated:
            how += f"; {estimated} without a start time (never finished) placed after the one before"
        out.append(f'<h3>{esc(who)} <span class="sub">{esc(how)}</span></h3>')
        out.append(
            _panel(f"{who}: {how}", name, marks, lane_names, lane_anchors, by_time, time_top if by_time else order_top)
        )
    legend = "".join(
        f'<span class="key"><span class="swatch outcome-{key}"></span>{esc(label)}</span>'
        for key, label in OUTCOME_LABELS.items()
    )
    legend += (
        '<span class="key"><span class="swatch recompile-key"></span>confirmed recompilation (outlined)</span>'
        '<span class="key"><span class="tri"></span>graph break</span>'
    )
    out.append(f'<p class="legend">{legend}</p>')
    return "\n".join(out)
