"""Keeping every response under the size limit, and saying exactly what was cut to get there.

Sizes are characters of the JSON a client receives for the tool result (text content plus structured
content). Cutting works on the JSON form of schema models and validates the result again, so what goes out is
still a valid model; each cut adds a note.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.types import CallToolResult

# The promise: no tool result is longer than this (characters of its JSON).
RESPONSE_LIMIT = 12_000
# What the server fills, leaving room for the JSON-RPC envelope around the result.
BUDGET = 11_000

# Parts of a comparison page other than rows; generous for real captures, hard caps for odd ones.
COMPARABILITY_CHARS = 2_400
RANKS_CHARS = 2_800
NOTICES_CHARS = 1_600
VALUE_CHARS = 300  # one changed value (e.g. an op histogram) shown in full up to this size
LIST_ITEMS = 8  # compile ids / evidence ids / alternatives kept when a row has to be cut


def size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def result_size(result: CallToolResult) -> int:
    return len(result.model_dump_json(by_alias=True, exclude_none=True))


def largest_fitting(build: Callable[[int], CallToolResult], count: int) -> tuple[int, CallToolResult]:
    """The largest k in 1..count whose build(k) fits the budget (size grows with k); build(1) if none does."""
    best = build(min(count, 1))
    if count <= 1 or result_size(best) > BUDGET:
        return min(count, 1), best
    full = build(count)
    if result_size(full) <= BUDGET:
        return count, full
    lo, hi = 1, count  # build(lo) fits, build(hi) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        candidate = build(mid)
        if result_size(candidate) <= BUDGET:
            lo, best = mid, candidate
        else:
            hi = mid
    return lo, best


def _cap_list(holder: dict[str, Any], key: str, keep: int, label: str, notes: list[str]) -> None:
    items = holder.get(key)
    if isinstance(items, list) and len(items) > keep:
        notes.append(f"{label}: {keep} of {len(items)} shown")
        holder[key] = items[:keep]


def _cut_value(holder: dict[str, Any], key: str, label: str, notes: list[str], limit: int = VALUE_CHARS) -> None:
    if key in holder and holder[key] is not None and size(holder[key]) > limit:
        notes.append(f"{label}: value omitted ({size(holder[key])} characters; see its evidence)")
        holder[key] = None


def _cut_text(holder: dict[str, Any], key: str, limit: int, label: str, notes: list[str]) -> None:
    text = holder.get(key)
    if isinstance(text, str) and len(text) > limit:
        notes.append(f"{label}: first {limit} of {len(text)} characters shown")
        holder[key] = text[:limit] + "…"


def shrink_row(row: dict[str, Any], limit: int) -> tuple[dict[str, Any], list[str]]:
    """A FunctionRow (as JSON) cut step by step until it is at most `limit` characters, with notes."""
    notes: list[str] = []
    if size(row) <= limit:
        return row, notes
    row = json.loads(json.dumps(row))
    # 1: long lists and large changed values.
    for side in ("baseline", "candidate"):
        if isinstance(row.get(side), dict):
            _cap_list(row[side], "compile_ids", LIST_ITEMS, f"{side}.compile_ids", notes)
    _cap_list(row, "alternatives", LIST_ITEMS, "alternatives", notes)
    _cap_list(row, "pieces", LIST_ITEMS, "pieces", notes)
    for piece in row.get("pieces", []):
        for side in ("baseline", "candidate"):
            if isinstance(piece.get(side), dict):
                _cap_list(piece[side], "compile_ids", 2, "pieces.compile_ids", notes)
    for i, change in enumerate(row.get("changes", [])):
        for side in ("baseline", "candidate"):
            _cap_list(change, f"{side}_evidence", LIST_ITEMS, f"changes[{i}].{side}_evidence", notes)
            _cut_value(change, side, f"changes[{i}].{side}", notes)
        _cut_text(change, "summary", 400, f"changes[{i}].summary", notes)
    _cut_text(row, "reason", 400, "reason", notes)
    if size(row) <= limit:
        return row, notes
    # 2: the frames a row counts (pieces: the text line names them) before what changed, which is the answer.
    _cap_list(row, "pieces", 0, "pieces", notes)
    if size(row) <= limit:
        return row, notes
    # 3: as many changes as fit, in order.
    changes = row.get("changes", [])
    row["changes"] = []
    base = size(row)
    kept: list[Any] = []
    for change in changes:
        if base + size(kept) + size(change) + 1 > limit:
            break
        kept.append(change)
    row["changes"] = kept
    if len(kept) < len(changes):
        notes.append(f"changes: {len(kept)} of {len(changes)} shown")
    if size(row) <= limit:
        return row, notes
    # 4: the bare row: who matched whom and the count deltas.
    for side in ("baseline", "candidate"):
        if isinstance(row.get(side), dict):
            _cap_list(row[side], "compile_ids", 2, f"{side}.compile_ids", notes)
            _cut_text(row[side], "qualified_name", 200, f"{side}.qualified_name", notes)
            _cut_text(row[side], "file", 200, f"{side}.file", notes)
    _cap_list(row, "alternatives", 2, "alternatives", notes)
    _cut_text(row, "reason", 120, "reason", notes)
    return row, notes


def shrink_comparability(comp: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Differences in order while they fit their share; the keys of the rest are still named in a note. What comes
    with a difference (`explained`: a torch upgrade brings dozens) goes first: `comparability_line` counts it, and
    the rows keep their room."""
    notes: list[str] = []
    if size(comp) <= COMPARABILITY_CHARS:
        return comp, notes
    comp = json.loads(json.dumps(comp))
    _cap_list(comp, "missing", 10, "missing", notes)
    explained: list[dict[str, Any]] = comp.get("explained", [])
    every_explained = [str(e.get("key")) for e in explained]
    while explained and size(comp) > COMPARABILITY_CHARS:
        explained.pop()
    if len(explained) < len(every_explained):
        rest = ", ".join(every_explained[len(explained) :])
        notes.append(
            f"explained: {len(explained)} of {len(every_explained)} shown; the others: "
            + (rest if len(rest) <= 1200 else rest[:1200] + "…")
        )
    differences: list[dict[str, Any]] = comp.get("differences", [])
    every_key = [str(d.get("key")) for d in differences]
    value_notes: list[tuple[int, str]] = []
    for i, diff in enumerate(differences):
        for side in ("baseline", "candidate"):
            if size(diff.get(side)) > 160:
                value_notes.append((i, f"differences[{i}].{side}: value cut ({size(diff.get(side))} characters)"))
                diff[side] = json.dumps(diff.get(side))[:150] + "…"
    while len(differences) > 1 and size(comp) > COMPARABILITY_CHARS:
        differences.pop()
    kept = len(differences)
    notes += [note for i, note in value_notes if i < kept]
    if kept < len(every_key):
        rest = ", ".join(every_key[kept:])
        if len(rest) > 1200:
            rest = rest[:1200] + "…"
        notes.append(f"differences: {kept} of {len(every_key)} shown; the others differ in: {rest}")
    return comp, notes


