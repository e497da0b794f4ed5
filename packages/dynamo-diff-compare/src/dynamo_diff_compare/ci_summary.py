"""What a test run or a CI job shows of a verdict: a snapshot verdict as a pytest failure prints it
(`snapshot_verdict_text`), as a row of the CI summary (`snapshot_verdict_markdown`), the gate's verdict as markdown
(`check_markdown`, what `dynamo-diff check --format markdown` writes) and the summary of several verdicts
(`summary_markdown`, what the pytest plugin's report writes)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.lists import joined
from dynamo_diff_schema.results import CheckVerdict
from dynamo_diff_schema.snapshot import SnapshotChange, SnapshotVerdict

# Evidence ids shown per change (the rest are counted).
SHOWN_EVIDENCE = 3
_MARK = {"regression": "+", "improvement": "-", "info": "~"}
_STATUS = {True: "passed", False: "FAILED"}


def _evidence(ids: list[str]) -> str:
    if not ids:
        return ""
    return f" (evidence {joined(ids, SHOWN_EVIDENCE, more=', {n} more')})"


def snapshot_verdict_text(verdict: SnapshotVerdict, *, trace: str | None = None) -> str:
    """The verdict as a pytest failure (or a passing test's report line) prints it: the outcome, then one line per
    change with its evidence ids ('+' regression, '-' improvement, '~' other), then where the evidence is."""
    lines = [f"compile snapshot {_STATUS[verdict.passed]}: {verdict.summary}"]
    if verdict.upgrade and verdict.changes:
        lines.append(
            f"  the snapshot was taken on torch {verdict.snapshot_torch}, this run used {verdict.run_torch}: "
            "the changes below came with the upgrade"
        )
    lines.extend(f"  {_MARK[c.effect]} {c.text}{_evidence(c.evidence_ids)}" for c in verdict.changes)
    lines.extend(f"  paired {p.snapshot} with {p.run} ({p.method.replace('_', ' ')})" for p in verdict.paired)
    if verdict.capture is not None and any(c.evidence_ids for c in verdict.changes):
        lines.append(
            f"  evidence ids are of capture {short_id(verdict.capture)}" + (f", kept at {trace}" if trace else "")
        )
    elif trace:
        lines.append(f"  trace kept at {trace}")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _change_cell(changes: Iterable[SnapshotChange]) -> str:
    shown = [f"{_MARK[c.effect]} {_cell(c.text)}{_cell(_evidence(c.evidence_ids))}" for c in changes]
    return "<br>".join(shown) or "—"


@dataclass(frozen=True)
class SummaryRow:
    """One line of a CI summary: what was checked (a test id, a pair), whether it passed, what it found (one
    entry per finding) and where its evidence is."""

    name: str
    passed: bool
    check: str
    findings: list[str] = field(default_factory=list)
    evidence: str = ""


def snapshot_row(verdict: SnapshotVerdict, *, name: str | None = None, evidence: str = "") -> SummaryRow:
    """A snapshot verdict as a summary row (`name`: default the verdict's test)."""
    findings = [f"{verdict.summary}"] + [
        f"{_MARK[c.effect]} {c.text}{_evidence(c.evidence_ids)}" for c in verdict.changes
    ]
    where = evidence or (f"capture {short_id(verdict.capture)}" if verdict.capture else "")
    return SummaryRow(name or verdict.test or "?", verdict.passed, "snapshot", findings, where)


def check_row(verdict: CheckVerdict, *, name: str | None = None) -> SummaryRow:
    """A gate's verdict as a summary row: its failed findings (every finding when it passed is noise: none)."""
    findings = [f.text.removeprefix("FAIL ").strip() for f in verdict.findings if f.level == "fail"]
    findings += [line.strip() for f in verdict.findings if f.level == "fail" for line in f.functions]
    pair = f"{short_id(verdict.baseline)} -> {short_id(verdict.candidate)}"
    return SummaryRow(name or pair, verdict.passed, "check", findings, f"captures {pair}")


def snapshot_verdict_markdown(verdict: SnapshotVerdict, *, name: str | None = None, evidence: str = "") -> str:
    """One row of the CI summary's table (`summary_markdown`'s header)."""
    return _row(snapshot_row(verdict, name=name, evidence=evidence))


def _row(row: SummaryRow) -> str:
    status = "✅ passed" if row.passed else "❌ FAILED"
    findings = "<br>".join(_cell(f) for f in row.findings) or "—"
    return f"| `{_cell(row.name)}` | {row.check} | {status} | {findings} | {_cell(row.evidence) or '—'} |"


_HEADER = ("| test | check | verdict | what changed | evidence |", "|---|---|---|---|---|")


def summary_markdown(rows: Iterable[SummaryRow], *, title: str = "Compile behaviour") -> str:
    """The CI summary of several verdicts: a head line with the counts, then the failed rows first, each a table
    row with what it found and where its evidence is."""
    rows = list(rows)
    failed = sum(1 for r in rows if not r.passed)
    head = f"### {title}: " + (f"{failed} of {len(rows)} FAILED" if failed else f"{len(rows)} passed")
    if not rows:
        return f"### {title}: nothing was checked\n"
    ordered = sorted(rows, key=lambda r: r.passed)  # stable: failures first, each group in the order given
    return "\n".join([head, "", *_HEADER, *(_row(r) for r in ordered)]) + "\n"


def check_markdown(verdict: CheckVerdict) -> str:
    """`dynamo-diff check --format markdown`: the gate's verdict and every finding (the same as its text), for a
    CI job's summary."""
    status = "✅ passed" if verdict.passed else "❌ FAILED"
    lines = [
        f"### dynamo-diff check: {status}",
        "",
        f"Baseline `{short_id(verdict.baseline)}`, candidate `{short_id(verdict.candidate)}`"
        + (f"; rules that fired: {', '.join(f'`{r}`' for r in verdict.fired)}" if verdict.fired else "")
        + ".",
        "",
        "| | rule | finding |",
        "|---|---|---|",
    ]
    icon = {"ok": "✅", "fail": "❌", "warn": "⚠️", "info": "ℹ️"}  # noqa: RUF001
    for finding in verdict.findings:
        text = finding.text
        for word in ("FAIL ", "ok   ", "ok  ", "warn ", "info "):
            if text.startswith(word):
                text = text[len(word) :]
                break
        detail = "".join(f"<br>{_cell(line.strip())}" for line in finding.functions)
        lines.append(f"| {icon[finding.level]} | `{finding.rule}` | {_cell(text.strip())}{detail} |")
    return "\n".join(lines) + "\n"
