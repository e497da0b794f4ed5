"""What changed on one function row, beyond the counts: each change names the evidence on both sides.

Each side's compilations are summarized once (`Digest`), then the two summaries are compared.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.comparison import Change, ChangeKind
from dynamo_diff_schema.compilation import Compilation, GraphBreak, LastRecord, Outcome, Specialization
from dynamo_diff_schema.counts import COMPILE_PHASES, compilation_phases
from dynamo_diff_schema.lists import head, joined

from dynamo_diff_compare.break_words import break_summary, reached_text, restart_words
from dynamo_diff_compare.compile_time import compile_time_change
from dynamo_diff_compare.user_lines import specialization_site

# Compile-time phases shown on rows: COMPILE_PHASES, the split of torch's nested timers (never presented as a
# run-time speed-up).
_PHASE_LABELS = {key: label for key, label, _ in COMPILE_PHASES}
# Distinct failing-guard texts a side of a recompile-reason change lists (the others counted in its `other_texts`).
_EXAMPLES = 8


class Digest:
    """One side's compilations of a function, reduced to what rows compare. (A plain class: two are made per row,
    and a dataclass's default factories cost more than the rest of a small digest.)"""

    __slots__ = (
        "backward_compiled",
        "backward_evidence",
        "backward_ops",
        "break_words",
        "breaks",
        "cache",
        "cache_evidence",
        "failure_evidence",
        "failure_reason",
        "failures",
        "graph_evidence",
        "guard_evidence",
        "guards",
        "histogram",
        "kernel_evidence",
        "kernels",
        "kernels_total",
        "library_calls",
        "limit_evidence",
        "limits",
        "ops",
        "phase_evidence",
        "phases",
        "reached",
        "reason_evidence",
        "reason_examples",
        "reason_made_for",
        "reasons",
        "restart_evidence",
        "restart_words",
        "restarts",
        "specialized",
        "unfinished",
    )

    def __init__(self) -> None:
        self.reasons: Counter[str] = Counter()  # guard category -> failing guards
        # guard category -> its failing guards' distinct first lines (what a line shows) -> the first whole text
        self.reason_examples: dict[str, dict[str, str]] = {}
        # guard category -> first line -> what the new entries were made for (GuardReason.made_for), distinct
        self.reason_made_for: dict[str, dict[str, list[str]]] = {}
        self.reason_evidence: dict[str, list[str]] = {}
        self.breaks: dict[str, tuple[set[str], list[str], str]] = {}  # key -> sites, evidence, what
        self.break_words: dict[str, dict[str, Any]] = {}  # key -> torch's words of its first break (_break_words)
        self.failures: Counter[str] = Counter()
        self.failure_reason: dict[str, str] = {}
        self.failure_evidence: dict[str, list[str]] = {}
        self.limits = 0
        self.limit_evidence: list[str] = []
        self.restarts = 0
        self.restart_evidence: list[str] = []
        self.restart_words: Counter[str] = Counter()  # what restarted the analysis (break_words.restart_words)
        self.ops: list[int] = []
        self.histogram: Counter[str] = Counter()
        self.graph_evidence: list[str] = []
        self.guards: list[int] = []
        self.guard_evidence: list[str] = []
        self.cache: dict[str, Counter[str]] = {}
        self.cache_evidence: dict[str, list[str]] = {}
        # symbol and source -> (the first record of it, the values it was fixed to, the compilations, evidence)
        self.specialized: dict[tuple[str, str | None], tuple[Specialization, list[str], list[str], list[str]]] = {}
        self.unfinished = False  # a compilation never finished: its time is in no sum
        self.reached: list[tuple[str, LastRecord]] = []  # (compile id, how far it got) of those that never finished
        self.phases: dict[str, float] = {}
        self.phase_evidence: list[str] = []
        self.backward_ops: list[int] = []  # per compilation whose backward graph was traced
        self.backward_compiled = 0
        self.backward_evidence: list[str] = []
        self.kernels: Counter[str] = Counter()  # Inductor's kernels, by name, over the compilations' modules
        self.kernels_total = 0  # every kernel the modules define (`kernels` names at most 12 a module)
        self.library_calls: Counter[str] = Counter()  # the modules' calls of library kernels (`addmm`)
        self.kernel_evidence: list[str] = []


