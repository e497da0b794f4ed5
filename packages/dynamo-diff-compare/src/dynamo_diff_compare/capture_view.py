"""Render one capture for people: rich text and markdown (the JSON form is the Capture model itself)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dynamo_diff_match import SnapshotSet
from dynamo_diff_schema.capture import Capture, Rank
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import Compilation, StackFrame
from dynamo_diff_schema.counts import COMPILE_PHASES, COUNT_KEYS, COUNT_LABELS, Counts, sum_counts
from dynamo_diff_schema.evidence import Notice, NoticeCode
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.lists import head, joined
from dynamo_diff_schema.suggestions import Suggestion
from rich.console import Group, RenderableType
from rich.text import Text

from dynamo_diff_compare.break_words import break_summary, reached_text, restarts_text
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
from dynamo_diff_compare.changes import clipped, gist, guard_failure_text, headline
from dynamo_diff_compare.compile_ids import compile_order
from dynamo_diff_compare.compile_time import compile_time_text
from dynamo_diff_compare.compiled import compiled_line
from dynamo_diff_compare.generated import GeneratedFrame, generated_by_compile_id, made_up_name
from dynamo_diff_compare.hint_words import PLAIN_HINTS, HintWords, phrase, with_hint
from dynamo_diff_compare.rank_sums import rank_split, summed
from dynamo_diff_compare.ranks import rank_ranges
from dynamo_diff_compare.render import side_label
from dynamo_diff_compare.run_report_view import folded_functions
from dynamo_diff_compare.started import started_frame, started_outer, started_text
from dynamo_diff_compare.suggestions import (
    TorchSetup,
    compilation_suggestions,
    function_suggestions,
    run_suggestions,
    suggestion_text,
)
from dynamo_diff_compare.terminal_lines import Aligned, Line, Lines
from dynamo_diff_compare.user_lines import (
    also_differs_text,
    break_code,
    dynamic_text,
    guard_line,
    made_for_text,
    specialized_text,
)
from dynamo_diff_compare.went_on import Sequels, then_text


def rank_name(rank: int | None) -> str:
    return "rank ?" if rank is None else f"rank {rank}"


def column_name(capture: Capture, rank: int | None) -> str:
    """A rank's column or section: 'rank 3'; a run of one rank that the trace does not number is 'this run' (not
    'rank ?': there is nothing to tell apart)."""
    return "this run" if rank is None and len(capture.ranks) == 1 else rank_name(rank)


def _count(counts: Counts, key: str) -> str:
    value = str(getattr(counts, key))
    return value + "+?" if key in counts.incomplete else value


def run_lines(capture: Capture) -> list[str]:
    """How the run ended: the first thing said about a capture, with the facts behind it when it did not finish."""
    run = capture.capture.run
    if run.finished is False:
        lines = [f"run: DID NOT FINISH: {run.summary} (counts may be low)"]
        reasons, rest = head([r for r in run.reasons if not r.startswith("command:")], 6)
        lines += [f"  {reason}" for reason in reasons] + ([f"  (+{rest} more)"] if rest else [])
        return lines
    return [f"run: {run.summary}"]


def setup_lines(capture: Capture) -> list[str]:
    """What the capture observed of the run's set-up (the keys comparisons check)."""
    info = capture.capture
    lines = []
    manifest = info.manifest
    if manifest is not None and manifest.workload.command:
        where = f" (in {manifest.workload.cwd})" if manifest.workload.cwd else ""
        lines.append(f"command: {' '.join(manifest.workload.command)}{where}")
    observed = manifest.observed if manifest is not None else None
    if observed is not None and observed.compile_calls:
        calls = []
        shown_calls, more_calls = head(observed.compile_calls, 4)
        for call in shown_calls:
            flags = [f"backend={call.backend}"]
            flags += [f"mode={call.mode}"] if call.mode else []
            flags += [f"dynamic={call.dynamic}"] if call.dynamic is not None else []
            flags += ["fullgraph"] if call.fullgraph else []
            flags += [f"options={call.options}"] if call.options else []
            calls.append(f"{call.target or '?'} ({', '.join(flags)})")
        lines.append("torch.compile: " + "; ".join(calls) + (f" (+{more_calls} more)" if more_calls else ""))
    if observed is not None:
        seeds = joined([f"{s.function}({s.value})" for s in observed.seeds], 4) or "none set"
        lines.append(f"seeds: {seeds}")
    devices = sorted({d for c in info.observed_config for d in c.devices})
    accelerators = sorted({d for p in observed.processes for d in p.devices}) if observed is not None else []
    if devices or accelerators:
        lines.append("devices: " + ", ".join(devices + accelerators))
    hits, misses = capture.counts.cache_hits, capture.counts.cache_misses
    if hits or misses:
        lines.append(f"compile caches: {hits} hit(s), {misses} miss(es)")
    return lines


