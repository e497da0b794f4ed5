"""A row's `source` changes: the lines that changed in its function, in the functions that called it and in the
functions of its file it calls, read from the two runs' source snapshots (docs/COMPARING.md, "What changed in the
source")."""

from __future__ import annotations

from collections.abc import Iterable

from dynamo_diff_match import CodeChange, CodeSide, Frame, SnapshotSet, code_changes, defined_at
from dynamo_diff_schema.comparison import Change, ChangeKind, FunctionSide
from dynamo_diff_schema.compilation import Compilation

from dynamo_diff_compare.trusted import trusted

# Lines kept per side of one change in the document (the rest counted: a function rewritten whole is long; the
# source tool has its whole diff).
MAX_LINES = 8


def stack_frames(compilations: Iterable[Compilation]) -> list[Frame]:
    """The user frames below a function on its compilations' dynamo_start stacks, innermost first, each once
    with the records that name it."""
    found: dict[tuple[str, int, str], list[str]] = {}
    for comp in compilations:
        for frame in comp.code.callers:
            key = (frame.filename, frame.line or 0, frame.name or "?")
            ids = found.setdefault(key, [])
            if comp.code.callers_evidence and comp.code.callers_evidence not in ids:
                ids.append(comp.code.callers_evidence)
    return [Frame(file, line, name, tuple(ids)) for (file, line, name), ids in found.items()]


def _lines(numbered: list[tuple[int, str]]) -> list[dict[str, object]]:
    return [{"line": n, "text": text} for n, text in numbered[:MAX_LINES]]


def _side(side: CodeSide, numbered: list[tuple[int, str]], key: str) -> dict[str, object]:
    value: dict[str, object] = {
        "function": side.qualified_name,
        "file": side.rel_path,
        "first_line": side.first_line,
        "last_line": side.last_line,
        key: _lines(numbered),
    }
    if len(numbered) > MAX_LINES:
        value[f"{key}_more"] = len(numbered) - MAX_LINES
    if side.call_line is not None:
        value["call_line"] = side.call_line
    return value


def _where(b: CodeSide, c: CodeSide) -> str:
    if b.where == c.where:
        return b.where
    if b.rel_path == c.rel_path:
        return f"{b.where} -> {c.first_line}"
    return f"{b.where} -> {c.where}"


def _name(b: CodeSide, c: CodeSide) -> str:
    short_b, short_c = b.qualified_name.replace(".<locals>.", "."), c.qualified_name.replace(".<locals>.", ".")
    return short_b if short_b == short_c else f"{short_b} -> {short_c}"


def summary(change: CodeChange) -> str:
    """One line: what the code is to the compiled function, where it is in each run, how many lines changed."""
    b, c = change.baseline, change.candidate
    counts = f"{len(change.added)} line(s) added, {len(change.removed)} removed"
    if change.role == "function":
        return f"source changed ({_where(b, c)}): {counts}"
    if change.role == "callee":
        return f"source of {_name(b, c)} it calls changed ({_where(b, c)}): {counts}"
    call = ""
    if c.call_line is not None:
        call = (
            f", the call at line {c.call_line}"
            if b.call_line == c.call_line
            else (f", the call at line {b.call_line} -> {c.call_line}")
        )
    return f"source of the caller {_name(b, c)} changed ({_where(b, c)}{call}): {counts}"


def row_code_changes(
    sides: tuple[FunctionSide | None, FunctionSide | None],
    compilations: tuple[list[Compilation], list[Compilation]],
    sources: tuple[SnapshotSet, SnapshotSet],
) -> list[CodeChange]:
    """The code that changed around a row's function, with its unified diffs (empty unless both runs compiled it
    and a snapshot of some code around it differs)."""
    b, c = sides
    if b is None or c is None or b.generated is not None or c.generated is not None:
        return []
    base, cand = sources
    if not base.files or not cand.files:
        return []
    functions = (
        defined_at(base, b.file, b.line, b.qualified_name) if b.name_from == "source" else None,
        defined_at(cand, c.file, c.line, c.qualified_name) if c.name_from == "source" else None,
    )
    return code_changes(base, cand, functions, (stack_frames(compilations[0]), stack_frames(compilations[1])))


def source_changes(
    sides: tuple[FunctionSide | None, FunctionSide | None],
    compilations: tuple[list[Compilation], list[Compilation]],
    sources: tuple[SnapshotSet, SnapshotSet],
) -> list[Change]:
    """The row's `source` changes (see `row_code_changes`); evidence: the dynamo_start records whose stacks name a
    caller's call line."""
    found = row_code_changes(sides, compilations, sources)
    return [
        trusted(
            Change,
            kind=ChangeKind.SOURCE,
            summary=summary(change),
            baseline={"role": change.role, **_side(change.baseline, change.removed, "removed")},
            candidate={"role": change.role, **_side(change.candidate, change.added, "added")},
            baseline_evidence=list(change.baseline.evidence),
            candidate_evidence=list(change.candidate.evidence),
        )
        for change in found
    ]
