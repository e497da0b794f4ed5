"""One run on its own, per source function (the same folding as a comparison: resume functions and library frames
count in the function they belong to)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from dynamo_diff_match import FunctionMatch, FunctionRef, SnapshotSet, correspond_functions
from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import MODULE_SETTING, Compilation, GraphBreak, GuardReason
from dynamo_diff_schema.counts import COUNT_LABELS, HEADLINE_COUNTS, Counts, sum_counts
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.run_report import (
    BreakLine,
    CallContext,
    CodeLine,
    CompilationLine,
    FailureLine,
    FunctionReport,
    GuardLine,
    RunReport,
)
from dynamo_diff_schema.suggestions import SuggestionKind

from dynamo_diff_compare.break_words import (
    actionable_hint,
    break_title,
    chained_break,
    reached_text,
    restart_words,
)
from dynamo_diff_compare.call_sites import (
    SITES_SHOWN,
    assigned_text,
    assignment_sites,
    call_context,
    call_path,
    called_from_text,
    context_text,
    guarded_name,
    same_call,
)
from dynamo_diff_compare.changes import gist, guard_failure_text
from dynamo_diff_compare.compile_ids import compile_order
from dynamo_diff_compare.compile_time import phase_times_text
from dynamo_diff_compare.compiled import compiled_line
from dynamo_diff_compare.guard_groups import grouped_guards
from dynamo_diff_compare.inductor_code_view import inductor_code_summary, inductor_code_text
from dynamo_diff_compare.observed import Observed, observed_functions
from dynamo_diff_compare.rank_sums import rank_split, summed
from dynamo_diff_compare.render import side_label
from dynamo_diff_compare.side_effects_view import side_effects_text
from dynamo_diff_compare.started import started_frame, started_outer, started_text
from dynamo_diff_compare.suggestions import (
    TorchSetup,
    capture_suggestions,
    compilation_suggestions,
    function_suggestions,
    run_suggestions,
    suggestion_brief,
    suggestion_text,
)
from dynamo_diff_compare.user_lines import (
    also_differs_text,
    break_code,
    dynamic_text,
    guard_line,
    made_for_text,
    same_number_note,
    shown_site,
    source_line,
    specialized_text,
    triggering_guards,
)
from dynamo_diff_compare.went_on import Sequels, after_failure_text, then_text

# The compile-time figure shown per compilation (torch's own name and unit).
_COMPILE_TIME = "entire_frame_compile_time_s"


def failure_message(reason: str) -> str:
    """The telling line of a failure's text (`gist`), and the break torch hit while handling it when there is one
    (`...; while handling it: graph break in loop: torch.compile detected a graph break in a for/while loop. ...`):
    why torch skipped the frame; a RecompileError's failing guards (`; triggered by 0/0: self.pool == 0 at ...`)."""
    then = chained_break(reason)
    guards = triggering_guards(reason)
    said = gist(reason)
    if guards:  # `Recompiling function forward in /path/model.py:17`: the file's name is enough
        said = re.sub(r" in \S*/([^/\s]+:\d+)$", r" in \1", said) + "; triggered by " + "; ".join(guards)
    return said + (f"; while handling it: {then}" if then else "")


def nonzero(counts: Counts) -> dict[str, int]:
    return {key: value for key, value in counts.values().items() if value}


# The literal arguments that differ from a frame's previous graph said on a compilation's line, at most.
LITERALS_SAID = 4


def literal_changes(before: list[str], now: list[str]) -> list[str]:
    """`pixel_shuffle(arg 1) 2 -> 4`: each literal argument (GraphSummary.literals) of a call that both graphs make
    (the same call, argument and occurrence) whose value differs, in order; an argument only one graph has is not
    said (its ops say what it does differently)."""

    def keyed(items: list[str]) -> dict[tuple[str, int], str]:
        seen: dict[str, int] = {}
        out: dict[tuple[str, int], str] = {}
        for item in items:
            key, _, value = item.partition("=")
            seen[key] = seen.get(key, 0) + 1
            out[(key, seen[key])] = value
        return out

    old = keyed(before)
    return [
        f"{key} {old[(key, n)]} -> {value}"
        for (key, n), value in keyed(now).items()
        if old.get((key, n), value) != value
    ]


def restarted_graph_text(comp: Compilation) -> str | None:
    """`attempt 0's graph (replaced at the restart) took L_self_w: f64[][], an input the kept graph has not; ops the
    kept graph has not: Tensor.item 1 (ev u1-e21)`: how the attempt a restart threw away differed from the graph
    kept (GraphSummary.discarded); None when the analysis did not restart after a graph was made."""
    if comp.graph is None or (d := comp.graph.discarded) is None:
        return None
    ev = f" (ev {d.evidence_id})" if d.evidence_id else ""
    # The kept graph is known whole only when its compilation finished (compilation_metrics counts its ops): a trace
    # cut inside its record holds part of it, so nothing is compared with it.
    if comp.graph.op_count is None:
        took = f"took {'; '.join(d.inputs)}; " if d.inputs else ""
        return (
            f"attempt {d.attempt}'s graph (replaced at the restart) {took}not compared with the kept graph (its "
            f"compilation never finished){ev}"
        )
    kept = {i.split(":", 1)[0] for i in comp.graph.inputs}
    extra = [i for i in d.inputs if i.split(":", 1)[0] not in kept]
    kinds = {k.rsplit(" ", 1)[0] for k in op_kinds(comp.graph.op_histogram)}
    only = [k for k in op_kinds(d.op_histogram) if k.rsplit(" ", 1)[0] not in kinds]
    parts = []
    if extra:
        parts.append(f"took {'; '.join(extra)}, {'an input' if len(extra) == 1 else 'inputs'} the kept graph has not")
    if only:
        parts.append(f"ops the kept graph has not: {', '.join(only)}")
    said = "; ".join(parts) or "the same inputs and op kinds as the kept graph"
    return f"attempt {d.attempt}'s graph (replaced at the restart) {said}{ev}"


def literals_text(c: CompilationLine) -> str:
    """`graph arguments against 0/0: pixel_shuffle(arg 1) 2 -> 4` (at most LITERALS_SAID, the rest counted)."""
    shown = c.graph_literals_changed[:LITERALS_SAID]
    rest = len(c.graph_literals_changed) - len(shown)
    more = f"; +{rest} more" if rest else ""
    return f"graph arguments against {c.graph_literals_against}: " + "; ".join(shown) + more