def header_lines(capture: Capture) -> list[str]:
    """What is said before any count: whether anything compiled (when nothing did), how the run ended, what it is."""
    info = capture.capture
    v = info.validity
    loud = compiled_line(info.compiled)
    # torch writes its trace file when it starts compiling a frame: a run that compiled none leaves no file.
    ranks = (
        f"{len(capture.ranks)} rank(s)"
        if capture.ranks
        else "no trace file (torch writes none for a run that compiles no frame)"
    )
    lines = [
        *([loud] if loud is not None else []),
        *run_lines(capture),
        f"capture {short_id(info.id)}" + (f"  ({info.label})" if info.label else ""),
        f"input: {info.input_kind}; torch {info.producer.torch or 'unknown'}; {ranks}; "
        f"imported {info.imported_at or '?'}",
        f"validity: trace {v.artifact_structure}, workload {v.workload_completion}, provenance {v.provenance}",
        *([note] if (note := v.sources_note()) is not None else []),
        *setup_lines(capture),
    ]
    return lines


def _short(text: str, limit: int = 110) -> str:
    """torch's text by its headline (changes.headline), within `limit` characters."""
    return clipped(headline(text), limit)


def guard_text(text: str) -> str:
    """A failing guard as torch wrote it, whole, without the source comment it appends ('  # if flag:  # model.py:23')
    and what says nothing of the run (object addresses, a trailing link: changes.guard_failure_text)."""
    return guard_failure_text(text, limit=None)


def backward_not_compiled(compiled_autograd: Sequence[str] = ()) -> str:
    """A backward graph AOTAutograd traced (aot_backward_graph) with no bwd_compilation_metrics: it never compiled
    on its own in this run (torch compiles it lazily, at the first .backward() that reaches it)."""
    said = "backward graph traced (aot_backward_graph); not compiled in this run"
    if compiled_autograd:
        shown, rest = head(list(compiled_autograd), 3)
        ids = ", ".join(shown) + (f", +{rest} more" if rest else "")
        return f"{said} by AOTAutograd (no bwd_compilation_metrics; the backward went through Compiled Autograd: {ids})"
    return f"{said} (no bwd_compilation_metrics: no .backward() reached it)"


def compilation_summary(comp: Compilation, sequels: Sequels | None = None) -> str:
    """One line per fact the trace shows about a compilation, in the order an engineer reads them."""
    return "\n".join(compilation_facts(comp, sequels=sequels))


# Failing guards listed per compilation (a compilation checked against many cached entries has one each).
_GUARDS_SHOWN = 8


