"""What the code change was: for each function whose definition differs between two runs' source snapshots, a
unified diff of its lines (a function added or removed shows whole)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from dynamo_diff_match.identities import SourceFunction
from dynamo_diff_match.snapshots import SnapshotSet

# Context lines around each change, as `diff -u`.
CONTEXT = 3


@dataclass(frozen=True)
class FunctionDiff:
    """One function's change: where it is in each run (None: not in that run) and the unified diff lines."""

    qualified_name: str
    baseline: str | None  # "path.py:first_line"
    candidate: str | None
    lines: list[str]


def _pairs(base: SnapshotSet, cand: SnapshotSet) -> list[tuple[str, str]]:
    """Files of both runs paired: the same captured absolute path, else the same relative path."""
    by_abs = {a: rel for a, rel in cand.paths.items() if rel in cand.files}
    pairs: dict[str, str] = {}
    for absolute, rel in base.paths.items():
        if rel in base.files and absolute in by_abs:
            pairs[rel] = by_abs[absolute]
    for rel in base.files:
        if rel not in pairs and rel in cand.files:
            pairs[rel] = rel
    return sorted(pairs.items())


def _defined(snapshots: SnapshotSet, rel: str, names: set[str]) -> dict[str, SourceFunction]:
    """The functions of a file among `names` (by qualified name; the first definition of a repeated name)."""
    found: dict[str, SourceFunction] = {}
    for f in snapshots.functions(rel):
        if f.kind == "function" and f.qualified_name in names:
            found.setdefault(f.qualified_name, f)
    return found


def _span(snapshots: SnapshotSet, rel: str, f: SourceFunction | None) -> list[str]:
    return [] if f is None else snapshots.lines(rel)[f.first_line - 1 : f.last_line]


def source_diff(base: SnapshotSet, cand: SnapshotSet, names: Iterable[str]) -> list[FunctionDiff]:
    """The functions among `names` (qualified names, e.g. the compiled functions of a comparison) whose lines
    differ between the runs' snapshots of the same file: in candidate source order, then the removed ones."""
    wanted = set(names)
    out: list[tuple[tuple[str, int, int], FunctionDiff]] = []
    for brel, crel in _pairs(base, cand):
        if base.files[brel] == cand.files[crel]:
            continue
        bfuncs, cfuncs = _defined(base, brel, wanted), _defined(cand, crel, wanted)
        for name in bfuncs.keys() | cfuncs.keys():
            b, c = bfuncs.get(name), cfuncs.get(name)
            before, after = _span(base, brel, b), _span(cand, crel, c)
            if before == after:
                continue
            lines = list(
                difflib.unified_diff(
                    before,
                    after,
                    fromfile=f"baseline/{brel}" if b else "/dev/null",
                    tofile=f"candidate/{crel}" if c else "/dev/null",
                    n=CONTEXT,
                    lineterm="",
                )
            )
            lines = [_shift(line, b, c) if line.startswith("@@") else line for line in lines]
            where_b = f"{brel}:{b.first_line}" if b else None
            where_c = f"{crel}:{c.first_line}" if c else None
            order = (crel, 0, c.first_line) if c else (brel, 1, b.first_line if b else 0)
            out.append((order, FunctionDiff(name, where_b, where_c, lines)))
    return [diff for _, diff in sorted(out, key=lambda item: item[0])]


def _shift(header: str, b: SourceFunction | None, c: SourceFunction | None) -> str:
    """A hunk header with file line numbers instead of lines counted from the function's first line."""
    parts = header.split(" ")  # "@@ -1,5 +1,7 @@"
    if len(parts) < 4:
        return header

    def moved(part: str, f: SourceFunction | None) -> str:
        sign, rest = part[0], part[1:]
        start, _, count = rest.partition(",")
        if f is None or not start.isdigit():
            return part
        shifted = int(start) + f.first_line - 1 if int(start) else 0
        return f"{sign}{shifted}" + (f",{count}" if count else "")

    return " ".join([parts[0], moved(parts[1], b), moved(parts[2], c), *parts[3:]])
