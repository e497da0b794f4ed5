"""What the report is given besides the comparison: each run's compilations and source snapshots, as read by the
caller (the renderer never opens the store)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dynamo_diff_match import SnapshotSet
from dynamo_diff_schema.compilation import Compilation

from dynamo_diff_compare.hint_words import PLAIN_HINTS, HintWords


@dataclass(frozen=True)
class RunMaterial:
    """One side of the report: the compilations of the run (of the rank, in a rank view), in the order the trace
    holds them, and its source snapshots (None when the run kept none: a bare trace)."""

    compilations: Sequence[Compilation] = ()
    sources: SnapshotSet | None = None


@dataclass(frozen=True)
class ReportMaterial:
    """`excerpts` maps 'baseline:<evidence id>' / 'candidate:<evidence id>' to evidence text the caller read
    (hash-checked) from the store; `hints` words the next steps the page suggests (set by comparison_html)."""

    excerpts: Mapping[str, str] = field(default_factory=dict)
    baseline: RunMaterial = field(default_factory=RunMaterial)
    candidate: RunMaterial = field(default_factory=RunMaterial)
    hints: HintWords = field(default_factory=lambda: PLAIN_HINTS)

    def side(self, name: str) -> RunMaterial:
        return self.baseline if name == "baseline" else self.candidate
