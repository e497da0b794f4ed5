"""What a record kind is, and the state its fold writes.

One `RecordKind` object per record kind Dynamo Diff interprets: what a record of that kind says on its own
(`extract`, run per record, possibly in a worker process), how that fact is folded in file order (`fold` into its
compilation's `Identity`, or `fold_run` into the rank's `RunFacts`) and which source files it names (`files`).
The objects live in the family modules (`_kind_*.py`) and are registered in `_kinds.RECORD_KINDS`; the
classifier (`_classify.py`) only decides which compilation a record belongs to and calls the fold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from dynamo_diff_schema.compilation import (
    CacheEvent,
    CodeLocation,
    GraphBreak,
    GuardReason,
    InductorCode,
    SideEffect,
    StackFrame,
)

from dynamo_diff_store.analysis._facts import CompileKeyTuple, Fact, StartStack
from dynamo_diff_store.analysis._guards import GuardLeaf
from dynamo_diff_store.reading import Record


@dataclass(frozen=True)
class UserCall:
    """How a compiled library frame was reached from the user's code, read off its dynamo_start stack."""

    caller: StackFrame  # the nearest user frame
    entered: Literal["module", "function"] | None  # what of torch.compile's that call went into
    first: bool  # only torch's call machinery between the user's call and this frame


@dataclass
class Identity:
    """One compilation identity while its records are folded: what each kind's fold keeps for it (the
    classifier builds the Compilation from this when the rank ends)."""

    key: CompileKeyTuple
    occurrence: int
    starts: int = 0
    attempts: dict[int, list[str]] = field(default_factory=dict)
    metrics: list[tuple[int | None, dict[str, Any], str]] = field(default_factory=list)
    bwd_metrics: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    graphs: list[str] = field(default_factory=list)
    histogram: dict[str, int] | None = None
    histogram_attempt: int = 0  # the attempt whose dynamo_output_graph the histogram is of
    graph_symbols: list[str] = field(default_factory=list)  # the symbols in that graph's sizes, in order
    graph_inputs: tuple[list[str], int] | None = None  # that graph's inputs as its signature prints them
    graph_outputs: list[str] = field(default_factory=list)  # what that graph returns (name: dtype[sizes])
    graph_constants: list[str] = field(default_factory=list)  # the floats that graph bakes in (`mul_ 0.99 x6`)
    graph_literals: list[str] = field(default_factory=list)  # its calls' literal arguments (`round(decimals)=1`)
    graph_record: str | None = None  # that graph's dynamo_output_graph record (its evidence id)
    # The graph of an earlier attempt a later one replaced (its analysis restarted): (attempt, histogram, inputs,
    # evidence id), the last one replaced.
    discarded_graph: tuple[int, dict[str, int], tuple[list[str], int] | None, str | None] | None = None
    created_symbols: dict[str, tuple[str | None, str | None, str]] = field(default_factory=dict)  # create_symbol
    aot_graphs: list[tuple[str, int | None, str]] = field(default_factory=list)  # (kind, op count, evidence id)
    aot_ops: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> its ATen ops (the last one written)
    inductor_code: list[tuple[int, InductorCode]] = field(default_factory=list)  # (attempt, what it says)
    side_effects: list[SideEffect] = field(default_factory=list)  # dynamo_side_effects, in record order
    # symbolic_shape_specialization: (the file it was read from, (symbol, source, value, reason, user file or its
    # intern index, line, line text), evidence id); the user file is resolved when the rank ends.
    specialized: list[tuple[str, tuple[Any, ...], str]] = field(default_factory=list)
    recompile_entries: list[GuardReason] = field(default_factory=list)
    recompile_evidence: list[str] = field(default_factory=list)
    graph_breaks: list[GraphBreak] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    cache_events: list[CacheEvent] = field(default_factory=list)
    guard_categories: Counter[str] = field(default_factory=Counter)
    guard_local_types: dict[str, str] = field(default_factory=dict)  # the guard tree's class of self, fn, args[0]
    guard_leaves: tuple[GuardLeaf, ...] = ()  # the last guard tree's guards (see _kind_guards.GuardLeaf)
    guard_leaves_evidence: str | None = None  # the guard tree record guard_leaves are from
    guard_evidence: list[str] = field(default_factory=list)
    start_top: tuple[str, StartStack] | None = None  # (the file it was read from, the stack)
    start_code: CodeLocation | None = None
    start_caller: StackFrame | None = None
    start_call: UserCall | None = None
    start_callers: list[StackFrame] = field(default_factory=list)  # the user frames below, innermost first
    start_evidence: str | None = None  # the first dynamo_start record
    evidence: list[str] = field(default_factory=list)
    # The kind and evidence id of the last record indexed for it (how far a compilation that never ended got).
    last_record: tuple[str, str] | None = None
    incomplete: set[str] = field(default_factory=set)
    # Opened by a record that came before its dynamo_start (see Classifier._identity): that start joins it.
    starts_pending: bool = False

    @property
    def compile_id(self) -> str:
        ca, frame, fcid = self.key
        text = f"{frame if frame is not None else '-'}/{fcid if fcid is not None else '-'}"
        if ca is not None:
            text = f"!{ca}/{text}"
        return text if self.occurrence == 0 else f"{text}#{self.occurrence}"


