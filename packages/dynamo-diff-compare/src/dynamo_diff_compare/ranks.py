"""The rank view: the ranks of one run grouped by behaviour, and where each group first diverges from the
reference rank.

Ranks that compile differently are what hangs distributed jobs (one rank recompiles, the others wait in a
collective). A job of thousands of ranks usually shows a handful of behaviours, so ranks whose behaviour
signature is equal form one group (shown once, with its rank ranges and a representative rank), and the view
walks the compile order of each group's representative against the reference rank and names the first
compilation that differs, with its evidence.

A rank's behaviour signature (docs/COMPARING.md, "The rank view"): per compiled function (its file name, first
line and name; generated code without the counters in its made-up file name), in compile order, each
compilation's outcome, its recompile evidence (confirmed or not, the failing guards' categories and texts with
numbers blanked), its graph breaks (registry id or type, user file name and line), its failure type and its limit
hits. Not part of it: timings, evidence ids, compile ids, cache decisions, directories, failure messages, and the
numbers in guard text (a rank number, a rank-dependent shape, an object address).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable

from dynamo_diff_schema.capture import Capture, Rank
from dynamo_diff_schema.comparison import GeneratedKind, RankDivergence, RankGroup, RankView
from dynamo_diff_schema.compilation import Compilation
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.lists import head

from dynamo_diff_compare.generated import generated_form, kind_of

_NUMBER = re.compile(r"(?<!\w)(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)")


def blank_numbers(text: str) -> str:
    """Text with each number (decimal, hexadecimal, an address) replaced by '#': guard text names rank-dependent
    values (a shard's size, the rank itself, an object's address) that do not change what the guard checks."""
    return _NUMBER.sub("#", text.strip())


def describe(comp: Compilation) -> str:
    code = comp.code
    where = f"{code.co_name or '?'}"
    kind = kind_of(comp)
    if kind == GeneratedKind.COMPILED_AUTOGRAD:
        where = f"compiled autograd graph {comp.identity.compiled_autograd_id} ({where})"
    elif kind == GeneratedKind.FX_GRAPH:
        where = f"FX graph ({where})"
    elif code.co_filename:
        where += f" ({code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno if code.co_firstlineno else '?'})"
    bits = [f"{comp.compile_id} {where} {comp.outcome}"]
    if comp.recompile is not None and comp.recompile.reasons:
        reasons, rest = head(comp.recompile.reasons, 3)
        bits += [f"recompile [{r.category}]: {r.text.strip().splitlines()[0][:140]}" for r in reasons]
        bits += [f"+{rest} more failing guards"] if rest else []
    elif comp.recompile is not None:
        bits.append("recompile")
    breaks, rest = head(comp.graph_breaks, 2)
    for brk in breaks:
        bits.append(f"graph break {brk.key.splitlines()[0][:80]} at {_site(brk.user_file, brk.user_line)}")
    bits += [f"+{rest} more graph breaks"] if rest else []
    if comp.failure is not None:
        bits.append(f"failure {comp.failure.fail_type or ''}".strip())
    bits += list(dict.fromkeys(f"limit {limit.kind}" for limit in comp.limit_events))
    bits += [f"{event.cache} cache {event.decision}" for event in comp.cache_events]
    return "; ".join(bits)


def _site(file: str | None, line: int | None) -> str:
    if file is None:
        return "?"
    return f"{file.rsplit('/', 1)[-1]}:{line if line is not None else '?'}"


def function_key(comp: Compilation) -> str:
    """The compiled function, by file name (not directory: nodes may run from different checkouts), first line
    and name. Generated code by what it is: a made-up file name without its counters (`<eval_with_key>.#`: ranks
    count the modules they generate differently), and a compiled-autograd graph by its id."""
    code = comp.code
    file = code.co_filename or "?"
    form = generated_form(file)
    prefix = ""
    if form is not None:
        file = form
        if comp.identity.compiled_autograd_id is not None:
            prefix = f"!{comp.identity.compiled_autograd_id} "
    return f"{prefix}{file.rsplit('/', 1)[-1]}:{code.co_firstlineno or '?'}:{code.co_name or '?'}"


def _recompile(comp: Compilation) -> object:
    if comp.recompile is None:
        return None
    return [comp.recompile.confirmed, [[r.category, blank_numbers(r.text)] for r in comp.recompile.reasons]]


def _breaks(comp: Compilation) -> list[list[object]]:
    return [
        [b.gb_id or b.gb_type or blank_numbers(b.reason.split("\n", 1)[0]), _site(b.user_file, b.user_line)]
        for b in comp.graph_breaks
    ]


def compilation_behaviour(comp: Compilation) -> list[object]:
    """What one compilation contributes to its rank's behaviour signature."""
    return [
        str(comp.outcome),
        _recompile(comp),
        _breaks(comp),
        None if comp.failure is None else (comp.failure.fail_type or "?"),
        [e.kind for e in comp.limit_events],
    ]


def behaviour_signature(rank: Rank) -> str:
    """A short hash of the rank's behaviour: per function, its compilations' behaviours in compile order."""
    per_function: dict[str, list[list[object]]] = {}
    for comp in rank.compilations:
        per_function.setdefault(function_key(comp), []).append(compilation_behaviour(comp))
    text = json.dumps(sorted(per_function.items()), separators=(",", ":"), sort_keys=True)
    return short_id(hashlib.sha256(text.encode()).hexdigest())


