"""Compare two captures per source function, or the ranks of one capture.

Works on schema models and source snapshots handed in; never opens the store (the CLI and MCP layers fetch).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from dynamo_diff_match import (
    Correspondence,
    FunctionMatch,
    FunctionRef,
    SnapshotSet,
    SourceFunction,
    UserMap,
    correspond_functions,
)
from dynamo_diff_schema.capture import Capture, CompiledState
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.comparison import (
    ChangeKind,
    Comparison,
    FunctionPiece,
    FunctionRow,
    FunctionSide,
    GeneratedCode,
    MatchMethod,
    RowStatus,
    Side,
    Totals,
)
from dynamo_diff_schema.counts import COUNT_KEYS, Counts
from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.suggestions import Suggestion, SuggestionKind

from dynamo_diff_compare.changes import row_changes
from dynamo_diff_compare.comparability import check_comparability
from dynamo_diff_compare.compile_ids import compile_order
from dynamo_diff_compare.observed import Observed, observed_functions
from dynamo_diff_compare.ranks import rank_view
from dynamo_diff_compare.source_change import source_changes
from dynamo_diff_compare.suggestions import TorchSetup, compilation_suggestions, function_suggestions
from dynamo_diff_compare.trusted import trusted
from dynamo_diff_compare.verdict_text import no_snapshots_message
from dynamo_diff_compare.went_on import Sequels, then_text

# Part of every comparison id: bump when rows or changes are computed differently.
COMPARE_VERSION = "13"
EMPTY = SnapshotSet(files={}, paths={})


def side_of(capture: Capture) -> Side:
    info = capture.capture
    return Side(
        id=info.id,
        label=info.label,
        torch=info.producer.torch,
        imported_at=info.imported_at,
        run=info.run,
        compiled=info.compiled,
    )


def deltas(base: Counts | None, cand: Counts | None) -> dict[str, int]:
    if base is not None and cand is not None and base.__dict__ == cand.__dict__:
        return {}  # the same counts (most rows of a large comparison)
    b = base.values() if base is not None else dict.fromkeys(COUNT_KEYS, 0)
    c = cand.values() if cand is not None else dict.fromkeys(COUNT_KEYS, 0)
    return {key: c[key] - b[key] for key in COUNT_KEYS if c[key] != b[key]}


def _side(
    obs: Observed | None, name: str | None, sources: SnapshotSet, multi_rank: bool, *, from_source: bool = False
) -> FunctionSide | None:
    if obs is None:
        return None
    ref = obs.ref
    if ref.generated is not None:
        return _generated_side(obs, name, multi_rank)
    rel = sources.rel_path(ref.file) or (library_path(ref.file) if ref.caller is not None else None)
    ranks = obs.ranks
    ranks_summed, per_rank = obs.rank_split()
    # model_construct: every value comes from validated models; re-validating 20,000 rows costs a third of a
    # large comparison (tools/bench/compare_scaling.py). The comparison is validated when it is rendered as JSON.
    return trusted(
        FunctionSide,
        qualified_name=name or ref.name,
        name_from="source" if from_source else "trace",
        generated=None,
        file=rel or ref.file,
        line=ref.first_line or None,
        called_at=(ref.caller.line or None) if ref.caller is not None else None,
        rank=ranks[0] if len(ranks) == 1 else None,
        compile_ids=obs.compile_ids(multi_rank),
        counts=obs.counts,
        ranks_summed=ranks_summed,
        per_rank=per_rank,
    )


def _generated_side(obs: Observed, name: str | None, multi_rank: bool) -> FunctionSide:
    """A side of generated code: named for what it is, with the file names torch gave it (`generated`)."""
    ref, ranks = obs.ref, obs.ranks
    assert ref.generated is not None
    files = list(dict.fromkeys(group.code.co_filename for _, group in obs.groups if group.code.co_filename))
    return trusted(
        FunctionSide,
        qualified_name=name or ref.generated.label or ref.name,
        name_from="generated",
        generated=GeneratedCode(
            kind=ref.generated.kind, number=ref.generated.number, co_filenames=files, co_name=ref.name
        ),
        file=files[0] if files else ref.file,
        line=ref.first_line or None,
        called_at=None,
        rank=ranks[0] if len(ranks) == 1 else None,
        compile_ids=obs.compile_ids(multi_rank),
        counts=obs.counts,
    )


def _row(
    corr: Correspondence,
    base: dict[FunctionRef, Observed],
    cand: dict[FunctionRef, Observed],
    sources: tuple[SnapshotSet, SnapshotSet],
    multi_rank: bool,
) -> FunctionRow:
    b = base.get(corr.baseline) if corr.baseline is not None else None
    c = cand.get(corr.candidate) if corr.candidate is not None else None
    # A library frame is named by its code object; the source snapshot (when there is one) is its caller's.
    b_named = corr.baseline_source is not None and corr.baseline is not None and corr.baseline.caller is None
    c_named = corr.candidate_source is not None and corr.candidate is not None and corr.candidate.caller is None
    b_side = _side(b, corr.baseline_qualified_name, sources[0], multi_rank, from_source=b_named)
    c_side = _side(c, corr.candidate_qualified_name, sources[1], multi_rank, from_source=c_named)
    return _assembled(corr.status, corr.method, corr.reason, corr.alternatives, (b, b_side), (c, c_side))


def _assembled(
    status: RowStatus,
    method: MatchMethod,
    reason: str,
    alternatives: Iterable[str],
    base: tuple[Observed | None, FunctionSide | None],
    cand: tuple[Observed | None, FunctionSide | None],
    pieces: list[FunctionPiece] | None = None,
) -> FunctionRow:
    """A row from each side's observed compilations and its shown side (validated when rendered as JSON)."""
    (b, b_side), (c, c_side) = base, cand
    return trusted(
        FunctionRow,
        status=status,
        method=method,
        reason=reason,
        alternatives=list(alternatives),
        baseline=b_side,
        candidate=c_side,
        deltas=deltas(b_side.counts if b_side else None, c_side.counts if c_side else None),
        changes=row_changes([x for _, x in b.compilations] if b else [], [x for _, x in c.compilations] if c else []),
        pieces=pieces or [],
    )


