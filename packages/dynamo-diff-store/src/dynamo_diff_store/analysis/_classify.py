"""Classify the records of one rank into compilation identities, following the counting rules (docs/SEMANTICS.md).

Pure: takes records (in file order) and returns models. Only what the trace shows is claimed; everything
else stays `unknown`. Each claim keeps the ids of the records it stands on.

The classifier keeps the bookkeeping of identities: which compilation (which occurrence of a compile id, which
rank) a record belongs to, the evidence references, the kinds it does not interpret, and at the end which function
each compilation is of. What a record of a registered kind means is its kind object's fold (`_kinds.py`); the
compilation is assembled from what the folds kept, by each family's summaries.

`Classifier` hands each evidence reference and each finished compilation to a callback, so an import can
write them out as they come; `classify_records` collects them into lists.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import (
    Attempt,
    CodeLocation,
    Compilation,
    CompileIdentity,
    LastRecord,
    Restart,
    Specialization,
    StackFrame,
)
from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity
from dynamo_diff_schema.hints import Hint, HintAction

from dynamo_diff_store.analysis._facts import CompileKeyTuple, Fact, StartStack
from dynamo_diff_store.analysis._folding import Identity, RunFacts, UserCall
from dynamo_diff_store.analysis._kind_graphs import aot_summary, graph_summary, specializations
from dynamo_diff_store.analysis._kind_guards import EarlierLeaves, guard_summary, recompile
from dynamo_diff_store.analysis._kind_inductor import inductor_code
from dynamo_diff_store.analysis._kind_metrics import final_metrics, metrics_code, outcome, phase_times, start_time
from dynamo_diff_store.analysis._kinds import KIND_OF, NOT_INDEXED, extract, kind_key
from dynamo_diff_store.analysis._spill import SpillList
from dynamo_diff_store.analysis._stages import record_stage
from dynamo_diff_store.reading import Record


@dataclass
class EvidenceRef:
    """Where a record is: turned into a schema Evidence (with its sha256) by the importer."""

    id: str
    kind: str
    compile_id: str | None
    file: str
    line: int
    offset: int
    length: int
    sha256: str | None = None  # when the reading worker already hashed the bytes


@dataclass
class RankSummary:
    """What one rank's classification says besides its compilations and evidence."""

    rank: int | None
    notices: list[Notice]
    incomplete: set[str]
    observed_config: dict[str, Any]
    torch_version: str | None
    torch_git: str | None
    python_version: str | None
    entry_script: str | None = None  # the outermost `<module>` frame's file of the first dynamo_start stack
    compilation_count: int = 0
    evidence_count: int = 0
    devices: list[str] = field(default_factory=list)
    # Compile ids that started (dynamo_start) but have no compilation_metrics: torch writes the metrics when a
    # compilation ends, failed or not, so these mean the process stopped while compiling, or the trace was cut.
    unfinished: list[str] = field(default_factory=list)
    # Of those: the kind of the last record torch wrote for each (how far it got), when one was indexed.
    unfinished_last: dict[str, str] = field(default_factory=dict)


@dataclass
class RankClassification(RankSummary):
    compilations: list[Compilation] = field(default_factory=list)
    evidence: list[EvidenceRef] = field(default_factory=list)


# Called with each compilation in identity order and the count keys its own evidence leaves possibly low.
CompilationSink = Callable[[Compilation, set[str]], None]