def with_literal_changes(lines: list[CompilationLine], comps: list[Compilation]) -> list[CompilationLine]:
    """Each compilation line with what its graph bakes in differently from its frame's (and rank's) previous graph
    (`graph_literals_changed`, against `graph_literals_against`); a compilation without a graph is passed over."""
    last: dict[tuple[int | None, str], tuple[str, list[str]]] = {}
    out = []
    for line, comp in zip(lines, comps, strict=True):
        literals = list(comp.graph.literals) if comp.graph is not None else []
        key = (line.rank, line.frame)
        if comp.graph is None or (comp.graph.op_count is None and not literals):
            out.append(line)
            continue
        prev = last.get(key)
        last[key] = (comp.compile_id, literals)
        changed = literal_changes(prev[1], literals) if prev is not None else []
        update = {"graph_literals_changed": changed, "graph_literals_against": prev[0]} if prev and changed else {}
        out.append(line.model_copy(update=update) if update else line)
    return out


def compilation_line(
    comp: Compilation,
    frame: str,
    rank: int | None = None,
    function: str | None = None,
    sequels: Sequels | None = None,
    sources: SnapshotSet | None = None,
    called_from: list[CodeLine] | None = None,
) -> CompilationLine:
    failure = None
    if comp.failure is not None:
        sequel = sequels.of(comp) if sequels is not None else None
        failure = FailureLine(
            fail_type=comp.failure.fail_type,
            message=failure_message(comp.failure.reason or ""),
            site=f"{comp.failure.user_file}:{comp.failure.user_line}" if comp.failure.user_file else None,
            then=then_text(comp),
            went_on=sequel.went_on if sequel is not None else None,
            went_on_basis=sequel.basis if sequel is not None else None,
            went_on_evidence=sequel.evidence_id if sequel is not None else None,
            evidence_ids=comp.failure.evidence_ids,
        )
    reasons = comp.recompile.reasons if comp.recompile is not None else []
    return CompilationLine(
        compile_id=comp.compile_id,
        rank=rank,
        frame=frame,
        outcome=str(comp.outcome),
        recompile=[guard_reason_line(r, sources, comp.code.co_filename) for r in reasons],
        graph_breaks=[
            BreakLine(
                type=gb.gb_type or gb.reason.split("\n", 1)[0][:200],
                gb_id=gb.gb_id,
                operator=gb.operator,
                hint=actionable_hint(gb.hints),
                url=gb.url,
                site=gb.site,
                code=break_code(sources, gb),
                from_user=from_user(gb),
                evidence_id=gb.evidence_id,
            )
            for gb in comp.graph_breaks
        ],
        failure=failure,
        limit=comp.limit_events[0].message.split("\n", 1)[0][:200] if comp.limit_events else None,
        restarts=comp.restart_count,
        restart_reasons=list(dict.fromkeys(restart_words(r) for r in comp.restarts)),
        restarted_graph=restarted_graph_text(comp),
        reached=comp.reached,
        cache=[f"{e.cache} {e.decision}" for e in comp.cache_events],
        graph_ops=comp.graph.op_count if comp.graph is not None else None,
        graph_op_kinds=op_kinds(comp.graph.op_histogram) if comp.graph is not None else [],
        aot_ops=aot_ops(comp),
        aot_op_kinds=aot_op_kinds(comp),
        inductor_code=list(comp.inductor_code),
        side_effects=list(comp.side_effects),
        graph_inputs=list(comp.graph.inputs) if comp.graph is not None else [],
        graph_inputs_omitted=comp.graph.inputs_omitted if comp.graph is not None else 0,
        graph_evidence_id=comp.graph.graph_evidence_id if comp.graph is not None else None,
        graph_outputs=list(comp.graph.outputs) if comp.graph is not None else [],
        graph_constants=list(comp.graph.constants) if comp.graph is not None else [],
        backward_compiled=(
            comp.aot.backward_compiled if comp.aot is not None and comp.aot.backward_op_count is not None else None
        ),
        # Every compilation whose graph is dynamic: a recompilation's (what made it dynamic is the question there)
        # and a first one's (dynamic=True, mark_dynamic); a static graph has none.
        dynamic=list(comp.graph.symbolic_sizes) if comp.graph is not None else [],
        specialized=[
            s if s.code or sources is None else s.model_copy(update={"code": source_line(sources, s.file, s.line)})
            for s in comp.specializations
        ],
        compile_time_s=comp.phase_times.get(_COMPILE_TIME),
        guards_on_inputs=list(comp.guards.inputs) if comp.guards is not None else [],
        guards_on_inputs_omitted=comp.guards.inputs_omitted if comp.guards is not None else 0,
        guards_on_values_omitted=comp.guards.values_omitted if comp.guards is not None else 0,
        guards_evidence_id=comp.guards.inputs_evidence_id if comp.guards is not None else None,
        sizes_accepted=list(comp.guards.sizes_accepted) if comp.guards is not None else [],
        sizes_related=comp.guards.sizes_related if comp.guards is not None else 0,
        called_from=called_from or [],
        call_context=call_context(called_from, sources) if called_from else None,
        evidence_ids=comp.evidence_ids[:2],
        suggestions=compilation_suggestions(comp, function),
        started_with=started_frame(comp.started_with),
        started_outer=started_outer(comp.started_with),
    )


def from_user(gb: GraphBreak) -> str | None:
    """`policy.py:19: dist = Normal(mu, std)`: for a break in library code, the innermost frame of its user traceback
    in the user's own files (the line that called into the library); None otherwise."""
    if gb.user_file is None or library_path(gb.user_file) is None:
        return None
    mine = [f for f in gb.user_stack if library_path(f.filename) is None]
    if not mine:
        return None
    last = mine[-1]
    at = f"{last.filename.rsplit('/', 1)[-1]}:{last.line if last.line is not None else '?'}"
    return f"{at}: {last.code}" if last.code else at


def guard_reason_line(r: GuardReason, sources: SnapshotSet | None = None, file: str | None = None) -> GuardLine:
    """A failing guard as a report line: torch's guard, the user line torch attributes it to, and the lines of the
    source snapshots that assign the global, attribute or key it reads (`file`'s, the compiled code's, first)."""
    at = guard_line(r.text)
    what = guarded_name(r.text)
    sites = assignment_sites(sources, what, file) if what is not None else []
    return GuardLine(
        category=str(r.category),
        text=guard_failure_text(r.text),
        site=at.site if at is not None else None,
        code=at.code if at is not None else None,
        guarded=what.label if what is not None else None,
        assigned_at=sites[:SITES_SHOWN],
        assigned_total=len(sites),
        evidence_id=r.evidence_id,
        made_for=r.made_for[:4],
        also_differs_from=r.also_differs_from,
        also_differs=r.also_differs[:6],
        also_differs_count=r.also_differs_count,
    )


def reason_text(r: GuardLine, quoted: set[str] | None = None) -> str:
    """`[value] 0/0: G['MODE'] == 'sin' at global_guard.py:17: if MODE == "sin": (made for: ...) (also differs ...)`;
    with `quoted` (the lines of code the text has quoted), a line quoted before is named only (`at
    global_guard.py:17`)."""
    also = also_differs_text(r.also_differs_from, r.also_differs)
    at = guard_at(r)
    if quoted is not None and r.site is not None and r.code:
        if r.site in quoted:
            at = f"at {r.site}"
        quoted.add(r.site)
    return (
        f"[{r.category}] {r.text}"
        + (f" {at}" if r.site else "")
        + made_for_text(r.made_for)
        + same_number_note(r.text, r.made_for)
        + (f" ({also})" if also else "")
    )


