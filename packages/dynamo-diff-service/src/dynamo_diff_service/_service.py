"""The operations the CLI and the MCP server share, over one store. Each returns schema models (or the store's
own results); rendering, paging and bounding a response are the caller's."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from dynamo_diff_compare import (
    ReportMaterial,
    RunMaterial,
    compare_captures,
    compare_ranks,
    evidence_summaries,
    run_report,
    user_sources,
)
from dynamo_diff_match import FunctionDiff, SnapshotSet, UserMap, load_user_map, source_diff
from dynamo_diff_schema import (
    Capture,
    Comparison,
    DynamoDiffError,
    ErrorCode,
    EvidenceEntry,
    GrepMatch,
    RunReport,
    short_id,
)
from dynamo_diff_store import CaptureRow, EvidenceExcerpt, ImportResult, Store

from dynamo_diff_service._export import ExportResult, check_target, export_parquet, require_pyarrow
from dynamo_diff_service._refs import looks_like_path
from dynamo_diff_service._source import SourceLocation, find_source

Progress = Callable[[str, int, int], None]
# Function names listed when a name is not found.
_NAMES_LISTED = 12
# grep reads a record whole up to this many characters; a matching line is shown up to this many.
_GREP_MAX_CHARS = 4_000_000
_GREP_LINE_CHARS = 300
_GREP_WINDOW = 120  # characters shown each side of a match inside a long line


class Confine(Protocol):
    """Turns a path reference into the path to read, or raises DynamoDiffError; `what` names the argument."""

    def __call__(self, given: str, *, what: str = "path") -> Path: ...


def _as_is(given: str, *, what: str = "path") -> Path:
    return Path(given).expanduser()


@dataclass
class Opened:
    """A capture as a reference named it (without its evidence list: evidence is read by id)."""

    capture: Capture
    imported: ImportResult | None = None  # when the reference was a path
    notes: list[str] = field(default_factory=list)  # what the user should know about how it was found


class Service:
    """`confine(ref)` turns a path reference into the path to read, or raises DynamoDiffError (the MCP server
    confines paths to its allowed roots); by default any path is read as written."""

    def __init__(self, store: Store, *, confine: Confine = _as_is) -> None:
        self.store = store
        self._confine = confine

    # -- captures ------------------------------------------------------------------------------------

    def import_path(
        self,
        ref: str,
        *,
        label: str | None = None,
        manifest: str | None = None,
        force_label: bool = False,
        progress: Progress | None = None,
    ) -> ImportResult:
        path = self._confine(ref)
        manifest_path = self._confine(manifest, what="manifest_path") if manifest is not None else None
        return self.store.import_path(
            path, label=label, manifest=manifest_path, force_label=force_label, progress=progress
        )

    def import_runs(self, ref: str) -> list[ImportResult]:
        """A folder whose sub-folders are runs (bundles, trace folders, tlparse exports), imported one by one and
        labelled by folder name (a label another capture has is left off). A folder that is itself a run, or a
        file, is one import."""
        path = self._confine(ref)
        try:
            return [self.store.import_path(path)]
        except DynamoDiffError as err:
            if err.code != ErrorCode.UNSUPPORTED_INPUT or not path.is_dir():
                raise
            children = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
            results = []
            for child in children:
                try:
                    label = child.name if self.store.label_owner(child.name) is None else None
                    results.append(self.store.import_path(child, label=label))
                except DynamoDiffError as child_err:
                    if child_err.code != ErrorCode.UNSUPPORTED_INPUT:
                        raise
            if not results:
                raise
            return results

    def related(self, capture_id: str) -> list[str]:
        """Other captures that look like runs of the same workload: a label with the same stem (edit_v1 and
        edit_v2, lazy and early runs of one script share none; before/after, base/cand, run1/run2 do)."""
        rows = self.store.list_captures()
        mine = next((r for r in rows if r.id == capture_id), None)
        if mine is None or not mine.label:
            return []
        stem = label_stem(mine.label)
        return [r.id for r in rows if r.id != capture_id and r.label and label_stem(r.label) == stem]

    def open(self, ref: str, *, label: str | None = None, progress: Progress | None = None) -> Opened:
        """The capture a reference names, imported first when it is a path (see `_refs`)."""
        capture_id, imported, notes = self.resolve(ref, label=label, progress=progress)
        return Opened(self.store.load(capture_id, evidence=False), imported=imported, notes=notes)

    def resolve(
        self, ref: str, *, label: str | None = None, progress: Progress | None = None
    ) -> tuple[str, ImportResult | None, list[str]]:
        """The id of the capture a reference names (importing a path first), the import if there was one, and
        notes on how it was found; the capture itself is not read (see `open`)."""
        if not looks_like_path(ref):
            try:
                capture_id = self.store.resolve(ref)
            except DynamoDiffError as err:
                if err.code != ErrorCode.UNKNOWN_CAPTURE or self._existing(ref) is None:
                    raise
            else:
                notes = []
                if self._existing(ref) is not None:
                    notes.append(
                        f"{ref!r} is both a capture in the store ({short_id(capture_id)}) and a path here: using the "
                        f"capture; write ./{ref} to import the path instead"
                    )
                return capture_id, None, notes
        refused: DynamoDiffError | None = None
        try:
            path: Path | None = self._confine(ref)
        except DynamoDiffError as err:  # e.g. outside the MCP server's allowed roots
            path, refused = None, err
        if path is None or not path.exists():
            try:  # a label may contain a slash
                return self.store.resolve(ref), None, []
            except DynamoDiffError as err:
                if err.code != ErrorCode.UNKNOWN_CAPTURE:
                    raise
            raise refused or DynamoDiffError(
                ErrorCode.UNREADABLE_INPUT,
                f"{ref} does not exist (it is written as a path, and no capture has it as its label)",
                path=ref,
            )
        result = self.store.import_path(path, label=label, progress=progress)
        return result.summary.capture.id, result, []

    def _existing(self, ref: str) -> Path | None:
        """The path a reference names when it exists and may be read, else None."""
        try:
            path = self._confine(ref)
        except DynamoDiffError:
            return None
        return path if path.exists() else None

    def export_tables(
        self, refs: list[str], out: Path, *, table_format: str = "parquet", overwrite: bool = False
    ) -> ExportResult:
        """The captures as tables in `out` (docs/INTEGRATIONS.md, "Tables for DuckDB, Spark and pandas"). Every
        reference is resolved (paths imported) before anything is written; the tables appear together or not at
        all."""
        if table_format != "parquet":
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"unknown format {table_format!r}: use parquet")
        if not refs:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "give at least one capture to export")
        require_pyarrow()
        check_target(out, overwrite)
        ids = list(dict.fromkeys(self.resolve(ref)[0] for ref in refs))
        return export_parquet(ids, self.store.load, out, overwrite=overwrite)

    def load(self, ref: str) -> Capture:
        """A stored capture by id, prefix or label (never a path), without its evidence list."""
        return self.store.load(ref, evidence=False)

    def list_captures(self) -> list[CaptureRow]:
        return self.store.list_captures()

    def sources(self, capture: Capture) -> SnapshotSet:
        return user_sources(*self.store.source_files(capture))

    def _sides(self, comparison: Comparison, captures: tuple[Capture, Capture] | None) -> tuple[Capture, Capture]:
        """The comparison's two captures: those given (already loaded by the caller) when they are its sides, else
        read from the store."""
        ids = (comparison.baseline.id, comparison.candidate.id)
        if captures is not None and (captures[0].capture.id, captures[1].capture.id) == ids:
            return captures
        return self.load(ids[0]), self.load(ids[1])

    def source_changes(
        self, comparison: Comparison, captures: tuple[Capture, Capture] | None = None
    ) -> list[FunctionDiff]:
        """The code change behind a comparison: for each of its functions whose definition differs between the two
        runs' source snapshots, a unified diff (empty when a run has no snapshots, e.g. a bare trace). `captures`:
        the compared captures, when the caller has them."""
        names = {
            side.qualified_name
            for row in comparison.functions
            for side in (row.baseline, row.candidate)
            if side is not None and side.qualified_name
        }
        base, cand = self._sides(comparison, captures)
        return source_diff(self.sources(base), self.sources(cand), names)

    def report(self, capture: Capture, *, function: str | None = None) -> RunReport:
        """One run per source function (problems first), with evidence ids; `function` keeps that function.
        Raises DynamoDiffError(unknown_function) when no compiled function has that name."""
        result = run_report(capture, self.sources(capture), function=function)
        if function is not None and not result.functions:
            shown = short_id(capture.capture.id)
            names = sorted({f.name for f in run_report(capture, self.sources(capture)).functions})[:_NAMES_LISTED]
            raise DynamoDiffError(
                ErrorCode.UNKNOWN_FUNCTION,
                f"no compiled function {function!r} in capture {shown}; its functions: {', '.join(names)}",
            )
        return result

    # -- comparisons ---------------------------------------------------------------------------------

    def compare(
        self, baseline: Capture, candidate: Capture, *, source_map: UserMap | None = None, change: Iterable[str] = ()
    ) -> Comparison:
        """Two captures per source function, matched with their source snapshots."""
        return compare_captures(
            baseline,
            candidate,
            baseline_sources=self.sources(baseline),
            candidate_sources=self.sources(candidate),
            user_map=source_map,
            intended=change,
        )

    def compare_ranks(self, capture: Capture, ranks: list[int] | None = None) -> Comparison:
        return compare_ranks(capture, ranks or None, sources=self.sources(capture))

    def evidence_excerpts(
        self, comparison: Comparison, *, per_change: int = 2, max_chars: int = 3000
    ) -> dict[str, str]:
        """Hash-checked evidence text for a report, keyed `side:evidence id` (a few per change)."""
        out: dict[str, str] = {}
        for row in comparison.functions:
            for change in row.changes:
                for side, capture_id, ids in (
                    ("baseline", comparison.baseline.id, change.baseline_evidence),
                    ("candidate", comparison.candidate.id, change.candidate_evidence),
                ):
                    for ev in ids[:per_change]:
                        key = f"{side}:{ev}"
                        if key not in out:
                            out[key] = self.store.read_evidence(capture_id, ev, max_chars=max_chars).text
        return out

    def report_material(
        self, comparison: Comparison, captures: tuple[Capture, Capture] | None = None
    ) -> ReportMaterial:
        """What the HTML report shows beside the comparison: evidence excerpts, and each side's compilations (its
        timeline) and source snapshots (a rank view: the two ranks its rows compare, one capture's sources).
        `captures`: the compared captures (for a rank view, the capture twice), when the caller has them."""
        excerpts = self.evidence_excerpts(comparison)
        base, cand = self._sides(comparison, captures)
        if comparison.kind != "rank_view":
            sides = []
            for capture in (base, cand):
                compilations = [c for rank in capture.ranks for c in rank.compilations]
                sides.append(RunMaterial(compilations, self.sources(capture)))
            return ReportMaterial(excerpts, sides[0], sides[1])
        capture = base
        sources = self.sources(capture)
        view = comparison.ranks
        reference = view.reference_rank if view is not None else None
        others = [r for r in (view.ranks if view is not None else []) if r != reference]
        shown = [row.candidate.rank for row in comparison.functions if row.candidate is not None]
        other = shown[0] if shown else (others[0] if others else reference)
        by_rank = {r.rank: r.compilations for r in capture.ranks}
        return ReportMaterial(
            excerpts,
            RunMaterial(by_rank.get(reference, []), sources),
            RunMaterial(by_rank.get(other, []), sources),
        )

    # -- evidence and source -------------------------------------------------------------------------

    def evidence_index(
        self,
        ref: str,
        *,
        kind: str | None = None,
        compile_id: str | None = None,
        function: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[str, list[EvidenceEntry], int]:
        """(capture id, one page of its evidence index, the total that matches): each entry with its source
        function and a one-line summary; filtered by kind, compile id and function."""
        capture_id = self.store.resolve(ref)
        capture = self.load(capture_id)
        report = self.report(capture, function=function)
        function_of = {c.compile_id: f.name for f in report.functions for c in f.compilations}
        compile_ids: list[str] | None = None
        if function is not None:
            compile_ids = sorted(function_of)
        if compile_id is not None:
            compile_ids = [compile_id] if compile_ids is None or compile_id in compile_ids else []
        items, total = self.store.evidence_index(
            capture_id, kind=kind, compile_ids=compile_ids, offset=offset, limit=limit
        )
        summaries = evidence_summaries(capture)
        entries = [
            EvidenceEntry(
                **e.model_dump(),
                function=function_of.get(e.compile_id or ""),
                summary=summaries.get(e.id),
            )
            for e in items
        ]
        return capture_id, entries, total

    def read_evidence(self, ref: str, evidence_id: str, *, offset: int = 0, max_chars: int = 4000) -> EvidenceExcerpt:
        return self.store.read_evidence(ref, evidence_id, offset=offset, max_chars=max_chars)

    def grep_evidence(
        self, ref: str, evidence_id: str, pattern: str, *, context: int = 2, max_matches: int = 20
    ) -> tuple[EvidenceExcerpt, list[GrepMatch], int]:
        """The lines of one record that match `pattern` (a regular expression, else plain text; case-insensitive),
        each with `context` lines around it: (the record as read, matches, total matches)."""
        whole = self.store.read_evidence(ref, evidence_id, max_chars=_GREP_MAX_CHARS)
        try:
            regex = re.compile(pattern, re.IGNORECASE)
        except re.error:
            regex = re.compile(re.escape(pattern), re.IGNORECASE)
        lines = whole.text.splitlines()
        matches: list[GrepMatch] = []
        total = 0
        for n, line in enumerate(lines):
            found = list(regex.finditer(line))
            if not found:
                continue
            total += len(found) if len(line) > _GREP_LINE_CHARS else 1
            if len(matches) >= max_matches:
                continue
            if len(line) <= _GREP_LINE_CHARS:
                around = lines[max(n - context, 0) : n + context + 1]
                matches.append(GrepMatch(line=n + 1, lines=[text[:_GREP_LINE_CHARS] for text in around]))
                continue
            # One long line (a JSON record such as compilation_metrics): the text around each match.
            for m in found[: max_matches - len(matches)]:
                start, end = max(m.start() - _GREP_WINDOW, 0), min(m.end() + _GREP_WINDOW, len(line))
                snippet = ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")
                matches.append(GrepMatch(line=n + 1, lines=[snippet]))
        return whole, matches, total

    def source(self, ref: str, function: str) -> tuple[Capture, list[SourceLocation]]:
        capture = self.load(ref)
        return capture, find_source(self.store, capture, function)


def read_source_map(path: Path | None) -> UserMap | None:
    """A source map (JSON: baseline function id -> candidate function id) from a file."""
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"cannot read the source map {path}: {err.strerror}") from err
    return load_user_map(text)


def source_map_of(pairs: dict[str, str] | None) -> UserMap | None:
    """A source map given as a mapping (an MCP argument)."""
    return None if pairs is None else load_user_map(json.dumps(pairs))


_LABEL_VARIANT = re.compile(
    r"[-_.]?(?:v?\d+|before|after|old|new|base|baseline|cand|candidate|cold|warm|a|b|ref|fix|fixed)$", re.IGNORECASE
)


def label_stem(label: str) -> str:
    """A label without its variant suffix: `edit_v1` and `edit_v2` -> `edit`, `run-before` -> `run`."""
    return _LABEL_VARIANT.sub("", label) or label