def _merged(observed: list[Observed]) -> Observed | None:
    """One function's frames (its own and its resume functions) as one observed function."""
    if not observed:
        return None
    if len(observed) == 1:
        return observed[0]
    merged = Observed(observed[0].ref, capture_ranks=observed[0].capture_ranks)
    for part in observed:
        merged.groups.extend(part.groups)
        merged.compilations.extend(part.compilations)
    return merged


def _function_row(
    match: FunctionMatch,
    base: dict[FunctionRef, Observed],
    cand: dict[FunctionRef, Observed],
    sources: tuple[SnapshotSet, SnapshotSet],
    multi_rank: bool,
) -> FunctionRow:
    """The row of one source function: every frame compiled from it counts (its own, its resume functions and the
    library frames Dynamo compiled in its place); `pieces` lists them unless the only one is its own frame."""
    (first, *more) = match.pieces
    frame = first.baseline or first.candidate
    if not more and frame is not None and frame.resume_parent is None and frame.caller is None:
        row = _row(first, base, cand, sources, multi_rank)
        b_one = base.get(first.baseline) if first.baseline is not None else None
        c_one = cand.get(first.candidate) if first.candidate is not None else None
        return _with_source(row, (b_one, c_one), sources)
    b_obs = [base[p.baseline] for p in match.pieces if p.baseline is not None and p.baseline in base]
    c_obs = [cand[p.candidate] for p in match.pieces if p.candidate is not None and p.candidate in cand]
    b_all, c_all = _merged(b_obs), _merged(c_obs)
    b_side = _named_side(
        b_all, match.baseline_name, match.baseline_source, match.baseline_location, sources[0], multi_rank
    )
    c_side = _named_side(
        c_all, match.candidate_name, match.candidate_source, match.candidate_location, sources[1], multi_rank
    )
    # A row named by what the user compiled (targets.py) says so.
    if b_side is not None and any(_compiled(p.baseline) for p in match.pieces):
        b_side = b_side.model_copy(update={"name_from": "compiled"})
    if c_side is not None and any(_compiled(p.candidate) for p in match.pieces):
        c_side = c_side.model_copy(update={"name_from": "compiled"})
    pieces = []
    for piece in match.pieces:
        row = _row(piece, base, cand, sources, multi_rank)
        side = piece.baseline or piece.candidate
        pieces.append(
            trusted(
                FunctionPiece,
                name=side.name if side is not None else "?",
                library_file=None if side is None or side.caller is None else (library_path(side.file) or side.file),
                status=row.status,
                method=row.method,
                reason=row.reason,
                baseline=row.baseline,
                candidate=row.candidate,
                deltas=row.deltas,
            )
        )
    row = _assembled(
        match.status, match.method, match.reason, match.alternatives, (b_all, b_side), (c_all, c_side), pieces
    )
    return _with_source(row, (b_all, c_all), sources)