RANK_LIST_ITEMS = 32  # ranks listed in `ranks` and in each group's `ranks` (rank_ranges names them all)
RANK_RANGES_CHARS = 300
RANK_GROUPS = 12  # groups at most on a page (the reference group, then the largest)


def _same_behaviour_counts(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "compile_time_s"} == {
        k: v for k, v in b.items() if k != "compile_time_s"
    }


def shrink_rank_view(view: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The rank view within its share, whatever the number of ranks: groups (the reference group first, then the
    largest) with their rank ranges, counts and first divergences; per-rank counts only for the reference rank and
    the ranks whose counts differ from their group's (apart from compile time); long rank lists cut to their first
    ranks. Each cut is noted."""
    notes: list[str] = []
    view = json.loads(json.dumps(trim_rank_view(view)))
    ranks = view.get("ranks") or []
    if len(ranks) > RANK_LIST_ITEMS:
        notes.append(f"ranks: first {RANK_LIST_ITEMS} of {len(ranks)} listed (groups[].rank_ranges name them all)")
        view["ranks"] = ranks[:RANK_LIST_ITEMS]
    groups: list[dict[str, Any]] = view.get("groups") or []
    group_of = {str(r): g for g in groups for r in (g.get("ranks") or [])}
    total_groups, total_div = len(groups), len(view.get("divergences") or [])
    if len(groups) > RANK_GROUPS:
        del groups[RANK_GROUPS:]
        shown = {g.get("representative") for g in groups}
        view["divergences"] = [d for d in view.get("divergences") or [] if d.get("rank") in shown]
    for i, group in enumerate(groups):
        members = group.get("ranks") or []
        if len(members) > RANK_LIST_ITEMS:
            notes.append(f"groups[{i}].ranks: first {RANK_LIST_ITEMS} of {len(members)} listed (see rank_ranges)")
            group["ranks"] = members[:RANK_LIST_ITEMS]
        _cut_text(group, "rank_ranges", RANK_RANGES_CHARS, f"groups[{i}].rank_ranges", notes)
    counts: dict[str, Any] = view.get("counts") or {}
    reference = str(view.get("reference_rank"))
    differing = [
        k
        for k, c in counts.items()
        if k == reference or k not in group_of or not _same_behaviour_counts(c, group_of[k].get("counts") or {})
    ]
    if len(differing) < len(counts):
        notes.append(
            f"counts: {len(differing)} of {len(counts)} ranks listed; the others' counts are their group's "
            "(groups[].counts) apart from compile time"
        )
    view["counts"] = {k: counts[k] for k in differing}
    if size(view) <= RANKS_CHARS:
        return view, notes
    for i, div in enumerate(view.get("divergences", [])):
        _cap_list(div, "evidence_ids", 4, f"divergences[{i}].evidence_ids", notes)
        _cut_text(div, "reason", 300, f"divergences[{i}].reason", notes)
    divergences = view.get("divergences", [])
    while len(groups) > 2 and size(view) > RANKS_CHARS * 3 // 4:
        dropped = groups.pop()
        divergences[:] = [d for d in divergences if d.get("rank") != dropped.get("representative")]
    if len(groups) < total_groups:
        notes.append(
            f"groups: {len(groups)} of {total_groups} shown (the reference group, then the largest); "
            f"divergences: {len(divergences)} of {total_div} shown"
        )
    kept_counts: dict[str, Any] = view["counts"]
    order = sorted(kept_counts, key=lambda k: (k != reference, k))
    view["counts"] = {}
    used = size(view)
    for key in order:
        entry = size({key: kept_counts[key]})
        if used + entry > RANKS_CHARS:
            break
        view["counts"][key] = kept_counts[key]
        used += entry
    if len(view["counts"]) < len(kept_counts):
        left_out = [k for k in order if k not in view["counts"]]
        notes.append(
            f"counts: {len(view['counts'])} of {len(kept_counts)} differing ranks shown (left out: "
            f"{', '.join(left_out[:20])}"
            + ("…" if len(left_out) > 20 else "")
            + "; pass ranks=[...] to compare_ranks to see them)"
        )
    return view, notes


def shrink_notices(notices: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Notices in order while they fit their share (long messages cut); returns (kept, omitted)."""
    kept: list[dict[str, Any]] = []
    for original in notices:
        notice = dict(original)
        if isinstance(notice.get("message"), str) and len(notice["message"]) > 400:
            notice["message"] = notice["message"][:400] + "…"
        _cap_list(notice, "evidence_ids", 4, "evidence_ids", [])
        if size(notice.get("details", {})) > 200:
            notice["details"] = {"omitted": "details too long for this response"}
        if size(kept) + size(notice) > NOTICES_CHARS:
            break
        kept.append(notice)
    return kept, len(notices) - len(kept)


def _eventful(comp: dict[str, Any]) -> bool:
    return bool(comp.get("recompile") or comp.get("graph_breaks") or comp.get("failure") or comp.get("limit"))


def shrink_function(report: dict[str, Any], limit: int) -> tuple[dict[str, Any], list[str]]:
    """A FunctionReport (as JSON) cut until it is at most `limit` characters: uneventful compilations first, then
    long guard lists, then the latest compilations (the first ones, which set the story, stay)."""
    notes: list[str] = []
    if size(report) <= limit:
        return report, notes
    report = json.loads(json.dumps(report))
    comps = report.get("compilations", [])
    eventful = [c for c in comps if _eventful(c)]
    if len(eventful) < len(comps):
        notes.append(f"compilations: {len(comps) - len(eventful)} without recompile, break or failure left out")
        report["compilations"] = comps = eventful
    for comp in comps:
        _cap_list(comp, "recompile", 3, f"{comp.get('compile_id')}.recompile", notes)
        _cap_list(comp, "evidence_ids", 1, f"{comp.get('compile_id')}.evidence_ids", notes)
    if size(report) <= limit:
        return report, notes
    keep = len(comps)
    while keep > 1 and size({**report, "compilations": comps[:keep]}) > limit:
        keep //= 2
    notes.append(f"compilations: {keep} of {len(comps)} shown (ask for this function alone to page on)")
    report["compilations"] = comps[:keep]
    return report, notes


# Left out of rows: the compile-phase split (the totals carry it; analyze_capture has each compilation's time).
_TIMINGS = frozenset({"incomplete", "phase_times_s"})


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
    row["changes"] = [c for c in row.get("changes") or [] if c.get("kind") != "phase_time"]
    return row


def trim_totals(totals: dict[str, Any]) -> dict[str, Any]:
    """Totals (as JSON) listing only the counts that are non-zero on either side (a count not listed is 0)."""
    b, c = totals.get("baseline") or {}, totals.get("candidate") or {}
    keep = {k for side in (b, c) for k, v in side.items() if k != "incomplete" and v}
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