def guard_at(g: GuardLine) -> str:
    """'at global_guard.py:17: if MODE == "sin":' ('' when the guard names no user line)."""
    if g.site is None:
        return ""
    return f"at {g.site}: {g.code}" if g.code else f"at {g.site}"


def folded_functions(
    capture: Capture, sources: SnapshotSet | None = None
) -> list[tuple[FunctionMatch, list[FunctionRef], dict[FunctionRef, Observed]]]:
    """The capture's source functions, each with the frames counted in it (its own, its resume functions, the
    library frames compiled in its place), folded as a comparison folds them (the run paired with itself)."""
    src = sources or SnapshotSet({}, {})
    observed = observed_functions(capture, src)
    out = []
    for match in correspond_functions(list(observed), src, list(observed), src):
        refs = [p.baseline for p in match.pieces if p.baseline is not None and p.baseline in observed]
        if refs:
            out.append((match, refs, observed))
    return out


def frame_named(ref: FunctionRef) -> str:
    """A frame counted in a function: its name, and where it is when it is torch's or a library's code (`inner
    (torch/_dynamo/external_utils.py:67)`), which the user's own files do not say."""
    where = library_path(ref.file)
    return ref.name if where is None else f"{ref.name} ({where}:{ref.first_line})"


def run_report(capture: Capture, sources: SnapshotSet, *, function: str | None = None) -> RunReport:
    """The run per source function, functions with something to say (failures, recompilations, breaks) first;
    `function` keeps the functions of that name (qualified or bare, or a frame's name)."""
    functions = []
    setup = TorchSetup.of(capture)
    sequels = Sequels(capture)
    for match, refs, observed in folded_functions(capture, sources):
        name = match.baseline_name or refs[0].name
        frames = [r.name for r in refs]
        if function is not None and function not in (name, name.rsplit(".", 1)[-1], *frames):
            continue
        multi_rank = len(capture.ranks) > 1
        comps = sorted(
            ((r.name, rank, c) for r in refs for rank, c in observed[r].compilations),
            key=lambda frc: (compile_order(frc[2].compile_id), frc[1] is None, frc[1] or 0),
        )
        where = match.baseline_location
        first = comps[0][2].code.callers if comps else []  # the call that first compiled it
        ranks_summed, per_rank = rank_split(
            ((rank, g.counts) for r in refs for rank, g in observed[r].groups), [x.rank for x in capture.ranks]
        )
        functions.append(
            FunctionReport(
                name=name,
                # Generated code: the file name torch gave it, as the trace records it.
                file=where[0] if where else (observed[refs[0]].groups[0][1].code.co_filename or refs[0].file),
                line=where[1] if where else refs[0].first_line or None,
                compiled=any(r.caller is not None and bool(r.caller.target) for r in refs),
                frames=list(dict.fromkeys(map(frame_named, refs))) if len(frames) > 1 or refs[0].caller else [],
                counts=nonzero(total := sum_counts(g.counts for r in refs for _, g in observed[r].groups)),
                ranks_summed=ranks_summed,
                per_rank=per_rank,
                compile_time_s=total.compile_time_s,
                count_evidence=_count_evidence([c for _, _, c in comps]),
                called_from=(path := call_path(first, sources)),
                call_context=call_context(path, sources),
                compilations=with_literal_changes(
                    [
                        compilation_line(
                            c,
                            frame,
                            rank if multi_rank else None,
                            name,
                            sequels,
                            sources,
                            called_from=None
                            if same_call(c.code.callers, first)
                            else call_path(c.code.callers, sources),
                        )
                        for frame, rank, c in comps
                    ],
                    [c for _, _, c in comps],
                ),
                suggestions=function_suggestions([c for _, _, c in comps], setup, name, sources),
            )
        )
    functions.sort(key=_interest)
    info = capture.capture
    return RunReport(
        capture=info.id,
        label=info.label,
        torch=info.producer.torch,
        run=info.run,
        compiled=info.compiled,
        counts=nonzero(capture.counts),
        sources_note=info.validity.sources_note(),
        compile_time_s=capture.counts.compile_time_s,
        phase_times_s=capture.counts.phase_times_s,
        functions=functions,
        suggestions=run_suggestions(capture),
    )


def function_compilations(capture: Capture, sources: SnapshotSet | None = None) -> list[tuple[str, list[Compilation]]]:
    """Each source function (named as the run report names it) with all its compilations in compile order, every
    rank's (what its suggestions are computed from)."""
    out = []
    for match, refs, observed in folded_functions(capture, sources):
        comps = sorted(
            ((rank, c) for r in refs for rank, c in observed[r].compilations),
            key=lambda rc: (compile_order(rc[1].compile_id), rc[0] is None, rc[0] or 0),
        )
        out.append((match.baseline_name or refs[0].name, [c for _, c in comps]))
    return out


def with_suggestions(capture: Capture, sources: SnapshotSet | None = None) -> Capture:
    """The capture as `analyze` shows it: with the suggestions for the causes it holds (computed, never stored)."""
    return capture.model_copy(
        update={"suggestions": capture_suggestions(capture, function_compilations(capture, sources), sources)}
    )


# Evidence ids listed per count (the compilation lines have them all).
_EVIDENCE_PER_COUNT = 5


def _count_evidence(comps: list[Compilation]) -> dict[str, list[str]]:
    """The records behind the counts someone acts on, in compile order."""
    found: dict[str, list[str]] = {
        "failed": [e for c in comps if c.failure is not None for e in c.failure.evidence_ids[:1]],
        "confirmed_recompilation_identities": [
            e for c in comps if c.recompile is not None for e in c.recompile.evidence_ids[:1]
        ],
        "graph_break_records": [gb.evidence_id for c in comps for gb in c.graph_breaks if gb.evidence_id],
        "compiler_limit_events": [e.evidence_id for c in comps for e in c.limit_events if e.evidence_id],
        "restarts": [e for c in comps if c.restart_count for e in c.restart_evidence[:1]],
    }
    return {key: ids[:_EVIDENCE_PER_COUNT] for key, ids in found.items() if ids}


def _interest(report: FunctionReport) -> tuple[int, str]:
    c = report.counts
    score = (
        4 * c.get("failed", 0)
        + 3 * c.get("confirmed_recompilation_identities", 0)
        + 2 * c.get("graph_break_records", 0)
        + c.get("compiler_limit_events", 0)
    )
    return -score, report.name


