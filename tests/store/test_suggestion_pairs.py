"""The fixture pairs of fixtures/suggestion_pairs.json: for every suggestion kind, a workload and the same workload
with the suggestion applied, both recorded with real torch.

Every number here comes from the workloads' own oracle.json (`measured`: what torch counted in-process while the
named function ran: its compilation metrics, `counters["graph_break"]`, the graphs the counting backend was handed),
never from our analyser. The pair file's counts must equal those, and the applied run must show the drop.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PAIRS: list[dict[str, Any]] = json.loads((FIXTURES / "suggestion_pairs.json").read_text())
# The suggestion kinds of issue 30 (the schema's SuggestionKind values).
KINDS = {
    "mark_dynamic",
    "dtype_device",
    "grad_mode",
    "dynamic_scalar",
    "create_once",
    "recompile_limit",
    "graph_break",
    "call_compiled",
    "suppressed_failure",
}
TARGETS = {"recompiles", "graph_breaks", "compilations", "failures"}


def measured(capture: str, function: str) -> dict[str, Any]:
    oracle = json.loads((FIXTURES / "captures" / capture / "oracle.json").read_text())
    assert oracle["torch_version"].startswith("2.13.0")
    assert oracle["outputs_match_eager"], f"{capture}: a compiled call disagreed with eager"
    block: dict[str, Any] = oracle["measured"][function]
    # Every compilation torch finished without a failure handed its graph to the counting backend.
    accepted = {g["compile_id"] for g in oracle["backend_graphs"] if not g["raised"]}
    assert {c["compile_id"] for c in block["compilations"] if c["fail_type"] is None} <= accepted
    return block


def oracle_count(capture: str, function: str, target: str) -> int:
    block = measured(capture, function)
    comps = block["compilations"]
    if target == "recompiles":  # compile ids F/C with C > 0, the one refused at the recompile limit included
        return sum(1 for c in comps if int(c["compile_id"].split("/")[1]) > 0)
    if target == "graph_breaks":
        return int(block["graph_breaks"])
    if target == "compilations":
        return len(comps)
    return sum(1 for c in comps if c["fail_type"] is not None)


def test_every_suggestion_kind_has_a_pair() -> None:
    assert {p["kind"] for p in PAIRS} == KINDS


def test_the_vocabulary_is_the_schema_s() -> None:
    from dynamo_diff_schema import SuggestionKind

    assert {k.value for k in SuggestionKind} == KINDS


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p['kind']}-{p['function']}")
def test_the_applied_suggestion_removes_what_it_targets(pair: dict[str, Any]) -> None:
    assert pair["targets"] in TARGETS and pair["applied"].strip()
    assert pair["before"] == f"pair_{pair['kind']}_before" and pair["after"] == f"pair_{pair['kind']}_after"
    before = oracle_count(pair["before"], pair["function"], pair["targets"])
    after = oracle_count(pair["after"], pair["function"], pair["targets"])
    assert (pair["oracle_before"], pair["oracle_after"]) == (before, after)
    if pair["targets"] == "compilations":  # "compiled nothing": the fix is that something compiles
        assert before == 0 < after
    else:
        assert before > 0 and after == 0


def test_the_recompile_limit_pair_hits_the_limit_only_before() -> None:
    def hits(capture: str) -> list[str]:
        comps = measured(capture, "step")["compilations"]
        return [c["fail_reason"] for c in comps if (c["fail_reason"] or "").startswith("Dynamo recompile limit")]

    (reason,) = hits("pair_recompile_limit_before")
    assert "recompile_limit cache size limit (currently set to 4)" in reason
    assert hits("pair_recompile_limit_after") == []


def test_a_branch_on_an_int_is_not_helped_by_dynamic_scalars() -> None:
    """gate's `if flag:` recompiles on the value with scalars static or dynamic: the ambiguous case, where no
    dynamic_scalar suggestion may be made. torch's guard text differs: a specialized value's guard is padded,
    the dynamic symbol's guard names where the shape environment evaluated it."""
    before = measured("pair_dynamic_scalar_before", "gate")["compilations"]
    after = measured("pair_dynamic_scalar_after", "gate")["compilations"]
    assert len(before) == len(after) == 2
    assert before[1]["recompile_reason"].startswith("1/0: flag == 0      ")
    assert after[1]["recompile_reason"].startswith("1/0: flag == 0  # if flag:")
    assert "(_dynamo/symbolic_convert.py:" in after[1]["recompile_reason"]


def test_a_suppressed_failure_ran_eagerly_and_the_fix_compiles() -> None:
    (failed,) = measured("pair_suppressed_failure_before", "triple")["compilations"]
    assert failed["fail_type"] == "BackendCompilerFailed"
    (fixed,) = measured("pair_suppressed_failure_after", "triple")["compilations"]
    assert fixed["fail_type"] is None
