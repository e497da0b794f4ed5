"""The code change between two runs, function by function, from their source snapshots."""

from __future__ import annotations

from dynamo_diff_match import SnapshotSet, source_diff

BEFORE = """import torch


def helper(x):
    return x + 1


def gate(x, flag):
    if flag:
        return x.relu()
    return x * 0.5


def gone(x):
    return x
"""

AFTER = """import torch

# a comment above, so every line below moved by one


def helper(x):
    return x + 1


def gate(x, mix):
    return x.relu() * mix + x * 0.5 * (1 - mix)


def added(y):
    return y.softmax(-1)
"""


def snapshots(text: str) -> SnapshotSet:
    return SnapshotSet({"model.py": text}, {"/run/model.py": "model.py"})


def test_each_changed_function_is_one_diff_with_file_line_numbers() -> None:
    diffs = source_diff(snapshots(BEFORE), snapshots(AFTER), {"helper", "gate", "gone", "added"})
    by_name = {d.qualified_name: d for d in diffs}
    assert set(by_name) == {"gate", "gone", "added"}  # helper only moved: not a change
    gate = by_name["gate"]
    assert (gate.baseline, gate.candidate) == ("model.py:8", "model.py:10")
    assert gate.lines[:2] == ["--- baseline/model.py", "+++ candidate/model.py"]
    assert gate.lines[2] == "@@ -8,4 +10,2 @@"
    assert "-def gate(x, flag):" in gate.lines and "+def gate(x, mix):" in gate.lines
    assert by_name["added"].lines[:3] == ["--- /dev/null", "+++ candidate/model.py", "@@ -0,0 +14,2 @@"]
    assert by_name["gone"].candidate is None and by_name["gone"].lines[1] == "+++ /dev/null"
    assert [d.qualified_name for d in diffs] == ["gate", "added", "gone"]  # candidate order, then the removed


def test_functions_not_asked_for_and_equal_files_give_nothing() -> None:
    assert source_diff(snapshots(BEFORE), snapshots(AFTER), {"helper"}) == []
    assert source_diff(snapshots(BEFORE), snapshots(BEFORE), {"gate"}) == []
    assert source_diff(SnapshotSet({}, {}), snapshots(AFTER), {"gate"}) == []
