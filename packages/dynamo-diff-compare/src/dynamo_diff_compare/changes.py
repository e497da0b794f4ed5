"""What changed on one function row, beyond the counts: each change names the evidence on both sides."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from dynamo_diff_schema.comparison import Change
from dynamo_diff_schema.compilation import Compilation, Outcome

# Compile-time phases shown on rows (torch's own names and units; never presented as a run-time speed-up).
PHASES = (
    "entire_frame_compile_time_s",
    "backend_compile_time_s",
    "inductor_compile_time_s",
    "code_gen_time_s",
    "dynamo_cumulative_compile_time_us",
    "aot_autograd_cumulative_compile_time_us",
    "inductor_cumulative_compile_time_us",
)
_EXAMPLES = 3


def _ev(comps: Iterable[Compilation], pick: str) -> list[str]:
    out: list[str] = []
    for comp in comps:
        if pick == "recompile" and comp.recompile is not None:
            out.extend(comp.recompile.evidence_ids)
        elif pick == "failure" and comp.failure is not None:
            out.extend(comp.failure.evidence_ids)
        elif pick == "limit":
            out.extend(e.evidence_id for e in comp.limit_events if e.evidence_id)
        elif pick == "graph" and comp.graph is not None:
            out.extend(comp.graph.evidence_ids[:1])
        elif pick == "guards" and comp.guards is not None:
            out.extend(comp.guards.evidence_ids[:1])
        elif pick == "cache":
            out.extend(e.evidence_id for e in comp.cache_events if e.evidence_id)
    return out


def _recompile_changes(base: Sequence[Compilation], cand: Sequence[Compilation]) -> list[Change]:
    changes = []
    sides = []
    for comps in (base, cand):
        count: Counter[str] = Counter()
        examples: dict[str, list[str]] = {}
        evidence: dict[str, list[str]] = {}
        for comp in comps:
            if comp.recompile is None:
                continue
            for reason in comp.recompile.reasons:
                count[reason.category] += 1
                examples.setdefault(reason.category, [])
                if len(examples[reason.category]) < _EXAMPLES:
                    examples[reason.category].append(reason.text)
                if reason.evidence_id:
                    evidence.setdefault(reason.category, []).append(reason.evidence_id)
        sides.append((count, examples, evidence))
    (b_count, b_ex, b_ev), (c_count, c_ex, c_ev) = sides
    for category in sorted(set(b_count) | set(c_count)):
        b, c = b_count.get(category, 0), c_count.get(category, 0)
        if b == c:
            continue
        changes.append(
            Change(
                kind="recompile_reason",
                summary=f"{category} guards failing: {b} -> {c}",
                baseline={"category": category, "failing_guards": b, "examples": b_ex.get(category, [])},
                candidate={"category": category, "failing_guards": c, "examples": c_ex.get(category, [])},
                baseline_evidence=sorted(set(b_ev.get(category, []))),
                candidate_evidence=sorted(set(c_ev.get(category, []))),
            )
        )
    return changes


def _break_changes(base: Sequence[Compilation], cand: Sequence[Compilation]) -> list[Change]:
    def by_key(comps: Sequence[Compilation]) -> dict[str, tuple[set[str], list[str], str]]:
        out: dict[str, tuple[set[str], list[str], str]] = {}
        for comp in comps:
            for gb in comp.graph_breaks:
                sites, ev, _ = out.setdefault(gb.key, (set(), [], gb.gb_type or gb.reason.split("\n", 1)[0]))
                sites.add(gb.site or "?")
                if gb.evidence_id:
                    ev.append(gb.evidence_id)
        return out

    b, c = by_key(base), by_key(cand)
    changes = []
    for key in sorted(set(b) | set(c)):
        if key in c and key not in b:
            sites, ev, what = c[key]
            changes.append(
                Change(
                    kind="graph_break_new",
                    summary=f"new graph break at {', '.join(sorted(sites))}: {what}",
                    candidate={"key": key, "sites": sorted(sites)},
                    candidate_evidence=ev,
                )
            )
        elif key in b and key not in c:
            sites, ev, what = b[key]
            changes.append(
                Change(
                    kind="graph_break_gone",
                    summary=f"graph break gone from {', '.join(sorted(sites))}: {what}",
                    baseline={"key": key, "sites": sorted(sites)},
                    baseline_evidence=ev,
                )
            )
        elif b[key][0] != c[key][0]:
            changes.append(
                Change(
                    kind="graph_break_moved",
                    summary=f"graph break moved {', '.join(sorted(b[key][0]))} -> {', '.join(sorted(c[key][0]))}: "
                    f"{c[key][2]}",
                    baseline={"key": key, "sites": sorted(b[key][0])},
                    candidate={"key": key, "sites": sorted(c[key][0])},
                    baseline_evidence=b[key][1],
                    candidate_evidence=c[key][1],
                )
            )
    return changes


def _failure_changes(base: Sequence[Compilation], cand: Sequence[Compilation]) -> list[Change]:
    b = Counter(comp.failure.fail_type or "?" for comp in base if comp.failure is not None)
    c = Counter(comp.failure.fail_type or "?" for comp in cand if comp.failure is not None)
    changes = []
    for fail_type in sorted(set(b) | set(c)):
        if b[fail_type] == c[fail_type]:
            continue
        kind = "failure_new" if c[fail_type] > b[fail_type] else "failure_gone"
        reason = next(
            (
                comp.failure.reason
                for comp in (cand if kind == "failure_new" else base)
                if comp.failure is not None and (comp.failure.fail_type or "?") == fail_type
            ),
            None,
        )
        changes.append(
            Change(
                kind=kind,
                summary=f"{fail_type} failures: {b[fail_type]} -> {c[fail_type]}"
                + (f" ({gist(reason)})" if reason else ""),
                baseline={"fail_type": fail_type, "count": b[fail_type]},
                candidate={"fail_type": fail_type, "count": c[fail_type], "reason": reason},
                baseline_evidence=_ev(
                    [x for x in base if x.failure and (x.failure.fail_type or "?") == fail_type], "failure"
                ),
                candidate_evidence=_ev(
                    [x for x in cand if x.failure and (x.failure.fail_type or "?") == fail_type], "failure"
                ),
            )
        )
    return changes


def gist(text: str, limit: int = 140) -> str:
    """The telling line of torch's failure text: "backend='x' raised:" is followed by the actual error."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    head = lines[0]
    if head.endswith(":") and len(lines) > 1:
        head = f"{head} {lines[1]}"
    return head if len(head) <= limit else head[: limit - 1] + "…"


