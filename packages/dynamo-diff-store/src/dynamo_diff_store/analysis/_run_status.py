"""How a recorded run ended: from what `capture` recorded (the manifest), what its observer saw, and whether
the trace itself is whole. A run that stopped early has fewer compilations and recompilations, so every view
says this first and a CI gate never passes a run that did not finish."""

from __future__ import annotations

import re
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dynamo_diff_schema.capture import Provenance, RunState, RunStatus
from dynamo_diff_schema.lists import head
from dynamo_diff_schema.manifest import Manifest

from dynamo_diff_store.analysis._stages import record_stage

# Reasons capture wrote before the manifest had `interrupted` (schema 2.0).
_INTERRUPTED_REASONS = ("interrupted", "capture was terminated")


@dataclass(frozen=True)
class TraceState:
    """What the trace files say about their own end, per rank."""

    cut_files: Sequence[tuple[int | None, str, int | None]] = ()  # (rank, file, line where it ends mid-record)
    unfinished: Sequence[tuple[int | None, str]] = ()  # (rank, compile id started and never finished)
    # (rank, compile id) of those -> the kind of the last record torch wrote for it
    unfinished_last: Mapping[tuple[int | None, str], str] = field(default_factory=dict)
    evidence_missing: bool = False


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _where(rank: int | None) -> str:
    return "" if rank is None else f"rank {rank}: "


def run_status(manifest: Manifest | None, provenance: Provenance, trace: TraceState) -> RunStatus:
    reasons: list[str] = []
    exit_code: int | None = None
    sig: str | None = None
    exception: str | None = None
    if manifest is None:
        source = "none"
        state = RunState.UNKNOWN
        headline = "workload status unknown: a bare trace does not record how the program ended"
    else:
        source = "capture" if provenance == Provenance.VERIFIED else "manifest"
        work = manifest.workload
        exit_code = work.exit_code
        exception = _exception(manifest)
        reason = work.incomplete_reason or ""
        if work.interrupted or (work.interrupted is None and reason.startswith(_INTERRUPTED_REASONS)):
            state, headline = RunState.INTERRUPTED, reason or "interrupted while the command ran"
        elif work.signal is not None or (exit_code is not None and exit_code < 0):
            sig = work.signal or signal_name(-(exit_code or 0))
            state, headline = RunState.KILLED, f"killed by {sig}"
        elif exit_code is not None and exit_code != 0:
            state, headline = RunState.EXITED, f"exited with code {exit_code}"
        elif work.completed is False:
            state, headline = RunState.EXITED, reason or "the manifest declares the workload not completed"
        elif work.completed is True and exit_code == 0 and provenance == Provenance.VERIFIED:
            state, headline = RunState.COMPLETED, "completed (exit code 0)"
        else:
            state = RunState.UNKNOWN
            headline = "workload status unknown: the manifest does not declare completion with verified trace hashes"
        if exception and state in (RunState.EXITED, RunState.KILLED):
            headline += f" after an uncaught {_one_line(exception)}"
        if work.command:
            reasons.append(f"command: {' '.join(work.command)[:300]}")
    workload_failed = state in (RunState.EXITED, RunState.KILLED, RunState.INTERRUPTED)
    trace_cut = bool(trace.cut_files or trace.unfinished)
    for rank, file, line in trace.cut_files:
        reasons.append(f"{_where(rank)}{file} ends mid-record" + (f" at line {line}" if line else ""))
    unfinished, more = head(trace.unfinished, 10)
    for rank, compile_id in unfinished:
        last = trace.unfinished_last.get((rank, compile_id))
        got = f"; last record {last}, {record_stage(last)} stage" if last else ""
        reasons.append(
            f"{_where(rank)}compilation {compile_id} started and never finished (no compilation_metrics{got}): "
            "the process stopped while compiling, or the trace was cut there"
        )
    if more:
        reasons.append(f"... and {more} more unfinished compilation(s)")
    if trace.evidence_missing:
        reasons.append("evidence is missing (payload files or rejected records): counts may be low")
    summary = headline
    if trace_cut:
        cut = "trace cut: " + (
            f"{trace.cut_files[0][1]} ends mid-record"
            if trace.cut_files
            else f"compilation {trace.unfinished[0][1]} never finished"
        )
        if workload_failed:
            summary = f"{headline}; {cut}"
        else:
            state, summary = RunState.TRACE_CUT, cut + (f" ({headline})" if state == RunState.UNKNOWN else "")
    elif trace.evidence_missing and not workload_failed:
        state, summary = RunState.PARTIAL, "evidence missing (payload files or rejected records): counts may be low"
    finished = True if state == RunState.COMPLETED else None if state == RunState.UNKNOWN else False
    return RunStatus(
        state=state,
        finished=finished,
        summary=summary,
        exit_code=exit_code,
        signal=sig,
        exception=exception,
        trace_cut=trace_cut,
        evidence_missing=trace.evidence_missing,
        source=source,
        reasons=reasons,
    )


def _one_line(exception: str, limit: int = 200) -> str:
    """An exception for the one-line summary (the whole text stays in `RunStatus.exception`): its first line, and
    when that is only the type (torchrun's `ChildFailedError:` and its boxed report), the first line of the
    message that is not a rule of '=' or '-'."""
    lines = [line.strip() for line in exception.splitlines()]
    words = [line for line in lines if line and line.strip("=-")]
    text = words[0] if words else ""
    if text.endswith(":") and len(words) > 1:
        text = f"{text} {words[1]}"
    # Where it was raised (`(/.../site-packages/torch/_ops.py:875)`, capture's own suffix) is kept whole, its path
    # from the package on; the message is what is cut.
    where = ""
    if (m := _RAISED_AT.search(text)) is not None:
        path = m["path"].split("site-packages/", 1)[-1] if "site-packages/" in m["path"] else m["path"]
        where, text = (
            f" (raised at {path.rsplit('/', 1)[-1] if path.startswith('/') else path}:{m['line']})",
            text[: m.start()],
        )
    room = limit - len(where)
    return (text if len(text) <= room else text[: room - 1] + "…") + where


_RAISED_AT = re.compile(r"\s*\((?P<path>[^()\s]+\.py):(?P<line>\d+)\)$")


def _exception(manifest: Manifest) -> str | None:
    observed = manifest.observed
    if observed is None:
        return None
    # The command's own process comes first (capture orders them so).
    return next((p.exception for p in observed.processes if p.exception), None)


def legacy_run_status(document: dict[str, Any]) -> dict[str, Any]:
    """The run status of a capture stored by an earlier reader (before captures carried one), from what it
    does hold: its manifest, provenance and the `truncated` notices."""
    info = document.get("capture", {})
    manifest_data = info.get("manifest")
    manifest = Manifest.model_validate(manifest_data) if isinstance(manifest_data, dict) else None
    validity = info.get("validity", {})
    notices = document.get("notices", [])
    cut = [
        (n.get("rank"), str(n.get("details", {}).get("file", "?")), n.get("details", {}).get("line"))
        for n in notices
        if n.get("code") == "truncated"
    ]
    missing = any(n.get("code") in ("missing_payload", "malformed_records") for n in notices)
    provenance = Provenance(validity.get("provenance", Provenance.UNVERIFIED))
    status = run_status(manifest, provenance, TraceState(cut_files=cut, evidence_missing=missing))
    return status.model_dump(mode="json")
