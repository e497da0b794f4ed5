"""Classify the records of one rank into compilation identities, following the counting rules (docs/SEMANTICS.md).

Pure: takes records (in file order) and returns models. Only what the trace shows is claimed; everything
else stays `unknown`. Each claim keeps the ids of the records it stands on.

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
    AotSummary,
    Attempt,
    CacheEvent,
    CodeLocation,
    Compilation,
    CompileIdentity,
    Failure,
    GraphBreak,
    GraphSummary,
    GuardReason,
    GuardSummary,
    LimitEvent,
    Outcome,
    RecompileEvidence,
    Restart,
    StackFrame,
)
from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity
from dynamo_diff_schema.hints import Hint, HintAction

from dynamo_diff_store.analysis._facts import CompileKeyTuple, Fact, StartStack
from dynamo_diff_store.analysis._guards import categorize
from dynamo_diff_store.analysis._kinds import NOT_INDEXED, RECORD_KINDS, extract, kind_key
from dynamo_diff_store.analysis._spill import SpillList
from dynamo_diff_store.reading import Record, loads_payload

# How torch words a recompile/cache limit hit: 2.13 fails the identity with fail_type 'Unsupported' and a
# reason starting "Dynamo recompile limit exceeded"; older torch used CacheLimitExceeded / cache_size_limit.
_LIMIT = re.compile(
    r"recompile limit exceeded|RecompileLimitExceeded|CacheLimitExceeded|FailOnRecompileLimitHit|"
    r"hit config\.(?:recompile_limit|cache_size_limit|accumulated_recompile_limit)|cache_size_limit reached",
    re.I,
)
# compilation_metrics fields that are phase durations (unit in the name); start/end stamps are not.
_PHASE = re.compile(r"(?:_time_(?:s|us|ms)|_time|duration_us|_compile_time_us)$")
_NOT_PHASE = re.compile(r"^(?:start_time|end_time|start_time_us|end_time_us)$|_time_saved_")


_CONFIG_FIELDS = frozenset({"dynamo_config", "inductor_config"})
# torch 2.13 writes some phase durations twice, in seconds and in microseconds (the _us ones are the newer names
# of the same measurement: 0.061167 s and 61167 us). Each is kept once: the microsecond twin is dropped when the
# seconds one is there.
_TWINS = {
    "duration_us": "entire_frame_compile_time_s",
    "dynamo_cumulative_compile_time_us": "entire_frame_compile_time_s",
    "aot_autograd_cumulative_compile_time_us": "backend_compile_time_s",
    "inductor_cumulative_compile_time_us": "inductor_compile_time_s",
    "inductor_code_gen_cumulative_compile_time_us": "code_gen_time_s",
    "dynamo_compile_time_before_restart_us": "dynamo_time_before_restart_s",
    "structured_logging_overhead_us": "structured_logging_overhead_s",
    "remote_fx_graph_cache_get_time_us": "remote_fx_graph_cache_get_time_ms",
    "remote_fx_graph_cache_put_time_us": "remote_fx_graph_cache_put_time_ms",
}


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
class _Identity:
    key: tuple[int | None, int | None, int | None]
    occurrence: int
    starts: int = 0
    attempts: dict[int, list[str]] = field(default_factory=dict)
    metrics: list[tuple[int | None, dict[str, Any], str]] = field(default_factory=list)
    bwd_metrics: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    graphs: list[str] = field(default_factory=list)
    histogram: dict[str, int] | None = None
    aot_graphs: list[tuple[str, int | None, str]] = field(default_factory=list)  # (kind, op count, evidence id)
    recompile_entries: list[GuardReason] = field(default_factory=list)
    recompile_evidence: list[str] = field(default_factory=list)
    graph_breaks: list[GraphBreak] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    cache_events: list[CacheEvent] = field(default_factory=list)
    guard_categories: Counter[str] = field(default_factory=Counter)
    guard_local_types: dict[str, str] = field(default_factory=dict)  # the guard tree's class of self, fn, args[0]
    guard_evidence: list[str] = field(default_factory=list)
    start_top: tuple[str, StartStack] | None = None  # (the file it was read from, the stack)
    start_code: CodeLocation | None = None
    start_caller: StackFrame | None = None
    start_call: _UserCall | None = None
    evidence: list[str] = field(default_factory=list)
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
        self.config_seen: set[str] = set()
        self.current: dict[tuple[int | None, int | None, int | None], int] = {}
        self.identities: SpillList[_Identity] = SpillList(spill, keep=keep)
        self.occurrences: Counter[tuple[int | None, int | None, int | None]] = Counter()
        self.evidence_count = 0
        self.notices: list[Notice] = []
        self.uninterpreted: Counter[str] = Counter()
        self.config: dict[str, Any] = {}
        self.torch_version: str | None = None
        self.torch_git: str | None = None
        self.python_version: str | None = None
        self.devices: set[str] = set()
        # Each interpreted record kind's fold method, looked up once (RECORD_KINDS names them).
        self._folds: dict[str, Callable[[Fact, Any], None]] = {
            key: getattr(self, spec.fold) for key, spec in RECORD_KINDS.items()
        }

    # -- facts ---------------------------------------------------------------------------------------------

    def _evidence(self, fact: Fact, kind: str, ident: _Identity | None) -> str:
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
        return ev_id

    def _identity(self, fact: Fact, key: CompileKeyTuple, *, starting: bool) -> _Identity:
        order = self.current.get(key)
        ident = self.identities[order] if order is not None else None
        # After torch._dynamo.reset() ids repeat. A second dynamo_start for the same id (not a restart) begins the
        # next occurrence; so does a record of the compiling phase that arrives after the id's compilation ended
        # (torch writes a recompilation's recompile_reasons just before its dynamo_start), and that dynamo_start
        # then joins it. Records of a finished compilation's run time (runtime metrics) stay with it.
        reopened = ident is not None and bool(ident.metrics) and not ident.starts_pending and _opens(fact)
        if ident is not None and starting and ident.starts_pending:
            ident.starts_pending = False
        elif ident is None or reopened or (starting and ident.starts > 0 and not fact.attempt):
            occurrence = self.occurrences[key]
            self.occurrences[key] += 1
            ident = _Identity(key=key, occurrence=occurrence)
            ident.starts_pending = reopened and not starting
            self.current[key] = self.identities.append(ident)
        if fact.attempt is not None:
            ident.attempts.setdefault(fact.attempt, [])
        return ident

    def feed(self, fact: Fact) -> None:
        key = kind_key(fact.kind, fact.name)
        spec, fold = RECORD_KINDS.get(key), self._folds.get(key)
        if spec is not None and fold is not None and spec.run_level:
            fold(fact, None)
            return
        if fact.key is None:
            if spec is None or not spec.interpreted:
                self._uninterpreted(fact, None)
            return
        ident = self._identity(fact, fact.key, starting=fact.kind == "dynamo_start")
        if fold is None:
            self._uninterpreted(fact, ident)
        else:
            fold(fact, ident)

    # -- one method per record kind (named in RECORD_KINDS) -------------------------------------------------

    def _fold_torch_version(self, fact: Fact, ident: _Identity | None) -> None:
        self._evidence(fact, "torch_version", None)
        version, commit = fact.data
        self.torch_version = version or self.torch_version
        self.torch_git = commit or self.torch_git

    def _fold_start(self, fact: Fact, ident: _Identity) -> None:
        ident.starts += 1
        self._evidence(fact, fact.kind, ident)
        if fact.data is not None:
            ident.start_top = (fact.file, fact.data)

    def _fold_metrics(self, fact: Fact, ident: _Identity) -> None:
        self._on_metrics_config(fact.data)
        # The configuration strings are most of a record (~40 KB in torch 2.13) and are read once per rank
        # (above): keeping them per compilation made memory grow with the trace.
        kept = _without_config(fact.data)
        ident.metrics.append((fact.attempt, kept, self._evidence(fact, fact.kind, ident)))

    def _fold_bwd_metrics(self, fact: Fact, ident: _Identity) -> None:
        kept = _without_config(fact.data)
        ident.bwd_metrics.append((kept, self._evidence(fact, fact.kind, ident)))

    def _fold_output_graph(self, fact: Fact, ident: _Identity) -> None:
        ident.graphs.append(self._evidence(fact, fact.kind, ident))
        if fact.data is not None and ident.histogram is None:
            ident.histogram = fact.data

    def _fold_guards(self, fact: Fact, ident: _Identity) -> None:
        ident.guard_evidence.append(self._evidence(fact, fact.kind, ident))
        # The C++ guard tree names every guard's kind; the JSON list is read only when there is no tree. The last
        # tree is the final attempt's.
        if fact.data is not None and (fact.kind == "dynamo_cpp_guards_str" or not ident.guard_categories):
            ident.guard_categories = fact.data.categories
            if fact.data.local_types:
                ident.guard_local_types = fact.data.local_types

    def _fold_evidence_only(self, fact: Fact, ident: _Identity) -> None:
        self._evidence(fact, fact.kind, ident)

    def _fold_aot_graph(self, fact: Fact, ident: _Identity) -> None:
        ident.aot_graphs.append((fact.kind, fact.data, self._evidence(fact, fact.kind, ident)))

    def _fold_describe_tensor(self, fact: Fact, ident: _Identity) -> None:
        if fact.data is not None:
            self.devices.add(fact.data)
        self._uninterpreted(fact, ident)

    def _fold_recompile_reasons(self, fact: Fact, ident: _Identity) -> None:
        ev = self._evidence(fact, "recompile_reasons", ident)
        ident.recompile_evidence.append(ev)
        if fact.data is None:
            ident.incomplete.add("guard_reason_entries")
            return
        ident.recompile_entries.extend(GuardReason(text=text, category=cat, evidence_id=ev) for text, cat in fact.data)

    def _fold_graph_break(self, fact: Fact, ident: _Identity) -> None:
        ev = self._evidence(fact, "dynamo_graph_break_reason", ident)
        if fact.data is None:
            ident.incomplete.add("unique_graph_break_sites")
            ident.graph_breaks.append(GraphBreak(reason="(payload missing)", evidence_id=ev))
        else:
            ident.graph_breaks.append(fact.data.model_copy(update={"evidence_id": ev}))

    def _fold_error(self, fact: Fact, ident: _Identity) -> None:
        ident.errors.append((fact.data or "", self._evidence(fact, "dynamo_error", ident)))

    def _fold_cache_event(self, fact: Fact, ident: _Identity) -> None:
        cache, decision, reason = fact.data
        ev = self._evidence(fact, fact.name or fact.kind, ident)
        ident.cache_events.append(CacheEvent(cache=cache, decision=decision, reason=reason, evidence_id=ev))

    def _uninterpreted(self, fact: Fact, ident: _Identity | None) -> None:
        """Counted for the notice and, unless too many to index, kept as evidence under its kind."""
        label = f"artifact:{fact.name}" if fact.kind == "artifact" and fact.name else fact.kind
        self.uninterpreted[label] += fact.repeat
        if fact.kind not in NOT_INDEXED:
            self._evidence(fact, fact.name if fact.kind == "artifact" and fact.name else fact.kind, ident)

    def _on_metrics_config(self, body: dict[str, Any]) -> None:
        if self.python_version is None and isinstance(body.get("python_version"), str):
            self.python_version = body["python_version"]
        if self.torch_version is None and isinstance(body.get("pytorch_version"), str):
            self.torch_version = body["pytorch_version"]
        for prefix in ("dynamo", "inductor"):
            raw = body.get(f"{prefix}_config")
            if raw is None or prefix in self.config_seen:
                continue
            try:
                parsed = loads_payload(raw) if isinstance(raw, str) else raw
            except ValueError:
                continue
            if isinstance(parsed, dict):
                self.config_seen.add(prefix)
                for key, value in parsed.items():
                    self.config[f"{prefix}.{key}"] = value

    # -- results -------------------------------------------------------------------------------------------

    def finish(
        self, strings_for: Callable[[str], dict[int, str]], emit: CompilationSink, *, rank: int | None
    ) -> RankSummary:
        """Build each compilation in order and hand it to `emit`. `rank` is the rank the compilations are of
        (known only after every record: the JSON rank fields may decide it). `strings_for(file)` gives that
        file's intern table."""
        self.rank = rank
        last_code: dict[tuple[int | None, int | None], CodeLocation] = {}
        entry_script: str | None = None
        incomplete: set[str] = set()
        unfinished: list[str] = []
        try:
            for ident in self.identities:
                if ident.starts and not ident.metrics and not ident.bwd_metrics:
                    unfinished.append(ident.compile_id)
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
                comp = self._compilation(ident, last_code)
                if comp.code.co_name is not None:
                    last_code[(ident.key[0], ident.key[1])] = comp.code
                incomplete |= ident.incomplete
                emit(comp, ident.incomplete)
        finally:
            self.identities.close()
        if self.uninterpreted:
            kinds = dict(sorted(self.uninterpreted.items()))
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
            observed_config=self.config,
            torch_version=self.torch_version,
            torch_git=self.torch_git,
            python_version=self.python_version,
            entry_script=entry_script,
            compilation_count=len(self.identities),
            evidence_count=self.evidence_count,
            devices=sorted(self.devices),
            unfinished=unfinished,
        )

    def _compilation(
        self, ident: _Identity, last_code: dict[tuple[int | None, int | None], CodeLocation]
    ) -> Compilation:
        final = ident.metrics[-1][1] if ident.metrics else {}
        metrics_ev = ident.metrics[-1][2] if ident.metrics else None
        outcome, why, failure, limits = _outcome(ident)
        restart_texts = [str(r) for r in final.get("restart_reasons") or []]
        recompile = _recompile(ident, final, metrics_ev)
        phases = _phase_times(final)
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
            outcome=outcome,
            outcome_reason=why,
            recompile=recompile,
            additional_frame_compilation=recompile is None and fcid is not None and fcid > 0,
            graph_breaks=ident.graph_breaks,
            restarts=[Restart(reason=text, evidence_id=metrics_ev) for text in restart_texts],
            failure=failure,
            limit_events=limits,
            graph=_graph(ident, final, metrics_ev, outcome),
            aot=_aot_summary(ident),
            guards=_guards(ident, final, metrics_ev),
            phase_times=phases,
            phase_evidence_id=metrics_ev if phases else None,
            start_time=_start_time(final),
            cache_events=ident.cache_events,
            evidence_ids=ident.evidence,
        )


