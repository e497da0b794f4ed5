"""The operations the CLI and the MCP server share, over one store: the only way in for a front end. Each returns
schema models (the documents the CLI prints with `--format json`); rendering, paging and bounding a response are
the caller's. A few older methods that return the store's own results (`import_path`, `import_runs`,
`list_captures`, `read_evidence`, `grep_evidence`, `evidence_index`, `source`) stay for the MCP server."""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import dynamo_diff_compare as _compare  # its names load their modules when a method first uses them
import dynamo_diff_schema as _schema  # so do the result documents' models (reading a trace loads the capture's only)
from dynamo_diff_schema import Capture, Counts, DynamoDiffError, ErrorCode, EvidenceEntry, short_id
from dynamo_diff_store import Store, check_name_fits, collector_paused

from dynamo_diff_service._refs import looks_like_path

if TYPE_CHECKING:
    from dynamo_diff_match import FunctionDiff, SnapshotSet, UserMap
    from dynamo_diff_schema import (
        CaptureList,
        CheckBounds,
        CheckVerdict,
        Comparison,
        Compilation,
        CompileSnapshot,
        Evidence,
        EvidenceGrep,
        EvidenceIndex,
        EvidenceSearch,
        FunctionRow,
        FunctionSide,
        FunctionSourceDiff,
        RemoveResult,
        RunReport,
        SourceDiff,
        SourceResult,
        VerifyReport,
    )
    from dynamo_diff_schema import EvidenceExcerpt as EvidenceExcerptDocument
    from dynamo_diff_schema import ExportResult as ExportResultDocument
    from dynamo_diff_schema import ImportResult as ImportResultDocument
    from dynamo_diff_store import CaptureResult, CaptureRow, EvidenceExcerpt, ImportResult

    from dynamo_diff_service._condense import Condensed
    from dynamo_diff_service._export import ExportResult
    from dynamo_diff_service._grep import Found
    from dynamo_diff_service._source import SourceLocation

Progress = Callable[[str, int, int], None]
Say = Callable[[str], None]
__all__ = [
    "Confine",
    "Opened",
    "Progress",
    "Service",
    "check_name_fits",
    "read_source_map",
    "source_map_of",
]
# Function names listed when a name is not found.
_NAMES_LISTED = 12
# grep reads a record whole up to this many characters; a matching line is shown up to this many.
_GREP_MAX_CHARS = 4_000_000
LINE_CONTEXT = 10  # lines shown each side of a FILE:LINE asked for
# The HTML report's compilation records (graphs, guards, generated code): the characters embedded of one record,
# of all of them on one page, and the compilations per side whose records are looked up (changed functions first).
REPORT_RECORD_CHARS = 12_000
REPORT_RECORDS_CHARS = 400_000
REPORT_LINKED_COMPILATIONS = 200
# Matches grep shows by default (the rest are counted: `max_matches` shows more).
GREP_MAX_MATCHES = 10


def grep_document(
    capture_id: str, whole: EvidenceExcerpt, pattern: str, found: Found, *, in_config: bool, compact: bool = False
) -> EvidenceGrep:
    """What a grep found as its document."""
    return _schema.EvidenceGrep(
        capture=capture_id,
        evidence=whole.evidence,
        pattern=pattern,
        compact=compact,
        total_matches=found.total,
        shown_matches=found.shown,
        in_config=in_config,
        config_matches=found.config_matches,
        matches=found.matches,
    )


EVIDENCE_DIFF_CHARS = 2_000_000  # each record read whole for a diff
EVIDENCE_DIFF_CONTEXT = 2  # lines of context around each change


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


# The graphs AOTAutograd partitions a joint graph into: a capture-wide search reads these, not the joint graph.
_PARTITIONED = frozenset({"aot_forward_graph", "aot_backward_graph"})


