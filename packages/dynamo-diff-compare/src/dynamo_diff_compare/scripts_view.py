"""A run's own scripts beside its report, in one answer: the captured files its compiled functions and their call
paths are in (the source snapshots taken when the run ended), whole and numbered, as many as fit a bound; the
others named with their length. The front ends say how to read one left out. Where several runs are listed in one
answer, a script that differs in a few lines from one an earlier run of the answer showed (a before/after pair) is
said as those lines."""

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
    """The scripts an answer listing several runs has shown whole so far: (run label, snapshot path, content)."""

    shown: list[tuple[str, str, str]] = field(default_factory=list)


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


def scripts_text(scripts: list[Script], read_one: str, earlier: ShownScripts | None = None, run: str = "") -> str:
    """`scripts of this run (...)`, then each shown file under a line of its own and each left out named;
    `read_one` is the front end's words for reading a file, with `{file}` in them. `earlier`: the scripts earlier
    runs of the same answer showed (this run's, labelled `run`, are added to it); a script a few lines away from
    one of them is said as those lines."""
    if not scripts:
        return "scripts of this run: none captured (a bare trace keeps none unless they were beside it at import)"
    out = ["scripts of this run (as captured, not the working tree; blank lines left out):"]
    for s in scripts:
        changes = _as_changes(s, earlier, read_one) if s.text is not None else None
        if changes is not None:
            out += changes
            continue
        if s.text is not None:
            if earlier is not None and s.content:
                earlier.shown.append((run, s.snapshot, s.content))
            out += [f"-- {s.snapshot} ({s.lines} lines)", s.text]
        else:
            out.append(
                f"-- {s.snapshot} ({s.lines} lines): left out, over {SCRIPTS_CHARS:,} characters in all; "
                + read_one.format(file=s.snapshot)
            )
    return "\n".join(out)