def _code(
    ident: _Identity, final: dict[str, Any], last_code: dict[tuple[int | None, int | None], CodeLocation]
) -> CodeLocation | None:
    """Where the compiled code is: the final metrics, else the dynamo_start stack (whose compiled frame carries the
    same file, first line and name), else the same frame's last known location; a library frame carries the
    user's call it is attributed to."""
    code, start = _metrics_code(final), ident.start_code
    if code is None:
        code = start
    elif code.co_firstlineno is None and start is not None and _same_code(code, start):
        code = code.model_copy(update={"co_firstlineno": start.co_firstlineno})
    if code is None:
        code = last_code.get((ident.key[0], ident.key[1]))
        if code is not None:
            code = code.model_copy(update={"source": "frame_id"})
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


@dataclass(frozen=True)
class _UserCall:
    """How a compiled library frame was reached from the user's code, read off its dynamo_start stack."""

    caller: StackFrame  # the nearest user frame
    entered: Literal["module", "function"] | None  # what of torch.compile's that call went into
    first: bool  # only torch's call machinery between the user's call and this frame


def _user_call(stack: StartStack, resolve: Callable[[int | str], str]) -> _UserCall | None:
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
            return _UserCall(StackFrame(filename=path, line=line, name=name), entered, first)
    return None