def _site(gb: GraphBreak) -> str:
    """A break's user site; in library code from its package on (`transformers/modeling_utils.py:4778`), so the
    same line of one library installed in two environments (a torch upgrade in another venv) is one site."""
    if gb.user_file is None:
        return "?"
    file = library_path(gb.user_file) or gb.user_file
    return f"{file}:{gb.user_line}" if gb.user_line is not None else file


def digest(comps: Sequence[Compilation]) -> Digest:
    d = Digest()
    for comp in comps:
        if comp.recompile is not None:
            for reason in comp.recompile.reasons:
                cat = str(reason.category)
                d.reasons[cat] += 1
                text = reason.text.rstrip()
                d.reason_examples.setdefault(cat, {}).setdefault(text.split("\n", 1)[0], text)
                made = d.reason_made_for.setdefault(cat, {}).setdefault(text.split("\n", 1)[0], [])
                made += [m for m in reason.made_for if m not in made]
                if reason.evidence_id:
                    d.reason_evidence.setdefault(cat, []).append(reason.evidence_id)
        for spec in comp.specializations:
            _, values, at, ev = d.specialized.setdefault((spec.symbol, spec.source), (spec, [], [], []))
            if spec.value is not None and spec.value not in values:
                values.append(spec.value)
            if comp.compile_id not in at:
                at.append(comp.compile_id)
            if spec.evidence_id:
                ev.append(spec.evidence_id)
        for gb in comp.graph_breaks:
            what = break_summary(gb.gb_type or gb.reason.split("\n", 1)[0], gb.operator, gb.hints)
            sites, ev, _ = d.breaks.setdefault(gb.key, (set(), [], what))
            d.break_words.setdefault(gb.key, _break_words(gb))
            sites.add(_site(gb))
            if gb.evidence_id:
                ev.append(gb.evidence_id)
        if comp.failure is not None:
            fail_type = comp.failure.fail_type or "?"
            d.failures[fail_type] += 1
            if comp.failure.reason:
                d.failure_reason.setdefault(fail_type, comp.failure.reason)
            d.failure_evidence.setdefault(fail_type, []).extend(comp.failure.evidence_ids)
        if comp.limit_events:
            d.limits += len(comp.limit_events)
            d.limit_evidence.extend(e.evidence_id for e in comp.limit_events if e.evidence_id)
        if comp.attempts or comp.restarts:  # else no restarts and no evidence of any
            d.restarts += comp.restart_count
            d.restart_evidence.extend(comp.restart_evidence)
            d.restart_words.update(restart_words(r) for r in comp.restarts)
        if comp.graph is not None:
            if comp.outcome == Outcome.COMPLETED and comp.graph.op_count is not None:
                d.ops.append(comp.graph.op_count)  # 0: an empty graph
            d.histogram.update(comp.graph.op_histogram)
            d.graph_evidence.extend(comp.graph.evidence_ids[:1])
        if comp.guards is not None:
            d.guards.append(comp.guards.count)
            d.guard_evidence.extend(comp.guards.evidence_ids[:1])
        for event in comp.cache_events:
            d.cache.setdefault(str(event.cache), Counter())[str(event.decision)] += 1
            if event.evidence_id:
                d.cache_evidence.setdefault(str(event.cache), []).append(event.evidence_id)
        if comp.outcome == Outcome.UNKNOWN:
            d.unfinished = True
        if comp.reached is not None:
            d.reached.append((comp.compile_id, comp.reached))
        if comp.phase_times:
            for phase, value in compilation_phases(comp.phase_times).items():
                d.phases[phase] = d.phases.get(phase, 0.0) + value
        if comp.phase_evidence_id is not None:
            d.phase_evidence.append(comp.phase_evidence_id)
        for code in comp.inductor_code:
            d.kernels.update(code.kernels)
            d.kernels_total += code.kernels_total
            d.library_calls.update(code.extern_calls)
            if code.evidence_id:
                d.kernel_evidence.append(code.evidence_id)
        if comp.aot is not None:
            if comp.aot.backward_op_count is not None:
                d.backward_ops.append(comp.aot.backward_op_count)
            d.backward_compiled += int(comp.aot.backward_compiled)
            d.backward_evidence.extend(comp.aot.evidence_ids)
    d.ops.sort()
    return d