def _with_source(
    row: FunctionRow, observed: tuple[Observed | None, Observed | None], sources: tuple[SnapshotSet, SnapshotSet]
) -> FunctionRow:
    """The row with its `source` changes after the others: the lines that changed in its function and around it."""
    b, c = observed
    found = source_changes(
        (row.baseline, row.candidate),
        ([x for _, x in b.compilations] if b else [], [x for _, x in c.compilations] if c else []),
        sources,
    )
    return row.model_copy(update={"changes": [*row.changes, *found]}) if found else row


# What grew in the candidate -> the suggestion kinds that are about it.
_GREW = {
    "confirmed_recompilation_identities": (
        SuggestionKind.MARK_DYNAMIC,
        SuggestionKind.DTYPE_DEVICE,
        SuggestionKind.GRAD_MODE,
        SuggestionKind.DYNAMIC_SCALAR,
        SuggestionKind.CREATE_ONCE,
        SuggestionKind.RECOMPILE_LIMIT,
    ),
    "compiler_limit_events": (SuggestionKind.RECOMPILE_LIMIT,),
    "graph_break_records": (SuggestionKind.GRAPH_BREAK,),
    "failed": (SuggestionKind.SUPPRESSED_FAILURE, SuggestionKind.GRAPH_BREAK),
}


def _suggested(
    row: FunctionRow,
    match: FunctionMatch,
    cand: dict[FunctionRef, Observed],
    setup: TorchSetup,
    sources: SnapshotSet | None = None,
) -> FunctionRow:
    """The row with the next steps for what is new or grew in the candidate, computed from all the candidate's
    compilations of the function (a problem the baseline had as much of gets none: it is not the change's)."""
    wanted = {kind for key, kinds in _GREW.items() if row.deltas.get(key, 0) > 0 for kind in kinds}
    if not wanted or row.candidate is None:
        return row
    comps = sorted(
        (
            c
            for p in match.pieces
            if p.candidate is not None and p.candidate in cand
            for _, c in cand[p.candidate].compilations
        ),
        key=lambda c: compile_order(c.compile_id),
    )
    first = next((p.candidate for p in match.pieces if p.candidate is not None), None)
    name = match.candidate_name or row.candidate.qualified_name or (first.name if first is not None else None)
    found = function_suggestions(comps, setup, name, sources)
    for comp in comps:
        found += compilation_suggestions(comp, name)
    # One suggestion per change: the same break on every rank (or at every call) is one, citing all its compilations.
    merged: dict[tuple[str, str | None, str], Suggestion] = {}
    for s in found:
        key = (str(s.kind), s.subject, s.change)
        if (kept := merged.get(key)) is None:
            merged[key] = s
        else:
            merged[key] = kept.model_copy(
                update={
                    "compile_ids": list(dict.fromkeys([*kept.compile_ids, *s.compile_ids])),
                    "evidence_ids": list(dict.fromkeys([*kept.evidence_ids, *s.evidence_ids])),
                }
            )
    shown = [s for s in merged.values() if s.kind in wanted]
    return row.model_copy(update={"suggestions": shown}) if shown else row


