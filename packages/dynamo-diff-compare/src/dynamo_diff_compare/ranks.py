"""The rank view: ranks of one run side by side, and where each first diverges from the reference rank.

Ranks that compile differently are what hangs distributed jobs (one rank recompiles, the others wait in a
collective), so the view walks the compile order of each rank against the reference and names the first
compilation that differs, with its evidence.
"""

from __future__ import annotations

from dynamo_diff_schema.capture import Capture, Rank
from dynamo_diff_schema.comparison import RankDivergence, RankView
from dynamo_diff_schema.compilation import Compilation
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.ids import short_id


def describe(comp: Compilation) -> str:
    code = comp.code
    where = f"{code.co_name or '?'}"
    if code.co_filename:
        where += f" ({code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno if code.co_firstlineno else '?'})"
    bits = [f"{comp.compile_id} {where} {comp.outcome}"]
    if comp.recompile is not None and comp.recompile.reasons:
        reason = comp.recompile.reasons[0]
        bits.append(f"recompile [{reason.category}]: {reason.text.strip().splitlines()[0][:140]}")
    elif comp.recompile is not None:
        bits.append("recompile")
    if comp.failure is not None:
        bits.append(f"failure {comp.failure.fail_type or ''}".strip())
    for event in comp.cache_events:
        bits.append(f"{event.cache} cache {event.decision}")
    return "; ".join(bits)


def _key(comp: Compilation) -> tuple[object, ...]:
    code = comp.code
    return (comp.compile_id, code.co_filename, code.co_firstlineno, code.co_name)


def _what_differs(ref: Compilation, other: Compilation) -> str:
    if _key(ref) != _key(other):
        return "a different compilation"
    if ref.outcome != other.outcome:
        return f"outcome {ref.outcome} vs {other.outcome}"
    ref_cats = sorted(r.category for r in ref.recompile.reasons) if ref.recompile else None
    other_cats = sorted(r.category for r in other.recompile.reasons) if other.recompile else None
    if ref_cats != other_cats:
        return "different recompile evidence"
    ref_cache = [(e.cache, e.decision) for e in ref.cache_events]
    other_cache = [(e.cache, e.decision) for e in other.cache_events]
    if ref_cache != other_cache:
        return "a different cache decision"
    return ""


def _evidence(comp: Compilation) -> list[str]:
    ids = list(comp.recompile.evidence_ids) if comp.recompile else []
    if comp.failure is not None:
        ids += comp.failure.evidence_ids
    return ids or comp.evidence_ids[:3]


def first_divergence(reference: Rank, other: Rank) -> RankDivergence | None:
    ref, oth = reference.compilations, other.compilations
    name = f"rank {'?' if other.rank is None else other.rank}"
    ref_name = f"rank {'?' if reference.rank is None else reference.rank}"
    for index in range(max(len(ref), len(oth))):
        if index >= len(ref):
            comp = oth[index]
            return RankDivergence(
                rank=other.rank,
                reference_rank=reference.rank,
                index=index,
                compile_id=comp.compile_id,
                reason=(
                    f"{name} compiles {describe(comp)}, where {ref_name} compiled nothing more "
                    f"(it stopped after {len(ref)} compilation(s))"
                ),
                evidence_ids=_evidence(comp),
            )
        if index >= len(oth):
            comp = ref[index]
            return RankDivergence(
                rank=other.rank,
                reference_rank=reference.rank,
                index=index,
                reference_compile_id=comp.compile_id,
                reason=(
                    f"{name} stops after {len(oth)} compilation(s); {ref_name} goes on to compile {describe(comp)}"
                ),
                evidence_ids=_evidence(comp),
            )
        what = _what_differs(ref[index], oth[index])
        if what:
            return RankDivergence(
                rank=other.rank,
                reference_rank=reference.rank,
                index=index,
                compile_id=oth[index].compile_id,
                reference_compile_id=ref[index].compile_id,
                reason=(
                    f"compilation #{index + 1} differs ({what}): {name} has "
                    f"{describe(oth[index])}; {ref_name} has {describe(ref[index])}"
                ),
                evidence_ids=_evidence(oth[index]) + _evidence(ref[index]),
            )
    return None


def rank_view(capture: Capture, ranks: list[int] | None = None) -> tuple[RankView, int | None, int | None]:
    """(view, reference rank, the rank the rows compare against)."""
    by_rank = {r.rank: r for r in capture.ranks}
    chosen: list[int | None] = list(ranks) if ranks else sorted(by_rank, key=lambda r: (r is None, r or 0))
    unknown = [r for r in chosen if r not in by_rank]
    if unknown:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"capture {short_id(capture.capture.id)} has no rank "
            f"{', '.join(str(r) for r in unknown)}; it has {sorted(str(r) for r in by_rank)}",
        )
    if len(chosen) < 2:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"a rank view needs at least two ranks (capture {short_id(capture.capture.id)} has {len(by_rank)})",
        )
    reference = chosen[0]
    divergences = [d for r in chosen[1:] if (d := first_divergence(by_rank[reference], by_rank[r])) is not None]
    other = divergences[0].rank if divergences else chosen[1]
    view = RankView(
        reference_rank=reference,
        ranks=chosen,
        counts={str(r): by_rank[r].counts for r in chosen},
        divergences=divergences,
    )
    return view, reference, other
