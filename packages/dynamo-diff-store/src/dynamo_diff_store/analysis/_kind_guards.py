"""Guards and recompilations: the guard records (`dynamo_cpp_guards_str`, the older JSON `dynamo_guards`) and the
`recompile_reasons` artifact (the failing guards that made torch compile a frame again)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, NamedTuple

from dynamo_diff_schema.compilation import GuardReason, GuardSummary, RecompileEvidence

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, payload
from dynamo_diff_store.analysis._guards import (
    ENTRY_ID,
    GuardLeaf,
    also_differs,
    categorize,
    guards_on_inputs,
    made_for,
    split_reason_text,
    tree_leaves,
)
from dynamo_diff_store.analysis._size_ranges import size_ranges
from dynamo_diff_store.reading import loads_payload

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


class GuardTree(NamedTuple):
    """What a guard record says: how many guards of each kind, and the classes the guard tree gives the frame's
    `self`, `fn` and `args[0]` (the module's class, for the frame a compiled module's call enters first), and its
    guards (what a recompilation's new entry was made for: see `_guards.made_for`)."""

    categories: Counter[str]
    local_types: dict[str, str]
    leaves: tuple[GuardLeaf, ...] = ()


def cpp_guard_tree(text: str) -> GuardTree:
    local_types: dict[str, str] = {}
    for m in _LOCAL_TYPE.finditer(text):
        local = m["local"] + ("[0]" if m["first"] else "")
        if local in _NAMING_LOCALS and local not in local_types:
            local_types[local] = m["cls"][:300]
    return GuardTree(Counter(CPP_GUARD.findall(text)), local_types, tree_leaves(text))


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


def _fold_guards(folding: Folding, fact: Fact, ident: Identity) -> None:
    ev = folding.evidence(fact, fact.kind, ident)
    ident.guard_evidence.append(ev)
    # The C++ guard tree names every guard's kind; the JSON list is read only when there is no tree. The last
    # tree is the final attempt's.
    if fact.data is not None and (fact.kind == "dynamo_cpp_guards_str" or not ident.guard_categories):
        ident.guard_categories = fact.data.categories
        if fact.data.local_types:
            ident.guard_local_types = fact.data.local_types
        if fact.data.leaves:
            ident.guard_leaves = fact.data.leaves
            ident.guard_leaves_evidence = ev


def _fold_recompile_reasons(folding: Folding, fact: Fact, ident: Identity) -> None:
    ev = folding.evidence(fact, "recompile_reasons", ident)
    ident.recompile_evidence.append(ev)
    if fact.data is None:
        ident.incomplete.add("guard_reason_entries")
        return
    ident.recompile_entries.extend(GuardReason(text=text, category=cat, evidence_id=ev) for text, cat in fact.data)


DYNAMO_CPP_GUARDS_STR = RecordKind(
    "dynamo_cpp_guards_str", extract=payload(cpp_guard_tree), fold=_fold_guards, compiling=True
)
DYNAMO_GUARDS = RecordKind("dynamo_guards", extract=payload(json_guard_tree), fold=_fold_guards, compiling=True)
RECOMPILE_REASONS = RecordKind(
    "artifact:recompile_reasons",
    extract=payload(lambda p: [(text, categorize(text)) for text in reason_entries(p)]),
    fold=_fold_recompile_reasons,
    compiling=True,
)


EarlierLeaves = dict[tuple[int | None, int | None, int | None], tuple[GuardLeaf, ...]]


def _also_differs(r: GuardReason, ident: Identity, earlier: EarlierLeaves) -> GuardReason:
    """`r` with what else differs between the older entry it names (`0/0:`) and this compilation's guard tree."""
    m = ENTRY_ID.match(r.text)
    if m is None:
        return r
    ca = int(m["ca"]) if m["ca"] is not None else ident.key[0]
    old = earlier.get((ca, int(m["frame"]), int(m["fcid"])))
    if not old:
        return r
    texts, count = also_differs(r.text, r.category, old, ident.guard_leaves)
    entry = ("" if m["ca"] is None else f"!{m['ca']}/") + f"{m['frame']}/{m['fcid']}"
    return r.model_copy(update={"also_differs_from": entry, "also_differs": texts, "also_differs_count": count})


def recompile(
    ident: Identity, final: dict[str, Any], metrics_ev: str | None, earlier: EarlierLeaves | None = None
) -> RecompileEvidence | None:
    """Confirmed only by a recompile_reasons artifact or the metrics' recompile_reason. `earlier`: the guard trees
    of the rank's compilations before this one, by compile id (the last occurrence of each)."""
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
    if ident.guard_leaves:  # what the new entry was made for, from this compilation's own guard tree
        entries = [
            r.model_copy(update={"made_for": found})
            if (found := made_for(r.text, r.category, ident.guard_leaves))
            else r
            for r in entries
        ]
        if earlier:
            entries = [_also_differs(r, ident, earlier) for r in entries]
    return RecompileEvidence(confirmed=True, reasons=entries, evidence_ids=evidence)


def guard_summary(ident: Identity, final: dict[str, Any], metrics_ev: str | None) -> GuardSummary | None:
    guard_count = final.get("guard_count")
    if not isinstance(guard_count, int) or guard_count < 0:
        return None
    inputs, omitted, values_omitted = guards_on_inputs(ident.guard_leaves)
    made = {
        source: int(value)
        for source, value, _ in ident.created_symbols.values()
        if source and value and value.lstrip("-").isdigit() and (".size()[" in source or ".stride()[" in source)
    }
    sizes, related = size_ranges((leaf.text for leaf in ident.guard_leaves if leaf.kind == "LAMBDA_GUARD"), made)
    return GuardSummary(
        count=guard_count,
        categories=dict(sorted(ident.guard_categories.items())),
        evidence_ids=[*([metrics_ev] if metrics_ev else []), *ident.guard_evidence],
        inputs=inputs,
        inputs_omitted=omitted,
        values_omitted=values_omitted,
        inputs_evidence_id=ident.guard_leaves_evidence if inputs else None,
        sizes_accepted=sizes,
        sizes_related=related if sizes else 0,
    )
