"""The record kinds Dynamo Diff interprets, each in one entry: what a record of that kind says on its own
(`extract`, run per record, possibly in a worker process), which Classifier method folds it into a compilation
(`fold`, in file order) and which source files it names (`files`, for capture's snapshots).

Keys are the record kind, or `artifact:<name>` for torch's artifact records. A kind not listed is still indexed
as evidence (unless it is one of NOT_INDEXED) and named in the `uninterpreted_record_kinds` notice. To interpret
a new kind: add its entry here, its fold method to Classifier and a test (CONTRIBUTING.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from dynamo_diff_schema.compilation import CacheDecision, CacheName

from dynamo_diff_store.analysis._facts import (
    AOT_GRAPHS,
    Fact,
    cache_reason,
    cpp_guard_tree,
    device_type,
    json_guard_tree,
    parse_torch_version,
    reason_entries,
    stack_top,
)
from dynamo_diff_store.analysis._graphbreaks import parse_graph_break
from dynamo_diff_store.analysis._graphs import op_histogram
from dynamo_diff_store.analysis._guards import categorize
from dynamo_diff_store.reading import Record

# Records too many and too small to index one by one (timing spans, and one description per tensor, storage and
# source of every graph input: hundreds per compilation); still counted, still in the stored input. Indexing
# them cost a third of an import (tools/bench/import_scaling.py).
NOT_INDEXED = frozenset({"chromium_event", "describe_tensor", "describe_storage", "describe_source"})

# Python traceback frames ('File "...", line N') in failure payloads, and graph-break sites.
_TRACEBACK_FILE = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line \d+', re.M)
_SITE_FILE = re.compile(r"^Graph break in user code at (?P<file>.+?):\d+\s*$", re.M)


def _nothing(rec: Record) -> Any:
    return None


def _no_files(rec: Record) -> Iterable[int | str]:
    return ()


@dataclass(frozen=True)
class RecordKind:
    fold: str  # the Classifier method that folds a fact of this kind into its compilation
    extract: Callable[[Record], Any] = _nothing
    # Source files the record names: paths, or intern indexes (ints) resolved through the file's `str` records.
    files: Callable[[Record], Iterable[int | str]] = _no_files
    # Listed as interpreted in the notice (describe_tensor is read for devices, but counted as not interpreted).
    interpreted: bool = True
    # About the run, not a compilation: folded without a compile id.
    run_level: bool = False


def _payload(fn: Callable[[str], Any]) -> Callable[[Record], Any]:
    """An extractor of the record's payload, None when the payload is missing."""

    def extract(rec: Record) -> Any:
        return None if rec.payload is None else fn(rec.payload)

    return extract


def _body(rec: Record) -> dict[str, Any]:
    return rec.body if isinstance(rec.body, dict) else {}


def _start_files(rec: Record) -> Iterable[int | str]:
    stack = _body(rec).get("stack")
    if isinstance(stack, list):
        for frame in stack:
            if isinstance(frame, dict) and isinstance(name := frame.get("filename"), int | str):
                yield name


def _metrics_files(rec: Record) -> Iterable[int | str]:
    body = _body(rec)
    return [body[key] for key in ("co_filename", "fail_user_frame_filename") if isinstance(body.get(key), str)]


def _graph_break_files(rec: Record) -> Iterable[int | str]:
    if not rec.payload:
        return []
    gb = parse_graph_break(rec.payload, None)
    found: list[int | str] = [gb.user_file] if gb.user_file else []
    found += [frame.filename for frame in gb.user_stack if frame.filename]
    found += [m.group("file") for m in _SITE_FILE.finditer(rec.payload)]
    return found


def _error_files(rec: Record) -> Iterable[int | str]:
    return [m.group("file") for m in _TRACEBACK_FILE.finditer(rec.payload or "")]


def _cache_event(cache: CacheName, decision: CacheDecision) -> Callable[[Record], Any]:
    def extract(rec: Record) -> Any:
        return cache, decision, cache_reason(rec.payload)

    return extract