def _compiled(ref: FunctionRef | None) -> bool:
    return ref is not None and ref.caller is not None and bool(ref.caller.target)


def _named_side(
    obs: Observed | None,
    name: str | None,
    source: SourceFunction | None,
    location: tuple[str, int | None] | None,
    sources: SnapshotSet,
    multi_rank: bool,
) -> FunctionSide | None:
    """A folded side, named and placed as its function (not as whichever frame came first)."""
    side = _side(obs, name, sources, multi_rank, from_source=source is not None)
    if side is None:
        return side
    if source is not None:
        return side.model_copy(update={"file": source.rel_path, "line": source.first_line})
    if location is not None:
        return side.model_copy(update={"file": location[0], "line": location[1]})
    return side


def comparison_id(*parts: str) -> str:
    digest = hashlib.sha256(f"dynamo-diff comparison {COMPARE_VERSION}\n".encode())
    for part in parts:
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


_FAILURE_CHANGES = (ChangeKind.FAILURE_NEW, ChangeKind.FAILURE_GONE)


def _with_sequels(rows: list[FunctionRow], base: Sequels, cand: Sequels) -> list[FunctionRow]:
    """A failure that is new or gone says, on the side that has it, what torch did next and whether the program
    went on, with the evidence (went_on.py): `then`, `went_on`, `went_on_basis` in that side's value."""
    out = []
    for row in rows:
        if not any(ch.kind in _FAILURE_CHANGES for ch in row.changes):
            out.append(row)
            continue
        changes = []
        for ch in row.changes:
            new = ch.kind == ChangeKind.FAILURE_NEW
            ids, sequels = (ch.candidate_evidence, cand) if new else (ch.baseline_evidence, base)
            found = next((f for e in ids if (f := sequels.of_evidence(e)) is not None), None)
            if ch.kind not in _FAILURE_CHANGES or found is None:
                changes.append(ch)
                continue
            comp, sequel = found
            facts = {"then": then_text(comp), "went_on": sequel.went_on, "went_on_basis": sequel.basis}
            if sequel.evidence_id:
                facts["went_on_evidence"] = sequel.evidence_id
            side = "candidate" if new else "baseline"
            who = f"in the {side}, "
            update = {
                "summary": f"{ch.summary}; {who}after {comp.compile_id}, {sequel.text(then_text(comp))}",
                side: {**(getattr(ch, side) or {}), **facts},
            }
            changes.append(ch.model_copy(update=update))
        out.append(row.model_copy(update={"changes": changes}))
    return out


