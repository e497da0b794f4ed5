"""Counts from classified compilations (docs/SEMANTICS.md): identities, not attempts; confirmed recompiles only.

Counted one compilation at a time, so that an import never needs all of a rank's compilations in memory.
"""

from __future__ import annotations

from collections.abc import Iterable

from dynamo_diff_schema.compilation import CacheDecision, Compilation, Outcome
from dynamo_diff_schema.counts import COUNT_KEYS, Counts, compilation_phases, sum_phases

_OUTCOME_KEYS = {
    Outcome.COMPLETED: "completed",
    Outcome.FAILED: "failed",
    Outcome.NO_GRAPH_OBSERVED: "no_graph_observed",
    Outcome.UNKNOWN: "unknown_outcomes",
    Outcome.UNRESOLVED: "unresolved_outcomes",
}


class CountAccumulator:
    def __init__(self) -> None:
        self.values = dict.fromkeys(COUNT_KEYS, 0)
        self.sites: set[str] = set()
        self.compile_time_s = 0.0
        self.phases: dict[str, float] = {}

    def add(self, comp: Compilation) -> None:
        v = self.values
        v["observed_compilation_identities"] += 1
        self.compile_time_s += comp.phase_times.get("entire_frame_compile_time_s", 0.0)
        for phase, seconds in compilation_phases(comp.phase_times).items():
            self.phases[phase] = self.phases.get(phase, 0.0) + seconds
        v["observed_attempts"] += max(len(comp.attempts), 1)
        v[_OUTCOME_KEYS[Outcome(comp.outcome)]] += 1
        if comp.recompile is not None and comp.recompile.confirmed:
            v["confirmed_recompilation_identities"] += 1
            v["confirmed_successful_recompilations"] += int(comp.outcome == Outcome.COMPLETED)
            v["guard_reason_entries"] += len(comp.recompile.reasons)
        v["additional_frame_compilations"] += int(comp.additional_frame_compilation)
        v["graph_break_records"] += len(comp.graph_breaks)
        self.sites.update(gb.site for gb in comp.graph_breaks if gb.site is not None)
        v["compiler_limit_events"] += len(comp.limit_events)
        v["restarts"] += comp.restart_count
        v["backward_compilations"] += int(comp.aot is not None and comp.aot.backward_compiled)
        for event in comp.cache_events:
            if event.decision == CacheDecision.HIT:
                v["cache_hits"] += 1
            elif event.decision == CacheDecision.MISS:
                v["cache_misses"] += 1

    def counts(self, incomplete: Iterable[str] = ()) -> Counts:
        return Counts(
            **{**self.values, "unique_graph_break_sites": len(self.sites)},
            compile_time_s=round(self.compile_time_s, 6),
            phase_times_s=sum_phases([self.phases]),
            incomplete=sorted(set(incomplete)),
        )


def count_compilations(compilations: Iterable[Compilation], incomplete: Iterable[str] = ()) -> Counts:
    accumulator = CountAccumulator()
    for comp in compilations:
        accumulator.add(comp)
    return accumulator.counts(incomplete)