def compilation_facts(
    comp: Compilation,
    *,
    whole_guard: bool = False,
    sequels: Sequels | None = None,
    sources: SnapshotSet | None = None,
    compiled_autograd: Sequence[str] = (),
) -> list[str]:
    """The facts of `compilation_summary`, a list; `whole_guard`: the failing guards' texts uncut; with
    `sequels`, a failure says what torch did next and whether the program went on, on what evidence;
    `compiled_autograd`: the compile ids of the rank's Compiled Autograd graphs (what took a backward that
    AOTAutograd traced but never compiled)."""
    bits = []
    if comp.recompile is not None:
        reasons = comp.recompile.reasons
        if reasons:
            # Every failing guard, a fact each: they are short, and the one a summary would leave out (another
            # cached entry's, another kind) is often the answer.
            shown, rest = head(reasons, _GUARDS_SHOWN)
            for reason in shown:
                text = guard_text(reason.text) if whole_guard else _short(reason.text)
                at = guard_line(reason.text)
                where = f" {at.text()}" if at is not None else ""
                bits.append(f"recompile [{reason.category}]: {text}{where}")
                if reason.made_for:  # a line of its own: the guard's line is kept whole (never wrapped)
                    bits.append("  " + made_for_text(reason.made_for).strip()[1:-1])
                if also := also_differs_text(reason.also_differs_from, reason.also_differs):
                    bits.append("  " + also)
                guarded = guarded_name(reason.text) if sources is not None else None
                if guarded is not None and (sites := assignment_sites(sources, guarded, comp.code.co_filename)):
                    said = assigned_text(guarded.label, sites[:SITES_SHOWN], len(sites))
                    if said not in bits:  # each older entry's guard on the same name: its sites once
                        bits.append(said)
            if rest:
                ids = ", ".join(dict.fromkeys(r.evidence_id for r in reasons[len(shown) :] if r.evidence_id))
                bits.append(f"(+{rest} more failing guards of this compilation" + (f": ev {ids})" if ids else ")"))
        else:
            bits.append("recompile (reason not in the trace)")
    elif comp.additional_frame_compilation:
        bits.append("additional frame compilation (no recompile evidence)")
    for gb in comp.graph_breaks:
        code = break_code(sources, gb)
        what = break_summary(gb.gb_type or _short(gb.reason, 80), gb.operator, gb.hints, gb.gb_id, code)
        bits.append(f"graph break at {gb.site or '?'}: {what}")
        if whole_guard and gb.url:
            bits.append(f"torch's page for {gb.gb_id or 'this break'}: {gb.url}")
    if comp.limit_events:
        bits.append("recompile limit hit")
    if comp.aot is not None:
        aot = comp.aot
        graphs = [
            f"{label} {count} ops"
            for label, count in (
                ("forward", aot.forward_op_count),
                ("backward", aot.backward_op_count),
                ("inference", aot.inference_op_count),
            )
            if count is not None
        ]
        compiled = ""
        if aot.backward_compiled:
            took = f" in {aot.backward_compile_time_s:g} s" if aot.backward_compile_time_s is not None else ""
            compiled = f"; backward compiled{took}"
        elif aot.backward_op_count is not None:
            compiled = "; " + backward_not_compiled(compiled_autograd)
        bits.append(f"AOTAutograd: {', '.join(graphs) or 'no graph printed'}{compiled}")
    if comp.graph is not None and comp.graph.symbolic_sizes:
        bits.append(dynamic_text(comp.graph.symbolic_sizes))
    if comp.specializations:
        bits.append(specialized_text(comp.specializations, sources))
    if comp.graph is not None and comp.graph.empty:
        bits.append("empty graph: the backend was handed a graph with no ops")
    if comp.failure is not None:
        bits.append(f"failure {comp.failure.fail_type or ''}: {gist(comp.failure.reason or '', 200)}".strip())
        sequel = sequels.of(comp) if sequels is not None else None
        if sequel is not None:
            bits.append(sequel.text(then_text(comp)))
    if comp.cache_events:
        bits.append("cache: " + ", ".join(f"{e.cache} {e.decision}" for e in comp.cache_events))
    if comp.restart_count:
        bits.append(restarts_text(comp))
    if comp.reached is not None:
        bits.append(reached_text(comp.reached))
    if (started := started_text(started_frame(comp.started_with), started_outer(comp.started_with))) is not None:
        bits.append(started)
    return bits


