"""Captures as tables: one Parquet file per table, for DuckDB, Spark and pandas (docs/INTEGRATIONS.md, "Tables
for DuckDB, Spark and pandas").

pyarrow is the optional extra `dynamo-diff[parquet]` (`dynamo-diff-service[parquet]`): it is imported when an
export runs, and its absence is an error with the install hint. Every row carries its capture's id. The columns
of each table are declared once, in `TABLES`; the docs list them and a test checks the two agree.

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

from dynamo_diff_schema import Capture, DynamoDiffError, ErrorCode
from dynamo_diff_schema.compilation import Compilation
from dynamo_diff_schema.counts import COUNT_KEYS, Counts
from dynamo_diff_store import check_name_fits

INSTALL_HINT = 'Parquet export needs pyarrow: pip install "dynamo-diff[parquet]"'
EXPORT_MANIFEST = "export.json"
EXPORT_FORMAT = "dynamo-diff-tables"
EXPORT_VERSION = 1

# (column, type, description). Types: string, int64, float64, bool, timestamp (microseconds, UTC), list<string>.
Column = tuple[str, str, str]

COUNT_COLUMNS: list[Column] = [(key, "int64", f"count `{key}` (docs/SEMANTICS.md)") for key in COUNT_KEYS] + [
    ("compile_time_s", "float64", "entire_frame_compile_time_s summed over the compilations")
]
_WHERE: list[Column] = [
    ("capture_id", "string", "the capture's id (sha256)"),
    ("rank", "int64", "the rank (null: not named by the trace)"),
]
_CODE: list[Column] = [
    ("function_key", "string", "'co_filename:co_firstlineno:co_name' of the compiled frame"),
    ("co_filename", "string", "the compiled frame's file, as the trace recorded it"),
    ("co_name", "string", "the compiled frame's name"),
    ("co_firstlineno", "int64", "its first line"),
    ("qualified_name", "string", "its qualified name, when a source snapshot gives it"),
]

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
        *COUNT_COLUMNS,
    ],
    "ranks": [*_WHERE, ("files", "list<string>", "its trace files"), *COUNT_COLUMNS],
    "functions": [
        *_WHERE,
        *_CODE,
        ("compile_ids", "list<string>", "its compilations"),
        *COUNT_COLUMNS,
    ],
    "compilations": [
        *_WHERE,
        ("compile_id", "string", "tlparse-style id: '[!ca/]frame/frame_compile_id', '#n' after a reset"),
        ("frame_id", "int64", "torch's frame id"),
        ("frame_compile_id", "int64", "the frame's compilation number"),
        ("compiled_autograd_id", "int64", "compiled autograd's id, when set"),
        ("occurrence", "int64", "0, then 1 after a torch._dynamo.reset() repeated the id, ..."),
        *_CODE,
        ("caller_file", "string", "library frames: the user file that called it"),
        ("caller_line", "int64", "library frames: the line of the call"),
        ("outcome", "string", "completed, failed, no_graph_observed, unknown, unresolved"),
        ("outcome_reason", "string", "why that outcome, in one line"),
        ("attempts", "int64", "analysis attempts"),
        ("restarts", "int64", "restarted analyses"),
        ("recompile", "bool", "true: torch recorded why this compilation recompiled"),
        ("recompile_confirmed", "bool", "a confirmed recompilation (counted in confirmed_recompilation_identities)"),
        ("failing_guards", "int64", "failing guards listed for the recompilation"),
        ("failing_guard_categories", "list<string>", "their categories, in order (shape, value, dtype, ...)"),
        ("first_failing_guard", "string", "the first failing guard's text"),
        ("graph_breaks", "int64", "graph-break records"),
        ("graph_break_keys", "list<string>", "each break's gbNNNN id, else its type, else its message's first line"),
        ("failure_type", "string", "the failure's exception type"),
        ("failure_reason", "string", "the failure's message"),
        ("failure_suppressed", "bool", "suppress_errors was on when it failed (null: not recorded)"),
        ("limit_events", "int64", "compiler-limit hits (recompile_limit, ...)"),
        ("op_count", "int64", "ops of the captured graph"),
        ("graph_empty", "bool", "the graph reached the backend with no ops"),
        ("guard_count", "int64", "guards of the compiled code"),
        ("cache_hits", "int64", "FX graph and AOTAutograd cache hits"),
        ("cache_misses", "int64", "FX graph and AOTAutograd cache misses"),
        ("backward_compiled", "bool", "AOTAutograd's backward was compiled"),
        ("compile_time_s", "float64", "entire_frame_compile_time_s"),
        ("start_time", "timestamp", "when it started (compilation_metrics start_time)"),
        ("evidence_ids", "list<string>", "the trace records behind it (dynamo-diff evidence CAPTURE ID)"),
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
        ("user_file", "string", "the user file where it broke"),
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
}


@dataclass
class ExportResult:
    out: Path
    captures: list[str]
    rows: dict[str, int]


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


def _code(comp_code: Any) -> dict[str, Any]:
    return {
        "function_key": f"{comp_code.co_filename}:{comp_code.co_firstlineno}:{comp_code.co_name}",
        "co_filename": comp_code.co_filename,
        "co_name": comp_code.co_name,
        "co_firstlineno": comp_code.co_firstlineno,
        "qualified_name": comp_code.qualified_name,
    }


def _compilation(capture_id: str, rank: int | None, comp: Compilation) -> dict[str, Any]:
    rec, failure, graph = comp.recompile, comp.failure, comp.graph
    caller = comp.code.caller
    return {
        "capture_id": capture_id,
        "rank": rank,
        "compile_id": comp.compile_id,
        "frame_id": comp.identity.frame_id,
        "frame_compile_id": comp.identity.frame_compile_id,
        "compiled_autograd_id": comp.identity.compiled_autograd_id,
        "occurrence": comp.identity.occurrence,
        **_code(comp.code),
        "caller_file": caller.filename if caller else None,
        "caller_line": caller.line if caller else None,
        "outcome": str(comp.outcome),
        "outcome_reason": comp.outcome_reason,
        "attempts": len(comp.attempts),
        "restarts": comp.restart_count,
        "recompile": rec is not None,
        "recompile_confirmed": bool(rec and rec.confirmed),
        "failing_guards": len(rec.reasons) if rec else 0,
        "failing_guard_categories": [str(r.category) for r in rec.reasons] if rec else [],
        "first_failing_guard": rec.reasons[0].text if rec and rec.reasons else None,
        "graph_breaks": len(comp.graph_breaks),
        "graph_break_keys": [b.key for b in comp.graph_breaks],
        "failure_type": failure.fail_type if failure else None,
        "failure_reason": failure.reason if failure else None,
        "failure_suppressed": failure.suppressed if failure else None,
        "limit_events": len(comp.limit_events),
        "op_count": graph.op_count if graph else None,
        "graph_empty": graph.empty if graph else None,
        "guard_count": comp.guards.count if comp.guards else None,
        "cache_hits": sum(1 for e in comp.cache_events if e.decision == "hit"),
        "cache_misses": sum(1 for e in comp.cache_events if e.decision == "miss"),
        "backward_compiled": bool(comp.aot and comp.aot.backward_compiled),
        "compile_time_s": comp.phase_times.get("entire_frame_compile_time_s"),
        "start_time": _time(comp.start_time),
        "evidence_ids": list(comp.evidence_ids),
    }


def capture_rows(capture: Capture) -> dict[str, Iterator[dict[str, Any]]]:
    """The rows of each table for one capture (generators: a large capture is not copied)."""
    info = capture.capture
    cid = info.id

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
            **_counts(capture.counts),
        }

    def ranks() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            yield {"capture_id": cid, "rank": r.rank, "files": list(r.files), **_counts(r.counts)}

    def functions() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            for f in r.functions:
                yield {
                    "capture_id": cid,
                    "rank": r.rank,
                    **_code(f.code),
                    "function_key": f.key,
                    "compile_ids": list(f.compile_ids),
                    **_counts(f.counts),
                }

    def compilations() -> Iterator[dict[str, Any]]:
        for r in capture.ranks:
            for comp in r.compilations:
                yield _compilation(cid, r.rank, comp)

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
                        "user_file": b.user_file,
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
        "compilations": compilations(),
        "guards": guards(),
        "graph_breaks": graph_breaks(),
        "evidence": evidence(),
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
    overwrite: bool = False,
) -> ExportResult:
    """Write the tables of the captures (ids, each loaded once with `load`) into `out` as Parquet files."""
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
    try:
        schemas = {name: _arrow_schema(pa, columns) for name, columns in TABLES.items()}
        writers = {name: pq.ParquetWriter(staging / f"{name}.parquet", schemas[name]) for name in TABLES}
        try:
            for capture_id in captures:
                capture = load(capture_id)
                for name, produced in capture_rows(capture).items():
                    batch = list(produced)
                    if batch:
                        writers[name].write_table(pa.Table.from_pylist(batch, schema=schemas[name]))
                        rows[name] += len(batch)
        finally:
            for writer in writers.values():
                writer.close()
        manifest = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "captures": captures,
            "tables": {name: {"file": f"{name}.parquet", "rows": rows[name]} for name in TABLES},
        }
        (staging / EXPORT_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        _swap_in(staging, out)
    except BaseException as err:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(err, OSError):
            raise DynamoDiffError(ErrorCode.IO_ERROR, f"cannot write the export to {out}: {err}") from err
        raise
    return ExportResult(out, captures, rows)


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
