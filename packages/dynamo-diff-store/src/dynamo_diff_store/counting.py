"""Counts from classified compilations (DESIGN §5): identities, not attempts; confirmed recompiles only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dynamo_diff_schema.compilation import CacheDecision, Compilation, Outcome
from dynamo_diff_schema.counts import Counts


def count_compilations(compilations: Sequence[Compilation], incomplete: Iterable[str] = ()) -> Counts:
    outcomes = [c.outcome for c in compilations]
    confirmed = [c for c in compilations if c.recompile is not None and c.recompile.confirmed]
    sites = {gb.site for c in compilations for gb in c.graph_breaks if gb.site is not None}
    return Counts(
        observed_compilation_identities=len(compilations),
        observed_attempts=sum(max(len(c.attempts), 1) for c in compilations),
        completed=outcomes.count(Outcome.COMPLETED),
        failed=outcomes.count(Outcome.FAILED),
        no_graph_observed=outcomes.count(Outcome.NO_GRAPH_OBSERVED),
        unknown_outcomes=outcomes.count(Outcome.UNKNOWN),
        unresolved_outcomes=outcomes.count(Outcome.UNRESOLVED),
        confirmed_recompilation_identities=len(confirmed),
        confirmed_successful_recompilations=sum(1 for c in confirmed if c.outcome == Outcome.COMPLETED),
        additional_frame_compilations=sum(1 for c in compilations if c.additional_frame_compilation),
        guard_reason_entries=sum(len(c.recompile.reasons) for c in confirmed if c.recompile is not None),
        graph_break_records=sum(len(c.graph_breaks) for c in compilations),
        unique_graph_break_sites=len(sites),
        compiler_limit_events=sum(len(c.limit_events) for c in compilations),
        # A restart is an attempt after the first; torch also lists restart_reasons in the metrics.
        restarts=sum(max(len(c.attempts) - 1, len(c.restarts), 0) for c in compilations),
        cache_hits=sum(1 for c in compilations for e in c.cache_events if e.decision == CacheDecision.HIT),
        cache_misses=sum(1 for c in compilations for e in c.cache_events if e.decision == CacheDecision.MISS),
        incomplete=sorted(set(incomplete)),
    )
