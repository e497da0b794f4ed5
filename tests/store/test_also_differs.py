"""What else differs at a recompile (GuardReason.also_differs): torch reports only the first failing guard of each
older cache entry; the older entry's guard tree and the new one's, compared source by source, say what else
changed. Expected values are read from the raw guard trees (dynamo_cpp_guards_str) of both entries and from the
workloads (fixtures/workloads/*.py), never from the analyser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dynamo_diff_store import Store

from .guard_trees import raw_guard_tree

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _tensor(tree: str, source: str, field: str) -> str:
    """One field of the tree's check_tensor(...) on `source` (the dtype: the argument after the dispatch keys)."""
    (args,) = re.findall(rf"TENSOR_MATCH: check_tensor\({re.escape(source)}, (.*?)\)  ", tree)
    if field == "dtype":
        (value,) = re.findall(r"DispatchKeySet\([^)]*\), (torch\.\w+),", args)
        return value
    (value,) = re.findall(rf"\b{field}=(\[[^\]]*\]|\w+)", args)
    return value


def _also(store: Store, name: str) -> dict[tuple[str, str], tuple[str | None, list[str], int]]:
    capture = store.import_path(CAPTURES / name).capture
    return {
        (c.compile_id, r.text.split(":", 1)[0]): (r.also_differs_from, r.also_differs, r.also_differs_count)
        for rank in capture.ranks
        for c in rank.compilations
        if c.recompile is not None
        for r in c.recompile.reasons
    }


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("also_differs") / "store")


WEIGHT = "L['self']._modules['linear']._parameters['weight']"
BIAS = "L['self']._modules['linear']._parameters['bias']"


def test_grad_mode_reported_and_the_parameters_requires_grad_also_changed(store: Store) -> None:
    # pair_grad_mode_before: 0/1 compiled under no_grad, 0/2 with the parameters frozen (requires_grad_(False)).
    t0, t1, t2 = (raw_guard_tree("pair_grad_mode_before", 0, i) for i in range(3))
    for src in (WEIGHT, BIAS):
        assert _tensor(t0, src, "requires_grad") == _tensor(t1, src, "requires_grad") == "True"
        assert _tensor(t2, src, "requires_grad") == "False"
    assert _tensor(t0, "L['x']", "requires_grad") == _tensor(t2, "L['x']", "requires_grad") == "False"
    got = _also(store, "pair_grad_mode_before")
    # Against 0/1 torch reported the grad mode: both parameters' requires_grad differ too, grouped.
    assert got[("0/2", "0/1")] == ("0/1", ["2 parameters of L['self']: requires_grad True -> False"], 2)
    # Against 0/0 torch reported the bias's requires_grad: the weight's is the other difference.
    assert got[("0/2", "0/0")] == ("0/0", [f"{WEIGHT}: requires_grad True -> False"], 1)
    # 0/1 against 0/0: only the grad mode (a tensor property, requires_grad, is not fixed by no_grad).
    assert got[("0/1", "0/0")] == ("0/0", [], 0)


def test_a_value_guard_reported_and_the_tensor_also_changed(store: Store) -> None:
    # multiple_guards: call 2 changes x's size and dtype and n at once; torch reports "n == 2" only.
    t0, t1, t2 = (raw_guard_tree("multiple_guards", 0, i) for i in range(3))
    d0, d1, d2 = (_tensor(t, "L['x']", "dtype") for t in (t0, t1, t2))
    s0, s1, s2 = (_tensor(t, "L['x']", "size") for t in (t0, t1, t2))
    assert (d0, d1, d2, s0, s1, s2) == ("torch.float32", "torch.float64", "torch.float64", "[4]", "[6]", "[6]")
    assert "L['n'] == 2" in t0 and "L['n'] == 3" in t1 and "L['n'] == 2" in t2
    got = _also(store, "multiple_guards")
    assert got[("0/1", "0/0")] == ("0/0", [f"L['x']: dtype {d0} -> {d1}", f"L['x']: size {s0} -> {s1}"], 2)
    # 0/2 fails 0/0 on the dtype (reported): the size differs too; n is 2 in both trees.
    assert got[("0/2", "0/0")] == ("0/0", [f"L['x']: size {s0} -> {s2}"], 1)
    # 0/2 fails 0/1 on n (reported): x is the same in both trees.
    assert got[("0/2", "0/1")] == ("0/1", [], 0)


def test_a_second_value_guard(store: Store) -> None:
    # scalar.py: calls (n, scale) = (2, 0.5), (3, 0.5), (3, 1.5); 0/2 fails 0/0 on n, and scale differs too.
    trees = [raw_guard_tree("scalar", 0, i) for i in range(3)]
    scales = [re.findall(r"EQUALS_MATCH: (L\['scale'\] == [\d.]+)", t)[0] for t in trees]
    assert scales == ["L['scale'] == 0.5", "L['scale'] == 0.5", "L['scale'] == 1.5"]
    got = _also(store, "scalar")
    assert got[("0/2", "0/0")] == ("0/0", [f"{scales[0]} -> {scales[2]}"], 1)
    assert got[("0/1", "0/0")] == ("0/0", [], 0)