def context_once(
    context: CallContext | None,
    frames: list[CodeLine],
    shown: dict[tuple[str, int], int] | None,
    indent: str,
    *,
    scripts_below: bool = False,
) -> list[str]:
    """The lines of a call's context (`context_text`), each indented by `indent`; [] when there is none or `shown`
    already holds it (a context is shown once per text: a later call path through the same loop says nothing new,
    a later call further down the same loop only the lines after those shown). `scripts_below`: the text ends
    with the run's scripts, so the context is one line naming its lines there."""
    if context is None or not context.lines:
        return []
    return [indent + t for t in context_text(context, frames, shown, scripts_below=scripts_below)]


# A compilation's `guards on inputs:` line, and its `guards on values:` line, at most this long (cut by whole items).
INPUTS_LINE_CHARS = 240
VALUES_LINE_CHARS = 320


# A guard on what an argument holds (`L['self'].cfg.top_k == 3`, `len(L['history']) == 3`), a scalar argument
# guarded by its type alone (`L['margin']: int`) or a global setting not at its default (`GLOBAL_STATE
# grad_mode=false`): the `guards on values:` line.
_ON_ATTRIBUTE = re.compile(
    r"^(?!.*\.(?:size|stride|storage_offset)\(\))"
    r"(?:(?:len\()?L\['\w+'\][.\[)]|L\['\w+'\]: (?:int|float|bool|str)$|L\['\w+'\]: \w+ \(its class, not the object\)$"
    r"|GLOBAL_STATE "
    # A range on a value an argument holds, the bound first (`41 <= L['self'].n_fft`: an int attribute made symbolic).
    r"|-?\d+(?:\.\d+)? (?:<=|<|>=|>) L\['\w+'\][.\[])"
)


def guard_lines(
    items: list[str], omitted: int = 0, evidence_id: str | None = None, values_omitted: int = 0
) -> list[str]:
    """The `guards on inputs:` line (the arguments' tensors, their shapes, a scalar's value) and the `guards on
    values:` line (what the arguments hold), each cut by whole items; the items left out counted on the line they
    belong to (`values_omitted` of `omitted` on the values line; all on the last line when one is empty)."""
    args = [i for i in items if not _ON_ATTRIBUTE.match(i)]
    values, counted = settings_counted([i for i in items if _ON_ATTRIBUTE.match(i)], values_omitted)
    omitted, values_omitted = omitted - counted, values_omitted - counted
    on_args = omitted - values_omitted if args and values else 0 if values else omitted
    on_values = omitted - on_args
    lines = []
    if args:
        lines.append(inputs_text(args, on_args, None if values else evidence_id))
    if values:
        lines.append(inputs_text(values, on_values, evidence_id, head="guards on values: ", width=VALUES_LINE_CHARS))
    return lines


# At least this many guards on the settings submodules were built with are said as one item (they are one call away).
SETTINGS_COUNTED = 3
_SUBMODULE = re.compile(r"\._modules\['([^'\n]*)'\]")


def settings_counted(values: list[str], omitted: int = 0) -> tuple[list[str], int]:
    """The guards on values with those on submodules' settings (`len(L['self']._modules['conv'].stride) == 1`,
    `..._modules['norm'].eps == 1e-05`; MODULE_SETTING), when there are SETTINGS_COUNTED or more, said as one
    last item (`11 on submodule settings (conv, norm)`), and how many of the `omitted` it counts: the store lists
    the settings last, so when the last listed is one, the values it left out are settings too."""
    settings = [v for v in values if MODULE_SETTING.search(v)]
    if len(settings) < SETTINGS_COUNTED:
        return values, 0
    counted = omitted if MODULE_SETTING.search(values[-1]) else 0
    # Each submodule by its path (`body.1` for `._modules['body']._modules['1']`), as `named_modules()` names it.
    names = dict.fromkeys(".".join(_SUBMODULE.findall(v.split(" ", 1)[0])) for v in settings)
    names.pop("", None)
    of = f" ({', '.join(names)})" if names else ""
    said = f"{len(settings) + counted} on submodule settings{of}"
    return [v for v in values if v not in settings] + [said], counted


def inputs_text(
    items: list[str],
    omitted: int = 0,
    evidence_id: str | None = None,
    *,
    head: str = "guards on inputs: ",
    width: int = INPUTS_LINE_CHARS,
) -> str:
    """`guards on inputs: L['x']: torch.float32, size=[None, 3], stride=[3, 1]; 2 <= L['x'].size()[0] (ev u1-e4)`,
    at most INPUTS_LINE_CHARS (whole items; the rest counted), with the guard tree's evidence id (every guard of
    the entry: `evidence ID EV` shows it compact)."""
    shown: list[str] = []
    ev = f" (ev {evidence_id})" if evidence_id else ""
    for i, item in enumerate(items):
        rest = len(items) - i - 1 + omitted
        tail = (f"; +{rest} more" if rest else "") + ev
        if shown and len(head + "; ".join([*shown, item]) + tail) > width:
            break
        shown.append(item)
    rest = len(items) - len(shown) + omitted
    return head + "; ".join(shown) + (f"; +{rest} more" if rest else "") + ev


OP_KINDS = 14  # the op kinds a compilation line lists
GRAPH_INPUTS_LISTED = 8  # the graph inputs the capture lists (dynamo_diff_store's graph_inputs)


def op_kinds(histogram: dict[str, int]) -> list[str]:
    """A graph's ops by kind, most first, named by the target's last name (`torch.nn.functional.linear` and
    `torch._C._nn.linear` are both `linear`; `Tensor.sin` keeps `Tensor.`; `torch.ops.aten.mm.default` is `mm`, its
    overload left off): at most OP_KINDS."""
    merged: dict[str, int] = {}
    for target, n in histogram.items():
        if target.startswith("torch.ops.") and target.count(".") >= 3:
            name = target.split(".")[3]  # torch.ops.aten.mm.default: the op, not its overload
        else:
            name = target if target.startswith("Tensor.") else target.rsplit(".", 1)[-1]
        merged[name] = merged.get(name, 0) + n
    ranked = sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))
    return [f"{name} {n}" for name, n in ranked[:OP_KINDS]]


def aot_ops(comp: Compilation) -> dict[str, int]:
    """The op counts of AOTAutograd's graphs of a compilation, by graph (forward, backward, inference)."""
    if comp.aot is None:
        return {}
    counts = {
        "forward": comp.aot.forward_op_count,
        "backward": comp.aot.backward_op_count,
        "inference": comp.aot.inference_op_count,
    }
    return {k: v for k, v in counts.items() if v is not None}


# ATen ops that only view or lay out their input: left out of `aten ops:` (what a graph computes is the question).
_LAYOUT_OPS = frozenset(
    {
        "view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "unsqueeze", "squeeze", "slice",
        "select", "alias", "detach", "as_strided", "view_as", "unbind", "split", "split_with_sizes", "sym_size",
        "sym_stride", "sym_numel", "sym_storage_offset",
    }
)  # fmt: skip
AOT_KINDS_SAID = 8  # the op kinds an `aten ops:` line lists of each graph


