"""Guard categories from the guard text torch prints (examples taken from real traces in fixtures/ and the
Transformers case study)."""

from __future__ import annotations

import pytest
from dynamo_diff_store.analysis import categorize


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6", "shape"),
        ("0/1: tensor 'x' dtype mismatch. expected Float, actual Double", "dtype"),
        ("0/0: L['n'] == 2", "value"),
        ("0/0: GLOBAL_STATE changed: grad_mode ", "grad_mode"),
        ("0/0: ___check_obj_id(act.__code__, 140234)", "identity"),
        # A Python container's length (Transformers' decode step passes one more keyword): not a tensor shape.
        ("0/1: len(kwargs) == 7", "value"),
        ("0/0: kwargs['cache'].layers[0].is_initialized == False", "value"),
        ("0/0: Ne(L['x'].size()[0], 1)", "symbol"),
        # A symbolic float's range (float_attribute: the branch `if self.temperature > 0.5` taken at 0/1).
        ("0/1: self.temperature > 0.5  # if self.temperature > 0.5:  # float_attribute.py:30 in forward", "value"),
        ("0/0: 2 <= L['x'].size()[0]", "symbol"),
        # aliased_inputs: step(g, g) after step(g, d).
        ('0/0: Duplicate tensors found: ["acc", "delta"]', "aliasing"),
        # trial_hook_after: a global list a forward hook appends to, empty at the first entry.
        ("0/0: not G['ACT_STATS']  # ACT_STATS.append(x)  # serve.py:51 in record_dead_fraction", "value"),
        ("0/0: something torch has not said before", "other"),
    ],
)
def test_category(text: str, category: str) -> None:
    assert categorize(text) == category


def test_every_kind_of_guard_in_a_real_trace(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """fixtures/captures/guards: one function per kind of guard, each recompiling because exactly one property of
    its inputs or of the global state changed (the workload says which: expect.recompile_categories)."""
    import json
    from pathlib import Path

    from dynamo_diff_store import Store

    fixture = Path(__file__).resolve().parents[2] / "fixtures/captures/guards"
    expected = json.loads((fixture / "oracle.json").read_text())["expect"]["recompile_categories"]
    capture = Store(tmp_path / "store").import_path(fixture).capture
    got: dict[str, list[str]] = {}
    for rank in capture.ranks:
        for comp in rank.compilations:
            if comp.recompile is not None:
                got.setdefault(comp.code.co_name or "?", []).append(str(comp.recompile.reasons[0].category))
    assert got == expected
    assert {c for cats in expected.values() for c in cats} == {
        "shape",
        "stride",
        "dtype",
        "requires_grad",
        "grad_mode",
        "device",
        "type",
        "value",
        "identity",
        "symbol",
        "global_state",
    }