def function_label(comp: Compilation, generated: GeneratedFrame | None = None) -> str:
    code = comp.code
    if generated is not None:
        # Generated code by what it is; the file name torch made up for it is a detail of this run.
        line = f":{code.co_firstlineno}" if code.co_firstlineno is not None else ""
        return f"{generated.label} ({code.co_name or '?'} in {made_up_name(code.co_filename) or '?'}{line})"
    name = code.qualified_name or code.co_name or "?"
    where = code.co_filename.rsplit("/", 1)[-1] if code.co_filename else "?"
    line = f":{code.co_firstlineno}" if code.co_firstlineno is not None else ""
    site = code.caller
    called = "" if site is None else f", called from {site.name} at line {site.line}"
    return f"{name} ({where}{line}){called}"


_RESUME = re.compile(r"^torch_dynamo_resume_in_(.+)_at_(\d+)$")


@dataclass(frozen=True)
class FunctionLine:
    """One row of a capture's function table: its label, the frames counted in it and its counts (summed over
    ranks, with how they split over them: rank_sums.py)."""

    label: str
    frames: list[str]
    counts: Counts
    ranks_summed: int | None
    per_rank: dict[str, dict[str, int]]
    suggestions: list[Suggestion] = field(default_factory=list)

    def count(self, key: str) -> str:
        return summed(getattr(self.counts, key), self.ranks_summed, self.per_rank.get(key))


def function_rows(capture: Capture, sources: SnapshotSet | None = None) -> list[FunctionLine]:
    """One row per source function over every rank: its resume functions and the library frames Dynamo compiled
    in its place fold into it (a function's story is one row), as in a comparison and `analyze --by-function`;
    a row of library frames called from module-level code, or from the function that compiled the model, is named
    by what was compiled."""
    ranks = [rank.rank for rank in capture.ranks]
    setup = TorchSetup.of(capture)
    out = []
    for match, refs, observed in folded_functions(capture, sources):
        frames: list[str] = []
        for ref in refs:
            code_match = _RESUME.match(ref.name)
            frame = f"resume at {code_match.group(2)}" if code_match else ref.name
            site = ref.caller
            if site is not None:
                frame = f"{ref.name} ({library_path(ref.file) or ref.file}:{ref.first_line or '?'}"
                frame += f", called at line {site.line})" if site.line else ")"
            if frame not in frames:
                frames.append(frame)
        own = next((r for r in refs if r.caller is None and r.resume_parent is None), None)
        file, line = match.baseline_location or (refs[0].file, None)
        name = match.baseline_name or refs[0].name
        generated = next((r.generated for r in refs if r.generated is not None), None)
        if generated is not None:  # generated code: named for what it is (a compiled-autograd graph, an FX graph)
            label = generated.label
        elif any(r.caller is not None and r.caller.target for r in refs):
            label = side_label(name, file, line, "compiled")
        else:
            label = side_label(name, file, own.first_line if own is not None and own.first_line else None, None)
        groups = [(rank, g) for r in refs for rank, g in observed[r].groups]
        ranks_summed, per_rank = rank_split(((rank, g.counts) for rank, g in groups), ranks)
        comps = sorted(
            (c for r in refs for _, c in observed[r].compilations), key=lambda c: compile_order(c.compile_id)
        )
        counts = sum_counts(g.counts for _, g in groups)
        suggested = function_suggestions(comps, setup, name, sources)
        out.append(FunctionLine(label, frames, counts, ranks_summed, per_rank, suggested))
    return out


# The counts of the function table: compiles, recompiles, breaks, failed.
_TABLE_COUNTS = (
    "observed_compilation_identities",
    "confirmed_recompilation_identities",
    "graph_break_records",
    "failed",
)