def _simple(
    kind: str, label: str, b: object, c: object, base: Sequence[Compilation], cand: Sequence[Compilation], pick: str
) -> list[Change]:
    if b == c:
        return []
    return [
        Change(
            kind=kind,
            summary=f"{label}: {b} -> {c}",
            baseline=b,
            candidate=c,
            baseline_evidence=_ev(base, pick),
            candidate_evidence=_ev(cand, pick),
        )
    ]


def _decisions(counts: Counter[str]) -> str:
    return ", ".join(f"{counts[k]} {k}" for k in ("hit", "miss", "bypass") if counts[k]) or "none"


def _histogram(comps: Sequence[Compilation]) -> Counter[str]:
    total: Counter[str] = Counter()
    for comp in comps:
        if comp.graph is not None:
            total.update(comp.graph.op_histogram)
    return total


# Changes that describe a function present on one side only (the rest are only meaningful between two sides).
ONE_SIDED_KINDS = frozenset(
    {"failure_new", "failure_gone", "limit", "recompile_reason", "graph_break_new", "graph_break_gone", "restarts"}
)


def row_changes(base: Sequence[Compilation], cand: Sequence[Compilation]) -> list[Change]:
    """Changes between the compilations of one function in the baseline and in the candidate."""
    changes = _all_changes(base, cand)
    if not base or not cand:
        changes = [c for c in changes if c.kind in ONE_SIDED_KINDS]
    return changes


def _all_changes(base: Sequence[Compilation], cand: Sequence[Compilation]) -> list[Change]:
    changes: list[Change] = []
    changes += _failure_changes(base, cand)
    changes += _simple(
        "limit",
        "recompile limit hits",
        sum(len(c.limit_events) for c in base),
        sum(len(c.limit_events) for c in cand),
        base,
        cand,
        "limit",
    )
    changes += _recompile_changes(base, cand)
    changes += _break_changes(base, cand)
    changes += _simple(
        "restarts",
        "restarts",
        sum(max(len(c.attempts) - 1, 0) for c in base),
        sum(max(len(c.attempts) - 1, 0) for c in cand),
        base,
        cand,
        "graph",
    )
    op_b = sorted(c.graph.op_count for c in base if c.outcome == Outcome.COMPLETED and c.graph and c.graph.op_count)
    op_c = sorted(c.graph.op_count for c in cand if c.outcome == Outcome.COMPLETED and c.graph and c.graph.op_count)
    changes += _simple("op_count", "graph ops per completed compilation", op_b, op_c, base, cand, "graph")
    hist_b, hist_c = _histogram(base), _histogram(cand)
    if hist_b != hist_c and (hist_b or hist_c):
        moved = {
            op: (hist_b.get(op, 0), hist_c.get(op, 0))
            for op in sorted(set(hist_b) | set(hist_c))
            if hist_b.get(op, 0) != hist_c.get(op, 0)
        }
        changes.append(
            Change(
                kind="op_histogram",
                summary="ops: "
                + ", ".join(f"{op} {b}->{c}" for op, (b, c) in list(moved.items())[:8])
                + (" ..." if len(moved) > 8 else ""),
                baseline=dict(hist_b),
                candidate=dict(hist_c),
                baseline_evidence=_ev(base, "graph"),
                candidate_evidence=_ev(cand, "graph"),
            )
        )
    guards_b = [c.guards.count for c in base if c.guards is not None]
    guards_c = [c.guards.count for c in cand if c.guards is not None]
    changes += _simple("guard_count", "guards per compilation", guards_b, guards_c, base, cand, "guards")
    for cache in ("fx_graph", "aotautograd"):
        b = Counter(str(e.decision) for c in base for e in c.cache_events if e.cache == cache)
        c_ = Counter(str(e.decision) for c in cand for e in c.cache_events if e.cache == cache)
        if b != c_:
            changes.append(
                Change(
                    kind="cache",
                    summary=f"{cache} cache: {_decisions(b)} -> {_decisions(c_)}",
                    baseline=dict(b),
                    candidate=dict(c_),
                    baseline_evidence=[
                        e.evidence_id for x in base for e in x.cache_events if e.cache == cache and e.evidence_id
                    ],
                    candidate_evidence=[
                        e.evidence_id for x in cand for e in x.cache_events if e.cache == cache and e.evidence_id
                    ],
                )
            )
    for phase in PHASES:
        b_values = [c.phase_times[phase] for c in base if phase in c.phase_times]
        c_values = [c.phase_times[phase] for c in cand if phase in c.phase_times]
        if b_values and c_values and sum(b_values) != sum(c_values):
            changes.append(
                Change(
                    kind="phase_time",
                    summary=f"{phase}: {sum(b_values):g} -> {sum(c_values):g}",
                    baseline=sum(b_values),
                    candidate=sum(c_values),
                )
            )
    return changes
