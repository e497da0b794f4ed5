"""Assemble per-rank results into one Capture document, written to disk piece by piece.

The document's header and totals are built in memory; each rank's summary, notices, compilations and evidence
are copied from the ranks' work files into capture.json, its summary (the document without compilations and
evidence) and the index, one rank at a time, so that the importing process does not grow with the number of
ranks or compilations (`_capture_file` owns the formats).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dynamo_diff_schema.capture import (
    ArtifactStructure,
    Capture,
    CaptureInfo,
    InputKind,
    ObservedConfig,
    Validity,
    compiled_status,
)
from dynamo_diff_schema.counts import Counts, sum_counts
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.manifest import Manifest, ObservedProcess, Producer, SourceFile

from dynamo_diff_store.analysis import RankResult, TraceState, run_status
from dynamo_diff_store.reading import InputLayout, judge
from dynamo_diff_store.storage._capture_file import (
    EvidenceRow,
    capture_without_evidence,
    evidence_rows,
    write_capture,
)


@dataclass(frozen=True)
class AssembledCapture:
    """`head` is the Capture without ranks, compilations and evidence, and with only the notices of the input's
    layout (`notices_before`) and of the job as a whole (`notices_after`); the ranks' own notices come between
    them, from the ranks' work files. `ranks` are in the document's order."""

    head: Capture
    ranks: Sequence[RankResult]
    notices_before: list[Notice]
    notices_after: list[Notice]

    def write(self, path: Path, summary_path: Path) -> str:
        """Write the whole Capture document as JSON to `path` and its summary to `summary_path`; returns the
        document's sha256."""
        return write_capture(path, summary_path, self.head, self.ranks, self.notices_before, self.notices_after)

    def without_evidence(self) -> Capture:
        """The whole Capture as `write` writes it, with its evidence list empty, made in memory."""
        return capture_without_evidence(self.head, self.ranks, self.notices_before, self.notices_after)

    def evidence_rows(self) -> Iterator[EvidenceRow]:
        return evidence_rows(self.ranks)


def assemble_capture(
    *,
    capture_id: str,
    layout: InputLayout,
    files: dict[str, str],
    results: Sequence[RankResult],
    manifest: Manifest | None,
    layout_notices: list[Notice],
    label: str | None,
    imported_at: str,
    reader_version: str,
    beside_sources: Sequence[SourceFile] = (),
) -> AssembledCapture:
    """`beside_sources`: the files found beside a bare log at import (its source snapshot, not recorded when it
    ran)."""
    require_records(layout, results, manifest)
    ranks = sorted(results, key=lambda r: (r.rank is None, r.rank if r.rank is not None else 0, r.files))
    attach_compile_starts(ranks, manifest)
    after: list[Notice] = []
    provenance, completion, reasons = judge(manifest, files, bundle_prefix="", has_traces=bool(layout.files))
    # A compilation that started and never finished means the trace stops early, even at a record boundary.
    partial = any(r.partial or r.unfinished for r in ranks)
    if partial:
        reasons.insert(0, "PARTIAL: the trace was cut or evidence is missing; counts may be low")
    kinds: Counter[str] = Counter()
    for result in ranks:
        kinds.update(result.record_kinds)
    torch_versions = sorted({r.torch_version for r in ranks if r.torch_version})
    if len(torch_versions) > 1:
        after.append(
            Notice(
                code=NoticeCode.MIXED_TORCH_VERSIONS,
                severity=Severity.WARNING,
                message=f"ranks report different torch versions: {', '.join(torch_versions)}",
            )
        )
    pythons = sorted({r.python_version for r in ranks if r.python_version})
    producer = manifest.producer if manifest is not None else Producer()
    producer = producer.model_copy(
        update={
            "torch": torch_versions[0] if torch_versions else producer.torch,
            "torch_git": next((r.torch_git for r in ranks if r.torch_git), producer.torch_git),
            "python": producer.python or (pythons[0] if pythons else None),
        }
    )
    trace = TraceState(
        cut_files=[(r.rank, file, line) for r in ranks for file, line in r.cut_files],
        unfinished=[(r.rank, compile_id) for r in ranks for compile_id in r.unfinished],
        unfinished_last={(r.rank, c): kind for r in ranks for c, kind in r.unfinished_last.items()},
        evidence_missing=any(r.evidence_missing for r in ranks),
    )
    counts = capture_counts(ranks)
    head = Capture(
        capture=CaptureInfo(
            id=capture_id,
            label=label,  # the store decides (a bundle's own label unless another capture has it)
            imported_at=imported_at,
            input_kind=InputKind(layout.kind),
            reader_version=reader_version,
            producer=producer,
            run=run_status(manifest, provenance, trace),
            compiled=compiled_status(counts, manifest),
            validity=Validity(
                artifact_structure=ArtifactStructure.PARTIAL if partial else ArtifactStructure.COMPLETE,
                workload_completion=completion,
                provenance=provenance,
                reasons=reasons,
                sources_found_beside=list(beside_sources),
            ),
            manifest=manifest,
            observed_config=observed_configs(ranks),
            entry_script=next((r.entry_script for r in ranks if r.entry_script), None),
            record_kinds=dict(sorted(kinds.items())),
            noise_lines=sum(r.noise_lines for r in ranks),
        ),
        counts=counts,
        ranks=[],
    )
    return AssembledCapture(head=head, ranks=ranks, notices_before=list(layout_notices), notices_after=after)


