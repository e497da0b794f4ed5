"""Is the pair comparable at all? Declarations (manifest) and the observed compiler configuration, key by key.

A difference makes the pair `confounded` (the keys and both values are listed); with no difference but
something that could not be checked the verdict is `unknown` (what is missing is listed); else `comparable`.
"""

from __future__ import annotations

import re
from typing import Any

from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.comparison import Comparability, Difference, Verdict

# Declarations that must agree for deltas to mean what they seem to mean.
DECLARED_KEYS = ("calls", "seed", "backend", "dynamic", "device", "warmup_calls", "cache_policy")
# Values that only name a place in the environment (a temp dir, a home dir, a venv) are not configuration.
_PATHLIKE = re.compile(r"^(?:/|~|[A-Za-z]:[\\/])")
PATH_PLACEHOLDER = "<path>"


def normalize(value: Any) -> Any:
    """Config values with environment paths replaced by a placeholder (recursively)."""
    if isinstance(value, str):
        return PATH_PLACEHOLDER if _PATHLIKE.match(value) else value
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    return value


def _declared(capture: Capture) -> dict[str, Any] | None:
    manifest = capture.capture.manifest
    if manifest is None:
        return None
    declared = manifest.declarations.model_dump(exclude={"extra"})
    declared.update({f"extra.{k}": v for k, v in manifest.declarations.extra.items()})
    return declared


def _observed(capture: Capture) -> tuple[dict[str, Any], int | None] | None:
    """The configuration of the first rank that shows one (ranks of one run share it)."""
    for config in capture.capture.observed_config:
        if config.values:
            return {k: normalize(v) for k, v in config.values.items()}, config.rank
    return None


def check_comparability(baseline: Capture, candidate: Capture) -> Comparability:
    differences: list[Difference] = []
    missing: list[str] = []

    base_torch, cand_torch = baseline.capture.producer.torch, candidate.capture.producer.torch
    if base_torch and cand_torch:
        if base_torch != cand_torch:
            differences.append(
                Difference(key="torch_version", source="observed", baseline=base_torch, candidate=cand_torch)
            )
    else:
        missing += [
            f"{side}: torch version (not in the trace)"
            for side, v in (("baseline", base_torch), ("candidate", cand_torch))
            if not v
        ]

    base_decl, cand_decl = _declared(baseline), _declared(candidate)
    if base_decl is None or cand_decl is None:
        missing += [
            f"{side}: declarations (no manifest; record with `dynamo-diff capture`)"
            for side, d in (("baseline", base_decl), ("candidate", cand_decl))
            if d is None
        ]
    else:
        for key in sorted(set(base_decl) | set(cand_decl)):
            b, c = base_decl.get(key), cand_decl.get(key)
            if b is None and c is None:
                if key in DECLARED_KEYS:
                    missing.append(f"both: {key} not declared")
            elif b is None or c is None:
                missing.append(f"{'baseline' if b is None else 'candidate'}: {key} not declared")
            elif b != c:
                differences.append(Difference(key=key, source="declared", baseline=b, candidate=c))

    base_obs, cand_obs = _observed(baseline), _observed(candidate)
    if base_obs is None or cand_obs is None:
        missing += [
            f"{side}: compiler configuration (no compilation_metrics with dynamo_config)"
            for side, o in (("baseline", base_obs), ("candidate", cand_obs))
            if o is None
        ]
    else:
        (b_values, b_rank), (c_values, _) = base_obs, cand_obs
        for key in sorted(set(b_values) | set(c_values)):
            b, c = b_values.get(key, "<absent>"), c_values.get(key, "<absent>")
            if b != c:
                differences.append(Difference(key=key, source="observed", baseline=b, candidate=c, rank=b_rank))

    if differences:
        verdict = Verdict.CONFOUNDED
    elif missing:
        verdict = Verdict.UNKNOWN
    else:
        verdict = Verdict.COMPARABLE
    return Comparability(verdict=verdict, differences=differences, missing=missing)
