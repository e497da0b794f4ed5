"""What one record says, extracted on its own (no state): the per-record half of classification.

Extraction (`_kinds.extract`, one entry per record kind) reads the payload (graph text, guard tree, reason text)
and keeps only the small `Fact` the classifier needs, so it can run where the record was read (in a worker process
for a large file) and the classifier folds the facts in file order. This module holds the Fact and the readers
of torch's payloads the kinds use.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from dynamo_diff_store.analysis._guards import split_reason_text
from dynamo_diff_store.reading import loads_payload

# describe_tensor's device, e.g. "device(type='cuda', index=0)" (torch 2.13) or a plain "cpu".
_DEVICE_TYPE = re.compile(r"type='([A-Za-z0-9_]+)'|^([A-Za-z0-9_]+)(?::\d+)?$")
# `| | +- TENSOR_MATCH: check_tensor(...)` lines of a dynamo_cpp_guards_str guard tree.
CPP_GUARD = re.compile(r"^[ \t|+-]*(?!TREE_GUARD_MANAGER)([A-Z][A-Z_]{2,}):", re.M)

# `| +- GuardManager: source=L['fn'], accessed_by=FrameLocalsGuardAccessor(key='fn', framelocals_idx=2),
# type=<class 'torch.nn.parallel.distributed.DistributedDataParallel'>, ...` (torch 2.13, 2.14): the class of a
# frame local (`L['args'][0]`: the first item of `args`).
_LOCAL_TYPE = re.compile(
    r"GuardManager: source=L\['(?P<local>\w+)'\](?P<first>\[0\])?, accessed_by=\w+\([^)\n]*\), "
    r"type=<class '(?P<cls>[^'\n]+)'>"
)
# The locals whose class can name the module a compiled frame belongs to (see `GuardTree`).
_NAMING_LOCALS = frozenset({"self", "fn", "args[0]"})

CompileKeyTuple = tuple[int | None, int | None, int | None]


class GuardTree(NamedTuple):
    """What a guard record says: how many guards of each kind, and the classes the guard tree gives the frame's
    `self`, `fn` and `args[0]` (the module's class, for the frame a compiled module's call enters first)."""

    categories: Counter[str]
    local_types: dict[str, str]


def cpp_guard_tree(text: str) -> GuardTree:
    local_types: dict[str, str] = {}
    for m in _LOCAL_TYPE.finditer(text):
        local = m["local"] + ("[0]" if m["first"] else "")
        if local in _NAMING_LOCALS and local not in local_types:
            local_types[local] = m["cls"][:300]
    return GuardTree(Counter(CPP_GUARD.findall(text)), local_types)


# AOTAutograd's graphs of a compilation (training: forward and backward; inference: one).
AOT_GRAPHS = frozenset({"aot_forward_graph", "aot_backward_graph", "aot_inference_graph"})


class StartStack(NamedTuple):
    """A dynamo_start stack, reduced: the compiled frame and the frames below it (filenames may be intern
    indexes, resolved when the rank's `str` records have all been read). The compiled frame's `line` is its code
    object's `co_firstlineno` (torch's `log_dynamo_start` writes that, not the line being run), the same value
    compilation_metrics records."""

    filename: int | str | None
    name: str | None
    below: tuple[tuple[int | str, int | None, str | None], ...]
    line: int | None = None
    # The file of the stack's outermost frame when it is module-level code (`<module>`): the script the process
    # started from (python train.py, a torchrun worker); None for a thread's or runpy's stack.
    entry: int | str | None = None


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
    # How many records in a row this fact stands for: consecutive records of a kind that is counted but not
    # indexed (timing spans, tensor descriptions) with the same compile id, attempt and data are folded once.
    repeat: int = 1
    # sha256 of the bytes at file/offset/length, when the worker that read the record hashed them (a record
    # that may become evidence): the importing process then need not read them again.
    sha256: str | None = None


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
    for frame in stack[-1 - _CALLER_FRAMES : -1]:
        if isinstance(frame, dict) and isinstance(fn := frame.get("filename"), int | str):
            line, fname = frame.get("line"), frame.get("name")
            below.append((fn, line if isinstance(line, int) else None, fname if isinstance(fname, str) else None))
    outer = stack[0]
    entry = outer.get("filename") if isinstance(outer, dict) and outer.get("name") == "<module>" else None
    return StartStack(
        filename if isinstance(filename, int | str) else None,
        name if isinstance(name, str) else None,
        tuple(below),
        first_line if isinstance(first_line, int) and not isinstance(first_line, bool) else None,
        entry if isinstance(entry, int | str) and not isinstance(entry, bool) else None,
    )


def cache_reason(payload: str | None) -> str | None:
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


def json_guard_tree(text: str) -> GuardTree:
    """The JSON guard list (older torch) names guard kinds only."""
    return GuardTree(json_guard_categories(text), {})


def json_guard_categories(text: str) -> Counter[str]:
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