def aot_op_kinds(comp: Compilation) -> dict[str, list[str]]:
    """Each AOTAutograd graph's ATen ops, the view and layout ops left out, most first."""
    if comp.aot is None:
        return {}
    graphs = {"forward": comp.aot.forward_ops, "backward": comp.aot.backward_ops, "inference": comp.aot.inference_ops}
    return {
        name: [f"{op} {n}" for op, n in ops.items() if op not in _LAYOUT_OPS] for name, ops in graphs.items() if ops
    }


def aten_ops_text(c: CompilationLine) -> str:
    """`aten ops: forward addmm 2, native_dropout 1, silu 1; backward mm 4, ... (view and layout ops left out)`."""
    parts = []
    for name, kinds in c.aot_op_kinds.items():
        shown = kinds[:AOT_KINDS_SAID]
        rest = len(kinds) - len(shown)
        parts.append(f"{name} " + (", ".join(shown) or "none") + (f", {rest} more" if rest else ""))
    return "aten ops: " + "; ".join(parts) + " (view and layout ops left out)"


def ops_text(c: CompilationLine, as_in: str | None = None) -> str:
    """`graph: 16 ops: getitem 6, autograd_function_apply 3, ...` (the kinds not listed counted), then the ops of
    AOTAutograd's graphs of it (`; AOTAutograd: forward 8 ops, backward 18 ops`) and how many inputs the graph
    takes (`; 19 graph inputs`: its placeholders, parameters and buffers among them). `as_in`: the compile id whose
    line listed the same kinds and counts (`graph: 13 ops, the kinds of 0/1; 15 graph inputs`)."""
    ev = f" (ev {c.graph_evidence_id})" if c.graph_evidence_id else ""
    # A compilation that failed or never finished has its graph's record but no op count (compilation_metrics).
    count = f"{c.graph_ops} ops" if c.graph_ops is not None else "ops (torch recorded no count)"
    # Every input of the graph: the frame's tensors and symbols, and the modules' parameters and buffers it reads.
    inputs = len(c.graph_inputs) + c.graph_inputs_omitted
    takes = f"; {inputs} graph input{'' if inputs == 1 else 's'}" if inputs else ""
    if as_in is not None:
        return f"graph: {count}, the kinds and counts of {as_in}'s{takes}{ev}"
    listed = sum(int(k.rsplit(" ", 1)[1]) for k in c.graph_op_kinds)
    rest = (c.graph_ops or 0) - listed
    more = f", {rest} more" if rest > 0 else ""
    compiled = {True: " (compiled)", False: " (not compiled in this run)", None: ""}
    aot = ", ".join(
        f"{k} {n} ops" + (compiled[c.backward_compiled] if k == "backward" else "") for k, n in c.aot_ops.items()
    )
    return (
        f"graph: {count}: " + ", ".join(c.graph_op_kinds) + more + (f"; AOTAutograd: {aot}" if aot else "") + takes + ev
    )


def sizes_text(c: CompilationLine) -> str:
    """`accepts: L['feats'].size()[2] 9 and up; L['k'] 2-20 (its guards on each alone, tried up to ±4096)`: sizes
    from 0, ints from -4096; the guards relating several counted (not tried)."""
    n = c.sizes_related
    related = f"; {n} relating several not tried" if n else ""
    return f"accepts: {'; '.join(c.sizes_accepted)} (its guards on each alone, tried up to ±4096{related})"


def graph_inputs_text(c: CompilationLine) -> str:
    """`graph inputs: L_x_: f32[16, 16][1, s89]; s89: Sym(s89) (and 2 parameters or buffers)`: what is left out is
    the modules' parameters and buffers when fewer than the most listed are, else those and the inputs past it."""
    left = c.graph_inputs_omitted
    full = len(c.graph_inputs) >= GRAPH_INPUTS_LISTED
    more = (f" (and {left} more)" if full else f" (and {left} parameters or buffers)") if left else ""
    return "graph inputs: " + "; ".join(c.graph_inputs) + more


@dataclass
class TextSaid:
    """What one text has said, across its functions: a graph break and what torch did after a failure, each by the
    compile id it was said whole under (`first`); the user's lines whose code a failing guard quoted (`quoted`)."""

    first: dict[object, str] = field(default_factory=dict)
    quoted: set[str] = field(default_factory=set)


def _graphless(c: CompilationLine) -> bool:
    """A compilation that produced no graph (it failed, or stopped, before it had one)."""
    return c.graph_ops is None and not c.graph_op_kinds