class Service:
    """`confine(ref)` turns a path reference into the path to read, or raises DynamoDiffError (the MCP server
    confines paths to its allowed roots); by default any path is read as written."""

    def __init__(self, store: Store, *, confine: Confine = _as_is) -> None:
        self.store = store
        self._confine = confine
        # (capture id, evidence id) -> the record condensed (an agent pages and re-reads the same record)
        self._condensed: dict[tuple[str, str], tuple[Evidence, Condensed, int]] = {}

    @classmethod
    def at(cls, path: Path | str, *, confine: Confine = _as_is, guest: bool = False) -> Service:
        """The service over the store at `path` (made on first write), so that a front end never names the store.
        `guest`: it runs inside a program that is not ours (the pytest plugin, in the user's test process), whose
        cyclic collector is paused but otherwise left as it is (`Store`'s `guest`)."""
        return cls(Store(Path(path), guest=guest), confine=confine)

    @property
    def store_path(self) -> Path:
        return self.store.path

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

    def read_path(self, ref: str, *, label: str | None = None) -> Capture:
        """A TORCH_TRACE log (a file or a folder of them) read as a Capture without writing the store: the capture
        `import_path` would store (the same id and evidence ids, without its evidence list), kept nowhere. Its
        evidence is read after `import_path` of the same bytes. A bundle or a tlparse export is refused
        (`unsupported_input`: import it)."""
        return self.store.read_path(self._confine(ref), label=label)

    def read_counts(self, ref: str) -> Counts:
        """The counts of the capture `read_path` gives for the same log (its `counts`), read without assembling the
        capture and writing nothing: what a compile budget of whole counts needs of a test's trace."""
        return self.store.read_counts(self._confine(ref))

    def import_runs(
        self,
        ref: str,
        *,
        label: str | None = None,
        manifest: str | None = None,
        force_label: bool = False,
        executor: str = "local",
        progress: Progress | None = None,
    ) -> list[ImportResult]:
        """A folder whose sub-folders are runs (bundles, trace folders, tlparse exports), or whose sub-folders'
        sub-folders are (`runs/a/bundle`, `runs/b/logs`: two levels), imported one by one and labelled by the
        sub-folder's name (a label another capture has is left off); a run that fails is listed with its error and
        the others are imported. A folder that is itself a run, or a
        file, is one import, with `label`, `manifest` and `force_label`; those name one run, so a folder of runs
        given them is refused (`invalid_argument`)."""
        return [result for _, result in self._import_runs(ref, label, manifest, force_label, executor, progress)[1]]

    def _import_runs(
        self,
        ref: str,
        label: str | None,
        manifest: str | None,
        force_label: bool,
        executor: str,
        progress: Progress | None,
    ) -> tuple[bool, list[tuple[str, ImportResult]], list[tuple[str, DynamoDiffError]]]:
        """(whether it was a folder of runs, [(the path imported, its result)], [(a run's path, why it failed)])."""
        path = self._confine(ref)
        manifest_path = self._confine(manifest, what="manifest_path") if manifest is not None else None
        try:
            one = self.store.import_path(
                path,
                label=label,
                manifest=manifest_path,
                force_label=force_label,
                progress=progress,
                executor=executor,  # type: ignore[arg-type]
            )
            return False, [(ref, one)], []
        except DynamoDiffError as err:
            if err.code != ErrorCode.UNSUPPORTED_INPUT or not path.is_dir():
                raise
            given = [name for name, value in (("a label", label), ("a manifest", manifest)) if value is not None]
            if given:  # they name one run: a folder of runs takes its folder names
                raise DynamoDiffError(
                    ErrorCode.INVALID_ARGUMENT,
                    f"{ref} is not one run ({err.message}); a folder of runs is imported without "
                    f"{' or '.join(given)}, each run labelled by its folder name",
                    path=ref,
                ) from err
            results: list[tuple[str, ImportResult]] = []
            failed: list[tuple[str, DynamoDiffError]] = []

            def attempt(run: Path, run_label: str, *, deeper: bool, sources_from: Path | None = None) -> bool:
                """Import one folder as a run (False: it is not one, `deeper`: look one level below it). A bare log
                is imported with the scripts its trace names that are in the run's own folder (`sources_from`: the
                folder holding it, else the folder itself)."""
                given = str(Path(ref) / run.relative_to(path))
                try:
                    real = self._confine(str(run))  # a link in the folder to a place outside the roots is refused
                    free = run_label if self.store.label_owner(run_label) is None else None
                    own = self._confine(str(sources_from)) if sources_from is not None else None
                    imported = self.store.import_path(real, label=free, executor=executor, sources_from=own)  # type: ignore[arg-type]
                    results.append((given, imported))
                except DynamoDiffError as run_err:
                    if run_err.code != ErrorCode.UNSUPPORTED_INPUT:
                        failed.append((given, run_err))
                        return True
                    if not deeper:
                        return False
                    # Its sub-folders may be the runs (`a/bundle`, `b/logs`): labelled by this folder's name, a
                    # second run in it by both names.
                    held = 0
                    for grand in _folders(run):
                        held += attempt(
                            grand,
                            run_label if not held else f"{run_label}-{grand.name}",
                            deeper=False,
                            sources_from=run,
                        )
                return True

            for child in _folders(path):
                attempt(child, child.name, deeper=True)
            if not results and not failed:
                raise
            if not results:
                where, first = failed[0]
                more = f" ({len(failed) - 1} more failed too)" if len(failed) > 1 else ""
                raise DynamoDiffError(
                    first.code,
                    f"no run of the folder {ref} could be imported; {where}: {first.message}{more}",
                    path=ref,
                ) from first
            return True, results, failed

    def import_document(
        self,
        ref: str,
        *,
        label: str | None = None,
        manifest: str | None = None,
        force_label: bool = False,
        executor: str = "local",
        progress: Progress | None = None,
    ) -> ImportResultDocument:
        """Import one run, or each run of a folder of runs (see `import_runs`): the import_result document."""
        folder, results, failed = self._import_runs(ref, label, manifest, force_label, executor, progress)
        return _schema.ImportResult(
            folder_of_runs=folder,
            captures=[
                _schema.ImportedCapture(
                    id=result.capture_id,
                    label=result.summary.capture.label,
                    created=result.created,
                    input=given,
                    summary=result.summary,
                )
                for given, result in results
            ],
            failed=[_schema.FailedRun(input=given, code=err.code, message=err.message) for given, err in failed],
        )

    def capture_list(self) -> CaptureList:
        """Every capture of the store, from its index (no document is read)."""
        return _schema.CaptureList(
            captures=[
                _schema.CaptureRow(
                    id=r.id,
                    label=r.label,
                    run_state=r.run_state,
                    compiled_state=r.compiled_state,
                    imported_at=r.imported_at,
                    input_kind=r.input_kind,
                    torch_version=r.torch_version,
                    artifact_structure=r.artifact_structure,
                    rank_count=r.rank_count,
                    counts=Counts.model_validate({k: v for k, v in r.counts.items() if k in Counts.model_fields}),
                )
                for r in self.store.list_captures()
            ]
        )

    def remove(self, ref: str) -> RemoveResult:
        """Remove a capture from the store: by id, unique prefix or label, or by the path it was imported from
        (the capture of the same bytes; a path whose bytes the store does not hold removes nothing and is an
        unknown_capture error, the same as an id no capture has)."""
        capture_id, imported, _ = self.resolve(ref)
        if imported is not None and imported.created:  # read only to find its id: it was not in the store
            self.store.remove(capture_id)
            raise DynamoDiffError(
                ErrorCode.UNKNOWN_CAPTURE,
                f"no capture of the bytes in {ref} is in the store (nothing removed)",
                capture=ref,
            )
        return _schema.RemoveResult(capture=self.store.remove(capture_id))

    def verify(self) -> VerifyReport:
        """Check the whole store: every imported file and evidence range against its sha256, and the index."""
        report = self.store.verify()
        return _schema.VerifyReport(
            store=str(self.store.path),
            captures=report.captures,
            files=report.files,
            evidence=report.evidence,
            damaged_captures=report.damaged_captures,
            damage=[_schema.Damage(capture=d.capture_id, file=d.file, problem=d.problem) for d in report.damage],
        )

    def check_label(self, label: str) -> None:
        """Refuse a label another capture has (`label_taken`), before a workload runs rather than after."""
        self.store.check_label(label)

    def record(
        self,
        command: list[str],
        *,
        bundle: Path | None = None,
        label: str | None = None,
        declare: list[str] | None = None,
        declarations: Path | None = None,
        environment: list[str] | None = None,
        cache: str = "fresh",
        cache_dir: Path | None = None,
        convert: bool = True,
        include: list[str] | None = None,
        exclude: list[str] | None = None,
        observe: bool = True,
        say: Say | None = None,
    ) -> CaptureResult:
        """Run a command with torch's structured trace on and write a bundle (trace, sources, manifest); importing
        it is `import_path` on the bundle. `cache`: fresh, warm or custom (with `cache_dir`)."""
        from dynamo_diff_store import CaptureRequest, SourcePolicy, default_bundle_path, parse_declarations, record

        request = CaptureRequest(
            command=command,
            bundle=bundle if bundle is not None else default_bundle_path(command, label),
            label=label,
            declarations=parse_declarations(declare or [], declarations),
            environment=environment or [],
            cache=cache,  # type: ignore[arg-type]
            cache_dir=cache_dir,
            convert=convert,
            sources=SourcePolicy(include=tuple(include or ()), exclude=tuple(exclude or ())),
            observe=observe,
        )
        return record(request, say=say)

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
                here = self._existing(ref)
                # The same bytes as the capture (imported from this path): nothing is ambiguous.
                if here is not None and not self._imported_from(capture_id, here):
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
        try:
            result = self.store.import_path(path, label=label, progress=progress)
        except DynamoDiffError as err:
            # A run's own folder, holding its one bundle or trace folder (`runs/a` with `a/bundle`): that run,
            # labelled by the folder's name as a folder of runs would label it.
            inside = _folders(path) if err.code == ErrorCode.UNSUPPORTED_INPUT and path.is_dir() else []
            if len(inside) != 1:
                raise
            (inner,) = inside
            free = label or (path.name if self.store.label_owner(path.name) is None else None)
            result = self.store.import_path(self._confine(str(inner)), label=free, progress=progress, sources_from=path)
            return result.summary.capture.id, result, [f"{ref} holds one run, {inner.name}/: read that"]
        return result.summary.capture.id, result, []

    def resolve_runs(
        self, ref: str, *, progress: Progress | None = None
    ) -> tuple[list[tuple[str, str]], list[tuple[str, DynamoDiffError]]]:
        """Each run a reference names, as (the reference or path it was read from, its capture id): the one
        capture `resolve` gives, or, for a folder of runs, each of its runs (imported first, labelled by folder
        name, as `import_runs` does), with the runs that could not be read and why."""
        try:
            capture_id, _, _ = self.resolve(ref, progress=progress)
            return [(ref, capture_id)], []
        except DynamoDiffError as err:
            here = self._existing(ref) if err.code == ErrorCode.UNSUPPORTED_INPUT else None
            if here is None or not here.is_dir():
                raise
        _, results, failed = self._import_runs(ref, None, None, False, "local", progress)
        return [(given, result.summary.capture.id) for given, result in results], failed

    def _imported_from(self, capture_id: str, here: Path) -> bool:
        """Whether the capture is what reading `here` gives (`resolve` reads a run's own folder as the one run
        it holds, with the scripts beside it)."""
        if self.store.imported_from(capture_id, here):
            return True
        inside = _folders(here) if here.is_dir() else []
        if len(inside) != 1:
            return False
        try:
            inner = self._confine(str(inside[0]))
        except DynamoDiffError:
            return False
        return self.store.imported_from(capture_id, inner, sources_from=here)

    def _existing(self, ref: str) -> Path | None:
        """The path a reference names when it exists and may be read, else None."""
        try:
            path = self._confine(ref)
        except DynamoDiffError:
            return None
        return path if path.exists() else None

    def export_tables(
        self,
        refs: list[str],
        out: Path,
        *,
        table_format: str = "parquet",
        overwrite: bool = False,
        compare: bool = False,
    ) -> ExportResult:
        """The captures as tables in `out` (docs/INTEGRATIONS.md, "Tables for DuckDB, Spark and pandas"), built
        from their documents (the capture, its run report; with `compare`, the comparison of the two captures
        given, baseline first). Every reference is resolved (paths imported) before anything is written; the
        tables appear together or not at all."""
        if table_format != "parquet":
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"unknown format {table_format!r}: use parquet")
        if not refs:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "give at least one capture to export")
        if compare and len(refs) != 2:
            raise DynamoDiffError(
                ErrorCode.INVALID_ARGUMENT,
                f"--compare takes two captures (the baseline, then the candidate), not {len(refs)}",
            )
        from dynamo_diff_service._export import check_target, export_parquet, require_pyarrow

        require_pyarrow()
        check_target(out, overwrite)
        resolved = [self.resolve(ref)[0] for ref in refs]
        pair = (resolved[0], resolved[1]) if compare else None
        return export_parquet(
            list(dict.fromkeys(resolved)),
            self.store.load,
            out,
            report=self.report,
            compare=self.compare,
            pair=pair,
            overwrite=overwrite,
        )

    def export(
        self,
        refs: list[str],
        out: Path,
        *,
        table_format: str = "parquet",
        overwrite: bool = False,
        compare: bool = False,
    ) -> ExportResultDocument:
        """`export_tables` as the export_result document."""
        result = self.export_tables(refs, out, table_format=table_format, overwrite=overwrite, compare=compare)
        return _schema.ExportResult(
            out=str(result.out), captures=list(result.captures), comparison=result.comparison, rows=dict(result.rows)
        )

    def load(self, ref: str) -> Capture:
        """A stored capture by id, prefix or label (never a path), without its evidence list."""
        return self.store.load(ref, evidence=False)

    def list_captures(self) -> list[CaptureRow]:
        return self.store.list_captures()

    def sources(self, capture: Capture) -> SnapshotSet:
        return _compare.user_sources(*self.store.source_files(capture))

    def scripts(self, capture: Capture, report: RunReport) -> list[_compare.Script]:
        """The run's own scripts for its report (`analyze --source`, MCP `analyze_capture(source=true)`): the
        captured files its functions and call paths are in, as many whole as fit the bound, the others named."""
        return _compare.run_scripts(report, self.sources(capture))

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
        from dynamo_diff_match import source_diff

        base, cand = self._sides(comparison, captures)
        return source_diff(self.sources(base), self.sources(cand), names)

    def shown(self, capture: Capture) -> Capture:
        """The capture as `analyze` shows it: with the suggestions for the causes it holds (computed from its
        compilations when it is shown, never stored)."""
        return _compare.with_suggestions(capture, self.sources(capture))

    def report(self, capture: Capture, *, function: str | None = None) -> RunReport:
        """One run per source function (problems first), with evidence ids; `function` keeps that function.
        Raises DynamoDiffError(unknown_function) when no compiled function has that name."""
        result = _compare.run_report(capture, self.sources(capture), function=function)
        if function is not None and not result.functions:
            shown = short_id(capture.capture.id)
            names = sorted({f.name for f in _compare.run_report(capture, self.sources(capture)).functions})[
                :_NAMES_LISTED
            ]
            raise DynamoDiffError(
                ErrorCode.UNKNOWN_FUNCTION,
                f"no compiled function {function!r} in capture {shown}; its functions: {', '.join(names)}",
            )
        return result

    # -- comparisons ---------------------------------------------------------------------------------

    def compare(
        self,
        baseline: Capture,
        candidate: Capture,
        *,
        source_map: UserMap | None = None,
        change: Iterable[str] = (),
        assume_change: bool = True,
    ) -> Comparison:
        """Two captures per source function, matched with their source snapshots (the cyclic collector paused:
        millions of objects, no cycles). Without `change`, settings the user set that are the only differences
        are taken as the change under test, and the comparability says it assumed so (`assume_change`; the gate
        never assumes)."""
        with collector_paused(guest=self.store.guest):
            return _compare.compare_captures(
                baseline,
                candidate,
                baseline_sources=self.sources(baseline),
                candidate_sources=self.sources(candidate),
                user_map=source_map,
                intended=change,
                assume_change=assume_change,
            )

    def snapshot_of(self, ref: str | Capture, *, test: str | None = None) -> CompileSnapshot:
        """The compile_snapshot of a stored capture (id, prefix or label) or of a Capture already read (`load`,
        `read_path`), named with its source snapshots; it carries the capture's id and evidence ids, which
        `snapshot_json` leaves out of the file it writes."""
        capture = ref if isinstance(ref, Capture) else self.load(ref)
        return _compare.snapshot_of(capture, self.sources(capture), test=test)

    def compare_ranks(self, capture: Capture, ranks: list[int] | None = None) -> Comparison:
        """The ranks of one capture (a rank_view document): the first rank given, else the lowest, against the
        others."""
        with collector_paused(guest=self.store.guest):
            return _compare.compare_ranks(capture, ranks or None, sources=self.sources(capture))

    def check(
        self,
        baseline: Capture,
        candidate: Capture,
        bounds: CheckBounds,
        *,
        source_map: UserMap | None = None,
        change: Iterable[str] = (),
        allow_same: bool = False,
        refs: tuple[str, str] | None = None,
    ) -> CheckVerdict:
        """The CI gate over the comparison of two captures (docs/COMPARING.md, "The CI gate"). The same capture on
        both sides is refused (`same_capture`) unless `allow_same`; `refs`, the references the user gave."""
        if baseline.capture.id == candidate.capture.id and not allow_same:
            base_ref, cand_ref = refs or (baseline.capture.id, candidate.capture.id)
            raise DynamoDiffError(
                ErrorCode.SAME_CAPTURE,
                f"{base_ref!r} and {cand_ref!r} are the same capture ({short_id(baseline.capture.id)}): every delta "
                "would be zero by construction, so the check would pass whatever the run did; give two different "
                "captures (--allow-same checks it anyway)",
                capture=baseline.capture.id,
            )
        # The gate never assumes the change: CI names it (--change) or fails on the difference.
        comparison = self.compare(baseline, candidate, source_map=source_map, change=change, assume_change=False)
        result = _compare.evaluate(
            comparison,
            max_new_recompiles=bounds.max_new_recompiles,
            max_new_graph_breaks=bounds.max_new_graph_breaks,
            fail_on_new_failures=bounds.fail_on_new_failures,
            fail_on_confounded=bounds.fail_on_confounded,
            allow_incomplete=bounds.allow_incomplete,
            allow_empty=bounds.allow_empty,
        )
        return _schema.CheckVerdict(
            passed=result.passed,
            exit_code=0 if result.passed else 1,
            baseline=comparison.baseline.id,
            candidate=comparison.candidate.id,
            comparison_id=comparison.id,
            bounds=bounds,
            fired=result.fired,
            findings=result.findings,
        )

    def evidence_excerpts(
        self, comparison: Comparison, *, per_change: int = 2, max_chars: int = 3000
    ) -> dict[str, _compare.Excerpt]:
        """Hash-checked evidence text for a report, keyed `side:evidence id` (a few per change): condensed as an
        evidence excerpt is by default, with the record's first characters as written where condensing changed it."""
        out: dict[str, _compare.Excerpt] = {}
        for row in comparison.functions:
            for change in row.changes:
                for side, capture_id, ids in (
                    ("baseline", comparison.baseline.id, change.baseline_evidence),
                    ("candidate", comparison.candidate.id, change.candidate_evidence),
                ):
                    for ev in ids[:per_change]:
                        key = f"{side}:{ev}"
                        if key not in out:
                            out[key] = self._excerpt(capture_id, ev, max_chars)
        return out

    def _excerpt(self, capture_id: str, evidence_id: str, max_chars: int) -> _compare.Excerpt:
        shown = self.evidence_excerpt(capture_id, evidence_id, max_chars=max_chars)
        raw = self.store.read_evidence(capture_id, evidence_id, max_chars=max_chars).text
        return _compare.Excerpt(
            shown.text,
            raw=raw if raw != shown.text else None,  # (file names resolved, frames collapsed, configuration out)
            total_chars=shown.total_chars,
            frames=shown.collapsed_frames,
            config_chars=shown.config_chars,
            record_chars=shown.record_chars,
        )

    def report_material(
        self, comparison: Comparison, captures: tuple[Capture, Capture] | None = None
    ) -> _compare.ReportMaterial:
        """What the HTML report shows beside the comparison: evidence excerpts, and each side's compilations (its
        timeline) and source snapshots (a rank view: the two ranks its rows compare, one capture's sources).
        `captures`: the compared captures (for a rank view, the capture twice), when the caller has them."""
        excerpts = self.evidence_excerpts(comparison)
        base, cand = self._sides(comparison, captures)
        records, looked_up = self.report_records(comparison)
        if comparison.kind != "rank_view":
            sides = []
            for capture in (base, cand):
                compilations = [c for rank in capture.ranks for c in rank.compilations]
                sides.append(_compare.RunMaterial(compilations, self.sources(capture)))
            return _compare.ReportMaterial(excerpts, sides[0], sides[1], records=records, records_of=looked_up)
        capture = base
        sources = self.sources(capture)
        view = comparison.ranks
        reference = view.reference_rank if view is not None else None
        others = [r for r in (view.ranks if view is not None else []) if r != reference]
        shown = [row.candidate.rank for row in comparison.functions if row.candidate is not None]
        other = shown[0] if shown else (others[0] if others else reference)
        by_rank = {r.rank: r.compilations for r in capture.ranks}
        return _compare.ReportMaterial(
            excerpts,
            _compare.RunMaterial(by_rank.get(reference, []), sources),
            _compare.RunMaterial(by_rank.get(other, []), sources),
            records=records,
            records_of=looked_up,
        )

    def report_records(
        self,
        comparison: Comparison,
        *,
        per_record: int = REPORT_RECORD_CHARS,
        budget: int = REPORT_RECORDS_CHARS,
        compilations: int = REPORT_LINKED_COMPILATIONS,
    ) -> tuple[dict[str, _compare.RecordText], frozenset[str]]:
        """The graph, guard and generated-code records (LINKED_RECORDS) of the compared functions' compilations,
        keyed `side:evidence id`, for the HTML report to link each compilation to: the first `per_record`
        characters of each (hash-checked), changed functions first, until `budget` characters are embedded; the
        records after that are listed without text. Only the first `compilations` compile ids of each side are
        looked up (a rank view: those of the rank each side shows); they are returned too, as `side:compile id`."""
        # Each side's compile ids in the order of the rows (changed first), and the rank a rank view shows.
        wanted: dict[str, dict[str, int | None]] = {"baseline": {}, "candidate": {}}
        place: dict[tuple[str, str], int] = {}
        for row in _compare.changed_first(comparison.functions):
            for name in ("baseline", "candidate"):
                fside = getattr(row, name)
                for cid in fside.compile_ids if fside is not None else []:
                    if len(wanted[name]) < compilations and cid not in wanted[name]:
                        wanted[name][cid] = fside.rank if comparison.kind == "rank_view" else None
                        place[(name, cid)] = len(place)
        kinds = list(_compare.LINKED_RECORDS)
        linked: list[tuple[str, str, Evidence]] = []
        for name, capture_id in (("baseline", comparison.baseline.id), ("candidate", comparison.candidate.id)):
            ids = wanted[name]
            if not ids:
                continue
            items, _ = self.store.evidence_index(capture_id, compile_ids=sorted(ids), limit=len(ids) * 64)
            linked += [
                (name, capture_id, e)
                for e in items
                if e.kind in _compare.LINKED_RECORDS
                and e.compile_id in ids
                and (ids[e.compile_id] is None or e.rank == ids[e.compile_id])
            ]
        # Both runs' records of a function before the next function's, so that the budget goes to what changed.
        linked.sort(key=lambda x: (place[(x[0], x[2].compile_id or "")], kinds.index(x[2].kind)))
        out: dict[str, _compare.RecordText] = {}
        left = budget
        for name, capture_id, ev in linked:
            record = _compare.RecordText(ev.kind, ev.compile_id or "")
            if left > 0:
                excerpt = self.store.read_evidence(capture_id, ev.id, max_chars=min(per_record, left))
                record = _compare.RecordText(ev.kind, ev.compile_id or "", excerpt.text, excerpt.total_chars)
                left -= len(excerpt.text)
            out[f"{name}:{ev.id}"] = record
        return out, frozenset(f"{name}:{cid}" for name, ids in wanted.items() for cid in ids)

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
        read_shape_records: bool = True,
    ) -> tuple[str, list[EvidenceEntry], int]:
        """(capture id, one page of its evidence index, the total that matches): each entry with its source
        function and a one-line summary; filtered by kind, compile id and function. `ref` is what `open` takes
        (a path is imported first). A shape-environment record (a symbol made, a guard added, a value fixed) is
        read for its summary unless `read_shape_records` is False."""
        capture_id = self.resolve(ref)[0]
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
        summaries = _compare.evidence_summaries(capture)
        compilations = {(r.rank, c.compile_id): c for r in capture.ranks for c in r.compilations}
        for e in items:
            comp = compilations.get((e.rank, e.compile_id or ""))
            said = _compare.aot_graph_summary(comp, e.kind) if e.id not in summaries and comp is not None else None
            if said is not None:
                summaries[e.id] = said
        if read_shape_records:
            summaries.update(self._shape_summaries(capture_id, [e for e in items if e.id not in summaries]))
        entries = [
            EvidenceEntry(
                **e.model_dump(),
                function=function_of.get(e.compile_id or ""),
                summary=summaries.get(e.id),
            )
            for e in items
        ]
        return capture_id, entries, total

    def _shape_summaries(self, capture_id: str, items: Sequence[Evidence]) -> dict[str, str]:
        """Evidence id -> one line, for the shape-environment records among `items` (each read; the file names their
        stacks give by intern index looked up in one read of each file's table, to the last such record)."""
        from dynamo_diff_service._condense import needs_strings

        shape = [e for e in items if e.kind in _compare.SHAPE_RECORD_KINDS]
        upto: dict[str, int] = {}
        for e in shape:
            upto[e.file] = max(upto.get(e.file, 0), e.offset)
        tables: dict[str, dict[int, str]] = {}
        out: dict[str, str] = {}
        for e in shape:
            text = self.store.read_evidence(capture_id, e.id, max_chars=_GREP_MAX_CHARS).text
            if needs_strings(text) and e.file not in tables:
                tables[e.file] = self.store.intern_strings(capture_id, e.file, upto[e.file])
            said = _compare.shape_record_summary(e.kind, text, tables.get(e.file, {}))
            if said is not None:
                out[e.id] = f"{e.compile_id} {said}" if e.compile_id else said
        return out

    def read_evidence(self, ref: str, evidence_id: str, *, offset: int = 0, max_chars: int = 4000) -> EvidenceExcerpt:
        return self.store.read_evidence(ref, evidence_id, offset=offset, max_chars=max_chars)

    def grep_evidence(
        self,
        ref: str,
        evidence_id: str,
        pattern: str,
        *,
        context: int = 2,
        max_matches: int = GREP_MAX_MATCHES,
        in_config: bool = False,
        full: bool = False,
    ) -> tuple[EvidenceExcerpt, Found, bool]:
        """The lines of one record that match `pattern` (a regular expression, else plain text; case-insensitive),
        each with `context` lines around it, overlapping ones merged; the configuration the record embeds is
        searched only with `in_config` (`_grep`): (the record as read, what was found, whether in the record
        shown compact: a graph, a guard tree or Inductor's module is searched compact unless `full`, and as
        written when the compact text has no match)."""
        whole = self.store.read_evidence(ref, evidence_id, max_chars=_GREP_MAX_CHARS)
        found, compact = self._grep_record(ref, whole, _regex(pattern), context, max_matches, in_config, full)
        return whole, found, compact

    def _grep_record(
        self,
        capture_id: str,
        whole: EvidenceExcerpt,
        regex: re.Pattern[str],
        context: int,
        max_matches: int,
        in_config: bool,
        full: bool,
    ) -> tuple[Found, bool]:
        """grep one record's text as read (`grep_evidence`): its compact text first where it has one."""
        from dynamo_diff_service._grep import grep_text

        text = whole.text
        if not full and _compactable(text):
            condensed = self._condense(capture_id, whole.evidence.id, whole)
            if condensed is not None and condensed[1].compact is not None:
                found = grep_text(
                    condensed[1].text, regex, context=context, max_matches=max_matches, in_config=in_config
                )
                if found.total:
                    return found, True
        return grep_text(text, regex, context=context, max_matches=max_matches, in_config=in_config), False

    def evidence_search(
        self,
        ref: str,
        pattern: str,
        *,
        kind: str | None = None,
        compile_id: str | None = None,
        function: str | None = None,
        evidence_ids: Sequence[str] | None = None,
        context: int = 2,
        max_matches: int = GREP_MAX_MATCHES,
        in_config: bool = False,
        full: bool = False,
    ) -> EvidenceSearch:
        """Every record of a capture (those the index filters keep; with `evidence_ids` only those records)
        searched for `pattern` as `grep_evidence` searches one: every record with a match, in trace order, with
        its count and matching windows (the first `max_matches` matches in all are shown; a record past them has
        none); every match counted."""
        capture_id, entries, total = self.evidence_index(
            ref, kind=kind, compile_id=compile_id, function=function, limit=1_000_000, read_shape_records=False
        )
        if evidence_ids is not None:
            wanted = set(evidence_ids)
            entries = [e for e in entries if e.id in wanted]
            missing = sorted(wanted - {e.id for e in entries})
            if missing:
                raise DynamoDiffError(
                    ErrorCode.UNKNOWN_EVIDENCE,
                    f"capture {short_id(capture_id)} has no evidence {', '.join(map(repr, missing))}"
                    + (" that the kind/function/compile id filters keep" if kind or compile_id or function else ""),
                )
            total = len(entries)
        skipped = 0
        if kind is None and evidence_ids is None:  # a joint graph's nodes are in its partitioned graphs
            parted = {(e.rank, e.compile_id) for e in entries if e.kind in _PARTITIONED}
            kept = [e for e in entries if not (e.kind == "aot_joint_graph" and (e.rank, e.compile_id) in parted)]
            skipped = len(entries) - len(kept)
            total -= skipped
            entries = kept
        regex = _regex(pattern)
        hits: list[_schema.EvidenceHit] = []
        total_matches = shown = config = 0
        for entry in entries:
            whole = self.store.read_evidence(capture_id, entry.id, max_chars=_GREP_MAX_CHARS)
            found, compact = self._grep_record(
                capture_id, whole, regex, context, max(max_matches - shown, 0), in_config, full
            )
            config += found.config_matches
            if found.total:
                total_matches += found.total
                shown += found.shown
                hits.append(
                    _schema.EvidenceHit(
                        evidence=entry,
                        total_matches=found.total,
                        shown_matches=found.shown,
                        matches=found.matches,
                        compact=compact,
                    )
                )
        page = _schema.EvidenceSearch(
            capture=capture_id,
            pattern=pattern,
            in_config=in_config,
            records_searched=total,
            records_matched=len(hits),
            total_matches=total_matches,
            shown_matches=shown,
            config_matches=config,
            joint_graphs_skipped=skipped,
            records=hits,
        )
        return page

    def source(self, ref: str, function: str) -> tuple[Capture, list[SourceLocation]]:
        from dynamo_diff_service._source import find_source

        capture = self.load(self.resolve(ref)[0])
        return capture, find_source(self.store, capture, function)

    # -- the same as documents -----------------------------------------------------------------------

    def evidence_page(
        self,
        ref: str,
        *,
        kind: str | None = None,
        compile_id: str | None = None,
        function: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> EvidenceIndex:
        """One page of a capture's evidence index (see `evidence_index`)."""
        capture_id, items, total = self.evidence_index(
            ref, kind=kind, compile_id=compile_id, function=function, offset=offset, limit=limit
        )
        next_offset = offset + len(items) if offset + len(items) < total else None
        return _schema.EvidenceIndex(
            capture=capture_id, total=total, offset=offset, next_offset=next_offset, items=items
        )

    def evidence_excerpt(
        self, ref: str, evidence_id: str, *, offset: int = 0, max_chars: int = 4000, full: bool = False
    ) -> EvidenceExcerptDocument:
        """A slice of one record's text, its sha256 checked (`ref` as `open` takes it): condensed (the user's
        stack frames kept, runs of library frames one line each, the embedded configuration left out; `_condense`)
        unless `full`, when it is the record's text as written. `offset` counts in the text shown."""
        capture_id = self.resolve(ref)[0]
        if offset < 0 or max_chars <= 0:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "offset must be >= 0 and max_chars > 0")
        condensed = None if full else self._condense(capture_id, evidence_id)
        if condensed is None:
            excerpt = self.store.read_evidence(capture_id, evidence_id, offset=offset, max_chars=max_chars)
            return _schema.EvidenceExcerpt(
                capture=capture_id,
                evidence=excerpt.evidence,
                offset=excerpt.offset,
                next_offset=excerpt.next_offset,
                total_chars=excerpt.total_chars,
                text=excerpt.text,
            )
        ev, short, whole = condensed
        chunk = short.text[offset : offset + max_chars]
        end = offset + len(chunk)
        changed = short.collapsed_frames > 0 or short.config_chars > 0 or short.compact is not None
        return _schema.EvidenceExcerpt(
            capture=capture_id,
            evidence=ev,
            offset=offset,
            next_offset=end if end < len(short.text) else None,
            total_chars=len(short.text),
            text=chunk,
            condensed=changed,
            collapsed_frames=short.collapsed_frames,
            config_chars=short.config_chars,
            compact=short.compact,
            record_chars=whole if changed else None,
        )

    def _condense(
        self, capture_id: str, evidence_id: str, read: EvidenceExcerpt | None = None
    ) -> tuple[Evidence, Condensed, int] | None:
        """(the record's index entry, its text condensed, the length of its text as written), kept for reuse;
        None for a record too long to condense (it is paged as written). `read`: the record already read as
        `_GREP_MAX_CHARS` reads it (not read again)."""
        from dynamo_diff_service._condense import condense, needs_strings

        key = (capture_id, evidence_id)
        if (hit := self._condensed.get(key)) is not None:
            return hit
        whole = read or self.store.read_evidence(capture_id, evidence_id, max_chars=_GREP_MAX_CHARS)
        if whole.next_offset is not None:
            return None
        ev = whole.evidence
        strings = self.store.intern_strings(capture_id, ev.file, ev.offset) if needs_strings(whole.text) else {}
        result = (ev, condense(whole.text, strings), whole.total_chars)
        if len(self._condensed) >= 64:
            self._condensed.pop(next(iter(self._condensed)))
        self._condensed[key] = result
        return result

    def evidence_grep(
        self,
        ref: str,
        evidence_id: str,
        pattern: str,
        *,
        context: int = 2,
        max_matches: int = GREP_MAX_MATCHES,
        in_config: bool = False,
        full: bool = False,
    ) -> EvidenceGrep:
        """The lines of one record that match `pattern` (see `grep_evidence`)."""
        capture_id = self.resolve(ref)[0]
        whole, found, compact = self.grep_evidence(
            capture_id, evidence_id, pattern, context=context, max_matches=max_matches, in_config=in_config, full=full
        )
        return grep_document(capture_id, whole, pattern, found, in_config=in_config, compact=compact)

    def evidence_diff(
        self, ref: str, evidence_id: str, other_ref: str, other_id: str, *, full: bool = False
    ) -> _schema.EvidenceDiff:
        """A unified diff of two records as shown (compact unless `full`), each hash-checked; their first, envelope
        line left out (its time and ids always differ)."""
        a = self.evidence_excerpt(ref, evidence_id, max_chars=EVIDENCE_DIFF_CHARS, full=full)
        b = self.evidence_excerpt(other_ref, other_id, max_chars=EVIDENCE_DIFF_CHARS, full=full)
        name_a = f"{short_id(a.capture)} {a.evidence.id} ({a.evidence.kind}, compile {a.evidence.compile_id or '-'})"
        name_b = f"{short_id(b.capture)} {b.evidence.id} ({b.evidence.kind}, compile {b.evidence.compile_id or '-'})"
        lines = list(
            difflib.unified_diff(
                a.text.splitlines()[1:], b.text.splitlines()[1:], name_a, name_b, n=EVIDENCE_DIFF_CONTEXT, lineterm=""
            )
        )
        return _schema.EvidenceDiff(
            capture=a.capture,
            evidence=a.evidence,
            other_capture=b.capture,
            other=b.evidence,
            compact=bool(a.compact or b.compact),
            lines_differ=sum(1 for line in lines[2:] if line[:1] in "+-"),
            lines=lines,
        )

    def source_document(
        self,
        ref: str,
        function: str | None = None,
        *,
        file: str | None = None,
        context: int | None = 0,
        function_context: int = 0,
    ) -> SourceResult:
        """Every compiled function `function` names in a stored capture, with its captured lines (`context`: the
        lines shown around each; None: `function_context`, or LINE_CONTEXT around a FILE:LINE), else each function
        or method of that name defined in a captured file (not compiled), or FILE:LINE's lines; with `file` one
        whole captured file."""
        from dynamo_diff_service._source import find_file, missing_file

        if file is not None:
            capture = self.load(ref)
            files, paths = self.store.source_files(capture)
            rel = find_file(files, paths, file)
            if rel is None:
                raise missing_file(capture, file, files)
            text = files[rel]
            captured = next((absolute for absolute, r in paths.items() if r == rel), rel)
            return _schema.SourceResult(
                capture=capture.capture.id,
                function="",
                file=file,
                sources_note=capture.capture.validity.sources_note(),
                locations=[
                    _schema.SourceLocation(
                        co_filename=captured,
                        co_firstlineno=1,
                        snapshot=rel,
                        first_line=1,
                        last_line=max(len(text.splitlines()), 1),
                        sha256=hashlib.sha256(text.encode()).hexdigest(),
                        text=text,
                    )
                ],
            )
        if function is None:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "give a function or a file")
        capture, locations = self.source(ref, function)
        if context is None:
            context = LINE_CONTEXT if any(loc.line is not None for loc in locations) else function_context
        return _schema.SourceResult(
            capture=capture.capture.id,
            function=function,
            context=context,
            sources_note=capture.capture.validity.sources_note(),
            locations=[
                _schema.SourceLocation(
                    co_filename=loc.co_filename,
                    co_firstlineno=loc.co_firstlineno,
                    snapshot=loc.snapshot,
                    first_line=loc.first_line,
                    last_line=loc.last_line,
                    sha256=loc.sha256,
                    text=loc.text,
                    compiled=loc.compiled,
                    line=loc.line,
                    name=loc.name,
                )
                for loc in locations
            ],
        )

    def source_diff(
        self, baseline: Capture, candidate: Capture, *, function: str | None = None, file: str | None = None
    ) -> SourceDiff:
        """The code change between two runs: each compiled function (of their comparison's rows) whose definition
        differs between the runs' source snapshots. `function`: that function as its comparison row pairs it (a
        renamed or moved one too), then the functions that called it and that it calls; `file`: one whole
        captured file."""
        ids = {"baseline": baseline.capture.id, "candidate": candidate.capture.id}
        if file is not None:
            return _schema.SourceDiff(**ids, file=file, functions=self._file_diff(baseline, candidate, file))
        comparison = self.compare(baseline, candidate)
        if function is not None:
            around = self._function_diff(comparison, (baseline, candidate), function)
            if around is not None:
                return _schema.SourceDiff(**ids, function=function, functions=around)
        changes = self.source_changes(comparison, (baseline, candidate))
        if function is not None:
            changes = [c for c in changes if function in (c.qualified_name, c.qualified_name.rsplit(".", 1)[-1])]
        return _schema.SourceDiff(
            **ids,
            function=function,
            functions=[
                _schema.FunctionSourceDiff(
                    qualified_name=c.qualified_name, baseline=c.baseline, candidate=c.candidate, lines=list(c.lines)
                )
                for c in changes
            ],
        )

    def _file_diff(self, baseline: Capture, candidate: Capture, file: str) -> list[FunctionSourceDiff]:
        """One whole captured file's unified diff (empty when the two snapshots are equal)."""
        from dynamo_diff_service._source import find_file, missing_file

        b_files, b_paths = self.store.source_files(baseline)
        c_files, c_paths = self.store.source_files(candidate)
        b_rel, c_rel = find_file(b_files, b_paths, file), find_file(c_files, c_paths, file)
        if b_rel is None and c_rel is None:
            raise missing_file(baseline, file, b_files)
        before = b_files[b_rel].splitlines() if b_rel is not None else []
        after = c_files[c_rel].splitlines() if c_rel is not None else []
        if before == after:
            return []
        lines = difflib.unified_diff(
            before,
            after,
            fromfile=f"baseline/{b_rel}" if b_rel else "/dev/null",
            tofile=f"candidate/{c_rel}" if c_rel else "/dev/null",
            lineterm="",
        )
        return [_schema.FunctionSourceDiff(role="file", baseline=b_rel, candidate=c_rel, lines=list(lines))]

    def _function_diff(
        self, comparison: Comparison, captures: tuple[Capture, Capture], function: str
    ) -> list[FunctionSourceDiff] | None:
        """The code around one function as its comparison row pairs it: None when no matched row names it."""
        row = next((r for r in comparison.functions if _names_row(r, function)), None)
        if row is None or row.baseline is None or row.candidate is None:
            return None
        compilations = tuple(
            _compilations(capture, side) for capture, side in zip(captures, (row.baseline, row.candidate), strict=True)
        )
        found = _compare.row_code_changes(
            (row.baseline, row.candidate),
            (compilations[0], compilations[1]),
            (self.sources(captures[0]), self.sources(captures[1])),
        )
        return [
            _schema.FunctionSourceDiff(
                qualified_name=c.candidate.qualified_name,
                role=c.role,
                baseline=f"{c.baseline.rel_path}:{c.baseline.first_line}",
                candidate=f"{c.candidate.rel_path}:{c.candidate.first_line}",
                lines=c.lines,
                baseline_evidence=list(c.baseline.evidence),
                candidate_evidence=list(c.candidate.evidence),
            )
            for c in found
        ]


