"""The operations the CLI and the MCP server share, over one store. Each returns schema models (or the store's
own results); rendering, paging and bounding a response are the caller's."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from dynamo_diff_compare import compare_captures, compare_ranks, run_report, user_sources
from dynamo_diff_match import SnapshotSet, UserMap, load_user_map
from dynamo_diff_schema import Capture, Comparison, DynamoDiffError, ErrorCode, Evidence, RunReport, short_id
from dynamo_diff_store import CaptureRow, EvidenceExcerpt, ImportResult, Store

from dynamo_diff_service._refs import looks_like_path
from dynamo_diff_service._source import SourceLocation, find_source

Progress = Callable[[str, int, int], None]
# Function names listed when a name is not found.
_NAMES_LISTED = 12


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

    def open(self, ref: str, *, label: str | None = None, progress: Progress | None = None) -> Opened:
        """The capture a reference names, imported first when it is a path (see `_refs`)."""
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
                return Opened(self.store.load(capture_id, evidence=False), notes=notes)
        refused: DynamoDiffError | None = None
        try:
            path: Path | None = self._confine(ref)
        except DynamoDiffError as err:  # e.g. outside the MCP server's allowed roots
            path, refused = None, err
        if path is None or not path.exists():
            try:  # a label may contain a slash
                return Opened(self.store.load(ref, evidence=False))
            except DynamoDiffError as err:
                if err.code != ErrorCode.UNKNOWN_CAPTURE:
                    raise
            raise refused or DynamoDiffError(
                ErrorCode.UNREADABLE_INPUT,
                f"{ref} does not exist (it is written as a path, and no capture has it as its label)",
                path=ref,
            )
        result = self.store.import_path(path, label=label, progress=progress)
        return Opened(self.store.load(result.summary.capture.id, evidence=False), imported=result)

    def _existing(self, ref: str) -> Path | None:
        """The path a reference names when it exists and may be read, else None."""
        try:
            path = self._confine(ref)
        except DynamoDiffError:
            return None
        return path if path.exists() else None

    def load(self, ref: str) -> Capture:
        """A stored capture by id, prefix or label (never a path), without its evidence list."""
        return self.store.load(ref, evidence=False)

    def list_captures(self) -> list[CaptureRow]:
        return self.store.list_captures()

    def sources(self, capture: Capture) -> SnapshotSet:
        return user_sources(*self.store.source_files(capture))

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

    # -- evidence and source -------------------------------------------------------------------------

    def evidence_index(
        self, ref: str, *, kind: str | None = None, offset: int = 0, limit: int = 50
    ) -> tuple[str, list[Evidence], int]:
        """(capture id, one page of its evidence index, the total)."""
        capture_id = self.store.resolve(ref)
        items, total = self.store.evidence_index(capture_id, kind=kind, offset=offset, limit=limit)
        return capture_id, items, total

    def read_evidence(self, ref: str, evidence_id: str, *, offset: int = 0, max_chars: int = 4000) -> EvidenceExcerpt:
        return self.store.read_evidence(ref, evidence_id, offset=offset, max_chars=max_chars)

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