class Classifier:
    """Feed facts in file order, then `finish`. Evidence references go to `on_evidence` as they are made;
    identity states beyond `keep` live in `spill` (a private SQLite file) until `finish`."""

    def __init__(
        self,
        prefix: str,
        on_evidence: Callable[[EvidenceRef], None],
        *,
        spill: Path | None = None,
        keep: int = 2048,
    ) -> None:
        self.rank: int | None = None
        self.prefix = prefix
        self.on_evidence = on_evidence
        self.current: dict[tuple[int | None, int | None, int | None], int] = {}
        self.identities: SpillList[Identity] = SpillList(spill, keep=keep)
        self.occurrences: Counter[tuple[int | None, int | None, int | None]] = Counter()
        self.evidence_count = 0
        self.notices: list[Notice] = []
        self.uninterpreted_kinds: Counter[str] = Counter()
        self.run = RunFacts()
        self._earlier: EarlierLeaves = {}

    # -- facts ---------------------------------------------------------------------------------------------

    def evidence(self, fact: Fact, kind: str, ident: Identity | None) -> str:
        self.evidence_count += 1
        ev_id = f"{self.prefix}-e{self.evidence_count}"
        self.on_evidence(
            EvidenceRef(
                ev_id,
                kind,
                ident.compile_id if ident else None,
                fact.file,
                fact.line,
                fact.offset,
                fact.length,
                fact.sha256,
            )
        )
        if ident is not None:
            ident.evidence.append(ev_id)
            ident.last_record = (kind, ev_id)
        return ev_id

    def _identity(self, fact: Fact, key: CompileKeyTuple, *, starting: bool, compiling: bool) -> Identity:
        order = self.current.get(key)
        ident = self.identities[order] if order is not None else None
        # After torch._dynamo.reset() ids repeat. A second dynamo_start for the same id (not a restart) begins the
        # next occurrence; so does a record of the compiling phase (a kind marked `compiling`) that arrives after
        # the id's compilation ended (torch writes a recompilation's recompile_reasons just before its
        # dynamo_start), and that dynamo_start then joins it. Records of a finished compilation's run time
        # (runtime metrics) stay with it.
        reopened = ident is not None and bool(ident.metrics) and not ident.starts_pending and compiling
        if ident is not None and starting and ident.starts_pending:
            ident.starts_pending = False
        elif ident is None or reopened or (starting and ident.starts > 0 and not fact.attempt):
            occurrence = self.occurrences[key]
            self.occurrences[key] += 1
            ident = Identity(key=key, occurrence=occurrence)
            ident.starts_pending = reopened and not starting
            self.current[key] = self.identities.append(ident)
        if fact.attempt is not None:
            ident.attempts.setdefault(fact.attempt, [])
        return ident

    def feed(self, fact: Fact) -> None:
        """Fold one fact: a run record into the run facts, a compilation's record into its identity (found or
        begun here) by its kind's fold; a record of a kind not registered is kept as uninterpreted evidence."""
        spec = KIND_OF.get(kind_key(fact.kind, fact.name))
        if spec is not None and spec.fold_run is not None:
            spec.fold_run(self, fact)
            return
        if fact.key is None:
            if spec is None or not spec.interpreted:
                self.uninterpreted(fact, None)
            return
        if spec is None:
            self.uninterpreted(fact, self._identity(fact, fact.key, starting=False, compiling=False))
            return
        ident = self._identity(fact, fact.key, starting=spec.starts, compiling=spec.compiling)
        assert spec.fold is not None  # a kind has exactly one of fold and fold_run
        spec.fold(self, fact, ident)

    def uninterpreted(self, fact: Fact, ident: Identity | None) -> None:
        """Counted for the notice and, unless too many to index, kept as evidence under its kind."""
        label = f"artifact:{fact.name}" if fact.kind == "artifact" and fact.name else fact.kind
        self.uninterpreted_kinds[label] += fact.repeat
        if fact.kind not in NOT_INDEXED:
            self.evidence(fact, fact.name if fact.kind == "artifact" and fact.name else fact.kind, ident)

    # -- results -------------------------------------------------------------------------------------------

    def finish(
        self, strings_for: Callable[[str], dict[int, str]], emit: CompilationSink, *, rank: int | None
    ) -> RankSummary:
        """Build each compilation in order and hand it to `emit`. `rank` is the rank the compilations are of
        (known only after every record: the JSON rank fields may decide it). `strings_for(file)` gives that
        file's intern table."""
        self.rank = rank
        last_code: dict[tuple[int | None, int | None], CodeLocation] = {}
        # The guard trees of the compilations so far (an older cache entry's, for what else differs at a recompile).
        self._earlier = {}
        entry_script: str | None = None
        incomplete: set[str] = set()
        unfinished: list[str] = []
        unfinished_last: dict[str, str] = {}
        try:
            for ident in self.identities:
                if ident.starts and not ident.metrics and not ident.bwd_metrics:
                    unfinished.append(ident.compile_id)
                    if ident.last_record is not None:
                        unfinished_last[ident.compile_id] = ident.last_record[0]
                if ident.start_top is not None:
                    file, stack = ident.start_top
                    strings = strings_for(file)

                    def resolve(name: int | str, strings: dict[int, str] = strings) -> str:
                        return strings.get(name, f"<string {name}>") if isinstance(name, int) else name

                    filename = None if stack.filename is None else resolve(stack.filename)
                    if entry_script is None and stack.entry is not None:
                        entry_script = resolve(stack.entry)
                    ident.start_code = CodeLocation(
                        co_filename=filename, co_name=stack.name, co_firstlineno=stack.line, source="dynamo_start"
                    )
                    ident.start_call = _user_call(stack, resolve)
                    ident.start_caller = ident.start_call.caller if ident.start_call is not None else None
                    ident.start_callers = _user_frames(stack, resolve)
                comp = self._compilation(ident, last_code, specializations(ident, strings_for))
                if ident.guard_leaves and (ident.key in self._earlier or len(self._earlier) < _EARLIER_MAX):
                    self._earlier[ident.key] = ident.guard_leaves
                if comp.code.co_name is not None:
                    last_code[(ident.key[0], ident.key[1])] = comp.code
                incomplete |= ident.incomplete
                emit(comp, ident.incomplete)
        finally:
            self.identities.close()
        if self.uninterpreted_kinds:
            kinds = dict(sorted(self.uninterpreted_kinds.items()))
            indexed = {k: n for k, n in kinds.items() if k not in NOT_INDEXED}
            unindexed = {k: n for k, n in kinds.items() if k in NOT_INDEXED}
            parts = []
            if indexed:
                parts.append(
                    f"{sum(indexed.values())} records of {len(indexed)} kinds are kept as evidence but not "
                    "interpreted: " + ", ".join(f"{k.removeprefix('artifact:')} ({n})" for k, n in indexed.items())
                )
            if unindexed:
                parts.append(
                    "not interpreted and not indexed (in the stored input only): "
                    + ", ".join(f"{k} ({n})" for k, n in unindexed.items())
                )
            message = "; ".join(parts)
            self.notices.append(
                Notice(
                    code=NoticeCode.UNINTERPRETED_RECORD_KINDS,
                    severity=Severity.INFO,
                    rank=self.rank,
                    message=message,
                    hint=None
                    if not indexed
                    else Hint(
                        action=HintAction.EVIDENCE_OF_KIND, args={"kind": next(iter(indexed)).removeprefix("artifact:")}
                    ),
                    details={"kinds": kinds},
                )
            )
        if not len(self.identities):
            self.notices.append(
                Notice(
                    code=NoticeCode.NO_COMPILE_IDS,
                    severity=Severity.WARNING,
                    rank=self.rank,
                    message="No record carries a compile id (frame_id / compiled_autograd_id): this looks like "
                    "torch.export or another non-Dynamo trace; there are no compilations to count.",
                )
            )
        return RankSummary(
            rank=self.rank,
            notices=self.notices,
            incomplete=incomplete,
            observed_config=self.run.config,
            torch_version=self.run.torch_version,
            torch_git=self.run.torch_git,
            python_version=self.run.python_version,
            entry_script=entry_script,
            compilation_count=len(self.identities),
            evidence_count=self.evidence_count,
            devices=sorted(self.run.devices),
            unfinished=unfinished,
            unfinished_last=unfinished_last,
        )

    def _compilation(
        self,
        ident: Identity,
        last_code: dict[tuple[int | None, int | None], CodeLocation],
        specialized: list[Specialization],
    ) -> Compilation:
        final, metrics_ev = final_metrics(ident)
        ended, why, failure, limits = outcome(ident)
        restart_texts = [str(r) for r in final.get("restart_reasons") or []]
        recompiled = recompile(ident, final, metrics_ev, self._earlier)
        phases = phase_times(final)
        fcid = ident.key[2]
        return Compilation(
            compile_id=ident.compile_id,
            identity=CompileIdentity(
                rank=self.rank,
                compiled_autograd_id=ident.key[0],
                frame_id=ident.key[1],
                frame_compile_id=fcid,
                occurrence=ident.occurrence,
            ),
            code=_code(ident, final, last_code) or CodeLocation(),
            attempts=[
                Attempt(
                    attempt=a,
                    restart_reason=restart_texts[a - 1] if 0 < a <= len(restart_texts) else None,
                    evidence_ids=ident.attempts.get(a, []),
                )
                for a in sorted(ident.attempts) or [0]
            ],
            outcome=ended,
            outcome_reason=why,
            recompile=recompiled,
            additional_frame_compilation=recompiled is None and fcid is not None and fcid > 0,
            graph_breaks=ident.graph_breaks,
            restarts=[_restart(text, ident, metrics_ev) for text in restart_texts],
            failure=failure,
            limit_events=limits,
            graph=graph_summary(ident, final, metrics_ev, ended),
            aot=aot_summary(ident),
            inductor_code=inductor_code(ident),
            side_effects=ident.side_effects,
            specializations=specialized,
            guards=guard_summary(ident, final, metrics_ev),
            phase_times=phases,
            phase_evidence_id=metrics_ev if phases else None,
            start_time=start_time(final),
            cache_events=ident.cache_events,
            reached=_reached(ident),
            evidence_ids=ident.evidence,
        )


