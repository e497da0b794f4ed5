"""Captures as tables: one Parquet file per table, for DuckDB, Spark and pandas (docs/INTEGRATIONS.md, "Tables
for DuckDB, Spark and pandas").

The tables are built from the documents the CLI prints, so that a table says what `dynamo-diff` says: the
capture (`analyze --format json`: captures, ranks, compilations, guards, graph breaks, evidence), the run report
(`analyze --by-function --format json`: one `functions` row per function as the CLI folds it, and the function each
compiled frame and compilation counts in) and, with `--compare`, the comparison (`compare --format json`: one
`comparison` row per function pair with its match method). Counts keep the names of the JSON documents
(`COUNT_KEYS`); a file in a key is written relative to the project root as the CLI shows it (a bundle's source
paths; library code from its package on; a bare trace, which names no root, keeps the paths the trace recorded).

pyarrow is the optional extra `dynamo-diff[parquet]` (`dynamo-diff-service[parquet]`): it is imported when an
export runs, and its absence is an error with the install hint. Every row carries its capture's id (a comparison
row, the ids of its two captures). The columns of each table are declared once, in `TABLES`; the docs list them
and a test checks the two agree.

An export writes into a staging directory beside the target and renames it into place when every table is
written, so a failure (a capture reference that names nothing, a damaged capture, a full disk) leaves no half
export. A target that exists is refused unless `overwrite` is given, and then only when it holds a previous export
(its `export.json`): an export never deletes a directory it did not write.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dynamo_diff_compare.generated import generated_by_compile_id
from dynamo_diff_schema import Capture, Comparison, DynamoDiffError, ErrorCode, RunReport
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.comparison import FunctionSide
from dynamo_diff_schema.compilation import CodeLocation, Compilation
from dynamo_diff_schema.counts import COMPILE_PHASES, COUNT_KEYS, Counts, compilation_phases
from dynamo_diff_store import check_name_fits
from dynamo_diff_store.analysis import count_compilations

INSTALL_HINT = 'Parquet export needs pyarrow: pip install "dynamo-diff[parquet]"'
EXPORT_MANIFEST = "export.json"
EXPORT_FORMAT = "dynamo-diff-tables"
# 2: functions folded as the CLI shows them (frames: the compiled frames), phase_times, comparison, repository-
# relative keys, the counts' own names on compilations.
EXPORT_VERSION = 2

# (column, type, description). Types: string, int64, float64, bool, timestamp (microseconds, UTC), list<string>.
Column = tuple[str, str, str]

COUNT_COLUMNS: list[Column] = [(key, "int64", f"count `{key}` (docs/SEMANTICS.md)") for key in COUNT_KEYS] + [
    ("compile_time_s", "float64", "entire_frame_compile_time_s summed over the compilations")
]
_WHERE: list[Column] = [
    ("capture_id", "string", "the capture's id (sha256)"),
    ("rank", "int64", "the rank (null: not named by the trace)"),
]
_FUNCTION_KEY: Column = (
    "function_key",
    "string",
    "the function it counts in, as the functions table keys it ('file::name@line')",
)
_FRAME: list[Column] = [
    ("frame_key", "string", "'file:first line:co_name' of the compiled frame ('<- file:line:caller' for library code)"),
    ("co_filename", "string", "the compiled frame's file, relative to the project root"),
    ("co_name", "string", "the compiled frame's name"),
    ("co_firstlineno", "int64", "its first line"),
    ("qualified_name", "string", "its qualified name, when a source snapshot gives it"),
    ("caller_file", "string", "library frames: the user file that called it"),
    ("caller_line", "int64", "library frames: the line of the call"),
]


def _side_columns(side: str) -> list[Column]:
    return [
        (f"{side}_function_key", "string", f"the {side}'s function, as its functions table keys it"),
        (f"{side}_name", "string", f"the {side}'s function name (JSON `{side}.qualified_name`)"),
        (f"{side}_name_from", "string", "where the name comes from: source, trace, generated or compiled"),
        (f"{side}_file", "string", "its file, relative to the project root"),
        (f"{side}_line", "int64", "its first line"),
        (f"{side}_compile_ids", "list<string>", "its compilations ('rank N:id' in a capture of several ranks)"),
    ]


def _side_counts(side: str) -> list[Column]:
    return [(f"{side}_{name}", kind, f"the {side}'s {name}") for name, kind, _ in COUNT_COLUMNS]


TABLES: dict[str, list[Column]] = {
    "captures": [
        ("capture_id", "string", "the capture's id (sha256)"),
        ("label", "string", "its label in the store"),
        ("imported_at", "timestamp", "when it was imported"),
        ("input_kind", "string", "what was imported: raw_log, raw_directory, tlparse_export, bundle"),
        ("reader_version", "string", "the reader that analysed it"),
        ("torch_version", "string", "torch's version, from the trace"),
        ("torch_git", "string", "torch's commit, from the trace"),
        ("run_state", "string", "how the run ended: completed, exited, killed, interrupted, trace_cut, ..."),
        ("run_finished", "bool", "true: the run finished; null: not recorded (a bare trace)"),
        ("exit_code", "int64", "the command's exit code, when recorded"),
        (
            "compiled_state",
            "string",
            "compiled, nothing_compiled (no frame was compiled) or no_graph (no graph reached the backend)",
        ),
        ("rank_count", "int64", "ranks with a trace"),
        ("source_root", "string", "the project root the keys' files are relative to (null: a bare trace)"),
        *COUNT_COLUMNS,
    ],
    "ranks": [*_WHERE, ("files", "list<string>", "its trace files"), *COUNT_COLUMNS],
    "functions": [
        ("capture_id", "string", "the capture's id (sha256)"),
        ("function_key", "string", "'file::name@line': the function as `analyze` shows it"),
        ("name", "string", "its qualified name, else the code object's name; a compiled target's name"),
        ("file", "string", "its file, relative to the project root (compiled: where torch.compile was called)"),
        ("line", "int64", "its first line (compiled: the torch.compile call's line)"),
        ("compiled", "bool", "named by what the user compiled (library code compiled in place of the call)"),
        ("frames", "list<string>", "the frames counted in it (resume functions, library frames)"),
        ("ranks_summed", "int64", "in a capture of several ranks: how many ranks the counts sum over"),
        ("compile_ids", "list<string>", "its compilations ('rank N:id' in a capture of several ranks)"),
        *COUNT_COLUMNS,
    ],
    "frames": [*_WHERE, _FUNCTION_KEY, *_FRAME, ("compile_ids", "list<string>", "its compilations"), *COUNT_COLUMNS],
    "compilations": [
        *_WHERE,
        ("compile_id", "string", "tlparse-style id: '[!ca/]frame/frame_compile_id', '#n' after a reset"),
        ("frame_id", "int64", "torch's frame id"),
        ("frame_compile_id", "int64", "the frame's compilation number"),
        ("compiled_autograd_id", "int64", "compiled autograd's id, when set"),
        ("occurrence", "int64", "0, then 1 after a torch._dynamo.reset() repeated the id, ..."),
        _FUNCTION_KEY,
        *_FRAME,
        ("outcome", "string", "completed, failed, no_graph_observed, unknown, unresolved"),
        ("outcome_reason", "string", "why that outcome, in one line"),
        ("recompile", "bool", "true: torch recorded why this compilation recompiled"),
        ("recompile_confirmed", "bool", "a confirmed recompilation (counted in confirmed_recompilation_identities)"),
        ("failing_guard_categories", "list<string>", "its failing guards' categories, in order (shape, value, ...)"),
        ("first_failing_guard", "string", "the first failing guard's text"),
        ("graph_break_keys", "list<string>", "each break's gbNNNN id, else its type, else its message's first line"),
        ("failure_type", "string", "the failure's exception type"),
        ("failure_reason", "string", "the failure's message"),
        ("failure_suppressed", "bool", "suppress_errors was on when it failed (null: not recorded)"),
        ("op_count", "int64", "ops of the captured graph"),
        ("graph_empty", "bool", "the graph reached the backend with no ops"),
        ("guard_count", "int64", "guards of the compiled code"),
        ("start_time", "timestamp", "when it started (compilation_metrics start_time)"),
        ("evidence_ids", "list<string>", "the trace records behind it (dynamo-diff evidence CAPTURE ID)"),
        *COUNT_COLUMNS,
    ],
    "phase_times": [
        *_WHERE,
        ("compile_id", "string", "the compilation"),
        _FUNCTION_KEY,
        ("phase", "string", "dynamo, aot_backend, inductor or code_gen (the keys of `phase_times_s`)"),
        ("phase_label", "string", "the phase as the CLI labels it: Dynamo, AOT/backend, Inductor, code gen"),
        ("seconds", "float64", "the time of that phase in that compilation"),
    ],
    "guards": [
        *_WHERE,
        ("compile_id", "string", "the recompilation the guard failed for"),
        ("position", "int64", "0-based position among its failing guards"),
        ("category", "string", "shape, stride, dtype, device, value, identity, type, requires_grad, ..."),
        ("text", "string", "the guard text torch printed"),
        ("evidence_id", "string", "the record it is read from"),
    ],
    "graph_breaks": [
        *_WHERE,
        ("compile_id", "string", "the compilation that broke"),
        ("position", "int64", "0-based position among its breaks"),
        ("gb_id", "string", "torch's graph-break registry id (gbNNNN), when linked"),
        ("gb_type", "string", "the graph-break type line of the message"),
        ("break_key", "string", "gb_id, else gb_type, else the message's first line"),
        ("reason", "string", "the message"),
        ("user_file", "string", "the user file where it broke, relative to the project root"),
        ("user_line", "int64", "and its line"),
        ("evidence_id", "string", "the record it is read from"),
    ],
    "evidence": [
        ("capture_id", "string", "the capture's id (sha256)"),
        ("evidence_id", "string", "e.g. 'r1-e42' (dynamo-diff evidence CAPTURE ID)"),
        ("kind", "string", "record kind or artifact name"),
        ("rank", "int64", "the rank"),
        ("compile_id", "string", "the compilation it belongs to, when any"),
        ("file", "string", "the stored input file, relative to the capture's input root"),
        ("line", "int64", "1-based line of the record"),
        ("byte_offset", "int64", "byte offset of the range in the file"),
        ("byte_length", "int64", "byte length of the range"),
        ("sha256", "string", "sha256 of the range, checked on every read"),
    ],
    "comparison": [
        ("comparison_id", "string", "the comparison's id (JSON `id`)"),
        ("baseline_capture_id", "string", "the baseline capture's id"),
        ("candidate_capture_id", "string", "the candidate capture's id"),
        ("position", "int64", "0-based position of the row, as `compare` orders them"),
        ("status", "string", "matched, changed_source, baseline_only, candidate_only, ambiguous"),
        (
            "method",
            "string",
            "how the pair was matched: user_map, structure, line_diff, qualified_name, same_location, name, ...",
        ),
        ("reason", "string", "why the two sides were (or were not) matched, in one line"),
        *_side_columns("baseline"),
        *_side_columns("candidate"),
        ("pieces", "list<string>", "the frames counted in the row when it broke into several"),
        ("change_kinds", "list<string>", "what changed on the row (recompile_reason, graph_break_new, ...)"),
        ("changes", "list<string>", "each change's summary, as the CLI prints it"),
        *_side_counts("baseline"),
        *_side_counts("candidate"),
    ],
}


@dataclass
class ExportResult:
    out: Path
    captures: list[str]
    rows: dict[str, int]
    comparison: str | None = None


def require_pyarrow() -> tuple[Any, Any]:
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ModuleNotFoundError:
        raise DynamoDiffError(ErrorCode.MISSING_EXTRA, INSTALL_HINT) from None
    return pa, pq


def _arrow_schema(pa: Any, columns: list[Column]) -> Any:
    types = {
        "string": pa.string(),
        "int64": pa.int64(),
        "float64": pa.float64(),
        "bool": pa.bool_(),
        "timestamp": pa.timestamp("us", tz="UTC"),
        "list<string>": pa.list_(pa.string()),
    }
    return pa.schema([pa.field(name, types[kind]) for name, kind, _ in columns])


def _time(value: str | float | None) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return datetime.fromtimestamp(value, tz=UTC)


def _counts(counts: Counts) -> dict[str, Any]:
    row: dict[str, Any] = dict(counts.values())
    row["compile_time_s"] = counts.compile_time_s
    return row


class Paths:
    """A capture's files as the CLI shows them: relative to the project root (a bundle's snapshot paths, else the
    root its manifest names), library code from its package on ('torch/_dynamo/external_utils.py'), anything else
    (a bare trace names no root) as the trace recorded it."""

    def __init__(self, capture: Capture) -> None:
        manifest = capture.capture.manifest
        sources = manifest.sources if manifest is not None else None
        self.root = sources.root if sources is not None and sources.root else None
        self._mapped = {f.captured_path: f.path for f in sources.files if f.captured_path} if sources else {}

    def __call__(self, file: str | None) -> str | None:
        if not file:
            return file
        mapped = self._mapped.get(file)
        if mapped is not None:
            return mapped
        short = library_path(file)
        if short is not None:
            return short
        root = (self.root or "").rstrip("/")
        if root and file.startswith(root + "/"):
            return file[len(root) + 1 :]
        return file


GENERATED = "<generated>"


def function_key(file: str | None, name: str | None, line: int | None, *, generated: bool = False) -> str:
    """'fixtures/workloads/graph_break.py::with_item@16': the form of a source map's ids (`--map`), with the line.
    Code torch generated is keyed by what it is, '<generated>::compiled autograd graph 0': the file name torch made
    up for it counts the modules the process generated before (docs/COMPARING.md, "Generated code")."""
    if generated:
        return f"{GENERATED}::{name or '?'}"
    return f"{file or '?'}::{name or '?'}" + (f"@{line}" if line else "")


def _frame(code: CodeLocation, rel: Paths) -> dict[str, Any]:
    caller = code.caller
    key = f"{rel(code.co_filename) or '?'}:{code.co_firstlineno or 0}:{code.co_name or '?'}"
    if caller is not None:
        key += f" <- {rel(caller.filename)}:{caller.line}:{caller.name}"
    return {
        "frame_key": key,
        "co_filename": rel(code.co_filename),
        "co_name": code.co_name,
        "co_firstlineno": code.co_firstlineno,
        "qualified_name": code.qualified_name,
        "caller_file": rel(caller.filename) if caller else None,
        "caller_line": caller.line if caller else None,
    }


def _compilation(
    capture_id: str, rank: int | None, comp: Compilation, function: str | None, rel: Paths
) -> dict[str, Any]:
    rec, failure, graph = comp.recompile, comp.failure, comp.graph
    return {
        "capture_id": capture_id,
        "rank": rank,
        "compile_id": comp.compile_id,
        "frame_id": comp.identity.frame_id,
        "frame_compile_id": comp.identity.frame_compile_id,
        "compiled_autograd_id": comp.identity.compiled_autograd_id,
        "occurrence": comp.identity.occurrence,
        "function_key": function,
        **_frame(comp.code, rel),
        "outcome": str(comp.outcome),
        "outcome_reason": comp.outcome_reason,
        "recompile": rec is not None,
        "recompile_confirmed": bool(rec and rec.confirmed),
        "failing_guard_categories": [str(r.category) for r in rec.reasons] if rec else [],
        "first_failing_guard": rec.reasons[0].text if rec and rec.reasons else None,
        "graph_break_keys": [b.key for b in comp.graph_breaks],
        "failure_type": failure.fail_type if failure else None,
        "failure_reason": failure.reason if failure else None,
        "failure_suppressed": failure.suppressed if failure else None,
        "op_count": graph.op_count if graph else None,
        "graph_empty": graph.empty if graph else None,
        "guard_count": comp.guards.count if comp.guards else None,
        "start_time": _time(comp.start_time),
        "evidence_ids": list(comp.evidence_ids),
        # Its share of each count, by the rules that count the capture (a compilation counted on its own).
        **_counts(count_compilations([comp])),
    }


def _compile_ids(lines: list[Any]) -> list[str]:
    return [c.compile_id if c.rank is None else f"rank {c.rank}:{c.compile_id}" for c in lines]


def capture_rows(capture: Capture, report: RunReport) -> dict[str, Iterator[dict[str, Any]]]:
    """The rows of each capture table for one capture and its run report (generators: a large capture is not
    copied)."""
    info = capture.capture
    cid = info.id
    rel = Paths(capture)
    multi_rank = len(capture.ranks) > 1
    generated = {
        (r.rank if multi_rank else None, compile_id) for r in capture.ranks for compile_id in generated_by_compile_id(r)
    }
    keys = {
        i: function_key(
            rel(fn.file), fn.name, fn.line, generated=any((c.rank, c.compile_id) in generated for c in fn.compilations)
        )
        for i, fn in enumerate(report.functions)
    }
    # The function each compilation counts in, by (rank as the report names it, compile id).
    function_of = {
        (line.rank, line.compile_id): keys[i] for i, fn in enumerate(report.functions) for line in fn.compilations
    }

    def function(rank: int | None, compile_id: str) -> str | None:
        return function_of.get((rank if multi_rank else None, compile_id))

    def captures() -> Iterator[dict[str, Any]]:
        yield {
            "capture_id": cid,
            "label": info.label,
            "imported_at": _time(info.imported_at),
            "input_kind": str(info.input_kind),
            "reader_version": info.reader_version,
            "torch_version": info.producer.torch,
            "torch_git": info.producer.torch_git,
            "run_state": str(info.run.state),
            "run_finished": info.run.finished,
            "exit_code": info.run.exit_code,
            "compiled_state": str(info.compiled.state),
            "rank_count": len(capture.ranks),
            "source_root": rel.root,
            **_counts(capture.counts),
        }

    def ranks() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            yield {"capture_id": cid, "rank": r.rank, "files": list(r.files), **_counts(r.counts)}

    def functions() -> Iterator[dict[str, Any]]:
        for i, fn in enumerate(report.functions):
            counts = dict.fromkeys(COUNT_KEYS, 0) | fn.counts
            yield {
                "capture_id": cid,
                "function_key": keys[i],
                "name": fn.name,
                "file": rel(fn.file),
                "line": fn.line,
                "compiled": fn.compiled,
                "frames": list(fn.frames),
                "ranks_summed": fn.ranks_summed,
                "compile_ids": _compile_ids(fn.compilations),
                **counts,
                "compile_time_s": fn.compile_time_s,
            }

    def frames() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            for group in r.functions:
                first = group.compile_ids[0] if group.compile_ids else ""
                yield {
                    "capture_id": cid,
                    "rank": r.rank,
                    "function_key": function(r.rank, first),
                    **_frame(group.code, rel),
                    "compile_ids": list(group.compile_ids),
                    **_counts(group.counts),
                }

    def compilations() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            for comp in r.compilations:
                yield _compilation(cid, r.rank, comp, function(r.rank, comp.compile_id), rel)

    def phase_times() -> Iterator[dict[str, Any]]:
        labels = {key: label for key, label, _ in COMPILE_PHASES}
        for r in capture.ranks:
            for comp in r.compilations:
                for phase, seconds in compilation_phases(comp.phase_times).items():
                    yield {
                        "capture_id": cid,
                        "rank": r.rank,
                        "compile_id": comp.compile_id,
                        "function_key": function(r.rank, comp.compile_id),
                        "phase": phase,
                        "phase_label": labels[phase],
                        "seconds": round(seconds, 6),
                    }

    def guards() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            for comp in r.compilations:
                for i, reason in enumerate(comp.recompile.reasons if comp.recompile else []):
                    yield {
                        "capture_id": cid,
                        "rank": r.rank,
                        "compile_id": comp.compile_id,
                        "position": i,
                        "category": str(reason.category),
                        "text": reason.text,
                        "evidence_id": reason.evidence_id,
                    }

    def graph_breaks() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            for comp in r.compilations:
                for i, b in enumerate(comp.graph_breaks):
                    yield {
                        "capture_id": cid,
                        "rank": r.rank,
                        "compile_id": comp.compile_id,
                        "position": i,
                        "gb_id": b.gb_id,
                        "gb_type": b.gb_type,
                        "break_key": b.key,
                        "reason": b.reason,
                        "user_file": rel(b.user_file),
                        "user_line": b.user_line,
                        "evidence_id": b.evidence_id,
                    }

    def evidence() -> Iterator[dict[str, Any]]:
        for e in capture.evidence:
            yield {
                "capture_id": cid,
                "evidence_id": e.id,
                "kind": e.kind,
                "rank": e.rank,
                "compile_id": e.compile_id,
                "file": e.file,
                "line": e.line,
                "byte_offset": e.offset,
                "byte_length": e.length,
                "sha256": e.sha256,
            }

    return {
        "captures": captures(),
        "ranks": ranks(),
        "functions": functions(),
        "frames": frames(),
        "compilations": compilations(),
        "phase_times": phase_times(),
        "guards": guards(),
        "graph_breaks": graph_breaks(),
        "evidence": evidence(),
    }


def _side(prefix: str, side: FunctionSide | None, rel: Paths) -> dict[str, Any]:
    if side is None:
        return {name: None for name, _, _ in _side_columns(prefix) + _side_counts(prefix)}
    file = rel(side.file)
    generated = side.name_from == "generated"
    return {
        f"{prefix}_function_key": function_key(file, side.qualified_name, side.line, generated=generated),
        f"{prefix}_name": side.qualified_name,
        f"{prefix}_name_from": side.name_from,
        f"{prefix}_file": file,
        f"{prefix}_line": side.line,
        f"{prefix}_compile_ids": list(side.compile_ids),
        **{f"{prefix}_{name}": value for name, value in _counts(side.counts).items()},
    }


def comparison_rows(comparison: Comparison, paths: tuple[Paths, Paths]) -> Iterator[dict[str, Any]]:
    """One row per function pair of a comparison, as `compare --format json` lists them."""
    for position, row in enumerate(comparison.functions):
        yield {
            "comparison_id": comparison.id,
            "baseline_capture_id": comparison.baseline.id,
            "candidate_capture_id": comparison.candidate.id,
            "position": position,
            "status": str(row.status),
            "method": str(row.method),
            "reason": row.reason,
            **_side("baseline", row.baseline, paths[0]),
            **_side("candidate", row.candidate, paths[1]),
            "pieces": [piece.name for piece in row.pieces],
            "change_kinds": [str(change.kind) for change in row.changes],
            "changes": [change.summary for change in row.changes],
        }


def check_target(out: Path, overwrite: bool) -> None:
    if not out.exists():
        return
    if not out.is_dir():
        raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"{out} exists and is not a directory")
    if not any(out.iterdir()):
        return
    if not (out / EXPORT_MANIFEST).is_file():
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"{out} is not empty and holds no earlier export ({EXPORT_MANIFEST}); choose an empty or new directory",
        )
    if not overwrite:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"{out} already holds an export; pass --overwrite to replace it, or choose another directory",
        )


def export_parquet(
    captures: list[str],
    load: Callable[[str], Capture],
    out: Path,
    *,
    report: Callable[[Capture], RunReport],
    compare: Callable[[Capture, Capture], Comparison] | None = None,
    pair: tuple[str, str] | None = None,
    overwrite: bool = False,
) -> ExportResult:
    """Write the tables of the captures (ids, each loaded once with `load`, its run report made with `report`) into
    `out` as Parquet files; with `pair` (baseline id, candidate id, both among `captures`) and `compare`, the
    comparison of the two as the `comparison` table (else that table has no rows)."""
    pa, pq = require_pyarrow()
    out = out.absolute()
    check_name_fits(out / EXPORT_MANIFEST, "--out")
    check_target(out, overwrite)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = out.parent / f".{_short(out.name)}.export-{os.getpid()}-{secrets.token_hex(4)}"
        staging.mkdir()
    except OSError as err:
        raise DynamoDiffError(ErrorCode.IO_ERROR, f"cannot write the export to {out}: {err}") from err
    rows = dict.fromkeys(TABLES, 0)
    comparison_id: str | None = None
    try:
        schemas = {name: _arrow_schema(pa, columns) for name, columns in TABLES.items()}
        writers = {name: pq.ParquetWriter(staging / f"{name}.parquet", schemas[name]) for name in TABLES}

        def write(name: str, produced: Iterator[dict[str, Any]]) -> None:
            batch = list(produced)
            if batch:
                writers[name].write_table(pa.Table.from_pylist(batch, schema=schemas[name]))
                rows[name] += len(batch)

        try:
            compared: dict[str, Capture] = {}
            for capture_id in captures:
                capture = load(capture_id)
                for name, produced in capture_rows(capture, report(capture)).items():
                    write(name, produced)
                if pair is not None and capture_id in pair:
                    compared[capture_id] = capture
            if pair is not None and compare is not None:
                base, cand = compared[pair[0]], compared[pair[1]]
                comparison = compare(base, cand)
                comparison_id = comparison.id
                write("comparison", comparison_rows(comparison, (Paths(base), Paths(cand))))
        finally:
            for writer in writers.values():
                writer.close()
        manifest = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "captures": captures,
            "comparison": None if pair is None else {"id": comparison_id, "baseline": pair[0], "candidate": pair[1]},
            "tables": {name: {"file": f"{name}.parquet", "rows": rows[name]} for name in TABLES},
        }
        (staging / EXPORT_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        _swap_in(staging, out)
    except BaseException as err:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(err, OSError):
            raise DynamoDiffError(ErrorCode.IO_ERROR, f"cannot write the export to {out}: {err}") from err
        raise
    return ExportResult(out, captures, rows, comparison_id)


def _short(name: str) -> str:
    """The export folder's name in the names of its staging and replaced folders, short enough for the suffix."""
    return name.encode()[:100].decode(errors="ignore")


def _swap_in(staging: Path, out: Path) -> None:
    """Rename the staging directory to `out`; an earlier export there is moved aside first and removed after."""
    if out.exists() and not any(out.iterdir()):
        out.rmdir()
    if not out.exists():
        staging.rename(out)
        return
    old = out.parent / f".{_short(out.name)}.replaced-{os.getpid()}-{secrets.token_hex(4)}"
    out.rename(old)
    try:
        staging.rename(out)
    except OSError:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)
