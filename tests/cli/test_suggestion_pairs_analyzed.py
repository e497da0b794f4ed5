"""Every fixture pair of fixtures/suggestion_pairs.json read by `dynamo-diff analyze`: the workload's run carries a
suggestion of the pair's kind for the pair's function, and the run with that suggestion applied, where torch itself
counted the targeted recompiles, breaks or failures gone (tests/store/test_suggestion_pairs.py checks that drop on
the oracles), carries none for it. The kind and the function come from the pair file, not from our analyser."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import Run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PAIRS: list[dict[str, Any]] = json.loads((FIXTURES / "suggestion_pairs.json").read_text(encoding="utf-8"))


def suggested(run: Run, capture: str) -> list[dict[str, Any]]:
    code, out, _ = run("analyze", str(FIXTURES / "captures" / capture), "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["kind"] == "capture"
    found: list[dict[str, Any]] = document["suggestions"]
    return found


def for_function(suggestions: list[dict[str, Any]], kind: str, function: str) -> list[dict[str, Any]]:
    """The pair names a function by co_name; a method's row is `Class.method`. A run-level suggestion (nothing
    compiled) has no function."""
    return [
        s
        for s in suggestions
        if s["kind"] == kind and (s["function"] is None or s["function"].split(".")[-1] == function)
    ]


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{p['kind']}-{p['function']}" for p in PAIRS])
def test_the_workload_gets_its_suggestion_and_the_applied_run_none(run: Run, pair: dict[str, Any]) -> None:
    before = for_function(suggested(run, pair["before"]), pair["kind"], pair["function"])
    assert before, f"{pair['before']}: no {pair['kind']} suggestion for {pair['function']}"
    assert all(s["change"] and s["cause"] for s in before)
    after = for_function(suggested(run, pair["after"]), pair["kind"], pair["function"])
    assert after == [], f"{pair['after']} ({pair['applied']}): still suggests {after}"


def test_an_int_that_decides_a_branch_gets_no_suggestion(run: Run) -> None:
    # pair_dynamic_scalar_before's `gate` recompiles on `flag == 0` where flag is used in `if flag:`; torch counted
    # 2 compilations for it with scalars dynamic too (tests/store/test_suggestion_pairs.py), so none is offered.
    suggestions = suggested(run, "pair_dynamic_scalar_before")
    assert [s for s in suggestions if s["function"] == "gate"] == []
    assert [s["kind"] for s in suggestions if s["function"] == "scaled"] == ["dynamic_scalar", "dynamic_scalar"]