# torch's restart reason when the exception carried none: `str(type(e))` (convert_frame.py, torch 2.4 to 2.14).
_EARLIER_MAX = 4096  # guard trees kept for the comparison at a recompile (a rank's first ones)
_EXCEPTION_TYPE = re.compile(r"^<class '(?:[\w.]+\.)?(?P<name>\w+)'>$")


def _restart(text: str, ident: Identity, evidence_id: str | None) -> Restart:
    """A restart reason as torch listed it, with what it is: a graph break of this compilation (torch lists the
    break's message, whose first line is its type) or the bare type of the exception that restarted the analysis."""
    first = text.strip().split("\n", 1)[0].strip()
    exception = _EXCEPTION_TYPE.match(text.strip())
    return Restart(
        reason=text,
        graph_break=any(gb.gb_type is not None and gb.gb_type == first for gb in ident.graph_breaks),
        exception=exception.group("name") if exception else None,
        evidence_id=evidence_id,
    )


def _reached(ident: Identity) -> LastRecord | None:
    """For a compilation that started and never finished (no compilation_metrics): its last indexed record."""
    if not ident.starts or ident.metrics or ident.bwd_metrics or ident.last_record is None:
        return None
    kind, evidence_id = ident.last_record
    return LastRecord(kind=kind, stage=record_stage(kind), evidence_id=evidence_id)