def _module_class(code: CodeLocation, local_types: dict[str, str]) -> str | None:
    """The class of the compiled module whose call entered this frame first, from the guards on the frame: torch's
    `inner` wrapper calls the module as `fn`; a module's forward (or a decorator's wrapper of it, which receives
    the module as the first of its `*args`) has it as `self`."""
    if (library_path(code.co_filename), code.co_name) == _WRAP_INLINE:
        return local_types.get("fn")
    return local_types.get("self") or local_types.get("args[0]")


def _recompile(ident: _Identity, final: dict[str, Any], metrics_ev: str | None) -> RecompileEvidence | None:
    """Confirmed only by a recompile_reasons artifact or the metrics' recompile_reason."""
    recompile_reason = final.get("recompile_reason")
    if not ident.recompile_evidence and not isinstance(recompile_reason, str):
        return None
    entries = list(ident.recompile_entries)
    evidence = list(ident.recompile_evidence)
    if isinstance(recompile_reason, str):
        if not entries and not ident.recompile_evidence:
            # Only the metrics field: it carries the first failing guard.
            entries = [
                GuardReason(text=recompile_reason, category=categorize(recompile_reason), evidence_id=metrics_ev)
            ]
        if metrics_ev is not None:
            evidence.append(metrics_ev)
    return RecompileEvidence(confirmed=True, reasons=entries, evidence_ids=evidence)


