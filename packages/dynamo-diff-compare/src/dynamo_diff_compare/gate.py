"""A CI verdict from a comparison: thresholds on what got worse, with a short reason per failed check."""

from __future__ import annotations

from dataclasses import dataclass, field

from dynamo_diff_schema.comparison import Comparison, Verdict


@dataclass(frozen=True)
class GateResult:
    passed: bool
    lines: list[str] = field(default_factory=list)


def evaluate(
    comparison: Comparison,
    *,
    max_new_recompiles: int | None = None,
    max_new_graph_breaks: int | None = None,
    fail_on_new_failures: bool = False,
    fail_on_confounded: bool = False,
) -> GateResult:
    """Checks run on the totals (every row counts, matched or not). A bound of None is not checked."""
    b, c = comparison.totals.baseline, comparison.totals.candidate
    lines: list[str] = []
    failed = False

    def check(name: str, before: int, after: int, bound: int | None) -> None:
        nonlocal failed
        new = after - before
        if bound is None:
            lines.append(f"info {name}: {before} -> {after} (not checked)")
        elif new > bound:
            failed = True
            lines.append(f"FAIL {name}: {before} -> {after} (+{new}, allowed +{bound})")
        else:
            lines.append(f"ok   {name}: {before} -> {after} ({new:+d}, allowed +{bound})")

    check(
        "confirmed recompilations",
        b.confirmed_recompilation_identities,
        c.confirmed_recompilation_identities,
        max_new_recompiles,
    )
    check("graph breaks", b.graph_break_records, c.graph_break_records, max_new_graph_breaks)
    new_failures = [ch.summary for row in comparison.functions for ch in row.changes if ch.kind == "failure_new"]
    if fail_on_new_failures and (new_failures or c.failed > b.failed):
        failed = True
        lines.append(
            f"FAIL failed compilations: {b.failed} -> {c.failed}"
            + (f" ({'; '.join(new_failures[:3])})" if new_failures else "")
        )
    else:
        lines.append(f"{'ok  ' if fail_on_new_failures else 'info'} failed compilations: {b.failed} -> {c.failed}")
    verdict = comparison.comparability.verdict
    if verdict == Verdict.CONFOUNDED:
        keys = ", ".join(d.key for d in comparison.comparability.differences[:5])
        if fail_on_confounded:
            failed = True
            lines.append(f"FAIL comparability: confounded ({keys})")
        else:
            lines.append(f"warn comparability: confounded ({keys}); deltas may not come from your change")
    else:
        lines.append(f"info comparability: {verdict}")
    lines.insert(0, "dynamo-diff check: " + ("FAILED" if failed else "passed"))
    return GateResult(passed=not failed, lines=lines)
