"""The start of a compilation: `dynamo_start`, whose stack says which frame is compiled and who called it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dynamo_diff_store.analysis._facts import Fact, StartStack
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, body
from dynamo_diff_store.reading import Record

# Frames kept below the compiled one (the caller search looks at the innermost ones first; deeper ones are rare).
_CALLER_FRAMES = 64


def stack_top(body: Any) -> StartStack | None:
    """The innermost frame of a dynamo_start stack (filename or intern index, function name, first line) and the
    frames below it, innermost last: (filename or intern index, line, name)."""
    stack = body.get("stack") if isinstance(body, dict) else None
    if not (isinstance(stack, list) and stack and isinstance(stack[-1], dict)):
        return None
    top = stack[-1]
    filename = top.get("filename")
    name = top.get("name")
    first_line = top.get("line")
    below = []
    locs = []
    for frame in stack[-1 - _CALLER_FRAMES : -1]:
        if isinstance(frame, dict) and isinstance(fn := frame.get("filename"), int | str):
            line, fname, loc = frame.get("line"), frame.get("name"), frame.get("loc")
            below.append((fn, line if isinstance(line, int) else None, fname if isinstance(fname, str) else None))
            locs.append(loc.strip()[:300] if isinstance(loc, str) and loc.strip() else None)
    outer = stack[0]
    entry = outer.get("filename") if isinstance(outer, dict) and outer.get("name") == "<module>" else None
    return StartStack(
        filename if isinstance(filename, int | str) else None,
        name if isinstance(name, str) else None,
        tuple(below),
        first_line if isinstance(first_line, int) and not isinstance(first_line, bool) else None,
        entry if isinstance(entry, int | str) and not isinstance(entry, bool) else None,
        tuple(locs),
    )


def _start_files(rec: Record) -> Iterable[int | str]:
    stack = body(rec).get("stack")
    if isinstance(stack, list):
        for frame in stack:
            if isinstance(frame, dict) and isinstance(name := frame.get("filename"), int | str):
                yield name


def _fold_start(folding: Folding, fact: Fact, ident: Identity) -> None:
    ident.starts += 1
    evidence_id = folding.evidence(fact, fact.kind, ident)
    if ident.start_evidence is None:
        ident.start_evidence = evidence_id
    if fact.data is not None:
        ident.start_top = (fact.file, fact.data)


DYNAMO_START = RecordKind(
    "dynamo_start", extract=lambda rec: stack_top(rec.body), fold=_fold_start, files=_start_files, starts=True
)