def compare_captures(
    baseline: Capture,
    candidate: Capture,
    *,
    baseline_sources: SnapshotSet | None = None,
    candidate_sources: SnapshotSet | None = None,
    user_map: UserMap | None = None,
    intended: Iterable[str] = (),
    assume_change: bool = False,
) -> Comparison:
    """Comparability first, then one row per source function (matched by source, never by frame id).
    `intended`: the keys whose difference is the change under test (e.g. 'torch_version' for an upgrade);
    `assume_change`: without them, settings the user set that are the only differences are taken as the change
    (`comparability.assumable_change`; `compare` does, `check` never).

    A large comparison allocates millions of objects and no cycles: callers pause the cyclic collector around it
    (`dynamo_diff_store.collector_paused`, as the service does), which halves its time."""
    intended = list(intended)
    b_src, c_src = baseline_sources or EMPTY, candidate_sources or EMPTY
    base, cand = observed_functions(baseline, b_src), observed_functions(candidate, c_src)
    multi_rank = len(baseline.ranks) > 1 or len(candidate.ranks) > 1
    matches = correspond_functions(list(base), b_src, list(cand), c_src, user_map)
    rows = [_function_row(match, base, cand, (b_src, c_src), multi_rank) for match in matches]
    setup = TorchSetup.of(candidate)
    rows = [_suggested(row, match, cand, setup, c_src) for row, match in zip(rows, matches, strict=True)]
    rows = _with_sequels(rows, Sequels(baseline), Sequels(candidate))
    notices: list[Notice] = []
    if baseline.capture.id == candidate.capture.id:
        notices.append(
            Notice(
                code=NoticeCode.SAME_CAPTURE,
                severity=Severity.WARNING,
                message=(
                    f"the baseline and the candidate are the same capture ({short_id(baseline.capture.id)}): every "
                    "delta is zero by construction"
                ),
                hint=Hint(action=HintAction.ANALYZE_CAPTURE, args={"capture": short_id(baseline.capture.id)}),
            )
        )
    for side, capture, src in (("baseline", baseline, b_src), ("candidate", candidate, c_src)):
        if not src.files:
            notices.append(
                Notice(
                    code=NoticeCode.NO_SOURCE_SNAPSHOTS,
                    severity=Severity.WARNING,
                    message=no_snapshots_message(f"the {side}"),
                    hint=Hint(action=HintAction.RECORD_WITH_CAPTURE),
                )
            )
        compiled = capture.capture.compiled
        if compiled.state == CompiledState.NOTHING_COMPILED:
            notices.append(
                Notice(
                    code=NoticeCode.NOTHING_COMPILED,
                    severity=Severity.ERROR,
                    message=f"the {side} compiled nothing: {compiled.summary}; its counts are 0 because no frame "
                    "was compiled, not because nothing went wrong",
                )
            )
        elif compiled.state == CompiledState.NO_GRAPH:
            notices.append(
                Notice(
                    code=NoticeCode.NO_GRAPH_COMPILED,
                    severity=Severity.ERROR,
                    message=f"the {side} compiled no graph: {compiled.summary}; the program ran without a compiled "
                    "graph",
                )
            )
        run = capture.capture.run
        if run.finished is False:
            notices.append(
                Notice(
                    code=NoticeCode.RUN_INCOMPLETE,
                    severity=Severity.ERROR,
                    message=f"the {side} run did not finish ({run.summary}): its counts may be low",
                )
            )
    ambiguous = sum(1 for r in rows if r.status == RowStatus.AMBIGUOUS)
    if ambiguous:
        notices.append(
            Notice(
                code=NoticeCode.AMBIGUOUS_ROWS,
                message=(f"{ambiguous} function(s) could not be matched unambiguously; they stay in the totals"),
                hint=Hint(action=HintAction.PAIR_WITH_SOURCE_MAP),
            )
        )
    rank_counts = (len(baseline.ranks), len(candidate.ranks))
    # A side without ranks wrote no trace file (it compiled nothing, said above): not a difference in ranks.
    if rank_counts[0] != rank_counts[1] and all(rank_counts):
        notices.append(
            Notice(
                code=NoticeCode.RANK_COUNT_DIFFERS,
                message=(
                    f"the baseline has {rank_counts[0]} rank(s) and the candidate {rank_counts[1]}: rows sum over ranks"
                ),
            )
        )
    pairs = "" if user_map is None else repr(sorted(user_map.pairs))
    comparability = check_comparability(baseline, candidate, intended=intended, assume=assume_change)
    assumed = [repr(["assumed", *comparability.assumed])] if comparability.assumed else []
    return Comparison(
        id=comparison_id(
            baseline.capture.id, candidate.capture.id, pairs, *([repr(sorted(intended))] if intended else []), *assumed
        ),
        kind="comparison",
        baseline=side_of(baseline),
        candidate=side_of(candidate),
        comparability=comparability,
        totals=Totals(baseline=baseline.counts, candidate=candidate.counts),
        functions=rows,
        notices=notices,
    )


