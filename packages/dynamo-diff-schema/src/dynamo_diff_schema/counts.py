"""The counts of one rank or of a whole capture, under the exact keys the counting rules define."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

from pydantic import Field

from dynamo_diff_schema.base import Model

COUNT_KEYS: tuple[str, ...] = (
    "observed_compilation_identities",
    "observed_attempts",
    "completed",
    "failed",
    "no_graph_observed",
    "unknown_outcomes",
    "unresolved_outcomes",
    "confirmed_recompilation_identities",
    "confirmed_successful_recompilations",
    "additional_frame_compilations",
    "guard_reason_entries",
    "graph_break_records",
    "unique_graph_break_sites",
    "compiler_limit_events",
    "restarts",
    "cache_hits",
    "cache_misses",
    "backward_compilations",
)

# What each count is called where space is short (tables of counts, `analyze`, the comparison's totals).
COUNT_LABELS: dict[str, str] = {
    "observed_compilation_identities": "compilations",
    "observed_attempts": "attempts",
    "completed": "completed",
    "failed": "failed",
    "no_graph_observed": "no graph",
    "unknown_outcomes": "unknown",
    "unresolved_outcomes": "unresolved",
    "confirmed_recompilation_identities": "recompiles (confirmed)",
    "confirmed_successful_recompilations": "recompiles completed",
    "additional_frame_compilations": "extra frame compiles",
    # torch checks each recompile against every older cache entry and lists one failing guard per entry: 3
    # recompiles of one function read 1 + 2 + 3 = 6 (docs/SEMANTICS.md, Recompilations).
    "guard_reason_entries": "failing guards (1 per older entry)",
    "graph_break_records": "graph breaks",
    "unique_graph_break_sites": "break sites",
    "compiler_limit_events": "limit hits",
    "restarts": "restarts",
    "cache_hits": "cache hits",
    "cache_misses": "cache misses",
    "backward_compilations": "backward compiles",
}
# The headline counts, in the order someone chasing a recompile reads them, with a column label: the columns of
# every row (text, markdown, HTML, MCP, the editor's tree) and of `dynamo-diff list`, first ones first.
HEADLINE_COUNTS: tuple[tuple[str, str], ...] = (
    ("observed_compilation_identities", "compiles"),
    ("confirmed_recompilation_identities", "recompiles"),
    ("graph_break_records", "breaks"),
    ("failed", "failed"),
    ("compiler_limit_events", "limits"),
    ("cache_hits", "hits"),
    ("cache_misses", "misses"),
)


class Counts(Model):
    """What was observed. A key listed in `incomplete` may be an undercount (evidence was missing)."""

    observed_compilation_identities: int = Field(0, ge=0, description="Distinct compile identities, not attempts.")
    observed_attempts: int = Field(0, ge=0, description="Attempts over all identities (restarts add attempts).")
    completed: int = Field(0, ge=0, description="Identities with success metrics, a graph record and ops > 0.")
    failed: int = Field(0, ge=0, description="Identities whose compilation failed (limit hits included).")
    no_graph_observed: int = Field(0, ge=0, description="Guarded code but no graph and no ops (skipped frame).")
    unknown_outcomes: int = Field(0, ge=0, description="Identities without terminal evidence.")
    unresolved_outcomes: int = Field(0, ge=0, description="Identities with conflicting terminal evidence.")
    confirmed_recompilation_identities: int = Field(
        0, ge=0, description="Identities with explicit recompile evidence (recompile_reasons / recompile_reason)."
    )
    confirmed_successful_recompilations: int = Field(0, ge=0, description="Confirmed recompilations that completed.")
    additional_frame_compilations: int = Field(
        0, ge=0, description="Later frame_compile_ids without recompile evidence."
    )
    guard_reason_entries: int = Field(0, ge=0, description="Failing-guard entries over all recompile reasons.")
    graph_break_records: int = Field(0, ge=0, description="Graph-break records (one record = one break event).")
    unique_graph_break_sites: int = Field(0, ge=0, description="Distinct user file:line of graph breaks.")
    compiler_limit_events: int = Field(0, ge=0, description="Recompile/cache limit hits.")
    restarts: int = Field(0, ge=0, description="Restarted analysis attempts.")
    cache_hits: int = Field(0, ge=0, description="FX graph and AOTAutograd cache hits.")
    cache_misses: int = Field(0, ge=0, description="FX graph and AOTAutograd cache misses.")
    backward_compilations: int = Field(
        0, ge=0, description="Identities whose backward graph was compiled (a bwd_compilation_metrics record)."
    )
    compile_time_s: float = Field(
        0.0,
        ge=0,
        description="Compile time in seconds: torch's entire_frame_compile_time_s summed over the compilations (a "
        "measurement, not a count: a change within COMPILE_TIME_NOISE is shown as noise; backward compiles are "
        "timed on their own, see a compilation's aot summary).",
    )
    phase_times_s: dict[str, float] = Field(
        default_factory=dict,
        description="compile_time_s split into its phases (COMPILE_PHASES), derived from torch's nested timers of "
        "each compilation_metrics: dynamo = entire_frame - backend_compile, aot_backend = backend_compile - "
        "inductor_compile, inductor = inductor_compile - code_gen, code_gen = code_gen_time_s. Phases with no time "
        "are left out.",
    )
    incomplete: list[str] = Field(
        default_factory=list, description="Count keys that may be undercounted because evidence was missing."
    )

    def values(self) -> dict[str, int]:
        return {key: int(getattr(self, key)) for key in COUNT_KEYS}


def sum_counts(parts: Iterable[Counts]) -> Counts:
    """Field-wise sum (over ranks, or over a function's groups); a key incomplete in any part stays incomplete."""
    # One pass, holding one part at a time (the parts may be read from disk as they are summed).
    items = iter(parts)
    first = next(items, None)
    second = next(items, None)
    if first is not None and second is None:
        return first  # immutable: no copy needed (most functions have one group)
    totals = dict.fromkeys(COUNT_KEYS, 0)
    incomplete: set[str] = set()
    seconds = 0.0
    phases: dict[str, float] = {}
    for part in itertools.chain((first, second) if first is not None else (), items):
        assert part is not None
        for key, value in part.values().items():
            totals[key] += value
        incomplete.update(part.incomplete)
        seconds += part.compile_time_s
        for phase, seconds_in in part.phase_times_s.items():
            phases[phase] = phases.get(phase, 0.0) + seconds_in
    return Counts(
        **totals,
        compile_time_s=round(seconds, 6),
        phase_times_s=sum_phases([phases]),
        incomplete=sorted(incomplete),
    )


# The phases of a compilation's time, in the order they nest in torch: Dynamo's own work (tracing, guards,
# bytecode) calls the backend; the backend (AOTAutograd, then the backend compiler) calls Inductor; Inductor ends
# in code generation. torch times each level including the levels inside it; a phase is its level minus the next.
COMPILE_PHASES: tuple[tuple[str, str, str], ...] = (
    ("dynamo", "Dynamo", "entire_frame_compile_time_s"),
    ("aot_backend", "AOT/backend", "backend_compile_time_s"),
    ("inductor", "Inductor", "inductor_compile_time_s"),
    ("code_gen", "code gen", "code_gen_time_s"),
)


def compilation_phases(phase_times: Mapping[str, float]) -> dict[str, float]:
    """One compilation's time split into COMPILE_PHASES from its metrics' nested timers (in seconds). A level torch
    did not time (no backend, a backend other than Inductor) contributes nothing; a level timed longer than its
    outer level (clock noise) gives a phase of 0."""
    phases: dict[str, float] = {}
    levels = [(key, phase_times.get(metric)) for key, _, metric in COMPILE_PHASES]
    for i, (key, outer) in enumerate(levels):
        if outer is None:
            break
        inner = levels[i + 1][1] if i + 1 < len(levels) else None
        inner = inner or 0.0
        if outer - inner > 0:
            phases[key] = outer - inner
    return phases


def sum_phases(parts: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """Phase-wise sum, in COMPILE_PHASES order, rounded to the microsecond; phases with no time left out."""
    totals: dict[str, float] = {}
    for part in parts:
        for key, value in part.items():
            totals[key] = totals.get(key, 0.0) + value
    return {key: round(totals[key], 6) for key, _, _ in COMPILE_PHASES if totals.get(key)}