def rank_ranges(ranks: Iterable[int | None]) -> str:
    """'0-3, 5, 7-4095', with strided runs of three or more as 'first-last step N' (even ranks of 4,096:
    '0-4094 step 2', the pattern of pipeline stages and tensor-parallel groups); a rank not named reads '?'."""
    numbers = sorted({r for r in ranks if r is not None})
    parts: list[str] = []
    i = 0
    while i < len(numbers):
        end = i
        if i + 1 < len(numbers):
            step = numbers[i + 1] - numbers[i]
            end = i + 1
            while end + 1 < len(numbers) and numbers[end + 1] - numbers[end] == step:
                end += 1
            if step > 1 and end + 1 < len(numbers) and numbers[end + 1] - numbers[end] == 1:
                end -= 1  # the last one starts a run of consecutive ranks: '0, 2, 4-7', not '0-4 step 2, 5-7'
            if step > 1 and end - i < 2:  # two ranks far apart are two ranks, not a run
                end = i
        first, last = numbers[i], numbers[end]
        if end == i:
            parts.append(str(first))
        elif numbers[i + 1] - first == 1:
            parts.append(f"{first}-{last}")
        else:
            parts.append(f"{first}-{last} step {numbers[i + 1] - first}")
        i = end + 1
    if any(r is None for r in ranks):
        parts.append("?")
    return ", ".join(parts)


def _key(comp: Compilation) -> tuple[object, ...]:
    return (comp.compile_id, function_key(comp))


def _what_differs(ref: Compilation, other: Compilation) -> str:
    if _key(ref) != _key(other):
        return "a different compilation"
    if ref.outcome != other.outcome:
        return f"outcome {ref.outcome} vs {other.outcome}"
    ref_rec, other_rec = _recompile(ref), _recompile(other)
    if ref_rec != other_rec:
        if (ref.recompile is None) != (other.recompile is None):
            return "a recompilation on one rank only"
        ref_cats = sorted(r.category for r in ref.recompile.reasons) if ref.recompile else []
        other_cats = sorted(r.category for r in other.recompile.reasons) if other.recompile else []
        return "different recompile evidence" if ref_cats != other_cats else "different failing guards"
    if _breaks(ref) != _breaks(other):
        return "different graph breaks"
    if compilation_behaviour(ref)[3] != compilation_behaviour(other)[3]:
        return "a different failure"
    if [e.kind for e in ref.limit_events] != [e.kind for e in other.limit_events]:
        return "different limit hits"
    return ""


def _evidence(comp: Compilation) -> list[str]:
    ids = list(comp.recompile.evidence_ids) if comp.recompile else []
    if comp.failure is not None:
        ids += comp.failure.evidence_ids
    ids += [b.evidence_id for b in comp.graph_breaks if b.evidence_id]
    ids += [e.evidence_id for e in comp.limit_events if e.evidence_id]
    return list(dict.fromkeys(ids)) or comp.evidence_ids[:3]


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
                evidence_ids=list(dict.fromkeys(_evidence(oth[index]) + _evidence(ref[index]))),
            )
    return None


def _sort_key(rank: int | None) -> tuple[bool, int]:
    return (rank is None, rank or 0)


def group_ranks(ranks: list[Rank], reference: int | None) -> list[RankGroup]:
    """Ranks grouped by behaviour signature: the reference rank's group first, then by size (largest first),
    then by lowest rank."""
    members: dict[str, list[Rank]] = {}
    for rank in ranks:
        members.setdefault(behaviour_signature(rank), []).append(rank)
    groups: list[RankGroup] = []
    for behaviour, group in members.items():
        numbers = sorted((r.rank for r in group), key=_sort_key)
        is_reference = any(r.rank == reference for r in group)
        representative = reference if is_reference else numbers[0]
        rep = next(r for r in group if r.rank == representative)
        groups.append(
            RankGroup(
                behaviour=behaviour,
                ranks=numbers,
                rank_ranges=rank_ranges(numbers),
                size=len(numbers),
                representative=representative,
                reference=is_reference,
                counts=rep.counts,
            )
        )
    groups.sort(key=lambda g: (not g.reference, -g.size, _sort_key(g.ranks[0])))
    return groups


def rank_view(capture: Capture, ranks: list[int] | None = None) -> tuple[RankView, int | None, int | None]:
    """(view, reference rank, the rank the rows compare against: the representative of the first group after the
    reference group, else the second rank)."""
    by_rank = {r.rank: r for r in capture.ranks}
    chosen: list[int | None] = list(dict.fromkeys(ranks)) if ranks else sorted(by_rank, key=_sort_key)
    unknown = [r for r in chosen if r not in by_rank]
    if unknown:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"capture {short_id(capture.capture.id)} has no rank "
            f"{', '.join(str(r) for r in unknown)}; it has {rank_ranges(by_rank)}",
        )
    if len(chosen) < 2:
        # No rank at all: the run wrote no trace file, because it compiled no frame.
        why = f": {capture.capture.compiled.summary}" if not by_rank else ""
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"a rank view needs at least two ranks (capture {short_id(capture.capture.id)} has {len(by_rank)}){why}",
        )
    reference = chosen[0]
    groups = group_ranks([by_rank[r] for r in chosen], reference)
    divergences: list[RankDivergence] = []
    for group in groups[1:]:
        divergence = first_divergence(by_rank[reference], by_rank[group.representative])
        if divergence is None:  # equal compile order, unequal signatures: say so rather than hide the group
            divergence = RankDivergence(
                rank=group.representative,
                reference_rank=reference,
                reason=(
                    f"rank {group.representative} compiles the same sequence as rank {reference} with a different "
                    f"behaviour signature ({group.behaviour} vs {groups[0].behaviour})"
                ),
            )
        divergences.append(divergence)
    other = groups[1].representative if len(groups) > 1 else chosen[1]
    view = RankView(
        reference_rank=reference,
        ranks=chosen,
        groups=groups,
        counts={str(r): by_rank[r].counts for r in chosen},
        divergences=divergences,
    )
    return view, reference, other