def _regex(pattern: str) -> re.Pattern[str]:
    """A grep's pattern: a regular expression, else the text itself; in any case."""
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error:
        return re.compile(re.escape(pattern), re.IGNORECASE)


def _compactable(text: str) -> bool:
    """Whether a record's first line names a kind shown compact (_compact), without decoding it all."""
    from dynamo_diff_service._compact import COMPACT_KINDS

    head = text[: text.find("\n")] if "\n" in text else text
    return any(f'"{kind}"' in head for kind in COMPACT_KINDS)


def _names_row(row: FunctionRow, function: str) -> bool:
    """Whether `function` names a side of the row: its qualified or bare name, or FILE:LINE."""
    for side in (row.baseline, row.candidate):
        if side is None or side.qualified_name is None:
            continue
        file = side.file or ""
        names = {
            side.qualified_name,
            side.qualified_name.rsplit(".", 1)[-1],
            f"{file}:{side.line}",
            f"{file.rsplit('/', 1)[-1]}:{side.line}",
        }
        if function in names:
            return True
    return False


def _compilations(capture: Capture, side: FunctionSide) -> list[Compilation]:
    """A row side's compilations, by its compile ids ('rank N:0/1' in a capture of several ranks)."""
    wanted = set(side.compile_ids)
    several = len(capture.ranks) > 1
    return [
        c
        for rank in capture.ranks
        for c in rank.compilations
        if (f"rank {'?' if rank.rank is None else rank.rank}:{c.compile_id}" if several else c.compile_id) in wanted
    ]


def read_source_map(path: Path | None) -> UserMap | None:
    """A source map (JSON: baseline function id -> candidate function id) from a file."""
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"cannot read the source map {path}: {err.strerror}") from err
    from dynamo_diff_match import load_user_map

    return load_user_map(text)


def source_map_of(pairs: dict[str, str] | None) -> UserMap | None:
    """A source map given as a mapping (an MCP argument)."""
    from dynamo_diff_match import load_user_map

    return None if pairs is None else load_user_map(json.dumps(pairs))


_LABEL_VARIANT = re.compile(
    r"[-_.]?(?:v?\d+|before|after|old|new|base|baseline|cand|candidate|cold|warm|a|b|ref|fix|fixed)$", re.IGNORECASE
)


def _folders(parent: Path) -> list[Path]:
    """The sub-folders of a folder, by name, hidden ones passed over."""
    try:
        return sorted(p for p in parent.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []


def label_stem(label: str) -> str:
    """A label without its variant suffix: `edit_v1` and `edit_v2` -> `edit`, `run-before` -> `run`."""
    return _LABEL_VARIANT.sub("", label) or label