RECORD_KINDS: dict[str, RecordKind] = {
    "dynamo_start": RecordKind("_fold_start", lambda rec: stack_top(rec.body), _start_files),
    "compilation_metrics": RecordKind("_fold_metrics", _body, _metrics_files),
    "bwd_compilation_metrics": RecordKind("_fold_bwd_metrics", _body, _metrics_files),
    "compilation_metrics_runtime": RecordKind("_fold_evidence_only"),
    "dynamo_output_graph": RecordKind("_fold_output_graph", _payload(op_histogram)),
    "dynamo_cpp_guards_str": RecordKind("_fold_guards", _payload(cpp_guard_tree)),
    "dynamo_guards": RecordKind("_fold_guards", _payload(json_guard_tree)),
    **{kind: RecordKind("_fold_aot_graph", _payload(lambda p: sum(op_histogram(p).values()))) for kind in AOT_GRAPHS},
    "describe_tensor": RecordKind(
        "_fold_describe_tensor", lambda rec: device_type(_body(rec).get("device")), interpreted=False
    ),
    "artifact:torch_version": RecordKind(
        "_fold_torch_version", lambda rec: parse_torch_version(rec.payload), run_level=True
    ),
    "artifact:recompile_reasons": RecordKind(
        "_fold_recompile_reasons", _payload(lambda p: [(text, categorize(text)) for text in reason_entries(p)])
    ),
    "artifact:dynamo_graph_break_reason": RecordKind(
        "_fold_graph_break", _payload(lambda p: parse_graph_break(p, None)), _graph_break_files
    ),
    "artifact:dynamo_error": RecordKind("_fold_error", lambda rec: (rec.payload or "").strip()[-4000:], _error_files),
    **{
        f"artifact:{prefix}_cache_{decision}": RecordKind(
            "_fold_cache_event",
            _cache_event(
                CacheName.FX_GRAPH if prefix == "fx_graph" else CacheName.AOTAUTOGRAD, CacheDecision(decision)
            ),
        )
        for prefix in ("fx_graph", "aotautograd")
        for decision in ("hit", "miss", "bypass")
    },
}


def kind_key(kind: str, artifact_name: str | None) -> str:
    """The RECORD_KINDS key of a record: its kind, or `artifact:<name>` for an artifact."""
    return f"artifact:{artifact_name}" if kind == "artifact" and artifact_name else kind


def extract(rec: Record) -> Fact:
    """What one record says on its own (no state): its place, its compile id and its kind's extracted data."""
    span = rec.payload_span or rec.span
    c = rec.compile
    spec = RECORD_KINDS.get(kind_key(rec.kind, rec.artifact_name))
    return Fact(
        kind=rec.kind,
        name=rec.artifact_name,
        # A compilation identity needs a frame id. Records with only a compiled_autograd_id are compiled
        # autograd's capture of the backward graph (torch 2.13: compiled_autograd_graph*), not a Dynamo frame.
        key=(c.compiled_autograd_id, c.frame_id, c.frame_compile_id) if c.frame_id is not None else None,
        attempt=c.attempt,
        line=rec.line,
        file=span.file,
        offset=span.offset,
        length=span.length,
        rank=rec.rank,
        data=None if spec is None else spec.extract(rec),
        repeat=rec.repeat,
    )


def files_named(rec: Record) -> Iterable[int | str]:
    """The source files a record names: its kind's own (stacks, code locations, tracebacks) and the `stack`
    some records carry beside their body. Ints are intern indexes of the record's file."""
    spec = RECORD_KINDS.get(kind_key(rec.kind, rec.artifact_name))
    if spec is not None:
        yield from spec.files(rec)
    if isinstance(rec.stack, list):
        for frame in rec.stack:
            if isinstance(frame, dict) and isinstance(name := frame.get("filename"), int | str):
                yield name


def collapse_repeats(facts: Iterable[Fact]) -> Iterator[Fact]:
    """Facts with each run of alike NOT_INDEXED facts (same kind, compile id, attempt, rank and data, one after
    another) folded into its first, whose `repeat` says how many: such a fact makes no evidence, and folding it
    again into the same compilation changes nothing but its count (three in four records of an Inductor trace
    are chromium_event spans)."""
    run: Fact | None = None
    for fact in facts:
        if run is not None:
            if (
                fact.kind == run.kind
                and fact.key == run.key
                and fact.attempt == run.attempt
                and fact.rank == run.rank
                and fact.data == run.data
            ):
                run.repeat += fact.repeat
                continue
            yield run
            run = None
        if fact.kind in NOT_INDEXED:
            run = fact
        else:
            yield fact
    if run is not None:
        yield run
