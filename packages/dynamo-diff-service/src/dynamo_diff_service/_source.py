"""Finding a compiled function's captured source: by co_name, qualified name or FILE:LINE."""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass

from dynamo_diff_compare import user_sources
from dynamo_diff_match import FunctionRef, SnapshotSet, SourceFunction, function_span, locate, qualified_name
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
    compiled: bool = True  # False: defined in a captured file, not compiled in this run
    line: int | None = None  # asked for as FILE:LINE
    name: str | None = None  # its qualified name; for a line, the function holding it

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
        defined = _defined(snapshots, function, codes)
        if defined:
            return defined
        shown = short_id(capture.capture.id)
        compiled_names = {
            name for code in codes.values() for name in _names(code, snapshots) if name and ":" not in name
        }
        every = compiled_names | {
            f.qualified_name for rel in snapshots.files for f in snapshots.functions(rel) if "<" not in f.qualified_name
        }
        near = _nearest(function, sorted(every))
        raise DynamoDiffError(
            ErrorCode.UNKNOWN_FUNCTION,
            f"no function {function!r} compiled or defined in the captured files of capture {shown}"
            + (f"; nearest: {', '.join(near)}" if near else "")
            + " (a name, Class.method, or FILE:LINE)",
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


_FILE_LINE = re.compile(r"^(?P<file>.+\.py):(?P<line>\d+)$")


def _defined(snapshots: SnapshotSet, function: str, codes: dict[tuple[str, int], CodeLocation]) -> list[SourceLocation]:
    """A function or method defined in a captured file (`main`, `Trainer.fit`), or FILE:LINE (the lines around it,
    the function holding it named), found in the snapshots' text (parsed, never run) when no compiled function
    is called so."""
    absolute = {rel: path for path, rel in snapshots.paths.items()}
    compiled = {(snapshots.rel_path(file), line) for file, line in codes}

    def location(
        rel: str, first: int, last: int, name: str | None, is_compiled: bool, line: int | None = None
    ) -> SourceLocation:
        text = snapshots.files[rel]
        return SourceLocation(
            co_filename=absolute.get(rel, rel),
            co_firstlineno=first,
            snapshot=rel,
            first_line=first,
            last_line=last,
            sha256=hashlib.sha256(text.encode()).hexdigest(),
            text=text,
            compiled=is_compiled,
            line=line,
            name=name,
        )

    def is_compiled(rel: str, f: SourceFunction) -> bool:
        return (rel, f.first_line) in compiled or (rel, f.def_line) in compiled

    m = _FILE_LINE.match(function)
    if m is not None:
        rel = find_file(snapshots.files, snapshots.paths, m["file"])
        if rel is None:
            return []
        line = int(m["line"])
        total = len(snapshots.lines(rel))
        if not 1 <= line <= max(total, 1):
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"{function!r}: the captured {rel} has {total} lines")
        holding = [f for f in snapshots.functions(rel) if f.kind != "class" and f.first_line <= line <= f.last_line]
        inner = max(holding, key=lambda f: f.first_line, default=None)
        name = inner.qualified_name if inner is not None else "module level"
        return [location(rel, line, line, name, inner is not None and is_compiled(rel, inner), line)]
    found = []
    for rel in sorted(snapshots.files):
        for f in snapshots.functions(rel):
            if f.kind != "lambda" and function in (f.qualified_name, f.name):
                found.append(location(rel, f.first_line, f.last_line, f.qualified_name, is_compiled(rel, f)))
    return found


def _nearest(wanted: str, names: list[str]) -> list[str]:
    """The names most like `wanted` (close spellings, then names that hold it or its last part), at most 8."""
    tail = wanted.rsplit(".", 1)[-1].lower()
    close = difflib.get_close_matches(wanted, names, n=6, cutoff=0.5)
    holding = [n for n in names if len(tail) >= 3 and tail in n.lower()]
    return list(dict.fromkeys(close + holding))[:8]


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