def _graph(ident: _Identity, final: dict[str, Any], metrics_ev: str | None, outcome: Outcome) -> GraphSummary | None:
    op_count = final.get("graph_op_count")
    if not ident.graphs and not isinstance(op_count, int):
        return None
    return GraphSummary(
        op_count=op_count if isinstance(op_count, int) and op_count >= 0 else None,
        empty=bool(ident.graphs) and op_count == 0 and outcome == Outcome.COMPLETED,
        op_histogram=ident.histogram or {},
        evidence_ids=list(ident.graphs) + ([metrics_ev] if isinstance(op_count, int) and metrics_ev else []),
    )


def _guards(ident: _Identity, final: dict[str, Any], metrics_ev: str | None) -> GuardSummary | None:
    guard_count = final.get("guard_count")
    if not isinstance(guard_count, int) or guard_count < 0:
        return None
    return GuardSummary(
        count=guard_count,
        categories=dict(sorted(ident.guard_categories.items())),
        evidence_ids=[*([metrics_ev] if metrics_ev else []), *ident.guard_evidence],
    )


def _without_config(data: dict[str, Any]) -> dict[str, Any]:
    kept = dict(data)
    for key in _CONFIG_FIELDS:
        kept.pop(key, None)
    return kept


# The phase-time keys among a metrics object's keys, by its key tuple: every compilation of a run writes the same
# hundred keys in the same order, so they are sorted out once rather than once per compilation.
_PHASE_KEYS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _phase_keys(keys: tuple[str, ...]) -> tuple[str, ...]:
    known = _PHASE_KEYS.get(keys)
    if known is None:
        known = tuple(k for k in keys if _PHASE.search(k) and not _NOT_PHASE.search(k))
        if len(_PHASE_KEYS) < 256:  # a trace's keys are data: the memo stays small whatever it holds
            _PHASE_KEYS[keys] = known
    return known


