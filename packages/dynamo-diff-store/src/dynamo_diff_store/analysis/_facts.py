"""What one record says, extracted on its own (no state): the per-record half of classification.

Extraction reads the payload (graph text, guard tree, reason text) and keeps only the small facts the
classifier needs, so it can run where the record was read (in a worker process for a large file) and the
classifier folds the facts in file order.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from dynamo_diff_schema.compilation import CacheDecision, CacheName

from dynamo_diff_store.analysis._graphbreaks import parse_graph_break
from dynamo_diff_store.analysis._graphs import op_histogram
from dynamo_diff_store.analysis._guards import categorize, split_reason_text
from dynamo_diff_store.reading import Record, loads_payload

_CACHE_ARTIFACT = re.compile(r"^(fx_graph|aotautograd)_cache_(hit|miss|bypass)$")
# describe_tensor's device, e.g. "device(type='cuda', index=0)" (torch 2.13) or a plain "cpu".
_DEVICE_TYPE = re.compile(r"type='([A-Za-z0-9_]+)'|^([A-Za-z0-9_]+)(?::\d+)?$")
# `| | +- TENSOR_MATCH: check_tensor(...)` lines of a dynamo_cpp_guards_str guard tree.
_CPP_GUARD = re.compile(r"^[ \t|+-]*(?!TREE_GUARD_MANAGER)([A-Z][A-Z_]{2,}):", re.M)

CompileKeyTuple = tuple[int | None, int | None, int | None]
# AOTAutograd's graphs of a compilation (training: forward and backward; inference: one).
AOT_GRAPHS = frozenset({"aot_forward_graph", "aot_backward_graph", "aot_inference_graph"})


class StartStack(NamedTuple):
    """A dynamo_start stack, reduced: the compiled frame and the frames below it (filenames may be intern
    indexes, resolved when the rank's `str` records have all been read)."""

    filename: int | str | None
    name: str | None
    below: tuple[tuple[int | str, int | None, str | None], ...]


@dataclass(slots=True)
class Fact:
    """One record, reduced. `key` is (compiled_autograd_id, frame_id, frame_compile_id), None for run records.
    `file`, `offset`, `length` locate the evidence bytes (the payload file for a tlparse export)."""

    kind: str
    name: str | None
    key: CompileKeyTuple | None
    attempt: int | None
    line: int
    file: str
    offset: int
    length: int
    rank: int | None = None
    data: Any = None


def extract(rec: Record) -> Fact:
    span = rec.payload_span or rec.span
    c = rec.compile
    name = rec.artifact_name
    fact = Fact(
        kind=rec.kind,
        name=name,
        # A compilation identity needs a frame id. Records with only a compiled_autograd_id are compiled
        # autograd's capture of the backward graph (torch 2.13: compiled_autograd_graph*), not a Dynamo frame.
        key=(c.compiled_autograd_id, c.frame_id, c.frame_compile_id) if c.frame_id is not None else None,
        attempt=c.attempt,
        line=rec.line,
        file=span.file,
        offset=span.offset,
        length=span.length,
        rank=rec.rank,
    )
    payload = rec.payload
    kind = rec.kind
    if kind == "artifact":
        if name == "torch_version":
            fact.data = parse_torch_version(payload)
        elif name == "recompile_reasons" and payload is not None:
            fact.data = [(text, categorize(text)) for text in reason_entries(payload)]
        elif name == "dynamo_graph_break_reason" and payload is not None:
            fact.data = parse_graph_break(payload, None)
        elif name == "dynamo_error":
            fact.data = (payload or "").strip()[-4000:]
        elif name is not None and (match := _CACHE_ARTIFACT.match(name)):
            cache = CacheName.FX_GRAPH if match[1] == "fx_graph" else CacheName.AOTAUTOGRAD
            fact.data = (cache, CacheDecision(match[2]), _cache_reason(payload))
    elif kind in ("compilation_metrics", "bwd_compilation_metrics"):
        fact.data = rec.body if isinstance(rec.body, dict) else {}
    elif kind == "dynamo_start":
        fact.data = _stack_top(rec.body)
    elif kind == "dynamo_output_graph" and payload is not None:
        fact.data = op_histogram(payload)
    elif kind in AOT_GRAPHS and payload is not None:
        fact.data = sum(op_histogram(payload).values())
    elif kind == "dynamo_cpp_guards_str" and payload is not None:
        fact.data = Counter(_CPP_GUARD.findall(payload))
    elif kind == "dynamo_guards" and payload is not None:
        fact.data = _json_guard_categories(payload)
    elif kind == "describe_tensor":
        fact.data = device_type(rec.body.get("device") if isinstance(rec.body, dict) else None)
    return fact


def device_type(value: Any) -> str | None:
    """'cpu', 'cuda', ... from a describe_tensor device field (the index is left out: ranks use their own)."""
    if not isinstance(value, str):
        return None
    match = _DEVICE_TYPE.search(value.strip())
    return (match[1] or match[2]) if match else None


def reason_entries(payload: str) -> list[str]:
    """Entries of a recompile_reasons payload: a JSON list (older torch) or plain text (newer torch)."""
    stripped = payload.strip()
    if stripped.startswith("["):
        try:
            parsed = loads_payload(stripped)
        except ValueError:
            parsed = None
        if isinstance(parsed, list):
            return [str(item) for item in parsed]
    return split_reason_text(payload)


def parse_torch_version(payload: str | None) -> tuple[str | None, str | None]:
    # torch 2.13: {"pytorch_version": "2.13.0+cpu", "commit": "<git sha>", "oss": true}
    if not payload or not payload.strip():
        return None, None
    try:
        parsed = loads_payload(payload)
    except ValueError:
        return payload.strip().splitlines()[0][:100], None
    if isinstance(parsed, dict):
        version, commit = parsed.get("pytorch_version"), parsed.get("commit")
        return (version[:100] if isinstance(version, str) else None, commit[:64] if isinstance(commit, str) else None)
    return (parsed[:100] if isinstance(parsed, str) else None), None


# Frames kept below the compiled one (the caller search looks at the innermost ones first; deeper ones are rare).
_CALLER_FRAMES = 64


def _stack_top(body: Any) -> StartStack | None:
    """The innermost frame of a dynamo_start stack (filename or intern index, function name) and the frames
    below it, innermost last: (filename or intern index, line, name)."""
    stack = body.get("stack") if isinstance(body, dict) else None
    if not (isinstance(stack, list) and stack and isinstance(stack[-1], dict)):
        return None
    top = stack[-1]
    filename = top.get("filename")
    name = top.get("name")
    below = []
    for frame in stack[-1 - _CALLER_FRAMES : -1]:
        if isinstance(frame, dict) and isinstance(fn := frame.get("filename"), int | str):
            line, fname = frame.get("line"), frame.get("name")
            below.append((fn, line if isinstance(line, int) else None, fname if isinstance(fname, str) else None))
    return StartStack(
        filename if isinstance(filename, int | str) else None, name if isinstance(name, str) else None, tuple(below)
    )


def _cache_reason(payload: str | None) -> str | None:
    if not payload:
        return None
    try:
        parsed = loads_payload(payload)
    except ValueError:
        return None
    if isinstance(parsed, dict):
        for key in ("cache_bypass_reason", "reason", "cache_event_reason"):
            value = parsed.get(key)
            if isinstance(value, str):
                return value[:500]
    return None


def _json_guard_categories(text: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    try:
        parsed = loads_payload(text)
    except ValueError:
        return counts
    if isinstance(parsed, list):
        for guard in parsed:
            if isinstance(guard, dict) and isinstance(guard.get("type"), str):
                counts[guard["type"]] += 1
    return counts