# The error an operator raised on fake tensors, as torch's explanation ends it: "...: got RuntimeError('a and b must
# have same reduction dim, but got [48, s9] X [16, 32].')".
_GOT = re.compile(r"\bgot ([A-Z]\w*(?:Error|Exception)\(.*\))\s*$")
# How long the error after a headline may be before it is cut (it is the fact a user needs: keep it whole).
_GOT_LIMIT = 400


def headline(text: str) -> str:
    """The first line of torch's text; a line that only introduces the next ("backend='x' raised:") with it."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    return f"{lines[0]} {lines[1]}" if lines[0].endswith(":") and len(lines) > 1 else lines[0]


def clipped(text: str, limit: int) -> str:
    """`text` as it is when it fits `limit` characters, else its first limit - 1 and an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# What torch adds to a guard's failure text that says nothing of the run: an object's address and a link to a
# discussion (`BACKEND_MATCH failure: ... (id=0x7f07374d2590). ... More details: <link>`).
_ADDRESS = re.compile(r" \(id=0x[0-9a-f]+\)")
_MORE_DETAILS = re.compile(r"\s*More details: \S+\s*$")


def guard_failure_text(text: str, limit: int | None = 450) -> str:
    """A failing guard as torch wrote it (its user-code comment left out), without object addresses or a trailing
    link; a text over `limit` characters (None: no limit) is cut after its last whole sentence (or word) that fits,
    never mid-word."""
    body = _MORE_DETAILS.sub("", _ADDRESS.sub("", text.split("  #", 1)[0].strip()))
    if limit is None or len(body) <= limit:
        return body
    head = body[: limit - 1]
    end = head.rfind(". ")
    if end >= limit // 2:
        return head[: end + 1] + " …"
    space = head.rfind(" ")
    return (head[:space] if space > 0 else head) + " …"


def gist(text: str, limit: int = 140) -> str:
    """The telling line of torch's failure text (its `headline`); a headline whose explanation ends with the
    operator's own error ("RuntimeError when making fake tensor call" ... "got RuntimeError('...')") gets that
    error after it."""
    head = headline(text)
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if lines and not (lines[0].endswith(":") and len(lines) > 1):
        got = next((m.group(1) for line in lines[1:4] if (m := _GOT.search(line))), None)
        if got is not None and len(got) <= _GOT_LIMIT:
            return f"{head[:limit]}: {got}"
    return clipped(head, limit)


def _decisions(counts: Counter[str]) -> str:
    return ", ".join(f"{counts[k]} {k}" for k in ("hit", "miss", "bypass") if counts[k]) or "none"


def _ids(ids: Sequence[str]) -> str:
    return joined(ids, 6)


def specialized_lines(d: Digest) -> list[str]:
    """`s24 (L['pos']) fixed to 1, 2 at decode_after.py:31: self.cache[:, pos] = h[:, 0] (range_refined_to_singleton;
    at 1/1, 1/2) (ev u1-e15, u1-e23)`: per symbol, what the code fixed back to one value on this side, and where."""
    out = []
    for spec, values, at, ev in d.specialized.values():
        what = spec.symbol + (f" ({spec.source})" if spec.source else "")
        fixed = f" fixed to {_ids(values)}" if values else " fixed"
        site = specialization_site(spec)
        why = f"{spec.reason}; " if spec.reason else ""
        shown = f" (ev {joined(ev, 3, more=' +{n}')})" if ev else ""
        out.append(f"{what}{fixed}{' ' + site if site else ''} ({why}at {_ids(at)}){shown}")
    return out