def compare_ranks(
    capture: Capture, ranks: list[int] | None = None, *, sources: SnapshotSet | None = None
) -> Comparison:
    """The ranks of one capture against the first one given (default: all ranks against the lowest).

    Rows compare the reference rank with the first rank that diverges from it (or with the second rank when
    none diverges); the rank view lists every rank's counts and where each first diverges."""
    view, reference, other = rank_view(capture, ranks)
    src = sources or EMPTY
    by_rank = {r.rank: r for r in capture.ranks}
    ref_capture = _only_rank(capture, reference)
    other_capture = _only_rank(capture, other) if other in by_rank else ref_capture
    base, cand = observed_functions(ref_capture, src), observed_functions(other_capture, src)
    matches = correspond_functions(list(base), src, list(cand), src, None)
    rows = [_function_row(match, base, cand, (src, src), False) for match in matches]
    rows = [_between_ranks(row, reference, other) for row in rows]
    side = side_of(capture)
    return Comparison(
        id=comparison_id(capture.capture.id, "ranks", repr(view.ranks)),
        kind="rank_view",
        baseline=side.model_copy(update={"label": f"{side.label or short_id(capture.capture.id)} rank {reference}"}),
        candidate=side.model_copy(update={"label": f"{side.label or short_id(capture.capture.id)} rank {other}"}),
        comparability=check_comparability(capture, capture),
        totals=Totals(
            baseline=by_rank[reference].counts,
            candidate=by_rank[other].counts if other in by_rank else by_rank[reference].counts,
        ),
        functions=rows,
        ranks=view,
    )


# Two ranks of one run differ side by side, not before and after: a graph break one rank has and the other does not
# is "only on rank N", never "gone" (which reads as fixed) or "new"; failures say which rank has how many.
_RANK_WORDING = {
    ChangeKind.GRAPH_BREAK_NEW: ("new graph break at ", "graph break only on rank {other}, not rank {reference}, at "),
    ChangeKind.GRAPH_BREAK_GONE: (
        "graph break gone from ",
        "graph break only on rank {reference} (reference), not rank {other}, at ",
    ),
}


_FAILURE_KINDS = (ChangeKind.FAILURE_NEW, ChangeKind.FAILURE_GONE)


def _between_ranks(row: FunctionRow, reference: int | None, other: int | None) -> FunctionRow:
    if not any(change.kind in _RANK_WORDING or change.kind in _FAILURE_KINDS for change in row.changes):
        return row
    changes = []
    for change in row.changes:
        kind = ChangeKind(change.kind)
        wording = _RANK_WORDING.get(kind)
        said = None
        if wording is not None and change.summary.startswith(wording[0]):
            said = wording[1].format(reference=reference, other=other) + change.summary[len(wording[0]) :]
        elif kind in _FAILURE_KINDS and isinstance(change.baseline, dict) and isinstance(change.candidate, dict):
            # 'inductor failures: 1 -> 0' between two ranks reads as fixed: say which rank has how many.
            fail_type, nb, nc = (
                change.baseline.get("fail_type"),
                change.baseline.get("count"),
                change.candidate.get("count"),
            )
            before = f"{fail_type} failures: {nb} -> {nc}"
            if change.summary.startswith(before):
                said = (
                    f"{fail_type} failures: {nb} on rank {reference} (reference), {nc} on rank {other}"
                    + change.summary[len(before) :]
                )
        changes.append(change if said is None else change.model_copy(update={"summary": said}))
    return row.model_copy(update={"changes": changes})


def _only_rank(capture: Capture, rank: int | None) -> Capture:
    return capture.model_copy(update={"ranks": [r for r in capture.ranks if r.rank == rank]})


def user_sources(files: Mapping[str, str], paths: Mapping[str, str]) -> SnapshotSet:
    return SnapshotSet(files=dict(files), paths=dict(paths))