class InputsSaid:
    """The `guards on inputs` each frame's last compilation said: a compilation whose guards on its inputs are
    those of its frame's previous compilation (any rank's: another rank's same entry says nothing new) has no
    line."""

    def __init__(self, text: TextSaid | None = None) -> None:
        self._text = TextSaid() if text is None else text
        self.quoted = self._text.quoted
        self._last: dict[str, list[str]] = {}
        # The guards left out of each frame's last guard lines (on inputs, on values), and of the ones before them.
        self._omitted: dict[str, tuple[int, int]] = {}
        self._omitted_before: dict[str, tuple[int, int]] = {}
        # What a line said last for each frame (`_differs`): (the line, the frame) -> what it said.
        self._said: dict[tuple[str, str], object] = {}
        self._sites: dict[str, set[str]] = {}
        self._failures: dict[tuple[str, str | None, str | None, str], str] = {}

    def _differs(self, line: str, c: CompilationLine, now: object) -> bool:
        """Whether `now` is not what this line said for its frame's previous compilation (it is remembered; a
        compilation without a graph, one that failed before it had one, is passed over: the next says what the
        one before it said only if it differs)."""
        key = (line, c.frame)
        before = self._said.get(key)
        if not _graphless(c):
            self._said[key] = now
        return now != before

    def new(self, c: CompilationLine) -> bool:
        return self.changed(c) is not None

    def changed(self, c: CompilationLine) -> list[str] | None:
        """The guards on inputs its frame's previous compilation said ([] for none) when its own differ, else None
        (a compilation without a graph and guards is passed over, as `_differs` passes it)."""
        before = self._last.get(c.frame)
        self._omitted_before[c.frame] = self._omitted.get(c.frame, (0, 0))
        if c.guards_on_inputs or not _graphless(c):
            self._last[c.frame] = c.guards_on_inputs
            self._omitted[c.frame] = (c.guards_on_inputs_omitted, c.guards_on_values_omitted)
        return (before or []) if c.guards_on_inputs and c.guards_on_inputs != before else None

    def said_before(self, c: CompilationLine, before: list[str]) -> list[str]:
        """The guard lines its frame's previous compilation said (`before`: its guards, from `changed`), as that
        compilation cut them, with this one's evidence id (a line the same but for it is not said again)."""
        omitted, values_omitted = self._omitted_before.get(c.frame, (0, 0))
        return guard_lines(before, omitted, c.guards_evidence_id, values_omitted)

    def new_aten_ops(self, c: CompilationLine) -> bool:
        """Whether the ATen ops of AOTAutograd's graphs of it are not those its frame's previous compilation said."""
        return self._differs("aten", c, c.aot_op_kinds) and bool(c.aot_op_kinds)

    def new_sizes(self, c: CompilationLine) -> bool:
        """Whether the sizes it accepts are not those its frame's previous compilation said."""
        return self._differs("sizes", c, c.sizes_accepted) and bool(c.sizes_accepted)

    def new_ops(self, c: CompilationLine) -> bool:
        """Whether its graph's op kinds, or the ops of AOTAutograd's graphs of it, are not those its frame's
        previous compilation said (that compilation remembered as the one whose ops these are)."""
        now = (c.graph_op_kinds, c.aot_ops, c.backward_compiled)
        differs = self._differs("ops", c, now)
        if differs and c.graph_op_kinds:
            self._said[("ops of", c.frame)] = c.compile_id
        return differs and bool(c.graph_op_kinds)

    def ops_as(self, c: CompilationLine) -> str | None:
        """The compile id of its frame's compilation whose `graph:` line said the op kinds its graph has too (called
        after `new_ops` said they are not new); None when none did."""
        said = self._said.get(("ops of", c.frame))
        return said if isinstance(said, str) and c.graph_op_kinds else None

    def new_inductor_code(self, c: CompilationLine) -> bool:
        """Whether what Inductor generated for it differs from its frame's previous compilation's (in what it takes,
        folds in, defines and calls; not in its evidence)."""
        now = [code.model_copy(update={"evidence_id": None}) for code in c.inductor_code]
        return self._differs("inductor", c, now) and bool(now)

    def new_sites(self, c: CompilationLine, text: str) -> bool:
        """Whether this `NAME set at: ...` line was not said for its frame yet (each recompile on the same name
        names the same sites)."""
        said = self._sites.setdefault(c.frame, set())
        if text in said:
            return False
        said.add(text)
        return True

    def new_graph_outputs(self, c: CompilationLine) -> bool:
        """Whether its graph returns more than one value (what it returns beside the result: a side effect's value,
        a second output) and says what its frame's previous compilation did not."""
        return self._differs("outputs", c, c.graph_outputs) and len(c.graph_outputs) > 1

    def same_failure(self, c: CompilationLine) -> str | None:
        """The compile id of its frame's earlier compilation that failed with the same error (its type, where and
        message), said whole there; None when this one is the first."""
        if c.failure is None:
            return None
        key = (c.frame, c.failure.fail_type, c.failure.site, c.failure.message)
        first = self._failures.setdefault(key, c.compile_id)
        return None if first == c.compile_id else first

    def same_break(self, c: CompilationLine, key: object) -> str | None:
        """The compile id of the compilation this text said the same graph break under (its site, where the user's
        code called into it, its reason, line and hint), said whole there; None when this one is the first."""
        first = self._text.first.setdefault(("break", key), c.compile_id)
        return None if first == c.compile_id else first

    def started_at(self, c: CompilationLine) -> str | None:
        """Where its frame's previous compilation started (file:line in function), for `when it started:` to leave
        out when it is the same; remembers this one's."""
        if c.started_with is None:
            return None
        f = c.started_with
        now = f"{f.file}:{f.line} in {f.function}"
        key = ("started at", c.frame)
        before = self._said.get(key)
        self._said[key] = now
        return now if before == now else None

    def same_then(self, c: CompilationLine, then: str) -> str | None:
        """The compile id under which this text said what torch does with a failed compilation's error (`then`)
        whole; None when this one is the first."""
        first = self._text.first.setdefault(("then", then), c.compile_id)
        return None if first == c.compile_id else first

    def new_constants(self, c: CompilationLine) -> bool:
        """Whether its graph bakes in floats its frame's previous compilation's graph did not (the same said once)."""
        return self._differs("constants", c, c.graph_constants) and bool(c.graph_constants)

    def new_side_effects(self, c: CompilationLine) -> bool:
        """Whether the objects its code changes outside the graph are not those its frame's previous compilation
        changed (what they are and where; not their evidence)."""
        now = [e.model_copy(update={"evidence_id": None}) for e in c.side_effects]
        return self._differs("side effects", c, now) and bool(now)

    def new_graph_inputs(self, c: CompilationLine) -> bool:
        """Whether its graph's inputs say something (`telling_inputs`) its frame's previous compilation did not."""
        return self._differs("inputs", c, c.graph_inputs) and telling_inputs(c)


# A graph input the guards on the frame's tensors do not say: a symbol passed in (`s89: Sym(s89)`), a symbolic size
# or stride (`f32[s77, 3]`), a 0-d tensor (`f64[][]`: a Python float the graph reads at run time).
_TELLING_INPUT = re.compile(r": (?:Sym\(|\w+\[[^:]*\b(?:s|u|zf?)\d+\b|\w+\[\]\[\]$)")


# A compile id's attempt: the 1 of `0/1`, `!0/1/0`'s frame attempt, `0/1#2`.
_ATTEMPT = re.compile(r"^!?\d+/(\d+)")


def telling_inputs(c: CompilationLine) -> bool:
    """Whether its graph's inputs say more than the static tensors `guards on inputs` lists."""
    return any(_TELLING_INPUT.search(item) for item in c.graph_inputs)