_TABLE_LABELS = ("compiles", "recompiles", "breaks", "failed")

FUNCTIONS_TITLE = (
    "functions (resume functions counted in the function they resume, library frames in the user's function that "
    "called them, or in what was compiled)"
)


def shown_keys(columns: Sequence[Counts]) -> list[str]:
    """The counts worth a line: compilations (0 is an answer: a run that compiled nothing), then the counts non-zero
    (or possibly undercounted) in some column; the rest are said in one line."""
    return [
        k
        for k in COUNT_KEYS
        if k == "observed_compilation_identities" or any(getattr(c, k) or k in c.incomplete for c in columns)
    ]


def zero_line(columns: Sequence[Counts]) -> str | None:
    hidden = len(COUNT_KEYS) - len(shown_keys(columns))
    return f"{hidden} other counts are 0" if hidden else None


def time_lines(columns: Sequence[Counts]) -> list[tuple[str, list[str]]]:
    """Compile time and its phases that took time, one value per column: (label, values)."""
    if not any(c.compile_time_s for c in columns):
        return []
    lines = [("compile time", [compile_time_text(c) for c in columns])]
    for key, label, _ in COMPILE_PHASES:
        if any(round(c.phase_times_s.get(key, 0.0), 2) for c in columns):  # not 0.00 s everywhere
            lines.append((f"  {label}", [f"{c.phase_times_s.get(key, 0.0):.2f} s" for c in columns]))
    return lines


def spread_rows(capture: Capture) -> list[tuple[str, list[str]]]:
    """For a capture of many ranks, one row per count worth a line: (label, [total, lowest, highest, ranks at the
    highest]) — a column per rank stops being readable after a handful."""
    ranks = capture.ranks
    columns = [r.counts for r in ranks]
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, values: list[float], total: str, shown: Callable[[float], str]) -> None:
        high = max(values)
        at = rank_ranges(r.rank for r, v in zip(ranks, values, strict=True) if v == high)
        rows.append((label, [total, shown(min(values)), shown(high), _short(at, 40)]))

    for key in shown_keys([*columns, capture.counts]):
        incomplete = key in capture.counts.incomplete
        row(COUNT_LABELS[key], [getattr(c, key) for c in columns], _count(capture.counts, key), str)
        if incomplete:
            rows[-1][1][1:3] = [v + "+?" for v in rows[-1][1][1:3]]
    if any(c.compile_time_s for c in columns):
        row("compile time", [c.compile_time_s for c in columns], compile_time_text(capture.counts), _seconds)
        for key, label, _ in COMPILE_PHASES:
            values = [c.phase_times_s.get(key, 0.0) for c in columns]
            if any(round(v, 2) for v in values):
                row(f"  {label}", values, _seconds(capture.counts.phase_times_s.get(key, 0.0)), _seconds)
    return rows


def _seconds(value: float) -> str:
    return f"{value:.2f} s"


SPREAD_COLUMNS = ("total", "lowest a rank", "highest a rank", "ranks at the highest")
MANY_RANKS = 8  # above this, counts are shown as a spread over ranks and compilations for the first ranks only


def rank_note(capture: Capture, hints: HintWords = PLAIN_HINTS) -> str:
    ranks = phrase(Hint(action=HintAction.COMPARE_RANKS, args={"capture": short_id(capture.capture.id)}), hints)
    return f"{len(capture.ranks)} ranks: {ranks}; {phrase(Hint(action=HintAction.WHOLE_DOCUMENT), hints)}"


def _kinds_line(notices: Sequence[Notice]) -> str:
    """The uninterpreted-kinds notice in one line: how many records of how many kinds (the list is long)."""
    kinds: dict[str, int] = {}
    for n in notices:
        for kind, count in (n.details.get("kinds") or {}).items():
            kinds[kind] = kinds.get(kind, 0) + int(count)
    return f"{sum(kinds.values())} records of {len(kinds)} kinds not interpreted (--verbose lists them)"


