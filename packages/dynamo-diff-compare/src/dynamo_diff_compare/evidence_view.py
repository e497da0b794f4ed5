"""The evidence index as lines of text: one entry a line, the file they share said once."""

from __future__ import annotations

from collections.abc import Sequence

from dynamo_diff_schema import EvidenceEntry


def index_lines(entries: Sequence[EvidenceEntry]) -> tuple[str | None, list[str]]:
    """The one file every entry is in (None: several), and each entry's line: `u1-e40 guard_added_fast 0/2
    CappedMLP.forward: guard Eq(zf91, 4.0) (line 1999)` (`FILE:1999` when they are in several files); a summary's
    own leading compile id is left out (the line says it)."""
    files = {e.file for e in entries}
    one = next(iter(files)) if len(files) == 1 else None
    lines = []
    for e in entries:
        rank = f" rank {e.rank}" if e.rank is not None else ""
        about = f" {e.function}" if e.function else ""
        summary = e.summary or ""
        if e.compile_id and summary.startswith(f"{e.compile_id} "):
            summary = summary[len(e.compile_id) + 1 :]
        said = f": {summary}" if summary else ""
        where = f"line {e.line}" if one else f"{e.file}:{e.line}"
        lines.append(f"{e.id} {e.kind}{rank} {e.compile_id or '-'}{about}{said} ({where})")
    return one, lines