def compilation_text(
    c: CompilationLine,
    function: str,
    shown: dict[tuple[str, int], int] | None = None,
    inputs: InputsSaid | None = None,
    *,
    scripts_below: bool = False,
) -> str | None:
    """One line for a compilation that has something to say (recompile, break, failure, limit, a call path of its
    own, guards on its inputs or op kinds not said by its frame's previous compilation, the values its start was
    observed with), else None; under it, a line each: where a failing guard's global, attribute or key is set,
    whether the program went on after a failure (and on what evidence), what the program was at when it started
    (`started.py`), the call path when it differs from its function's; with `shown` (the contexts this text said),
    the code around that call when it is not in `shown`; last, the guards on its tensor arguments and its graph's op
    kinds (with `inputs`: when new)."""
    parts = []
    sequel = None  # whether the program went on after a failure: a line of its own, never cut with the others
    if c.recompile:  # every failing guard: they are short, and the one not shown is often the answer
        quoted = inputs.quoted if inputs is not None else None  # a line's code once a text
        guards = "; ".join(grouped_guards(c.recompile, lambda r: reason_text(r, quoted)))
        ids = ", ".join(dict.fromkeys(r.evidence_id for r in c.recompile if r.evidence_id))
        parts.append(f"recompiled {guards}" + (f" (ev {ids})" if ids else ""))
    for gb in c.graph_breaks:
        key = (gb.site, gb.from_user, gb.type, gb.operator, gb.gb_id, gb.code, gb.hint)
        same = inputs.same_break(c, key) if inputs is not None else None
        if same is not None:  # said whole under an earlier compilation of this text
            parts.append(f"graph break at {shown_site(gb.site)}: the same as {same} (ev {gb.evidence_id})")
            continue
        hint = f"; torch's hint: {gb.hint}" if gb.hint else ""
        line = f"; its line: `{gb.code}`" if gb.code else ""
        called = f" (from {gb.from_user})" if gb.from_user else ""
        parts.append(
            f"graph break at {shown_site(gb.site)}{called}: {break_title(gb.type, gb.operator, gb.gb_id)}"
            f" (ev {gb.evidence_id}){line}{hint}"
        )
    if c.failure is not None:
        ev = c.failure.evidence_ids[0] if c.failure.evidence_ids else None
        at = f" at {shown_site(c.failure.site)}" if c.failure.site else ""
        same = inputs.same_failure(c) if inputs is not None else None
        message = f"the same error as {same}" if same is not None else c.failure.message
        parts.append(f"FAILED {c.failure.fail_type}{at}: {message} (ev {ev})")
        f = c.failure
        earlier = bool((m := _ATTEMPT.search(c.compile_id)) and int(m.group(1)) > 0)
        said_as = inputs.same_then(c, f.then) if inputs is not None else None
        sequel = after_failure_text(
            f.then, f.went_on, f.went_on_basis, f.went_on_evidence, earlier=earlier, said_as=said_as
        )
    if c.limit:
        parts.append(f"LIMIT {c.limit}")
    if c.restarts:
        why = f" ({'; '.join(c.restart_reasons)})" if c.restart_reasons else ""
        parts.append(f"analysis restarted {c.restarts}x{why}")
    if c.reached is not None:
        parts.append(reached_text(c.reached))
    if c.cache:
        parts.append("cache " + ", ".join(c.cache))
    after_guards = 1 if c.recompile else 0
    if c.dynamic:  # a dynamic graph says in what (a recompilation's after its guards)
        parts.insert(after_guards, dynamic_text(c.dynamic))
        after_guards += 1
    if c.specialized:  # what the code pinned back to one value, after the guards (the recompile's cause)
        parts.insert(after_guards, specialized_text(c.specialized))
    # Lines of their own under it: where each guarded name is set, what happened after a failure, its call path.
    below = [  # each older entry's guard on the same name: its sites once (once a frame, with `inputs`)
        text
        for text in dict.fromkeys(
            assigned_text(r.guarded, r.assigned_at, r.assigned_total)
            for r in c.recompile
            if r.guarded and r.assigned_at
        )
        if inputs is None or inputs.new_sites(c, text)
    ]
    if sequel is not None:
        below.append(sequel)
    where_said = inputs.started_at(c) if inputs is not None else None
    if (started := started_text(c.started_with, c.started_outer, where_said=where_said)) is not None:
        below.append(started)
    if c.called_from:
        below.append(called_from_text(c.called_from))
        if shown is not None:  # the code around it, once per text (the MCP text adds its own)
            below += context_once(c.call_context, c.called_from, shown, "  ", scripts_below=scripts_below)
    before = inputs.changed(c) if inputs is not None else ([] if c.guards_on_inputs else None)
    if before is not None:  # last: the lines above keep their place; a line the frame said last time is not repeated
        said = inputs.said_before(c, before) if inputs is not None else guard_lines(before, 0, c.guards_evidence_id)
        lines = guard_lines(
            c.guards_on_inputs, c.guards_on_inputs_omitted, c.guards_evidence_id, c.guards_on_values_omitted
        )
        kept = [line for line in lines if line not in said]
        ev = f" (ev {c.guards_evidence_id})"
        if kept and c.guards_evidence_id and not any(line.endswith(ev) for line in kept):
            kept[-1] += ev  # the line that said the guard tree's evidence is the one not said again
        below += kept
    if inputs.new_sizes(c) if inputs is not None else bool(c.sizes_accepted):
        below.append(sizes_text(c))
    if inputs.new_ops(c) if inputs is not None else bool(c.graph_op_kinds):
        below.append(ops_text(c))
    elif inputs is not None and (parts or below) and (as_in := inputs.ops_as(c)) is not None:
        below.append(ops_text(c, as_in))  # said short: its graph is one call away
    if inputs.new_aten_ops(c) if inputs is not None else bool(c.aot_op_kinds):
        below.append(aten_ops_text(c))
    if inputs.new_graph_inputs(c) if inputs is not None else telling_inputs(c):
        below.append(graph_inputs_text(c))
    if inputs.new_graph_outputs(c) if inputs is not None else len(c.graph_outputs) > 1:
        below.append("graph outputs: " + "; ".join(c.graph_outputs))
    if inputs.new_constants(c) if inputs is not None else bool(c.graph_constants):
        below.append("graph constants: " + "; ".join(c.graph_constants))
    if c.graph_literals_changed:
        below.append(literals_text(c))
    if c.restarted_graph:
        below.append(c.restarted_graph)
    if inputs.new_side_effects(c) if inputs is not None else bool(c.side_effects):
        below.append(side_effects_text(c.side_effects))
    if inputs.new_inductor_code(c) if inputs is not None else bool(c.inductor_code):
        below.append(inductor_code_text(c.inductor_code, list(c.aot_ops)))
    if not parts and not below:
        return None
    frame = "" if c.frame == function.rsplit(".", 1)[-1] else f" {c.frame}"
    rank = "" if c.rank is None else f"rank {c.rank} "
    line = f"  {rank}{c.compile_id}{frame} {c.outcome}" + (": " + "; ".join(parts) if parts else "")
    return "\n    ".join([line, *below])


def quiet_compilation(c: CompilationLine, function: str) -> str:
    """`3/0 torch_dynamo_resume_in_encode_at_36 completed`: a compilation `compilation_text` has no line for."""
    frame = "" if c.frame == function.rsplit(".", 1)[-1] else f" {c.frame}"
    rank = "" if c.rank is None else f"rank {c.rank} "
    return f"{rank}{c.compile_id}{frame} {c.outcome}"


def report_counts(fn: FunctionReport) -> str:
    """Its headline counts that are not 0, each saying how it splits over ranks in a capture of several."""
    return ", ".join(
        f"{COUNT_LABELS.get(k, k)} {summed(fn.counts[k], fn.ranks_summed, fn.per_rank.get(k))}"
        for k, _ in HEADLINE_COUNTS
        if fn.counts.get(k)
    )


def report_label(fn: FunctionReport) -> str:
    """`Net.forward (model.py:12)`, `LlamaForCausalLM.forward (compiled at llama_upgrade.py:57)`."""
    if fn.compiled:
        return side_label(fn.name, fn.file, fn.line, "compiled")
    return f"{fn.name} ({(fn.file or '?').rsplit('/', 1)[-1]}:{fn.line or '?'})"