def notice_lines(
    capture: Capture, limit: int = 20, hints: HintWords = PLAIN_HINTS, *, verbose: bool = True
) -> list[str]:
    """Each distinct notice once, with the ranks that gave it ('[info] code (ranks 0-4095): message (hint)');
    without `verbose`, the record kinds not interpreted in one line (how many, not which)."""
    ranks_of: dict[tuple[str, str, str], list[int | None]] = {}
    shown = short_id(capture.capture.id)
    uninterpreted = [n for n in capture.notices if n.code == NoticeCode.UNINTERPRETED_RECORD_KINDS]
    for n in capture.notices:
        if not verbose and n in uninterpreted:
            message = _kinds_line(uninterpreted)
        else:
            message = with_hint(n.message, n.hint, hints, capture=shown)
        ranks_of.setdefault((str(n.severity), str(n.code), message), []).append(n.rank)
    lines = []
    for (severity, code, message), ranks in ranks_of.items():
        named = [r for r in ranks if r is not None]
        where = f" (rank {named[0]})" if len(named) == 1 else f" (ranks {_short(rank_ranges(named), 60)})"
        one_rank = len(capture.ranks) == 1 or (not verbose and code == NoticeCode.UNINTERPRETED_RECORD_KINDS)
        lines.append(f"[{severity}] {code}{where if named and not one_rank else ''}: {message}")
    if len(lines) > limit:
        lines[limit:] = [
            f"… {len(lines) - limit} more distinct notice(s): {phrase(Hint(action=HintAction.WHOLE_DOCUMENT), hints)}"
        ]
    return lines


def _counts_block(capture: Capture, title: str, hints: HintWords) -> Aligned:
    """The counts: a column per rank (and the total) up to MANY_RANKS ranks, else their spread over the ranks."""
    if len(capture.ranks) > MANY_RANKS:
        rows = [[label, *values] for label, values in spread_rows(capture)]
        return Aligned(title + " over ranks", ["count", *SPREAD_COLUMNS], rows, [rank_note(capture, hints)])
    columns = [(column_name(capture, r.rank), r.counts) for r in capture.ranks]
    if len(columns) != 1:  # several ranks, or none (a run that wrote no trace: every count is 0, not unknown)
        columns.append(("total", capture.counts))
    counts = [c for _, c in columns]
    rows = [[COUNT_LABELS[key], *(_count(c, key) for c in counts)] for key in shown_keys(counts)]
    rows += [[label, *values] for label, values in time_lines(counts)]
    zeros = zero_line(counts)
    return Aligned(title, ["count", *(name for name, _ in columns)], rows, [zeros] if zeros else [])


def function_lines(capture: Capture, sources: SnapshotSet | None = None) -> list[Line]:
    """One line per source function: its name, its counts that are not 0, its compile time, and the frames counted
    in it when they are more than its own."""
    out = [Line(FUNCTIONS_TITLE, style="bold")]
    for row in function_rows(capture, sources):
        parts = [f"{label} {row.count(key)}" for key, label in zip(_TABLE_COUNTS, _TABLE_LABELS, strict=True)]
        parts = [p for p, key in zip(parts, _TABLE_COUNTS, strict=True) if getattr(row.counts, key)]
        if row.counts.compile_time_s:
            parts.append(f"compile time {compile_time_text(row.counts)}")
        own = row.label.split(" (", 1)[0].rsplit(".", 1)[-1]
        frames = f"; frames: {', '.join(row.frames)}" if row.frames and row.frames != [own] else ""
        out.append(Line(f"{row.label}: {', '.join(parts) or 'compiled'}{frames}"))
        out += [Line(suggestion_text(s), indent=2) for s in row.suggestions]
    return out


