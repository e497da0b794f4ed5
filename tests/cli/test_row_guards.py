"""A comparison row whose recompiles changed lists each side's failing guards, whole (at most 4 a side, then how
many more and where to read them), and under each what the entries compiled after it failed were made for.
Expected values come from the workload (pair_recompile_limit_before's model.py: n = 2, 3, 4, 5 compile 0/0 .. 0/3,
n = 6 hits the limit) and its raw guard trees, never from the analyser."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dynamo_diff_compare.render import guard_lines
from dynamo_diff_schema.comparison import Change, ChangeKind

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def test_each_sides_failing_guards_and_what_the_new_entries_were_made_for(run: Run) -> None:
    raw = "".join(p.read_text() for p in (CAPTURES / "pair_recompile_limit_before" / "raw").glob("*.log"))
    # The four entries' own guards on n; the fifth compilation (the limit) wrote no guard tree.
    assert re.findall(r"EQUALS_MATCH: (L\['n'\] == \d)", raw) == [f"L['n'] == {n}" for n in (2, 3, 4, 5)]
    code, out, err = run(
        "compare", str(CAPTURES / "pair_recompile_limit_before"), str(CAPTURES / "pair_recompile_limit_after")
    )
    assert code == 0, err
    lines = [s.strip() for s in out.splitlines()]  # guard lines are never wrapped
    start = next(i for i, s in enumerate(lines) if s.startswith("value guards failing: 10 -> 0"))
    assert lines[start + 1 : start + 9] == [
        "baseline: 0/0: n == 2 at model.py:10: return x * n + 1",
        "(new entries made for: L['n'] == 3; L['n'] == 4; L['n'] == 5)",
        "baseline: 0/1: n == 3 at model.py:10: return x * n + 1",
        "(new entries made for: L['n'] == 4; L['n'] == 5)",
        "baseline: 0/2: n == 4 at model.py:10: return x * n + 1",
        "(new entry made for: L['n'] == 5)",
        "baseline: 0/3: n == 5 at model.py:10: return x * n + 1",
        # 0/1 .. 0/4 checked 1, 2, 3 and 4 older entries: 10 failing guards, 4 texts.
        "(baseline: 10 failing guards of this kind, repeating the 4 texts above)",
    ]


def test_at_most_four_texts_a_side_then_how_many_more_and_where() -> None:
    side = {"category": "value", "failing_guards": 9, "examples": [f"0/{i}: n == {i + 2}" for i in range(6)]}
    change = Change(
        kind=ChangeKind.RECOMPILE_REASON,
        summary="value guards failing: 9 -> 0",
        baseline=side | {"other_texts": 1},
        candidate={"category": "value", "failing_guards": 0, "examples": []},
    )
    lines = [s.strip() for s in guard_lines(change)]
    assert lines == [
        "baseline: 0/0: n == 2",
        "baseline: 0/1: n == 3",
        "baseline: 0/2: n == 4",
        "baseline: 0/3: n == 5",
        "(baseline: 3 more texts, 7 in all from 9 failing guard(s) of this kind: the baseline run's analysis "
        "lists every one per compilation; the change's JSON examples hold 6)",
    ]


def test_the_same_guard_failed_by_each_older_entry_is_said_once_with_each_entrys_value(run: Run) -> None:
    """torch names one failing guard per older entry: pair_recompile_limit_before's fifth compilation (n = 6, the
    limit) names all four. The text says the guard once and each other entry's own value (from the workload's own
    record of torch's guard failures); the JSON keeps all four."""
    oracle = json.loads((CAPTURES / "pair_recompile_limit_before" / "oracle.json").read_text(encoding="utf-8"))
    failures = [f.split("#", 1)[0].strip() for f in oracle["guard_failures"]["step"] if f[:1].isdigit()]
    last = failures[-4:]
    assert last == ["0/3: n == 5", "0/2: n == 4", "0/1: n == 3", "0/0: n == 2"]
    path = str(CAPTURES / "pair_recompile_limit_before")
    code, out, err = run("analyze", path, "--by-function")
    assert code == 0, err
    (line,) = [s.strip() for s in out.splitlines() if s.strip().startswith("0/4 failed:")]
    others = ", ".join(f"{f.split(':')[0]} ({f.rsplit(' ', 1)[1]})" for f in last[1:])
    # The line's code is quoted under the first recompile that names it, the line only after that.
    assert line.startswith(
        f"0/4 failed: recompiled [value] {last[0]} at model.py:10; the same guard failed on {others}"
    )
    assert out.count("at model.py:10: return x * n + 1") == 1
    assert others == "0/2 (4), 0/1 (3), 0/0 (2)"
    code, out, _ = run("analyze", path, "--by-function", "--format", "json")
    (comp,) = [c for fn in json.loads(out)["functions"] for c in fn["compilations"] if c["compile_id"] == "0/4"]
    assert [g["text"] for g in comp["recompile"]] == last
