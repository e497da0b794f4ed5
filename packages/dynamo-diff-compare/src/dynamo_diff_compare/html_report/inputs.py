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


# The records a compilation links to, in the order its row lists them, with the link's words: the graphs Dynamo,
# AOTAutograd and Inductor made, the guards, and the code Inductor generated (docs/COMPARING.md, "Reports").
LINKED_RECORDS: dict[str, str] = {
    "dynamo_output_graph": "graph",
    "aot_joint_graph": "AOT joint graph",
    "aot_forward_graph": "AOT forward graph",
    "aot_backward_graph": "AOT backward graph",
    "aot_inference_graph": "AOT inference graph",
    "inductor_post_grad_graph": "post-grad graph",
    "dynamo_cpp_guards_str": "guards",
    "inductor_output_code": "generated code",
}


@dataclass(frozen=True)
class RecordText:
    """A stored record a compilation links to: its kind, and its first characters as read (hash-checked) from the
    store (`text` holds `len(text)` of `total_chars`); `text` None: not embedded, the page's budget was spent."""

    kind: str
    compile_id: str
    text: str | None = None
    total_chars: int = 0


@dataclass(frozen=True)
class Excerpt:
    """A record's text as the page shows it: condensed as the evidence command prints it (`text`: its library stack
    frames one line a run, its embedded configuration left out; the first characters, `total_chars` in all), what
    that left out (`frames`, `config_chars`), and the record's first characters as written (`raw`, the same
    number; None when condensing changed nothing)."""

    text: str
    raw: str | None = None
    total_chars: int = 0
    frames: int = 0
    config_chars: int = 0
    record_chars: int | None = None


@dataclass(frozen=True)
class ReportMaterial:
    """`excerpts` maps 'baseline:<evidence id>' / 'candidate:<evidence id>' to evidence text the caller read
    (hash-checked) from the store; `records`, keyed the same way, the graph, guard and generated-code records of
    the compilations (LINKED_RECORDS), whose compile ids the caller looked them up for are `records_of`
    ('baseline:<compile id>'); `hints` words the next steps the page suggests (set by comparison_html)."""

    excerpts: Mapping[str, str | Excerpt] = field(default_factory=dict)
    baseline: RunMaterial = field(default_factory=RunMaterial)
    candidate: RunMaterial = field(default_factory=RunMaterial)
    hints: HintWords = field(default_factory=lambda: PLAIN_HINTS)
    records: Mapping[str, RecordText] = field(default_factory=dict)
    records_of: frozenset[str] = frozenset()

    def side(self, name: str) -> RunMaterial:
        return self.baseline if name == "baseline" else self.candidate
