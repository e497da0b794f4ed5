"""What the CLI prints never hides one item behind a count ("+1 more"), and a compilation lists every failing guard
it has: the one a summary would leave out is often the answer. Expected values from the workloads' oracle.json
(what torch's guard_failures held), never from our analyser."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures" / "captures"
ONE_HIDDEN = r"\+1 more|\+1\]|\+1\)|[,(] 1 more|and 1 more\b"


def test_a_compilation_lists_every_failing_guard(run: Run) -> None:
    # multiple_guards: the third call fails entry 0/1 on n and entry 0/0 on x's dtype (its oracle's expectation and
    # torch's guard_failures): both are 0/2's reasons.
    oracle = json.loads((CAPTURES / "multiple_guards" / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["expect"]["recompile_guard_kinds"][1] == ["value", "dtype"]
    second = [g.split("  #", 1)[0].strip() for g in oracle["guard_failures"]["f"][1:]]
    assert len(second) == 2 and "dtype mismatch" in second[1]
    code, out, _ = run("analyze", str(CAPTURES / "multiple_guards"))
    assert code == 0
    lines = [line for line in out.splitlines() if not line.strip().startswith("made for: ")]
    at = lines.index("0/2 f (multiple_guards.py:9): completed")
    assert [line.strip() for line in lines[at + 1 : at + 3]] == [
        f"recompile [value]: {second[0]} at multiple_guards.py:10: return x.sin() * n",
        f"recompile [dtype]: {second[1]}",
    ]
    assert "more failing guard" not in out
    code, out, _ = run("analyze", str(CAPTURES / "multiple_guards"), "--by-function")
    assert code == 0 and all(guard in out for guard in second) and "more failing guard" not in out


def test_no_output_hides_one_item_behind_a_count(run: Run) -> None:
    pairs = [
        ("pair_recompile_limit_before", "pair_recompile_limit_after"),
        ("auto_dynamic_on", "auto_dynamic_off"),
        ("edit_v1", "edit_v2"),
        ("multiple_guards", "shape"),
    ]
    outputs = []
    for b, c in pairs:
        outputs.append(run("compare", str(CAPTURES / b), str(CAPTURES / c))[1])
        outputs.append(run("compare", str(CAPTURES / b), str(CAPTURES / c), "--format", "markdown")[1])
    for name in ("multiple_guards", "recompile_limit", "resume_locals", "ddp_ranks", "dynamic"):
        outputs.append(run("analyze", str(CAPTURES / name))[1])
        outputs.append(run("analyze", str(CAPTURES / name), "--by-function")[1])
    for out in outputs:
        assert out and not re.search(ONE_HIDDEN, out), re.search(ONE_HIDDEN, out)


def test_a_comparison_names_and_counts_each_sides_failing_guards(run: Run) -> None:
    on, off = (
        json.loads((CAPTURES / n / "oracle.json").read_text(encoding="utf-8"))["guard_failures"]["f"]
        for n in ("auto_dynamic_on", "auto_dynamic_off")
    )
    pair = (str(CAPTURES / "auto_dynamic_on"), str(CAPTURES / "auto_dynamic_off"))
    code, out, _ = run("compare", *pair)
    assert code in (0, 1)
    # Each side's texts, at most 4 a side (what each new entry was made for under each), then how many more
    # and where the rest are.
    lines = [line for line in out.splitlines() if not line.strip().startswith("(new entr")]
    at = next(i for i, line in enumerate(lines) if line.startswith("  shape guards failing: 1 -> 6"))
    assert [line.strip() for line in lines[at + 1 : at + 6]] == [f"baseline: {on[0]}"] + [
        f"candidate: {g}" for g in off[:4]
    ]
    assert lines[at + 6].strip().startswith(f"(candidate: {len(off) - 4} more texts, {len(off)} in all from")
    code, out, _ = run("compare", *pair, "--format", "json")
    (change,) = [c for row in json.loads(out)["functions"] for c in row["changes"] if c["kind"] == "recompile_reason"]
    assert (change["baseline"]["failing_guards"], change["candidate"]["failing_guards"]) == (len(on), len(off))
    assert change["baseline"]["examples"] == on and change["candidate"]["examples"] == off
    assert "other_texts" not in change["baseline"] and "other_texts" not in change["candidate"]
