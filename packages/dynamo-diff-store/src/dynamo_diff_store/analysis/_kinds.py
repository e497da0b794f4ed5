"""The record kinds Dynamo Diff interprets, registered in one list: `RECORD_KINDS`.

Each is a `RecordKind` object (`_folding.py`) defined in the module of its family: the start of a compilation
(`_kind_start.py`), compilation metrics and errors (`_kind_metrics.py`), graphs (`_kind_graphs.py`), guards and
recompile reasons (`_kind_guards.py`), graph breaks (`_kind_graph_breaks.py`), caches (`_kind_cache.py`) and the
run (`_kind_run.py`). A kind not listed is still indexed as evidence (unless it is one of NOT_INDEXED) and named
in the `uninterpreted_record_kinds` notice. To interpret a new kind: its object in its family's module, listed
here, and a fixture record of it (CONTRIBUTING.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import RecordKind
from dynamo_diff_store.analysis._kind_cache import (
    AOTAUTOGRAD_CACHE_BYPASS,
    AOTAUTOGRAD_CACHE_HIT,
    AOTAUTOGRAD_CACHE_MISS,
    FX_GRAPH_CACHE_BYPASS,
    FX_GRAPH_CACHE_HIT,
    FX_GRAPH_CACHE_MISS,
)
from dynamo_diff_store.analysis._kind_graph_breaks import GRAPH_BREAK_REASON
from dynamo_diff_store.analysis._kind_graphs import (
    AOT_BACKWARD_GRAPH,
    AOT_FORWARD_GRAPH,
    AOT_INFERENCE_GRAPH,
    CREATE_SYMBOL,
    DYNAMO_OUTPUT_GRAPH,
    SYMBOLIC_SHAPE_SPECIALIZATION,
)
from dynamo_diff_store.analysis._kind_guards import DYNAMO_CPP_GUARDS_STR, DYNAMO_GUARDS, RECOMPILE_REASONS
from dynamo_diff_store.analysis._kind_inductor import INDUCTOR_OUTPUT_CODE
from dynamo_diff_store.analysis._kind_metrics import (
    BWD_COMPILATION_METRICS,
    COMPILATION_METRICS,
    COMPILATION_METRICS_RUNTIME,
    DYNAMO_ERROR,
)
from dynamo_diff_store.analysis._kind_run import DESCRIBE_TENSOR, TORCH_VERSION
from dynamo_diff_store.analysis._kind_side_effects import DYNAMO_SIDE_EFFECTS
from dynamo_diff_store.analysis._kind_start import DYNAMO_START
from dynamo_diff_store.reading import Record

RECORD_KINDS: tuple[RecordKind, ...] = (
    DYNAMO_START,
    COMPILATION_METRICS,
    BWD_COMPILATION_METRICS,
    COMPILATION_METRICS_RUNTIME,
    DYNAMO_ERROR,
    DYNAMO_OUTPUT_GRAPH,
    CREATE_SYMBOL,
    SYMBOLIC_SHAPE_SPECIALIZATION,
    AOT_FORWARD_GRAPH,
    AOT_BACKWARD_GRAPH,
    AOT_INFERENCE_GRAPH,
    INDUCTOR_OUTPUT_CODE,
    DYNAMO_CPP_GUARDS_STR,
    DYNAMO_GUARDS,
    RECOMPILE_REASONS,
    GRAPH_BREAK_REASON,
    DYNAMO_SIDE_EFFECTS,
    FX_GRAPH_CACHE_HIT,
    FX_GRAPH_CACHE_MISS,
    FX_GRAPH_CACHE_BYPASS,
    AOTAUTOGRAD_CACHE_HIT,
    AOTAUTOGRAD_CACHE_MISS,
    AOTAUTOGRAD_CACHE_BYPASS,
    TORCH_VERSION,
    DESCRIBE_TENSOR,
)


def _by_key(kinds: Iterable[RecordKind]) -> dict[str, RecordKind]:
    found: dict[str, RecordKind] = {}
    for kind in kinds:
        if kind.key in found:
            raise ValueError(f"two record kinds for {kind.key}")
        found[kind.key] = kind
    return found


# Each registered kind by its key, for the look-up made once per record.
KIND_OF: dict[str, RecordKind] = _by_key(RECORD_KINDS)

# Records too many and too small to index one by one (timing spans, and one description per tensor, storage and
# source of every graph input: hundreds per compilation); still counted, still in the stored input. Indexing
# them cost a third of an import (tools/bench/import_scaling.py).
NOT_INDEXED = frozenset({"chromium_event", "describe_tensor", "describe_storage", "describe_source"})


def kind_key(kind: str, artifact_name: str | None) -> str:
    """The key of a record's kind: its kind, or `artifact:<name>` for an artifact."""
    return f"artifact:{artifact_name}" if kind == "artifact" and artifact_name else kind


def extract(rec: Record) -> Fact:
    """What one record says on its own (no state): its place, its compile id and its kind's extracted data."""
    span = rec.payload_span or rec.span
    c = rec.compile
    spec = KIND_OF.get(kind_key(rec.kind, rec.artifact_name))
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
    spec = KIND_OF.get(kind_key(rec.kind, rec.artifact_name))
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
