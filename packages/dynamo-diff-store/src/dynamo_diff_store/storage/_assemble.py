"""Assemble per-rank results into one Capture document, written to disk piece by piece.

The document's header, counts, functions and notices are built in memory; its compilations and evidence are
copied from the ranks' work files into capture.json and the index without being held all at once
(`_capture_file` owns both formats).
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
)
from dynamo_diff_schema.counts import sum_counts
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity
from dynamo_diff_schema.manifest import Manifest, Producer

from dynamo_diff_store.analysis import RankResult, TraceState, run_status
from dynamo_diff_store.reading import InputLayout, judge
from dynamo_diff_store.storage._capture_file import EvidenceRow, evidence_rows, write_capture


@dataclass(frozen=True)
class AssembledCapture:
    """`summary` is the Capture without compilations and evidence; `ranks` hold those, in the summary's order."""

    summary: Capture
    ranks: Sequence[RankResult]

    def write(self, path: Path) -> str:
        """Write the whole Capture document as JSON to `path`; returns its sha256."""
        return write_capture(path, self.summary, self.ranks)

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
) -> AssembledCapture:
    if not any(r.records or r.record_kinds for r in results):
        noise = sum(r.noise_lines for r in results)
        where = layout.files[0].rel if layout.kind == "raw_log" else str(layout.root)
        raise DynamoDiffError(
            ErrorCode.MALFORMED_INPUT,
            f"{where} holds no trace records ({noise} line(s), none of them a TORCH_TRACE record): is this the "
            "right file?",
            noise_lines=noise,
        )
    ranks = sorted(
        results, key=lambda r: (r.rank.rank is None, r.rank.rank if r.rank.rank is not None else 0, r.rank.files)
    )
    notices = list(layout_notices)
    for result in ranks:
        notices.extend(result.notices)
    provenance, completion, reasons = judge(manifest, files, bundle_prefix="")
    # A compilation that started and never finished means the trace stops early, even at a record boundary.
    partial = any(r.partial or r.unfinished for r in ranks)
    if partial:
        reasons.insert(0, "PARTIAL: the trace was cut or evidence is missing; counts may be low")
    kinds: Counter[str] = Counter()
    for result in ranks:
        kinds.update(result.record_kinds)
    torch_versions = sorted({r.torch_version for r in ranks if r.torch_version})
    if len(torch_versions) > 1:
        notices.append(
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
        cut_files=[(r.rank.rank, file, line) for r in ranks for file, line in r.cut_files],
        unfinished=[(r.rank.rank, compile_id) for r in ranks for compile_id in r.unfinished],
        evidence_missing=any(r.evidence_missing for r in ranks),
    )
    summary = Capture(
        capture=CaptureInfo(
            id=capture_id,
            label=label,  # the store decides (a bundle's own label unless another capture has it)
            imported_at=imported_at,
            input_kind=InputKind(layout.kind),
            reader_version=reader_version,
            producer=producer,
            run=run_status(manifest, provenance, trace),
            validity=Validity(
                artifact_structure=ArtifactStructure.PARTIAL if partial else ArtifactStructure.COMPLETE,
                workload_completion=completion,
                provenance=provenance,
                reasons=reasons,
            ),
            manifest=manifest,
            observed_config=observed_configs(ranks),
            record_kinds=dict(sorted(kinds.items())),
            noise_lines=sum(r.noise_lines for r in ranks),
        ),
        counts=sum_counts(r.rank.counts for r in ranks),
        ranks=[r.rank for r in ranks],
        notices=notices,
    )
    return AssembledCapture(summary=summary, ranks=ranks)


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
        members.append(result.rank.rank)
    return [
        ObservedConfig(rank=members[0], ranks=members, values=values, devices=devices)
        for values, devices, members in entries.values()
    ]