@dataclass
class RunFacts:
    """What a rank's records say about the run rather than one compilation."""

    config: dict[str, Any] = field(default_factory=dict)  # `dynamo.<key>` / `inductor.<key>` -> value
    config_seen: set[str] = field(default_factory=set)  # the prefixes already read
    torch_version: str | None = None
    torch_git: str | None = None
    python_version: str | None = None
    devices: set[str] = field(default_factory=set)


class Folding(Protocol):
    """What a fold may use of the classifier: the rank's run facts and the making of evidence references."""

    run: RunFacts

    def evidence(self, fact: Fact, kind: str, ident: Identity | None) -> str:
        """Index the fact's record as evidence of `kind` (of `ident`'s compilation, when given); its id."""
        ...

    def uninterpreted(self, fact: Fact, ident: Identity | None) -> None:
        """Count the fact for the uninterpreted-kinds notice and, unless too many to index, keep it as evidence."""
        ...


Fold = Callable[[Folding, Fact, Identity], None]
RunFold = Callable[[Folding, Fact], None]


def nothing(rec: Record) -> Any:
    return None


def no_files(rec: Record) -> Iterable[int | str]:
    return ()


def body(rec: Record) -> dict[str, Any]:
    return rec.body if isinstance(rec.body, dict) else {}


def payload(fn: Callable[[str], Any]) -> Callable[[Record], Any]:
    """An extractor of the record's payload, None when the payload is missing."""

    def extract(rec: Record) -> Any:
        return None if rec.payload is None else fn(rec.payload)

    return extract


def evidence_only(folding: Folding, fact: Fact, ident: Identity) -> None:
    """The fold of a kind that is kept as evidence of its compilation and says nothing more."""
    folding.evidence(fact, fact.kind, ident)


@dataclass(frozen=True)
class RecordKind:
    """One record kind: `key` is the record's kind, or `artifact:<name>` for torch's artifact records. Exactly one
    of `fold` (a compilation's record) and `fold_run` (about the run: folded without a compile id) is given."""

    key: str
    extract: Callable[[Record], Any] = nothing
    fold: Fold | None = None
    fold_run: RunFold | None = None
    # Source files the record names: paths, or intern indexes (ints) resolved through the file's `str` records.
    files: Callable[[Record], Iterable[int | str]] = no_files
    # Listed as interpreted in the notice (describe_tensor is read for devices, but counted as not interpreted).
    interpreted: bool = True
    # Begins a compilation (or its next attempt): dynamo_start.
    starts: bool = False
    # Written while a compilation runs, before its compilation_metrics: one that comes after the metrics of the
    # same id belongs to the next occurrence of that id (after torch._dynamo.reset()).
    compiling: bool = False

    def __post_init__(self) -> None:
        if (self.fold is None) == (self.fold_run is None):
            raise ValueError(f"record kind {self.key}: give exactly one of fold and fold_run")
