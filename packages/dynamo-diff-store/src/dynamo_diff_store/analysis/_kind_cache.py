"""Compile caches: Inductor's FX graph cache and AOTAutograd's cache, a hit, miss or bypass artifact each."""

from __future__ import annotations

from typing import Any

from dynamo_diff_schema.compilation import CacheDecision, CacheEvent, CacheName

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind
from dynamo_diff_store.reading import Record, loads_payload


def cache_reason(payload: str | None) -> str | None:
    if not payload:
        return None
    try:
        parsed = loads_payload(payload)
    except ValueError:
        return None
    if isinstance(parsed, dict):
        for key in ("cache_bypass_reason", "reason", "cache_event_reason"):
            value = parsed.get(key)
            if isinstance(value, str):
                return value[:500]
    return None


def _fold_cache_event(folding: Folding, fact: Fact, ident: Identity) -> None:
    cache, decision, reason = fact.data
    ev = folding.evidence(fact, fact.name or fact.kind, ident)
    ident.cache_events.append(CacheEvent(cache=cache, decision=decision, reason=reason, evidence_id=ev))


def _cache_kind(cache: CacheName, decision: CacheDecision) -> RecordKind:
    def extract(rec: Record) -> Any:
        return cache, decision, cache_reason(rec.payload)

    return RecordKind(f"artifact:{cache.value}_cache_{decision.value}", extract=extract, fold=_fold_cache_event)


FX_GRAPH_CACHE_HIT = _cache_kind(CacheName.FX_GRAPH, CacheDecision.HIT)
FX_GRAPH_CACHE_MISS = _cache_kind(CacheName.FX_GRAPH, CacheDecision.MISS)
FX_GRAPH_CACHE_BYPASS = _cache_kind(CacheName.FX_GRAPH, CacheDecision.BYPASS)
AOTAUTOGRAD_CACHE_HIT = _cache_kind(CacheName.AOTAUTOGRAD, CacheDecision.HIT)
AOTAUTOGRAD_CACHE_MISS = _cache_kind(CacheName.AOTAUTOGRAD, CacheDecision.MISS)
AOTAUTOGRAD_CACHE_BYPASS = _cache_kind(CacheName.AOTAUTOGRAD, CacheDecision.BYPASS)
