"""Check the retained Transformers static-cache comparison with the core packages only (no torch, no transformers).

    uv run python case_studies/transformers_cache/verify.py

Imports both bundles into a temporary store, compares them per source function and checks the story told in
README.md. Every check raises SystemExit, so it also fails under ``python -O``.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from dynamo_diff_compare import compare_captures, user_sources
from dynamo_diff_store import Store

HERE = Path(__file__).resolve().parent
BUNDLES = HERE / "bundles"

# The guard that only the lazily initialised cache fails, and the one that splits prefill from decode.
LAZY_GUARD = "kwargs['cache'].layers[0].is_initialized == False"
KWARGS_GUARDS = ("len(kwargs) == 6", "len(kwargs) == 7")


def check(ok: bool, message: str) -> None:
    if not ok:
        raise SystemExit(f"verify: FAILED: {message}")
    print(f"ok  {message}")


def reasons(capture: Any) -> dict[str, list[tuple[str, str]]]:
    """compile id -> [(category, guard text without the user stack)] of its confirmed recompilation."""
    found: dict[str, list[tuple[str, str]]] = {}
    for rank in capture.ranks:
        for comp in rank.compilations:
            if comp.recompile is not None and comp.recompile.confirmed:
                found[comp.compile_id] = [(r.category, r.text.split("\n")[0]) for r in comp.recompile.reasons]
    return found


def oracle(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((BUNDLES / f"{name}.oracle.json").read_text(encoding="utf-8"))
    return data


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="dynamo-diff-case-") as tmp:
        store = Store(Path(tmp) / "store")
        base = store.import_path(BUNDLES / "lazy", label="lazy").capture
        cand = store.import_path(BUNDLES / "early", label="early").capture
        comparison = compare_captures(
            base,
            cand,
            baseline_sources=user_sources(*store.source_files(base.capture.id)),
            candidate_sources=user_sources(*store.source_files(cand.capture.id)),
            intended=["command"],  # the change under test is the workload's `lazy` / `early` argument
        )
        # The recompile_reasons record of lazy 0/2 (README.md shows it: `dynamo-diff evidence lazy u1-e17`).
        (lazy_02,) = [c for r in base.ranks for c in r.compilations if c.compile_id == "0/2"]
        assert lazy_02.recompile is not None
        evidence_id = lazy_02.recompile.reasons[0].evidence_id or ""
        excerpt = store.read_evidence(base.capture.id, evidence_id).text

    # The two runs differ only in when the cache is allocated.
    check(
        comparison.comparability.verdict == "comparable"
        and [d.key for d in comparison.comparability.intended] == ["command"],
        "the runs are comparable: they differ only in the command's argument, the change under test",
    )
    for capture in (base, cand):
        validity = capture.capture.validity
        check(
            (validity.provenance, validity.workload_completion) == ("verified", "declared_completed"),
            f"{capture.capture.label}: provenance verified, workload declared completed",
        )

    # One source function is compiled: the keyword-deprecation wrapper around LlamaForCausalLM.forward.
    check(len(comparison.functions) == 1, "one compiled source function on each side")
    row = comparison.functions[0]
    check(
        row.status == "matched" and row.baseline is not None and row.candidate is not None,
        "the function is matched across the runs",
    )
    # The frame Dynamo compiles is Transformers' keyword-deprecation wrapper (site-packages), so the row is the
    # user's function that called model.generate, with the compiled frame as its one piece.
    check(row.baseline.qualified_name == "generate", "the row is the workload's generate(), the nearest user frame")
    check(
        [(p.name, p.library_file) for p in row.pieces] == [("wrapped_func", "transformers/utils/deprecation.py")],
        "its compiled frame is transformers' deprecate_kwarg wrapped_func",
    )
    check(row.baseline.compile_ids == ["0/0", "0/1", "0/2"], "lazy: compilations 0/0, 0/1, 0/2")
    check(row.candidate.compile_ids == ["0/0", "0/1"], "early: compilations 0/0, 0/1")
    check(
        (
            row.baseline.counts.confirmed_recompilation_identities,
            row.candidate.counts.confirmed_recompilation_identities,
        )
        == (2, 1),
        "confirmed recompilations 2 -> 1",
    )

    # Which recompilation disappears: 0/2, the second request's prefill, caused by the lazily set flag.
    lazy, early = reasons(base), reasons(cand)
    check(sorted(lazy) == ["0/1", "0/2"] and sorted(early) == ["0/1"], "recompiled: lazy 0/1 and 0/2, early 0/1 only")
    check(
        ("value", f"0/0: {LAZY_GUARD}") in [(c, t.rstrip().split("  ")[0]) for c, t in lazy["0/2"]],
        "lazy 0/2 fails the value guard on the cache's is_initialized flag (set by the cold prefill)",
    )
    check(
        not any(LAZY_GUARD in t for rs in early.values() for _, t in rs),
        "no guard on is_initialized fails in the early run",
    )
    check(
        evidence_id == "u1-e17" and "is_initialized == False" in excerpt,
        "the evidence excerpt u1-e17 (the one README.md shows) has the is_initialized guard",
    )
    summaries = [c.summary for c in row.changes if c.kind == "recompile_reason"]

    # Which specializations remain: prefill (6 keyword arguments) and decode (7) in both runs.
    def kwargs_guards(found: dict[str, list[tuple[str, str]]], compile_id: str) -> list[str]:
        return [g for _, t in found[compile_id] for g in KWARGS_GUARDS if g in t]

    check(kwargs_guards(early, "0/1") == ["len(kwargs) == 6"], "early 0/1 (decode) fails 0/0's len(kwargs) == 6")
    check(kwargs_guards(lazy, "0/1") == ["len(kwargs) == 6"], "lazy 0/1 (decode) fails 0/0's len(kwargs) == 6")
    check(kwargs_guards(lazy, "0/2") == ["len(kwargs) == 7"], "lazy 0/2 (prefill) fails 0/1's len(kwargs) == 7")
    check(
        any(s.startswith("value guards failing: 3 -> 1") for s in summaries),
        "the row reports the flag and the kwargs-count guards as value guards: 3 -> 1",
    )

    # The generated tokens: compiled equals eager, in both runs, for every request (cold and warm).
    for name in ("lazy", "early"):
        data = oracle(name)
        requests = data["requests"]
        check(len(requests) == 3 and data["calls"] == 3, f"{name}: 3 requests recorded")
        check(
            all(r["tokens"] == r["eager_tokens"] and len(r["tokens"]) == data["new_tokens"] for r in requests),
            f"{name}: every request's generated tokens equal eager generation",
        )
    check(
        [r["tokens"] for r in oracle("lazy")["requests"]] == [r["tokens"] for r in oracle("early")["requests"]],
        "lazy and early generate the same tokens",
    )
    print("verify: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