def compilation_lines(
    capture: Capture, rank: Rank, sequels: Sequels | None = None, sources: SnapshotSet | None = None
) -> list[Line]:
    """A rank's compilations: one line each (id, function, outcome), what the trace shows of it under it, the
    failing guard whole on its own line (and where the name it reads is set), the call path when it is not the
    one of the code's previous compilation."""
    out = [Line(_compilations_title(capture, rank), style="bold")]
    generated = generated_by_compile_id(rank)
    sequels = sequels or Sequels(capture)
    compiled_autograd = [c.compile_id for c in rank.compilations if c.identity.compiled_autograd_id is not None]
    # The call path of each code object's last compilation: a compilation says its own when it differs.
    paths: dict[tuple[str | None, str | None, int | None], list[StackFrame]] = {}
    contexts: dict[tuple[str, int], int] = {}  # the call contexts shown: (file, first line) -> last line
    for comp in rank.compilations:
        out.append(Line(f"{comp.compile_id} {function_label(comp, generated.get(comp.compile_id))}: {comp.outcome}"))
        for fact in compilation_facts(
            comp, whole_guard=True, sequels=sequels, sources=sources, compiled_autograd=compiled_autograd
        ):
            out.append(Line(fact, indent=4, keep=fact.startswith("recompile [")))
        code = (comp.code.co_filename, comp.code.co_name, comp.code.co_firstlineno)
        before = paths.get(code)
        if comp.code.callers and (before is None or not same_call(comp.code.callers, before)):
            path = call_path(comp.code.callers, sources)
            out.append(Line(called_from_text(path), indent=4))
            context = call_context(path, sources)
            if context is not None and (said := context_text(context, path, contexts)):
                title, *numbered = said  # once: a later call path through the same loop says nothing new
                out.append(Line(title, indent=6))
                out += [Line(t, indent=6, keep=True) for t in numbered]
        paths[code] = comp.code.callers
        out += [Line(suggestion_text(s), indent=6) for s in compilation_suggestions(comp)]
    return out


def capture_text(
    capture: Capture,
    *,
    show_compilations: bool = True,
    sources: SnapshotSet | None = None,
    hints: HintWords = PLAIN_HINTS,
    verbose: bool = False,
) -> RenderableType:
    """One capture for a terminal, wrapped to its width; `hints` words the next steps its notices point to (the
    caller's front end); `verbose` lists the record kinds not interpreted (else one line says how many)."""
    parts: list[RenderableType] = [Lines(header_lines(capture))]
    if run_level := run_suggestions(capture):
        parts.append(Lines(Line(suggestion_text(s)) for s in run_level))
    partial = bool(capture.counts.incomplete)
    title = "counts" + (" (+? = may be low: evidence missing)" if partial else "")
    parts += [Text(""), _counts_block(capture, title, hints)]
    if any(r.functions for r in capture.ranks):
        parts += [Text(""), Lines(function_lines(capture, sources))]
    if show_compilations:
        with_compilations = [rank for rank in capture.ranks if rank.compilations]
        sequels = Sequels(capture)
        for rank in with_compilations[:MANY_RANKS]:
            parts += [Text(""), Lines(compilation_lines(capture, rank, sequels, sources))]
        if len(with_compilations) > MANY_RANKS:
            more = len(with_compilations) - MANY_RANKS
            parts.append(Lines([f"compilations of {more} more rank(s) not shown: {rank_note(capture, hints)}"]))
    if capture.notices:
        lines = notice_lines(capture, hints=hints, verbose=verbose)
        parts += [Text(""), Lines(["notices:", *(Line(line, indent=2) for line in lines)])]
    return Group(*parts)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def _compilations_title(capture: Capture, rank: Rank) -> str:
    name = column_name(capture, rank.rank)
    return "compilations" if name == "this run" else f"{name}: compilations"


