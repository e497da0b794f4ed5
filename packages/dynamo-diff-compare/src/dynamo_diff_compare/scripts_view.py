"""A run's own scripts beside its report, in one answer: the captured files its compiled functions and their call
paths are in (the source snapshots taken when the run ended), whole and numbered, as many as fit a bound; the
others named with their length. The front ends say how to read one left out. Where several runs are listed in one
answer, a script that differs in a few lines from one an earlier run of the answer showed (a before/after pair) is
said as those lines, and a run of lines an earlier script printed (code several scripts share) as one line naming
them."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from dynamo_diff_match import SnapshotSet
from dynamo_diff_schema.run_report import RunReport

# The scripts shown with one report, in characters (the rest are named).
SCRIPTS_CHARS = 16_000


@dataclass(frozen=True)
class Script:
    """A captured file: its path in the snapshot, its line count and, when shown, its numbered lines."""

    snapshot: str
    lines: int
    text: str | None
    content: str = field(default="", compare=False, repr=False)


def _snapshot_of(sources: SnapshotSet, file: str) -> str | None:
    """The snapshot path of a file a report names (a recorded path, or its end as the views print it)."""
    rel = sources.rel_path(file)
    if rel is not None:
        return rel
    tail = "/" + file.lstrip("/")
    found = [r for r in sources.files if ("/" + r).endswith(tail)]
    return found[0] if len(found) == 1 else None


def run_scripts(report: RunReport, sources: SnapshotSet, budget: int = SCRIPTS_CHARS) -> list[Script]:
    """The files the report's functions are defined in, then those their call paths run through and those the
    compilations started from, in that order, each once; each whole while they fit `budget` characters, the others
    with `text` None. When none of them is in the snapshot (every compiled function is torch's: a `@torch.no_grad()`
    function compiles as torch's wrapper), the snapshot's own files: it holds the user's scripts only."""
    named: list[str] = []
    for fn in report.functions:
        named.append(fn.file or "")
    for fn in report.functions:
        named += [frame.file for frame in fn.called_from if frame.file]
        named += [frame.file for c in fn.compilations for frame in c.called_from if frame.file]
        for c in fn.compilations:
            named += [frame.file for frame in (c.started_with, c.started_outer) if frame is not None and frame.file]
    found = [rel for f in named if f and (rel := _snapshot_of(sources, f)) is not None]
    if not found and report.functions:
        found = sorted(sources.files)
    out: list[Script] = []
    used = 0
    for rel in dict.fromkeys(found):
        lines = sources.files[rel].splitlines()
        width = len(str(len(lines)))
        text = "\n".join(f"{n:>{width}} | {line}" for n, line in enumerate(lines, 1) if line.strip())
        shown = used + len(text) <= budget
        used += len(text) if shown else 0
        out.append(Script(rel, len(lines), text if shown else None, sources.files[rel]))
    return out


@dataclass
class ShownScripts:
    """The scripts an answer listing several runs has shown whole so far: (run label, snapshot path, content), and
    of each the lines (0-based) it printed as they are (not said as the same as another's)."""

    shown: list[tuple[str, str, str]] = field(default_factory=list)
    literal: list[frozenset[int]] = field(default_factory=list)

    def add(self, run: str, snapshot: str, content: str, literal: frozenset[int] | None = None) -> None:
        self.shown.append((run, snapshot, content))
        self.literal.append(frozenset(range(len(content.splitlines()))) if literal is None else literal)


# A script is said as its changed lines when at most this share of its lines (at least one) changed; as the same
# when none did.
_CHANGED_SHARE = 0.25


def _changed_lines(old: str, new: str) -> list[str] | None:
    """`-  14 | old line` / `+  14 | new line` for each line that differs (each side's own numbers; none: the same
    file), or None when more than a quarter of the new file's lines changed."""
    a, b = old.splitlines(), new.splitlines()
    out: list[str] = []
    changed = 0
    width = len(str(max(len(a), len(b), 1)))
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        out += [f"-{n + 1:>{width}} | {a[n]}" for n in range(i1, i2)]
        out += [f"+{n + 1:>{width}} | {b[n]}" for n in range(j1, j2)]
        changed += max(i2 - i1, j2 - j1)
    if changed > max(1, int(len(b) * _CHANGED_SHARE)):
        return None
    return out


def _as_changes(s: Script, earlier: ShownScripts | None, read_one: str) -> list[str] | None:
    """The lines of `s` that differ from the most alike script an earlier run of the answer showed, under a line
    naming it; None when no earlier script is that close."""
    if earlier is None or not s.content:
        return None
    best: tuple[str, str, list[str]] | None = None
    for run, snapshot, content in earlier.shown:
        changes = _changed_lines(content, s.content)
        if changes is not None and (best is None or len(changes) < len(best[2])):
            best = (run, snapshot, changes)
    if best is None:
        return None
    run, snapshot, changes = best
    if not changes:
        return [f"-- {s.snapshot} ({s.lines} lines): the same as {snapshot} of {run} above"]
    return [
        f"-- {s.snapshot} ({s.lines} lines): {snapshot} of {run} above but for these lines (- its, + this run's; "
        f"the whole file: {read_one.format(file=s.snapshot)})",
        *changes,
    ]


# A run of lines another script of the answer printed is said as those lines when it is at least this long (lines,
# and characters of its lines that are not blank): shorter, the reference is about as long as the lines.
_SHARED_LINES = 5
_SHARED_CHARS = 160


def _shared_blocks(content: str, earlier: ShownScripts) -> list[tuple[int, int, str, str, int]]:
    """Runs of `content`'s lines that a script shown earlier in the answer printed as they are: (first line, line
    count, its run, its snapshot, its first line), 0-based, in order, none overlapping; the earliest script first."""
    new = content.splitlines()
    taken: set[int] = set()
    found: list[tuple[int, int, str, str, int]] = []
    for (run, snapshot, old), literal in zip(earlier.shown, earlier.literal, strict=True):
        matcher = difflib.SequenceMatcher(None, old.splitlines(), new, autojunk=False)
        for a, b, size in matcher.get_matching_blocks():
            span = range(b, b + size)
            if size < _SHARED_LINES or any(n in taken for n in span):
                continue
            if not all(n in literal for n in range(a, a + size)):
                continue
            if sum(len(new[n].strip()) for n in span) < _SHARED_CHARS:
                continue
            taken.update(span)
            found.append((b, size, run, snapshot, a))
    return sorted(found)


def _with_shared(s: Script, earlier: ShownScripts | None) -> tuple[list[str], frozenset[int]] | None:
    """`s` numbered (blank lines left out) with each run of lines an earlier script of the answer printed said as
    one line naming those lines (`29-52 | the same as lines 27-50 of smooth_ls.py of smooth_ls above`), and the
    lines printed as they are; None when it has no such run."""
    if earlier is None or not s.content:
        return None
    blocks = _shared_blocks(s.content, earlier)
    if not blocks:
        return None
    lines = s.content.splitlines()
    width = len(str(len(lines)))
    out: list[str] = []
    literal: set[int] = set()
    n = 0
    for start, size, run, snapshot, theirs in [*blocks, (len(lines), 0, "", "", 0)]:
        for k in range(n, start):
            if lines[k].strip():
                out.append(f"{k + 1:>{width}} | {lines[k]}")
                literal.add(k)
        if size:
            out.append(
                f"{start + 1:>{width}}-{start + size} | the same as lines {theirs + 1}-{theirs + size} of {snapshot} "
                f"of {run} above"
            )
        n = start + size
    return out, frozenset(literal)


def scripts_text(scripts: list[Script], read_one: str, earlier: ShownScripts | None = None, run: str = "") -> str:
    """`scripts of this run (...)`, then each shown file under a line of its own and each left out named;
    `read_one` is the front end's words for reading a file, with `{file}` in them. `earlier`: the scripts earlier
    runs of the same answer showed (this run's, labelled `run`, are added to it); a script a few lines away from
    one of them is said as those lines, and a run of lines one of them printed (a harness several scripts share)
    as one line naming them."""
    if not scripts:
        return "scripts of this run: none captured (a bare trace keeps none unless they were beside it at import)"
    # What the scripts are is said once an answer: a later run's say only that they follow.
    said = earlier is not None and bool(earlier.shown)
    out = [
        "scripts of this run:"
        if said
        else "scripts of this run (as captured, not the working tree; blank lines left out):"
    ]
    for s in scripts:
        changes = _as_changes(s, earlier, read_one) if s.text is not None else None
        if changes is not None:
            out += changes
            continue
        if s.text is not None and (shared := _with_shared(s, earlier)) is not None:
            numbered, literal = shared
            if earlier is not None:
                earlier.add(run, s.snapshot, s.content, literal)
            out += [f"-- {s.snapshot} ({s.lines} lines)", *numbered]
        elif s.text is not None:
            if earlier is not None and s.content:
                earlier.add(run, s.snapshot, s.content)
            out += [f"-- {s.snapshot} ({s.lines} lines)", s.text]
        else:
            out.append(
                f"-- {s.snapshot} ({s.lines} lines): left out, over {SCRIPTS_CHARS:,} characters in all; "
                + read_one.format(file=s.snapshot)
            )
    return "\n".join(out)
