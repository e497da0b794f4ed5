"""A CI verdict from a comparison: first whether both runs compiled something and finished, then thresholds on what
got worse, each failed check naming the functions that crossed it with the first failing guard or graph break and its
evidence.

A run that stopped early has fewer compilations, so it looks like an improvement: a run that did not finish
fails the gate unless `allow_incomplete` is given (and that is printed). A run that compiled nothing has every count
0, which passes every threshold: it fails the gate unless `allow_empty` is given."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dynamo_diff_schema.capture import RunStatus
from dynamo_diff_schema.comparison import Area, Change, Comparison, FunctionRow, Verdict
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.lists import head, joined
from dynamo_diff_schema.results import CheckFinding, CheckLevel, CheckVerdict
from dynamo_diff_schema.suggestions import Suggestion

from dynamo_diff_compare.compiled import compiled_line
from dynamo_diff_compare.render import row_name, side_count
from dynamo_diff_compare.suggestions import suggestion_brief
from dynamo_diff_compare.verdict_text import coming_with, difference_phrase

# Functions listed under a failed check (the rest are counted).
SHOWN_FUNCTIONS = 5


_WORD = {"ok": "ok  ", "fail": "FAIL", "warn": "warn", "info": "info"}


@dataclass(frozen=True)
class GateResult:
    """The verdict and what each rule found, in the order the gate printed them."""

    passed: bool
    findings: list[CheckFinding] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        """The verdict as the CLI prints it: a head line, then each finding with the functions behind it."""
        return check_lines(self.passed, self.findings)

    @property
    def fired(self) -> list[str]:
        return list(dict.fromkeys(f.rule for f in self.findings if f.level == "fail"))


def check_lines(passed: bool, findings: list[CheckFinding]) -> list[str]:
    out = ["dynamo-diff check: " + ("passed" if passed else "FAILED")]
    for finding in findings:
        out.append(finding.text)
        out.extend(finding.functions)
    return out


def check_text(verdict: CheckVerdict) -> str:
    """A check document as `dynamo-diff check` prints it."""
    return "\n".join(check_lines(verdict.passed, verdict.findings))


def _finding(level: CheckLevel, rule: str, text: str, functions: list[str] | None = None) -> CheckFinding:
    return CheckFinding(level=level, rule=rule, text=f"{_WORD[level]} {text}", functions=functions or [])


def _short(text: str, limit: int = 160) -> str:
    line = " ".join(text.strip().split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _evidence(ids: list[str]) -> str:
    return f" (evidence {joined(ids, 3)})" if ids else ""


def _first(row: FunctionRow, kinds: tuple[str, ...], grew: Callable[[Change], bool]) -> Change | None:
    return next((c for c in row.changes if c.kind in kinds and grew(c)), None)


def _recompile_detail(row: FunctionRow) -> str:
    def grew(c: Change) -> bool:
        before = (c.baseline or {}).get("failing_guards", 0) if isinstance(c.baseline, dict) else 0
        after = (c.candidate or {}).get("failing_guards", 0) if isinstance(c.candidate, dict) else 0
        return bool(after > before)

    change = _first(row, ("recompile_reason",), grew)
    if change is None or not isinstance(change.candidate, dict):
        return ""
    examples = change.candidate.get("examples") or []
    text = f"'{_short(str(examples[0]))}'" if examples else "(text not in the trace)"
    return f"; first failing guard [{change.candidate.get('category')}]: {text}{_evidence(change.candidate_evidence)}"


def _break_detail(row: FunctionRow) -> str:
    change = _first(row, ("graph_break_new", "graph_break_moved"), lambda c: True)
    if change is None:
        return ""
    # Whole: the sites, torch's type with the operator and its hint (the terminal wraps it).
    return f"; {' '.join(change.summary.split())}{_evidence(change.candidate_evidence)}"


def _failure_detail(row: FunctionRow) -> str:
    change = _first(row, ("failure_new",), lambda c: True)
    if change is None:
        return ""
    return f"; {_short(change.summary)}{_evidence(change.candidate_evidence)}"


def _regressions(comparison: Comparison, key: str, detail: Callable[[FunctionRow], str]) -> list[str]:
    rows = [r for r in comparison.functions if r.deltas.get(key, 0) > 0]
    rows.sort(key=lambda r: -r.deltas.get(key, 0))
    lines = []
    shown_rows, rest = head(rows, SHOWN_FUNCTIONS)
    for row in shown_rows:
        before = side_count(row.baseline, key) if row.baseline else "0"
        after = side_count(row.candidate, key) if row.candidate else "0"
        lines.append(f"       {row_name(row)}: {before} -> {after}{detail(row)}")
        briefs = [f"         {suggestion_brief(s)}" for s in _row_suggestions(row, key)]
        lines += list(dict.fromkeys(briefs))
    if rest:
        lines.append(f"       ... and {rest} more function(s)")
    return lines


# The suggestion kinds about a gated count (compare._GREW keeps the same table for the rows).
_ABOUT = {
    "confirmed_recompilation_identities": {
        "mark_dynamic",
        "dtype_device",
        "grad_mode",
        "dynamic_scalar",
        "create_once",
        "recompile_limit",
    },
    "graph_break_records": {"graph_break"},
    "failed": {"suppressed_failure", "graph_break"},
}


def _row_suggestions(row: FunctionRow, key: str) -> list[Suggestion]:
    return [s for s in row.suggestions if str(s.kind) in _ABOUT.get(key, set())]


def _suggestions(comparison: Comparison, key: str) -> list[Suggestion]:
    rows = sorted((r for r in comparison.functions if r.deltas.get(key, 0) > 0), key=lambda r: -r.deltas.get(key, 0))
    return [s for row in rows[:SHOWN_FUNCTIONS] for s in _row_suggestions(row, key)]


def _run_lines(comparison: Comparison, allow_incomplete: bool) -> tuple[list[CheckFinding], bool]:
    lines: list[CheckFinding] = []
    failed = False
    for side_name, side in (("baseline", comparison.baseline), ("candidate", comparison.candidate)):
        run: RunStatus | None = side.run
        if run is None:
            lines.append(_finding("warn", "run", f"run: the {side_name}'s run status is not known to this comparison"))
        elif run.finished is False:
            if allow_incomplete:
                lines.append(
                    _finding(
                        "warn",
                        "run",
                        f"run: the {side_name} did not finish: {run.summary} (allowed by --allow-incomplete)",
                    )
                )
            else:
                failed = True
                lines.append(
                    _finding(
                        "fail",
                        "run",
                        f"run: the {side_name} did not finish: {run.summary}; its counts may be low "
                        "(--allow-incomplete compares anyway)",
                    )
                )
        elif run.finished is None:
            lines.append(_finding("warn", "run", f"run: the {side_name}'s {run.summary}"))
        else:
            lines.append(_finding("ok", "run", f"run: the {side_name} {run.summary}"))
    return lines, failed


def _compiled_lines(comparison: Comparison, allow_empty: bool) -> tuple[list[CheckFinding], bool]:
    """A side that compiled nothing (no frame, or no graph) fails: its counts are 0, which passes every threshold."""
    lines: list[CheckFinding] = []
    failed = False
    for side_name, side in (("baseline", comparison.baseline), ("candidate", comparison.candidate)):
        said = compiled_line(side.compiled, side_name)
        if said is None:
            continue
        if allow_empty:
            lines.append(_finding("warn", "compiled", f"compiled: {said} (allowed by --allow-empty)"))
        else:
            failed = True
            lines.append(_finding("fail", "compiled", f"compiled: {said} (--allow-empty compares anyway)"))
    return lines, failed


def evaluate(
    comparison: Comparison,
    *,
    max_new_recompiles: int | None = None,
    max_new_graph_breaks: int | None = None,
    fail_on_new_failures: bool = False,
    fail_on_confounded: bool = False,
    allow_incomplete: bool = False,
    allow_empty: bool = False,
) -> GateResult:
    """Checks run on the totals (every row counts, matched or not); a failed check lists the functions whose
    count grew. A bound of None is not checked. A side that compiled nothing fails first unless `allow_empty`,
    then a run that did not finish unless `allow_incomplete`."""
    b, c = comparison.totals.baseline, comparison.totals.candidate
    empty_lines, empty = _compiled_lines(comparison, allow_empty)
    lines, failed = _run_lines(comparison, allow_incomplete)
    lines = empty_lines + lines
    failed = failed or empty
    if comparison.kind == "comparison" and comparison.baseline.id == comparison.candidate.id:
        lines.append(
            _finding(
                "warn",
                "same_capture",
                f"same capture: the baseline and the candidate are both {short_id(comparison.baseline.id)}: every "
                "delta is zero by construction",
            )
        )
    gated: set[Area] = set()

    def check(
        rule: str, name: str, key: str, bound: int | None, area: Area, detail: Callable[[FunctionRow], str]
    ) -> None:
        nonlocal failed
        before, after = getattr(b, key), getattr(c, key)
        new = after - before
        if bound is None:
            lines.append(_finding("info", rule, f"{name}: {before} -> {after} (not checked)"))
            return
        gated.add(area)
        if new > bound:
            failed = True
            text = f"{name}: {before} -> {after} (+{new}, allowed +{bound})"
            found = _finding("fail", rule, text, _regressions(comparison, key, detail))
            lines.append(found.model_copy(update={"suggestions": _suggestions(comparison, key)}))
        else:
            lines.append(_finding("ok", rule, f"{name}: {before} -> {after} ({new:+d}, allowed +{bound})"))

    check(
        "recompilations",
        "confirmed recompilations",
        "confirmed_recompilation_identities",
        max_new_recompiles,
        Area.RECOMPILATIONS,
        _recompile_detail,
    )
    check("graph_breaks", "graph breaks", "graph_break_records", max_new_graph_breaks, Area.GRAPH_BREAKS, _break_detail)
    new_failures = [row for row in comparison.functions if any(ch.kind == "failure_new" for ch in row.changes)]
    if fail_on_new_failures:
        gated.add(Area.FAILURES)
    if fail_on_new_failures and (new_failures or c.failed > b.failed):
        failed = True
        lines.append(
            _finding(
                "fail",
                "failures",
                f"failed compilations: {b.failed} -> {c.failed}",
                _regressions(comparison, "failed", _failure_detail),
            ).model_copy(update={"suggestions": _suggestions(comparison, "failed")})
        )
    else:
        level: CheckLevel = "ok" if fail_on_new_failures else "info"
        lines.append(_finding(level, "failures", f"failed compilations: {b.failed} -> {c.failed}"))

    comp = comparison.comparability
    if comp.verdict == Verdict.CONFOUNDED:
        relevant = [d for d in comp.differences if gated & set(d.affects)]
        shown = joined([f"{d.key}{coming_with(comp, d)}" for d in relevant or comp.differences], 5, sep="; ")
        if relevant:
            areas = ", ".join(sorted({str(a) for d in relevant for a in d.affects} & {str(a) for a in gated}))
            if fail_on_confounded:
                failed = True
                lines.append(
                    _finding("fail", "comparability", f"comparability: confounded ({shown}), which can change {areas}")
                )
            else:
                lines.append(
                    _finding(
                        "warn",
                        "comparability",
                        f"comparability: confounded ({shown}), which can change {areas}: the deltas may not come "
                        "from your change",
                    )
                )
        else:
            areas = ", ".join(sorted({str(a) for d in comp.differences for a in d.affects}))
            lines.append(
                _finding(
                    "info",
                    "comparability",
                    f"comparability: confounded ({shown}), which can change only {areas}: not gated here",
                )
            )
    elif comp.verdict == Verdict.UNKNOWN:
        lines.append(
            _finding(
                "info", "comparability", f"comparability: unknown (not checked: {joined(comp.missing, 3, sep='; ')})"
            )
        )
    else:
        intended = joined(
            [f"; the change under test: {difference_phrase(d)}{coming_with(comp, d)}" for d in comp.intended], 4, sep=""
        )
        lines.append(
            _finding(
                "info", "comparability", f"comparability: comparable ({len(comp.checked)} keys checked equal{intended})"
            )
        )
    return GateResult(passed=not failed, findings=lines)
