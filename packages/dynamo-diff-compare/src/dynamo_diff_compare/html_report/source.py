"""A row's function in each run's source snapshot, and which of its lines differ between the two versions."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from dynamo_diff_match import SnapshotSet, function_span
from dynamo_diff_schema.comparison import FunctionSide
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.lists import head

from dynamo_diff_compare.hint_words import PLAIN_HINTS, HintWords, phrase

# Lines shown of one function (a longer one is cut, and the page says so).
MAX_LINES = 300
# Lines shown from the function's first line when the snapshot does not parse around it.
_FALLBACK_LINES = 40


@dataclass(frozen=True)
class SourceView:
    """The function's lines in one snapshot: `first_line` is the number of `lines[0]`; `changed` holds the line
    numbers that differ from the other version."""

    path: str
    first_line: int
    lines: list[str]
    cut: int = 0  # lines left off the end
    changed: frozenset[int] = field(default_factory=frozenset)

    @property
    def last_line(self) -> int:
        return self.first_line + len(self.lines) - 1


def function_source(
    side: FunctionSide, snapshots: SnapshotSet | None, hints: HintWords = PLAIN_HINTS
) -> SourceView | str:
    """The side's function in its snapshot, or a sentence saying why it cannot be shown (and, with `hints`' wording,
    how to keep the sources next time)."""
    if side.file is None or side.line is None:
        return "the trace does not say where this function is defined"
    if snapshots is None or not snapshots.files:
        record = phrase(Hint(action=HintAction.RECORD_WITH_CAPTURE), hints)
        return f"no source snapshot: this run was imported from a trace alone ({record})"
    rel = snapshots.rel_path(side.file)
    if rel is None:
        return f"no source snapshot of {side.file} in this run"
    text = snapshots.files[rel]
    all_lines = text.splitlines()
    first, last = function_span(text, side.line) or (side.line, side.line + _FALLBACK_LINES - 1)
    last = min(last, len(all_lines))
    if first > last:
        return f"line {side.line} is past the end of the snapshot {rel} (a stale snapshot?)"
    lines = all_lines[first - 1 : last]
    shown, cut = head(lines, MAX_LINES)
    return SourceView(rel, first, shown, cut)


def with_changes(baseline: SourceView, candidate: SourceView) -> tuple[SourceView, SourceView]:
    """Both versions with the lines that differ marked (a line diff of the two functions, blank lines included)."""
    a = [line.rstrip() for line in baseline.lines]
    b = [line.rstrip() for line in candidate.lines]
    changed_a: set[int] = set()
    changed_b: set[int] = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            changed_a.update(baseline.first_line + i for i in range(i1, i2))
            changed_b.update(candidate.first_line + j for j in range(j1, j2))
    return (
        SourceView(baseline.path, baseline.first_line, baseline.lines, baseline.cut, frozenset(changed_a)),
        SourceView(candidate.path, candidate.first_line, candidate.lines, candidate.cut, frozenset(changed_b)),
    )
