"""How compile time reads and when a change in it counts: '0.42 s -> 0.31 s (-26%)', '(noise)', '+?' for a sum with a
compilation that never finished (docs/SEMANTICS.md, "Compile time")."""

from __future__ import annotations

from collections.abc import Mapping

from dynamo_diff_schema.counts import COMPILE_PHASES, Counts


def phase_times_text(phases: Mapping[str, float]) -> str:
    """'Dynamo 0.12 s, AOT/backend 0.40 s, Inductor 1.10 s, code gen 2.00 s' (the phases that took time)."""
    labels = {key: label for key, label, _ in COMPILE_PHASES}
    return ", ".join(f"{labels[key]} {value:.2f} s" for key, value in phases.items() if key in labels)


# A compile-time change smaller than this (relative, or under COMPILE_TIME_FLOOR_S seconds) is noise. Measured on
# the fixtures, the same workload recorded twice: 21.08 s vs 19.38 s (8%; observed_on/off), 0.17 s vs 0.23 s
# (+34% but 0.06 s; midrun_complete/again).
COMPILE_TIME_NOISE = 0.25
COMPILE_TIME_FLOOR_S = 0.1


def compile_time_text(counts: Counts) -> str:
    """'0.28 s', with '+?' when a compilation has no compilation_metrics (it never finished): its time is not in
    the sum."""
    return f"{counts.compile_time_s:.2f} s" + ("+?" if counts.unknown_outcomes else "")


def compile_time_noise(before: float, after: float) -> bool:
    """A compile-time change within COMPILE_TIME_NOISE (relative) or under COMPILE_TIME_FLOOR_S seconds."""
    return abs(after - before) < COMPILE_TIME_FLOOR_S or bool(
        before and abs(after - before) / before < COMPILE_TIME_NOISE
    )


def compile_time_change(before: float, after: float, *, cut: tuple[bool, bool] = (False, False)) -> str:
    """'0.42 s -> 0.31 s (-26%)', or with '(noise)' when the change is within COMPILE_TIME_NOISE. `cut`: a side
    with a compilation that never finished (its time is in no sum): that side reads '0.31 s+?' and no change is
    judged, since the sum is only a lower bound ('1.07 s -> 0.31 s+?', never '-72%')."""
    if any(cut):
        return f"{before:.2f} s{'+?' if cut[0] else ''} -> {after:.2f} s{'+?' if cut[1] else ''}"
    text = f"{before:.2f} s -> {after:.2f} s"
    if before == after:
        return f"{after:.2f} s"
    if compile_time_noise(before, after):
        return text + " (noise)"
    return text + (f" ({(after - before) / before:+.0%})" if before else "")