def attach_compile_starts(ranks: Sequence[RankResult], manifest: Manifest | None) -> None:
    """Give each rank the observer's compilation starts (`Compilation.started_with`) of the process with its rank:
    torch's compile id, '#n' added for its n-th repeat (after torch._dynamo.reset(), as the reader numbers them).
    A rank that more than one observed process with compilation starts claims gets none (which is whose is not
    known)."""
    observed = manifest.observed if manifest is not None else None
    if observed is None:
        return
    by_rank: dict[int | None, list[ObservedProcess]] = {}
    for process in observed.processes:
        if process.compile_starts:
            by_rank.setdefault(process.rank, []).append(process)
    for result in ranks:
        claimed = by_rank.get(result.rank, [])
        if len(claimed) != 1:
            continue
        seen: Counter[str] = Counter()
        found: dict[str, list[dict[str, Any]]] = {}
        for start in claimed[0].compile_starts:
            n = seen[start.compile_id]
            seen[start.compile_id] += 1
            key = start.compile_id if n == 0 else f"{start.compile_id}#{n}"
            found.setdefault(key, [frame.model_dump(mode="json") for frame in start.frames])
        result.started_with = found


def require_records(layout: InputLayout, results: Sequence[RankResult], manifest: Manifest | None) -> None:
    """Refuse an input that is no run's trace: trace files holding no record (`malformed_input`), or no trace file
    and no manifest recording how a command ended (`no_trace`)."""
    if not layout.files:
        _require_recorded_run(layout, manifest)
    elif not any(r.records or r.record_kinds for r in results):
        noise = sum(r.noise_lines for r in results)
        where = layout.files[0].rel if layout.kind == "raw_log" else str(layout.root)
        raise DynamoDiffError(
            ErrorCode.MALFORMED_INPUT,
            f"{where} holds no trace records ({noise} line(s), none of them a TORCH_TRACE record): is this the "
            "right file?",
            noise_lines=noise,
        )


def capture_counts(results: Sequence[RankResult]) -> Counts:
    """The capture's counts: its ranks' counts summed."""
    return sum_counts(r.summary().counts for r in results)


def _require_recorded_run(layout: InputLayout, manifest: Manifest | None) -> None:
    """A bundle without trace files is a capture of 0 compilations when its manifest records the run (how its
    command ended): capture found no trace file because the run compiled no frame. Without that record nothing
    says a run happened."""
    work = manifest.workload if manifest is not None else None
    if work is not None and (work.exit_code is not None or work.signal is not None or work.interrupted):
        return
    raise DynamoDiffError(
        ErrorCode.NO_TRACE,
        f"{layout.root} holds no trace file, and its manifest does not record how a command ended: nothing says a run "
        "happened",
        hint=Hint(action=HintAction.RECORD_RUN),
        path=str(layout.root),
    )


def observed_configs(ranks: Sequence[RankResult]) -> list[ObservedConfig]:
    """One entry per distinct set-up (configuration values and devices), with the ranks that observed it, in rank
    order. Ranks that observed the same values usually hold one shared dict (`SharedConfigs`), so each distinct dict
    is serialized once to find its entry, not each rank's few hundred settings."""
    entries: dict[str, tuple[dict[str, Any], list[str], list[int | None]]] = {}
    by_identity: dict[tuple[int, tuple[str, ...]], list[int | None]] = {}
    for result in ranks:
        if not (result.observed_config or result.devices):
            continue
        key = (id(result.observed_config), tuple(result.devices))
        members = by_identity.get(key)
        if members is None:
            text = json.dumps([result.observed_config, result.devices], sort_keys=True, default=repr)
            members = entries.setdefault(text, (result.observed_config, result.devices, []))[2]
            by_identity[key] = members
        members.append(result.rank)
    return [
        ObservedConfig(rank=members[0], ranks=members, values=values, devices=devices)
        for values, devices, members in entries.values()
    ]