def _phase_times(final: dict[str, Any]) -> dict[str, float]:
    """Compile-phase times of the final metrics, each quantity once (in seconds when torch writes two units)."""
    phases = {}
    for k in _phase_keys(tuple(final)):
        v = final[k]
        if isinstance(v, int | float) and not isinstance(v, bool):
            phases[k] = float(v)
    for twin, kept in _TWINS.items():
        if twin in phases and kept in phases:
            del phases[twin]
    return dict(sorted(phases.items()))


def _start_time(final: dict[str, Any]) -> float | None:
    value = final.get("start_time")
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def _aot_summary(ident: _Identity) -> AotSummary | None:
    if not ident.aot_graphs and not ident.bwd_metrics:
        return None
    ops = {kind: count for kind, count, _ in ident.aot_graphs}
    times = [body.get("inductor_compile_time_s") for body, _ in ident.bwd_metrics]
    seconds = [float(t) for t in times if isinstance(t, int | float) and not isinstance(t, bool)]
    return AotSummary(
        forward_op_count=ops.get("aot_forward_graph"),
        backward_op_count=ops.get("aot_backward_graph"),
        inference_op_count=ops.get("aot_inference_graph"),
        backward_compiled=bool(ident.bwd_metrics),
        backward_compile_time_s=sum(seconds) if seconds else None,
        evidence_ids=[ev for _, _, ev in ident.aot_graphs] + [ev for _, ev in ident.bwd_metrics],
    )


# Records written while a compilation runs, before its compilation_metrics: one of them after the metrics of the
# same id belongs to the next occurrence of that id.
_COMPILING_ARTIFACTS = frozenset({"recompile_reasons", "dynamo_graph_break_reason", "dynamo_error"})
_COMPILING_KINDS = frozenset({"dynamo_output_graph", "dynamo_guards", "dynamo_cpp_guards_str"})


def _opens(fact: Fact) -> bool:
    if fact.kind == "artifact":
        return fact.name in _COMPILING_ARTIFACTS
    return fact.kind in _COMPILING_KINDS


