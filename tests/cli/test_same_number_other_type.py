"""A recompile on a number set to an equal value of another type: int_then_float.py sets its module's `p` from 2 to
2.0 before step 2 (its own record of the values), and torch's in-process record of the failing guard (copied into
the oracle) is `self.p == 2`, although 2 == 2.0 in Python: torch's value guard compares the type first. The report
says so beside the guard and what the new entry was made for."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAME = "int_then_float"


def test_an_equal_number_of_another_type_is_said(run: Run) -> None:
    oracle = json.loads((CAPTURES / NAME / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["p_by_step"] == ["2", "2", "2.0", "2.0"] and oracle["backend_invocations"] == 2
    (failure,) = oracle["guard_failures"]["forward"]
    assert failure.startswith("0/0: self.p == 2 ")
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function")
    assert code == 0, err
    (line,) = [s.strip() for s in unwrapped(out) if "recompiled [" in s]
    assert "[value] 0/0: self.p == 2 at int_then_float.py:18" in line, line
    assert "(made for: L['self'].p == 2.0) (2 and 2.0 are equal, but the guard checks the type too: int, float)" in line


def test_a_different_number_says_nothing_of_types(run: Run) -> None:
    """pinned_index: each recompile is made for another position (1, 2, 3): no note."""
    code, out, err = run("analyze", str(CAPTURES / "pinned_index"), "--by-function")
    assert code == 0, err
    assert sum("recompiled [" in s for s in unwrapped(out)) == 3
    assert "are equal, but the guard checks the type" not in out
