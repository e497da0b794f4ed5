"""One run on its own, per source function (the same folding as a comparison: resume functions and library frames
count in the function they belong to)."""

from __future__ import annotations

from dynamo_diff_match import SnapshotSet, correspond_functions
from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.compilation import Compilation
from dynamo_diff_schema.counts import Counts, sum_counts
from dynamo_diff_schema.run_report import (
    BreakLine,
    CompilationLine,
    FailureLine,
    FunctionReport,
    GuardLine,
    RunReport,
)

from dynamo_diff_compare.changes import gist
from dynamo_diff_compare.observed import observed_functions

# The compile-time figure shown per compilation (torch's own name and unit).
_COMPILE_TIME = "entire_frame_compile_time_s"


def nonzero(counts: Counts) -> dict[str, int]:
    return {key: value for key, value in counts.values().items() if value}


def _then(comp: Compilation) -> str:
    if comp.limit_events:
        return "ran eagerly (recompile limit)"
    if comp.failure is None or comp.failure.suppressed is None:
        return "unknown"
    return "ran eagerly (suppress_errors)" if comp.failure.suppressed else "raised into the program"


def compilation_line(comp: Compilation, frame: str) -> CompilationLine:
    failure = None
    if comp.failure is not None:
        failure = FailureLine(
            fail_type=comp.failure.fail_type,
            message=gist(comp.failure.reason or ""),
            then=_then(comp),
            evidence_ids=comp.failure.evidence_ids,
        )
    reasons = comp.recompile.reasons if comp.recompile is not None else []
    return CompilationLine(
        compile_id=comp.compile_id,
        frame=frame,
        outcome=str(comp.outcome),
        recompile=[
            GuardLine(category=str(r.category), text=r.text.split("  #", 1)[0].strip()[:300], evidence_id=r.evidence_id)
            for r in reasons
        ],
        graph_breaks=[
            BreakLine(
                type=gb.gb_type or gb.reason.split("\n", 1)[0][:200],
                gb_id=gb.gb_id,
                site=gb.site,
                evidence_id=gb.evidence_id,
            )
            for gb in comp.graph_breaks
        ],
        failure=failure,
        limit=comp.limit_events[0].message.split("\n", 1)[0][:200] if comp.limit_events else None,
        graph_ops=comp.graph.op_count if comp.graph is not None else None,
        compile_time_s=comp.phase_times.get(_COMPILE_TIME),
        evidence_ids=comp.evidence_ids[:2],
    )


def run_report(capture: Capture, sources: SnapshotSet, *, function: str | None = None) -> RunReport:
    """The run per source function, functions with something to say (failures, recompilations, breaks) first;
    `function` keeps the functions of that name (qualified or bare, or a frame's name)."""
    observed = observed_functions(capture)
    matches = correspond_functions(list(observed), sources, list(observed), sources)
    functions = []
    for match in matches:
        refs = [p.baseline for p in match.pieces if p.baseline is not None and p.baseline in observed]
        if not refs:
            continue
        name = match.baseline_name or refs[0].name
        frames = [r.name for r in refs]
        if function is not None and function not in (name, name.rsplit(".", 1)[-1], *frames):
            continue
        comps = sorted(
            ((r.name, c) for r in refs for _, c in observed[r].compilations), key=lambda fc: _order(fc[1].compile_id)
        )
        where = match.baseline_location
        functions.append(
            FunctionReport(
                name=name,
                file=where[0] if where else refs[0].file,
                line=where[1] if where else refs[0].first_line or None,
                frames=frames if len(frames) > 1 or refs[0].caller is not None else [],
                counts=nonzero(sum_counts(g.counts for r in refs for _, g in observed[r].groups)),
                compilations=[compilation_line(c, frame) for frame, c in comps],
            )
        )
    functions.sort(key=_interest)
    info = capture.capture
    return RunReport(
        capture=info.id,
        label=info.label,
        torch=info.producer.torch,
        run=info.run,
        counts=nonzero(capture.counts),
        functions=functions,
    )


def _order(compile_id: str) -> tuple[int, ...]:
    numbers = [int(part) for part in compile_id.replace("!", "").replace("#", "/").split("/") if part.isdigit()]
    return tuple(numbers)


def _interest(report: FunctionReport) -> tuple[int, str]:
    c = report.counts
    score = (
        4 * c.get("failed", 0)
        + 3 * c.get("confirmed_recompilation_identities", 0)
        + 2 * c.get("graph_break_records", 0)
        + c.get("compiler_limit_events", 0)
    )
    return -score, report.name