def _code(
    ident: Identity, final: dict[str, Any], last_code: dict[tuple[int | None, int | None], CodeLocation]
) -> CodeLocation | None:
    """Where the compiled code is: the final metrics, else the dynamo_start stack (whose compiled frame carries the
    same file, first line and name), else the same frame's last known location; a library frame carries the
    user's call it is attributed to."""
    code, start = metrics_code(final), ident.start_code
    if code is None:
        code = start
    elif code.co_firstlineno is None and start is not None and _same_code(code, start):
        code = code.model_copy(update={"co_firstlineno": start.co_firstlineno})
    if code is None:
        code = last_code.get((ident.key[0], ident.key[1]))
        if code is not None:
            code = code.model_copy(update={"source": "frame_id"})
    if code is not None and ident.start_callers:
        code = code.model_copy(update={"callers": ident.start_callers, "callers_evidence": ident.start_evidence})
    call = ident.start_call
    if code is not None and call is not None and library_path(code.co_filename) is not None:
        update: dict[str, Any] = {"caller": call.caller, "entered": call.entered}
        if call.entered == "module" and call.first:
            update["compiled_module"] = _module_class(code, ident.guard_local_types)
        code = code.model_copy(update=update)
    return code


def _same_code(a: CodeLocation, b: CodeLocation) -> bool:
    return (a.co_filename, a.co_name) == (b.co_filename, b.co_name)


