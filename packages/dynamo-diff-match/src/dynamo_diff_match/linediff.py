"""Where the lines of one snapshot went in another: a bounded difflib diff, queried line by line."""

from __future__ import annotations

import bisect
import difflib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

# A snapshot longer than this is not diffed (its functions can still match by structure).
MAX_DIFF_LINES = 100_000
# Bound on difflib's work: after trimming the common head and tail, the number of (before, after) line pairs
# with equal text in the rest, which is what one longest-match pass of SequenceMatcher walks.
MAX_DIFF_WORK = 2_000_000


class DiffLimitError(Exception):
    """The diff was not attempted; the message says which limit was hit."""


@dataclass(frozen=True)
class Image:
    """Where a `before` line went in `after` (1-based). `line` is its new line when it is unchanged, else None;
    `lo..hi` (inclusive) is where it may be: the new line, or the lines that replaced it, or the two lines around
    the place it was deleted from; widened on request over lines inserted next to it."""

    line: int | None
    lo: int
    hi: int

    def __contains__(self, line: object) -> bool:
        return isinstance(line, int) and self.lo <= line <= self.hi


@dataclass(frozen=True)
class LineMap:
    """The opcodes of a diff from `before` to `after` (difflib's 0-based half-open ranges)."""

    opcodes: tuple[tuple[str, int, int, int, int], ...]
    after_len: int

    def image(self, line: int, *, widen: str = "") -> Image | None:
        """Where 1-based `line` of `before` went. `widen="up"` also admits lines inserted just above it (a new
        decorator or comment above a function's first line), `"down"` lines inserted just below it (statements
        appended after a function's last line). None when `line` is outside `before`."""
        i = line - 1
        # The opcode holding i: the last one starting at or before i that is not an empty insert.
        k = bisect.bisect_right(self._starts, i) - 1
        while k >= 0 and self.opcodes[k][1] == self.opcodes[k][2]:
            k -= 1
        if k < 0 or i >= self.opcodes[k][2]:
            return None
        tag, i1, i2, j1, j2 = self.opcodes[k]
        if tag == "equal":
            new: int | None = j1 + (i - i1) + 1
            lo = hi = j1 + (i - i1) + 1
        elif tag == "replace":
            new, lo, hi = None, j1 + 1, j2
        else:  # delete: the neighbours of the gap
            new, lo, hi = None, max(j1, 1), min(j1 + 1, self.after_len)
        if widen == "up" and i == i1 and k > 0 and self.opcodes[k - 1][0] == "insert":
            lo = min(lo, self.opcodes[k - 1][3] + 1)
        elif widen == "down" and i == i2 - 1 and k + 1 < len(self.opcodes) and self.opcodes[k + 1][0] == "insert":
            hi = max(hi, self.opcodes[k + 1][4])
        return Image(new, lo, hi)

    @cached_property
    def _starts(self) -> list[int]:
        return [op[1] for op in self.opcodes]


def line_map(before: Sequence[str], after: Sequence[str]) -> LineMap:
    """Diff two snapshots line by line. Raises DiffLimitError instead of doing unbounded work."""
    if max(len(before), len(after)) > MAX_DIFF_LINES:
        raise DiffLimitError(f"file has more than {MAX_DIFF_LINES} lines")
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    mid_a, mid_b = before[head : len(before) - tail], after[head : len(after) - tail]
    counts_b = Counter(mid_b)
    work = sum(counts_b[line] for line in mid_a)
    if work > MAX_DIFF_WORK:
        raise DiffLimitError(f"diff would take more than {MAX_DIFF_WORK} steps")
    ops: list[tuple[str, int, int, int, int]] = []
    if head:
        ops.append(("equal", 0, head, 0, head))
    if mid_a or mid_b:
        matcher = difflib.SequenceMatcher(None, mid_a, mid_b, autojunk=False)
        ops.extend((t, i1 + head, i2 + head, j1 + head, j2 + head) for t, i1, i2, j1, j2 in matcher.get_opcodes())
    if tail:
        ops.append(("equal", len(before) - tail, len(before), len(after) - tail, len(after)))
    return LineMap(tuple(ops), len(after))
