"""A run's own scripts beside its report, in one answer: the captured files its compiled functions and their call
paths are in (the source snapshots taken when the run ended), whole and numbered, as many as fit a bound; the
others named with their length. The front ends say how to read one left out."""

from __future__ import annotations

from dataclasses import dataclass

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
        text = "\n".join(f"{n:>{width}} | {line}" for n, line in enumerate(lines, 1))
        shown = used + len(text) <= budget
        used += len(text) if shown else 0
        out.append(Script(rel, len(lines), text if shown else None))
    return out


def scripts_text(scripts: list[Script], read_one: str) -> str:
    """`scripts of this run (...)`, then each shown file under a line of its own and each left out named;
    `read_one` is the front end's words for reading a file, with `{file}` in them."""
    if not scripts:
        return "scripts of this run: none captured (a bare trace keeps none unless they were beside it at import)"
    out = ["scripts of this run (as captured, not the working tree):"]
    for s in scripts:
        if s.text is not None:
            out += [f"-- {s.snapshot} ({s.lines} lines)", s.text]
        else:
            out.append(
                f"-- {s.snapshot} ({s.lines} lines): left out, over {SCRIPTS_CHARS:,} characters in all; "
                + read_one.format(file=s.snapshot)
            )
    return "\n".join(out)
