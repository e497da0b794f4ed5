"""Finding a compiled function's captured source: by co_name, qualified name or FILE:LINE."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from dynamo_diff_compare import user_sources
from dynamo_diff_match import FunctionRef, SnapshotSet, function_span, locate, qualified_name
from dynamo_diff_schema import Capture, CodeLocation, DynamoDiffError, ErrorCode, Hint, HintAction, short_id
from dynamo_diff_store import Store

# Lines shown when a snapshot no longer parses around the function (a stale or edited snapshot).
_FALLBACK_LINES = 40


@dataclass(frozen=True)
class SourceLocation:
    """One compiled function's lines in the run's captured snapshot (never the working-tree file)."""

    co_filename: str
    co_firstlineno: int
    snapshot: str  # the snapshot's path inside the capture
    first_line: int
    last_line: int
    sha256: str  # of the whole snapshot text
    text: str  # the whole snapshot

    @property
    def lines(self) -> list[tuple[int, str]]:
        """(number, text) of the function's lines."""
        all_lines = self.text.splitlines()
        return [(n, all_lines[n - 1]) for n in range(self.first_line, self.last_line + 1) if n - 1 < len(all_lines)]


def _names(code: CodeLocation, snapshots: SnapshotSet) -> set[str | None]:
    """What a user may call a function: its co_name, its qualified name (read from the captured snapshot, as
    compare shows it: `Net.forward`), its file:line."""
    assert code.co_filename is not None and code.co_firstlineno is not None
    observed = FunctionRef(code.co_filename, code.co_firstlineno, code.co_name or "?")
    found = locate(observed, snapshots)
    return {
        code.co_name,
        code.qualified_name,
        qualified_name(observed, found) if found is not None else None,
        f"{code.co_filename}:{code.co_firstlineno}",
        f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}",
    }


def find_source(store: Store, capture: Capture, function: str) -> list[SourceLocation]:
    """Every compiled function of the capture that `function` names, with its captured lines.
    Raises DynamoDiffError(unknown_function) when none does."""
    snapshots = user_sources(*store.source_files(capture))
    codes = {
        (c.code.co_filename, c.code.co_firstlineno): c.code
        for rank in capture.ranks
        for c in rank.compilations
        if c.code.co_filename is not None and c.code.co_firstlineno is not None
    }
    locations = sorted(key for key, code in codes.items() if function in _names(code, snapshots))
    if not locations:
        shown = short_id(capture.capture.id)
        raise DynamoDiffError(
            ErrorCode.UNKNOWN_FUNCTION,
            f"no compiled function {function!r} in capture {shown}",
            hint=Hint(action=HintAction.ANALYZE_CAPTURE, args={"capture": shown}),
        )
    found = []
    for co_filename, first_line in locations:
        assert co_filename is not None and first_line is not None
        snapshot, text = store.source_snapshot(capture.capture.id, co_filename)
        span = function_span(text, first_line) or (
            first_line,
            min(first_line + _FALLBACK_LINES - 1, len(text.splitlines())),
        )
        found.append(
            SourceLocation(
                co_filename=co_filename,
                co_firstlineno=first_line,
                snapshot=snapshot,
                first_line=span[0],
                last_line=span[1],
                sha256=hashlib.sha256(text.encode()).hexdigest(),
                text=text,
            )
        )
    return found


def find_file(files: dict[str, str], paths: dict[str, str], wanted: str) -> str | None:
    """The snapshot path a user's PATH names: a snapshot's own relative path, the absolute path the process saw,
    or a path ending with it (whole components). Raises DynamoDiffError(invalid_argument) when several fit."""
    if wanted in files:
        return wanted
    if wanted in paths:
        return paths[wanted]
    tail = wanted.replace("\\", "/").strip("/")
    fits = sorted(
        {rel for rel in files if rel == tail or rel.endswith("/" + tail) or tail.endswith("/" + rel)}
        | {rel for absolute, rel in paths.items() if absolute.endswith("/" + tail)}
    )
    if len(fits) > 1:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT, f"{wanted!r} names several captured files: {', '.join(fits[:8])}"
        )
    return fits[0] if fits else None


def missing_file(capture: Capture, wanted: str, files: dict[str, str]) -> DynamoDiffError:
    """No snapshot of that file: say which files the capture holds."""
    held = ", ".join(sorted(files)[:10]) or "none"
    return DynamoDiffError(
        ErrorCode.MISSING_SNAPSHOT,
        f"capture {short_id(capture.capture.id)} has no source snapshot of {wanted!r} (its snapshots: {held})",
        hint=Hint(action=HintAction.RECORD_WITH_CAPTURE) if not files else None,
    )
