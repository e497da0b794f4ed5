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
# Bound on difflib's work, summed over the stretches it aligns: the number of (before, after) line pairs with
# equal text in each stretch, which is what one longest-match pass of SequenceMatcher walks.
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


def _code_lines(lines: Sequence[str]) -> list[int]:
    """0-based indexes of the lines that are neither blank nor only a comment. Only these are diffed, so blank
    lines and comments added or removed anywhere never move the alignment (a function's first and last lines,
    and Dynamo's resume lines, are always code lines)."""
    return [n for n, line in enumerate(lines) if (text := line.strip()) and not text.startswith("#")]


@dataclass(frozen=True)
class LineMap:
    """A diff of the code lines of `before` and `after`: difflib opcodes over the code-line sequences (0-based,
    half-open), and the original 0-based line index of each code line on each side."""

    opcodes: tuple[tuple[str, int, int, int, int], ...]
    before_code: tuple[int, ...]
    after_code: tuple[int, ...]

    def image(self, line: int, *, widen: str = "") -> Image | None:
        """Where 1-based `line` of `before` went. `widen="up"` also admits code lines inserted just above it (a new
        decorator above a function's first line), `"down"` those inserted just below it (statements appended after
        a function's last line). None when `line` is not a code line of `before`."""
        i = self._before_index.get(line - 1)
        if i is None:
            return None
        # The opcode holding i: the last one starting at or before i that is not an empty insert.
        k = bisect.bisect_right(self._starts, i) - 1
        while self.opcodes[k][1] == self.opcodes[k][2]:
            k -= 1
        tag, i1, i2, j1, j2 = self.opcodes[k]
        after = self.after_code
        new: int | None = None
        if tag == "equal":
            new = lo = hi = after[j1 + i - i1] + 1
        elif tag == "replace":
            lo, hi = after[j1] + 1, after[j2 - 1] + 1
        else:  # delete: between the code lines around the gap
            lo = after[j1 - 1] + 1 if j1 > 0 else 1
            hi = after[j1] + 1 if j1 < len(after) else lo
        if widen == "up" and i == i1 and k > 0 and self.opcodes[k - 1][0] == "insert":
            lo = min(lo, after[self.opcodes[k - 1][3]] + 1)
        elif widen == "down" and i == i2 - 1 and k + 1 < len(self.opcodes) and self.opcodes[k + 1][0] == "insert":
            hi = max(hi, after[self.opcodes[k + 1][4] - 1] + 1)
        return Image(new, lo, hi)

    @cached_property
    def _starts(self) -> list[int]:
        return [op[1] for op in self.opcodes]

    @cached_property
    def _before_index(self) -> dict[int, int]:
        return {n: i for i, n in enumerate(self.before_code)}


def line_map(before: Sequence[str], after: Sequence[str]) -> LineMap:
    """Diff two snapshots (as lists of lines) by their code lines. Raises DiffLimitError instead of doing
    unbounded work."""
    if max(len(before), len(after)) > MAX_DIFF_LINES:
        raise DiffLimitError(f"file has more than {MAX_DIFF_LINES} lines")
    before_code, after_code = _code_lines(before), _code_lines(after)
    a = [before[n].rstrip() for n in before_code]
    b = [after[n].rstrip() for n in after_code]
    blocks: list[tuple[int, int]] = []
    _match(a, b, 0, len(a), 0, len(b), 0, [MAX_DIFF_WORK], blocks)
    return LineMap(_opcodes(blocks, len(a), len(b)), tuple(before_code), tuple(after_code))


# Lines that occur once on each side anchor the alignment (as in "patience" diffs); difflib only aligns the
# stretches between anchors. This keeps files with many repeated lines (`return x`, `)`) cheap and keeps
# repeated lines from being paired across function boundaries.
MAX_ANCHOR_DEPTH = 8


def _match(
    a: list[str], b: list[str], alo: int, ahi: int, blo: int, bhi: int, depth: int, budget: list[int],
    out: list[tuple[int, int]],
) -> None:  # fmt: skip
    """Append the (i, j) pairs of equal lines of a[alo:ahi] and b[blo:bhi] to `out`, in order."""
    while alo < ahi and blo < bhi and a[alo] == b[blo]:
        out.append((alo, blo))
        alo, blo = alo + 1, blo + 1
    tail = 0
    while alo < ahi - tail and blo < bhi - tail and a[ahi - 1 - tail] == b[bhi - 1 - tail]:
        tail += 1
    ahi, bhi = ahi - tail, bhi - tail
    if alo < ahi and blo < bhi:
        anchors = _anchors(a, b, alo, ahi, blo, bhi) if depth < MAX_ANCHOR_DEPTH else []
        if anchors:
            for i, j in anchors:
                _match(a, b, alo, i, blo, j, depth + 1, budget, out)
                out.append((i, j))
                alo, blo = i + 1, j + 1
            _match(a, b, alo, ahi, blo, bhi, depth + 1, budget, out)
        else:
            counts = Counter(b[blo:bhi])
            budget[0] -= sum(counts[line] for line in a[alo:ahi])
            if budget[0] < 0:
                raise DiffLimitError(f"diff would take more than {MAX_DIFF_WORK} steps")
            matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
            for i, j, n in matcher.get_matching_blocks():
                out.extend((alo + i + k, blo + j + k) for k in range(n))
    out.extend((ahi + k, bhi + k) for k in range(tail))


def _anchors(a: list[str], b: list[str], alo: int, ahi: int, blo: int, bhi: int) -> list[tuple[int, int]]:
    """The longest in-order run of lines that occur exactly once in a[alo:ahi] and once in b[blo:bhi]."""
    count_a, count_b = Counter(a[alo:ahi]), Counter(b[blo:bhi])
    where_b = {b[j]: j for j in range(blo, bhi) if count_b[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi) if count_a[a[i]] == 1 and a[i] in where_b]
    # Longest increasing subsequence of the b positions (patience sorting).
    tops: list[int] = []  # b position ending the best run of each length
    ends: list[int] = []  # index into pairs of that run's last pair
    back: list[int] = []
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tops, j)
        back.append(ends[k - 1] if k else -1)
        if k == len(tops):
            tops.append(j)
            ends.append(n)
        else:
            tops[k], ends[k] = j, n
    run: list[tuple[int, int]] = []
    n = ends[-1] if ends else -1
    while n >= 0:
        run.append(pairs[n])
        n = back[n]
    return run[::-1]


def _opcodes(pairs: list[tuple[int, int]], len_a: int, len_b: int) -> tuple[tuple[str, int, int, int, int], ...]:
    """difflib-style opcodes from the in-order pairs of equal lines."""
    ops: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for pi, pj in [*pairs, (len_a, len_b)]:
        if pi > i or pj > j:
            tag = "replace" if pi > i and pj > j else "delete" if pi > i else "insert"
            ops.append((tag, i, pi, j, pj))
        if pi < len_a:
            if ops and ops[-1][0] == "equal" and ops[-1][2] == pi:
                ops[-1] = ("equal", ops[-1][1], pi + 1, ops[-1][3], pj + 1)
            else:
                ops.append(("equal", pi, pi + 1, pj, pj + 1))
        i, j = pi + 1, pj + 1
    return tuple(ops)