def run_report_text(
    report: RunReport,
    *,
    brief: bool = False,
    scripts_below: bool = False,
    read_function: Callable[[str], str] = lambda name: f"--function {name}",
) -> str:
    """The report as plain lines (the CLI's text; the MCP server renders its pages the same way). `brief` (one of
    several runs read together): a function's suggestions by kind, and the run's own counts left to its functions'
    lines."""
    lines = [f"capture {short_id(report.capture)} ({report.label or '-'}) torch {report.torch or '?'}"]
    if (loud := compiled_line(report.compiled)) is not None:
        lines.insert(0, loud)
    unfinished = "+?" if report.counts.get("unknown_outcomes") else ""
    phases = phase_times_text(report.phase_times_s)
    run = f"run: {report.run.summary}; compile time {report.compile_time_s:.2f} s{unfinished}" + (
        f" ({phases})" if phases else ""
    )
    if brief and report.functions:  # one line: each function's line says its counts
        lines[-1] += f"; {run}"
    else:
        lines.append(run)
        lines.append("counts: " + ", ".join(f"{COUNT_LABELS.get(k, k)} {v}" for k, v in report.counts.items()))
    if report.sources_note is not None:
        lines.append(report.sources_note)
    shown: dict[tuple[str, int], int] = {}  # the call contexts said: each once
    text_said = TextSaid()  # breaks, what torch did after a failure, quoted lines: said once a text
    for fn in report.functions:
        inputs = InputsSaid(text_said)
        frames = f"; frames: {', '.join(fn.frames)}" if fn.frames else ""
        lines.append(f"{report_label(fn)}: {report_counts(fn) or 'compiled'}{frames}")
        if fn.called_from:
            lines.append(f"  {called_from_text(fn.called_from)}")
            lines += context_once(fn.call_context, fn.called_from, shown, "    ", scripts_below=scripts_below)
        if brief:
            lines += _suggested(fn, read_function)
        else:
            lines += [f"  {suggestion_text(s)}" for s in fn.suggestions]
        quiet = []  # compilations with nothing beyond their outcome: listed whole, on one line, never left out
        suggested: set[str] = set()  # a compilation's suggestion said once a function (each failure repeats it)
        for c in fn.compilations:
            if (t := compilation_text(c, fn.name, shown, inputs, scripts_below=scripts_below)) is not None:
                lines.append(t)
                if not brief:
                    said = [suggestion_text(s) for s in c.suggestions]
                    lines += [f"    {text}" for text in said if text not in suggested]
                    suggested.update(said)
            else:
                quiet.append(quiet_compilation(c, fn.name))
        if quiet:
            lines.append("  other compilations, nothing to report: " + ", ".join(quiet))
    lines += [suggestion_brief(s) if brief else suggestion_text(s) for s in report.suggestions]
    return "\n".join(lines)


def _suggested(fn: FunctionReport, read_function: Callable[[str], str]) -> list[str]:
    """The kinds of a function's suggestions, on one line, and where to read them (a graph break's hint is on the
    break's own line)."""
    kinds = [
        s.kind
        for s in [*fn.suggestions, *(s for c in fn.compilations for s in c.suggestions)]
        if s.kind != SuggestionKind.GRAPH_BREAK
    ]
    if not kinds:
        return []
    return [f"  suggestions: {', '.join(dict.fromkeys(kinds))} (the change and its cost: {read_function(fn.name)})"]


def evidence_summaries(capture: Capture) -> dict[str, str]:
    """Evidence id -> what that record says, in one line, for the records a compilation interprets."""
    out: dict[str, str] = {}

    def note(evidence_id: str | None, text: str) -> None:
        if evidence_id and evidence_id not in out:
            out[evidence_id] = text[:200]

    for rank in capture.ranks:
        for c in rank.compilations:
            name = c.code.co_name or "?"
            for r in c.recompile.reasons if c.recompile is not None else []:
                note(r.evidence_id, f"{c.compile_id} recompile [{r.category}]: {r.text.split('  #', 1)[0].strip()}")
            for gb in c.graph_breaks:
                what = break_title(gb.gb_type or gb.key, gb.operator, gb.gb_id)
                note(gb.evidence_id, f"{c.compile_id} graph break at {shown_site(gb.site)}: {what}")
            if c.failure is not None:
                for ev in c.failure.evidence_ids:
                    note(ev, f"{c.compile_id} {c.failure.fail_type} failure: {gist(c.failure.reason or '')}")
            for limit in c.limit_events:
                note(limit.evidence_id, f"{c.compile_id} {limit.kind}")
            for event in c.cache_events:
                note(event.evidence_id, f"{c.compile_id} {event.cache} cache {event.decision}")
            if c.graph is not None and c.graph.evidence_ids:
                ops = f": {c.graph.op_count} ops" if c.graph.op_count is not None else " (handed to the backend)"
                note(c.graph.evidence_ids[0], f"{c.compile_id} graph of {name}{ops}")
            if c.guards is not None and len(c.guards.evidence_ids) > 1:
                note(c.guards.evidence_ids[1], f"{c.compile_id} guards of {name}: {c.guards.count}")
            if c.phase_evidence_id is not None:
                seconds = c.phase_times.get(_COMPILE_TIME)
                took = f", {seconds:g} s" if seconds is not None else ""
                note(c.phase_evidence_id, f"{c.compile_id} metrics of {name}: {c.outcome}{took}")
            for code in c.inductor_code:
                note(code.evidence_id, f"{c.compile_id} Inductor code of {name}: {inductor_code_summary(code)}")
            if c.evidence_ids:
                note(c.evidence_ids[0], f"{c.compile_id} first record of {name} ({c.outcome})")
    return out


_AOT_GRAPH_KINDS = {
    "aot_forward_graph": "forward",
    "aot_backward_graph": "backward",
    "aot_inference_graph": "inference",
}


def aot_graph_summary(comp: Compilation, kind: str) -> str | None:
    """`0/2 AOT forward graph of forward: 9 ops: div 2, clamp_min 1, ...` for an AOTAutograd graph record of `comp`
    (the evidence index's summary; view and layout ops left out of the list, as `aten ops:`); None for another
    kind or a graph the compilation has no count of."""
    which = _AOT_GRAPH_KINDS.get(kind)
    if which is None or comp.aot is None:
        return None
    count = aot_ops(comp).get(which)
    if count is None:
        return None
    kinds = aot_op_kinds(comp).get(which, [])
    shown = kinds[:AOT_KINDS_SAID]
    more = f", {len(kinds) - len(shown)} more" if len(kinds) > len(shown) else ""
    listed = f": {', '.join(shown)}{more}" if shown else ""
    return f"{comp.compile_id} AOT {which} graph of {comp.code.co_name or '?'}: {count} ops{listed}"