def _outcome(ident: _Identity) -> tuple[Outcome, str, Failure | None, list[LimitEvent]]:
    """Outcome of one identity (docs/SEMANTICS.md, "Outcomes"); returns (outcome, why, failure, limit events)."""
    per_attempt = Counter(attempt for attempt, _, _ in ident.metrics)
    failing = [(body, ev) for _, body, ev in ident.metrics if body.get("fail_type")]
    failing += [(body, ev) for body, ev in ident.bwd_metrics if body.get("fail_type")]
    succeeding = [(body, ev) for _, body, ev in ident.metrics if not body.get("fail_type")]
    limits: list[LimitEvent] = []
    for body, ev in failing:
        text = f"{body.get('fail_type')}: {body.get('fail_reason') or ''}"
        if _LIMIT.search(text):
            limits.append(
                LimitEvent(kind="recompile_limit", message=str(body.get("fail_reason") or text)[:2000], evidence_id=ev)
            )
    failure = None
    if failing or ident.errors:
        body = failing[-1][0] if failing else {}
        reason = body.get("fail_reason")
        if reason is None and ident.errors:
            reason = ident.errors[-1][0].splitlines()[-1] if ident.errors[-1][0] else None
        user_file = body.get("fail_user_frame_filename")
        user_line = body.get("fail_user_frame_lineno")
        failure = Failure(
            fail_type=body.get("fail_type"),
            reason=str(reason) if reason is not None else None,
            user_file=user_file if isinstance(user_file, str) else None,
            user_line=user_line if isinstance(user_line, int) else None,
            suppressed=suppressed if isinstance(suppressed := body.get("config_suppress_errors"), bool) else None,
            evidence_ids=[e for _, e in failing] + [e for _, e in ident.errors],
        )
    duplicated = [a for a, n in per_attempt.items() if n > 1]
    if duplicated:
        return (
            Outcome.UNRESOLVED,
            f"{per_attempt[duplicated[0]]} compilation_metrics records for attempt {duplicated[0]}",
            failure,
            limits,
        )
    if failure is not None and succeeding and not failing:
        return Outcome.UNRESOLVED, "a dynamo_error artifact and compilation_metrics without fail_type", failure, limits
    if failure is not None:
        return Outcome.FAILED, f"failed: {failure.fail_type or 'dynamo_error'}", failure, limits
    if not succeeding:
        return Outcome.UNKNOWN, "no compilation_metrics record (no terminal evidence)", None, limits
    body = succeeding[-1][0]
    op_count = body.get("graph_op_count")
    has_graph = bool(ident.graphs)
    if has_graph and isinstance(op_count, int) and op_count > 0:
        return Outcome.COMPLETED, f"metrics without failure, dynamo_output_graph, {op_count} ops", None, limits
    if not has_graph and not op_count and body.get("has_guarded_code") is True:
        return Outcome.NO_GRAPH_OBSERVED, "guarded code without a graph or ops (skipped frame)", None, limits
    if has_graph and op_count == 0:
        # The backend was handed a graph that only returns its inputs (fullgraph=True does not let Dynamo skip
        # such a frame): the compilation completed, its graph is empty.
        return (
            Outcome.COMPLETED,
            "metrics without failure, dynamo_output_graph with no ops (an empty graph)",
            None,
            limits,
        )
    if has_graph and op_count is None:
        return Outcome.UNKNOWN, "graph emitted but compilation_metrics has no graph_op_count", None, limits
    if has_graph:
        return Outcome.UNKNOWN, f"graph emitted with graph_op_count={op_count}", None, limits
    return (
        Outcome.UNKNOWN,
        (f"metrics without failure but no graph; has_guarded_code={body.get('has_guarded_code')!r}"),
        None,
        limits,
    )


def _metrics_code(body: dict[str, Any]) -> CodeLocation | None:
    name, filename, line = body.get("co_name"), body.get("co_filename"), body.get("co_firstlineno")
    if not isinstance(name, str) and not isinstance(filename, str):
        return None
    return CodeLocation(
        co_filename=filename if isinstance(filename, str) else None,
        co_name=name if isinstance(name, str) else None,
        co_firstlineno=line if isinstance(line, int) else None,
        source="compilation_metrics",
    )


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