# torch's machinery between a user's call of a compiled module and the frame it enters first: the compiled
# module's `__call__` and `compile_wrapper` (eval_frame.py) and nn.Module's call (`_wrapped_call_impl`, `_call_impl`).
_CALL_MACHINERY = frozenset({"torch/_dynamo/eval_frame.py", "torch/nn/modules/module.py"})
_EVAL_FRAME = "torch/_dynamo/eval_frame.py"
# torch.compile of a torch.nn module compiles this wrapper around it (`wrap_inline`; its closure's `fn` is the module).
_WRAP_INLINE = ("torch/_dynamo/external_utils.py", "inner")


# User frames kept below the compiled one: the call and the few functions around it.
_CALLERS = 4


def _user_frames(stack: StartStack, resolve: Callable[[int | str], str]) -> list[StackFrame]:
    """The user's frames below the compiled one (not torch, the standard library or an installed package, nor a
    made-up file name such as `<string>`), innermost first: the functions whose lines led to the call."""
    frames = []
    locs = stack.locs if len(stack.locs) == len(stack.below) else (None,) * len(stack.below)
    for (filename, line, name), code in zip(reversed(stack.below), reversed(locs), strict=True):
        path = resolve(filename)
        if library_path(path) is None and not path.startswith("<"):
            frames.append(StackFrame(filename=path, line=line, name=name, code=code))
            if len(frames) == _CALLERS:
                break
    return frames


def _user_call(stack: StartStack, resolve: Callable[[int | str], str]) -> UserCall | None:
    """The innermost frame below the compiled one that is the user's code (not torch, the standard library or an
    installed package; see dynamo_diff_schema.code_paths), and what lies between it and the compiled frame."""
    below = stack.below
    for at in range(len(below) - 1, -1, -1):
        filename, line, name = below[at]
        path = resolve(filename)
        if library_path(path) is None and not path.startswith("<string "):
            between = [(library_path(resolve(f)) or resolve(f), n) for f, _, n in below[at + 1 :]]
            entered: Literal["module", "function"] | None = None
            if between and between[0] == (_EVAL_FRAME, "__call__"):
                entered = "module"  # OptimizedModule.__call__ (torch 2.6 to 2.14)
            elif any(f == _EVAL_FRAME for f, _ in between):
                entered = "function"
            first = all(f in _CALL_MACHINERY for f, _ in between)
            return UserCall(StackFrame(filename=path, line=line, name=name), entered, first)
    return None


def _module_class(code: CodeLocation, local_types: dict[str, str]) -> str | None:
    """The class of the compiled module whose call entered this frame first, from the guards on the frame: torch's
    `inner` wrapper calls the module as `fn`; a module's forward (or a decorator's wrapper of it, which receives
    the module as the first of its `*args`) has it as `self`."""
    if (library_path(code.co_filename), code.co_name) == _WRAP_INLINE:
        return local_types.get("fn")
    return local_types.get("self") or local_types.get("args[0]")


def classify_records(
    records: Iterable[Record],
    *,
    rank: int | None,
    strings_for: Callable[[str], dict[int, str]] = lambda _: {},
    evidence_prefix: str = "r_",
) -> RankClassification:
    """Classify one rank's records (in file order), all in memory. `strings_for(file)` gives that file's intern
    table (read after all records, so `str` records may come in any order); evidence ids are
    `<evidence_prefix>-e<n>`."""
    evidence: list[EvidenceRef] = []
    compilations: list[Compilation] = []
    classifier = Classifier(evidence_prefix, evidence.append)
    for record in records:
        classifier.feed(extract(record))
    summary = classifier.finish(strings_for, lambda comp, _: compilations.append(comp), rank=rank)
    return RankClassification(**vars(summary), compilations=compilations, evidence=evidence)