def _guard_side(
    category: str, failing: int, texts: dict[str, str], made: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """A recompile-reason change's side: its category, its failing guards, their distinct texts (the first
    _EXAMPLES, all when only one more) and how many other distinct texts there are (`other_texts`, when some);
    `made_for`, one list per example, what the new entries were made for (when the trace says for any)."""
    shown, rest = head(list(texts.items()), _EXAMPLES)
    side: dict[str, Any] = {"category": category, "failing_guards": failing, "examples": [t for _, t in shown]}
    made_for = [(made or {}).get(first, []) for first, _ in shown]
    return side | ({"other_texts": rest} if rest else {}) | ({"made_for": made_for} if any(made_for) else {})


def _recompiles(b: Digest, c: Digest) -> list[Change]:
    out = []
    # What each side's code fixed back to one value rides on its first recompile change (beside its guards).
    pinned = {"baseline": specialized_lines(b), "candidate": specialized_lines(c)}
    for cat in sorted(set(b.reasons) | set(c.reasons)):
        nb, nc = b.reasons.get(cat, 0), c.reasons.get(cat, 0)
        if nb != nc:
            sides: dict[str, dict[str, Any]] = {
                "baseline": _guard_side(cat, nb, b.reason_examples.get(cat, {}), b.reason_made_for.get(cat)),
                "candidate": _guard_side(cat, nc, c.reason_examples.get(cat, {}), c.reason_made_for.get(cat)),
            }
            for side, lines in pinned.items():
                if lines and sides[side]["failing_guards"]:
                    sides[side]["specialized"] = lines
                    pinned[side] = []
            out.append(
                Change(
                    kind=ChangeKind.RECOMPILE_REASON,
                    summary=f"{cat} guards failing: {nb} -> {nc}",
                    baseline=sides["baseline"],
                    candidate=sides["candidate"],
                    # In trace order: the first id is the evidence of the first example.
                    baseline_evidence=list(dict.fromkeys(b.reason_evidence.get(cat, []))),
                    candidate_evidence=list(dict.fromkeys(c.reason_evidence.get(cat, []))),
                )
            )
    return out


def _break_words(gb: GraphBreak) -> dict[str, Any]:
    """What torch's record says of a break beside its key and sites (a change's side): the operator, the
    explanation, the hints and the page torch links, those it has."""
    words = {"operator": gb.operator, "explanation": gb.explanation, "hints": gb.hints, "url": gb.url}
    return {k: v for k, v in words.items() if v}


def _breaks(b: Digest, c: Digest) -> list[Change]:
    out = []
    for key in sorted(set(b.breaks) | set(c.breaks)):
        if key not in b.breaks:
            sites, ev, what = c.breaks[key]
            out.append(
                Change(
                    kind=ChangeKind.GRAPH_BREAK_NEW,
                    summary=f"new graph break at {', '.join(sorted(sites))}: {what}",
                    candidate={"key": key, "sites": sorted(sites), **c.break_words[key]},
                    candidate_evidence=ev,
                )
            )
        elif key not in c.breaks:
            sites, ev, what = b.breaks[key]
            out.append(
                Change(
                    kind=ChangeKind.GRAPH_BREAK_GONE,
                    summary=f"graph break gone from {', '.join(sorted(sites))}: {what}",
                    baseline={"key": key, "sites": sorted(sites), **b.break_words[key]},
                    baseline_evidence=ev,
                )
            )
        elif b.breaks[key][0] != c.breaks[key][0]:
            (b_sites, b_ev, _), (c_sites, c_ev, what) = b.breaks[key], c.breaks[key]
            out.append(
                Change(
                    kind=ChangeKind.GRAPH_BREAK_MOVED,
                    summary=f"graph break moved {', '.join(sorted(b_sites))} -> {', '.join(sorted(c_sites))}: {what}",
                    baseline={"key": key, "sites": sorted(b_sites), **b.break_words[key]},
                    candidate={"key": key, "sites": sorted(c_sites), **c.break_words[key]},
                    baseline_evidence=b_ev,
                    candidate_evidence=c_ev,
                )
            )
    return out


def _failures(b: Digest, c: Digest) -> list[Change]:
    out = []
    for fail_type in sorted(set(b.failures) | set(c.failures)):
        nb, nc = b.failures[fail_type], c.failures[fail_type]
        if nb == nc:
            continue
        kind = ChangeKind.FAILURE_NEW if nc > nb else ChangeKind.FAILURE_GONE
        reason = (c if kind == ChangeKind.FAILURE_NEW else b).failure_reason.get(fail_type)
        out.append(
            Change(
                kind=kind,
                summary=f"{fail_type} failures: {nb} -> {nc}" + (f" ({gist(reason)})" if reason else ""),
                # The reason is torch's text on the side that has the failures (the candidate's when they are new).
                baseline={"fail_type": fail_type, "count": nb}
                | ({"reason": reason} if kind == ChangeKind.FAILURE_GONE else {}),
                candidate={"fail_type": fail_type, "count": nc}
                | ({"reason": reason} if kind == ChangeKind.FAILURE_NEW else {}),
                baseline_evidence=b.failure_evidence.get(fail_type, []),
                candidate_evidence=c.failure_evidence.get(fail_type, []),
            )
        )
    return out


def shown(value: object, *, groups: int = 8) -> str:
    """A value for a one-line summary; a list of numbers in runs (`[5 (x4914)]`), at most `groups` of them."""
    if not isinstance(value, list):
        return str(value)
    runs: list[tuple[object, int]] = []
    for item in value:
        if runs and runs[-1][0] == item:
            runs[-1] = (item, runs[-1][1] + 1)
        else:
            runs.append((item, 1))
    parts = [f"{v} (x{n})" if n != 1 else str(v) for v, n in runs]
    if len(parts) > groups:
        parts = [*parts[:groups], f"... {len(value)} in all"]
    return "[" + ", ".join(parts) + "]"


def _value(kind: ChangeKind, label: str, b: object, c: object, b_ev: list[str], c_ev: list[str]) -> list[Change]:
    if b == c:
        return []
    return [
        Change(
            kind=kind,
            summary=f"{label}: {shown(b)} -> {shown(c)}",
            baseline=b,
            candidate=c,
            baseline_evidence=b_ev,
            candidate_evidence=c_ev,
        )
    ]


def _restarts(b: Digest, c: Digest) -> list[Change]:
    """The restarts' count, and what restarted the analysis on each side that restarted it (its reasons)."""
    out = _value(ChangeKind.RESTARTS, "restarts", b.restarts, c.restarts, b.restart_evidence, c.restart_evidence)
    if not out:
        return out
    said = []
    for side, d in (("baseline", b), ("candidate", c)):
        if d.restart_words:
            words = ", ".join(f"{w} x{n}" if n > 1 else w for w, n in d.restart_words.items())
            said.append(f"{side}: {words}")
    if said:
        out[0] = out[0].model_copy(update={"summary": f"{out[0].summary} ({'; '.join(said)})"})
    return out


def _unfinished(b: Digest, c: Digest) -> list[Change]:
    """Compilations that started and never finished (no compilation_metrics), on the side that has them: the stage
    each reached, from the last record torch wrote for it."""
    if [(r.kind, r.stage) for _, r in b.reached] == [(r.kind, r.stage) for _, r in c.reached]:
        return []
    said = []
    for side, d in (("baseline", b), ("candidate", c)):
        said += [f"{side} {cid} {reached_text(r, evidence=False)}" for cid, r in d.reached]
    return [
        Change(
            kind=ChangeKind.UNFINISHED,
            summary="; ".join(said),
            baseline=[{"compile_id": cid, **r.model_dump()} for cid, r in b.reached] or None,
            candidate=[{"compile_id": cid, **r.model_dump()} for cid, r in c.reached] or None,
            baseline_evidence=[r.evidence_id for _, r in b.reached if r.evidence_id],
            candidate_evidence=[r.evidence_id for _, r in c.reached if r.evidence_id],
        )
    ]


def _backward(b: Digest, c: Digest) -> list[Change]:
    """The backward graphs AOTAutograd made and compiled (training), when they differ."""
    if (b.backward_ops, b.backward_compiled) == (c.backward_ops, c.backward_compiled):
        return []
    return [
        Change(
            kind=ChangeKind.BACKWARD,
            summary=f"backward graphs (AOTAutograd): ops {shown(sorted(b.backward_ops))} -> "
            f"{shown(sorted(c.backward_ops))}, compiled {b.backward_compiled} -> {c.backward_compiled}",
            baseline={"ops": sorted(b.backward_ops), "compiled": b.backward_compiled},
            candidate={"ops": sorted(c.backward_ops), "compiled": c.backward_compiled},
            baseline_evidence=b.backward_evidence,
            candidate_evidence=c.backward_evidence,
        )
    ]


def _counted(counts: Counter[str]) -> list[str]:
    return [name + (f" x{n}" if n > 1 else "") for name, n in sorted(counts.items())]


def _generated_code(b: Digest, c: Digest) -> list[Change]:
    """What Inductor generated, when both sides have its modules and their kernels or library calls differ:
    `generated code (Inductor): kernels 4 -> 4, cpp_fused_..._where_zeros_like_1 -> cpp_fused_..._mul_..._1 (3 the
    same); library calls the same`. A kernel is named by Inductor after the ops it fuses, so a renamed kernel is one
    whose ops changed; the same names with other bodies are not seen here (the records' diff shows them)."""
    if not b.kernel_evidence or not c.kernel_evidence:
        return []
    if (b.kernels, b.kernels_total, b.library_calls) == (c.kernels, c.kernels_total, c.library_calls):
        return []
    gone, new, same = b.kernels - c.kernels, c.kernels - b.kernels, b.kernels & c.kernels
    parts = [f"kernels {b.kernels_total} -> {c.kernels_total}"]
    if gone or new:
        moved = f"{joined(_counted(gone), 3) or 'none'} -> {joined(_counted(new), 3) or 'none'}"
        parts[0] += f", {moved} ({sum(same.values())} the same)"
    if b.library_calls == c.library_calls:
        parts.append(
            "library calls the same" + (f" ({joined(_counted(b.library_calls), 6)})" if b.library_calls else "")
        )
    else:
        calls = sorted(set(b.library_calls) | set(c.library_calls))
        changed = [
            f"{k} {b.library_calls[k]}->{c.library_calls[k]}" for k in calls if b.library_calls[k] != c.library_calls[k]
        ]
        parts.append("library calls " + joined(changed, 6))
    return [
        Change(
            kind=ChangeKind.GENERATED_CODE,
            summary="generated code (Inductor): " + "; ".join(parts),
            baseline={
                "kernels": dict(b.kernels),
                "kernels_total": b.kernels_total,
                "library_calls": dict(b.library_calls),
            },
            candidate={
                "kernels": dict(c.kernels),
                "kernels_total": c.kernels_total,
                "library_calls": dict(c.library_calls),
            },
            baseline_evidence=b.kernel_evidence,
            candidate_evidence=c.kernel_evidence,
        )
    ]


def row_changes(base: Sequence[Compilation], cand: Sequence[Compilation]) -> list[Change]:
    """Changes between the compilations of one function in the baseline and in the candidate."""
    b, c = digest(base), digest(cand)
    changes = _failures(b, c)
    changes += _value(ChangeKind.LIMIT, "recompile limit hits", b.limits, c.limits, b.limit_evidence, c.limit_evidence)
    changes += _recompiles(b, c)
    changes += _breaks(b, c)
    changes += _restarts(b, c)
    changes += _unfinished(b, c)
    changes += _backward(b, c)
    if not base or not cand:
        return changes  # the rest only means something between two sides
    changes += _value(
        ChangeKind.OP_COUNT, "graph ops per completed compilation", b.ops, c.ops, b.graph_evidence, c.graph_evidence
    )
    if b.histogram != c.histogram:
        moved = {
            op: (b.histogram.get(op, 0), c.histogram.get(op, 0))
            for op in sorted(set(b.histogram) | set(c.histogram))
            if b.histogram.get(op, 0) != c.histogram.get(op, 0)
        }
        listed = joined([f"{op} {x}->{y}" for op, (x, y) in moved.items()], 8, more=" (+{n} more ops)")
        changes.append(
            Change(
                kind=ChangeKind.OP_HISTOGRAM,
                summary="ops: " + listed,
                baseline=dict(b.histogram),
                candidate=dict(c.histogram),
                baseline_evidence=b.graph_evidence,
                candidate_evidence=c.graph_evidence,
            )
        )
    changes += _generated_code(b, c)
    changes += _value(
        ChangeKind.GUARD_COUNT, "guards per compilation", b.guards, c.guards, b.guard_evidence, c.guard_evidence
    )
    for cache in sorted(set(b.cache) | set(c.cache)):
        bc, cc = b.cache.get(cache, Counter()), c.cache.get(cache, Counter())
        if bc != cc:
            changes.append(
                Change(
                    kind=ChangeKind.CACHE,
                    summary=f"{cache} cache: {_decisions(bc)} -> {_decisions(cc)}",
                    baseline=dict(bc),
                    candidate=dict(cc),
                    baseline_evidence=b.cache_evidence.get(cache, []),
                    candidate_evidence=c.cache_evidence.get(cache, []),
                )
            )
    for phase, label in _PHASE_LABELS.items() if b.phases or c.phases else ():
        bt, ct = round(b.phases.get(phase, 0.0), 6), round(c.phases.get(phase, 0.0), 6)
        if (bt or ct) and bt != ct:
            changes.append(
                Change(
                    kind=ChangeKind.PHASE_TIME,
                    summary=f"{label} compile time: {compile_time_change(bt, ct, cut=(b.unfinished, c.unfinished))}",
                    baseline=bt,
                    candidate=ct,
                    baseline_evidence=b.phase_evidence,
                    candidate_evidence=c.phase_evidence,
                )
            )
    return changes
