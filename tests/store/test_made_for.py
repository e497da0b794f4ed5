"""What a recompilation's new cache entry was made for (GuardReason.made_for): the new compilation's own guard on
the source of the older entry's failing guard, read from its guard tree (dynamo_cpp_guards_str). Expected values
come from the workloads (fixtures/workloads/*.py: the values each call passes) and are checked against the raw
trace text of the new compilation's guard tree, never against the analyser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from dynamo_diff_store import Store
from dynamo_diff_store.analysis import _guards

from .guard_trees import raw_guard_tree

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _made_for(store: Store, name: str) -> dict[str, list[list[str]]]:
    capture = store.import_path(CAPTURES / name).capture
    return {
        c.compile_id: [r.made_for for r in c.recompile.reasons]
        for rank in capture.ranks
        for c in rank.compilations
        if c.recompile is not None
    }


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("made_for") / "store")


def test_a_global_value_and_a_dtype(store: Store) -> None:
    # global_guard.py: MODE is "sin", then "cos" (0/1 is made for it); cast gets float32, then float64 (1/1).
    assert "EQUALS_MATCH: G['MODE'] == 'cos'" in raw_guard_tree("global_guard", 0, 1)
    assert "torch.float64, device=None, requires_grad=False, size=[5], stride=[1]" in raw_guard_tree(
        "global_guard", 1, 1
    )
    assert _made_for(store, "global_guard") == {
        "0/1": [["G['MODE'] == 'cos'"]],
        "1/1": [["L['x']: torch.float64, size=[5], stride=[1]"]],
    }


def test_each_kind_of_guard(store: Store) -> None:
    # guards.py: each function's second call changes one thing (its @case lists the calls).
    got = _made_for(store, "guards")
    expected = {
        "0/1": (["L['x']: torch.float32, size=[5], stride=[1]"], "size=[5]"),  # ones(4) then ones(5)
        "2/1": (["L['x']: torch.float64, size=[4], stride=[1]"], "torch.float64"),  # then a float64 tensor
        "3/1": (["L['x']: torch.float32, requires_grad=True, size=[4], stride=[1]"], "requires_grad=True"),
        "4/1": (["GLOBAL_STATE grad_mode=true"], '"grad_mode":true'),  # no_grad, then grad on
        "7/1": (["L['n'] == 3"], "EQUALS_MATCH: L['n'] == 3"),  # n=2, then 3
        "8/1": (["L['flag'] == False"], "FALSE_MATCH: L['flag'] == False"),  # True, then False
        "9/1": (["len(L['xs']) == 3"], "LENGTH_CHECK: len(L['xs']) == 3"),  # [1, 2], then [1, 2, 3]
        "12/1": (["GLOBAL_STATE deterministic_algorithms=true"], '"deterministic_algorithms":true'),
    }
    for cid, (made_for, raw) in expected.items():
        frame, compile_id = map(int, cid.split("/"))
        assert raw in raw_guard_tree("guards", frame, compile_id), cid
        assert got[cid] == [made_for], cid
    # torch.sin then torch.cos: a new object id, the one the new tree checks.
    (fn_id,) = re.findall(
        r"ID_MATCH: (___check_obj_id\(L\['fn'\], \d+\), type=<class '\w+'>)", raw_guard_tree("guards", 10, 1)
    )
    assert got["10/1"] == [[fn_id]]
    # ones(4), ones(5) (the size made dynamic: None), then ones(1) (0 and 1 are specialized): 11/2 fails both.
    assert got["11/1"] == [["L['x']: torch.float32, size=[None], stride=[1]"]]
    assert got["11/2"] == [["L['x']: torch.float32, size=[1], stride=[1]"]] * 2


def test_two_entries_checked(store: Store) -> None:
    # multiple_guards.py: (randn(4), 2), then (randn(6, float64), 3), then (randn(6, float64), 2).
    assert _made_for(store, "multiple_guards") == {
        "0/1": [["L['n'] == 3"]],
        "0/2": [["L['n'] == 2"], ["L['x']: torch.float64, size=[6], stride=[1]"]],
    }


def test_an_autocast_switch_is_made_for_the_new_entrys_autocast_flags(store: Store) -> None:
    """autocast_switch: the model called plainly, then under CPU bfloat16 autocast. torch's reason names
    `autocast(cpu)_enabled`, which is no key of its global state JSON (autocast's flags are a list per device type):
    the new entry's list is said as its tree writes it."""
    (raw,) = (CAPTURES / "autocast_switch" / "raw").glob("*.log")
    trees = re.findall(r"GLOBAL_STATE: ___check_global_state\(\) against (\{.*\})", raw.read_text(encoding="utf-8"))
    first, second = (json.loads(t)["autocast_state"]["enabled"] for t in trees)
    assert not any(first) and second[0] is True
    capture = store.import_path(CAPTURES / "autocast_switch").capture
    (recompiled,) = [c for r in capture.ranks for c in r.compilations if c.recompile is not None]
    assert recompiled.recompile is not None
    (reason,) = recompiled.recompile.reasons
    assert "GLOBAL_STATE changed: autocast(cpu)_enabled" in reason.text
    flags = json.dumps(second, separators=(",", ":"))
    assert reason.made_for == [f"GLOBAL_STATE autocast_state.enabled={flags}"]


def test_a_guard_the_tree_holds_twice_is_said_once() -> None:
    # A float a resume function reads made symbolic and fixed again (torch 2.13: `remove_tensorify_specialized_
    # graphargs` writes the same LAMBDA_GUARD twice at the top of the new entry's tree).
    tree = "\n".join(
        [
            "\t+- LAMBDA_GUARD: L['start'] == 1064.096936651  # (_dynamo/output_graph.py:3375 in remove_tensorify)",
            "\t+- LAMBDA_GUARD: L['start'] == 1064.096936651  # (_dynamo/output_graph.py:3375 in remove_tensorify)",
        ]
    )
    reason = "2/0: start == 1063.288274652  # self.ms = (time.perf_counter() - start) * 1000  # probe.py:23 in f"
    assert _guards.made_for(reason, "value", _guards.tree_leaves(tree)) == ["L['start'] == 1064.096936651"]