def capture_markdown(capture: Capture, sources: SnapshotSet | None = None, *, hints: HintWords = PLAIN_HINTS) -> str:
    """One capture as Markdown; `hints` words the next steps its notices point to (the caller's front end)."""
    info = capture.capture
    out = [f"# Capture {short_id(info.id)}" + (f" ({info.label})" if info.label else ""), ""]
    out += [f"- {_md_cell(line.strip())}" for line in header_lines(capture)]
    names = [column_name(capture, r.rank) for r in capture.ranks]
    cols = [*names, "total"] if len(names) != 1 else names
    counts = [r.counts for r in capture.ranks] + ([capture.counts] if len(names) != 1 else [])
    if len(names) > MANY_RANKS:
        out += ["", "## Counts over ranks", "", "| count | " + " | ".join(SPREAD_COLUMNS) + " |"]
        out.append("|---|---:|---:|---:|---|")
        for label, values in spread_rows(capture):
            shown = f"&nbsp;&nbsp;{label.strip()}" if label.startswith(" ") else label
            out.append(f"| {shown} | " + " | ".join(_md_cell(v) for v in values) + " |")
        out += ["", rank_note(capture, hints)]
    else:
        out += ["", "## Counts", "", "| count | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
        for key in shown_keys(counts):
            out.append(f"| {COUNT_LABELS[key]} | " + " | ".join(_count(c, key) for c in counts) + " |")
        for label, values in time_lines(counts):
            shown = f"&nbsp;&nbsp;{label.strip()}" if label.startswith(" ") else label
            out.append(f"| {shown} | " + " | ".join(values) + " |")
    if (zeros := zero_line(counts)) is not None:
        out += ["", zeros]
    functions = function_rows(capture, sources)
    if functions:
        out += [
            "",
            "## Functions",
            "",
            "| function | frames | compiles | recompiles | breaks | failed | compile time |",
        ]
        out.append("|---|---|---:|---:|---:|---:|---:|")
        for row in functions:
            out.append(
                f"| {_md_cell(row.label)} | {_md_cell(', '.join(row.frames))} | "
                + " | ".join(_md_cell(row.count(key)) for key in _TABLE_COUNTS)
                + f" | {compile_time_text(row.counts)} |"
            )
    suggested = [(row.label, s) for row in functions for s in row.suggestions] + [
        (function_label(comp, None), s)
        for rank in capture.ranks[:MANY_RANKS]
        for comp in rank.compilations
        for s in compilation_suggestions(comp)
    ]
    run_level = [("the run", s) for s in run_suggestions(capture)]
    if run_level or suggested:
        out += ["", "## Suggestions", ""]
        seen: set[str] = set()
        for where, s in run_level + suggested:
            line = (
                f"- {_md_cell(where)}, {', '.join(s.compile_ids) or 'no compilation'}: {_md_cell(suggestion_text(s))}"
            )
            if line not in seen:
                seen.add(line)
                out.append(line)
    with_compilations = [rank for rank in capture.ranks if rank.compilations]
    sequels = Sequels(capture)
    for rank in with_compilations[:MANY_RANKS]:
        generated = generated_by_compile_id(rank)
        out += [
            "",
            f"## {_compilations_title(capture, rank)}",
            "",
            "| id | function | outcome | what the trace shows |",
            "|---|---|---|---|",
        ]
        for comp in rank.compilations:
            out.append(
                f"| {comp.compile_id} | {_md_cell(function_label(comp, generated.get(comp.compile_id)))} | "
                f"{comp.outcome} | "
                f"{_md_cell(compilation_summary(comp, sequels))} |"
            )
    if len(with_compilations) > MANY_RANKS:
        more = len(with_compilations) - MANY_RANKS
        out += ["", f"Compilations of {more} more rank(s) not shown: {rank_note(capture, hints)}"]
    if capture.notices:
        out += ["", "## Notices", ""]
        out += [f"- {_md_cell(line)}" for line in notice_lines(capture, hints=hints)]
    return "\n".join(out) + "\n"
